//! A body's mesh at its current pose: world-space vertices and surface
//! normals computed once per step, and per-tetrahedron views that the
//! contact methods read (faces with outward normals, which of them are on
//! the body's surface).

use crate::geometry::Aabb;
use crate::mesh::tetmesh::{TET_EDGES, TET_FACES};
use crate::mesh::TetMesh;
use glam::{DQuat, DVec3};

pub struct WorldMesh<'a> {
    pub mesh: &'a TetMesh,
    pub vertices: Vec<DVec3>,
    /// World outward unit normal of every surface face.
    pub face_normals: Vec<DVec3>,
    /// The pose: world = position + rotation · body frame.
    pub position: DVec3,
    pub rotation: DQuat,
}

impl<'a> WorldMesh<'a> {
    pub fn new(mesh: &'a TetMesh, position: DVec3, rotation: DQuat) -> Self {
        let vertices = mesh
            .vertices
            .iter()
            .map(|&v| position + rotation * v)
            .collect();
        let face_normals = mesh
            .surface_faces
            .iter()
            .map(|f| rotation * f.normal)
            .collect();
        WorldMesh {
            mesh,
            vertices,
            face_normals,
            position,
            rotation,
        }
    }

    /// A world point in the body frame (where the mesh's trees live).
    pub fn to_body(&self, p: DVec3) -> DVec3 {
        self.rotation.inverse() * (p - self.position)
    }

    /// A body-frame point in the world.
    pub fn to_world(&self, p: DVec3) -> DVec3 {
        self.position + self.rotation * p
    }

    pub fn face(&self, f: usize) -> [DVec3; 3] {
        self.mesh.surface_faces[f]
            .vertices
            .map(|v| self.vertices[v as usize])
    }

    pub fn edge(&self, e: usize) -> [DVec3; 2] {
        self.mesh.surface_edges[e]
            .vertices
            .map(|v| self.vertices[v as usize])
    }

    pub fn aabb(&self) -> Aabb {
        Aabb::of(&self.vertices)
    }

    pub fn tet(&self, t: usize) -> Tet<'_> {
        let ids = self.mesh.tets[t];
        Tet {
            index: t as u32,
            ids,
            corners: ids.map(|v| self.vertices[v as usize]),
            world: self,
        }
    }
}

/// One tetrahedron of a body at its current pose.
#[derive(Clone, Copy)]
pub struct Tet<'a> {
    pub index: u32,
    /// Mesh vertex indices.
    pub ids: [u32; 4],
    /// World corners, positively oriented.
    pub corners: [DVec3; 4],
    pub world: &'a WorldMesh<'a>,
}

impl<'a> Tet<'a> {
    pub fn centroid(&self) -> DVec3 {
        (self.corners[0] + self.corners[1] + self.corners[2] + self.corners[3]) * 0.25
    }

    pub fn aabb(&self) -> Aabb {
        Aabb::of(&self.corners)
    }

    /// Corners of local face `i` (opposite corner `i`), counter-clockwise
    /// seen from outside.
    pub fn face_corners(&self, i: usize) -> [DVec3; 3] {
        TET_FACES[i].map(|l| self.corners[l])
    }

    /// Outward unit normal of local face `i`: the body's surface normal when
    /// the face is on the surface, otherwise computed from the corners.
    pub fn face_normal(&self, i: usize) -> DVec3 {
        match self.surface_face(i) {
            Some(f) => self.world.face_normals[f as usize],
            None => {
                let [a, b, c] = self.face_corners(i);
                (b - a).cross(c - a).normalize_or_zero()
            }
        }
    }

    /// The body's surface face that local face `i` is, if it is one.
    pub fn surface_face(&self, i: usize) -> Option<u32> {
        self.world.mesh.tet_surface_faces[self.index as usize][i]
    }

    pub fn has_surface(&self) -> bool {
        (0..4).any(|i| self.surface_face(i).is_some())
    }

    /// Local indices of the faces that lie on the body's surface.
    pub fn surface_faces(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).filter(|&i| self.surface_face(i).is_some())
    }

    /// Local corners that belong to a surface face of this tetrahedron.
    pub fn surface_corners(&self) -> Vec<usize> {
        (0..4)
            .filter(|&c| self.surface_faces().any(|f| f != c))
            .collect()
    }

    /// Local edges (pairs of corners) that belong to a surface face of this
    /// tetrahedron: the edges of its surface triangles.
    pub fn surface_edges(&self) -> Vec<[usize; 2]> {
        TET_EDGES
            .iter()
            .copied()
            .filter(|&[i, j]| self.surface_faces().any(|f| f != i && f != j))
            .collect()
    }

    /// The longest distance between two corners.
    pub fn diameter(&self) -> f64 {
        TET_EDGES
            .iter()
            .map(|&[i, j]| (self.corners[i] - self.corners[j]).length())
            .fold(0.0, f64::max)
    }
}
