//! Vertex only (paper section 6; table 3 "PV"): every surface vertex of one
//! body that lies inside (or within the touching tolerance of) a tetrahedron
//! of the other gives a contact at the vertex. The normal is that of the
//! nearest surface face of the containing tetrahedron (faces interior to the
//! body are ignored; a tetrahedron without surface faces gives nothing), the
//! depth minus the distance to that face's plane. The normal a signed
//! distance field would give.
//!
//! `vertex-only@paper-code` follows the paper's reference code
//! (`docs/design/reference-code.md`, "The variants"; `docs/errata.md`,
//! "Vertex only"). Any corner of a tetrahedron (not only a surface vertex of
//! its body) counts as inside the other tetrahedron unless one of that
//! tetrahedron's four face planes has it strictly in front, so a corner
//! lying on a face counts (`code_arithmetic::code_inside`, on the code's
//! unnormalised planes). It takes the
//! surface face of minimum signed distance, which for a point inside is
//! the most negative one, so the *farthest* face plane, not the nearest;
//! every surface face whose distance equals that minimum gives a contact of
//! its own (no first-face tie-break).

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact, Rules};
use crate::contact::code_arithmetic::{code_inside, code_planes};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::{nearest_surface_face, surface_corners_inside, TetShape};
use crate::contact::world_mesh::Tet;
use glam::DVec3;

pub struct VertexOnly;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "vertex-only",
    name: "Vertex only",
    source: help_text!("Erleben 2018, section 6 and section 7.3"),
    summary: "Vertices inside the other body take the normal of the nearest surface face, like a distance field.",
    help: help_text!("Every vertex of one body that is inside a tetrahedron of the other becomes a contact, with the normal of the nearest surface face of that tetrahedron. This is what a signed distance field would give. Near a corner the nearest face can be the wrong one, so normals flip sideways."),
    reads: &[],
    algorithm: Algorithm::TetPair(&VertexOnly),
    paper_code: Some(&PAPER_CODE),
};

pub struct VertexOnlyPaperCode;

/// The variant following the paper's reference code (module doc).
pub static PAPER_CODE: MethodInfo = MethodInfo {
    id: "vertex-only@paper-code",
    name: "Vertex only (paper's code)",
    source: help_text!("Erleben 2018's reference code, as docs/design/reference-code.md describes it (not section 6 as printed)"),
    summary: "Vertex only as the paper's code runs it: any corner inside or on the other tetrahedron, the surface face of minimum signed distance (the farthest), one contact per tied face.",
    help: help_text!("What the paper's reference code does instead of the printed Vertex only: every corner of a tetrahedron that is inside the other tetrahedron or on its boundary (no face plane has it strictly in front) gives a contact, whether or not it is on its body's surface, and the face is the surface face of minimum signed distance. For a point inside, the distances are negative or zero, so that is the face farthest away, not the nearest one a distance field would take. Faces tied at the minimum each give a contact. Exact comparisons and the code's sort-then-neighbours post-filter."),
    reads: &[],
    algorithm: Algorithm::TetPair(&VertexOnlyPaperCode),
    paper_code: None,
};

/// The surface faces of `outer` of minimum signed distance to `p`, with
/// that distance: every face whose distance equals the minimum exactly (the
/// paper's code gives each its own contact).
fn minimum_distance_faces(outer: &Tet, shape: &TetShape, p: DVec3) -> (f64, Vec<usize>) {
    let faces: Vec<(usize, f64)> = outer
        .surface_faces()
        .filter(|&f| shape.normals[f] != DVec3::ZERO)
        .map(|f| (f, shape.face_distance(f, p)))
        .collect();
    let minimum = faces.iter().map(|&(_, d)| d).fold(f64::INFINITY, f64::min);
    let tied = faces
        .into_iter()
        .filter(|&(_, d)| d == minimum)
        .map(|(f, _)| f)
        .collect();
    (minimum, tied)
}

impl ContactMethod for VertexOnlyPaperCode {
    fn rules(&self) -> Rules {
        Rules::PaperCode
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, _params: &MethodParams, out: &mut Vec<RawContact>) {
        for (inner, outer, sign, features) in [
            (a, b, -1.0, FeatureKind::VertexFace),
            (b, a, 1.0, FeatureKind::FaceVertex),
        ] {
            let shape = TetShape::of(outer);
            let planes = code_planes(&shape);
            for &p in inner.corners.iter().filter(|&&p| code_inside(&planes, p)) {
                let (depth, faces) = minimum_distance_faces(outer, &shape, p);
                for f in faces {
                    // `outer`'s face normal points out of it; A→B is minus
                    // B's normal and plus A's.
                    out.push(RawContact {
                        position: p,
                        normal: outer.face_normal(f) * sign,
                        depth,
                        features,
                    });
                }
            }
        }
    }
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
