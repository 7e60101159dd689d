//! The paper's reference code's arithmetic for one pair of tetrahedra, as
//! the `@paper-code` variants need it (`docs/design/reference-code.md`,
//! "The crossing points"; `docs/errata.md`): its unnormalised face planes,
//! its inclusion test, its intersection points (an edge cut where it
//! crosses a plane, kept only if inside all four planes, the crossed one
//! included), its merges of points that coincide to round-off, and the
//! overlap test that gates its SAT methods and Opposing.
//!
//! The printed methods use `tet_geometry` instead: unit planes, a touching
//! tolerance, and the crossed plane left out of the test because the cut
//! lies on it by construction. Here the crossed plane is tested like the
//! others, so at exact touching round-off decides whether a cut is kept, as
//! it does in the code.

use super::tet_geometry::{AxisSource, TetShape};
use crate::mesh::tetmesh::{TET_EDGES, TET_FACES};
use glam::DVec3;

/// Ten machine epsilons, absolute: how close two numbers must be for the
/// paper's code to call them equal (its coordinates are of order one
/// metre). Used by its merge of intersection points and its post-filter.
pub const CODE_SAME: f64 = 10.0 * f64::EPSILON;

/// A face plane as the code keeps it: an outward normal that is *not*
/// normalised, anchored at a corner of the face. Distances are therefore
/// scaled by the normal's length; only their signs and ratios are used.
#[derive(Clone, Copy, Debug)]
pub struct CodePlane {
    pub normal: DVec3,
    pub anchor: DVec3,
}

impl CodePlane {
    /// The plane of triangle `t`, facing away from `opposite`: of the three
    /// cross products of two edges at a corner, the longest (the best
    /// conditioned), anchored at that corner; among equally long ones the
    /// code keeps the last. (The code takes the face's corners in the
    /// order of `TET_FACES`, which faces outward for a positively oriented
    /// tetrahedron; the turn towards `opposite` only matters for an
    /// inverted one.)
    fn of_face(t: [DVec3; 3], opposite: DVec3) -> CodePlane {
        let mut best = (DVec3::ZERO, t[0], f64::NEG_INFINITY);
        for k in 0..3 {
            let (o, p, q) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            let normal = (p - o).cross(q - o);
            let length_squared = normal.dot(normal);
            if length_squared >= best.2 {
                best = (normal, o, length_squared);
            }
        }
        let (normal, anchor, _) = best;
        let outward = if normal.dot(opposite - anchor) > 0.0 {
            -normal
        } else {
            normal
        };
        CodePlane {
            normal: outward,
            anchor,
        }
    }

    /// Signed distance of `p` times the normal's length (positive in front).
    pub fn distance(&self, p: DVec3) -> f64 {
        self.normal.dot(p - self.anchor)
    }

    /// Whether the segment `p`–`q` crosses the plane strictly: one end
    /// strictly in front and the other strictly behind.
    pub fn crossed_by(&self, p: DVec3, q: DVec3) -> bool {
        let (dp, dq) = (self.distance(p), self.distance(q));
        (dp > 0.0 && dq < 0.0) || (dp < 0.0 && dq > 0.0)
    }

    /// Where the segment `p`–`q` crosses the plane, as the code computes
    /// it: at |d_p| / (|d_p| + |d_q|) of the way from p to q.
    pub fn cut(&self, p: DVec3, q: DVec3) -> DVec3 {
        let (dp, dq) = (self.distance(p).abs(), self.distance(q).abs());
        p + (q - p) * (dp / (dp + dq))
    }
}

/// The four face planes of a tetrahedron, plane i opposite corner i.
pub fn code_planes(t: &TetShape) -> [CodePlane; 4] {
    std::array::from_fn(|i| CodePlane::of_face(TET_FACES[i].map(|l| t.corners[l]), t.corners[i]))
}

/// The code's inclusion test: `p` is inside unless some plane has it
/// strictly in front, so a point on a face, an edge or a corner counts.
/// No tolerance: round-off decides for a point on a plane.
pub fn code_inside(planes: &[CodePlane; 4], p: DVec3) -> bool {
    planes.iter().all(|plane| plane.distance(p) <= 0.0)
}

