//! The `pyramid` shape (`docs/design/scenes.md`, "Shape types"): a square
//! pyramid, its base of half-width b on y = 0 centred on the model origin,
//! its apex at height h above the centre: the spikes.

use super::reader::ObjectReader;
use super::{Face, Facing, ShapeType, Surface};
use glam::DVec3;
use serde_json::{json, Map, Value};

pub const TYPE: &str = "pyramid";

#[derive(Clone, Debug, PartialEq)]
pub struct Pyramid {
    pub half_width: f64,
    pub height: f64,
}

impl ShapeType for Pyramid {
    fn read(shape: &mut ObjectReader<'_>) -> Result<Self, String> {
        Ok(Pyramid {
            half_width: shape.positive("half_width")?,
            height: shape.positive("height")?,
        })
    }

    fn write(&self, shape: &mut Map<String, Value>) {
        shape.insert("half_width".into(), json!(self.half_width));
        shape.insert("height".into(), json!(self.height));
    }

    fn parameters(&self) -> (Vec<u32>, Vec<f64>) {
        (vec![], vec![self.half_width, self.height])
    }

    /// The base, then the side on each base edge. A side's facet begins
    /// at its second base corner.
    fn surface(&self) -> Option<Surface> {
        let (b, h) = (self.half_width, self.height);
        let vertices = vec![
            DVec3::new(-b, 0.0, -b),
            DVec3::new(b, 0.0, -b),
            DVec3::new(b, 0.0, b),
            DVec3::new(-b, 0.0, b),
            DVec3::new(0.0, h, 0.0),
        ];
        let mut faces = vec![Face::new(vec![0, 1, 2, 3])];
        faces.extend((0..4).map(|k| Face::new(vec![k, (k + 1) % 4, 4]).facet_from(1)));
        Some(Surface {
            vertices,
            faces,
            facing: Facing::EitherWay,
            kernel: None,
        })
    }

    fn is_conical(&self) -> bool {
        true
    }

    #[cfg(test)]
    fn example() -> Self {
        Pyramid {
            half_width: 0.8,
            height: 2.4,
        }
    }
}
