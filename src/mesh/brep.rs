//! B-rep features of a body: its maximal planar faces, the edges between
//! them and the corners where edges meet, computed once per mesh from the
//! surface classification of [`TetMesh`] (`docs/design/other-methods.md`,
//! "B-rep features": the region methods work on these, not on triangles).
//! The region methods of the ArtiSynth manual (§7.4) and Bouma & Vaněček (§3: the intersection set of open B-rep entities, vertex, edge,
//! face) read these features; the internal (flat) triangle edges and the
//! vertices inside a planar face are not features, which is what removes
//! the internal-edge failures of the paper's local methods.
//!
//! Definitions (all from the mesh's own edge classification, so the
//! `flat_angle` the mesh was built with decides what is flat):
//!
//! - **Face**: a connected set of surface triangles joined across flat
//!   surface edges, maximal. Its normal is the normalised area-weighted sum
//!   of its triangles' normals, its plane `normal · x = offset` passes
//!   through the mean of its vertices, and [`BrepFace::flatness`] is the
//!   largest distance of one of its vertices from that plane (0 up to
//!   round-off for the parametric shapes and their TetGen meshes; a curved
//!   surface whose facets all meet within `flat_angle` would become one
//!   non-planar face, and this number says so). Its boundary is the set of
//!   closed loops of its boundary surface edges, counter-clockwise seen
//!   from outside (the triangles' orientation).
//! - **Edge**: a maximal chain of non-flat (convex or concave) surface
//!   edges running between two B-rep vertices (the same one for a closed
//!   loop), all of one kind and all separating the same two faces.
//! - **Vertex**: a surface vertex with at least one non-flat surface edge,
//!   *except* a vertex where a chain merely passes straight through: one with
//!   exactly two non-flat edges, of the same kind, separating the same pair
//!   of faces, and collinear (to [`COLLINEAR_SINE`]). So a vertex is where
//!   a chain ends (one non-flat edge), branches (three or more, which is
//!   where three or more faces meet), changes kind, changes the faces it
//!   separates or bends. The simpler rule "a surface vertex with at least
//!   one B-rep edge" would also count the points that refinement or
//!   TetGen put in the middle of a box's edge; those are interior points of
//!   one straight B-rep edge, not corners, and a contact method must not
//!   see them as vertices (they are the edge analogue of the internal
//!   vertices of the paper's §4.4). For planar faces the face-pair rule
//!   alone implies collinearity (two planes meet in a line); the collinear
//!   test only matters for non-planar faces. A closed chain with no vertex
//!   on it (possible only with non-planar faces) gets its smallest mesh
//!   vertex as its one B-rep vertex, so every edge has ends.
//!
//! Deterministic: everything is built from the mesh's sorted surface lists
//! in index order (no hashing); faces are numbered by their smallest
//! triangle, vertices by mesh vertex, edges by their start vertex and then
//! the surface edge they leave it by.

pub use super::brep_features::{Brep, BrepEdge, BrepFace, BrepVertex};
use super::edge_kind::EdgeKind;
use super::tetmesh::TetMesh;
use glam::DVec3;

/// Largest sine of the angle between two non-flat surface edges at a vertex
/// for them to count as one straight chain. Far above round-off on edge
/// directions, far below any bend a mesh means.
pub const COLLINEAR_SINE: f64 = 1e-9;

impl Brep {
    /// The B-rep features of `mesh`. Meant for valid bodies (closed,
    /// consistently oriented surfaces, as [`TetMesh::new`] guarantees); on
    /// an open surface an edge without two triangles counts as boundary.
    pub fn of(mesh: &TetMesh) -> Brep {
        let face_of_triangle = group_faces(mesh);
        let sharp_at = sharp_edges_at_vertices(mesh);
        let is_vertex = corners(mesh, &sharp_at, &face_of_triangle);
        let (mut vertices, vertex_of_mesh_vertex) =
            number_vertices(mesh, &is_vertex, &face_of_triangle);
        let (edges, edge_of_surface_edge) = trace_edges(
            mesh,
            &sharp_at,
            &is_vertex,
            &face_of_triangle,
            &vertex_of_mesh_vertex,
        );
        for (i, edge) in edges.iter().enumerate() {
            for end in edge.ends {
                let list = &mut vertices[end as usize].edges;
                if list.last() != Some(&(i as u32)) {
                    list.push(i as u32);
                }
            }
        }
        let faces = collect_faces(mesh, &face_of_triangle, &edges, &vertex_of_mesh_vertex);
        Brep {
            faces,
            edges,
            vertices,
            face_of_triangle,
            edge_of_surface_edge,
            vertex_of_mesh_vertex,
        }
    }
}

