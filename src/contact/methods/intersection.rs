//! Intersection (paper section 6, "Intersection method"): surface triangles
//! only. First every (V,F): a vertex of one surface triangle within the
//! touching tolerance of the other's plane and inside its edge planes gives
//! a contact at the vertex with the face normal and the signed distance as
//! depth. Then every (E,E) of surface edges: when the edges are not parallel,
//! their cross product is not a separating axis of the two triangles, and
//! the closest points of the two lines lie on both edges, a contact at the
//! midpoint with the cross product as normal and −overlap as depth. Only
//! triangle pairs that touch or intersect are tested.

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::{orient_overlap, TetShape};
use crate::contact::world_mesh::Tet;
use glam::DVec3;

pub struct Intersection;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "intersection",
    name: "Intersection",
    source: "Erleben 2018, section 6 and section 7.1",
    summary: "Touching vertex–face pairs take the face normal; crossing edge pairs take the edges' cross product.",
    help: "Looks at the surface triangles only. A vertex lying on a face gives that face's normal; two crossing edges give the cross product of the edges. The edge–edge normals are the weak spot: at internal edges of a flat cap, or at cliff edges, two edges can cross in a direction that has nothing to do with the real contact plane.",
    reads: &[],
    algorithm: Algorithm::TetPair(&Intersection),
    paper_code: None,
};

/// Whether `p` lies inside the edge planes of triangle `t` (normal `n`),
/// allowing `tol` outside.
fn inside_edge_planes(p: DVec3, t: [DVec3; 3], n: DVec3, tol: f64) -> bool {
    (0..3).all(|k| {
        let (s, e) = (t[k], t[(k + 1) % 3]);
        n.cross(e - s).normalize_or_zero().dot(p - s) >= -tol
    })
}

fn extent(t: &[DVec3; 3], axis: DVec3) -> (f64, f64) {
    crate::geometry::extent_along(t, axis)
}

/// Whether two triangles touch or intersect within `tol`: no separating
/// axis among their normals and the cross products of their edges. The
/// method computes "geometric intersections between a pair of triangles"
/// (paper section 6); triangles that do not meet contribute nothing. (Without
/// this the (E,E) test would also pair edges of triangles that are merely
/// near each other, and the result would depend on how the broad phase's
/// axis-aligned boxes happen to fall, so on the scene's orientation.)
fn triangles_touch(
    ta: &[DVec3; 3],
    na: DVec3,
    tb: &[DVec3; 3],
    nb: DVec3,
    tol: f64,
    parallel_sin: f64,
) -> bool {
    let separated = |axis: DVec3| {
        let ((a_lo, a_hi), (b_lo, b_hi)) = (extent(ta, axis), extent(tb, axis));
        a_hi < b_lo - tol || b_hi < a_lo - tol
    };
    if separated(na) || separated(nb) {
        return false;
    }
    for k in 0..3 {
        let ea = ta[(k + 1) % 3] - ta[k];
        for l in 0..3 {
            let eb = tb[(l + 1) % 3] - tb[l];
            let c = ea.cross(eb);
            let len = c.length();
            if len > parallel_sin * ea.length() * eb.length() && separated(c / len) {
                return false;
            }
        }
    }
    // Coplanar triangles also need the in-plane edge normals.
    for (t, n) in [(ta, na), (tb, nb)] {
        for k in 0..3 {
            let edge_normal = n.cross(t[(k + 1) % 3] - t[k]).normalize_or_zero();
            if edge_normal != DVec3::ZERO && separated(edge_normal) {
                return false;
            }
        }
    }
    true
}

