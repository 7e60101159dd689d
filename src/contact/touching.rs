//! Touching surface feature pairs of two bodies: (V,V), (V,E), (E,V), (V,F),
//! (F,V) and (E,E) within the touching tolerance, ignoring coincident
//! collinear edges and coplanar faces (`docs/design/methods.md`, "Exact
//! contact regions"; the count of the paper's figure 6, right). Each pair is
//! one unique touching-feature contact: a pair is labelled by its lowest-
//! dimensional features only, so no point is counted twice.

use super::features::{FeatureKind, FeaturePair};
use super::world_mesh::WorldMesh;
use crate::geometry::{closest_point_on_segment, closest_points_segments, Aabb};
use glam::DVec3;

/// Whether the projection of `p` onto the triangle's plane lies inside the
/// triangle, farther than `tol` from each of its edges.
fn strictly_inside_triangle(p: DVec3, [a, b, c]: [DVec3; 3], normal: DVec3, tol: f64) -> bool {
    [(a, b), (b, c), (c, a)].iter().all(|&(s, e)| {
        let edge = e - s;
        let inward = normal.cross(edge).normalize_or_zero();
        inward.dot(p - s) > tol
    })
}

/// All touching feature pairs of A and B. `parallel_sin` is the sine of the
/// angle below which two edges count as parallel.
pub fn touching_feature_pairs(
    a: &WorldMesh,
    b: &WorldMesh,
    tol: f64,
    parallel_sin: f64,
) -> Vec<FeaturePair> {
    let region = Aabb::of(&a.vertices)
        .intersection(&Aabb::of(&b.vertices))
        .inflated(tol);
    let (near_a, near_b) = (NearFeatures::of(a, &region), NearFeatures::of(b, &region));
    let mut pairs = Vec::new();
    vertex_vertex_pairs(a, b, &near_a.vertices, &near_b.vertices, tol, &mut pairs);
    vertex_edge_pairs(
        &near_a.vertices,
        a,
        &near_b.edges,
        b,
        FeatureKind::VertexEdge,
        tol,
        &mut pairs,
    );
    vertex_edge_pairs(
        &near_b.vertices,
        b,
        &near_a.edges,
        a,
        FeatureKind::EdgeVertex,
        tol,
        &mut pairs,
    );
    vertex_face_pairs(
        &near_a.vertices,
        a,
        &near_b.faces,
        b,
        FeatureKind::VertexFace,
        tol,
        &mut pairs,
    );
    vertex_face_pairs(
        &near_b.vertices,
        b,
        &near_a.faces,
        a,
        FeatureKind::FaceVertex,
        tol,
        &mut pairs,
    );
    edge_edge_pairs(
        a,
        b,
        &near_a.edges,
        &near_b.edges,
        (tol, parallel_sin),
        &mut pairs,
    );
    pairs
}

/// One body's surface vertices inside the region and its surface edges
/// and faces whose boxes overlap it, ascending.
struct NearFeatures {
    vertices: Vec<u32>,
    edges: Vec<u32>,
    faces: Vec<u32>,
}

impl NearFeatures {
    fn of(s: &WorldMesh, region: &Aabb) -> NearFeatures {
        let near = |p: DVec3| region.lo.cmple(p).all() && p.cmple(region.hi).all();
        NearFeatures {
            vertices: (0..s.vertices.len() as u32)
                .filter(|&v| s.mesh.is_surface_vertex(v as usize) && near(s.vertices[v as usize]))
                .collect(),
            edges: (0..s.mesh.surface_edges.len() as u32)
                .filter(|&e| Aabb::of(&s.edge(e as usize)).overlaps(region))
                .collect(),
            faces: (0..s.mesh.surface_faces.len() as u32)
                .filter(|&f| Aabb::of(&s.face(f as usize)).overlaps(region))
                .collect(),
        }
    }
}

/// Vertices of A and B within `tol` of each other.
fn vertex_vertex_pairs(
    a: &WorldMesh,
    b: &WorldMesh,
    va: &[u32],
    vb: &[u32],
    tol: f64,
    pairs: &mut Vec<FeaturePair>,
) {
    for &i in va {
        for &j in vb {
            let (p, q) = (a.vertices[i as usize], b.vertices[j as usize]);
            if (p - q).length() <= tol {
                pairs.push(FeaturePair {
                    kind: FeatureKind::VertexVertex,
                    feature_a: i,
                    feature_b: j,
                    point: (p + q) * 0.5,
                });
            }
        }
    }
}

/// Vertex of one body on the interior of an edge of the other.
fn vertex_edge_pairs(
    verts: &[u32],
    vs: &WorldMesh,
    edges: &[u32],
    es: &WorldMesh,
    kind: FeatureKind,
    tol: f64,
    pairs: &mut Vec<FeaturePair>,
) {
    for &v in verts {
        let p = vs.vertices[v as usize];
        for &e in edges {
            let [s, t] = es.edge(e as usize);
            if (p - s).length() <= tol || (p - t).length() <= tol {
                continue;
            }
            let (q, _) = closest_point_on_segment(p, s, t);
            if (p - q).length() <= tol {
                let (fa, fb) = if kind == FeatureKind::VertexEdge {
                    (v, e)
                } else {
                    (e, v)
                };
                pairs.push(FeaturePair {
                    kind,
                    feature_a: fa,
                    feature_b: fb,
                    point: (p + q) * 0.5,
                });
            }
        }
    }
}

/// Vertex of one body on the interior of a face of the other.
fn vertex_face_pairs(
    verts: &[u32],
    vs: &WorldMesh,
    faces: &[u32],
    fs: &WorldMesh,
    kind: FeatureKind,
    tol: f64,
    pairs: &mut Vec<FeaturePair>,
) {
    for &v in verts {
        let p = vs.vertices[v as usize];
        for &f in faces {
            let corners = fs.face(f as usize);
            let n = fs.face_normals[f as usize];
            let distance = n.dot(p - corners[0]);
            if distance.abs() <= tol && strictly_inside_triangle(p, corners, n, tol) {
                let (fa, fb) = if kind == FeatureKind::VertexFace {
                    (v, f)
                } else {
                    (f, v)
                };
                pairs.push(FeaturePair {
                    kind,
                    feature_a: fa,
                    feature_b: fb,
                    point: p - n * (distance * 0.5),
                });
            }
        }
    }
}

/// Edges crossing at one point of both interiors; parallel edges that
/// overlap are the coincident collinear edges that are ignored (their end
/// points already give (V,V) or (V,E) pairs).
fn edge_edge_pairs(
    a: &WorldMesh,
    b: &WorldMesh,
    ea: &[u32],
    eb: &[u32],
    (tol, parallel_sin): (f64, f64),
    pairs: &mut Vec<FeaturePair>,
) {
    for &i in ea {
        let [p1, q1] = a.edge(i as usize);
        for &j in eb {
            let [p2, q2] = b.edge(j as usize);
            let (d1, d2) = (q1 - p1, q2 - p2);
            if d1.cross(d2).length() <= parallel_sin * d1.length() * d2.length() {
                continue;
            }
            let (c1, c2, _, _) = closest_points_segments(p1, q1, p2, q2);
            if (c1 - c2).length() > tol {
                continue;
            }
            let at_end = |c: DVec3| [p1, q1, p2, q2].iter().any(|&e| (c - e).length() <= tol);
            if at_end(c1) || at_end(c2) {
                continue;
            }
            pairs.push(FeaturePair {
                kind: FeatureKind::EdgeEdge,
                feature_a: i,
                feature_b: j,
                point: (c1 + c2) * 0.5,
            });
        }
    }
}
