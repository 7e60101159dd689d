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
//!
//! `opposing@paper-code` follows the paper's reference code instead
//! (`docs/design/reference-code.md`, "The variants"): the normal is A's face
//! normal n_a, not the bisector, and the sandwich test is two-sided: a face
//! pair is skipped only when *both* opposite corners lie strictly behind
//! the other's face (B's corner opposite T_b behind T_a, and A's corner
//! opposite T_a behind T_b; a corner on a plane counts as in front); the
//! first strictly most opposing pair in A-face-then-B-face order wins; the
//! intersection points and their merge are the code's, as for the SAT
//! variants ([`crate::contact::code_arithmetic`]). A
//! side-by-side run against the code showed the test two-sided; the
//! one-sided reading we first followed gave the paper's 100 % on the
//! Sliding spike and wedge, and this rule does not: one of the Sliding
//! spike's pairs takes the ground's side face, n_a = (−1, 0, 0)
//! (`docs/errata.md`, "Opposing").

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact, Rules};
use crate::contact::code_arithmetic::{code_intersection_points, code_overlaps, code_planes};
use crate::contact::features::FeatureKind;
use crate::contact::tet_contacts::{code_contacts_at_extent, contacts_at_extent};
use crate::contact::tet_geometry::{
    intersection_points, overlaps, TetShape, CANCELLED_UNIT_SUM, COS_TIE,
};
use crate::contact::world_mesh::Tet;
use glam::DVec3;

pub struct Opposing;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "opposing",
    name: "Opposing",
    source: help_text!("Erleben 2018, section 6, section 7.5 and appendix A (algorithm 1)"),
    summary: "The most opposing pair of surface faces gives the normal for all intersection points.",
    help: help_text!("Among the surface triangles of the two tetrahedra, take the pair that faces each other most directly (the most opposing normals, checked with a \"sandwich\" test) and use the difference of their normals. Flat faces pressed together get exactly their common normal, which is why Opposing does well on the Pillar."),
    reads: &[],
    algorithm: Algorithm::TetPair(&Opposing),
    paper_code: Some(&PAPER_CODE),
};

pub struct OpposingPaperCode;

/// The variant following the paper's reference code (module doc).
pub static PAPER_CODE: MethodInfo = MethodInfo {
    id: "opposing@paper-code",
    name: "Opposing (paper's code)",
    source: help_text!("Erleben 2018's reference code, as docs/design/reference-code.md describes it (not algorithm 1 as printed)"),
    summary: "Opposing as the paper's code runs it: A's face normal, a two-sided sandwich test, no touching tolerance.",
    help: help_text!("What the paper's reference code does instead of algorithm 1: the normal is the face normal of body A's triangle of the most opposing pair, not the bisector of the two; the sandwich test skips a pair only when both opposite corners lie strictly behind the other's face (on a plane counts as in front); the first strictly most opposing pair wins, A's faces first; the intersection points are computed in the code's arithmetic (unnormalised planes, the crossed plane tested too) and merged when they coincide after projection. Exact comparisons (no touching tolerance) and the code's sort-then-neighbours post-filter. Not symmetric in the two bodies: which is A is the scene file's order. On the Sliding spike one pair takes the ground's side face, so the code does not give the paper's 100 % there."),
    reads: &[],
    algorithm: Algorithm::TetPair(&OpposingPaperCode),
    paper_code: None,
};

impl ContactMethod for OpposingPaperCode {
    fn rules(&self) -> Rules {
        Rules::PaperCode
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, _params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        // The code's overlap test (touching counts as overlap).
        if !code_overlaps(&sa, &sb) {
            return;
        }
        // γ starts at 0: only opposing pairs (n_a · n_b < 0) qualify, and
        // only a strictly smaller n_a · n_b replaces the pair found first.
        let mut best: Option<(f64, DVec3)> = None;
        let (planes_a, planes_b) = (code_planes(&sa), code_planes(&sb));
        for fa in a.surface_faces() {
            // The code's unit normals: its planes' normals, normalised.
            let na = planes_a[fa].normal.normalize_or_zero();
            for fb in b.surface_faces() {
                let dot = na.dot(planes_b[fb].normal.normalize_or_zero());
                // Two-sided sandwich test: the pair is skipped only when
                // B's corner opposite T_b is strictly behind T_a's plane
                // and A's corner opposite T_a strictly behind T_b's. A
                // corner on a plane counts as in front (the code's
                // unnormalised planes: round-off decides on the plane).
                let b_behind = planes_a[fa].distance(sb.corners[fb]) < 0.0;
                let a_behind = planes_b[fb].distance(sa.corners[fa]) < 0.0;
                if b_behind && a_behind {
                    continue;
                }
                if dot < best.map_or(0.0, |(d, _)| d) {
                    best = Some((dot, na));
                }
            }
        }
        if let Some((_, n)) = best {
            let points = code_intersection_points(&sa, &sb);
            code_contacts_at_extent(&points, n, FeatureKind::FaceFace, out);
        }
    }
}

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
            .filter(|n| n.dot(centre_line) >= best_alignment - COS_TIE)
            .collect();
        let mean: DVec3 = finalists.iter().copied().sum();
        let normal = match finalists.as_slice() {
            [] => None,
            [only] => Some(*only),
            [first, ..] => Some(if mean.length() > CANCELLED_UNIT_SUM {
                mean.normalize()
            } else {
                *first
            }),
        };
        if let Some(n) = normal {
            let points = intersection_points(&sa, &sb, params.touch_tol);
            contacts_at_extent(&points, n, FeatureKind::FaceFace, out);
        }
    }
}
