//! The engines people ship, as contestants beside the methods
//! (`docs/design/engines.md`): their registry, the two ways their contacts
//! come in, and the translation of an adapter's answer into [`Contact`]s.
//!
//! An engine is one entry of [`ENGINES`] here and one adapter file,
//! `www/engines/<id>.js`, which runs the engine's WebAssembly build (in the
//! page's worker, or in Node for the CLI and the tables). The core never
//! runs an engine itself: a front end hands [`crate::sim::Simulation`] a
//! [`ContactSource`] that asks the adapter. Every list of engines (the
//! CLI's `methods`, the page's picker, the tables, the tests, the files the
//! site serves) is made from [`ENGINES`].
//!
//! Like a method, an engine sees geometry and poses only: the adapter gets
//! the bodies' shapes and masses (`export::engine`), never the scene's
//! oracle.

use crate::contact::{Contact, FeatureKind};
use crate::dynamics::stepper::Pose;
use glam::{DQuat, DVec3};
use serde::Serialize;

/// An engine of the registry.
#[derive(Debug, Serialize)]
pub struct EngineInfo {
    /// Stable id: a value of the `method` setting, and the adapter's file
    /// name (`www/engines/<id>.js`).
    pub id: &'static str,
    /// The engine's name.
    pub name: &'static str,
    /// The npm package the adapter runs, and its version (pinned in
    /// `package-lock.json`; `tests/engines.rs` checks they agree).
    pub package: &'static str,
    pub version: &'static str,
    /// What the package holds, as its makers say.
    pub inside: &'static str,
    /// Who ships it.
    pub users: &'static str,
    /// One line for pickers and `contactlab methods`.
    pub summary: &'static str,
    /// One paragraph for a student: how it builds contacts, and where they
    /// go wrong.
    pub help: &'static str,
    /// The package's files the adapter loads, relative to `node_modules`:
    /// the site serves these (and the package's licence) under
    /// `engines/npm/`.
    pub files: &'static [&'static str],
}

impl EngineInfo {
    /// What the help says the engine's contacts come from: what the
    /// package holds, the package and its version.
    pub fn source(&self) -> String {
        format!(
            "{} ({} {} from npm)",
            self.inside, self.package, self.version
        )
    }

    /// The name with the package version, as tables and the picker show
    /// it: "Jolt Physics (jolt-physics 1.1.0)".
    pub fn label(&self) -> String {
        format!("{} ({} {})", self.name, self.package, self.version)
    }
}