impl TetMesh {
    /// The body's B-rep features (maximal planar faces, non-flat edges,
    /// corners), computed once per mesh. Built here, kept in the mesh.
    pub fn brep(&self) -> &Brep {
        self.brep.get_or_init(|| Brep::of(self))
    }
}

/// For each mesh vertex, its non-flat surface edges, in surface-edge order.
fn sharp_edges_at_vertices(mesh: &TetMesh) -> Vec<Vec<u32>> {
    let mut sharp_at: Vec<Vec<u32>> = vec![Vec::new(); mesh.vertices.len()];
    for (e, edge) in mesh.surface_edges.iter().enumerate() {
        if edge.kind != EdgeKind::Flat {
            for v in edge.vertices {
                sharp_at[v as usize].push(e as u32);
            }
        }
    }
    sharp_at
}

/// For each mesh vertex, whether it is a B-rep vertex (the module doc's
/// definition): it has non-flat edges and no chain merely passes straight
/// through it; and on each closed chain with no such vertex, its smallest
/// mesh vertex.
fn corners(mesh: &TetMesh, sharp_at: &[Vec<u32>], face_of_triangle: &[u32]) -> Vec<bool> {
    let face_pair = |e: u32| {
        let [a, b] = mesh.surface_edges[e as usize]
            .faces
            .map(|t| face_of_triangle[t as usize]);
        [a.min(b), a.max(b)]
    };
    let mut is_vertex: Vec<bool> = (0..mesh.vertices.len())
        .map(|v| match sharp_at[v].as_slice() {
            [] => false,
            &[e1, e2] => {
                let (s1, s2) = (
                    &mesh.surface_edges[e1 as usize],
                    &mesh.surface_edges[e2 as usize],
                );
                !(s1.kind == s2.kind
                    && face_pair(e1) == face_pair(e2)
                    && straight_through(mesh, v as u32, s1.vertices, s2.vertices))
            }
            _ => true,
        })
        .collect();

    // Closed chains with no vertex on them: their smallest mesh vertex
    // becomes one. Walk every non-flat edge not reached from a vertex.
    let mut reached = vec![false; mesh.surface_edges.len()];
    for v in 0..mesh.vertices.len() {
        if is_vertex[v] {
            for &e in &sharp_at[v] {
                let (_, edges) = walk(mesh, sharp_at, &is_vertex, v as u32, e);
                for s in edges {
                    reached[s as usize] = true;
                }
            }
        }
    }
    for e in 0..mesh.surface_edges.len() {
        if mesh.surface_edges[e].kind == EdgeKind::Flat || reached[e] {
            continue;
        }
        let start = mesh.surface_edges[e].vertices[0];
        let (path, edges) = walk(mesh, sharp_at, &is_vertex, start, e as u32);
        for s in edges {
            reached[s as usize] = true;
        }
        let smallest = *path.iter().min().expect("a chain has vertices");
        is_vertex[smallest as usize] = true;
    }
    is_vertex
}

/// The B-rep vertices in mesh-vertex order, with the faces meeting at each
/// (their edges are filled in once the edges are traced), and for each mesh
/// vertex its B-rep vertex.
fn number_vertices(
    mesh: &TetMesh,
    is_vertex: &[bool],
    face_of_triangle: &[u32],
) -> (Vec<BrepVertex>, Vec<Option<u32>>) {
    let mut vertex_of_mesh_vertex = vec![None; mesh.vertices.len()];
    let mut vertices = Vec::new();
    for v in 0..mesh.vertices.len() {
        if is_vertex[v] {
            vertex_of_mesh_vertex[v] = Some(vertices.len() as u32);
            let mut faces: Vec<u32> = mesh.vertex_faces[v]
                .iter()
                .map(|&t| face_of_triangle[t as usize])
                .collect();
            faces.sort_unstable();
            faces.dedup();
            vertices.push(BrepVertex {
                mesh_vertex: v as u32,
                edges: Vec::new(),
                faces,
            });
        }
    }
    (vertices, vertex_of_mesh_vertex)
}

