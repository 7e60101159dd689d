//! Intersection (paper section 6, "Intersection method"): surface triangles
//! only. First every (V,F): a vertex of one surface triangle within the
//! touching tolerance of the other's plane and inside its edge planes gives
//! a contact at the vertex with the face normal and the signed distance as
//! depth. Then every (E,E) of surface edges: when the edges are not parallel,
//! their cross product is not a separating axis of the two triangles, and
//! the closest points of the two lines lie on both edges, a contact at the
//! midpoint with the cross product as normal and −overlap as depth. Only
//! triangle pairs that touch or intersect are tested.
//!
//! `intersection@paper-code` follows the paper's reference code
//! (`docs/design/reference-code.md`, "The variants"; `docs/errata.md`,
//! "Intersection", for the readings chosen). The surface triangles of A
//! (outer loop, local face order) and of B (inner loop) are taken pair by
//! pair, and a pair is used only when the two triangles overlap by an exact
//! separating axis test (touching counts as overlapping). For such a pair,
//! first (V,F): any corner of one triangle on or behind the other's plane
//! (d ≤ 0, however deep) and inside its edges. Then its nine edge pairs (A's
//! edge k from corner k to k + 1 outer, B's inner): on the axis n, the
//! edges' unit cross product e_a × e_b, the whole tetrahedra are projected,
//! and an axis along which they are apart or touch (A's highest at or
//! below B's lowest, or the reverse) ends the whole tetrahedron pair,
//! keeping the contacts found before. Otherwise, when the lines' closest
//! points lie strictly inside both edges (by [`EDGE_INTERIOR`]) and their
//! midpoint is behind both triangles' planes (within ten machine
//! epsilons), the pair gives an (E,E) contact there with normal n and
//! depth B's lowest − A's highest if B's lowest lies within A's extent,
//! and one with −n and depth A's lowest − B's highest if A's lowest lies
//! within B's extent: one orientation, both only when the two lowest
//! points are level. (Our first variant gave both orientations whenever
//! the tetrahedra overlapped along n; the run against the code showed one.)
//! An (E,E) contact does not end the pair; there is no test that
//! the midpoint lies in the other tetrahedron. The code's (V,F) normals are
//! not normalised (their length is twice the triangle's area); only their
//! direction is used here, as a contact's normal is a unit direction.

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact, Rules};
use crate::contact::code_arithmetic::{code_planes, CodePlane, CODE_SAME};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::{
    inside_edge_planes, interior_closest_points, orient_overlap, TetShape, EDGE_INTERIOR,
};
use crate::contact::world_mesh::Tet;
use crate::geometry::extent_along;
use glam::DVec3;
use std::ops::ControlFlow;

pub struct Intersection;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "intersection",
    name: "Intersection",
    source: help_text!("Erleben 2018, section 6 and section 7.1"),
    summary: "Touching vertex–face pairs take the face normal; crossing edge pairs take the edges' cross product.",
    help: help_text!("Looks at the surface triangles only. A vertex lying on a face gives that face's normal; two crossing edges give the cross product of the edges. The edge–edge normals are the weak spot: at internal edges of a flat cap, or at cliff edges, two edges can cross in a direction that has nothing to do with the real contact plane."),
    reads: &[],
    algorithm: Algorithm::TetPair(&Intersection),
    paper_code: Some(&PAPER_CODE),
};

pub struct IntersectionPaperCode;

/// The variant following the paper's reference code (module doc).
pub static PAPER_CODE: MethodInfo = MethodInfo {
    id: "intersection@paper-code",
    name: "Intersection (paper's code)",
    source: help_text!("Erleben 2018's reference code, as docs/design/reference-code.md describes it (not section 6 as printed)"),
    summary: "Intersection as the paper's code runs it: overlapping triangles only, every corner behind a face, both orientations of an edge pair, stopped by the first edge axis that separates the tetrahedra.",
    help: help_text!("What the paper's reference code does instead of the printed Intersection method. Only surface triangles that overlap are paired. Every corner of one on or behind the other's plane and inside its edges is a (V,F) contact, however deep. An edge pair gives an (E,E) contact when its closest points lie strictly inside both edges and their midpoint is on or behind both triangles' planes, with the direction of the edges' cross product along which B's lowest corner lies within A's extent (or the reverse direction when A's lowest lies within B's); it does not check that the contact lies in either body. The first edge pair whose cross product separates or merely touches the two tetrahedra ends the tetrahedron pair, keeping what was found before. Exact comparisons and the code's sort-then-neighbours post-filter."),
    reads: &[],
    algorithm: Algorithm::TetPair(&IntersectionPaperCode),
    paper_code: None,
};

