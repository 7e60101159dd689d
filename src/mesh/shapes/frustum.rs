//! The `frustum` shape (`docs/design/scenes.md`, "Shape types"): an n-sided
//! frustum standing on its model origin, the Pillar's drums and capital.
//! Rim vertex k is at the angle 2πk/n in the x–z plane (vertex 0 on +x),
//! the bottom rim at y = 0 and the top rim at y = height. Its caps are
//! n-gons; the cone mesh fans each around a cap-centre vertex, as the
//! paper's Pillar does.

use super::reader::ObjectReader;
use super::{Face, Facing, ShapeError, ShapeType, Surface};
use crate::mesh::TetMesh;
use glam::DVec3;
use serde_json::{json, Map, Value};
use std::f64::consts::TAU;

pub const TYPE: &str = "frustum";

#[derive(Clone, Debug, PartialEq)]
pub struct Frustum {
    pub sides: u32,
    pub bottom_radius: f64,
    pub top_radius: f64,
    pub height: f64,
}

impl Frustum {
    /// The bottom cap, the top cap, then side k from rim vertex k to k + 1.
    fn rims_and_faces(&self) -> Surface {
        let n = self.sides;
        let mut vertices = Vec::with_capacity(2 * n as usize + 2);
        for (radius, y) in [(self.bottom_radius, 0.0), (self.top_radius, self.height)] {
            for k in 0..n {
                let angle = TAU * f64::from(k) / f64::from(n);
                vertices.push(DVec3::new(radius * angle.cos(), y, radius * angle.sin()));
            }
        }
        // Vertex k runs from +x towards +z, clockwise seen from +y
        // (x × z = −y): the bottom cap faces outward in that order, the
        // top cap is turned, and its facet begins at its last corner.
        let mut faces = vec![
            Face::new((0..n).collect()),
            Face::new((n..2 * n).collect()).facet_from(n as usize - 1),
        ];
        faces.extend(Face::band(n));
        Surface {
            vertices,
            faces,
            facing: Facing::EitherWay,
            kernel: None,
        }
    }
}

impl ShapeType for Frustum {
    fn read(shape: &mut ObjectReader<'_>) -> Result<Self, String> {
        Ok(Frustum {
            sides: shape.whole_number("sides", 3, 256)? as u32,
            bottom_radius: shape.positive("bottom_radius")?,
            top_radius: shape.positive("top_radius")?,
            height: shape.positive("height")?,
        })
    }

    fn write(&self, shape: &mut Map<String, Value>) {
        shape.insert("sides".into(), json!(self.sides));
        shape.insert("bottom_radius".into(), json!(self.bottom_radius));
        shape.insert("top_radius".into(), json!(self.top_radius));
        shape.insert("height".into(), json!(self.height));
    }

    fn parameters(&self) -> (Vec<u32>, Vec<f64>) {
        (
            vec![self.sides],
            vec![self.bottom_radius, self.top_radius, self.height],
        )
    }

    fn surface(&self) -> Option<Surface> {
        Some(self.rims_and_faces())
    }

    /// Cones from the caps fanned around a cap-centre vertex each: for
    /// every k, the bottom cap's triangle at rim edge k, the top cap's,
    /// then side k. The kernel is the vertex centroid (design default), on
    /// the axis and strictly inside.
    fn build(&self, flat_angle: f64) -> Result<TetMesh, ShapeError> {
        let Surface {
            mut vertices,
            faces,
            facing,
            kernel,
        } = self.rims_and_faces();
        let n = self.sides as usize;
        let centres = [vertices.len() as u32, vertices.len() as u32 + 1];
        vertices.push(DVec3::ZERO);
        vertices.push(DVec3::new(0.0, self.height, 0.0));
        let (caps, sides) = faces.split_at(2);
        let mut fanned = Vec::with_capacity(3 * n);
        for (k, side) in sides.iter().enumerate() {
            for (cap, centre) in caps.iter().zip(centres) {
                let rim = &cap.corners;
                fanned.push(Face::new(vec![centre, rim[k], rim[(k + 1) % n]]));
            }
            fanned.push(side.clone());
        }
        Surface {
            vertices,
            faces: fanned,
            facing,
            kernel,
        }
        .fans()
        .cone(flat_angle)
    }

    fn is_conical(&self) -> bool {
        true
    }

    #[cfg(test)]
    fn example() -> Self {
        Frustum {
            sides: 6,
            bottom_radius: 0.25,
            top_radius: 0.2,
            height: 0.21,
        }
    }
}
