//! `Simulation`: a scene, a contact method and solver settings, stepped by
//! the Moreau midpoint scheme, with one [`StepRecord`] per step. It is the
//! one API the CLI and the page (through the wasm facade) share, so a
//! number on the page and in the CLI is the same number.

use crate::clock::now_ms;
use crate::contact::reference::{ReferenceContacts, REFERENCE_ID};
use crate::contact::{
    find_contacts, method_by_id, methods::method_ids, BodyAtPose, Contact, ContactMethod,
    MethodParams,
};
use crate::dynamics::stepper::{advance_rotation, gyroscopic_update, half_step};
use crate::dynamics::RigidBody;
use crate::measures::{step_measures, ContactQuality, StepMeasures, DEFAULT_ANGLE_TOLERANCE_DEG};
use crate::scene::{load_scene, LoadOptions, Oracle, Scene};
use crate::solver::{solve, SolverSettings};
use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Everything that decides a run besides the scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SimSettings {
    /// A method id (`contactlab methods`) or `reference`.
    pub method: String,
    /// Time step in seconds; `None` takes the scene's.
    pub dt: Option<f64>,
    pub perturb: f64,
    pub seed: u64,
    pub refine: u8,
    /// Erosion ε of the Closest points method.
    pub epsilon: f64,
    /// Angle tolerance for a correct normal, degrees.
    pub angle_tolerance_deg: f64,
    pub solver: SolverSettings,
}

impl Default for SimSettings {
    fn default() -> Self {
        SimSettings {
            method: "opposing".to_string(),
            dt: None,
            perturb: 0.0,
            seed: 1,
            refine: 0,
            epsilon: MethodParams::DEFAULT_EPSILON,
            angle_tolerance_deg: DEFAULT_ANGLE_TOLERANCE_DEG,
            solver: SolverSettings::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    /// A setting is out of range; the message names it.
    Setting(String),
    /// The scene failed to load.
    Scene(String),
    /// The state became non-finite during this step.
    BlewUp { step: u64, body: String },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Setting(m) | SimError::Scene(m) => f.write_str(m),
            SimError::BlewUp { step, body } => write!(f, "the simulation blew up at step {step}: body \"{body}\" has a non-finite position or velocity (try a smaller time step or more iterations)"),
        }
    }
}

impl std::error::Error for SimError {}

/// What one step produced (design `measures.md`, "Per step"). Keys are the
/// CLI's JSON keys and the page's `data-readout` names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepRecord {
    pub step: u64,
    pub time: f64,
    pub count: usize,
    pub quality: Option<f64>,
    pub coverage: Option<f64>,
    pub area_coverage: Option<f64>,
    pub excess: Option<f64>,
    /// The most negative contact depth (deepest penetration).
    pub min_depth: Option<f64>,
    pub kinetic_energy: f64,
    /// Largest distance of a free body's centre from where it started.
    pub max_displacement: f64,
    /// For scenes meant to rest (oracles `up`, `wall`, `arch`): whether every
    /// free body is still within `Scene::standing_tolerance` of its start.
    pub standing: Option<bool>,
    pub iterations: u32,
    pub residual: f64,
    pub ms_broad: f64,
    pub ms_method: f64,
    pub ms_solver: f64,
    /// Sorted q, histogram and region areas of the step's contacts.
    #[serde(skip)]
    pub measures: StepMeasures,
}

enum ActiveMethod {
    Local(&'static dyn ContactMethod),
    Reference(ReferenceContacts),
}

pub struct Simulation {
    scene: Scene,
    settings: SimSettings,
    method: ActiveMethod,
    params: MethodParams,
    bodies: Vec<RigidBody>,
    start: Vec<DVec3>,
    dt: f64,
    mu: f64,
    step: u64,
    contacts: Vec<Contact>,
    qualities: Vec<ContactQuality>,
    /// Last step's impulses for warm starting (a sorted map: its order never
    /// matters, lookups only).
    warm: BTreeMap<WarmKey, DVec3>,
}

/// A contact's identity across steps: bodies, source tetrahedra, feature
/// kind, and its ordinal among the contacts sharing those.
type WarmKey = (usize, usize, u32, u32, crate::contact::FeatureKind, u32);

fn warm_keys(contacts: &[Contact]) -> Vec<WarmKey> {
    let mut seen: BTreeMap<(usize, usize, u32, u32, crate::contact::FeatureKind), u32> =
        BTreeMap::new();
    contacts
        .iter()
        .map(|c| {
            let group = (c.a, c.b, c.tet_a, c.tet_b, c.features);
            let ordinal = seen.entry(group).or_insert(0);
            *ordinal += 1;
            (group.0, group.1, group.2, group.3, group.4, *ordinal - 1)
        })
        .collect()
}

/// All method ids a simulation accepts.
pub fn simulation_method_ids() -> Vec<&'static str> {
    let mut ids = method_ids();
    ids.push(REFERENCE_ID);
    ids
}

