//! The paper's reference code's arithmetic for one pair of tetrahedra, as
//! the `@paper-code` variants need it (`docs/design/reference-code.md`,
//! "The crossing points"; `docs/errata.md`): its unnormalised face planes,
//! its inclusion test, its intersection points (an edge cut where it
//! crosses a plane, kept only if inside all four planes, the crossed one
//! included), and its merge of points that coincide to round-off.
//!
//! The printed methods use `tet_geometry` instead: unit planes, a touching
//! tolerance, and the crossed plane left out of the test because the cut
//! lies on it by construction. Here the crossed plane is tested like the
//! others, so at exact touching round-off decides whether a cut is kept, as
//! it does in the code.

use super::tet_geometry::TetShape;
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
    /// conditioned), anchored at that corner.
    fn of_face(t: [DVec3; 3], opposite: DVec3) -> CodePlane {
        let at_corner = |k: usize| {
            let (o, p, q) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            ((p - o).cross(q - o), o)
        };
        let (normal, anchor) = (0..3).map(at_corner).fold((DVec3::ZERO, t[0]), |best, c| {
            if c.0.length_squared() > best.0.length_squared() {
                c
            } else {
                best
            }
        });
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

/// The intersection points of two tetrahedra as the code finds them: the
/// corners of each inside the other, then every edge of each that strictly
/// crosses a face plane of the other, cut at |d_p| / (|d_p| + |d_q|) of the
/// way from p to q and kept if inside all four planes, the crossed one
/// included. Duplicates are kept here; [`merge_projected`] removes them
/// after projection, as the code does.
pub fn code_intersection_points(a: &TetShape, b: &TetShape) -> Vec<DVec3> {
    let planes = [code_planes(a), code_planes(b)];
    let shapes = [a, b];
    let mut points = Vec::new();
    for (inner, outer) in [(0, 1), (1, 0)] {
        points.extend(
            shapes[inner]
                .corners
                .iter()
                .copied()
                .filter(|&p| code_inside(&planes[outer], p)),
        );
    }
    for (edges, faces) in [(0, 1), (1, 0)] {
        for &[i, j] in &TET_EDGES {
            let (p, q) = (shapes[edges].corners[i], shapes[edges].corners[j]);
            for plane in &planes[faces] {
                let (dp, dq) = (plane.distance(p), plane.distance(q));
                if !((dp > 0.0 && dq < 0.0) || (dp < 0.0 && dq > 0.0)) {
                    continue;
                }
                let x = p + (q - p) * (dp.abs() / (dp.abs() + dq.abs()));
                if code_inside(&planes[faces], x) {
                    points.push(x);
                }
            }
        }
    }
    points
}

/// Drops every point within [`CODE_SAME`] (L1, the sum of the three
/// coordinate differences) of an earlier one, keeping the earlier: the
/// code's merge, which it applies after the points are projected onto the
/// contact plane.
pub fn merge_projected(points: &mut Vec<DVec3>) {
    let mut kept: Vec<DVec3> = Vec::with_capacity(points.len());
    for &p in points.iter() {
        let l1 = |q: &DVec3| {
            let d = (*q - p).abs();
            d.x + d.y + d.z
        };
        if !kept.iter().any(|q| l1(q) <= CODE_SAME) {
            kept.push(p);
        }
    }
    *points = kept;
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
        let mut merged = points;
        merge_projected(&mut merged);
        assert_eq!(merged.len(), 4);
    }
}
