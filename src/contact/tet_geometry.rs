//! Geometry of one pair of tetrahedra, shared by the contact methods
//! (`docs/design/methods.md`, "Shared machinery"):
//!
//! - signed distances to a tetrahedron's face planes and point inclusion;
//! - the separating axis test (SAT) over the 4 + 4 face normals and the
//!   edge–edge cross products (Gottschalk, Lin and Manocha, "OBBTree",
//!   SIGGRAPH 1996, for the principle; Ericson 5.2.1), with the axis of
//!   minimum overlap oriented from A to B;
//! - the intersection points of two tetrahedra (vertices inside the other,
//!   edges crossing the other's faces), as the paper's SAT, Opposing and
//!   Growth methods use them (paper section 6, appendix A);
//! - exact closest points of two disjoint tetrahedra by vertex–triangle and
//!   edge–edge pairs, so no GJK is needed (`docs/design/methods.md`,
//!   "Shared machinery").
//! - a point inside a triangle's edge planes (Intersection, Closest
//!   points), the closest points of two edges strictly inside both (the
//!   paper's code's (E,E) rule), the surface corners of one tetrahedron inside another and
//!   the surface face nearest a point inside (Vertex only, Consistent
//!   vertex; paper section 6), and the inclusion test of their paper-code
//!   variants.

use super::world_mesh::Tet;
use crate::geometry::{closest_point_on_triangle, closest_points_segments};
use crate::mesh::tetmesh::{TET_EDGES, TET_FACES};
use glam::DVec3;

/// Two cosines (dot products of unit vectors, so of order one) closer than
/// this tie: far above f64 round-off on them (~1e-16), far below any
/// difference in direction a mesh means. The tie-breaks between candidate
/// normals (the SAT's, Opposing's, Growth's, Consistent vertex's) use it so
/// that the choice does not depend on round-off, e.g. on which body is A.
pub const COS_TIE: f64 = 1e-9;

/// A sum of unit vectors shorter than this has cancelled to round-off: what
/// is left points anywhere, so it is no mean direction and the caller falls
/// back to another normal.
pub const CANCELLED_UNIT_SUM: f64 = 1e-9;

/// Corners and outward face normals of a tetrahedron, detached from any
/// mesh so that scaled copies (Growth) can be used too.
#[derive(Clone, Copy, Debug)]
pub struct TetShape {
    pub corners: [DVec3; 4],
    /// Outward unit normal of local face i (opposite corner i).
    pub normals: [DVec3; 4],
}

impl TetShape {
    pub fn of(tet: &Tet) -> TetShape {
        TetShape {
            corners: tet.corners,
            normals: std::array::from_fn(|i| tet.face_normal(i)),
        }
    }

    pub fn from_corners(corners: [DVec3; 4]) -> TetShape {
        let normals = std::array::from_fn(|i| {
            let [a, b, c] = TET_FACES[i].map(|l| corners[l]);
            (b - a).cross(c - a).normalize_or_zero()
        });
        TetShape { corners, normals }
    }

    pub fn centroid(&self) -> DVec3 {
        self.corners.iter().copied().sum::<DVec3>() * 0.25
    }

    /// The tetrahedron scaled by `alpha` about `centre` (paper eq. 12).
    pub fn scaled(&self, alpha: f64, centre: DVec3) -> TetShape {
        TetShape {
            corners: self.corners.map(|p| centre + (p - centre) * alpha),
            normals: self.normals,
        }
    }

    /// Signed distance of `p` from local face i's plane (positive outside).
    pub fn face_distance(&self, i: usize, p: DVec3) -> f64 {
        self.normals[i].dot(p - self.corners[TET_FACES[i][0]])
    }

    /// Whether `p` is inside or within `tol` of the tetrahedron.
    pub fn contains(&self, p: DVec3, tol: f64) -> bool {
        (0..4).all(|i| self.face_distance(i, p) <= tol)
    }

    fn project(&self, axis: DVec3) -> (f64, f64) {
        crate::geometry::extent_along(&self.corners, axis)
    }
}

/// Where a SAT candidate axis comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisSource {
    /// Face `i` of A (a (F,V)-type axis) or of B (a (V,F)-type axis).
    FaceA(usize),
    FaceB(usize),
    /// Cross product of edge `i` of A and edge `j` of B: an (E,E) axis.
    Edges(usize, usize),
}

/// The outcome of a separating axis test.
#[derive(Clone, Copy, Debug)]
pub struct SatResult {
    /// Unit axis of minimum overlap among the allowed axes, pointing from A
    /// towards B.
    pub axis: DVec3,
    /// Overlap along that axis (≥ −tol; a small negative value is a gap
    /// within the touching tolerance).
    pub overlap: f64,
    pub source: AxisSource,
}

