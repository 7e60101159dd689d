//! Consistent vertex (paper section 6; Heidelberger et al. 2004, "consistent
//! penetration depth"): like Vertex only, but the face is chosen by where
//! the vertex entered. Walking from the vertex along each of its incident
//! surface edges, the surface face of the containing tetrahedron that is
//! crossed first (the crossing closest to the vertex) gives the normal; the
//! depth is minus the distance to that face's plane. Crossings within the
//! touching tolerance of each other along the edge tie; the tie goes to the
//! face the edge crosses most steeply (a vertex resting exactly on a rim is
//! on two faces at once, and the steeper crossing is the direction it came
//! from), then to the first face in local order. An edge whose far end is
//! not beyond a face's plane by more than the touching tolerance does not
//! cross that face (it lies in the plane). A vertex none of whose
//! edges leaves through a surface face falls back to the nearest surface
//! face, as in Vertex only.
//!
//! `consistent-vertex@paper-code` follows the paper's reference code
//! (`docs/design/reference-code.md`; `docs/errata.md`, "Consistent
//! vertex"). A corner counts as inside the other tetrahedron as in
//! `vertex-only@paper-code` (no face plane has it strictly in front, so a
//! corner on a face counts), and any corner of the tetrahedron can be one:
//! the code has no notion of a body's surface vertex. From such a corner it
//! follows the corner's three edges *in its own tetrahedron* (not the
//! surface edges of its body), but only those whose other end is *not*
//! inside. An edge gives a contact with the first surface face plane of the
//! other tetrahedron that it crosses strictly: its corner strictly behind
//! the plane and its other end strictly in front. So a corner gets up to
//! three contacts, and a plane the edge only touches (either end lying on
//! it) gives none. There is no fallback to the nearest face.

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact, Rules};
use crate::contact::code_arithmetic::{code_inside, code_planes};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::{
    nearest_surface_face, surface_corners_inside, TetShape, COS_TIE,
};
use crate::contact::world_mesh::Tet;
use glam::DVec3;

pub struct ConsistentVertex;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "consistent-vertex",
    name: "Consistent vertex",
    source: help_text!("Erleben 2018, section 6 and section 7.3"),
    summary: "Vertices inside the other body take the normal of the face their edges cross first.",
    help: help_text!("Like Vertex only, but the face is chosen by where the vertex came in: the surface face its edges cross first. That follows the motion, so it picks the right face more often than the nearest-face rule. On meshes where every tetrahedron has a single surface face (our coned shapes) the two methods must pick the same face and coincide."),
    reads: &[],
    algorithm: Algorithm::TetPair(&ConsistentVertex),
    paper_code: Some(&PAPER_CODE),
};

pub struct ConsistentVertexPaperCode;

/// The variant following the paper's reference code (module doc).
pub static PAPER_CODE: MethodInfo = MethodInfo {
    id: "consistent-vertex@paper-code",
    name: "Consistent vertex (paper's code)",
    source: help_text!("Erleben 2018's reference code, as docs/design/reference-code.md describes it (not section 6 as printed)"),
    summary: "Consistent vertex as the paper's code runs it: one contact per tetrahedron edge from an inside corner to an outside one that strictly crosses a surface plane.",
    help: help_text!("What the paper's reference code does instead of the printed Consistent vertex: any corner of a tetrahedron inside the other tetrahedron or on its boundary counts, surface vertex of its body or not. From it, the code follows the corner's three edges in its own tetrahedron rather than the surface edges of its body, but only edges to a corner that is not inside, and each such edge that strictly crosses a surface face plane of the other tetrahedron (from strictly behind to strictly in front) gives a contact with that face. A corner can so get up to three contacts with different normals, and a plane an edge only touches gives none. Exact comparisons and the code's sort-then-neighbours post-filter."),
    reads: &[],
    algorithm: Algorithm::TetPair(&ConsistentVertexPaperCode),
    paper_code: None,
};

