//! Opposing, the most opposing surface method (paper section 6, appendix A,
//! algorithm 1): both tetrahedra need surface triangles and must overlap by
//! SAT. Among pairs of surface triangles (T_a, T_b) with n_a · n_b < 0 that
//! pass the sandwich test (the corner of A opposite T_a is in front of T_b
//! and the corner of B opposite T_b in front of T_a, both beyond the touching
//! tolerance: a corner on the plane is not in front), the most opposing pair
//! (smallest n_a · n_b) gives the normal n = unit(n_a − n_b). The
//! intersection points projected on n give the depth (their extent) and the
//! contact plane (through the middle of the extremes), onto which every
//! point is projected. Equally opposing pairs are settled as in the SAT
//! (`tet_geometry::separating_axis_test`), by alignment with the line
//! between the centroids.

use super::{contacts_on_plane, Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::{intersection_points, overlaps, TetShape};
use crate::contact::world_mesh::Tet;
use glam::DVec3;

pub struct Opposing;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "opposing",
    name: "Opposing",
    source: "Erleben 2018, section 6, section 7.5 and appendix A (algorithm 1)",
    summary: "The most opposing pair of surface faces gives the normal for all intersection points.",
    help: "Among the surface triangles of the two tetrahedra, take the pair that faces each other most directly (the most opposing normals, checked with a \"sandwich\" test) and use the difference of their normals. Flat faces pressed together get exactly their common normal, which is why Opposing does well on the Pillar.",
    reads: &[],
    algorithm: Algorithm::TetPair(&Opposing),
};

impl ContactMethod for Opposing {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        if !overlaps(&sa, &sb, params.touch_tol, params.parallel_sin) {
            return;
        }
        // Algorithm 1: γ starts at 0, so only opposing pairs qualify.
        // Each admissible pair with its n_a · n_b and bisector normal.
        let mut admissible: Vec<(f64, DVec3)> = Vec::new();
        let tol = params.touch_tol;
        for fa in a.surface_faces() {
            let (na, on_a) = (sa.normals[fa], a.face_corners(fa)[0]);
            for fb in b.surface_faces() {
                let (nb, on_b) = (sb.normals[fb], b.face_corners(fb)[0]);
                let dot = na.dot(nb);
                // The corner opposite face i of a tetrahedron is corner i.
                // "In front" means beyond the touching tolerance. A corner on
                // the other face's plane is a tie that round-off would settle
                // either way, and TetGen meshes, where a tetrahedron can have
                // several surface faces, are full of them: the corner opposite
                // a side face lies on the tetrahedron's own top face, so on
                // the plane of the face resting there, and the Pillar's sides
                // are one frustum cut in pieces, so a block's side plane runs
                // through the corners of the next block's tetrahedra. Such a
                // tetrahedron touches the plane without lying in front of it;
                // the pair (its face, that face) meets at a rim or a point,
                // and is not two faces facing each other. (On coned meshes
                // the opposite corner is the kernel, deep inside its body.)
                let in_front = |corner: DVec3, on: DVec3, n: DVec3| (corner - on).dot(n) > tol;
                let sandwich =
                    in_front(sa.corners[fa], on_b, nb) && in_front(sb.corners[fb], on_a, na);
                // Opposing beyond round-off: perpendicular faces (dot 0 up to
                // the last bit) must not qualify in one frame and not another.
                let opposing = dot < -params.parallel_sin * params.parallel_sin;
                if let (true, Some(n)) = (opposing && sandwich, (na - nb).try_normalize()) {
                    admissible.push((dot, n));
                }
            }
        }
        // Pairs equally opposing to round-off tie (algorithm 1 keeps the first
        // it meets, which depends on which body is A); as in the SAT, the tied
        // normal most aligned with the line between the centroids wins and
        // normals tied on that too are averaged.
        let most_opposing = admissible.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let tie = params.parallel_sin * params.parallel_sin;
        let centre_line = (sb.centroid() - sa.centroid()).normalize_or_zero();
        let tied: Vec<DVec3> = admissible
            .iter()
            .filter(|p| p.0 <= most_opposing + tie)
            .map(|p| p.1)
            .collect();
        let best_alignment = tied
            .iter()
            .map(|n| n.dot(centre_line))
            .fold(f64::NEG_INFINITY, f64::max);
        let finalists: Vec<DVec3> = tied
            .into_iter()
            .filter(|n| n.dot(centre_line) >= best_alignment - 1e-9)
            .collect();
        let mean: DVec3 = finalists.iter().copied().sum();
        let normal = match finalists.as_slice() {
            [] => None,
            [only] => Some(*only),
            [first, ..] => Some(if mean.length() > 1e-9 {
                mean.normalize()
            } else {
                *first
            }),
        };
        let Some(n) = normal else { return };
        let points = intersection_points(&sa, &sb, params.touch_tol);
        if points.is_empty() {
            return;
        }
        let (lo, hi) = crate::geometry::extent_along(&points, n);
        let middle = n * ((lo + hi) * 0.5);
        contacts_on_plane(&points, n, middle, -(hi - lo), FeatureKind::FaceFace, out);
    }
}