fn check_settings(s: &SimSettings) -> Result<(), SimError> {
    let bad = |m: String| Err(SimError::Setting(m));
    if !simulation_method_ids().contains(&s.method.as_str()) {
        return bad(format!(
            "method: unknown method \"{}\" (expected one of: {})",
            s.method,
            simulation_method_ids().join(", ")
        ));
    }
    if let Some(dt) = s.dt {
        if !(dt > 0.0 && dt <= 1.0) {
            return bad(format!(
                "dt: the time step must be in (0, 1] seconds, got {dt}"
            ));
        }
    }
    if !(s.perturb >= 0.0 && s.perturb <= 1.0) {
        return bad(format!(
            "perturb: must be from 0 to 1 metre, got {}",
            s.perturb
        ));
    }
    if s.refine > 2 {
        return bad(format!("refine: must be 0, 1 or 2, got {}", s.refine));
    }
    if !(s.epsilon > 0.0 && s.epsilon <= 1.0) {
        return bad(format!(
            "epsilon: must be in (0, 1] metres, got {}",
            s.epsilon
        ));
    }
    if !(s.angle_tolerance_deg > 0.0 && s.angle_tolerance_deg < 90.0) {
        return bad(format!(
            "angle tolerance: must be between 0 and 90 degrees, got {}",
            s.angle_tolerance_deg
        ));
    }
    let solver = &s.solver;
    if solver.iterations == 0 || solver.iterations > 100_000 {
        return bad(format!(
            "iterations: must be from 1 to 100000, got {}",
            solver.iterations
        ));
    }
    if !(solver.tolerance >= 0.0 && solver.tolerance.is_finite()) {
        return bad(format!(
            "tolerance: must be zero or positive, got {}",
            solver.tolerance
        ));
    }
    if let Some(mu) = solver.friction {
        if !(mu >= 0.0 && mu.is_finite()) {
            return bad(format!(
                "mu: the friction coefficient must be zero or positive, got {mu}"
            ));
        }
    }
    if !(solver.baumgarte >= 0.0 && solver.baumgarte <= 1.0) {
        return bad(format!(
            "baumgarte: must be from 0 to 1, got {}",
            solver.baumgarte
        ));
    }
    Ok(())
}

impl Simulation {
    /// Loads the scene (eroded, refined and perturbed as the settings say)
    /// and prepares the run. `source` names the scene in errors.
    pub fn new(
        source: &str,
        scene_text: &str,
        settings: SimSettings,
    ) -> Result<Simulation, SimError> {
        check_settings(&settings)?;
        let local = method_by_id(&settings.method);
        let probe = MethodParams {
            epsilon: settings.epsilon,
            ..MethodParams::default()
        };
        let erosion = local.and_then(|m| m.erosion(&probe));
        let options = LoadOptions {
            refine: settings.refine,
            erosion,
            perturb: settings.perturb,
            seed: settings.seed,
        };
        let scene =
            load_scene(source, scene_text, &options).map_err(|e| SimError::Scene(e.to_string()))?;
        Ok(Simulation::from_scene(scene, settings))
    }

