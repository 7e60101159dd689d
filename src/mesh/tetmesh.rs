//! `TetMesh`: vertices and positively oriented tetrahedra, plus the surface
//! classification that the contact methods and the exact-contact enumerator
//! read (`docs/design/scenes.md`, "Surface classification").
//!
//! A tetrahedron face is a surface face when no other tetrahedron of the mesh
//! has the same three vertices. Surface edges and vertices are those of
//! surface faces. A valid body surface is closed: every surface edge has
//! exactly two surface faces, one on each side.

pub use super::bounds::{bounding_diagonal, bounds};
use super::brep_features::Brep;
pub use super::edge_kind::EdgeKind;
#[cfg(feature = "parry")]
use super::parry_shape::ParryShape;
use super::self_intersection::{find_self_intersection, SelfIntersection};
use crate::geometry::{Aabb, Bvh};
use glam::DVec3;
use std::fmt;
use std::sync::OnceLock;

/// Local faces of a positively oriented tetrahedron (a, b, c, d), listed so
/// that each face is counter-clockwise seen from outside; face `i` is the one
/// opposite local vertex `i`.
pub const TET_FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];

/// The six edges of a tetrahedron as local vertex pairs.
pub const TET_EDGES: [[usize; 2]; 6] = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];

#[derive(Clone, Debug)]
pub struct SurfaceFace {
    /// Vertex indices, counter-clockwise seen from outside.
    pub vertices: [u32; 3],
    /// Outward unit normal.
    pub normal: DVec3,
    /// The tetrahedron the face belongs to and the local vertex opposite it.
    pub tet: u32,
    pub opposite: u8,
}

#[derive(Clone, Debug)]
pub struct SurfaceEdge {
    /// Vertex indices, smaller first.
    pub vertices: [u32; 2],
    /// The two surface faces that share the edge.
    pub faces: [u32; 2],
    /// Interior dihedral angle in radians (π for a flat edge).
    pub dihedral: f64,
    pub kind: EdgeKind,
}

#[derive(Clone, Debug)]
pub struct TetMesh {
    pub vertices: Vec<DVec3>,
    pub tets: Vec<[u32; 4]>,
    pub surface_faces: Vec<SurfaceFace>,
    pub surface_edges: Vec<SurfaceEdge>,
    /// For each vertex, the surface faces incident to it (empty for interior
    /// vertices).
    pub vertex_faces: Vec<Vec<u32>>,
    /// For each vertex, its neighbours along surface edges (empty for
    /// interior vertices).
    pub surface_neighbours: Vec<Vec<u32>>,
    /// For each tetrahedron and local face (opposite local vertex i), the
    /// index of the surface face, if that face is on the surface.
    pub tet_surface_faces: Vec<[Option<u32>; 4]>,
    /// The B-rep features, computed on first use ([`TetMesh::brep`]) and
    /// kept with the mesh, so a body pays for them once, not every step.
    pub(super) brep: OnceLock<Brep>,
    /// Bounding-volume hierarchies over the tetrahedra and over the surface
    /// triangles, body frame, built on first use ([`TetMesh::tet_tree`],
    /// [`TetMesh::surface_tree`]): the mesh is rigid, so a posed body
    /// queries them with points taken into its body frame.
    tet_tree: OnceLock<Bvh>,
    surface_tree: OnceLock<Bvh>,
    /// The body as parry3d's shape, built on first use
    /// (`TetMesh::parry_shape`) for the `parry` method.
    #[cfg(feature = "parry")]
    pub(super) parry_shape: OnceLock<ParryShape>,
}