/// The surface face of `outer` first crossed on the way out along the
/// surface edges of `inner`'s body that leave corner `c`.
fn entry_face(inner: &Tet, c: usize, outer: &Tet, shape: &TetShape, tol: f64) -> Option<usize> {
    let p = inner.corners[c];
    // (distance along the edge to the crossing, steepness, face)
    let mut best: Option<(f64, f64, usize)> = None;
    for &w in &inner.world.mesh.surface_neighbours[inner.ids[c] as usize] {
        let q = inner.world.vertices[w as usize];
        for f in outer
            .surface_faces()
            .filter(|&f| shape.normals[f] != DVec3::ZERO)
        {
            let (dp, dq) = (shape.face_distance(f, p), shape.face_distance(f, q));
            // The edge heads out through this face only if its far end is
            // beyond the face's plane by more than the touching tolerance.
            // An edge lying in the plane (on TetGen meshes, the rim edge of
            // one block's top where the next block's sloped side face
            // starts: both end points on that face's plane) grazes the face
            // and would otherwise count as crossing it at a point set by
            // round-off, in one frame and not in another.
            if dq <= dp || dq <= tol {
                continue;
            }
            // A vertex on the face already (dp ≥ 0 within tolerance) crosses
            // it at once.
            let t = (-dp / (dq - dp)).max(0.0);
            if t > 1.0 {
                continue;
            }
            let x = p.lerp(q, t);
            let [a, b, cc] = outer.face_corners(f);
            let n = shape.normals[f];
            let inside = [(a, b), (b, cc), (cc, a)]
                .iter()
                .all(|&(s, e)| n.cross(e - s).normalize_or_zero().dot(x - s) >= -tol);
            if !inside {
                continue;
            }
            let along = t * (q - p).length();
            let steepness = (q - p).normalize_or_zero().dot(n);
            let better = match best {
                None => true,
                Some((b_along, b_steep, _)) => {
                    along < b_along - tol
                        || (along <= b_along + tol && steepness > b_steep + COS_TIE)
                }
            };
            if better {
                best = Some((along, steepness, f));
            }
        }
    }
    best.map(|(_, _, f)| f)
}

fn emit(inner: &Tet, outer: &Tet, tol: f64, mut push: impl FnMut(DVec3, usize, f64)) {
    let shape = TetShape::of(outer);
    for c in surface_corners_inside(inner, &shape, tol) {
        let p = inner.corners[c];
        if let Some(f) = entry_face(inner, c, outer, &shape, tol)
            .or_else(|| nearest_surface_face(outer, &shape, p, tol))
        {
            push(p, f, shape.face_distance(f, p));
        }
    }
}

/// The paper's code's rule: for each corner of `inner` inside or on
/// `outer` (`code_arithmetic::code_inside`; any corner, not only surface vertices), each of
/// its three tetrahedron edges whose other end is not inside and that
/// strictly crosses a surface face plane of `outer` gives (corner, the face
/// whose plane it crosses first, the corner's distance to that plane).
fn emit_per_edge(inner: &Tet, outer: &Tet, push: &mut dyn FnMut(DVec3, usize, f64)) {
    let shape = TetShape::of(outer);
    let planes = code_planes(&shape);
    let inside: [bool; 4] = std::array::from_fn(|c| code_inside(&planes, inner.corners[c]));
    for c in (0..4).filter(|&c| inside[c]) {
        let p = inner.corners[c];
        for q in (0..4)
            .filter(|&o| o != c && !inside[o])
            .map(|o| inner.corners[o])
        {
            // (fraction of the edge at the crossing, face)
            let mut first: Option<(f64, usize)> = None;
            for f in outer
                .surface_faces()
                .filter(|&f| shape.normals[f] != DVec3::ZERO)
            {
                let (dp, dq) = (shape.face_distance(f, p), shape.face_distance(f, q));
                // A strict crossing: from strictly behind the plane to
                // strictly in front. A corner on the plane only touches it.
                if !(dp < 0.0 && dq > 0.0) {
                    continue;
                }
                let t = dp / (dp - dq);
                if first.is_none_or(|(best, _)| t < best) {
                    first = Some((t, f));
                }
            }
            if let Some((_, f)) = first {
                push(p, f, shape.face_distance(f, p));
            }
        }
    }
}

/// Pushes the contacts `rule` finds for A's corners in B and B's in A,
/// with the face normals oriented from A to B.
fn both_ways(
    a: &Tet,
    b: &Tet,
    out: &mut Vec<RawContact>,
    rule: impl Fn(&Tet, &Tet, &mut dyn FnMut(DVec3, usize, f64)),
) {
    rule(a, b, &mut |p, f, d| {
        out.push(RawContact {
            position: p,
            normal: -b.face_normal(f),
            depth: d,
            features: FeatureKind::VertexFace,
        })
    });
    rule(b, a, &mut |p, f, d| {
        out.push(RawContact {
            position: p,
            normal: a.face_normal(f),
            depth: d,
            features: FeatureKind::FaceVertex,
        })
    });
}

impl ContactMethod for ConsistentVertexPaperCode {
    fn rules(&self) -> Rules {
        Rules::PaperCode
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, _params: &MethodParams, out: &mut Vec<RawContact>) {
        both_ways(a, b, out, emit_per_edge);
    }
}

impl ContactMethod for ConsistentVertex {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let tol = params.touch_tol;
        both_ways(a, b, out, |inner, outer, push| {
            emit(inner, outer, tol, push)
        });
    }
}
