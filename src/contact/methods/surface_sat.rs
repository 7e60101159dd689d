//! Surface-SAT (paper section 6): Volume-SAT with the candidate axes for the
//! normal restricted to surface features: the normals of the tetrahedra's
//! surface faces and the cross products of edges that belong to surface
//! faces. Separation is still decided by every axis: it is a fact about the
//! two tetrahedra, not a choice of normal.
//!
//! `surface-sat@paper-code` is `volume-sat@paper-code` with the same
//! restriction of the axes (`docs/design/reference-code.md`).

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact, Rules};
use crate::contact::tet_contacts::{paper_code_contacts, sat_contacts};
use crate::contact::tet_geometry::{separating_axis_test, AxisSource, TetShape};
use crate::contact::world_mesh::Tet;
use crate::mesh::tetmesh::TET_EDGES;

pub struct SurfaceSat;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "surface-sat",
    name: "Surface-SAT",
    source: help_text!("Erleben 2018, section 6 and section 7.4"),
    summary: "Like Volume-SAT, but only surface faces and surface edges may give the normal.",
    help: help_text!("Volume-SAT with only the real surface allowed to give the axis: faces on the surface and edges of surface faces. This removes the interior axes, but cliff edges can still give sloped normals."),
    reads: &[],
    algorithm: Algorithm::TetPair(&SurfaceSat),
    paper_code: Some(&PAPER_CODE),
};

pub struct SurfaceSatPaperCode;

/// The variant following the paper's reference code (module doc).
pub static PAPER_CODE: MethodInfo = MethodInfo {
    id: "surface-sat@paper-code",
    name: "Surface-SAT (paper's code)",
    source: help_text!("Erleben 2018's reference code, as docs/design/reference-code.md describes it (not section 6 as printed)"),
    summary: "Surface-SAT as the paper's code runs it: first minimum surface axis in A-first order, depth from the points' extent.",
    help: help_text!("Volume-SAT as the paper's code runs it (first strictly smaller overlap in the order A face 0, B face 0, A face 1, …, then edge pairs; depth from the intersection points' extent along the axis; plane through the middle of the extremes; intersection points in the code's arithmetic, the crossed plane tested too, merged when they coincide after projection), with only surface faces and edges of surface faces allowed to give the axis. Exact comparisons and the code's sort-then-neighbours post-filter. Not symmetric in the two bodies."),
    reads: &[],
    algorithm: Algorithm::TetPair(&SurfaceSatPaperCode),
    paper_code: None,
};

/// Which of the tetrahedron's six edges (in `TET_EDGES` order) belong to one
/// of its surface faces.
fn surface_edge_mask(t: &Tet) -> [bool; 6] {
    let surface = t.surface_edges();
    std::array::from_fn(|e| surface.contains(&TET_EDGES[e]))
}

/// Whether an axis comes from a surface feature of `a` or `b`.
fn surface_axis<'t>(a: &'t Tet, b: &'t Tet) -> impl Fn(AxisSource) -> bool + 't {
    let (edges_a, edges_b) = (surface_edge_mask(a), surface_edge_mask(b));
    move |source: AxisSource| match source {
        AxisSource::FaceA(i) => a.surface_face(i).is_some(),
        AxisSource::FaceB(i) => b.surface_face(i).is_some(),
        AxisSource::Edges(i, j) => edges_a[i] && edges_b[j],
    }
}

impl ContactMethod for SurfaceSatPaperCode {
    fn rules(&self) -> Rules {
        Rules::PaperCode
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, _params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        paper_code_contacts(&sa, &sb, surface_axis(a, b), out);
    }
}

impl ContactMethod for SurfaceSat {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        let allowed = surface_axis(a, b);
        if let Some(sat) =
            separating_axis_test(&sa, &sb, params.touch_tol, params.parallel_sin, allowed)
        {
            sat_contacts(&sa, &sb, sat, params.touch_tol, out);
        }
    }
}
