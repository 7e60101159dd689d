//! The `tetmesh` shape (`docs/design/scenes.md`, "Shape types"): tetrahedra
//! given as they are, positively oriented. It has no surface of faces to
//! cone or to give TetGen: every mesher uses its tetrahedra.

use super::reader::ObjectReader;
use super::{at_most_vertices, xyz, ShapeError, ShapeType, Surface};
use crate::mesh::TetMesh;
use glam::DVec3;
use serde_json::{json, Map, Value};

pub const TYPE: &str = "tetmesh";

#[derive(Clone, Debug, PartialEq)]
pub struct Tetrahedra {
    pub vertices: Vec<DVec3>,
    pub tets: Vec<[u32; 4]>,
}

impl ShapeType for Tetrahedra {
    fn read(shape: &mut ObjectReader<'_>) -> Result<Self, String> {
        let vertices = shape.vec3_list("vertices")?;
        at_most_vertices(shape, vertices.len())?;
        let tets = shape.index_list::<4>("tets")?;
        Ok(Tetrahedra { vertices, tets })
    }

    fn write(&self, shape: &mut Map<String, Value>) {
        let vertices: Vec<Value> = self.vertices.iter().map(|&v| xyz(v)).collect();
        shape.insert("vertices".into(), json!(vertices));
        shape.insert("tets".into(), json!(self.tets));
    }

    fn parameters(&self) -> (Vec<u32>, Vec<f64>) {
        (
            self.tets.iter().flatten().copied().collect(),
            self.vertices.iter().flat_map(|v| v.to_array()).collect(),
        )
    }

    fn surface(&self) -> Option<Surface> {
        None
    }

    fn build(&self, flat_angle: f64) -> Result<TetMesh, ShapeError> {
        TetMesh::new(self.vertices.clone(), self.tets.clone(), flat_angle).map_err(ShapeError::Mesh)
    }

    /// One tetrahedron.
    #[cfg(test)]
    fn example() -> Self {
        Tetrahedra {
            vertices: vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z],
            tets: vec![[0, 1, 2, 3]],
        }
    }
}
