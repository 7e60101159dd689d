//! The `wedge` shape (`docs/design/scenes.md`, "Shape types"): a triangular
//! prism lying on y = 0, its base 2b wide in x and 2l long in z, centred on
//! the model origin, its ridge along z at height h above the centre line.

use super::reader::ObjectReader;
use super::{Face, Facing, ShapeType, Surface};
use glam::DVec3;
use serde_json::{json, Map, Value};

pub const TYPE: &str = "wedge";

#[derive(Clone, Debug, PartialEq)]
pub struct Wedge {
    pub half_width: f64,
    pub height: f64,
    pub half_length: f64,
}

impl ShapeType for Wedge {
    fn read(shape: &mut ObjectReader<'_>) -> Result<Self, String> {
        Ok(Wedge {
            half_width: shape.positive("half_width")?,
            height: shape.positive("height")?,
            half_length: shape.positive("half_length")?,
        })
    }

    fn write(&self, shape: &mut Map<String, Value>) {
        shape.insert("half_width".into(), json!(self.half_width));
        shape.insert("height".into(), json!(self.height));
        shape.insert("half_length".into(), json!(self.half_length));
    }

    fn parameters(&self) -> (Vec<u32>, Vec<f64>) {
        (vec![], vec![self.half_width, self.height, self.half_length])
    }

    /// The base, the ends at z = −l and z = l, the slopes at x > 0 and
    /// x < 0. The facets of the end at z = −l and of the slope at x > 0
    /// begin at their second corner.
    fn surface(&self) -> Option<Surface> {
        let (b, h, l) = (self.half_width, self.height, self.half_length);
        let vertices = vec![
            DVec3::new(-b, 0.0, -l),
            DVec3::new(b, 0.0, -l),
            DVec3::new(b, 0.0, l),
            DVec3::new(-b, 0.0, l),
            DVec3::new(0.0, h, -l),
            DVec3::new(0.0, h, l),
        ];
        let faces = vec![
            Face::new(vec![0, 1, 2, 3]),
            Face::new(vec![0, 1, 4]).facet_from(1),
            Face::new(vec![3, 2, 5]),
            Face::new(vec![1, 2, 5, 4]).facet_from(1),
            Face::new(vec![0, 3, 5, 4]),
        ];
        Some(Surface {
            vertices,
            faces,
            facing: Facing::EitherWay,
            kernel: None,
        })
    }

    #[cfg(test)]
    fn example() -> Self {
        Wedge {
            half_width: 0.8,
            height: 2.4,
            half_length: 1.6,
        }
    }
}
