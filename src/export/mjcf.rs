//! The `mjcf` export: one MuJoCo model file (MJCF, MuJoCo's XML model
//! format: `<option>`, `<asset>` meshes, `<worldbody>` bodies, `<contact>`
//! pairs, `<keyframe>`).
//!
//! - Every scene body is a `<body>` at the export pose (`pos`, `quat` as
//!   w x y z) in our world frame, with gravity set explicitly, so contacts
//!   read from MuJoCo need no change of axes. A free body has a free joint;
//!   a fixed one none (MuJoCo welds a jointless body to the world).
//! - Its mass properties are ours, explicit: `<inertial pos="0 0 0" mass
//!   fullinertia>` about the centre of mass, which is the body frame's
//!   origin, so MuJoCo never derives them from the meshes.
//! - A convex body (every B-rep edge convex, as `contactlab mesh` decides)
//!   is one mesh geom, its surface. A non-convex body is several convex mesh
//!   geoms, its convex pieces (`export::pieces`: its own tetrahedra grouped
//!   greedily while each group stays convex), because MuJoCo collides the
//!   convex hull of every mesh. Meshes are inline (`vertex`, `face`).
//! - Friction: the geoms' sliding coefficient is the scene's μ (MuJoCo
//!   takes the larger of two geoms', so every pair gets μ); the torsional
//!   and rolling coefficients keep MuJoCo's defaults. A body pair with its
//!   own μ (`friction_pairs`) becomes `<pair>` elements for all its geom
//!   pairs plus an `<exclude>` of the body pair, so only the pairs' friction
//!   applies to it.
//! - Velocities (world frame, ours) go into keyframe 0 (`qvel`: linear
//!   velocity in the world frame, angular in the body frame, as MuJoCo's
//!   free joint has them); load it with `mj_resetDataKeyframe`.
//! - Everything else is MuJoCo's default (margin 0, solver, solref,
//!   solimp, condim 3, integrator).

use super::pieces::{convex_pieces, Surface};
use super::{num, vec3, xml_comment, xml_escape, Export, ExportFile, Format};
use crate::geometry::Pose;

pub static FORMAT: Format = Format {
    id: "mjcf",
    purpose: "MuJoCo",
    summary: "one MuJoCo model (model.xml): bodies at the pose with free joints (fixed ones without), our masses and inertias, friction, gravity, time step, every body as convex mesh geoms (a non-convex body as its convex pieces)",
    write,
};

/// MuJoCo's default torsional and rolling friction coefficients, kept.
const TORSIONAL_FRICTION: f64 = 0.005;
const ROLLING_FRICTION: f64 = 0.0001;

fn write(export: &Export) -> Vec<ExportFile> {
    let pieces: Vec<Vec<Surface>> = (0..export.scene.bodies.len())
        .map(|i| convex_pieces(export.mesh(i)))
        .collect();
    let mut x = model_header(export, &pieces);
    x.push_str(&assets(&pieces));
    x.push_str("  <worldbody>\n");
    x.push_str(&world_bodies(export, &pieces));
    x.push_str("  </worldbody>\n");
    x.push_str(&pair_friction(export, &pieces));
    x.push_str(&keyframe(export));
    x.push_str("</mujoco>\n");
    vec![ExportFile {
        path: "model.xml".to_string(),
        text: x,
    }]
}

/// The header comment, `<mujoco>`, `<option>` (time step, gravity) and
/// the default geom's friction.
fn model_header(export: &Export, pieces: &[Vec<Surface>]) -> String {
    let scene = export.scene;
    let mut notes = vec![
        "every body frame's origin is its centre of mass; geoms gi_k belong to body i (0-based, scene order)".to_string(),
        format!(
            "friction: sliding {} on every geom (MuJoCo takes the larger of two), torsional and rolling MuJoCo's defaults",
            num(export.friction())
        ),
        "velocities: keyframe 0 (mj_resetDataKeyframe); the rest is MuJoCo's defaults (margin 0)".to_string(),
    ];
    for (i, list) in pieces.iter().enumerate() {
        if list.len() > 1 {
            notes.push(format!(
                "non-convex body \"{}\": {} convex pieces of its own tetrahedra",
                scene.bodies[i].name,
                list.len()
            ));
        }
    }
    let mut x = xml_comment(&export.header("mjcf, MuJoCo", &notes));
    x.push_str(&format!("<mujoco model=\"{}\">\n", xml_escape(&scene.id)));
    x.push_str(&format!(
        "  <option timestep=\"{}\" gravity=\"{}\"/>\n",
        num(export.dt),
        vec3(scene.gravity)
    ));
    x.push_str(&format!(
        "  <default>\n    <geom friction=\"{} {} {}\"/>\n  </default>\n",
        num(export.friction()),
        num(TORSIONAL_FRICTION),
        num(ROLLING_FRICTION)
    ));
    x
}

