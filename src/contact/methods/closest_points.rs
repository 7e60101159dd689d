//! Closest points (paper section 6, table 3 "CP"): bodies are eroded by ε at
//! load so that touching surfaces start 2ε apart; every surface-feature pair
//! of the two tetrahedra (vertex vs surface triangle, surface edge vs
//! surface edge) whose closest points are at most 2ε apart gives a contact
//! at their midpoint, with the unit separation vector as normal and depth =
//! distance − 2ε (0 when the un-eroded shapes touch).

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact};
use crate::contact::features::FeatureKind;
use crate::contact::world_mesh::Tet;
use crate::geometry::{closest_point_on_triangle, closest_points_segments};
use glam::DVec3;

pub struct ClosestPoints;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "closest-points",
    name: "Closest points",
    source: "Erleben 2018, section 6 and section 7.2",
    summary: "Bodies shrunk by ε; closest points of vertex–face and edge–edge pairs within 2ε give the normal.",
    help: "Every body is first shrunk (\"eroded\") by ε, so bodies that touch are 2ε apart. For each vertex–triangle and edge–edge pair closer than 2ε, the contact sits halfway between the closest points and the normal is the direction from one to the other. It works well while the gap is clean, but how to choose ε is not obvious, and at corners the closest-point direction can point sideways.",
    reads: &["epsilon"],
    algorithm: Algorithm::TetPair(&ClosestPoints),
    paper_code: None,
};

impl ContactMethod for ClosestPoints {
    fn margin(&self, params: &MethodParams) -> f64 {
        2.0 * params.epsilon
    }
    fn erosion(&self, params: &MethodParams) -> Option<f64> {
        Some(params.epsilon)
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let reach = 2.0 * params.epsilon;
        let mut emit = |pa: DVec3, pb: DVec3, features: FeatureKind| {
            let distance = (pb - pa).length();
            // Eroded surfaces that touched start exactly 2ε apart, so the
            // reach gets the touching tolerance on top. Closer than the
            // tolerance the separation vector has no reliable direction: the
            // method's known failure mode.
            if distance <= reach + params.touch_tol && distance >= params.touch_tol {
                out.push(RawContact {
                    position: (pa + pb) * 0.5,
                    normal: (pb - pa) / distance,
                    depth: distance - reach,
                    features,
                });
            }
        };
        for c in a.surface_corners() {
            let p = a.corners[c];
            for f in b.surface_faces() {
                let [x, y, z] = b.face_corners(f);
                emit(
                    p,
                    closest_point_on_triangle(p, x, y, z),
                    FeatureKind::VertexFace,
                );
            }
        }
        for c in b.surface_corners() {
            let p = b.corners[c];
            for f in a.surface_faces() {
                let [x, y, z] = a.face_corners(f);
                emit(
                    closest_point_on_triangle(p, x, y, z),
                    p,
                    FeatureKind::FaceVertex,
                );
            }
        }
        for [i, j] in a.surface_edges() {
            for [k, l] in b.surface_edges() {
                let (pa, pb, _, _) =
                    closest_points_segments(a.corners[i], a.corners[j], b.corners[k], b.corners[l]);
                emit(pa, pb, FeatureKind::EdgeEdge);
            }
        }
    }
}
