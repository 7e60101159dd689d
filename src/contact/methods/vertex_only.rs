//! Vertex only (paper section 6; table 3 "PV"): every surface vertex of one
//! body that lies inside (or within the touching tolerance of) a tetrahedron
//! of the other gives a contact at the vertex. The normal is that of the
//! nearest surface face of the containing tetrahedron (faces interior to the
//! body are ignored; a tetrahedron without surface faces gives nothing), the
//! depth minus the distance to that face's plane. The normal a signed
//! distance field would give.

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::TetShape;
use crate::contact::world_mesh::Tet;
use glam::DVec3;

pub struct VertexOnly;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "vertex-only",
    name: "Vertex only",
    source: "Erleben 2018, section 6 and section 7.3",
    summary: "Vertices inside the other body take the normal of the nearest surface face, like a distance field.",
    help: "Every vertex of one body that is inside a tetrahedron of the other becomes a contact, with the normal of the nearest surface face of that tetrahedron. This is what a signed distance field would give. Near a corner the nearest face can be the wrong one, so normals flip sideways.",
    reads: &[],
    algorithm: Algorithm::TetPair(&VertexOnly),
    paper_code: None,
};

/// Local corners of `inner` that are surface vertices of its body and lie
/// inside `outer` (within `tol`).
pub(super) fn surface_corners_inside(inner: &Tet, outer: &TetShape, tol: f64) -> Vec<usize> {
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
pub(super) fn nearest_surface_face(
    outer: &Tet,
    shape: &TetShape,
    p: DVec3,
    tol: f64,
) -> Option<usize> {
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

impl ContactMethod for VertexOnly {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (shape_a, shape_b) = (TetShape::of(a), TetShape::of(b));
        for c in surface_corners_inside(a, &shape_b, params.touch_tol) {
            let p = a.corners[c];
            if let Some(f) = nearest_surface_face(b, &shape_b, p, params.touch_tol) {
                // B's face normal points out of B, towards A.
                out.push(RawContact {
                    position: p,
                    normal: -b.face_normal(f),
                    depth: shape_b.face_distance(f, p),
                    features: FeatureKind::VertexFace,
                });
            }
        }
        for c in surface_corners_inside(b, &shape_a, params.touch_tol) {
            let p = b.corners[c];
            if let Some(f) = nearest_surface_face(a, &shape_a, p, params.touch_tol) {
                out.push(RawContact {
                    position: p,
                    normal: a.face_normal(f),
                    depth: shape_a.face_distance(f, p),
                    features: FeatureKind::FaceVertex,
                });
            }
        }
    }
}