/// `<asset>`: one mesh per convex piece of every body.
fn assets(pieces: &[Vec<Surface>]) -> String {
    let mut x = String::new();
    x.push_str("  <asset>\n");
    for (i, list) in pieces.iter().enumerate() {
        for (k, piece) in list.iter().enumerate() {
            let vertices: Vec<String> = piece.vertices.iter().map(|&v| vec3(v)).collect();
            let faces: Vec<String> = piece
                .triangles
                .iter()
                .map(|t| format!("{} {} {}", t[0], t[1], t[2]))
                .collect();
            x.push_str(&format!(
                "    <mesh name=\"m{i}_{k}\" vertex=\"{}\" face=\"{}\"/>\n",
                vertices.join("  "),
                faces.join("  ")
            ));
        }
    }
    x.push_str("  </asset>\n");
    x
}

/// Every body at its pose, with its free joint (not when fixed), inertial
/// and one geom per convex piece.
fn world_bodies(export: &Export, pieces: &[Vec<Surface>]) -> String {
    let mut x = String::new();
    for (i, body) in export.scene.bodies.iter().enumerate() {
        let Pose { position, rotation } = export.poses[i];
        let q = rotation.normalize();
        x.push_str(&format!(
            "    <body name=\"{}\" pos=\"{}\" quat=\"{} {} {} {}\">\n",
            xml_escape(&body.name),
            vec3(position),
            num(q.w),
            num(q.x),
            num(q.y),
            num(q.z)
        ));
        if !body.fixed {
            x.push_str("      <freejoint/>\n");
        }
        let m = body.mass.inertia;
        x.push_str(&format!(
            "      <inertial pos=\"0 0 0\" mass=\"{}\" fullinertia=\"{} {} {} {} {} {}\"/>\n",
            num(body.mass.mass),
            num(m.x_axis.x),
            num(m.y_axis.y),
            num(m.z_axis.z),
            num(m.y_axis.x),
            num(m.z_axis.x),
            num(m.z_axis.y)
        ));
        for k in 0..pieces[i].len() {
            x.push_str(&format!(
                "      <geom name=\"g{i}_{k}\" type=\"mesh\" mesh=\"m{i}_{k}\"/>\n"
            ));
        }
        x.push_str("    </body>\n");
    }
    x
}

/// `<contact>`: a pair with its own μ as `<pair>` elements for all its
/// geom pairs and an `<exclude>` of the body pair; empty without such pairs.
fn pair_friction(export: &Export, pieces: &[Vec<Surface>]) -> String {
    let scene = export.scene;
    let mut x = String::new();
    let pairs = export.friction_pairs();
    if !pairs.is_empty() {
        x.push_str("  <contact>\n");
        for &(a, b, mu) in &pairs {
            for ka in 0..pieces[a].len() {
                for kb in 0..pieces[b].len() {
                    x.push_str(&format!(
                        "    <pair geom1=\"g{a}_{ka}\" geom2=\"g{b}_{kb}\" friction=\"{} {} {} {} {}\"/>\n",
                        num(mu),
                        num(mu),
                        num(TORSIONAL_FRICTION),
                        num(ROLLING_FRICTION),
                        num(ROLLING_FRICTION)
                    ));
                }
            }
            x.push_str(&format!(
                "    <exclude body1=\"{}\" body2=\"{}\"/>\n",
                xml_escape(&scene.bodies[a].name),
                xml_escape(&scene.bodies[b].name)
            ));
        }
        x.push_str("  </contact>\n");
    }
    x
}

/// Keyframe 0: the free bodies' poses and velocities (angular in the body
/// frame, as MuJoCo's free joint has it).
fn keyframe(export: &Export) -> String {
    let scene = export.scene;
    let mut qpos = Vec::new();
    let mut qvel = Vec::new();
    for (i, body) in scene.bodies.iter().enumerate() {
        if body.fixed {
            continue;
        }
        let Pose { position, rotation } = export.poses[i];
        let q = rotation.normalize();
        let (v, w) = export.velocities[i];
        qpos.push(format!(
            "{} {} {} {} {}",
            vec3(position),
            num(q.w),
            num(q.x),
            num(q.y),
            num(q.z)
        ));
        qvel.push(format!("{} {}", vec3(v), vec3(q.inverse() * w)));
    }
    format!(
        "  <keyframe>\n    <key name=\"export\" qpos=\"{}\" qvel=\"{}\"/>\n  </keyframe>\n",
        qpos.join("  "),
        qvel.join("  ")
    )
}