/// The B-rep edges: chains from each vertex in order along each of its
/// non-flat edges not yet taken; and for each surface edge its B-rep edge.
fn trace_edges(
    mesh: &TetMesh,
    sharp_at: &[Vec<u32>],
    is_vertex: &[bool],
    face_of_triangle: &[u32],
    vertex_of_mesh_vertex: &[Option<u32>],
) -> (Vec<BrepEdge>, Vec<Option<u32>>) {
    let mut edge_of_surface_edge = vec![None; mesh.surface_edges.len()];
    let mut edges: Vec<BrepEdge> = Vec::new();
    for v in 0..mesh.vertices.len() {
        if !is_vertex[v] {
            continue;
        }
        for &e in &sharp_at[v] {
            if edge_of_surface_edge[e as usize].is_some() {
                continue;
            }
            let (path, surface_edges) = walk(mesh, sharp_at, is_vertex, v as u32, e);
            let index = edges.len() as u32;
            for &s in &surface_edges {
                edge_of_surface_edge[s as usize] = Some(index);
            }
            let first = &mesh.surface_edges[e as usize];
            // surface_edges' faces[0] runs from vertices[0] to vertices[1].
            let [along, back] = first.faces.map(|t| face_of_triangle[t as usize]);
            let faces = if first.vertices[0] == v as u32 {
                [along, back]
            } else {
                [back, along]
            };
            let end = *path.last().expect("a chain has vertices");
            let ends = [v as u32, end]
                .map(|m| vertex_of_mesh_vertex[m as usize].expect("chains end at vertices"));
            edges.push(BrepEdge {
                path,
                surface_edges,
                ends,
                kind: first.kind,
                faces,
            });
        }
    }
    (edges, edge_of_surface_edge)
}

/// The faces with their triangles, planes, boundaries, and the B-rep
/// vertices and edges on those boundaries.
fn collect_faces(
    mesh: &TetMesh,
    face_of_triangle: &[u32],
    edges: &[BrepEdge],
    vertex_of_mesh_vertex: &[Option<u32>],
) -> Vec<BrepFace> {
    let face_count = face_of_triangle.iter().map(|&f| f + 1).max().unwrap_or(0) as usize;
    let mut faces: Vec<BrepFace> = (0..face_count)
        .map(|_| BrepFace {
            triangles: Vec::new(),
            normal: DVec3::ZERO,
            offset: 0.0,
            flatness: 0.0,
            boundary: Vec::new(),
            edges: Vec::new(),
            vertices: Vec::new(),
        })
        .collect();
    for (t, &f) in face_of_triangle.iter().enumerate() {
        faces[f as usize].triangles.push(t as u32);
    }
    for (f, face) in faces.iter_mut().enumerate() {
        fill_face(mesh, face_of_triangle, f as u32, face);
        for &v in face.boundary.iter().flatten() {
            if let Some(b) = vertex_of_mesh_vertex[v as usize] {
                face.vertices.push(b);
            }
        }
        face.vertices.sort_unstable();
        face.vertices.dedup();
    }
    for (i, edge) in edges.iter().enumerate() {
        for f in edge.faces {
            faces[f as usize].edges.push(i as u32);
        }
    }
    for face in &mut faces {
        face.edges.sort_unstable();
        face.edges.dedup();
    }
    faces
}

/// Faces: connected components of the triangles across flat edges,
/// numbered in the order of their smallest triangle.
fn group_faces(mesh: &TetMesh) -> Vec<u32> {
    let n = mesh.surface_faces.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            parent[v as usize] = parent[parent[v as usize] as usize];
            v = parent[v as usize];
        }
        v
    }
    for edge in &mesh.surface_edges {
        if edge.kind == EdgeKind::Flat {
            let (a, b) = (
                root(&mut parent, edge.faces[0]),
                root(&mut parent, edge.faces[1]),
            );
            // The smaller index stays the root.
            parent[a.max(b) as usize] = a.min(b);
        }
    }
    let mut label = vec![u32::MAX; n];
    let mut next = 0;
    (0..n as u32)
        .map(|t| {
            let r = root(&mut parent, t) as usize;
            if label[r] == u32::MAX {
                label[r] = next;
                next += 1;
            }
            label[r]
        })
        .collect()
}

