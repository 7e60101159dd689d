//! Surface self-intersection: a body's closed surface must be embedded, so
//! that it bounds one solid once. Without this check a pentagram prism,
//! whose surface winds twice around its centre, loads and counts the inner
//! pentagon twice in every volume and contact area.
//!
//! What is checked, for a closed, consistently oriented triangle surface
//! (the caller has checked that much):
//! - every vertex is a manifold vertex: its triangles form one fan, not
//!   several cones touching at a point (a pinch);
//! - two triangles that share no vertex are farther apart than `tol`;
//! - two triangles that share exactly one vertex v meet only at v. Their
//!   intersection I is convex and contains v; if it held another point p,
//!   the ray from v through p would stay in I up to where it leaves one of
//!   the triangles, and a ray from a corner of a triangle leaves it through
//!   the edge opposite that corner. So I ≠ {v} exactly when the edge
//!   opposite v in one triangle meets the other triangle: two segment–
//!   triangle tests decide it;
//! - two triangles that share an edge (the only way to share two vertices
//!   on a closed manifold surface) lie in different planes, and so meet
//!   only along it, unless they fold onto each other: their outward normals
//!   within `flat_angle` of opposite.
//!
//! Candidate pairs come from a sort and sweep of the triangles' bounding
//! boxes, grown by `tol`, along the axis where the surface is longest:
//! O(n log n + k) for k pairs whose boxes overlap on that axis, which on
//! the shipped scenes is a small multiple of n. The tolerance is relative
//! to the body's size; the faces of a valid closed surface never touch
//! except along shared edges and corners, so any gap below it is round-off
//! of a real contact.
//!
//! Why this is enough for tetrahedral meshes too (the `tetmesh` shape,
//! refined and eroded bodies). Let the tetrahedra τ be positively oriented,
//! every face shared by at most two of them and, when by two, with opposite
//! orientations (the two lie on opposite sides of it; `TetMesh::new` checks
//! all three). As 2-chains, Σ ∂τ then cancels on every shared face and
//! equals the surface S, the faces used once, with the orientation of their
//! tetrahedron, which is outward. The winding number of a closed chain at a
//! point x off it is additive, and that of ∂τ is 1 inside τ and 0 outside
//! (τ is positive), so Σ_τ 1_τ(x) = w_S(x) for almost every x: the number
//! of tetrahedra covering x is the winding number of the surface. Now let
//! S be connected, manifold at every vertex, with Euler characteristic 2
//! (also checked by `TetMesh::new`): it is a sphere, and without
//! self-intersections it is embedded, so by Jordan–Brouwer it splits space
//! into a bounded inside, where w_S = ±1, and an unbounded outside, where
//! w_S = 0 (w_S changes by one across each face and vanishes far away).
//! The sign is + because Σ vol(τ) = ∫ w_S > 0. So the tetrahedra cover the
//! inside exactly once and nothing outside: checking the surface suffices.

use super::bounds::bounds;
use crate::geometry::segment_triangle_distance;
use glam::DVec3;

/// Self-intersection tolerance as a fraction of the surface's bounding-box
/// diagonal: far above f64 round-off of authored, refined or eroded
/// coordinates (~1e-16 relative), far below any real feature.
pub const RELATIVE_TOLERANCE: f64 = 1e-9;

/// Why a closed surface is not embedded. Triangles are given by their
/// vertex indices, as the author or the mesh numbers them.
#[derive(Clone, Debug, PartialEq)]
pub enum SelfIntersection {
    /// The triangles around this vertex form more than one fan.
    PinchedVertex { vertex: u32 },
    /// Two triangles overlap (or come closer than round-off) away from the
    /// corners and edges they share.
    Overlap { triangles: [[u32; 3]; 2] },
}

/// The first defect found, or `None` for an embedded surface. `triangles`
/// must form a closed surface with every edge used once in each direction.
pub fn find_self_intersection(
    vertices: &[DVec3],
    triangles: &[[u32; 3]],
    flat_angle: f64,
) -> Option<SelfIntersection> {
    if let Some(pinch) = find_pinched_vertex(vertices.len(), triangles) {
        return Some(pinch);
    }
    let corners = |t: usize| triangles[t].map(|v| vertices[v as usize]);
    let (lo, hi) = bounds(vertices);
    let tol = RELATIVE_TOLERANCE * (hi - lo).length();
    let extent = hi - lo;
    let axis = if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    };
    let boxes: Vec<(DVec3, DVec3)> = (0..triangles.len())
        .map(|t| {
            let (lo, hi) = bounds(&corners(t));
            (lo - DVec3::splat(tol), hi + DVec3::splat(tol))
        })
        .collect();
    let mut order: Vec<usize> = (0..triangles.len()).collect();
    order.sort_by(|&s, &t| {
        boxes[s].0[axis]
            .total_cmp(&boxes[t].0[axis])
            .then(s.cmp(&t))
    });
    for (k, &s) in order.iter().enumerate() {
        let (s_lo, s_hi) = boxes[s];
        for &t in &order[k + 1..] {
            let (t_lo, t_hi) = boxes[t];
            if t_lo[axis] > s_hi[axis] {
                break;
            }
            if (0..3).any(|i| t_lo[i] > s_hi[i] || s_lo[i] > t_hi[i]) {
                continue;
            }
            if overlap(
                triangles[s],
                triangles[t],
                corners(s),
                corners(t),
                tol,
                flat_angle,
            ) {
                let (first, second) = (s.min(t), s.max(t));
                return Some(SelfIntersection::Overlap {
                    triangles: [triangles[first], triangles[second]],
                });
            }
        }
    }
    None
}

