//! Scenes out: a scene at a pose written in the formats other simulators
//! load (`docs/design/export.md`; the README's "Export a scene"). One file
//! per format, each with its entry in [`FORMATS`], the one list the CLI's
//! `export --format` choices and its help are made from:
//!
//! - [`obj`]: one Wavefront OBJ per body, surface triangles in world
//!   coordinates, counter-clockwise seen from outside.
//! - [`mjcf`]: one MuJoCo model (MJCF) file, non-convex bodies as convex
//!   pieces ([`pieces`]), since MuJoCo collides the convex hull of a mesh.
//! - [`urdf`]: one URDF per body for PyBullet, with OBJ meshes in the body
//!   frame and a manifest of poses, gravity and time step.
//! - [`json`]: our own `contactlab-scene/1` file with every body's
//!   tetrahedra as given (`tetmesh` shapes), which loads back into ContactLab
//!   as the same bodies.
//! - [`engine`]: the scene as the engine adapters read it
//!   (`docs/design/engines.md`): surfaces and convex pieces, masses and
//!   the MuJoCo model, in one JSON object.
//!
//! A writer takes an [`Export`] (the scene, the pose of every body and what
//! that pose is) and returns the files to write as relative paths and text,
//! so it is tested without a disk. Every file opens with a header naming the
//! scene, the pose, the ContactLab version and the scene file's body names
//! (contact files name bodies by these).

pub mod engine;
pub mod json;
pub mod mjcf;
pub mod obj;
pub mod pieces;
pub mod urdf;

use crate::geometry::Pose;
use crate::mesh::TetMesh;
use crate::scene::Scene;
use glam::DVec3;

/// ContactLab's version, written into every exported file.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The first words of every exported file's header: `contactlab export`
/// recognises its own earlier files by them and overwrites nothing else.
pub const HEADER_MARK: &str = "ContactLab export";

/// Which pose the bodies are at.
#[derive(Clone, Debug, PartialEq)]
pub enum At {
    /// The scene's own initial pose.
    Initial,
    /// The pose a run of `method` reached after `step` steps.
    Step { step: u64, method: String },
}

/// A scene at a pose, ready to be written in any format.
#[derive(Clone, Debug)]
pub struct Export<'a> {
    pub scene: &'a Scene,
    /// Per body: world position of its centre of mass (the body frame's
    /// origin) and the body frame's orientation.
    pub poses: Vec<Pose>,
    /// Per body: linear velocity of the centre of mass and angular velocity,
    /// world frame.
    pub velocities: Vec<(DVec3, DVec3)>,
    pub at: At,
    /// The time step of the run (the scene's unless a setting changed it).
    pub dt: f64,
    /// The `mu` setting when given: it replaces the scene's friction and
    /// every pair's own, as in a run.
    pub mu: Option<f64>,
}

