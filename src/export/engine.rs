//! The `engine` export: the scene as the engine adapters read it
//! (`docs/design/engines.md`, "The engine scene"). The page's core makes
//! the same object from the scene on screen and hands it to an adapter in
//! the worker; `contactlab` hands it to `tools/engine-host.mjs`; this format
//! writes it to a file, so an adapter can be tried on its own.
//!
//! Every body comes with its surface (for a convex hull or a static
//! triangle mesh) and its convex pieces (for an engine without non-convex
//! meshes), in the body frame, whose origin is the centre of mass; with
//! its mass and inertia for an engine's own run; and the MuJoCo model
//! `mjcf` writes, so that MuJoCo in the page loads exactly the model the
//! Python package loads from `export --format mjcf`.

use super::pieces::{body_surface, convex_pieces, Surface};
use super::{mjcf, Export, ExportFile, Format};
use crate::geometry::Pose;
use glam::{DQuat, DVec3};
use serde_json::{json, Value};

pub static FORMAT: Format = Format {
    id: "engine",
    purpose: "ContactLab's engine adapters",
    summary: "the scene as the engine adapters read it (engine-scene.json): every body's surface and convex pieces in its centre-of-mass frame, mass, inertia, pose and velocities, gravity, time step, friction and the MuJoCo model",
    write,
};

/// The format tag of the object.
pub const FORMAT_TAG: &str = "contactlab-engine-scene/1";

fn xyz(v: DVec3) -> Value {
    json!([v.x, v.y, v.z])
}

fn xyzw(q: DQuat) -> Value {
    json!([q.x, q.y, q.z, q.w])
}

fn flat(points: &[DVec3]) -> Vec<f64> {
    points.iter().flat_map(|p| [p.x, p.y, p.z]).collect()
}

/// The engine scene of `export`, as a JSON value.
pub fn engine_scene(export: &Export) -> Value {
    let scene = export.scene;
    let model = (mjcf::FORMAT.write)(export)
        .into_iter()
        .next()
        .map(|file| file.text)
        .unwrap_or_default();
    let bodies: Vec<Value> = scene
        .bodies
        .iter()
        .enumerate()
        .map(|(i, body)| {
            let mesh = export.mesh(i);
            let Surface {
                vertices,
                triangles,
            } = body_surface(mesh);
            let pieces: Vec<Vec<f64>> = convex_pieces(mesh)
                .iter()
                .map(|piece| flat(&piece.vertices))
                .collect();
            let Pose { position, rotation } = export.poses[i];
            let (velocity, angular_velocity) = export.velocities[i];
            let inertia = body.mass.inertia.transpose().to_cols_array();
            json!({
                "name": body.name,
                "fixed": body.fixed,
                "convex": mesh.brep().is_convex(),
                "mass": body.mass.mass,
                "inertia": inertia,
                "position": xyz(position),
                "rotation": xyzw(rotation),
                "velocity": xyz(velocity),
                "angularVelocity": xyz(angular_velocity),
                "vertices": flat(&vertices),
                "triangles": triangles.iter().flatten().collect::<Vec<_>>(),
                "pieces": pieces,
            })
        })
        .collect();
    json!({
        "format": FORMAT_TAG,
        "header": export.header("engine, ContactLab's engine adapters", &[]),
        "scene": scene.id,
        "gravity": xyz(scene.gravity),
        "dt": export.dt,
        "friction": export.friction(),
        "mjcf": model,
        "bodies": bodies,
    })
}

fn write(export: &Export) -> Vec<ExportFile> {
    let text = serde_json::to_string(&engine_scene(export))
        .expect("a JSON value of strings and finite numbers serialises");
    vec![ExportFile {
        path: "engine-scene.json".to_string(),
        text: text + "\n",
    }]
}
