//! Closest points (paper section 6, table 3 "CP"): bodies are eroded by ε at
//! load so that touching surfaces start 2ε apart; every surface-feature pair
//! of the two tetrahedra (vertex vs surface triangle, surface edge vs
//! surface edge) whose closest points are at most 2ε apart gives a contact
//! at their midpoint, with the unit separation vector as normal and depth =
//! distance − 2ε (0 when the un-eroded shapes touch).
//!
//! `closest-points@paper-code` follows the paper's reference code
//! (`docs/design/reference-code.md`, "The variants"; `docs/errata.md`,
//! "Closest points"): the reach 2ε is a hard threshold with no tolerance
//! (an eroded Pillar gap computes as 0.020000000000000004 and is rejected).
//! (V,F): a surface vertex over a surface face (its prism, on the code's
//! unnormalised plane) and strictly in front of it, each such face; normal
//! the face's, depth 2ε − distance (the printed sign reversed). (E,E): the
//! code's line–line closest points strictly inside both edges, normal the
//! cross product (a_j − a_i) × (b_j − a_i), an apparent slip for
//! (b_j − b_i) that is emulated because it is well defined (oriented from
//! A to B); an edge of A can give several, an edge of B at most one; an
//! edge of A whose two ends both gave a (V,F) is skipped, and an edge of B
//! when B's corners *numbered like A's edge's ends* both did (another
//! well-defined slip, emulated). Edge–face: a surface edge not used by an
//! (E,E) that strictly crosses a surface face's plane over the face gives
//! a contact at the crossing, normal the face's, depth the smaller signed
//! distance of its ends.
//!
//! The code's edge–face loop of B's edges against A's faces has undefined
//! behaviour (it indexes four-element arrays with an edge index 0–5); its
//! evident intent, mirroring A's loop, is implemented.

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact, Rules};
use crate::contact::code_arithmetic::{code_planes, CODE_SAME};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::TetShape;
use crate::contact::world_mesh::Tet;
use crate::geometry::{closest_point_on_triangle, closest_points_segments};
use glam::DVec3;

pub struct ClosestPoints;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "closest-points",
    name: "Closest points",
    source: help_text!("Erleben 2018, section 6 and section 7.2"),
    summary: "Bodies shrunk by ε; closest points of vertex–face and edge–edge pairs within 2ε give the normal.",
    help: help_text!("Every body is first shrunk (\"eroded\") by ε, so bodies that touch are 2ε apart. For each vertex–triangle and edge–edge pair closer than 2ε, the contact sits halfway between the closest points and the normal is the direction from one to the other. It works well while the gap is clean, but how to choose ε is not obvious, and at corners the closest-point direction can point sideways."),
    reads: &["epsilon"],
    algorithm: Algorithm::TetPair(&ClosestPoints),
    paper_code: Some(&PAPER_CODE),
};

pub struct ClosestPointsPaperCode;

