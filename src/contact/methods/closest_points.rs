//! Closest points (paper section 6, table 3 "CP"): bodies are eroded by ε at
//! load so that touching surfaces start 2ε apart; every surface-feature pair
//! of the two tetrahedra (vertex vs surface triangle, surface edge vs
//! surface edge) whose closest points are at most 2ε apart gives a contact
//! at their midpoint, with the unit separation vector as normal and depth =
//! distance − 2ε (0 when the un-eroded shapes touch).
//!
//! `closest-points@paper-code` follows the paper's reference code
//! (`docs/design/reference-code.md`, "The variants"): the reach 2ε is a hard
//! threshold with no tolerance (an eroded Pillar gap computes as
//! 0.020000000000000004 and is rejected); only (V,F) pairs whose vertex
//! projects inside the face (its prism) and (E,E) pairs whose closest points
//! are strictly inside both edges count, so there are no (V,E) or (V,V)
//! contacts; the (E,E) normal is the cross product (a_j − a_i) × (b_j − a_i),
//! an apparent slip for (a_j − a_i) × (b_j − b_i) that is emulated because it
//! is well defined (oriented from A to B, the evident intent); and the depth
//! is 2ε − distance, the printed sign reversed. A vertex gives at most one
//! (V,F), with the first face in face order that takes it, and only at a
//! distance > 0; an edge gives at most one (E,E); an edge whose two end
//! vertices both gave a (V,F) is not tried (`docs/errata.md`, "Closest
//! points"). The code also has an edge–face crossing case whose output we
//! do not know well enough to emulate; it is left out (`docs/errata.md`).
//!
//! Two parts of that code have undefined behaviour, which is not emulated:
//! its loop of B against A's faces indexes four-element arrays with an edge
//! index 0–5, and its (E,E) loop's skip test uses the wrong loop variable.
//! Here the first is B's vertices against A's faces, mirroring A's vertices
//! against B's faces, and the second skips exactly the edges that are not
//! on the surface: the evident intent of both.

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact, Rules};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::inside_edge_planes;
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
    paper_code: Some(&PAPER_CODE),
};

pub struct ClosestPointsPaperCode;

/// The variant following the paper's reference code (module doc).
pub static PAPER_CODE: MethodInfo = MethodInfo {
    id: "closest-points@paper-code",
    name: "Closest points (paper's code)",
    source: "Erleben 2018's reference code, as docs/design/reference-code.md describes it (not section 6 as printed)",
    summary: "Closest points as the paper's code runs it: a hard 2ε threshold, only face-interior (V,F) and edge-interior (E,E), depth 2ε − distance.",
    help: "What the paper's reference code does instead of the printed Closest points: a pair counts only if its distance is at most 2ε with no tolerance at all, so a gap that computes a hair above 2ε (0.020000000000000004 on the eroded Pillar) is lost; only a vertex above the inside of a face and two edges whose closest points are strictly inside both give contacts (no vertex–edge or vertex–vertex); the edge–edge normal is the cross product of (a_j − a_i) and (b_j − a_i), an apparent slip for (b_j − b_i); and the depth is 2ε minus the distance, the printed sign reversed. A vertex gives at most one contact and an edge at most one, and an edge whose two ends both gave a vertex contact is skipped. Two loops of that code have undefined behaviour; their evident intent is implemented. The code's sort-then-neighbours post-filter.",
    reads: &["epsilon"],
    algorithm: Algorithm::TetPair(&ClosestPointsPaperCode),
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

/// The contact of a closest-point pair as the paper's code makes it:
/// within the reach exactly, depth reach − distance, normal `direction`
/// turned to point from A to B.
fn paper_code_contact(
    pa: DVec3,
    pb: DVec3,
    direction: DVec3,
    reach: f64,
    features: FeatureKind,
) -> Option<RawContact> {
    let separation = pb - pa;
    let distance = separation.length();
    if distance > reach {
        return None;
    }
    let along = direction.dot(separation);
    // A pair at distance 0, or an axis across the separation, has no side
    // that is B's.
    let normal = (direction * along.signum())
        .try_normalize()
        .filter(|_| along != 0.0)?;
    Some(RawContact {
        position: (pa + pb) * 0.5,
        normal,
        depth: reach - distance,
        features,
    })
}

/// The foot of `p` on the plane of triangle `t` (unit normal `n`), if it
/// lies inside the triangle (the face's prism), edges included.
fn foot_in_prism(p: DVec3, t: [DVec3; 3], n: DVec3) -> Option<DVec3> {
    let foot = p - n * n.dot(p - t[0]);
    inside_edge_planes(foot, t, n, 0.0).then_some(foot)
}

impl ContactMethod for ClosestPointsPaperCode {
    fn margin(&self, params: &MethodParams) -> f64 {
        2.0 * params.epsilon
    }
    fn erosion(&self, params: &MethodParams) -> Option<f64> {
        Some(params.epsilon)
    }
    fn rules(&self) -> Rules {
        Rules::PaperCode
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let reach = 2.0 * params.epsilon;
        // Which corners of A and of B gave a (V,F): each gives at most one,
        // its first face in face order, and an edge whose two ends both
        // gave one is not tried again as an edge.
        let mut vertex_used = [[false; 4]; 2];
        // A's vertices above B's faces, and (the evident intent of the
        // code's undefined loop) B's vertices above A's faces.
        for (side, inner, outer, features) in [
            (0, a, b, FeatureKind::VertexFace),
            (1, b, a, FeatureKind::FaceVertex),
        ] {
            for c in inner.surface_corners() {
                let p = inner.corners[c];
                for f in outer.surface_faces() {
                    let Some(foot) = foot_in_prism(p, outer.face_corners(f), outer.face_normal(f))
                    else {
                        continue;
                    };
                    let (pa, pb) = if features == FeatureKind::VertexFace {
                        (p, foot)
                    } else {
                        (foot, p)
                    };
                    // A vertex on the face (distance 0) has no direction.
                    if let Some(contact) = paper_code_contact(pa, pb, pb - pa, reach, features) {
                        out.push(contact);
                        vertex_used[side][c] = true;
                        break;
                    }
                }
            }
        }
        let used_edge = |side: usize, [i, j]: [usize; 2]| vertex_used[side][i] && vertex_used[side][j];
        // Each edge of B gives at most one (E,E) too.
        let mut b_edge_used = Vec::new();
        for ea in a.surface_edges().into_iter().filter(|&e| !used_edge(0, e)) {
            let [i, j] = ea;
            for eb in b.surface_edges().into_iter().filter(|&e| !used_edge(1, e)) {
                if b_edge_used.contains(&eb) {
                    continue;
                }
                let [k, l] = eb;
                let (ai, aj, bk, bl) = (a.corners[i], a.corners[j], b.corners[k], b.corners[l]);
                // Parallel edges have no unique closest points (the code's
                // line–line formula divides by zero there).
                let (da, db) = (aj - ai, bl - bk);
                if da.cross(db).length() <= params.parallel_sin * da.length() * db.length() {
                    continue;
                }
                let (pa, pb, s, t) = closest_points_segments(ai, aj, bk, bl);
                if !(s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0) {
                    continue;
                }
                // The code's cross product: (b_j − a_i) where (b_j − b_i) was
                // surely meant; well defined, so emulated.
                let direction = (aj - ai).cross(bl - ai);
                if let Some(contact) =
                    paper_code_contact(pa, pb, direction, reach, FeatureKind::EdgeEdge)
                {
                    out.push(contact);
                    b_edge_used.push(eb);
                    // Each edge of A gives at most one (E,E).
                    break;
                }
            }
        }
    }
}