/// Whether the surface edges `a` and `b` (vertex pairs) at `v` leave it in
/// opposite directions along one line.
fn straight_through(mesh: &TetMesh, v: u32, a: [u32; 2], b: [u32; 2]) -> bool {
    let other = |e: [u32; 2]| if e[0] == v { e[1] } else { e[0] };
    let p = mesh.vertices[v as usize];
    let (da, db) = (
        mesh.vertices[other(a) as usize] - p,
        mesh.vertices[other(b) as usize] - p,
    );
    let scale = da.length() * db.length();
    da.dot(db) < 0.0 && da.cross(db).length() <= COLLINEAR_SINE * scale
}

/// Follows non-flat surface edges from `start` along `first` until a B-rep
/// vertex (or `start` again); returns the mesh vertices and surface edges
/// passed.
fn walk(
    mesh: &TetMesh,
    sharp_at: &[Vec<u32>],
    is_vertex: &[bool],
    start: u32,
    first: u32,
) -> (Vec<u32>, Vec<u32>) {
    let mut path = vec![start];
    let mut edges = vec![first];
    let mut at = start;
    let mut along = first;
    loop {
        let [a, b] = mesh.surface_edges[along as usize].vertices;
        at = if a == at { b } else { a };
        path.push(at);
        if at == start || is_vertex[at as usize] {
            return (path, edges);
        }
        // Not a vertex: exactly two non-flat edges here.
        along = *sharp_at[at as usize]
            .iter()
            .find(|&&e| e != along)
            .expect("a vertex inside a chain has two non-flat edges");
        edges.push(along);
    }
}

