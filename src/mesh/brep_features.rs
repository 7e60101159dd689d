//! The B-rep features of a body as data: maximal planar faces, the edges
//! between them, the corners where edges meet (Bouma & Vaněček §3; the
//! definitions and how they are found from a mesh are in `brep.rs`, which
//! builds them). A [`TetMesh`](super::TetMesh) keeps its own, computed on
//! first use.

use super::edge_kind::EdgeKind;
use glam::DVec3;

/// A maximal planar face.
#[derive(Clone, Debug, PartialEq)]
pub struct BrepFace {
    /// Its surface triangles (indices into `TetMesh::surface_faces`),
    /// ascending.
    pub triangles: Vec<u32>,
    /// Outward unit normal of its plane.
    pub normal: DVec3,
    /// The plane is `normal · x = offset`.
    pub offset: f64,
    /// Largest distance of one of its vertices from the plane.
    pub flatness: f64,
    /// Its boundary: closed loops of mesh vertices (the last joins the
    /// first), counter-clockwise seen from outside, each starting at its
    /// smallest vertex, loops sorted by that vertex.
    pub boundary: Vec<Vec<u32>>,
    /// The B-rep edges on its boundary, ascending.
    pub edges: Vec<u32>,
    /// The B-rep vertices on its boundary, ascending.
    pub vertices: Vec<u32>,
}

/// A maximal chain of non-flat surface edges between two B-rep vertices.
#[derive(Clone, Debug, PartialEq)]
pub struct BrepEdge {
    /// The mesh vertices along the chain, from its start B-rep vertex to its
    /// end one (equal for a closed chain).
    pub path: Vec<u32>,
    /// The surface edges along the chain, in order.
    pub surface_edges: Vec<u32>,
    /// The B-rep vertices at its ends (indices into `Brep::vertices`).
    pub ends: [u32; 2],
    pub kind: EdgeKind,
    /// The two faces it separates: `faces[0]` is the one whose
    /// counter-clockwise boundary runs along the chain from `path[0]`
    /// onwards, `faces[1]` the one that runs back. Equal only for a crease
    /// that dies out inside one face.
    pub faces: [u32; 2],
}

/// A corner: a surface vertex where B-rep edges end.
#[derive(Clone, Debug, PartialEq)]
pub struct BrepVertex {
    /// Index into `TetMesh::vertices`.
    pub mesh_vertex: u32,
    /// The B-rep edges ending here, ascending (a closed chain through its
    /// only vertex is listed once).
    pub edges: Vec<u32>,
    /// The faces meeting here, ascending.
    pub faces: Vec<u32>,
}

/// The B-rep features of one mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct Brep {
    pub faces: Vec<BrepFace>,
    pub edges: Vec<BrepEdge>,
    pub vertices: Vec<BrepVertex>,
    /// For each surface triangle, its face.
    pub face_of_triangle: Vec<u32>,
    /// For each surface edge, its B-rep edge (`None` for a flat edge).
    pub edge_of_surface_edge: Vec<Option<u32>>,
    /// For each mesh vertex, its B-rep vertex (`None` for interior vertices,
    /// vertices inside a face and points inside a B-rep edge).
    pub vertex_of_mesh_vertex: Vec<Option<u32>>,
}

impl Brep {
    /// Whether the body is convex: every B-rep edge is convex
    /// (`docs/design/other-methods.md`, "B-rep features"). A closed, consistently oriented surface of one piece whose
    /// edges all bend outwards bounds a convex solid; a surface with no
    /// edge at all (never a valid closed polyhedron) does not count.
    pub fn is_convex(&self) -> bool {
        !self.edges.is_empty() && self.edges.iter().all(|e| e.kind == EdgeKind::Convex)
    }
}