impl ContactMethod for Intersection {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let tol = params.touch_tol;
        let triangles = |t: &Tet| -> Vec<([DVec3; 3], DVec3)> {
            // A face of zero area has no normal to give.
            t.surface_faces()
                .map(|f| (t.face_corners(f), t.face_normal(f)))
                .filter(|(_, n)| *n != DVec3::ZERO)
                .collect()
        };
        let (tris_a, tris_b) = (triangles(a), triangles(b));
        for &(ta, na) in &tris_a {
            for &(tb, nb) in &tris_b {
                for &p in &ta {
                    let d = nb.dot(p - tb[0]);
                    if d.abs() <= tol && inside_edge_planes(p, tb, nb, tol) {
                        // B's face normal points out of B, towards A.
                        out.push(RawContact {
                            position: p,
                            normal: -nb,
                            depth: d,
                            features: FeatureKind::VertexFace,
                        });
                    }
                }
                for &q in &tb {
                    let d = na.dot(q - ta[0]);
                    if d.abs() <= tol && inside_edge_planes(q, ta, na, tol) {
                        out.push(RawContact {
                            position: q,
                            normal: na,
                            depth: d,
                            features: FeatureKind::FaceVertex,
                        });
                    }
                }
            }
        }
        let (shape_a, shape_b) = (TetShape::of(a), TetShape::of(b));
        for &(ta, na) in &tris_a {
            for &(tb, nb) in &tris_b {
                if !triangles_touch(&ta, na, &tb, nb, tol, params.parallel_sin) {
                    continue;
                }
                for k in 0..3 {
                    let (p1, q1) = (ta[k], ta[(k + 1) % 3]);
                    for l in 0..3 {
                        let (p2, q2) = (tb[l], tb[(l + 1) % 3]);
                        let (d1, d2) = (q1 - p1, q2 - p2);
                        let cross = d1.cross(d2);
                        let len = cross.length();
                        if len <= params.parallel_sin * d1.length() * d2.length() || len == 0.0 {
                            continue;
                        }
                        let axis = cross / len;
                        // Ties in orientation are settled by the tetrahedra's
                        // centroids: touching triangles lie in one plane, so
                        // their own centroids cannot tell up from down.
                        let (overlap, oriented) = orient_overlap(
                            extent(&ta, axis),
                            extent(&tb, axis),
                            axis,
                            b.centroid() - a.centroid(),
                            tol,
                        );
                        if overlap < -tol {
                            continue; // the cross product separates the triangles
                        }
                        let Some(normal) = oriented else {
                            continue; // no side of the axis is B's
                        };
                        // Closest points of the infinite lines (Ericson 5.1.8).
                        let r = p1 - p2;
                        let (aa, ee, bb, c, f) =
                            (d1.dot(d1), d2.dot(d2), d1.dot(d2), d1.dot(r), d2.dot(r));
                        let denom = aa * ee - bb * bb;
                        let s = (bb * f - c * ee) / denom;
                        let t = (aa * f - bb * c) / denom;
                        let (slack_s, slack_t) = (tol / d1.length(), tol / d2.length());
                        if !(-slack_s..=1.0 + slack_s).contains(&s)
                            || !(-slack_t..=1.0 + slack_t).contains(&t)
                        {
                            continue;
                        }
                        let (on_a, on_b) = (p1 + d1 * s, p2 + d2 * t);
                        // The edges themselves must meet: each closest point
                        // on or inside the other tetrahedron. Triangles that
                        // touch somewhere (a small face resting on a large
                        // one) otherwise pair edges that are nowhere near
                        // each other whenever their lines' closest points fall
                        // on both edges: a unit tetrahedron resting face down
                        // on a larger one got six extra (E,E) contacts up to
                        // 4 m away, depths near −4, normals horizontal
                        // (tests/method_cases.rs). Edges that cross touch (the
                        // points coincide), and edges that have passed through
                        // each other lie each inside the other tetrahedron, so
                        // both keep their contact.
                        if !shape_b.contains(on_a, tol) || !shape_a.contains(on_b, tol) {
                            continue;
                        }
                        let position = (on_a + on_b) * 0.5;
                        out.push(RawContact {
                            position,
                            normal,
                            depth: -overlap,
                            features: FeatureKind::EdgeEdge,
                        });
                    }
                }
            }
        }
    }
}