    /// Prepares a run of an already loaded scene (tests transform scenes
    /// before running them). The scene must have been loaded with the
    /// erosion the method needs.
    pub fn from_scene(scene: Scene, settings: SimSettings) -> Simulation {
        let method = match method_by_id(&settings.method) {
            Some(m) => ActiveMethod::Local(m),
            None => ActiveMethod::Reference(ReferenceContacts::from_scene(&scene)),
        };
        let params = MethodParams {
            epsilon: settings.epsilon,
            ..MethodParams::for_scene(&scene)
        };
        let bodies: Vec<RigidBody> = scene.bodies.iter().map(RigidBody::from_scene).collect();
        let start = bodies.iter().map(|b| b.position).collect();
        let dt = settings.dt.unwrap_or(scene.settings.dt);
        let mu = settings.solver.friction.unwrap_or(scene.settings.friction);
        Simulation {
            scene,
            settings,
            method,
            params,
            bodies,
            start,
            dt,
            mu,
            step: 0,
            contacts: Vec::new(),
            qualities: Vec::new(),
            warm: BTreeMap::new(),
        }
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// Whether going from `old` to `new` settings changes the bodies'
    /// geometry or start (perturbation, refinement, the erosion of Closest
    /// points), so that the scene must be loaded again (design
    /// `playground.md`: such settings reset the scene, the others apply from
    /// the next step).
    pub fn needs_rebuild(old: &SimSettings, new: &SimSettings) -> bool {
        let probe = |s: &SimSettings| {
            let params = MethodParams {
                epsilon: s.epsilon,
                ..MethodParams::default()
            };
            method_by_id(&s.method).and_then(|m| m.erosion(&params))
        };
        old.perturb != new.perturb
            || old.seed != new.seed
            || old.refine != new.refine
            || probe(old) != probe(new)
    }

    /// Applies settings that need no rebuild from the next step on (time
    /// step, solver, friction, angle tolerance, a method with the same
    /// erosion). Fails, changing nothing, on a bad setting or one that needs
    /// a rebuild.
    pub fn apply_settings(&mut self, settings: SimSettings) -> Result<(), SimError> {
        check_settings(&settings)?;
        if Self::needs_rebuild(&self.settings, &settings) {
            return Err(SimError::Setting(
                "this change needs the scene to be loaded again".to_string(),
            ));
        }
        if settings.method != self.settings.method {
            self.method = match method_by_id(&settings.method) {
                Some(m) => ActiveMethod::Local(m),
                // The reference is the exact contacts of the initial pose,
                // carried with the bodies from the scene as loaded.
                None => ActiveMethod::Reference(ReferenceContacts::from_scene(&self.scene)),
            };
            self.warm.clear();
        }
        self.params = MethodParams {
            epsilon: settings.epsilon,
            ..MethodParams::for_scene(&self.scene)
        };
        self.dt = settings.dt.unwrap_or(self.scene.settings.dt);
        self.mu = settings
            .solver
            .friction
            .unwrap_or(self.scene.settings.friction);
        self.settings = settings;
        Ok(())
    }

    pub fn settings(&self) -> &SimSettings {
        &self.settings
    }

    pub fn bodies(&self) -> &[RigidBody] {
        &self.bodies
    }

    /// Steps taken so far.
    pub fn step_index(&self) -> u64 {
        self.step
    }

    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The contacts of the last step (at its midpoint poses) and their q.
    pub fn contacts(&self) -> &[Contact] {
        &self.contacts
    }

    pub fn contact_qualities(&self) -> &[ContactQuality] {
        &self.qualities
    }

    fn detect(&self, poses: &[(DVec3, DQuat)]) -> (Vec<Contact>, f64, f64) {
        let at: Vec<BodyAtPose> = self
            .scene
            .bodies
            .iter()
            .zip(poses)
            .map(|(b, p)| BodyAtPose {
                mesh: &b.mesh,
                position: p.0,
                rotation: p.1,
                fixed: b.fixed,
            })
            .collect();
        match &self.method {
            ActiveMethod::Local(m) => {
                let set = find_contacts(&at, *m, &self.params);
                (set.contacts, set.ms_broad, set.ms_method)
            }
            ActiveMethod::Reference(r) => {
                let start = now_ms();
                let contacts = r.at_pose(&at);
                (contacts, 0.0, now_ms() - start)
            }
        }
    }

    /// One Moreau midpoint step: contacts at the midpoint, solve, advance.
    pub fn step(&mut self) -> Result<StepRecord, SimError> {
        let h = self.dt;
        // 1. Half-step positions.
        let poses: Vec<(DVec3, DQuat)> = self
            .bodies
            .iter()
            .map(|b| {
                if b.fixed {
                    (b.position, b.rotation)
                } else {
                    half_step(b, h)
                }
            })
            .collect();
        // 2. Contacts at the midpoint.
        let (contacts, ms_broad, ms_method) = self.detect(&poses);
        let solver_start = now_ms();
        // 3. Free velocities.
        let gravity = self.scene.gravity;
        for (body, pose) in self.bodies.iter_mut().zip(&poses) {
            if body.fixed {
                continue;
            }
            body.velocity += gravity * h;
            if self.settings.solver.gyroscopic {
                body.angular_velocity = gyroscopic_update(
                    body.angular_velocity,
                    pose.1,
                    body.inertia_body,
                    body.inverse_inertia_body,
                    h,
                );
            }
        }
        // 4. Contact impulses. A tetrahedron pair can give several contacts of
        // one feature kind (Opposing gives all its intersection points), so
        // the warm-start key also counts them in their (deterministic) order.
        let keys: Vec<WarmKey> = if self.settings.solver.warm_start {
            warm_keys(&contacts)
        } else {
            Vec::new()
        };
        let initial: Vec<DVec3> = keys
            .iter()
            .map(|k| self.warm.get(k).copied().unwrap_or(DVec3::ZERO))
            .collect();
        let (impulses, stats) = solve(
            &mut self.bodies,
            &poses,
            &contacts,
            self.mu,
            &self.settings.solver,
            h,
            &initial,
        );
        if self.settings.solver.warm_start {
            self.warm = keys.into_iter().zip(impulses.iter().copied()).collect();
        }
        // 5. Second half-step with the new velocities.
        for (body, pose) in self.bodies.iter_mut().zip(&poses) {
            if body.fixed {
                continue;
            }
            body.position = pose.0 + body.velocity * (0.5 * h);
            body.rotation = advance_rotation(pose.1, body.angular_velocity, 0.5 * h);
        }
        let ms_solver = now_ms() - solver_start;
        self.step += 1;
        if let Some(body) = self
            .bodies
            .iter()
            .zip(&self.scene.bodies)
            .find(|(b, _)| !b.is_finite())
        {
            return Err(SimError::BlewUp {
                step: self.step,
                body: body.1.name.clone(),
            });
        }

        // Measures of the step's contacts, with the arch oracle's centres at
        // the midpoint, where the contacts were found.
        let centres: Vec<DVec3> = poses.iter().map(|p| p.0).collect();
        let (qualities, measures) = step_measures(
            &self.scene,
            &contacts,
            &centres,
            self.settings.angle_tolerance_deg,
        );
        let min_depth = contacts.iter().map(|c| c.depth).reduce(f64::min);
        let max_displacement = self
            .bodies
            .iter()
            .zip(&self.start)
            .filter(|(b, _)| !b.fixed)
            .map(|(b, s)| (b.position - *s).length())
            .fold(0.0, f64::max);
        let record = StepRecord {
            step: self.step,
            time: self.step as f64 * h,
            count: measures.count,
            quality: measures.quality,
            coverage: measures.coverage,
            area_coverage: measures.area_coverage,
            excess: measures.excess,
            min_depth,
            kinetic_energy: self.bodies.iter().map(RigidBody::kinetic_energy).sum(),
            max_displacement,
            standing: matches!(
                self.scene.oracle,
                Oracle::Up { .. } | Oracle::Wall { .. } | Oracle::Arch { .. }
            )
            .then(|| max_displacement <= self.scene.standing_tolerance()),
            iterations: stats.iterations,
            residual: stats.residual,
            ms_broad,
            ms_method,
            ms_solver,
            measures,
        };
        self.contacts = contacts;
        self.qualities = qualities;
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::FeatureKind;

    #[test]
    fn warm_keys_tell_apart_contacts_of_one_tetrahedron_pair() {
        let contact = |tet_a, features| Contact {
            a: 0,
            b: 1,
            position: DVec3::ZERO,
            normal: DVec3::Y,
            depth: 0.0,
            features,
            tet_a,
            tet_b: 3,
        };
        let contacts = [
            contact(7, FeatureKind::FaceFace),
            contact(7, FeatureKind::FaceFace),
            contact(8, FeatureKind::FaceFace),
            contact(7, FeatureKind::FaceFace),
            contact(7, FeatureKind::EdgeEdge),
        ];
        let keys = warm_keys(&contacts);
        let ordinals: Vec<u32> = keys.iter().map(|k| k.5).collect();
        assert_eq!(ordinals, [0, 1, 0, 2, 0]);
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), keys.len());
    }
}