/// Whether two triangles of a closed surface overlap beyond what they share
/// (see the module doc for why these tests decide it).
fn overlap(
    s: [u32; 3],
    t: [u32; 3],
    ps: [DVec3; 3],
    pt: [DVec3; 3],
    tol: f64,
    flat_angle: f64,
) -> bool {
    let shared_in_s: Vec<usize> = (0..3).filter(|&i| t.contains(&s[i])).collect();
    match shared_in_s.len() {
        // Two triangles meet exactly when an edge of one meets the other
        // (an end point of their intersection lies on an edge), and their
        // distance is that of the nearest such edge. Most pairs the sweep
        // proposes lie wholly on one side of the other's plane: decided
        // without the distances.
        0 => {
            if beyond_plane(&pt, ps, tol) || beyond_plane(&ps, pt, tol) {
                return false;
            }
            (0..3).any(|i| {
                let j = (i + 1) % 3;
                segment_triangle_distance(ps[i], ps[j], pt[0], pt[1], pt[2]) <= tol
                    || segment_triangle_distance(pt[i], pt[j], ps[0], ps[1], ps[2]) <= tol
            })
        }
        1 => {
            let i = shared_in_s[0];
            let j = (0..3).position(|j| t[j] == s[i]).unwrap_or(0);
            let edge_meets = |edge: [DVec3; 2], other: [DVec3; 3]| {
                !beyond_plane(&edge, other, tol)
                    && segment_triangle_distance(edge[0], edge[1], other[0], other[1], other[2])
                        <= tol
            };
            edge_meets([ps[(i + 1) % 3], ps[(i + 2) % 3]], pt)
                || edge_meets([pt[(j + 1) % 3], pt[(j + 2) % 3]], ps)
        }
        2 => {
            let normal = |p: [DVec3; 3]| (p[1] - p[0]).cross(p[2] - p[0]).normalize_or_zero();
            let (ns, nt) = (normal(ps), normal(pt));
            // Folded onto each other: normals (nearly) opposite.
            ns.dot(nt) < 0.0 && ns.cross(nt).length() <= flat_angle.sin()
        }
        // The same three vertices twice: the caller's closedness check
        // refuses that before we get here; count it as an overlap anyway.
        _ => true,
    }
}

/// Whether all `points` lie farther than `tol` on the same side of the
/// plane of `triangle` (and so cannot meet it).
fn beyond_plane(points: &[DVec3], triangle: [DVec3; 3], tol: f64) -> bool {
    let normal = (triangle[1] - triangle[0])
        .cross(triangle[2] - triangle[0])
        .normalize_or_zero();
    if normal == DVec3::ZERO {
        return false;
    }
    let sides = points.iter().map(|p| normal.dot(*p - triangle[0]));
    let (lo, hi) = sides.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| {
        (lo.min(d), hi.max(d))
    });
    lo > tol || hi < -tol
}

/// A vertex whose triangles form more than one fan. Each triangle (v, a, b)
/// around v, counter-clockwise, links a to b; on a closed, oriented surface
/// every a starts one link, so the links form cycles, one per fan.
fn find_pinched_vertex(vertex_count: usize, triangles: &[[u32; 3]]) -> Option<SelfIntersection> {
    let mut links: Vec<Vec<(u32, u32)>> = vec![Vec::new(); vertex_count];
    for tri in triangles {
        for k in 0..3 {
            links[tri[k] as usize].push((tri[(k + 1) % 3], tri[(k + 2) % 3]));
        }
    }
    for (v, link) in links.iter_mut().enumerate() {
        if link.is_empty() {
            continue;
        }
        link.sort_unstable();
        let next = |a: u32| {
            link.binary_search_by_key(&a, |&(from, _)| from)
                .ok()
                .map(|i| link[i].1)
        };
        let start = link[0].0;
        let mut steps = 1;
        let mut at = link[0].1;
        while at != start && steps <= link.len() {
            match next(at) {
                Some(b) => at = b,
                None => break,
            }
            steps += 1;
        }
        if steps != link.len() {
            return Some(SelfIntersection::PinchedVertex { vertex: v as u32 });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two tetrahedron surfaces that share one vertex: closed, oriented,
    /// but pinched there.
    #[test]
    fn two_tetrahedra_touching_at_a_corner_are_pinched() {
        let vertices = vec![
            DVec3::ZERO,
            DVec3::X,
            DVec3::Y,
            DVec3::Z,
            -DVec3::X,
            -DVec3::Y,
            -DVec3::Z,
        ];
        let triangles = vec![
            [0, 2, 1],
            [0, 1, 3],
            [0, 3, 2],
            [1, 2, 3],
            [0, 4, 5],
            [0, 6, 4],
            [0, 5, 6],
            [4, 6, 5],
        ];
        assert!(matches!(
            find_self_intersection(&vertices, &triangles, 1e-6),
            Some(SelfIntersection::PinchedVertex { vertex: 0, .. })
        ));
    }
}