/// Why a set of tetrahedra is not a valid rigid body.
#[derive(Clone, Debug, PartialEq)]
pub enum MeshError {
    Empty,
    VertexOutOfRange {
        tet: usize,
        vertex: u32,
    },
    NonFinite {
        vertex: usize,
    },
    NonPositiveVolume {
        tet: usize,
        volume: f64,
    },
    /// A face shared by more than two tetrahedra.
    OverusedFace {
        vertices: [u32; 3],
    },
    OpenSurface {
        edge: [u32; 2],
        faces: usize,
    },
    InconsistentOrientation {
        edge: [u32; 2],
    },
    /// Euler characteristic V − E + F of the surface is not 2.
    NotSphere {
        euler: i64,
    },
    /// Two tetrahedra share a face and lie on the same side of it.
    OverlappingTets {
        vertices: [u32; 3],
    },
    /// The surface falls into several pieces (the vertex given is not in
    /// the piece of the first surface edge).
    SurfaceNotConnected {
        vertex: u32,
    },
    /// The surface touches or crosses itself.
    SelfIntersecting(SelfIntersection),
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeshError::Empty => write!(f, "the mesh has no tetrahedra"),
            MeshError::VertexOutOfRange { tet, vertex } => write!(f, "tetrahedron {tet} uses vertex {vertex}, which does not exist"),
            MeshError::NonFinite { vertex } => write!(f, "vertex {vertex} has a non-finite coordinate"),
            MeshError::NonPositiveVolume { tet, volume } if *volume > 0.0 => write!(f, "tetrahedron {tet} is flat: its volume {} m³ is round-off for the mesh's size", crate::number_text::readable(*volume)),
            MeshError::NonPositiveVolume { tet, volume } => write!(f, "tetrahedron {tet} has non-positive volume {} (inverted)", crate::number_text::readable(*volume)),
            MeshError::OverusedFace { vertices } => write!(f, "the face {vertices:?} is shared by more than two tetrahedra"),
            MeshError::OpenSurface { edge, faces } => write!(f, "the surface is not closed: edge {edge:?} has {faces} surface face(s) instead of 2"),
            MeshError::InconsistentOrientation { edge } => write!(f, "the surface is not consistently oriented at edge {edge:?}"),
            MeshError::NotSphere { euler } => write!(f, "the surface has Euler characteristic {euler}, not 2 (not a single closed surface without holes)"),
            MeshError::OverlappingTets { vertices } => write!(f, "the two tetrahedra sharing face {vertices:?} lie on the same side of it (they overlap)"),
            MeshError::SurfaceNotConnected { vertex } => write!(f, "the surface is in several pieces (vertex {vertex} is not connected to the rest); a body is one solid"),
            MeshError::SelfIntersecting(SelfIntersection::PinchedVertex { vertex }) => write!(f, "the surface intersects itself: it pinches at vertex {vertex} (its triangles there form more than one fan)"),
            MeshError::SelfIntersecting(SelfIntersection::Overlap { triangles: [s, t] }) => write!(f, "the surface intersects itself: triangles {s:?} and {t:?} overlap, so the body would cover part of space twice"),
        }
    }
}