/// The variant following the paper's reference code (module doc).
pub static PAPER_CODE: MethodInfo = MethodInfo {
    id: "closest-points@paper-code",
    name: "Closest points (paper's code)",
    source: help_text!("Erleben 2018's reference code, as docs/design/reference-code.md describes it (not section 6 as printed)"),
    summary: "Closest points as the paper's code runs it: a hard 2ε threshold, only face-interior (V,F) and edge-interior (E,E), depth 2ε − distance.",
    help: help_text!("What the paper's reference code does instead of the printed Closest points: a pair counts only if its distance is at most 2ε with no tolerance at all, so a gap that computes a hair above 2ε (0.020000000000000004 on the eroded Pillar) is lost; only a vertex above the inside of a face and in front of it, two edges whose closest points are strictly inside both, and an edge crossing a face give contacts (no vertex–edge or vertex–vertex); the edge–edge normal is the cross product of (a_j − a_i) and (b_j − a_i), an apparent slip for (b_j − b_i); the depth is 2ε minus the distance, the printed sign reversed. An edge whose two ends both gave a vertex contact is skipped. One loop of that code has undefined behaviour; its evident intent is implemented. The code's sort-then-neighbours post-filter."),
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

/// An (E,E) contact as the paper's code makes it: within the reach
/// exactly, depth reach − distance, normal `direction` turned to point
/// from A to B.
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

/// The paper's code's (V,F) test: whether `p` lies over the inside of
/// triangle `t` (its prism, the boundary included), tested on `p` itself
/// against the three edge planes through the triangle's normal `n`.
fn over_triangle(p: DVec3, t: [DVec3; 3], n: DVec3) -> bool {
    (0..3).all(|k| {
        let (s, e) = (t[k], t[(k + 1) % 3]);
        (p - s).dot(n.cross(e - s)) >= 0.0
    })
}

/// The (V,F) contacts of the corners of `inner` over the surface faces of
/// `outer` (module doc): only corners strictly in front of the face and at
/// most `reach` from its plane, each face separately; the normal is the
/// face's outward normal times `sign` (A → B), the position the midpoint of
/// the corner and its foot, the depth reach − distance. Marks the corners
/// that gave one.
fn code_vertex_face(
    (inner, outer): (&Tet, &Tet),
    (sign, features): (f64, FeatureKind),
    reach: f64,
    used: &mut [bool; 4],
    out: &mut Vec<RawContact>,
) {
    let planes = code_planes(&TetShape::of(outer));
    for c in inner.surface_corners() {
        let p = inner.corners[c];
        for f in outer.surface_faces() {
            // The code's own plane (unnormalised normal, its anchor), so
            // that round-off falls as in the code for a foot on an edge.
            let (t, plane) = (outer.face_corners(f), planes[f]);
            let n = plane.normal;
            // A degenerate face has no plane (and the code no normal).
            if n == DVec3::ZERO || !over_triangle(p, t, n) {
                continue;
            }
            let distance = plane.distance(p) / n.length();
            if distance > reach || distance <= 0.0 {
                continue;
            }
            let foot = p - n * (plane.distance(p) / n.dot(n));
            out.push(RawContact {
                position: (p + foot) * 0.5,
                normal: n / n.length() * sign,
                depth: reach - distance,
                features,
            });
            used[c] = true;
        }
    }
}

/// The closest points of two edges as the code computes them: on the
/// lines through p–q and r–s with unit directions d_a, d_b, the parameters
/// (in metres) t = (q₁ + k q₂)/w along A's and u = (q₂ + k q₁)/w along B's,
/// where k = d_a · d_b, q₁ = d_a · (r − p), q₂ = −d_b · (r − p) and
/// w = 1 − k²; `None` when w is within [`CODE_SAME`] of 0 (parallel) or a
/// point is not strictly inside its edge.
fn code_edge_closest_points(
    (p, q): (DVec3, DVec3),
    (r, s): (DVec3, DVec3),
) -> Option<(DVec3, DVec3)> {
    let (da, db) = ((q - p).normalize_or_zero(), (s - r).normalize_or_zero());
    let to_b = r - p;
    let k = da.dot(db);
    let (q1, q2) = (da.dot(to_b), -db.dot(to_b));
    let w = 1.0 - k * k;
    if w.abs() < CODE_SAME {
        return None;
    }
    let (t, u) = ((q1 + k * q2) / w, (q2 + k * q1) / w);
    let inside = |x: f64, length: f64| x > 0.0 && x < length;
    (inside(t, (q - p).length()) && inside(u, (s - r).length())).then(|| (p + da * t, r + db * u))
}

/// The code's edge–face case: each surface edge of `edges` not used by an
/// (E,E) that strictly crosses the plane of a surface face of `faces` at a
/// point over that face gives a contact there, normal the face's outward
/// normal times `sign` (A → B), depth the smaller signed distance of the
/// edge's two ends from the plane.
fn code_edge_face(
    (edges, faces): (&Tet, &Tet),
    (sign, features): (f64, FeatureKind),
    used_edges: &[[usize; 2]],
    out: &mut Vec<RawContact>,
) {
    let planes = code_planes(&TetShape::of(faces));
    for [i, j] in edges.surface_edges() {
        if used_edges.contains(&[i, j]) {
            continue;
        }
        let (p, q) = (edges.corners[i], edges.corners[j]);
        for f in faces.surface_faces() {
            if !planes[f].crossed_by(p, q) {
                continue;
            }
            let x = planes[f].cut(p, q);
            let (t, n) = (faces.face_corners(f), planes[f].normal);
            if n == DVec3::ZERO || !over_triangle(x, t, n) {
                continue;
            }
            let length = n.length();
            out.push(RawContact {
                position: x,
                normal: n / length * sign,
                depth: (planes[f].distance(p) / length).min(planes[f].distance(q) / length),
                features,
            });
        }
    }
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
        // Which corners of A and of B gave a (V,F).
        let (mut used_a, mut used_b) = ([false; 4], [false; 4]);
        code_vertex_face(
            (a, b),
            (-1.0, FeatureKind::VertexFace),
            reach,
            &mut used_a,
            out,
        );
        // (The evident intent of the code's undefined loop: B's vertices
        // over A's faces, mirroring A's.)
        code_vertex_face(
            (b, a),
            (1.0, FeatureKind::FaceVertex),
            reach,
            &mut used_b,
            out,
        );
        let both_used = |used: &[bool; 4], [i, j]: [usize; 2]| used[i] && used[j];
        let (mut used_edges_a, mut used_edges_b) = (Vec::new(), Vec::new());
        for ea in a.surface_edges() {
            if both_used(&used_a, ea) {
                continue;
            }
            let [i, j] = ea;
            for eb in b.surface_edges() {
                // The code skips an edge of B that gave an (E,E) with an
                // earlier edge of A, and one whose ends are both used,
                // where it reads B's corners by the numbers of *A's* edge
                // ends: a slip, but well defined, so emulated.
                if used_edges_b.contains(&eb) || both_used(&used_b, ea) {
                    continue;
                }
                let [k, l] = eb;
                let (ai, aj, bk, bl) = (a.corners[i], a.corners[j], b.corners[k], b.corners[l]);
                let Some((pa, pb)) = code_edge_closest_points((ai, aj), (bk, bl)) else {
                    continue;
                };
                // The code's cross product: (b_j − a_i) where (b_j − b_i) was
                // surely meant; well defined, so emulated.
                let direction = (aj - ai).cross(bl - ai);
                if let Some(contact) =
                    paper_code_contact(pa, pb, direction, reach, FeatureKind::EdgeEdge)
                {
                    out.push(contact);
                    // An edge of A can give several; one of B only one.
                    used_edges_a.push(ea);
                    used_edges_b.push(eb);
                }
            }
        }
        code_edge_face((a, b), (-1.0, FeatureKind::EdgeFace), &used_edges_a, out);
        code_edge_face((b, a), (1.0, FeatureKind::FaceEdge), &used_edges_b, out);
    }
}