/// The plane, flatness and boundary loops of face `f`.
fn fill_face(mesh: &TetMesh, face_of_triangle: &[u32], f: u32, face: &mut BrepFace) {
    let mut sum = DVec3::ZERO;
    let mut used: Vec<u32> = Vec::new();
    for &t in &face.triangles {
        let [a, b, c] = mesh.face_corners(t as usize);
        sum += (b - a).cross(c - a);
        used.extend(mesh.surface_faces[t as usize].vertices);
    }
    used.sort_unstable();
    used.dedup();
    face.normal = sum.normalize_or_zero();
    let mean = used
        .iter()
        .map(|&v| mesh.vertices[v as usize])
        .sum::<DVec3>()
        / used.len().max(1) as f64;
    face.offset = face.normal.dot(mean);
    face.flatness = used
        .iter()
        .map(|&v| (face.normal.dot(mesh.vertices[v as usize]) - face.offset).abs())
        .fold(0.0, f64::max);

    // Boundary half-edges: edges of the face's triangles, in their
    // direction, whose other triangle belongs to another face.
    // The triangle across edge (a, b) of triangle t, if it is in this face
    // (an edge without two triangles, only in unvalidated meshes, is
    // boundary).
    let across_in_face = |t: u32, a: u32, b: u32| -> Option<u32> {
        let e = mesh.surface_edge_between(a, b)?;
        let [s, u] = mesh.surface_edges[e as usize].faces;
        let other = if s == t { u } else { s };
        (face_of_triangle[other as usize] == f).then_some(other)
    };
    let mut half: Vec<(u32, u32, u32)> = Vec::new(); // (from, to, triangle)
    for &t in &face.triangles {
        let vs = mesh.surface_faces[t as usize].vertices;
        for k in 0..3 {
            let (a, b) = (vs[k], vs[(k + 1) % 3]);
            if across_in_face(t, a, b).is_none() {
                half.push((a, b, t));
            }
        }
    }
    half.sort_unstable();
    let mut taken = vec![false; half.len()];
    for start in 0..half.len() {
        if taken[start] {
            continue;
        }
        let mut loop_vertices = Vec::new();
        let mut i = start;
        loop {
            taken[i] = true;
            let (a, b, t) = half[i];
            loop_vertices.push(a);
            // The next boundary half-edge leaves b: turn around b through
            // the face's triangles, starting with t's edge after (a, b).
            // (At most one step per triangle at b: a bound that only a
            // malformed surface could reach.)
            let (mut tri, mut from) = (t, a);
            let mut steps = mesh.vertex_faces[b as usize].len();
            let next = loop {
                if steps == 0 {
                    break start;
                }
                steps -= 1;
                let vs = mesh.surface_faces[tri as usize].vertices;
                let k = (0..3).find(|&k| vs[k] == b).expect("b is a corner");
                if vs[(k + 2) % 3] != from {
                    break start; // Inconsistently oriented.
                }
                let c = vs[(k + 1) % 3];
                let Some(across) = across_in_face(tri, b, c) else {
                    break half
                        .binary_search(&(b, c, tri))
                        .expect("a boundary half-edge");
                };
                tri = across;
                from = c;
            };
            if next == start {
                break;
            }
            i = next;
            if taken[i] {
                break; // Defensive: a malformed surface.
            }
        }
        let k = (0..loop_vertices.len())
            .min_by_key(|&k| loop_vertices[k])
            .unwrap_or(0);
        loop_vertices.rotate_left(k);
        face.boundary.push(loop_vertices);
    }
    face.boundary.sort_unstable_by_key(|l| l.first().copied());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::refine::refine;
    use crate::mesh::shapes::{Cuboid, Frustum, Shape, Wedge};

    const FLAT: f64 = 1e-6;

    fn counts(mesh: &TetMesh) -> (usize, usize, usize) {
        let brep = Brep::of(mesh);
        check_consistent(mesh, &brep);
        (brep.faces.len(), brep.edges.len(), brep.vertices.len())
    }

    /// Invariants every B-rep must meet.
    fn check_consistent(mesh: &TetMesh, brep: &Brep) {
        // Euler: a sphere's B-rep (faces without holes here) has V − E + F = 2.
        let euler = brep.vertices.len() as i64 - brep.edges.len() as i64 + brep.faces.len() as i64;
        assert_eq!(euler, 2);
        for face in &brep.faces {
            assert!(face.flatness <= 1e-9 * mesh.diagonal(), "{}", face.flatness);
            for &t in &face.triangles {
                let n = mesh.surface_faces[t as usize].normal;
                assert!((n - face.normal).length() <= 1e-9, "{n} vs {}", face.normal);
            }
            assert_eq!(face.boundary.len(), 1);
            // The boundary loop's corners are the face's vertices.
            let corners: Vec<u32> = face.boundary[0]
                .iter()
                .filter_map(|&v| brep.vertex_of_mesh_vertex[v as usize])
                .collect();
            let mut sorted = corners.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, face.vertices);
            assert_eq!(face.vertices.len(), face.edges.len());
        }
        for (e, edge) in brep.edges.iter().enumerate() {
            assert_ne!(edge.faces[0], edge.faces[1]);
            assert_ne!(edge.ends[0], edge.ends[1]);
            assert_eq!(edge.path.len(), edge.surface_edges.len() + 1);
            for &s in &edge.surface_edges {
                assert_eq!(brep.edge_of_surface_edge[s as usize], Some(e as u32));
                assert_eq!(mesh.surface_edges[s as usize].kind, edge.kind);
            }
            // faces[0]'s counter-clockwise boundary runs path[0] → path[1].
            let (a, b) = (edge.path[0], edge.path[1]);
            let boundary = &brep.faces[edge.faces[0] as usize].boundary[0];
            let n = boundary.len();
            assert!((0..n).any(|k| boundary[k] == a && boundary[(k + 1) % n] == b));
        }
        for (s, edge) in mesh.surface_edges.iter().enumerate() {
            assert_eq!(
                brep.edge_of_surface_edge[s].is_some(),
                edge.kind != EdgeKind::Flat
            );
        }
    }

    fn box_mesh() -> TetMesh {
        Shape::from(Cuboid {
            size: DVec3::new(3.0, 0.3, 2.0),
        })
        .build(FLAT)
        .unwrap()
    }

    #[test]
    fn a_box_has_six_faces_twelve_edges_eight_vertices_at_every_refinement() {
        let cones = box_mesh();
        assert_eq!(counts(&cones), (6, 12, 8));
        let once = refine(&cones, FLAT).unwrap();
        assert_eq!(counts(&once), (6, 12, 8));
        let twice = refine(&once, FLAT).unwrap();
        assert_eq!(counts(&twice), (6, 12, 8));
        let brep = Brep::of(&twice);
        assert!(brep.edges.iter().all(|e| e.kind == EdgeKind::Convex));
        assert!(brep
            .vertices
            .iter()
            .all(|v| v.faces.len() == 3 && v.edges.len() == 3));
        // Refined twice, every box edge is a chain of four surface edges.
        assert!(brep.edges.iter().all(|e| e.surface_edges.len() == 4));
    }

    #[test]
    fn a_hexagonal_frustum_has_eight_faces_eighteen_edges_twelve_vertices() {
        let mesh = Shape::from(Frustum {
            sides: 6,
            bottom_radius: 0.25,
            top_radius: 0.2,
            height: 0.21,
        })
        .build(FLAT)
        .unwrap();
        assert_eq!(counts(&mesh), (8, 18, 12));
        assert_eq!(counts(&refine(&mesh, FLAT).unwrap()), (8, 18, 12));
    }

    #[test]
    fn a_wedge_has_five_faces_nine_edges_six_vertices() {
        let mesh = Shape::from(Wedge {
            half_width: 0.8,
            height: 2.4,
            half_length: 1.6,
        })
        .build(FLAT)
        .unwrap();
        assert_eq!(counts(&mesh), (5, 9, 6));
        assert_eq!(counts(&refine(&mesh, FLAT).unwrap()), (5, 9, 6));
    }

    #[test]
    fn boxes_and_wedges_are_convex_the_crack_prism_is_not() {
        assert!(Brep::of(&box_mesh()).is_convex());
        let wedge = Shape::from(Wedge {
            half_width: 0.8,
            height: 2.4,
            half_length: 1.6,
        })
        .build(FLAT)
        .unwrap();
        assert!(Brep::of(&wedge).is_convex());
        let crack = Shape::from(crate::mesh::shapes::prism::tests::crack_prism())
            .build(FLAT)
            .unwrap();
        assert!(!Brep::of(&crack).is_convex());
    }

    #[test]
    fn a_crack_prism_has_one_concave_edge() {
        let mesh = Shape::from(crate::mesh::shapes::prism::tests::crack_prism())
            .build(FLAT)
            .unwrap();
        assert_eq!(counts(&mesh), (9, 21, 14));
        let brep = Brep::of(&mesh);
        let concave = brep
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Concave)
            .count();
        assert_eq!(concave, 1);
    }

    #[test]
    fn a_curved_side_merged_by_a_large_flat_angle_is_one_face_with_bent_rims() {
        // Twelve sides meet at 30°; with a 35° flat angle the side is one
        // non-planar face, the rims are closed chains that bend at every
        // vertex, so every rim vertex is a B-rep vertex.
        let mesh = Shape::from(Frustum {
            sides: 12,
            bottom_radius: 1.0,
            top_radius: 0.8,
            height: 1.0,
        })
        .build(35f64.to_radians())
        .unwrap();
        let brep = Brep::of(&mesh);
        assert_eq!(
            (brep.faces.len(), brep.edges.len(), brep.vertices.len()),
            (3, 24, 24)
        );
        let loops: usize = brep.faces.iter().map(|f| f.boundary.len()).sum();
        assert_eq!(loops, 4);
        let side = brep.faces.iter().find(|f| f.boundary.len() == 2).unwrap();
        assert!(side.flatness > 0.1);
        assert_eq!(side.edges.len(), 24);
    }

    #[test]
    fn the_result_does_not_depend_on_the_pose() {
        let mesh = refine(&box_mesh(), FLAT).unwrap();
        let rotation = glam::DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 0.7);
        let moved = mesh.map_vertices(|p| rotation * p + DVec3::new(1.0, -2.0, 0.5));
        let (a, b) = (Brep::of(&mesh), Brep::of(&moved));
        assert_eq!(a.face_of_triangle, b.face_of_triangle);
        assert_eq!(a.edge_of_surface_edge, b.edge_of_surface_edge);
        assert_eq!(a.vertex_of_mesh_vertex, b.vertex_of_mesh_vertex);
        assert_eq!(Brep::of(&mesh), a);
    }
}
