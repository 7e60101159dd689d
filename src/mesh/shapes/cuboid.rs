//! The `box` shape (`docs/design/scenes.md`, "Shape types"): a cuboid of the
//! given extents, centred on its model origin. Its six square faces each
//! become two triangles in the cone mesh and one 4-gon facet for TetGen.

use super::reader::ObjectReader;
use super::{xyz, Face, Facing, ShapeType, Surface};
use glam::DVec3;
use serde_json::{Map, Value};

pub const TYPE: &str = "box";

#[derive(Clone, Debug, PartialEq)]
pub struct Cuboid {
    /// The extents along x, y and z.
    pub size: DVec3,
}

/// The faces as corner loops, either way round; corner i has the sign of
/// bit 0, 1, 2 of i on x, y, z.
const FACES: [[u32; 4]; 6] = [
    [0, 1, 3, 2],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 3, 7, 6],
    [0, 2, 6, 4],
    [1, 3, 7, 5],
];

impl ShapeType for Cuboid {
    fn read(shape: &mut ObjectReader<'_>) -> Result<Self, String> {
        let size = shape.vec3("size")?;
        if size.min_element() <= 0.0 {
            return Err(format!(
                "{}: every extent must be positive, got [{}, {}, {}]",
                shape.key_path("size"),
                size.x,
                size.y,
                size.z
            ));
        }
        Ok(Cuboid { size })
    }

    fn write(&self, shape: &mut Map<String, Value>) {
        shape.insert("size".into(), xyz(self.size));
    }

    fn parameters(&self) -> (Vec<u32>, Vec<f64>) {
        (vec![], self.size.to_array().to_vec())
    }

    fn surface(&self) -> Option<Surface> {
        let h = self.size * 0.5;
        let vertices = (0..8)
            .map(|i| {
                DVec3::new(
                    if i & 1 == 0 { -h.x } else { h.x },
                    if i & 2 == 0 { -h.y } else { h.y },
                    if i & 4 == 0 { -h.z } else { h.z },
                )
            })
            .collect();
        Some(Surface {
            vertices,
            faces: FACES.iter().map(|f| Face::new(f.to_vec())).collect(),
            facing: Facing::EitherWay,
            kernel: None,
        })
    }

    #[cfg(test)]
    fn example() -> Self {
        Cuboid {
            size: DVec3::new(3.0, 0.3, 2.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::EdgeKind;

    #[test]
    fn box_has_twelve_triangles_and_six_flat_diagonals() {
        let mesh = Cuboid { size: DVec3::ONE }.build(1e-6).unwrap();
        assert_eq!(mesh.surface_faces.len(), 12);
        assert_eq!(
            mesh.surface_edges
                .iter()
                .filter(|e| e.kind == EdgeKind::Flat)
                .count(),
            6
        );
        assert_eq!(
            mesh.surface_edges
                .iter()
                .filter(|e| e.kind == EdgeKind::Convex)
                .count(),
            12
        );
    }
}