/// Overlap of two projected intervals [a_lo, a_hi] (of A) and [b_lo, b_hi]
/// (of B) along unit `axis`, and the axis oriented from A to B: the way
/// round in which A's maximum meets B's minimum. When both ways overlap
/// equally (within `tol`; one interval centred in the other), round-off must
/// not pick the sign: the axis then points along `a_to_b`, the direction
/// from A's centroid to B's. If the axis is also orthogonal to that, it has
/// no direction from A to B at all, and the orientation is `None`.
pub fn orient_overlap(
    (a_lo, a_hi): (f64, f64),
    (b_lo, b_hi): (f64, f64),
    axis: DVec3,
    a_to_b: DVec3,
    tol: f64,
) -> (f64, Option<DVec3>) {
    let forward = a_hi - b_lo; // overlap if B sits ahead of A along +axis
    let backward = b_hi - a_lo; // overlap if B sits ahead of A along −axis
    if (forward - backward).abs() <= tol {
        let overlap = forward.min(backward);
        let along = axis.dot(a_to_b);
        return if along.abs() <= 1e-9 * a_to_b.length() {
            (overlap, None)
        } else if along > 0.0 {
            (overlap, Some(axis))
        } else {
            (overlap, Some(-axis))
        };
    }
    if forward < backward {
        (forward, Some(axis))
    } else {
        (backward, Some(-axis))
    }
}

fn oriented_overlap(a: &TetShape, b: &TetShape, axis: DVec3, tol: f64) -> (f64, Option<DVec3>) {
    orient_overlap(
        a.project(axis),
        b.project(axis),
        axis,
        b.centroid() - a.centroid(),
        tol,
    )
}

/// Separating axis test. Every axis decides separation (more than `tol`
/// apart along any axis means no contact); the minimum-overlap axis is
/// chosen among those `allowed` accepts. Face axes win ties within `tol`
/// over edge axes, as the paper's Volume-SAT prefers (V,F) axes. Edge pairs
/// closer to parallel than `parallel_sin` give no axis. Returns `None` when
/// separated or when no allowed axis exists.
///
/// Overlaps within `tol` of the minimum are equally good (touching
/// tetrahedra have many axes of overlap 0 up to round-off). Among those the
/// axis most aligned with the line between the two centroids wins; axes
/// tied on that too are averaged. Neither round-off, nor a rotation of the
/// scene, nor swapping A and B can change the choice (the paper leaves ties
/// open).
pub fn separating_axis_test(
    a: &TetShape,
    b: &TetShape,
    tol: f64,
    parallel_sin: f64,
    allowed: impl Fn(AxisSource) -> bool,
) -> Option<SatResult> {
    let mut candidates: Vec<SatResult> = Vec::with_capacity(44);
    let mut consider = |axis: DVec3, source: AxisSource| -> bool {
        let (overlap, oriented) = oriented_overlap(a, b, axis, tol);
        if overlap < -tol {
            return false; // separated
        }
        // An axis that cannot say which way B lies from A cannot be the
        // normal; it still takes part in the separation test above.
        if let (true, Some(axis)) = (allowed(source), oriented) {
            candidates.push(SatResult {
                axis,
                overlap,
                source,
            });
        }
        true
    };
    for i in 0..4 {
        if a.normals[i] != DVec3::ZERO && !consider(a.normals[i], AxisSource::FaceA(i)) {
            return None;
        }
    }
    for i in 0..4 {
        if b.normals[i] != DVec3::ZERO && !consider(b.normals[i], AxisSource::FaceB(i)) {
            return None;
        }
    }
    for (i, &[a0, a1]) in TET_EDGES.iter().enumerate() {
        let ea = a.corners[a1] - a.corners[a0];
        for (j, &[b0, b1]) in TET_EDGES.iter().enumerate() {
            let eb = b.corners[b1] - b.corners[b0];
            let c = ea.cross(eb);
            let len = c.length();
            if len <= parallel_sin * ea.length() * eb.length() || len == 0.0 {
                continue;
            }
            if !consider(c / len, AxisSource::Edges(i, j)) {
                return None;
            }
        }
    }
    let is_edge = |c: &SatResult| matches!(c.source, AxisSource::Edges(..));
    let minimum = |edges: bool| {
        candidates
            .iter()
            .filter(|c| is_edge(c) == edges)
            .map(|c| c.overlap)
            .fold(f64::INFINITY, f64::min)
    };
    let (face_min, edge_min) = (minimum(false), minimum(true));
    let use_edges = edge_min < face_min - tol;
    let best = if use_edges { edge_min } else { face_min };
    if !best.is_finite() {
        return None;
    }
    let centre_line = (b.centroid() - a.centroid()).normalize_or_zero();
    let tied: Vec<&SatResult> = candidates
        .iter()
        .filter(|c| is_edge(c) == use_edges && c.overlap <= best + tol)
        .collect();
    let alignment = |c: &SatResult| c.axis.dot(centre_line).abs();
    let best_alignment = tied
        .iter()
        .map(|c| alignment(c))
        .fold(f64::NEG_INFINITY, f64::max);
    let finalists: Vec<&SatResult> = tied
        .into_iter()
        .filter(|c| alignment(c) >= best_alignment - COS_TIE)
        .collect();
    let first = *finalists.first()?;
    if finalists.len() == 1 {
        return Some(*first);
    }
    // Mirror-symmetric tetrahedra leave several axes that neither overlap
    // nor alignment can tell apart; any one of them would depend on which
    // body is A. Their mean (all point from A to B) does not.
    let mean = finalists.iter().map(|c| c.axis).sum::<DVec3>();
    match mean.try_normalize() {
        Some(axis) if mean.length() > CANCELLED_UNIT_SUM => Some(SatResult { axis, ..*first }),
        _ => Some(*first),
    }
}

