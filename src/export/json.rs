//! The `json` export: our own `contactlab-scene/1` file
//! (`docs/design/scenes.md`) with every body's tetrahedra as given
//! (`tetmesh` shapes, in the body frame, positioned at the export pose), so
//! that it loads back into ContactLab as the same bodies: the same
//! tetrahedra, masses from the same density, friction, friction pairs,
//! gravity, time step, run length and velocities.
//!
//! What "the same" means to the last bit: the loader recomputes each body's
//! centre of mass from the tetrahedra, which here is the origin up to
//! round-off (about 10⁻¹⁷ m), and moves the body by it; a rotation is
//! written as an axis and degrees, which read back within a few units of
//! round-off. A body with no rotation (every built-in scene's at the
//! initial pose) reads back exactly.
//!
//! The scene's oracle comes along at the initial pose. At a later pose it
//! may no longer hold (a wall's layers, a pair that no longer touches), so
//! it is left out, and the description says so: the geometric oracle then
//! judges the contacts. The file has no comments; the header is the first
//! paragraph of `description`.

use super::{At, Export, ExportFile, Format};
use crate::geometry::Pose;
use crate::scene::Oracle;
use glam::{DQuat, DVec3};
use serde_json::{json, Map, Value};

pub static FORMAT: Format = Format {
    id: "json",
    purpose: "ContactLab",
    summary: "our own scene file (scene.json): every body's tetrahedra as tetmesh shapes at the pose, densities, friction, gravity, time step, velocities and (at the initial pose) the oracle; loads back into ContactLab as the same scene",
    write,
};

fn xyz(v: DVec3) -> Value {
    json!([v.x, v.y, v.z])
}

fn write(export: &Export) -> Vec<ExportFile> {
    let scene = export.scene;
    let keep_oracle = export.at == At::Initial;
    let mut notes = Vec::new();
    if !keep_oracle && !matches!(scene.oracle, Oracle::None) {
        notes.push(format!(
            "left out: the scene's {} oracle, which may not hold at this pose; the geometric oracle judges instead",
            scene.oracle.type_name()
        ));
    }
    let mut description = export.header("json, ContactLab", &notes).join("\n");
    if !scene.description.is_empty() {
        description.push_str("\n\n");
        description.push_str(&scene.description);
    }
    let bodies: Vec<Value> = scene
        .bodies
        .iter()
        .enumerate()
        .map(|(i, body)| {
            let mesh = export.mesh(i);
            let Pose { position, rotation } = export.poses[i];
            let (velocity, angular_velocity) = export.velocities[i];
            let vertices: Vec<Value> = mesh.vertices.iter().map(|&v| xyz(v)).collect();
            let mut b = Map::new();
            b.insert("name".into(), json!(body.name));
            b.insert("fixed".into(), json!(body.fixed));
            b.insert("density".into(), json!(body.density));
            b.insert("position".into(), xyz(position));
            if let Some(r) = rotation_value(rotation) {
                b.insert("rotation".into(), r);
            }
            b.insert("velocity".into(), xyz(velocity));
            b.insert("angular_velocity".into(), xyz(angular_velocity));
            b.insert(
                "shape".into(),
                json!({ "type": "tetmesh", "vertices": vertices, "tets": mesh.tets }),
            );
            Value::Object(b)
        })
        .collect();
    let name = |i: usize| json!(scene.bodies[i].name);
    let mut root = Map::new();
    root.insert("format".into(), json!(crate::scene::parse::FORMAT_TAG));
    root.insert("id".into(), json!(scene.id));
    root.insert("title".into(), json!(scene.title));
    root.insert("group".into(), json!(scene.group));
    root.insert("description".into(), json!(description));
    root.insert("gravity".into(), xyz(scene.gravity));
    root.insert(
        "settings".into(),
        json!({
            "dt": export.dt,
            "steps": scene.settings.steps,
            "measure_step": scene.settings.measure_step,
            "friction": export.friction(),
        }),
    );
    root.insert("bodies".into(), json!(bodies));
    let pairs = export.friction_pairs();
    if !pairs.is_empty() {
        let list: Vec<Value> = pairs
            .iter()
            .map(|&(a, b, mu)| json!({ "bodies": [name(a), name(b)], "friction": mu }))
            .collect();
        root.insert("friction_pairs".into(), json!(list));
    }
    if keep_oracle {
        if let Some(oracle) = oracle_value(&scene.oracle, &name) {
            root.insert("oracle".into(), oracle);
        }
    }
    let text = serde_json::to_string_pretty(&Value::Object(root))
        .expect("a JSON value of strings and finite numbers serialises");
    vec![ExportFile {
        path: "scene.json".to_string(),
        text: text + "\n",
    }]
}

/// `{"axis": […], "degrees": d}`, or `None` for no rotation.
fn rotation_value(rotation: DQuat) -> Option<Value> {
    if rotation == DQuat::IDENTITY {
        return None;
    }
    let (axis, angle) = rotation.normalize().to_axis_angle();
    Some(json!({ "axis": xyz(axis), "degrees": angle.to_degrees() }))
}

/// The oracle as the file writes it (`docs/design/scenes.md`, "Oracles").
fn oracle_value(oracle: &Oracle, name: &dyn Fn(usize) -> Value) -> Option<Value> {
    Some(match oracle {
        Oracle::None => return None,
        Oracle::Up { axis, min_contacts } => {
            json!({ "type": "up", "axis": xyz(*axis), "min_contacts": min_contacts })
        }
        Oracle::Wall {
            up,
            along,
            min_contacts,
            expected_area,
            ..
        } => json!({
            "type": "wall", "up": xyz(*up), "along": xyz(*along),
            "min_contacts": min_contacts, "expected_area": expected_area,
        }),
        Oracle::Arch {
            up,
            ground,
            min_contacts,
            expected_area,
        } => json!({
            "type": "arch", "up": xyz(*up), "ground": name(*ground),
            "min_contacts": min_contacts, "expected_area": expected_area,
        }),
        Oracle::Pairs { pairs } => {
            let list: Vec<Value> = pairs
                .iter()
                .map(|p| {
                    let normals: Vec<Value> = p.normals.iter().map(|&n| xyz(n)).collect();
                    json!({ "a": name(p.a), "b": name(p.b), "normals": normals, "min_contacts": p.min_contacts })
                })
                .collect();
            json!({ "type": "pairs", "pairs": list })
        }
    })
}
