//! The `mesh` shape (`docs/design/scenes.md`, "Shape types"): a closed surface
//! given as its triangles (counter-clockwise seen from outside), coned to
//! a kernel point. Its triangles are its faces, also for TetGen, because
//! that triangulation (the internal edges of the tessellated block, the
//! hole block's grid) is what its cases test.

use super::reader::ObjectReader;
use super::{at_most_vertices, xyz, Face, Facing, ShapeType, Surface};
use glam::DVec3;
use serde_json::{json, Map, Value};

pub const TYPE: &str = "mesh";

#[derive(Clone, Debug, PartialEq)]
pub struct TriangleMesh {
    pub vertices: Vec<DVec3>,
    pub triangles: Vec<[u32; 3]>,
    pub kernel: Option<DVec3>,
}

impl ShapeType for TriangleMesh {
    fn read(shape: &mut ObjectReader<'_>) -> Result<Self, String> {
        let vertices = shape.vec3_list("vertices")?;
        at_most_vertices(shape, vertices.len())?;
        let triangles = shape.index_list::<3>("triangles")?;
        if triangles.len() < 4 {
            return Err(format!(
                "{}: a closed surface needs at least 4 triangles, got {}",
                shape.key_path("triangles"),
                triangles.len()
            ));
        }
        Ok(TriangleMesh {
            vertices,
            triangles,
            kernel: shape.optional_vec3("kernel")?,
        })
    }

    fn write(&self, shape: &mut Map<String, Value>) {
        let vertices: Vec<Value> = self.vertices.iter().map(|&v| xyz(v)).collect();
        shape.insert("vertices".into(), json!(vertices));
        shape.insert("triangles".into(), json!(self.triangles));
        if let Some(kernel) = self.kernel {
            shape.insert("kernel".into(), xyz(kernel));
        }
    }

    fn parameters(&self) -> (Vec<u32>, Vec<f64>) {
        (
            self.triangles.iter().flatten().copied().collect(),
            self.vertices.iter().flat_map(|v| v.to_array()).collect(),
        )
    }

    fn surface(&self) -> Option<Surface> {
        Some(Surface {
            vertices: self.vertices.clone(),
            faces: self
                .triangles
                .iter()
                .map(|t| Face::new(t.to_vec()))
                .collect(),
            facing: Facing::Outward,
            kernel: self.kernel,
        })
    }

    /// A tetrahedron.
    #[cfg(test)]
    fn example() -> Self {
        TriangleMesh {
            vertices: vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z],
            triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
            kernel: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::shapes::ShapeError;

    #[test]
    fn open_mesh_and_bad_kernel_are_rejected() {
        let v = vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
        let open = TriangleMesh {
            vertices: v.clone(),
            triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2]],
            kernel: None,
        };
        assert!(matches!(
            open.build(1e-6),
            Err(ShapeError::SurfaceNotClosed { .. })
        ));
        let outside = TriangleMesh {
            vertices: v,
            triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
            kernel: Some(DVec3::splat(2.0)),
        };
        assert!(matches!(
            outside.build(1e-6),
            Err(ShapeError::KernelDoesNotSeeTriangle { .. })
        ));
    }
}
