//! Fixtures shared by several test files (each test file is its own crate,
//! so not every file uses every fixture).
#![allow(dead_code)]

pub mod pinned;

use contactlab::mesh::{Mesher, TetMesh};
use contactlab::scene::builtin::load_builtin;
use contactlab::scene::{LoadOptions, Scene};
use glam::DVec3;
use std::process::Command;

/// Runs the `contactlab` binary of this build with `args`: its exit code,
/// standard output and standard error.
pub fn contactlab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(args)
        .output()
        .expect("the contactlab binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A built-in scene meshed by `mesher`.
pub fn load_meshed_by(id: &str, mesher: Mesher) -> Scene {
    load_builtin(
        id,
        &LoadOptions {
            mesher: Some(mesher),
            ..LoadOptions::default()
        },
    )
    .unwrap()
}

/// A body made of one tetrahedron, however degenerate (no validation).
pub fn raw_body(corners: [DVec3; 4]) -> TetMesh {
    TetMesh::without_validation(corners.to_vec(), vec![[0, 1, 2, 3]], 1e-6).unwrap()
}

/// A one-tetrahedron body, its corners put in positive orientation first
/// (as `TetMesh` requires).
pub fn tet_body(mut corners: [DVec3; 4]) -> TetMesh {
    let [a, b, c, d] = corners;
    if (b - a).cross(c - a).dot(d - a) < 0.0 {
        corners.swap(2, 3);
    }
    TetMesh::new(corners.to_vec(), vec![[0, 1, 2, 3]], 1e-6).expect("a valid test tetrahedron")
}

/// The unit tetrahedron, a well-formed partner for the degenerate ones.
pub const UNIT_TET: [DVec3; 4] = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];

/// Tetrahedra no valid mesh contains, which a method must survive without
/// panicking or hanging: flat, a needle, a point, inverted, coincident with
/// the unit one.
pub fn degenerate_tetrahedra() -> Vec<(&'static str, [DVec3; 4])> {
    vec![
        (
            "flat",
            [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0)],
        ),
        (
            "needle",
            [
                DVec3::ZERO,
                DVec3::new(1e-12, 0.0, 0.0),
                DVec3::new(0.0, 1e-12, 0.0),
                DVec3::new(0.0, 0.0, 2.0),
            ],
        ),
        ("point", [DVec3::splat(0.2); 4]),
        ("inverted", [DVec3::ZERO, DVec3::Y, DVec3::X, DVec3::Z]),
        ("coincident", UNIT_TET),
    ]
}

/// The flat angle hand-built bodies are classified with (radians).
pub const FLAT: f64 = 1e-6;
/// Distance below which two hand-computed points count as the same.
pub const CLOSE: f64 = 1e-9;

/// Method settings for hand-built cases of bodies about 1 m in size: a
/// fixed touching tolerance and the default envelope of 1 cm.
pub fn hand_built_params() -> contactlab::contact::MethodParams {
    contactlab::contact::MethodParams {
        touch_tol: 1e-6,
        envelope: 0.01,
        ..contactlab::contact::MethodParams::default()
    }
}

/// An x × y × z box centred on its origin.
pub fn cuboid(x: f64, y: f64, z: f64) -> TetMesh {
    contactlab::mesh::shapes::Shape::from(contactlab::mesh::shapes::Cuboid {
        size: DVec3::new(x, y, z),
    })
    .build(FLAT)
    .unwrap()
}