/// The intersection points of two tetrahedra as the code finds them, in
/// its order: for each corner number, B's corner if it is inside A, then
/// A's corner if it is inside B; then for each edge (in `TET_EDGES`
/// order) and each face number f, B's edge cut by A's plane f, then A's
/// edge cut by B's plane f, where the edge crosses the plane strictly and
/// the cut is on or behind all four planes, **the crossed one included**.
/// The cut lies on that plane up to round-off, so round-off keeps or drops
/// it. Duplicates are kept here; the callers merge them as the code does
/// ([`merge_after_projection`], [`merge_with_kept`]).
pub fn code_intersection_points(a: &TetShape, b: &TetShape) -> Vec<DVec3> {
    let (planes_a, planes_b) = (code_planes(a), code_planes(b));
    let mut points = Vec::new();
    for v in 0..4 {
        if code_inside(&planes_a, b.corners[v]) {
            points.push(b.corners[v]);
        }
        if code_inside(&planes_b, a.corners[v]) {
            points.push(a.corners[v]);
        }
    }
    for &[i, j] in &TET_EDGES {
        for f in 0..4 {
            for (edge, planes) in [(b, &planes_a), (a, &planes_b)] {
                let (p, q) = (edge.corners[i], edge.corners[j]);
                if planes[f].crossed_by(p, q) {
                    let x = planes[f].cut(p, q);
                    if code_inside(planes, x) {
                        points.push(x);
                    }
                }
            }
        }
    }
    points
}

/// The L1 distance (the sum of the three coordinate differences) the code
/// measures coinciding points with.
fn l1(p: DVec3, q: DVec3) -> f64 {
    let d = (p - q).abs();
    d.x + d.y + d.z
}

/// The SAT variants' and Opposing's merge, applied after the points are
/// projected onto the contact plane: a point is dropped when it lies
/// strictly within [`CODE_SAME`] (L1) of *any* earlier point, kept or
/// dropped.
pub fn merge_after_projection(points: &mut Vec<DVec3>) {
    let all = std::mem::take(points);
    for (k, &p) in all.iter().enumerate() {
        if !all[..k].iter().any(|&q| l1(q, p) < CODE_SAME) {
            points.push(p);
        }
    }
}

/// Growth's merge, applied to the points as found (the code does not
/// project them): a point is dropped when it lies strictly within
/// [`CODE_SAME`] (L1) of a point already kept.
pub fn merge_with_kept(points: &mut Vec<DVec3>) {
    let all = std::mem::take(points);
    for p in all {
        if !points.iter().any(|&q| l1(q, p) < CODE_SAME) {
            points.push(p);
        }
    }
}