/// Whether A and B overlap or touch within `tol` (no separating axis).
pub fn overlaps(a: &TetShape, b: &TetShape, tol: f64, parallel_sin: f64) -> bool {
    separating_axis_test(a, b, tol, parallel_sin, |_| true).is_some()
}

fn push_unique(points: &mut Vec<DVec3>, p: DVec3, tol: f64) {
    if !points.iter().any(|q| (*q - p).length() <= tol) {
        points.push(p);
    }
}

/// Intersection points of two tetrahedra: corners of each inside the other
/// (within `tol`), and the points where an edge of one crosses a face of the
/// other. Unique within `tol`. For touching tetrahedra these are the corners
/// of their common face, edge or point. (The `@paper-code` variants use the
/// code's own arithmetic instead, `code_arithmetic`.)
pub fn intersection_points(a: &TetShape, b: &TetShape, tol: f64) -> Vec<DVec3> {
    let mut points = Vec::new();
    for (inner, outer) in [(a, b), (b, a)] {
        for &p in &inner.corners {
            if outer.contains(p, tol) {
                push_unique(&mut points, p, tol);
            }
        }
    }
    for (edges, faces) in [(a, b), (b, a)] {
        for &[i, j] in &TET_EDGES {
            let (p, q) = (edges.corners[i], edges.corners[j]);
            for f in 0..4 {
                let (dp, dq) = (faces.face_distance(f, p), faces.face_distance(f, q));
                // A proper crossing of the face plane; an end point on the
                // plane is a corner case already counted above.
                if !((dp > tol && dq < -tol) || (dp < -tol && dq > tol)) {
                    continue;
                }
                let x = p.lerp(q, dp / (dp - dq));
                // x lies on face f's plane by construction; only the other
                // three planes decide whether it is on the face.
                if (0..4)
                    .filter(|&g| g != f)
                    .all(|g| faces.face_distance(g, x) <= tol)
                {
                    push_unique(&mut points, x, tol);
                }
            }
        }
    }
    points
}

/// Closest points (on A, on B) of two tetrahedra and their distance, over all
/// corner–face and edge–edge pairs. Meaningful when they do not overlap.
pub fn closest_points(a: &TetShape, b: &TetShape) -> (DVec3, DVec3, f64) {
    let mut best = (a.corners[0], b.corners[0], f64::INFINITY);
    let mut consider = |pa: DVec3, pb: DVec3| {
        let d = (pa - pb).length();
        if d < best.2 {
            best = (pa, pb, d);
        }
    };
    for face in TET_FACES {
        let [x, y, z] = face.map(|l| b.corners[l]);
        for &p in &a.corners {
            consider(p, closest_point_on_triangle(p, x, y, z));
        }
        let [x, y, z] = face.map(|l| a.corners[l]);
        for &p in &b.corners {
            consider(closest_point_on_triangle(p, x, y, z), p);
        }
    }
    for &[i, j] in &TET_EDGES {
        for &[k, l] in &TET_EDGES {
            let (pa, pb, _, _) =
                closest_points_segments(a.corners[i], a.corners[j], b.corners[k], b.corners[l]);
            consider(pa, pb);
        }
    }
    best
}

// ---------------------------------------------------------------------------
// Surface faces and vertices of one tetrahedron against another (Vertex
// only and Consistent vertex; Intersection and Closest points).

/// Whether `p` lies inside the edge planes of triangle `t` (normal `n`),
/// allowing `tol` outside.
pub fn inside_edge_planes(p: DVec3, t: [DVec3; 3], n: DVec3, tol: f64) -> bool {
    (0..3).all(|k| {
        let (s, e) = (t[k], t[(k + 1) % 3]);
        n.cross(e - s).normalize_or_zero().dot(p - s) >= -tol
    })
}