/// Every engine, in the order pickers and tables list them.
pub static ENGINES: &[EngineInfo] = &[
    EngineInfo {
        id: "jolt",
        name: "Jolt Physics",
        package: "jolt-physics",
        version: "1.1.0",
        inside: help_text!("Jolt Physics (JoltPhysics.js), single precision, single-threaded build"),
        users: help_text!("Horizon Forbidden West, Death Stranding 2, Godot"),
        summary: "Jolt's contacts: convex hulls and static triangle meshes, GJK/EPA, one manifold of up to 4 points per pair",
        help: help_text!("Jolt Physics, the engine of Horizon Forbidden West and Death Stranding 2, running from its WebAssembly build. Each body is a Jolt convex hull of its surface (a fixed non-convex body a static triangle mesh); at each step Jolt's narrow phase finds the deepest point of each pair by GJK and EPA, builds one contact manifold per pair with that normal, clips the two faces against each other and keeps at most four points. Contacts are reported up to Jolt's speculative distance (2 cm) before the bodies touch. One normal per pair is right for a flat face on a face, and wrong wherever a pair touches along two directions at once (a spike in a crack)."),
        files: &["jolt-physics/dist/jolt-physics.wasm.js", "jolt-physics/dist/jolt-physics.wasm.wasm"],
    },
    EngineInfo {
        id: "physx",
        name: "PhysX 5",
        package: "physx-js-webidl",
        version: "2.7.3",
        inside: help_text!("NVIDIA PhysX 5.6.1, single precision, single-threaded build"),
        users: help_text!("Unity, Unreal Engine 4, NVIDIA Omniverse"),
        summary: "PhysX's contacts: cooked convex meshes and triangle meshes, contact patches up to its contact offset",
        help: help_text!("NVIDIA PhysX 5, the engine inside Unity and Unreal Engine 4, running from its WebAssembly build. Each body is a cooked PhysX convex mesh (a fixed non-convex body a triangle mesh); its narrow phase builds contact patches, one normal each, from the closest features of each shape pair and reports points within the shapes' contact offsets (2 cm each by default), so contacts appear before bodies touch. A patch has one normal, so a pair that touches along two directions at once gets one of them wrong."),
        files: &["physx-js-webidl/physx-js-webidl.mjs", "physx-js-webidl/physx-js-webidl.wasm"],
    },
    EngineInfo {
        id: "mujoco",
        name: "MuJoCo",
        package: "@mujoco/mujoco",
        version: "3.14.0",
        inside: help_text!("MuJoCo 3.14.0 (Google DeepMind's own WebAssembly build), single-threaded"),
        users: help_text!("robotics and reinforcement learning (DeepMind, OpenAI Gym, dm_control)"),
        summary: "MuJoCo's contacts: every mesh collided as its convex hull, multi-contact CCD, margin 0",
        help: help_text!("MuJoCo, the simulator of robotics and reinforcement learning, running Google DeepMind's own WebAssembly build on the MuJoCo model `contactlab export --format mjcf` writes. MuJoCo collides every mesh as its convex hull, so a non-convex body is its convex pieces; each pair of geoms gets up to four contacts from its multi-contact convex collision, with the normal of the deepest direction. With the default margin of 0 a pair counts only when the computed distance is negative, so bodies that touch exactly can be missed by round-off."),
        files: &["@mujoco/mujoco/mujoco.js", "@mujoco/mujoco/mujoco.wasm"],
    },
    EngineInfo {
        id: "rapier",
        name: "Rapier",
        package: "@dimforge/rapier3d-compat",
        version: "0.21.0",
        inside: help_text!("Rapier with parry3d 0.31.1, single precision"),
        users: help_text!("Bevy, web games (three.js, Babylon.js)"),
        summary: "Rapier's contacts: parry's convex hulls and triangle meshes, one manifold per shape pair, prediction distance",
        help: help_text!("Rapier, the engine of Bevy and many web games, running Dimforge's own WebAssembly build. Each body is a parry convex hull (a fixed non-convex body a parry triangle mesh); parry finds one manifold per pair of shapes (per triangle of a mesh) with one normal, clipping the closest faces, and reports points up to Rapier's prediction distance. It is the library our own parry method calls, in single precision and through Rapier's pipeline."),
        files: &["@dimforge/rapier3d-compat/dist/rapier.mjs"],
    },
    EngineInfo {
        id: "bullet",
        name: "Bullet",
        package: "ammojs3",
        version: "0.0.11",
        inside: help_text!("Bullet 3.26 compiled by ammo.js (ammojs3), single precision"),
        users: help_text!("Blender, PyBullet, many web demos"),
        summary: "Bullet's contacts: convex hulls with a 4 cm margin, GJK/EPA, one new point per pair per step",
        help: help_text!("Bullet, the engine of Blender and PyBullet, running an Emscripten build of Bullet 3.26 (ammo.js). Each body is a Bullet convex hull shape (a fixed non-convex body a BVH triangle mesh), with Bullet's default collision margin of 4 cm around it. Between hulls GJK and EPA give one point per pair per collision pass; a persistent manifold normally gathers up to four over several frames. At our pose each pass starts afresh, so a pair gets the one point, and the margins make contacts appear before the bodies touch."),
        files: &["ammojs3/dist/ammo.wasm.js", "ammojs3/dist/ammo.wasm.wasm"],
    },
];

/// The engine with this id.
pub fn engine_by_id(id: &str) -> Option<&'static EngineInfo> {
    ENGINES.iter().find(|e| e.id == id)
}

/// The engine ids, for messages.
pub fn engine_ids() -> Vec<&'static str> {
    ENGINES.iter().map(|e| e.id).collect()
}

/// Which contacts of an engine a run measures (the `engine` setting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineMode {
    /// The engine's contacts at our poses, our solver stepping with them
    /// (the paper's protocol).
    #[default]
    Ours,
    /// The engine's own run: its solver, its poses, its contacts measured
    /// there.
    Own,
}

impl crate::settings::Choice for EngineMode {
    fn id(self) -> &'static str {
        match self {
            EngineMode::Ours => "ours",
            EngineMode::Own => "own",
        }
    }

    fn from_id(id: &str) -> Option<Self> {
        match id {
            "ours" => Some(EngineMode::Ours),
            "own" => Some(EngineMode::Own),
            _ => None,
        }
    }
}

/// Where an engine's contacts come from: the adapter, asked by the front
/// end that runs it. Errors are sentences for the user (the engine failed
/// to load, the adapter threw, Node is missing).
pub trait ContactSource {
    /// The engine's contacts with every body at `poses`, at rest.
    fn contacts_at(&mut self, poses: &[Pose]) -> Result<Vec<Contact>, String>;
    /// One step of the engine's own run: the poses it started from and the
    /// contacts the engine found there.
    fn own_step(&mut self) -> Result<(Vec<Pose>, Vec<Contact>), String>;
}

/// Numbers per body in a poses array: `x y z qx qy qz qw`.
pub const POSE_VALUES: usize = 7;
/// Numbers per contact in a contacts array: `a b x y z nx ny nz depth`.
pub const CONTACT_VALUES: usize = 9;

/// `poses` as the flat array adapters read.
pub fn poses_to_values(poses: &[Pose]) -> Vec<f64> {
    poses
        .iter()
        .flat_map(|pose| {
            let (p, q) = (pose.position, pose.rotation);
            [p.x, p.y, p.z, q.x, q.y, q.z, q.w]
        })
        .collect()
}

