//! A body's B-rep features and the outward normal cones of their convex
//! local pieces, for the geometric oracle (`docs/design/oracle.md`,
//! "Features" and "Local pieces"), read from the mesh's surface triangles
//! and edges alone (the oracle does not use `mesh::Brep`, which the contact
//! methods use: see the design's "Independence").
//!
//! Faces are the maximal sets of surface triangles joined across flat edges
//! (Erleben 2018, §4.4: internal edges are no features); edges are the
//! surface edges that are not flat, convex or reflex; corners are the
//! surface vertices with at least one such edge. A corner is convex when
//! all its edges are. The local solid at a face, a convex edge or a convex
//! corner is convex: one piece, whose normal cone is spanned by the normals
//! of the faces at it. At a reflex edge or a non-convex corner it is split
//! into one piece per incident face, the half-space below it, whose normal
//! cone is that face's normal (the paper's crack and hole oracles, table 4).

use crate::mesh::{EdgeKind, TetMesh};
use glam::DVec3;

/// A maximal flat face: its triangles (mesh vertex indices) and its outward
/// unit normal.
#[derive(Clone, Debug)]
pub struct Face {
    pub triangles: Vec<[u32; 3]>,
    pub normal: DVec3,
    /// The surface edges (mesh vertex pairs) bounding the face: the sides of
    /// its triangles that are not flat.
    pub boundary: Vec<[u32; 2]>,
}

/// A sharp edge between faces `faces[0]` and `faces[1]`.
#[derive(Clone, Debug)]
pub struct Edge {
    pub vertices: [u32; 2],
    pub faces: [usize; 2],
    pub convex: bool,
}

/// A corner: a surface vertex where sharp edges meet, with its faces.
#[derive(Clone, Debug)]
pub struct Corner {
    pub vertex: u32,
    pub faces: Vec<usize>,
    pub convex: bool,
}

/// A feature of a body, by kind and index into its lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    Face(usize),
    Edge(usize),
    Corner(usize),
}

/// The features of one body, in its body frame.
#[derive(Clone, Debug)]
pub struct BodyFeatures {
    pub vertices: Vec<DVec3>,
    pub faces: Vec<Face>,
    pub edges: Vec<Edge>,
    pub corners: Vec<Corner>,
}

/// Union-find root with path halving.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

