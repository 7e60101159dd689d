//! Volume-SAT (paper sections 6 and 7.4): the separating axis test between
//! the two tetrahedra over their 4 + 4 face normals and edge–edge cross
//! products. Separated (beyond the touching tolerance): nothing. Otherwise
//! the axis of minimum overlap, face axes preferred on ties, is the normal
//! (A→B) and minus the overlap the depth; the mean of the intersection
//! points defines the contact plane, and every intersection point projected
//! onto it is a contact.
//!
//! `volume-sat@paper-code` (and `surface-sat@paper-code`, which shares
//! its contacts, [`crate::contact::tet_contacts`]) follows the paper's
//! reference code (`docs/design/reference-code.md`, "The variants"): the
//! first strictly better axis in the order A face 0, B face 0, A face 1, …
//! then edge pairs, on the code's unit face normals and edge cross products
//! ([`crate::contact::code_arithmetic::code_sat_normal`]), for a pair that
//! passes the code's overlap test;
//! the depth is the extent of the intersection
//! points along the axis, not the SAT overlap; the plane runs through the
//! middle of the extremes, not the mean; the intersection points are the
//! code's ([`crate::contact::code_arithmetic`]: unnormalised planes, a cut
//! kept only if inside all four planes, the crossed one included), merged
//! when they coincide to round-off after projection.

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact, Rules};
use crate::contact::tet_contacts::{paper_code_contacts, sat_contacts};
use crate::contact::tet_geometry::{separating_axis_test, TetShape};
use crate::contact::world_mesh::Tet;

pub struct VolumeSat;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "volume-sat",
    name: "Volume-SAT",
    source: help_text!("Erleben 2018, section 6 and section 7.4"),
    summary: "The tetrahedra's axis of minimum overlap (faces and edge pairs) is the normal for all their intersection points.",
    help: help_text!("For each pair of overlapping tetrahedra, the separating axis test finds the axis along which they overlap least (face normals and edge cross products). That axis is the normal for all the points where the two tetrahedra intersect. Because interior faces of the meshes count too, an axis from inside a body can win."),
    reads: &[],
    algorithm: Algorithm::TetPair(&VolumeSat),
    paper_code: Some(&PAPER_CODE),
};

pub struct VolumeSatPaperCode;

/// The variant following the paper's reference code (module doc).
pub static PAPER_CODE: MethodInfo = MethodInfo {
    id: "volume-sat@paper-code",
    name: "Volume-SAT (paper's code)",
    source: help_text!("Erleben 2018's reference code, as docs/design/reference-code.md describes it (not section 6 as printed)"),
    summary: "Volume-SAT as the paper's code runs it: first minimum axis in A-first order, depth from the points' extent.",
    help: help_text!("What the paper's reference code does instead of the printed Volume-SAT: the axes are tried in the order A face 0, B face 0, A face 1, B face 1, …, then the edge pairs, and the first one with a strictly smaller overlap wins (ties go to A's earlier faces, not to the geometry); the depth is the extent of the intersection points along the axis rather than the SAT overlap, and the contact plane runs through the middle of the extreme points rather than their mean; the intersection points are computed in the code's arithmetic (unnormalised face planes; an edge's cut is kept only if it is inside all four planes, the one it crosses included, so round-off decides at exact touching) and points that coincide after projection are merged. Exact comparisons and the code's sort-then-neighbours post-filter. Not symmetric in the two bodies."),
    reads: &[],
    algorithm: Algorithm::TetPair(&VolumeSatPaperCode),
    paper_code: None,
};

impl ContactMethod for VolumeSatPaperCode {
    fn rules(&self) -> Rules {
        Rules::PaperCode
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, _params: &MethodParams, out: &mut Vec<RawContact>) {
        paper_code_contacts(&TetShape::of(a), &TetShape::of(b), |_| true, out);
    }
}

impl ContactMethod for VolumeSat {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        if let Some(sat) =
            separating_axis_test(&sa, &sb, params.touch_tol, params.parallel_sin, |_| true)
        {
            sat_contacts(&sa, &sb, sat, params.touch_tol, out);
        }
    }
}