fn extent(t: &[DVec3; 3], axis: DVec3) -> (f64, f64) {
    extent_along(t, axis)
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

/// The surface triangles of a tetrahedron with their outward unit normals
/// (a face of zero area has no normal to give).
fn surface_triangles(t: &Tet) -> Vec<([DVec3; 3], DVec3)> {
    t.surface_faces()
        .map(|f| (t.face_corners(f), t.face_normal(f)))
        .filter(|(_, n)| *n != DVec3::ZERO)
        .collect()
}

/// The (V,F) contacts of every pair of surface triangles: a corner of one
/// triangle whose signed distance `d` from the other's plane `accept`s and
/// that lies inside its edge planes (within `tol`) takes that face's normal
/// (oriented A→B) and `d` as depth.
fn vertex_face_contacts(
    tris_a: &[([DVec3; 3], DVec3)],
    tris_b: &[([DVec3; 3], DVec3)],
    tol: f64,
    accept: impl Fn(f64) -> bool,
    out: &mut Vec<RawContact>,
) {
    for &(ta, na) in tris_a {
        for &(tb, nb) in tris_b {
            // B's face normal points out of B, towards A: A's corners on B's
            // faces take −n_b, B's corners on A's faces take n_a.
            for (corners, face, n, normal, features) in [
                (ta, tb, nb, -nb, FeatureKind::VertexFace),
                (tb, ta, na, na, FeatureKind::FaceVertex),
            ] {
                for p in corners {
                    let d = n.dot(p - face[0]);
                    if accept(d) && inside_edge_planes(p, face, n, tol) {
                        out.push(RawContact {
                            position: p,
                            normal,
                            depth: d,
                            features,
                        });
                    }
                }
            }
        }
    }
}

/// Two edges whose cross product does not separate what `extents` projects
/// (the triangles, or in the paper's code the whole tetrahedra) and whose
/// lines' closest points lie on both edges: the closest points on A's edge
/// and B's, the unit cross product oriented A→B, and the overlap along it.
fn crossing_edges(
    (p1, q1): (DVec3, DVec3),
    (p2, q2): (DVec3, DVec3),
    extents: impl Fn(DVec3) -> ((f64, f64), (f64, f64)),
    a_to_b: DVec3,
    tol: f64,
    parallel_sin: f64,
) -> Option<(DVec3, DVec3, DVec3, f64)> {
    let (d1, d2) = (q1 - p1, q2 - p2);
    let cross = d1.cross(d2);
    let len = cross.length();
    if len <= parallel_sin * d1.length() * d2.length() || len == 0.0 {
        return None;
    }
    let axis = cross / len;
    // Ties in orientation are settled by the tetrahedra's centroids:
    // touching triangles lie in one plane, so their own centroids cannot
    // tell up from down.
    let (on_axis_a, on_axis_b) = extents(axis);
    let (overlap, oriented) = orient_overlap(on_axis_a, on_axis_b, axis, a_to_b, tol);
    if overlap < -tol {
        return None; // the cross product separates them
    }
    let normal = oriented?; // no side of the axis is B's
                            // Closest points of the infinite lines (Ericson 5.1.8).
    let r = p1 - p2;
    let (aa, ee, bb, c, f) = (d1.dot(d1), d2.dot(d2), d1.dot(d2), d1.dot(r), d2.dot(r));
    let denom = aa * ee - bb * bb;
    let s = (bb * f - c * ee) / denom;
    let t = (aa * f - bb * c) / denom;
    let (slack_s, slack_t) = (tol / d1.length(), tol / d2.length());
    if !(-slack_s..=1.0 + slack_s).contains(&s) || !(-slack_t..=1.0 + slack_t).contains(&t) {
        return None;
    }
    Some((p1 + d1 * s, p2 + d2 * t, normal, overlap))
}

/// The edges of a triangle, as (start, end).
fn triangle_edges(t: &[DVec3; 3]) -> [(DVec3, DVec3); 3] {
    std::array::from_fn(|k| (t[k], t[(k + 1) % 3]))
}

/// A pair of edges, one of each triangle, as (start, end).
type EdgePair = ((DVec3, DVec3), (DVec3, DVec3));

/// Calls `visit` with every pair of edges of two surface triangles that
/// touch or intersect (within `tol`), with the two triangles, in order;
/// `visit` breaks to end the tetrahedron pair.
fn touching_edge_pairs(
    tris_a: &[([DVec3; 3], DVec3)],
    tris_b: &[([DVec3; 3], DVec3)],
    tol: f64,
    parallel_sin: f64,
    mut visit: impl FnMut(&[DVec3; 3], &[DVec3; 3], EdgePair) -> ControlFlow<()>,
) {
    for &(ta, na) in tris_a {
        for &(tb, nb) in tris_b {
            if !triangles_touch(&ta, na, &tb, nb, tol, parallel_sin) {
                continue;
            }
            for edge_a in triangle_edges(&ta) {
                for edge_b in triangle_edges(&tb) {
                    if visit(&ta, &tb, (edge_a, edge_b)).is_break() {
                        return;
                    }
                }
            }
        }
    }
}

/// An (E,E) contact at the middle of the edges' closest points.
fn edge_contact(on_a: DVec3, on_b: DVec3, normal: DVec3, overlap: f64) -> RawContact {
    RawContact {
        position: (on_a + on_b) * 0.5,
        normal,
        depth: -overlap,
        features: FeatureKind::EdgeEdge,
    }
}

impl ContactMethod for Intersection {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let tol = params.touch_tol;
        let (tris_a, tris_b) = (surface_triangles(a), surface_triangles(b));
        vertex_face_contacts(&tris_a, &tris_b, tol, |d| d.abs() <= tol, out);
        let (shape_a, shape_b) = (TetShape::of(a), TetShape::of(b));
        let a_to_b = b.centroid() - a.centroid();
        touching_edge_pairs(
            &tris_a,
            &tris_b,
            tol,
            params.parallel_sin,
            |ta, tb, (edge_a, edge_b)| {
                let extents = |axis| (extent(ta, axis), extent(tb, axis));
                let crossing =
                    crossing_edges(edge_a, edge_b, extents, a_to_b, tol, params.parallel_sin);
                // The edges themselves must meet: each closest point on or inside
                // the other tetrahedron. Triangles that touch somewhere (a small
                // face resting on a large one) otherwise pair edges that are
                // nowhere near each other whenever their lines' closest points
                // fall on both edges: a unit tetrahedron resting face down on a
                // larger one got six extra (E,E) contacts up to 4 m away, depths
                // near −4, normals horizontal (tests/method_cases.rs). Edges that
                // cross touch (the points coincide), and edges that have passed
                // through each other lie each inside the other tetrahedron, so
                // both keep their contact.
                if let Some((on_a, on_b, normal, overlap)) = crossing {
                    if shape_b.contains(on_a, tol) && shape_a.contains(on_b, tol) {
                        out.push(edge_contact(on_a, on_b, normal, overlap));
                    }
                }
                ControlFlow::Continue(())
            },
        );
    }
}