impl BodyFeatures {
    /// The features of `mesh`'s surface.
    ///
    /// A surface triangle of zero area (a flat tetrahedron on the surface)
    /// has no normal: it belongs to no face and joins none, else it would
    /// glue the faces on either side of it into one with a made-up normal.
    /// A sharp edge it separates from a face is then no edge of the oracle,
    /// which only loses features, never invents them.
    pub fn of(mesh: &TetMesh) -> BodyFeatures {
        let triangles = &mesh.surface_faces;
        let degenerate: Vec<bool> = triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.vertices.map(|v| mesh.vertices[v as usize]);
                let longest = (b - a)
                    .length_squared()
                    .max((c - b).length_squared())
                    .max((a - c).length_squared());
                (b - a).cross(c - a).length() <= 1e-12 * longest
            })
            .collect();
        let touches_degenerate = |faces: [u32; 2]| faces.iter().any(|&t| degenerate[t as usize]);
        let mut parent: Vec<usize> = (0..triangles.len()).collect();
        for e in &mesh.surface_edges {
            if touches_degenerate(e.faces) {
                continue;
            }
            if e.kind == EdgeKind::Flat {
                let (a, b) = (
                    root(&mut parent, e.faces[0] as usize),
                    root(&mut parent, e.faces[1] as usize),
                );
                parent[a] = b;
            }
        }
        let mut face_of_triangle = vec![usize::MAX; triangles.len()];
        let mut faces: Vec<Face> = Vec::new();
        let mut face_of_root = vec![usize::MAX; triangles.len()];
        let mut weighted = Vec::new();
        for (t, tri) in triangles.iter().enumerate() {
            if degenerate[t] {
                continue;
            }
            let r = root(&mut parent, t);
            if face_of_root[r] == usize::MAX {
                face_of_root[r] = faces.len();
                faces.push(Face {
                    triangles: Vec::new(),
                    normal: DVec3::ZERO,
                    boundary: Vec::new(),
                });
                weighted.push(DVec3::ZERO);
            }
            let f = face_of_root[r];
            face_of_triangle[t] = f;
            faces[f].triangles.push(tri.vertices);
            let [a, b, c] = tri.vertices.map(|v| mesh.vertices[v as usize]);
            weighted[f] += (b - a).cross(c - a);
        }
        for (face, w) in faces.iter_mut().zip(&weighted) {
            face.normal = w.normalize_or_zero();
        }
        let mut edges = Vec::new();
        let mut at_vertex: Vec<Vec<usize>> = vec![Vec::new(); mesh.vertices.len()];
        for e in &mesh.surface_edges {
            if e.kind == EdgeKind::Flat || touches_degenerate(e.faces) {
                continue;
            }
            let fs = e.faces.map(|t| face_of_triangle[t as usize]);
            for f in fs {
                faces[f].boundary.push(e.vertices);
            }
            for v in e.vertices {
                at_vertex[v as usize].push(edges.len());
            }
            edges.push(Edge {
                vertices: e.vertices,
                faces: fs,
                convex: e.kind == EdgeKind::Convex,
            });
        }
        let mut corners = Vec::new();
        for (v, incident) in at_vertex.iter().enumerate() {
            if incident.is_empty() {
                continue;
            }
            let mut fs: Vec<usize> = mesh.vertex_faces[v]
                .iter()
                .filter(|&&t| !degenerate[t as usize])
                .map(|&t| face_of_triangle[t as usize])
                .collect();
            fs.sort_unstable();
            fs.dedup();
            corners.push(Corner {
                vertex: v as u32,
                faces: fs,
                convex: incident.iter().all(|&e| edges[e].convex),
            });
        }
        BodyFeatures {
            vertices: mesh.vertices.clone(),
            faces,
            edges,
            corners,
        }
    }

    /// The convex local pieces of `feature`, each as the faces whose
    /// outward normals span its normal cone: one piece for a face, a convex
    /// edge or a convex corner, one per incident face at a reflex edge or a
    /// non-convex corner.
    /// Whether `outer` contains the local piece of `inner` spanned by the
    /// faces `piece` (one of [`BodyFeatures::piece_faces`]`(inner)`): the
    /// feature itself; a face contains the pieces on its side of its edges
    /// and corners (both faces hold a convex edge's one piece, each face
    /// only its own piece of a reflex edge); an edge contains the pieces of
    /// its end corners on its faces.
    pub fn contains(&self, outer: Feature, inner: Feature, piece: &[usize]) -> bool {
        match (outer, inner) {
            _ if outer == inner => true,
            (Feature::Face(f), _) => piece.contains(&f),
            (Feature::Edge(e), Feature::Corner(c)) => {
                let edge = &self.edges[e];
                edge.vertices.contains(&self.corners[c].vertex)
                    && edge.faces.iter().any(|f| piece.contains(f))
            }
            _ => false,
        }
    }

    pub fn piece_faces(&self, feature: Feature) -> Vec<Vec<usize>> {
        match feature {
            Feature::Face(f) => vec![vec![f]],
            Feature::Edge(e) => {
                let edge = &self.edges[e];
                if edge.convex {
                    vec![edge.faces.to_vec()]
                } else {
                    edge.faces.iter().map(|&f| vec![f]).collect()
                }
            }
            Feature::Corner(c) => {
                let corner = &self.corners[c];
                if corner.convex {
                    vec![corner.faces.clone()]
                } else {
                    corner.faces.iter().map(|&f| vec![f]).collect()
                }
            }
        }
    }
}