/// Signed volume of the tetrahedron (a, b, c, d): positive when d lies on
/// the side that (b − a) × (c − a) points to.
pub fn tet_volume(a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> f64 {
    (b - a).cross(c - a).dot(d - a) / 6.0
}

impl TetMesh {
    /// A bounding-volume hierarchy over the tetrahedra (item `t` is
    /// `tets[t]`), body frame, built once per mesh.
    pub fn tet_tree(&self) -> &Bvh {
        self.tet_tree.get_or_init(|| {
            let boxes: Vec<Aabb> = (0..self.tets.len())
                .map(|t| Aabb::of(&self.tet_corners(t)))
                .collect();
            Bvh::build(&boxes)
        })
    }

    /// A bounding-volume hierarchy over the surface triangles (item `f` is
    /// `surface_faces[f]`), body frame, built once per mesh.
    pub fn surface_tree(&self) -> &Bvh {
        self.surface_tree.get_or_init(|| {
            let boxes: Vec<Aabb> = (0..self.surface_faces.len())
                .map(|f| Aabb::of(&self.face_corners(f)))
                .collect();
            Bvh::build(&boxes)
        })
    }

    /// The diagonal of the bounding box of the vertices, in the mesh's own
    /// frame: the body's size, which does not change with its pose.
    pub fn diagonal(&self) -> f64 {
        let (lo, hi) = bounds(&self.vertices);
        (hi - lo).length()
    }

    /// Builds the mesh and classifies its surface. `flat_angle` is the largest
    /// angle in radians between two face normals for their edge to count as
    /// flat. Fails when a tetrahedron is not positively oriented or the
    /// surface is not a closed, consistently oriented sphere.
    pub fn new(
        vertices: Vec<DVec3>,
        tets: Vec<[u32; 4]>,
        flat_angle: f64,
    ) -> Result<TetMesh, MeshError> {
        Self::build(vertices, tets, flat_angle, true)
    }

    /// Classifies the surface of any tetrahedra, valid or not: flat,
    /// inverted and open meshes are accepted (faces of zero area get a zero
    /// normal). Only for feeding degenerate input to the contact methods in
    /// tests; bodies always go through [`TetMesh::new`].
    pub fn without_validation(
        vertices: Vec<DVec3>,
        tets: Vec<[u32; 4]>,
        flat_angle: f64,
    ) -> Result<TetMesh, MeshError> {
        Self::build(vertices, tets, flat_angle, false)
    }

    /// [`TetMesh::new`], checking only when `validate`: the tetrahedra,
    /// then the faces no other tetrahedron shares (the surface), then the
    /// surface's edges, then that the surface is one closed sphere.
    fn build(
        vertices: Vec<DVec3>,
        tets: Vec<[u32; 4]>,
        flat_angle: f64,
        validate: bool,
    ) -> Result<TetMesh, MeshError> {
        check_tetrahedra(&vertices, &tets, validate)?;
        let (surface_faces, tet_surface_faces) = find_surface_faces(&vertices, &tets, validate)?;
        let surface_edges = find_surface_edges(&vertices, &surface_faces, flat_angle, validate)?;
        let vertex_faces = faces_at_vertices(vertices.len(), &surface_faces);
        if validate {
            check_one_closed_sphere(
                &vertices,
                &surface_faces,
                &surface_edges,
                &vertex_faces,
                flat_angle,
            )?;
        }
        let surface_neighbours = neighbours_along_edges(vertices.len(), &surface_edges);
        Ok(TetMesh {
            vertices,
            tets,
            surface_faces,
            surface_edges,
            vertex_faces,
            surface_neighbours,
            tet_surface_faces,
            brep: OnceLock::new(),
            tet_tree: OnceLock::new(),
            surface_tree: OnceLock::new(),
            #[cfg(feature = "parry")]
            parry_shape: OnceLock::new(),
        })
    }

    pub fn tet_corners(&self, t: usize) -> [DVec3; 4] {
        self.tets[t].map(|v| self.vertices[v as usize])
    }

    pub fn face_corners(&self, f: usize) -> [DVec3; 3] {
        self.surface_faces[f]
            .vertices
            .map(|v| self.vertices[v as usize])
    }

    /// The surface edge joining vertices `u` and `v`, if there is one
    /// (surface edges are sorted by their vertex pair).
    pub fn surface_edge_between(&self, u: u32, v: u32) -> Option<u32> {
        let key = [u.min(v), u.max(v)];
        self.surface_edges
            .binary_search_by(|e| e.vertices.cmp(&key))
            .ok()
            .map(|i| i as u32)
    }

    /// Whether vertex `v` lies on the surface.
    pub fn is_surface_vertex(&self, v: usize) -> bool {
        !self.vertex_faces[v].is_empty()
    }

    /// Total volume, from the tetrahedra.
    pub fn volume(&self) -> f64 {
        (0..self.tets.len())
            .map(|t| {
                let [a, b, c, d] = self.tet_corners(t);
                tet_volume(a, b, c, d)
            })
            .sum()
    }

    /// Volume enclosed by the surface (divergence theorem); equals
    /// [`TetMesh::volume`] exactly when the surface is outward and closed.
    pub fn surface_enclosed_volume(&self) -> f64 {
        (0..self.surface_faces.len())
            .map(|f| {
                let [a, b, c] = self.face_corners(f);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }

    /// Unique edges of all tetrahedra (for the tetrahedra view), smaller
    /// vertex first, sorted.
    pub fn tet_edges(&self) -> Vec<[u32; 2]> {
        let mut edges: Vec<[u32; 2]> = self
            .tets
            .iter()
            .flat_map(|tet| {
                TET_EDGES
                    .iter()
                    .map(move |&[i, j]| [tet[i].min(tet[j]), tet[i].max(tet[j])])
            })
            .collect();
        edges.sort_unstable();
        edges.dedup();
        edges
    }

    /// A copy with every vertex mapped by `f` (which must preserve
    /// orientation, e.g. a rotation or a positive scaling), surface data kept.
    pub fn map_vertices(&self, f: impl Fn(DVec3) -> DVec3) -> TetMesh {
        let mut mesh = self.clone();
        // The features' planes and the trees' boxes move with the vertices.
        mesh.brep = OnceLock::new();
        mesh.tet_tree = OnceLock::new();
        mesh.surface_tree = OnceLock::new();
        #[cfg(feature = "parry")]
        {
            mesh.parry_shape = OnceLock::new();
        }
        for v in &mut mesh.vertices {
            *v = f(*v);
        }
        for face in &mut mesh.surface_faces {
            let [a, b, c] = face.vertices.map(|v| mesh.vertices[v as usize]);
            face.normal = (b - a).cross(c - a).normalize();
        }
        mesh
    }
}

/// Whether two triangles on the same three vertices have the same
/// orientation: rotate each so its smallest vertex comes first and compare.
/// There are tetrahedra, every vertex is finite, and every tetrahedron
/// names existing vertices and (when `validate`) has a positive volume.
fn check_tetrahedra(
    vertices: &[DVec3],
    tets: &[[u32; 4]],
    validate: bool,
) -> Result<(), MeshError> {
    if tets.is_empty() {
        return Err(MeshError::Empty);
    }
    if let Some(i) = vertices.iter().position(|v| !v.is_finite()) {
        return Err(MeshError::NonFinite { vertex: i });
    }
    let scale = bounding_diagonal(vertices).max(f64::MIN_POSITIVE);
    for (t, tet) in tets.iter().enumerate() {
        if let Some(&v) = tet.iter().find(|&&v| v as usize >= vertices.len()) {
            return Err(MeshError::VertexOutOfRange { tet: t, vertex: v });
        }
        let [a, b, c, d] = tet.map(|i| vertices[i as usize]);
        let volume = tet_volume(a, b, c, d);
        // Relative threshold: a sliver whose volume is round-off for the
        // mesh's size is as degenerate as an inverted one, unless its
        // smallest height is well above round-off (a slender body's cones:
        // a 10 km × 1 mm × 1 mm rod).
        let flat = || {
            volume <= 1e-12 * scale * scale * scale
                && smallest_height(a, b, c, d, volume) <= 1e-9 * scale
        };
        if validate && (volume.is_nan() || volume <= 0.0 || flat()) {
            return Err(MeshError::NonPositiveVolume { tet: t, volume });
        }
    }
    Ok(())
}

/// The smallest of a tetrahedron's four heights (3 V over its largest face).
fn smallest_height(a: DVec3, b: DVec3, c: DVec3, d: DVec3, volume: f64) -> f64 {
    let area = |p: DVec3, q: DVec3, r: DVec3| 0.5 * (q - p).cross(r - p).length();
    let largest = area(b, c, d)
        .max(area(a, c, d))
        .max(area(a, b, d))
        .max(area(a, b, c));
    3.0 * volume / largest
}

/// For each tetrahedron and local face, the index of its surface face.
type TetSurfaceFaces = Vec<[Option<u32>; 4]>;

/// The surface faces (the tetrahedron faces no other tetrahedron shares),
/// in the order of their sorted vertices, and for each tetrahedron and
/// local face its surface face. When `validate`, a face shared by two
/// tetrahedra on the same side of it or by more than two is an error.
fn find_surface_faces(
    vertices: &[DVec3],
    tets: &[[u32; 4]],
    validate: bool,
) -> Result<(Vec<SurfaceFace>, TetSurfaceFaces), MeshError> {
    // Faces keyed by their sorted vertices; sorting (not hashing) keeps the
    // surface order deterministic.
    let mut keyed: Vec<([u32; 3], u32, u8)> = Vec::with_capacity(tets.len() * 4);
    for (t, tet) in tets.iter().enumerate() {
        for (i, local) in TET_FACES.iter().enumerate() {
            let mut key = local.map(|l| tet[l]);
            key.sort_unstable();
            keyed.push((key, t as u32, i as u8));
        }
    }
    keyed.sort_unstable();
    let mut surface_faces = Vec::new();
    let mut tet_surface_faces = vec![[None; 4]; tets.len()];
    let mut i = 0;
    while i < keyed.len() {
        let mut j = i + 1;
        while j < keyed.len() && keyed[j].0 == keyed[i].0 {
            j += 1;
        }
        match j - i {
            1 => {
                let (_, t, opposite) = keyed[i];
                let corners = TET_FACES[opposite as usize].map(|l| tets[t as usize][l]);
                let [a, b, c] = corners.map(|v| vertices[v as usize]);
                tet_surface_faces[t as usize][opposite as usize] = Some(surface_faces.len() as u32);
                surface_faces.push(SurfaceFace {
                    vertices: corners,
                    normal: (b - a).cross(c - a).normalize_or_zero(),
                    tet: t,
                    opposite,
                });
            }
            // Two positive tetrahedra on opposite sides of their shared
            // face see it with opposite orientations; the same
            // orientation means they overlap.
            2 if validate
                && same_orientation(
                    TET_FACES[keyed[i].2 as usize].map(|l| tets[keyed[i].1 as usize][l]),
                    TET_FACES[keyed[i + 1].2 as usize].map(|l| tets[keyed[i + 1].1 as usize][l]),
                ) =>
            {
                return Err(MeshError::OverlappingTets {
                    vertices: keyed[i].0,
                })
            }
            2 => {}
            _ if !validate => {}
            _ => {
                return Err(MeshError::OverusedFace {
                    vertices: keyed[i].0,
                })
            }
        }
        i = j;
    }
    Ok((surface_faces, tet_surface_faces))
}

/// The surface edges, each with its two faces and how it bends. When
/// `validate`, an edge without exactly two faces, or whose two faces run
/// along it the same way, is an error; otherwise such an edge is left out.
fn find_surface_edges(
    vertices: &[DVec3],
    surface_faces: &[SurfaceFace],
    flat_angle: f64,
    validate: bool,
) -> Result<Vec<SurfaceEdge>, MeshError> {
    // Directed half-edges: a closed, consistently oriented surface has
    // every undirected edge exactly twice, once in each direction.
    let mut half_edges: Vec<([u32; 2], bool, u32)> = Vec::with_capacity(surface_faces.len() * 3);
    for (f, face) in surface_faces.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (face.vertices[k], face.vertices[(k + 1) % 3]);
            half_edges.push(([a.min(b), a.max(b)], a < b, f as u32));
        }
    }
    half_edges.sort_unstable();
    let mut surface_edges = Vec::with_capacity(half_edges.len() / 2);
    let mut i = 0;
    while i < half_edges.len() {
        let mut j = i + 1;
        while j < half_edges.len() && half_edges[j].0 == half_edges[i].0 {
            j += 1;
        }
        let edge = half_edges[i].0;
        if j - i != 2 {
            if validate {
                return Err(MeshError::OpenSurface { edge, faces: j - i });
            }
            i = j;
            continue;
        }
        if validate && half_edges[i].1 == half_edges[i + 1].1 {
            return Err(MeshError::InconsistentOrientation { edge });
        }
        // half_edges[i + 1] runs from edge[0] to edge[1] (forward = true
        // sorts after false); its face sees the edge in that direction.
        let (forward_face, backward_face) = (half_edges[i + 1].2, half_edges[i].2);
        let n1 = surface_faces[forward_face as usize].normal;
        let n2 = surface_faces[backward_face as usize].normal;
        let direction = vertices[edge[1] as usize] - vertices[edge[0] as usize];
        let (dihedral, kind) = classify_edge(n1, n2, direction, flat_angle);
        surface_edges.push(SurfaceEdge {
            vertices: edge,
            faces: [forward_face, backward_face],
            dihedral,
            kind,
        });
        i = j;
    }
    Ok(surface_edges)
}

/// For each vertex, the surface faces incident to it.
fn faces_at_vertices(vertex_count: usize, surface_faces: &[SurfaceFace]) -> Vec<Vec<u32>> {
    let mut vertex_faces = vec![Vec::new(); vertex_count];
    for (f, face) in surface_faces.iter().enumerate() {
        for &v in &face.vertices {
            vertex_faces[v as usize].push(f as u32);
        }
    }
    vertex_faces
}

/// The surface is one closed sphere that does not touch itself: Euler
/// characteristic 2, connected, embedded.
fn check_one_closed_sphere(
    vertices: &[DVec3],
    surface_faces: &[SurfaceFace],
    surface_edges: &[SurfaceEdge],
    vertex_faces: &[Vec<u32>],
    flat_angle: f64,
) -> Result<(), MeshError> {
    let surface_vertices = vertex_faces.iter().filter(|f| !f.is_empty()).count() as i64;
    let euler = surface_vertices - surface_edges.len() as i64 + surface_faces.len() as i64;
    if euler != 2 {
        return Err(MeshError::NotSphere { euler });
    }
    if let Some(vertex) = disconnected_surface_vertex(vertices.len(), surface_edges) {
        return Err(MeshError::SurfaceNotConnected { vertex });
    }
    let triangles: Vec<[u32; 3]> = surface_faces.iter().map(|f| f.vertices).collect();
    if let Some(defect) = find_self_intersection(vertices, &triangles, flat_angle) {
        return Err(MeshError::SelfIntersecting(defect));
    }
    Ok(())
}

/// For each vertex, its neighbours along surface edges.
fn neighbours_along_edges(vertex_count: usize, surface_edges: &[SurfaceEdge]) -> Vec<Vec<u32>> {
    let mut surface_neighbours = vec![Vec::new(); vertex_count];
    for edge in surface_edges {
        let [u, v] = edge.vertices;
        surface_neighbours[u as usize].push(v);
        surface_neighbours[v as usize].push(u);
    }
    surface_neighbours
}

fn same_orientation(s: [u32; 3], t: [u32; 3]) -> bool {
    let canonical = |x: [u32; 3]| {
        let k = (0..3).min_by_key(|&k| x[k]).unwrap_or(0);
        [x[k], x[(k + 1) % 3], x[(k + 2) % 3]]
    };
    canonical(s) == canonical(t)
}

/// A surface vertex not reachable along surface edges from the first
/// surface vertex, if any (union–find over the edges).
fn disconnected_surface_vertex(vertex_count: usize, edges: &[SurfaceEdge]) -> Option<u32> {
    let mut parent: Vec<u32> = (0..vertex_count as u32).collect();
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            parent[v as usize] = parent[parent[v as usize] as usize];
            v = parent[v as usize];
        }
        v
    }
    for e in edges {
        let (a, b) = (
            root(&mut parent, e.vertices[0]),
            root(&mut parent, e.vertices[1]),
        );
        parent[a as usize] = b;
    }
    let first = edges.first()?.vertices[0];
    let first_root = root(&mut parent, first);
    edges
        .iter()
        .flat_map(|e| e.vertices)
        .find(|&v| root(&mut parent, v) != first_root)
}