impl<'a> Export<'a> {
    /// The scene at its initial pose with its own time step and friction.
    pub fn initial(scene: &'a Scene) -> Export<'a> {
        Export {
            scene,
            poses: scene
                .bodies
                .iter()
                .map(|b| Pose::new(b.position, b.rotation))
                .collect(),
            velocities: scene
                .bodies
                .iter()
                .map(|b| (b.velocity, b.angular_velocity))
                .collect(),
            at: At::Initial,
            dt: scene.settings.dt,
            mu: None,
        }
    }

    /// Body `i`'s tetrahedra in its body frame, un-eroded: the body as it
    /// is, even when the run's method eroded it (Closest points).
    pub fn mesh(&self, i: usize) -> &TetMesh {
        self.scene.bodies[i].solid()
    }

    /// A point of body `i`'s frame in world coordinates at the export pose.
    pub fn world_point(&self, i: usize, p: DVec3) -> DVec3 {
        let Pose { position, rotation } = self.poses[i];
        position + rotation * p
    }

    /// The friction coefficient every pair without its own has.
    pub fn friction(&self) -> f64 {
        self.mu.unwrap_or(self.scene.settings.friction)
    }

    /// The pairs with a coefficient of their own, `(a, b, μ)`; none when the
    /// `mu` setting replaced them all.
    pub fn friction_pairs(&self) -> Vec<(usize, usize, f64)> {
        if self.mu.is_some() {
            return Vec::new();
        }
        self.scene
            .friction_pairs
            .iter()
            .map(|p| (p.bodies[0], p.bodies[1], p.friction))
            .collect()
    }

    /// What the pose is, in words.
    pub fn pose_text(&self) -> String {
        match &self.at {
            At::Initial => "initial (the scene's own)".to_string(),
            At::Step { step, method } => format!(
                "step {step} of a ContactLab run with method {method}, dt {} s",
                self.dt
            ),
        }
    }

    /// The header every file carries, as lines without comment markers;
    /// `format` names the format and `notes` adds what this file leaves out
    /// or changes.
    pub fn header(&self, format: &str, notes: &[String]) -> Vec<String> {
        let scene = self.scene;
        let names: Vec<&str> = scene.bodies.iter().map(|b| b.name.as_str()).collect();
        let mut lines = vec![
            format!("{HEADER_MARK} ({format}) by ContactLab {VERSION}"),
            format!(
                "scene: {} (\"{}\", from {})",
                scene.id, scene.title, scene.source
            ),
            format!("pose: {}", self.pose_text()),
            format!("bodies: {}", names.join(", ")),
        ];
        lines.extend(notes.iter().cloned());
        lines
    }

    /// A file name stem per body: its name with every character other than
    /// letters, digits, `-`, `_` and `.` replaced by `_`, and its index
    /// appended when that leaves two bodies the same stem.
    pub fn file_stems(&self) -> Vec<String> {
        let clean: Vec<String> = self
            .scene
            .bodies
            .iter()
            .map(|b| {
                b.name
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect()
            })
            .collect();
        clean
            .iter()
            .enumerate()
            .map(|(i, stem)| {
                let shared = clean.iter().filter(|s| *s == stem).count() > 1;
                if shared || stem.is_empty() || stem.starts_with('.') {
                    format!("{stem}-{i}")
                } else {
                    stem.clone()
                }
            })
            .collect()
    }
}

/// A file to write: its path relative to the output directory and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportFile {
    pub path: String,
    pub text: String,
}

/// An export format: its id (`--format`), what it is for, and its writer.
pub struct Format {
    pub id: &'static str,
    /// The simulators that load it.
    pub purpose: &'static str,
    /// What it writes, in a sentence.
    pub summary: &'static str,
    pub write: fn(&Export) -> Vec<ExportFile>,
}

/// Every export format, in the order help lists them.
pub static FORMATS: &[&Format] = &[
    &obj::FORMAT,
    &mjcf::FORMAT,
    &urdf::FORMAT,
    &json::FORMAT,
    &engine::FORMAT,
];

/// The format with this id.
pub fn format_by_id(id: &str) -> Option<&'static Format> {
    FORMATS.iter().copied().find(|f| f.id == id)
}

/// The format ids, for messages.
pub fn format_ids() -> Vec<&'static str> {
    FORMATS.iter().map(|f| f.id).collect()
}

/// `x` written so that it reads back as the same `f64` (Rust's shortest
/// round-trip form).
pub(crate) fn num(x: f64) -> String {
    // -0 would read back the same; "0" is easier on the eye.
    if x == 0.0 {
        "0".to_string()
    } else {
        format!("{x:?}")
    }
}

/// Three numbers separated by spaces.
pub(crate) fn vec3(v: DVec3) -> String {
    format!("{} {} {}", num(v.x), num(v.y), num(v.z))
}

/// Text made safe for an XML attribute value or element text.
pub(crate) fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Header lines as one XML comment (a comment may not contain `--`).
pub(crate) fn xml_comment(lines: &[String]) -> String {
    let mut text = String::from("<!--\n");
    for line in lines {
        text.push_str("  ");
        text.push_str(&line.replace("--", "- -"));
        text.push('\n');
    }
    text.push_str("-->\n");
    text
}