/// The code's overlap test of two tetrahedra, which gates its SAT methods
/// and Opposing: separated when all four corners of one lie strictly in
/// front of a face plane of the other (unit planes, as the code makes them
/// for this test: the normal (p1 − p0) × (p2 − p0) divided by its length,
/// the offset p0 · n), or when the two tetrahedra's projections onto an
/// edge pair's cross product (unnormalised) are strictly apart. On an edge
/// axis the code projects three corners of each tetrahedron, leaving out
/// one end of the edge, which in exact arithmetic projects like the other
/// end: corner 0 when the edge has it, else its second end. (That is the
/// code's choice for every edge of A; on B's side it deviates for six of
/// the 36 edge pairs in a way no rule we can state describes, so there
/// round-off may fall differently; `docs/errata.md`.) Touching overlaps.
pub fn code_overlaps(a: &TetShape, b: &TetShape) -> bool {
    let face_separates = |outer: &TetShape, inner: &TetShape| {
        (0..4).any(|f| {
            let [p0, p1, p2] = TET_FACES[f].map(|l| outer.corners[l]);
            let n = (p1 - p0).cross(p2 - p0).normalize();
            let offset = p0.dot(n);
            inner.corners.iter().all(|&c| n.dot(c) - offset > 0.0)
        })
    };
    if face_separates(a, b) || face_separates(b, a) {
        return false;
    }
    // The three corners projected for an edge: all but one of its ends.
    let projected = |[i, j]: [usize; 2]| -> [usize; 3] {
        let left_out = if i == 0 { i } else { j };
        let mut kept = [0; 3];
        for (slot, c) in (0..4).filter(|&c| c != left_out).enumerate() {
            kept[slot] = c;
        }
        kept
    };
    let extent = |t: &TetShape, corners: [usize; 3], axis: DVec3| {
        let d = corners.map(|c| axis.dot(t.corners[c]));
        (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
    };
    for &ea in &TET_EDGES {
        for &eb in &TET_EDGES {
            let axis =
                (a.corners[ea[1]] - a.corners[ea[0]]).cross(b.corners[eb[1]] - b.corners[eb[0]]);
            let (a_min, a_max) = extent(a, projected(ea), axis);
            let (b_min, b_max) = extent(b, projected(eb), axis);
            if a_max < b_min || a_min > b_max {
                return false;
            }
        }
    }
    true
}

/// The code's choice of the SAT contact normal among the axes `allowed`
/// accepts (`AxisSource`: a face of A or B, or an edge pair): the unit
/// face normals of its planes in the order A face 0, B face 0, A face 1, …,
/// then the edge pairs' cross products longer than [`CODE_SAME`], divided
/// by their length. Any axis along which the two tetrahedra are strictly
/// apart gives `None`. On the others the axis counts with its sign +
/// when B's lowest projection lies within A's extent and − when A's lowest
/// lies within B's, with the overlap B's lowest − A's highest (or the
/// reverse); the first strictly largest (least negative) overlap wins.
pub fn code_sat_normal(
    a: &TetShape,
    b: &TetShape,
    allowed: impl Fn(AxisSource) -> bool,
) -> Option<(DVec3, AxisSource)> {
    let (planes_a, planes_b) = (code_planes(a), code_planes(b));
    let mut axes = Vec::with_capacity(44);
    for f in 0..4 {
        if allowed(AxisSource::FaceA(f)) {
            axes.push((planes_a[f].normal.normalize_or_zero(), AxisSource::FaceA(f)));
        }
        if allowed(AxisSource::FaceB(f)) {
            axes.push((planes_b[f].normal.normalize_or_zero(), AxisSource::FaceB(f)));
        }
    }
    for (i, &[a0, a1]) in TET_EDGES.iter().enumerate() {
        for (j, &[b0, b1]) in TET_EDGES.iter().enumerate() {
            if !allowed(AxisSource::Edges(i, j)) {
                continue;
            }
            let cross = (a.corners[a1] - a.corners[a0]).cross(b.corners[b1] - b.corners[b0]);
            let length = cross.length();
            if length > CODE_SAME {
                axes.push((cross / length, AxisSource::Edges(i, j)));
            }
        }
    }
    let mut best: Option<(f64, DVec3, AxisSource)> = None;
    // A degenerate face has no normal: no axis.
    for (axis, source) in axes.into_iter().filter(|(axis, _)| *axis != DVec3::ZERO) {
        let (a_min, a_max) = crate::geometry::extent_along(&a.corners, axis);
        let (b_min, b_max) = crate::geometry::extent_along(&b.corners, axis);
        if a_max < b_min || b_max < a_min {
            return None;
        }
        for (within, overlap, signed) in [
            (a_min <= b_min && b_min <= a_max, b_min - a_max, axis),
            (b_min <= a_min && a_min <= b_max, a_min - b_max, -axis),
        ] {
            if within && best.is_none_or(|(o, _, _)| overlap > o) {
                best = Some((overlap, signed, source));
            }
        }
    }
    best.map(|(_, n, source)| (n, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> TetShape {
        TetShape::from_corners([DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z])
    }

    #[test]
    fn planes_face_outward_and_are_not_normalised() {
        let t =
            TetShape::from_corners([DVec3::ZERO, DVec3::X * 2.0, DVec3::Y * 2.0, DVec3::Z * 2.0]);
        let planes = code_planes(&t);
        for (i, plane) in planes.iter().enumerate() {
            assert!(
                plane.distance(t.corners[i]) < 0.0,
                "plane {i} faces its corner"
            );
            assert!(plane.normal.dot(t.normals[i]) > 0.0);
        }
        // Face 3 (opposite corner 3) is the triangle in z = 0, legs of 2.
        assert!((planes[3].normal.length() - 4.0).abs() < 1e-12);
    }

    #[test]
    fn a_tet_with_itself_gives_each_corner_twice() {
        let points = code_intersection_points(&unit(), &unit());
        assert_eq!(points.len(), 8, "{points:?}");
        let mut merged = points.clone();
        merge_after_projection(&mut merged);
        assert_eq!(merged.len(), 4);
        let mut merged = points;
        merge_with_kept(&mut merged);
        assert_eq!(merged.len(), 4);
    }
}
