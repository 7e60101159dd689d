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
//! B-rep entities like every other region method. `parry_build.rs` builds
//! the shape from a mesh.

use glam::{DQuat, DVec3};
use parry3d_f64::math::{Pose, Rotation, Vector};
use parry3d_f64::shape::{ConvexPolyhedron, TriMesh};

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