// Hand-built tetrahedra of the method case files (metres, y up), as corner
// lists: `GROUND`, a large tetrahedron whose top face is the plane y = 0;
// `CORNER`, the unit corner tetrahedron standing on y = 0; `SPIKE`, a
// tetrahedron on its tip at the origin, top face at y = 1; `RIDGE`, top edge
// along x at y = 0 with 45° faces; `CROSS_RIDGE`, `RIDGE` upside down and a
// quarter turn, its bottom edge along z through the origin.
pub const GROUND: [[f64; 3]; 4] = [
    [-4.1, 0.0, -3.7],
    [3.9, 0.0, -4.2],
    [0.3, 0.0, 4.1],
    [0.2, -4.0, 0.1],
];
pub const CORNER: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0],
];
pub const SPIKE: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [-0.5, 1.0, -0.4],
    [0.6, 1.0, -0.3],
    [0.1, 1.0, 0.7],
];
pub const RIDGE: [[f64; 3]; 4] = [
    [-1.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, -1.0, -1.0],
    [0.0, -1.0, 1.0],
];
pub const CROSS_RIDGE: [[f64; 3]; 4] = [
    [0.0, 0.0, -1.0],
    [0.0, 0.0, 1.0],
    [-1.0, 1.0, 0.0],
    [1.0, 1.0, 0.0],
];

/// A scene file's JSON text with every length multiplied by `s`: each
/// shape type's lengths, body positions and velocities, gravity (the
/// default one too, written out), and the oracle's expected area (× s²).
/// Everything else (angles, rotations, angular velocities, densities,
/// friction, time step, counts) is kept. A key it does not know panics, so
/// a new length in the scene format cannot go unscaled here.
pub fn scale_scene_json(text: &str, s: f64) -> String {
    use serde_json::{json, Value};
    fn times(value: &Value, s: f64) -> Value {
        match value {
            Value::Number(n) => json!(n.as_f64().unwrap() * s),
            Value::Array(items) => Value::Array(items.iter().map(|v| times(v, s)).collect()),
            other => panic!("not a length: {other}"),
        }
    }
    fn scale_keys(
        object: &mut serde_json::Map<String, Value>,
        s: f64,
        lengths: &[&str],
        kept: &[&str],
        what: &str,
    ) {
        for (key, value) in object.iter_mut() {
            if lengths.contains(&key.as_str()) {
                *value = times(value, s);
            } else {
                assert!(
                    kept.contains(&key.as_str()),
                    "{what}: the scaler does not know \"{key}\""
                );
            }
        }
    }
    let mut root: Value = serde_json::from_str(text).expect("a scene file is JSON");
    let root_map = root.as_object_mut().unwrap();
    root_map
        .entry("gravity")
        .or_insert_with(|| json!([0.0, -9.81, 0.0]));
    scale_keys(
        root_map,
        s,
        &["gravity"],
        &[
            "format",
            "id",
            "title",
            "group",
            "description",
            "settings",
            "mesher",
            "bodies",
            "friction_pairs",
            "oracle",
        ],
        "scene",
    );
    for body in root_map["bodies"].as_array_mut().unwrap() {
        let body = body.as_object_mut().unwrap();
        scale_keys(
            body,
            s,
            &["position", "velocity"],
            &[
                "name",
                "fixed",
                "density",
                "rotation",
                "angular_velocity",
                "mesher",
                "shape",
            ],
            "body",
        );
        let shape = body["shape"].as_object_mut().unwrap();
        let lengths: &[&str] = match shape["type"].as_str().unwrap() {
            "box" => &["size"],
            "frustum" => &["bottom_radius", "top_radius", "height"],
            "pyramid" => &["half_width", "height"],
            "wedge" => &["half_width", "height", "half_length"],
            "sphere" => &["radius"],
            "prism" => &["profile", "depth", "kernel"],
            "mesh" => &["vertices", "kernel"],
            "tetmesh" => &["vertices"],
            other => panic!("the scaler does not know the shape type \"{other}\""),
        };
        scale_keys(
            shape,
            s,
            lengths,
            &["type", "sides", "vertices", "triangles", "tets"],
            "shape",
        );
    }
    if let Some(oracle) = root_map.get_mut("oracle").and_then(Value::as_object_mut) {
        scale_keys(
            oracle,
            s * s,
            &["expected_area"],
            &[
                "type",
                "axis",
                "up",
                "along",
                "ground",
                "min_contacts",
                "pairs",
            ],
            "oracle",
        );
    }
    serde_json::to_string(&root).unwrap()
}