fn classify_edge(n1: DVec3, n2: DVec3, direction: DVec3, flat_angle: f64) -> (f64, EdgeKind) {
    let angle_between_normals = n1.cross(n2).length().atan2(n1.dot(n2));
    if angle_between_normals <= flat_angle {
        return (std::f64::consts::PI, EdgeKind::Flat);
    }
    // n1 belongs to the face that runs along `direction`; with outward normals
    // the edge is a ridge when n1 × n2 points along the edge.
    if n1.cross(n2).dot(direction) > 0.0 {
        (
            std::f64::consts::PI - angle_between_normals,
            EdgeKind::Convex,
        )
    } else {
        (
            std::f64::consts::PI + angle_between_normals,
            EdgeKind::Concave,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_tet() -> (Vec<DVec3>, Vec<[u32; 4]>) {
        (
            vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z],
            vec![[0, 1, 2, 3]],
        )
    }

    #[test]
    fn single_tet_surface_is_outward_and_convex() {
        let (v, t) = unit_tet();
        let mesh = TetMesh::new(v, t, 1e-6).unwrap();
        assert_eq!(mesh.surface_faces.len(), 4);
        assert_eq!(mesh.surface_edges.len(), 6);
        assert!(mesh
            .surface_edges
            .iter()
            .all(|e| e.kind == EdgeKind::Convex));
        let centroid = DVec3::splat(0.25);
        for f in 0..4 {
            let [a, _, _] = mesh.face_corners(f);
            assert!(mesh.surface_faces[f].normal.dot(a - centroid) > 0.0);
        }
        assert!((mesh.surface_enclosed_volume() - mesh.volume()).abs() < 1e-15);
    }

    #[test]
    fn inverted_tet_is_rejected() {
        let (v, _) = unit_tet();
        assert!(matches!(
            TetMesh::new(v, vec![[0, 2, 1, 3]], 1e-6),
            Err(MeshError::NonPositiveVolume { tet: 0, .. })
        ));
    }

    #[test]
    fn two_tets_sharing_a_face_hide_it() {
        let v = vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z, DVec3::ONE];
        // (1, 2, 3) is shared; the fifth vertex lies beyond it.
        let mesh = TetMesh::new(v, vec![[0, 1, 2, 3], [4, 1, 3, 2]], 1e-6).unwrap();
        assert_eq!(mesh.surface_faces.len(), 6);
        assert!(mesh.tet_surface_faces[0][0].is_none());
    }

    #[test]
    fn two_tets_on_the_same_side_of_their_shared_face_are_refused() {
        // Both apexes above the face (0, 1, 2): the second tetrahedron lies
        // inside the first's half-space and overlaps it.
        let v = vec![
            DVec3::ZERO,
            DVec3::X,
            DVec3::Y,
            DVec3::Z,
            DVec3::new(0.2, 0.2, 2.0),
        ];
        assert_eq!(
            TetMesh::new(v, vec![[0, 1, 2, 3], [0, 1, 2, 4]], 1e-6).unwrap_err(),
            MeshError::OverlappingTets {
                vertices: [0, 1, 2]
            }
        );
    }

    #[test]
    fn two_disjoint_tets_are_not_one_body() {
        let v = vec![
            DVec3::ZERO,
            DVec3::X,
            DVec3::Y,
            DVec3::Z,
            DVec3::new(3.0, 0.0, 0.0),
            DVec3::new(3.0, 1.0, 0.0),
            DVec3::new(3.0, 0.0, 1.0),
            DVec3::new(4.0, 0.0, 0.0),
        ];
        // Two disjoint tets: closed but two spheres, Euler characteristic 4.
        assert_eq!(
            TetMesh::new(v, vec![[0, 1, 2, 3], [4, 7, 5, 6]], 1e-6).unwrap_err(),
            MeshError::NotSphere { euler: 4 }
        );
    }
}