/// A surface triangle as the paper's code keeps it: its corners (in face
/// order) and its plane in the code's arithmetic.
type CodeTriangle = ([DVec3; 3], CodePlane);

/// The surface triangles of `t` with the code's planes.
fn code_triangles(t: &Tet) -> Vec<CodeTriangle> {
    let planes = code_planes(&TetShape::of(t));
    t.surface_faces()
        .map(|f| (t.face_corners(f), planes[f]))
        .collect()
}

/// The code's (V,F) contacts of one pair of overlapping surface triangles:
/// first A's corners against B's triangle, then B's against A's; a corner
/// counts when it is on or behind the other's plane and on the inner side
/// of its three edge planes (the code's unnormalised normal crossed with
/// each edge, a corner on an edge plane inside), however deep. The normal
/// is the face's, as a unit vector oriented A→B; the depth its distance in
/// metres (the code reports both scaled by the normal's length).
fn code_vertex_face(tri_a: &CodeTriangle, tri_b: &CodeTriangle, out: &mut Vec<RawContact>) {
    for (corners, (face, plane), sign, features) in [
        (tri_a.0, tri_b, -1.0, FeatureKind::VertexFace),
        (tri_b.0, tri_a, 1.0, FeatureKind::FaceVertex),
    ] {
        let n = plane.normal;
        for p in corners {
            let d = plane.distance(p);
            let inside = (0..3).all(|k| {
                let (s, e) = (face[k], face[(k + 1) % 3]);
                n.cross(e - s).dot(p - s) >= 0.0
            });
            // A degenerate face has no plane (and the code no normal).
            if d <= 0.0 && inside && n != DVec3::ZERO {
                let length = n.length();
                out.push(RawContact {
                    position: p,
                    normal: n / length * sign,
                    depth: d / length,
                    features,
                });
            }
        }
    }
}

