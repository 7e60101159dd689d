//! Surface-SAT (paper section 6): Volume-SAT with the candidate axes for the
//! normal restricted to surface features: the normals of the tetrahedra's
//! surface faces and the cross products of edges that belong to surface
//! faces. Separation is still decided by every axis: it is a fact about the
//! two tetrahedra, not a choice of normal.

use super::volume_sat::sat_contacts;
use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact};
use crate::contact::tet_geometry::{separating_axis_test, AxisSource, TetShape};
use crate::contact::world_mesh::Tet;
use crate::mesh::tetmesh::TET_EDGES;

pub struct SurfaceSat;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "surface-sat",
    name: "Surface-SAT",
    source: "Erleben 2018, section 6 and section 7.4",
    summary: "Like Volume-SAT, but only surface faces and surface edges may give the normal.",
    help: "Volume-SAT with only the real surface allowed to give the axis: faces on the surface and edges of surface faces. This removes the interior axes, but cliff edges can still give sloped normals.",
    reads: &[],
    algorithm: Algorithm::TetPair(&SurfaceSat),
    paper_code: None,
};

/// Which of the tetrahedron's six edges (in `TET_EDGES` order) belong to one
/// of its surface faces.
fn surface_edge_mask(t: &Tet) -> [bool; 6] {
    let surface = t.surface_edges();
    std::array::from_fn(|e| surface.contains(&TET_EDGES[e]))
}

impl ContactMethod for SurfaceSat {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        let (edges_a, edges_b) = (surface_edge_mask(a), surface_edge_mask(b));
        let allowed = |source: AxisSource| match source {
            AxisSource::FaceA(i) => a.surface_face(i).is_some(),
            AxisSource::FaceB(i) => b.surface_face(i).is_some(),
            AxisSource::Edges(i, j) => edges_a[i] && edges_b[j],
        };
        if let Some(sat) =
            separating_axis_test(&sa, &sb, params.touch_tol, params.parallel_sin, allowed)
        {
            sat_contacts(&sa, &sb, sat, params, out);
        }
    }
}
