//! The `obj` export: one Wavefront OBJ file per body (the format's `v` and
//! `f` records, 1-based indices, `#` comments), the body's surface
//! triangles in world coordinates at the export pose, counter-clockwise
//! seen from outside (the OBJ convention for outward faces). For any tool
//! that reads meshes; it carries no masses or settings.

use super::pieces::{body_surface, Surface};
use super::{vec3, Export, ExportFile, Format};
use crate::geometry::Pose;
use glam::{DQuat, DVec3};

pub static FORMAT: Format = Format {
    id: "obj",
    purpose: "any mesh tool",
    summary: "one OBJ per body (<body>.obj), its surface triangles in world coordinates, counter-clockwise seen from outside",
    write,
};

fn write(export: &Export) -> Vec<ExportFile> {
    let stems = export.file_stems();
    (0..export.scene.bodies.len())
        .map(|i| {
            let body = &export.scene.bodies[i];
            let Pose { position, rotation } = export.poses[i];
            let surface = body_surface(export.mesh(i));
            let mut lines = export.header("obj, world coordinates", &[]);
            lines.push(format!("this file: body \"{}\"", body.name));
            ExportFile {
                path: format!("{}.obj", stems[i]),
                text: obj_text(&lines, &body.name, &surface, position, rotation),
            }
        })
        .collect()
}

/// An OBJ file of `surface` placed at (`position`, `rotation`), with the
/// `header` lines as comments and one object named `name`. The URDF export
/// writes its body-frame meshes with it too.
pub fn obj_text(
    header: &[String],
    name: &str,
    surface: &Surface,
    position: DVec3,
    rotation: DQuat,
) -> String {
    let mut text = String::new();
    for line in header {
        text.push_str(&format!("# {line}\n"));
    }
    // An object name is the rest of the line; a line break would end it.
    text.push_str(&format!("o {}\n", name.replace(['\n', '\r'], " ")));
    for &v in &surface.vertices {
        text.push_str(&format!("v {}\n", vec3(position + rotation * v)));
    }
    for t in &surface.triangles {
        text.push_str(&format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1));
    }
    text
}
