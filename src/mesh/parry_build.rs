//! A body's parry3d shape built from its mesh and B-rep features, once per
//! mesh ([`TetMesh::parry_shape`]; `docs/design/other-methods.md`, "An
//! industry baseline: parry3d"): the convex hull with the B-rep feature of
//! each hull feature when the body is convex, otherwise the surface
//! triangles with parry's internal-edge fixing.

use super::brep::Brep;
use super::parry_shape::{from_parry, to_parry, ConvexShape, ParryShape};
use super::tetmesh::TetMesh;
use parry3d_f64::math::Vector;
use parry3d_f64::shape::{ConvexPolyhedron, TriMesh, TriMeshFlags};

impl TetMesh {
    /// The body as a parry3d shape (its hull when convex, otherwise its
    /// surface triangles), body frame, built once per mesh. Built here,
    /// kept in the mesh.
    pub fn parry_shape(&self) -> &ParryShape {
        self.parry_shape.get_or_init(|| ParryShape::of(self))
    }
}

impl ParryShape {
    /// The parry shape of `mesh`: its hull when it is convex, otherwise (or
    /// when parry cannot build the hull) its surface triangle mesh.
    pub fn of(mesh: &TetMesh) -> ParryShape {
        let brep = mesh.brep();
        if brep.is_convex() {
            if let Some(shape) = ConvexShape::of(mesh, brep) {
                return ParryShape::Convex(shape);
            }
        }
        let vertices = mesh.vertices.iter().map(|&v| to_parry(v)).collect();
        let triangles = mesh.surface_faces.iter().map(|f| f.vertices).collect();
        match TriMesh::with_flags(vertices, triangles, TriMeshFlags::FIX_INTERNAL_EDGES) {
            Ok(trimesh) => ParryShape::Mesh(trimesh),
            Err(e) => ParryShape::Unavailable(format!(
                "parry3d could not build a triangle mesh of the surface: {e:?}"
            )),
        }
    }
}

impl ConvexShape {
    /// The hull of the surface vertices with its feature map; `None` when
    /// parry's hull fails.
    fn of(mesh: &TetMesh, brep: &Brep) -> Option<ConvexShape> {
        let surface: Vec<u32> = (0..mesh.vertices.len() as u32)
            .filter(|&v| mesh.is_surface_vertex(v as usize))
            .collect();
        let points: Vec<Vector> = surface
            .iter()
            .map(|&v| to_parry(mesh.vertices[v as usize]))
            .collect();
        let polyhedron = ConvexPolyhedron::from_convex_hull(&points)?;
        // The hull's points are copies of input points; the nearest surface
        // vertex is the one it was copied from (distance 0).
        let point_vertex = polyhedron
            .points()
            .iter()
            .map(|&p| {
                let p = from_parry(p);
                *surface
                    .iter()
                    .min_by(|&&u, &&v| {
                        let du = mesh.vertices[u as usize].distance_squared(p);
                        let dv = mesh.vertices[v as usize].distance_squared(p);
                        du.total_cmp(&dv)
                    })
                    .expect("a hull has points, so the surface has vertices")
            })
            .collect();
        let face_face: Vec<u32> = polyhedron
            .faces()
            .iter()
            .map(|f| {
                let n = from_parry(f.normal);
                (0..brep.faces.len() as u32)
                    .max_by(|&a, &b| {
                        let da = brep.faces[a as usize].normal.dot(n);
                        let db = brep.faces[b as usize].normal.dot(n);
                        da.total_cmp(&db)
                    })
                    .unwrap_or(0)
            })
            .collect();
        let edge_edge = polyhedron
            .edges()
            .iter()
            .map(|e| {
                let [f, g] = e.faces.map(|f| face_face[f as usize]);
                (f != g)
                    .then(|| {
                        brep.edges
                            .iter()
                            .position(|be| be.faces == [f, g] || be.faces == [g, f])
                    })
                    .flatten()
                    .map(|i| i as u32)
            })
            .collect();
        Some(ConvexShape {
            polyhedron,
            point_vertex,
            face_face,
            edge_edge,
        })
    }
}