/// Local corners of `inner` that are surface vertices of its body and lie
/// inside `outer` (within `tol`).
pub fn surface_corners_inside(inner: &Tet, outer: &TetShape, tol: f64) -> Vec<usize> {
    (0..4)
        .filter(|&c| {
            inner.world.mesh.is_surface_vertex(inner.ids[c] as usize)
                && outer.contains(inner.corners[c], tol)
        })
        .collect()
}

/// The surface face of `outer` whose plane is nearest to `p` (inside).
/// Faces within `tol` of the nearest tie, and the first in local order wins:
/// a vertex exactly on two faces must not be decided by round-off, or a
/// rotated scene would get other normals.
pub fn nearest_surface_face(outer: &Tet, shape: &TetShape, p: DVec3, tol: f64) -> Option<usize> {
    let mut best: Option<(f64, usize)> = None;
    for f in outer
        .surface_faces()
        .filter(|&f| shape.normals[f] != DVec3::ZERO)
    {
        let depth = -shape.face_distance(f, p);
        if best.is_none_or(|(d, _)| depth < d - tol) {
            best = Some((depth, f));
        }
    }
    best.map(|(_, f)| f)
}

// ---------------------------------------------------------------------------
// Inclusion as the paper's reference code tests it (the `@paper-code`
// variants of Vertex only and Consistent vertex; `docs/errata.md`, "Vertex
// only" and "Consistent vertex").

// ---------------------------------------------------------------------------
// Edge pairs as the paper's code judges them (Intersection, Closest points).

/// Ten machine epsilons: how far inside (0, 1) the paper's code wants the
/// parameters of an edge pair's closest points before it calls them
/// strictly inside both edges (`docs/errata.md`). The parameters are
/// fractions of the edges, so of order one: this is round-off on them, not
/// a length.
pub const EDGE_INTERIOR: f64 = 10.0 * f64::EPSILON;

/// The closest points (on the first edge, on the second) of the lines
/// through edges `p1`–`q1` and `p2`–`q2` (Ericson 5.1.8), when both lie
/// strictly inside their edges: each parameter in (`margin`, 1 − `margin`).
/// `None` for parallel lines (no single pair of closest points) or points
/// at or beyond an edge's end.
pub fn interior_closest_points(
    (p1, q1): (DVec3, DVec3),
    (p2, q2): (DVec3, DVec3),
    margin: f64,
) -> Option<(DVec3, DVec3)> {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (aa, ee, bb) = (d1.dot(d1), d2.dot(d2), d1.dot(d2));
    let (c, f) = (d1.dot(r), d2.dot(r));
    let denom = aa * ee - bb * bb;
    if denom == 0.0 {
        return None;
    }
    let s = (bb * f - c * ee) / denom;
    let t = (aa * f - bb * c) / denom;
    let inside = |u: f64| u > margin && u < 1.0 - margin;
    (inside(s) && inside(t)).then(|| (p1 + d1 * s, p2 + d2 * t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> TetShape {
        TetShape::from_corners([DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z])
    }

    fn shifted(t: &TetShape, by: DVec3) -> TetShape {
        TetShape::from_corners(t.corners.map(|p| p + by))
    }

    #[test]
    fn sat_axis_points_from_a_to_b_and_measures_the_gap() {
        let a = unit();
        // B is the unit tet flipped below the xz plane, shifted down by 0.5:
        // its top face y = −0.5 faces A's bottom face y = 0.
        let b = TetShape::from_corners([
            DVec3::new(0.0, -0.5, 0.0),
            DVec3::new(1.0, -0.5, 0.0),
            DVec3::new(0.0, -0.5, 1.0),
            DVec3::new(0.0, -1.5, 0.0),
        ]);
        assert!(
            separating_axis_test(&a, &b, 0.4, 1e-9, |_| true).is_none(),
            "0.5 apart is separated for tol 0.4"
        );
        let touching = separating_axis_test(&a, &b, 0.6, 1e-9, |_| true).unwrap();
        assert!(
            (touching.axis - DVec3::NEG_Y).length() < 1e-12,
            "{:?}",
            touching
        );
        assert!((touching.overlap + 0.5).abs() < 1e-12);
    }

    #[test]
    fn intersection_of_a_tet_with_itself_is_its_corners() {
        let a = unit();
        let pts = intersection_points(&a, &a, 1e-9);
        assert_eq!(pts.len(), 4);
    }

    #[test]
    fn closest_points_of_separated_tets() {
        let a = unit();
        let b = shifted(&a, DVec3::new(0.0, 0.0, 3.0));
        let (pa, pb, d) = closest_points(&a, &b);
        assert!(
            (d - 2.0).abs() < 1e-12
                && (pa - DVec3::Z).length() < 1e-12
                && (pb - DVec3::new(0.0, 0.0, 3.0)).length() < 1e-12
        );
    }
}
