//! A body's shape as parry3d sees it, built once per mesh and kept with it
//! ([`TetMesh::parry_shape`]), for the `parry` contact method and parry's
//! GJK/EPA distance (`docs/design/other-methods.md`, "An industry baseline:
//! parry3d"): a `ConvexPolyhedron` (the convex hull of the surface) when
//! the body is convex, otherwise its surface as a `TriMesh` with parry's
//! internal-edge fixing (`TriMeshFlags::FIX_INTERNAL_EDGES`), which is what
//! a Rapier user gets for such bodies.
//!
//! This file is also the one place where our glam (0.34) and parry's (glam
//! 0.33 through glamx) meet: [`to_parry`], [`from_parry`] and
//! [`parry_pose`] convert at the boundary, component by component (the two
//! versions are different types with the same layout).
//!
//! parry numbers its own features (hull points, hull edges, merged hull
//! faces; for a triangle mesh: triangles and their local vertices and
//! edges). [`ConvexShape`] keeps, for each of the hull's features, the
//! B-rep feature it lies on, computed here once, so that a contact can name
//! B-rep entities like every other region method.

use super::brep::Brep;
use super::tetmesh::TetMesh;
use glam::{DQuat, DVec3};
use parry3d_f64::math::{Pose, Rotation, Vector};
use parry3d_f64::shape::{ConvexPolyhedron, TriMesh, TriMeshFlags};

/// Our vector in parry's glam.
pub fn to_parry(v: DVec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// parry's vector in our glam.
pub fn from_parry(v: Vector) -> DVec3 {
    DVec3::new(v.x, v.y, v.z)
}

/// The pose world = position + rotation · body frame, in parry's types.
pub fn parry_pose(position: DVec3, rotation: DQuat) -> Pose {
    Pose::from_parts(
        to_parry(position),
        Rotation::from_xyzw(rotation.x, rotation.y, rotation.z, rotation.w),
    )
}

/// A body's parry shape, body frame.
#[derive(Clone, Debug)]
pub enum ParryShape {
    /// The body is convex: its hull, with the B-rep features of the hull's.
    Convex(ConvexShape),
    /// The body is not convex: its surface triangles, triangle `t` being
    /// `TetMesh::surface_faces[t]`.
    Mesh(TriMesh),
    /// parry refused both (a degenerate surface); the reason, for messages.
    Unavailable(String),
}

/// A convex body's hull and, for each of parry's hull features, the B-rep
/// feature it lies on.
#[derive(Clone, Debug)]
pub struct ConvexShape {
    pub polyhedron: ConvexPolyhedron,
    /// For each hull point (`polyhedron.points()`), the mesh vertex at that
    /// position.
    pub point_vertex: Vec<u32>,
    /// For each hull face (`polyhedron.faces()`), the B-rep face whose
    /// outward normal is closest to it.
    pub face_face: Vec<u32>,
    /// For each hull edge (`polyhedron.edges()`), the B-rep edge between
    /// the B-rep faces of its two hull faces; `None` when both are the same
    /// B-rep face (parry split a planar face, the edge lies inside it).
    pub edge_edge: Vec<Option<u32>>,
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