/// The paper's code's separating axis test of two triangles, exact: some
/// axis among the two normals, the nine edge cross products and the six
/// in-plane edge normals (which decide coplanar triangles) shows a gap
/// strictly greater than zero. Touching triangles overlap. The axes are
/// left unnormalised: only the order of the projections matters, and a
/// zero axis (parallel edges) projects everything to 0 and separates
/// nothing.
fn triangles_overlap_exactly(ta: &[DVec3; 3], tb: &[DVec3; 3]) -> bool {
    let separated = |axis: DVec3| {
        let ((a_lo, a_hi), (b_lo, b_hi)) = (extent(ta, axis), extent(tb, axis));
        a_hi < b_lo || b_hi < a_lo
    };
    let edges = |t: &[DVec3; 3]| -> [DVec3; 3] { std::array::from_fn(|k| t[(k + 1) % 3] - t[k]) };
    let (ea, eb) = (edges(ta), edges(tb));
    let (na, nb) = (ea[0].cross(ea[1]), eb[0].cross(eb[1]));
    let mut axes = vec![na, nb];
    axes.extend(ea.iter().flat_map(|&x| eb.iter().map(move |&y| x.cross(y))));
    axes.extend(ea.iter().map(|&e| na.cross(e)));
    axes.extend(eb.iter().map(|&e| nb.cross(e)));
    !axes.into_iter().any(separated)
}

/// One edge pair of two overlapping surface triangles, as the paper's code
/// judges it (module doc), on the axis n = the edges' unit cross product:
/// `Break` when n separates or touches the whole tetrahedra (A's top at or
/// below B's bottom, or the reverse); else, when the closest points are
/// strictly inside both edges and their midpoint is behind both triangles'
/// planes (within [`CODE_SAME`] metres), an (E,E) contact there with
/// normal n if B's lowest corner along n lies within A's extent, and one
/// with −n if A's lowest lies within B's (both only when the two lowest
/// are equal). Edges closer to parallel than `parallel_sin` give no axis,
/// so neither a contact nor a stop.
fn code_edge_pair(
    (edge_a, (_, plane_a)): ((DVec3, DVec3), CodeTriangle),
    (edge_b, (_, plane_b)): ((DVec3, DVec3), CodeTriangle),
    (shape_a, shape_b): (&TetShape, &TetShape),
    parallel_sin: f64,
    out: &mut Vec<RawContact>,
) -> ControlFlow<()> {
    let (d1, d2) = (edge_a.1 - edge_a.0, edge_b.1 - edge_b.0);
    let cross = d1.cross(d2);
    let len = cross.length();
    if len == 0.0 || len <= parallel_sin * d1.length() * d2.length() {
        return ControlFlow::Continue(());
    }
    let n = cross / len;
    let (a_min, a_max) = extent_along(&shape_a.corners, n);
    let (b_min, b_max) = extent_along(&shape_b.corners, n);
    if a_max <= b_min || b_max <= a_min {
        return ControlFlow::Break(());
    }
    let behind =
        |m: DVec3, plane: CodePlane| plane.distance(m) <= CODE_SAME * plane.normal.length();
    let Some(position) = interior_closest_points(edge_a, edge_b, EDGE_INTERIOR)
        .map(|(on_a, on_b)| (on_a + on_b) * 0.5)
        .filter(|&m| behind(m, plane_a) && behind(m, plane_b))
    else {
        return ControlFlow::Continue(());
    };
    let mut push = |normal: DVec3, depth: f64| {
        out.push(RawContact {
            position,
            normal,
            depth,
            features: FeatureKind::EdgeEdge,
        })
    };
    if a_min <= b_min && b_min <= a_max {
        push(n, b_min - a_max);
    }
    if b_min <= a_min && a_min <= b_max {
        push(-n, a_min - b_max);
    }
    ControlFlow::Continue(())
}

impl ContactMethod for IntersectionPaperCode {
    fn rules(&self) -> Rules {
        Rules::PaperCode
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (tris_a, tris_b) = (code_triangles(a), code_triangles(b));
        let shapes = (&TetShape::of(a), &TetShape::of(b));
        for &tri_a in &tris_a {
            for &tri_b in &tris_b {
                if !triangles_overlap_exactly(&tri_a.0, &tri_b.0) {
                    continue;
                }
                code_vertex_face(&tri_a, &tri_b, out);
                for edge_a in triangle_edges(&tri_a.0) {
                    for edge_b in triangle_edges(&tri_b.0) {
                        let pair = code_edge_pair(
                            (edge_a, tri_a),
                            (edge_b, tri_b),
                            shapes,
                            params.parallel_sin,
                            out,
                        );
                        if pair.is_break() {
                            return; // keeping what was found so far
                        }
                    }
                }
            }
        }
    }
}