/// An adapter's flat poses array, checked against the scene's `bodies`
/// count; rotations that are not unit length made so.
pub fn poses_from_values(values: &[f64], bodies: usize) -> Result<Vec<Pose>, String> {
    if values.len() != bodies * POSE_VALUES {
        return Err(format!(
            "the engine gave {} pose numbers for {bodies} bodies (7 each)",
            values.len()
        ));
    }
    values
        .chunks_exact(POSE_VALUES)
        .enumerate()
        .map(|(i, v)| {
            if v.iter().any(|x| !x.is_finite()) {
                return Err(format!(
                    "the engine gave body {i} a pose that is not finite"
                ));
            }
            let q = DQuat::from_xyzw(v[3], v[4], v[5], v[6]);
            if q.length() == 0.0 {
                return Err(format!("the engine gave body {i} a zero quaternion"));
            }
            // An engine in single precision gives quaternions a little off
            // unit length; one already unit keeps its bits.
            let q = if (q.length() - 1.0).abs() > 1e-12 {
                q.normalize()
            } else {
                q
            };
            Ok(Pose::new(DVec3::new(v[0], v[1], v[2]), q))
        })
        .collect()
}

/// An adapter's flat contacts array as contacts: body indices checked
/// against the scene's `fixed` bodies, numbers finite, normals made unit
/// length. A contact between two fixed bodies is dropped, as no method
/// reports one (nothing of it can move).
pub fn contacts_from_values(values: &[f64], fixed: &[bool]) -> Result<Vec<Contact>, String> {
    if values.len() % CONTACT_VALUES != 0 {
        return Err(format!(
            "the engine gave {} contact numbers, not a multiple of 9",
            values.len()
        ));
    }
    let body = |x: f64, k: usize| -> Result<usize, String> {
        if x.fract() == 0.0 && x >= 0.0 && (x as usize) < fixed.len() {
            Ok(x as usize)
        } else {
            Err(format!(
                "the engine's contact {k} names body {x}, which the scene does not have"
            ))
        }
    };
    let mut contacts = Vec::with_capacity(values.len() / CONTACT_VALUES);
    for (k, v) in values.chunks_exact(CONTACT_VALUES).enumerate() {
        let (a, b) = (body(v[0], k)?, body(v[1], k)?);
        if a == b {
            return Err(format!(
                "the engine's contact {k} is between body {a} and itself"
            ));
        }
        if v.iter().any(|x| !x.is_finite()) {
            return Err(format!(
                "the engine's contact {k} has a number that is not finite"
            ));
        }
        let normal = DVec3::new(v[5], v[6], v[7]);
        if normal.length() == 0.0 {
            return Err(format!("the engine's contact {k} has a zero normal"));
        }
        if fixed[a] && fixed[b] {
            continue;
        }
        contacts.push(Contact {
            a,
            b,
            position: DVec3::new(v[2], v[3], v[4]),
            normal: normal / normal.length(),
            depth: v[8],
            // An engine does not say which features touch.
            features: FeatureKind::Unstated,
            source_a: 0,
            source_b: 0,
            region: None,
            kept_normal: false,
        });
    }
    Ok(contacts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts_are_checked_and_fixed_pairs_dropped() {
        let fixed = [true, false, true];
        let values = [
            0.0, 1.0, 0.0, 0.5, 0.0, 0.0, 2.0, 0.0, -0.001, 0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0,
            0.0,
        ];
        let contacts = contacts_from_values(&values, &fixed).unwrap();
        assert_eq!(contacts.len(), 1);
        assert_eq!(contacts[0].normal, DVec3::Y);
        assert_eq!(contacts[0].depth, -0.001);
        assert!(contacts_from_values(&values[..8], &fixed)
            .unwrap_err()
            .contains("multiple of 9"));
        let mut bad = values;
        bad[1] = 3.0;
        assert!(contacts_from_values(&bad, &fixed)
            .unwrap_err()
            .contains("body 3"));
        bad[1] = 0.0;
        assert!(contacts_from_values(&bad, &fixed)
            .unwrap_err()
            .contains("itself"));
        let mut zero = values;
        zero[6] = 0.0;
        assert!(contacts_from_values(&zero, &fixed)
            .unwrap_err()
            .contains("zero normal"));
    }

    #[test]
    fn poses_round_trip() {
        let poses = vec![Pose::new(
            DVec3::new(1.0, 2.0, 3.0),
            DQuat::from_rotation_y(0.3),
        )];
        let values = poses_to_values(&poses);
        assert_eq!(poses_from_values(&values, 1).unwrap(), poses);
        assert!(poses_from_values(&values, 2).is_err());
    }

    #[test]
    fn every_engine_has_an_adapter_file_and_distinct_id() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut ids = engine_ids();
        for id in &ids {
            assert!(
                root.join(format!("www/engines/{id}.js")).is_file(),
                "www/engines/{id}.js is missing"
            );
        }
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), ENGINES.len());
    }
}
