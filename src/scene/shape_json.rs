//! A shape written back in the scene format (`docs/design/scenes.md`, "Shape
//! types"), the inverse of the loader's shape parser: the committed mesh
//! files name the shape each mesh is for this way. Numbers are written in
//! their shortest round-trip form, so reading the text back gives the very
//! same shape, bit for bit.

use crate::mesh::shapes::Shape;
use serde_json::{json, Value};

pub fn shape_json(shape: &Shape) -> Value {
    let xyz = |v: glam::DVec3| json!([v.x, v.y, v.z]);
    let mut value = match shape {
        Shape::Box { size } => json!({ "type": "box", "size": xyz(*size) }),
        Shape::Frustum {
            sides,
            bottom_radius,
            top_radius,
            height,
        } => json!({ "type": "frustum", "sides": sides, "bottom_radius": bottom_radius,
                     "top_radius": top_radius, "height": height }),
        Shape::Pyramid { half_width, height } => {
            json!({ "type": "pyramid", "half_width": half_width, "height": height })
        }
        Shape::Wedge {
            half_width,
            height,
            half_length,
        } => json!({ "type": "wedge", "half_width": half_width, "height": height,
                     "half_length": half_length }),
        Shape::Sphere { radius, vertices } => {
            json!({ "type": "sphere", "radius": radius, "vertices": vertices })
        }
        Shape::Prism { profile, depth, .. } => json!({
            "type": "prism",
            "profile": profile.iter().map(|p| json!([p.x, p.y])).collect::<Vec<_>>(),
            "depth": depth,
        }),
        Shape::Mesh {
            vertices,
            triangles,
            ..
        } => json!({
            "type": "mesh",
            "vertices": vertices.iter().map(|&v| xyz(v)).collect::<Vec<_>>(),
            "triangles": triangles,
        }),
        Shape::TetMesh { vertices, tets } => json!({
            "type": "tetmesh",
            "vertices": vertices.iter().map(|&v| xyz(v)).collect::<Vec<_>>(),
            "tets": tets,
        }),
    };
    let kernel = match shape {
        Shape::Prism { kernel, .. } | Shape::Mesh { kernel, .. } => *kernel,
        _ => None,
    };
    if let (Some(k), Some(object)) = (kernel, value.as_object_mut()) {
        object.insert("kernel".into(), xyz(k));
    }
    value
}
