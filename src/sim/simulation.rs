//! [`Simulation`]: a scene, a run's mode (a method, an engine, a contact
//! file: `modes`) and its settings; how a run is prepared, what it shows
//! between steps, and its measures taken again. The step itself is
//! `step.rs`.

use super::divergence::DivergenceBounds;
use super::modes::{
    poses_of, ContactFileRun, EngineRun, EngineRunner, Frame, MethodRun, ReferenceRun, RunMode,
};
use super::start_overlaps::start_overlap_notices;
use super::warm_start::WarmStarts;
use super::{SimError, SimSettings, StepRecord};
use crate::contact::{Algorithm, Contact, MethodParams, MissingAlgorithm, PairRegion};
use crate::contact_file::ContactFile;
use crate::dynamics::stepper::Pose;
use crate::dynamics::RigidBody;
use crate::engines::{engine_ids, ContactSource, EngineInfo, EngineMode};
use crate::measures::oracle::GeometricOracle;
use crate::measures::overlap::OverlapMeter;
use crate::measures::{measure, ContactQuality, StepMeasures};
use crate::scene::{load_scene, Oracle, Scene, SceneBody};
use crate::settings::{self, SettingError, SETTINGS};
use glam::DVec3;

/// A run: the scene's bodies stepped by the Moreau midpoint scheme with
/// the contacts of its mode, one [`StepRecord`] per step.
pub struct Simulation {
    pub(super) scene: Scene,
    pub(super) settings: SimSettings,
    pub(super) mode: Box<dyn RunMode>,
    pub(super) params: MethodParams,
    pub(super) bodies: Vec<RigidBody>,
    start: Vec<DVec3>,
    pub(super) dt: f64,
    /// The `mu` setting when given (it overrides every pair's own), else
    /// `None`: each pair then has the scene's coefficient for it.
    pub(super) mu: Option<f64>,
    pub(super) step: u64,
    contacts: Vec<Contact>,
    /// The last step's regions, for region methods.
    regions: Vec<PairRegion>,
    qualities: Vec<ContactQuality>,
    /// Last step's impulses for warm starting.
    pub(super) warm: WarmStarts,
    /// The bounds past which the run counts as diverged.
    pub(super) bounds: DivergenceBounds,
    /// The message of the step that diverged, once one has.
    pub(super) diverged: Option<String>,
    /// The judges' measure of how far the bodies overlap.
    pub(super) overlap: OverlapMeter,
    /// The geometric oracle of the scene's bodies.
    geometric: GeometricOracle,
    /// The poses the last step's contacts were found at (its midpoint), for
    /// measuring them again.
    contact_poses: Vec<Pose>,
    /// The record of step 0 when the run has one: a contact file's contacts
    /// at the start (its own poses, or the scene's), an engine's own run's
    /// first step.
    start_record: Option<StepRecord>,
}

/// What a step leaves on show until the next: its contacts, where they
/// were found, their regions and their qualities.
pub(super) struct Shown {
    pub step: u64,
    pub contacts: Vec<Contact>,
    pub regions: Vec<PairRegion>,
    pub qualities: Vec<ContactQuality>,
    pub poses: Vec<Pose>,
}

fn rigid_body(body: &SceneBody) -> RigidBody {
    RigidBody::new(
        Pose::new(body.position, body.rotation),
        (body.velocity, body.angular_velocity),
        body.mass.mass,
        body.mass.inertia,
        body.fixed,
    )
}

impl Simulation {
    /// Loads the scene (eroded, refined and perturbed as the settings say)
    /// and prepares the run. `source` names the scene in errors.
    pub fn new(
        source: &str,
        scene_text: &str,
        settings: SimSettings,
    ) -> Result<Simulation, SimError> {
        settings.validate()?;
        // Refused before the work of loading the scene.
        if settings.engine_info().is_none() {
            if let Some(missing) = settings.method_info()?.missing_algorithm() {
                return Err(missing.into());
            }
        }
        let scene = load_scene(source, scene_text, &settings.load_options()?)
            .map_err(|e| SimError::Scene(e.to_string()))?;
        Simulation::from_scene(scene, settings)
    }

    /// Prepares a run of the engine the `method` setting names, whose
    /// contacts `source` gives (the front end started the engine's adapter
    /// on this scene, `export::engine`). In the engine's own run
    /// (`engine=own`) its first step is taken at once: its contacts at the
    /// initial pose are [`Simulation::start_record`].
    pub fn with_engine(
        scene: Scene,
        settings: SimSettings,
        mode: EngineMode,
        source: Box<dyn ContactSource>,
    ) -> Result<Simulation, SimError> {
        settings.validate()?;
        let Some(info) = settings.engine_info() else {
            return Err(SimError::Engine(format!(
                "\"{}\" is not an engine (one of {})",
                settings.method,
                engine_ids().join(", ")
            )));
        };
        let mode = EngineRun::new(info, mode, source);
        Simulation::with_mode(scene, settings, Box::new(mode))
    }

    /// Prepares a run of `scene`: a method's ([`Self::from_scene`]), or,
    /// when the `method` setting names an engine, that engine's in the
    /// `engine` setting's mode with its adapter started by `runner`. An
    /// engine without a runner is an error that says so.
    pub fn with_runner(
        scene: Scene,
        settings: SimSettings,
        runner: Option<&dyn EngineRunner>,
    ) -> Result<Simulation, SimError> {
        let Some(engine) = settings.engine_info() else {
            return Simulation::from_scene(scene, settings);
        };
        let Some(runner) = runner else {
            return Err(SimError::Engine(format!(
                "{} runs through its adapter (www/engines/{}.js), which nothing here can start",
                engine.name, engine.id
            )));
        };
        let mode = settings.engine;
        let source = runner
            .start(engine, mode, &scene, &settings)
            .map_err(SimError::Engine)?;
        Simulation::with_engine(scene, settings, mode, source)
    }

    /// The engine of the run, if its contacts are an engine's.
    pub fn engine(&self) -> Option<(&'static EngineInfo, EngineMode)> {
        self.mode.engine()
    }

    /// Prepares a run of an already loaded scene (tests transform scenes
    /// before running them). The scene must have been loaded with the
    /// erosion the method needs.
    pub fn from_scene(scene: Scene, settings: SimSettings) -> Result<Simulation, SimError> {
        settings.validate()?;
        if let Some(engine) = settings.engine_info() {
            return Err(SimError::Engine(format!(
                "{} runs in its adapter, which this front end has not started",
                engine.name
            )));
        }
        let info = settings.method_info()?;
        let mode: Box<dyn RunMode> = match info.algorithm {
            Algorithm::TetPair(_) | Algorithm::BodyPair(_) => Box::new(MethodRun::new(info)),
            Algorithm::ExactReference => Box::new(ReferenceRun::new(&scene)),
            Algorithm::NotInThisBuild { feature, .. } => {
                return Err(SimError::NotInThisBuild(MissingAlgorithm {
                    method: info.id,
                    feature,
                }))
            }
        };
        Simulation::with_mode(scene, settings, mode)
    }

    /// Prepares a run whose contacts are a contact file's, read against
    /// `scene` (`contact_file::read_contacts`). The `method` setting is not
    /// used. When the file has contacts (or poses) at step 0 they are
    /// measured at once: [`Simulation::start_record`].
    pub fn with_contact_file(
        scene: Scene,
        settings: SimSettings,
        file: ContactFile,
    ) -> Result<Simulation, SimError> {
        settings.validate()?;
        Simulation::with_mode(scene, settings, Box::new(ContactFileRun::new(file)))
    }

    /// Prepares a run of `mode`, and measures its step 0 when it has one.
    fn with_mode(
        mut scene: Scene,
        settings: SimSettings,
        mode: Box<dyn RunMode>,
    ) -> Result<Simulation, SimError> {
        let params = settings.method_params(&scene);
        let bounds = DivergenceBounds::of(&scene);
        let bodies: Vec<RigidBody> = scene.bodies.iter().map(rigid_body).collect();
        let start = bodies.iter().map(|b| b.position).collect();
        let dt = settings.dt.unwrap_or(scene.settings.dt);
        let mu = settings.mu;
        let overlap = OverlapMeter::new(&scene);
        let geometric = GeometricOracle::new(&scene);
        let notices = start_overlap_notices(&scene, &overlap, &poses_of(&bodies), bounds.length);
        scene.notices.extend(notices);
        let mut sim = Simulation {
            scene,
            settings,
            mode,
            params,
            bodies,
            start,
            dt,
            mu,
            step: 0,
            contacts: Vec::new(),
            regions: Vec::new(),
            qualities: Vec::new(),
            warm: WarmStarts::default(),
            bounds,
            diverged: None,
            overlap,
            geometric,
            contact_poses: Vec::new(),
            start_record: None,
        };
        if let Some(frame) = sim.mode.start(&sim.bodies)? {
            sim.start_record = Some(sim.play_back(frame));
        }
        Ok(sim)
    }

    /// The contact file the run's contacts come from, if they do.
    pub fn contact_file(&self) -> Option<&ContactFile> {
        self.mode.contact_file()
    }

    /// The record of step 0: a contact file's contacts at the start,
    /// measured, or an engine's own run's first step. `None` for a
    /// method's run (its first record is step 1's).
    pub fn start_record(&self) -> Option<&StepRecord> {
        self.start_record.as_ref()
    }

    /// Measures a frame where it was given, with no step taken (a contact
    /// file's step 0, a step of a file with its own poses, a step of an
    /// engine's own run): the bodies are put at its poses, at rest, when
    /// it has them.
    pub(super) fn play_back(&mut self, frame: Frame) -> StepRecord {
        let poses = match frame.poses {
            Some(poses) => {
                self.place_bodies(&poses);
                poses
            }
            None => poses_of(&self.bodies),
        };
        let measured = self.measure(&frame.contacts, &poses);
        let (max_displacement, moved_most) = self.max_displacement(&poses);
        let record = StepRecord {
            step: frame.step,
            time: frame.step as f64 * self.dt,
            measures: measured.measures,
            min_depth: frame.contacts.iter().map(|c| c.depth).reduce(f64::min),
            penetration: self.overlap.deepest(&self.scene, &poses),
            kinetic_energy: 0.0,
            max_displacement,
            moved_most,
            standing: self.standing(max_displacement),
            iterations: 0,
            residual: 0.0,
            ms_broad: 0.0,
            ms_method: 0.0,
            ms_solver: 0.0,
            ms_oracle: measured.ms_oracle,
            diverged: None,
            not_applicable: Vec::new(),
            indeterminate: 0,
            dynamics: false,
        };
        self.show(Shown {
            step: frame.step,
            contacts: frame.contacts,
            regions: Vec::new(),
            qualities: measured.qualities,
            poses,
        });
        record
    }

    /// Keeps what a step leaves on show, and counts it as taken.
    pub(super) fn show(&mut self, shown: Shown) {
        self.step = shown.step;
        self.contacts = shown.contacts;
        self.regions = shown.regions;
        self.qualities = shown.qualities;
        self.contact_poses = shown.poses;
    }

    /// Puts the bodies at `poses`, at rest: given poses say nothing of
    /// velocities.
    fn place_bodies(&mut self, poses: &[Pose]) {
        for (body, pose) in self.bodies.iter_mut().zip(poses) {
            body.position = pose.position;
            body.rotation = pose.rotation;
            body.velocity = DVec3::ZERO;
            body.angular_velocity = DVec3::ZERO;
        }
    }

    /// The judges' verdicts on `contacts` at `poses` (both oracles, with the
    /// run's Measure-stage settings), and the geometric oracle's time.
    pub(super) fn measure(
        &self,
        contacts: &[Contact],
        poses: &[Pose],
    ) -> crate::measures::Measured {
        measure(
            &self.scene,
            &self.geometric,
            contacts,
            poses,
            &self.settings.measure_settings(),
        )
    }

    /// started, and that body's name (the first of equals).
    pub(super) fn max_displacement(&self, poses: &[Pose]) -> (f64, Option<String>) {
        let moved = poses
            .iter()
            .zip(&self.start)
            .zip(&self.scene.bodies)
            .filter(|(_, body)| !body.fixed)
            .map(|((p, s), body)| ((p.position - *s).length(), body));
        let largest = moved.clone().map(|(d, _)| d).fold(0.0, f64::max);
        let name = moved
            .clone()
            .find(|(d, _)| *d == largest)
            .or_else(|| moved.clone().next())
            .map(|(_, body)| body.name.clone());
        (largest, name)
    }

    /// For scenes meant to rest: whether every free body is within the
    /// standing tolerance.
    pub(super) fn standing(&self, max_displacement: f64) -> Option<bool> {
        matches!(
            self.scene.oracle,
            Oracle::Up { .. } | Oracle::Wall { .. } | Oracle::Arch { .. }
        )
        .then(|| max_displacement <= self.scene.standing_tolerance())
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
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

    /// What a size-relative length setting left at its default stands for
    /// in this run, metres (`None` for any other setting): the erosion ε
    /// the bodies get, and the envelope of the pair of the scene's smallest
    /// bodies (each pair has its own).
    pub fn relative_default(&self, spec: &settings::SettingSpec) -> Option<f64> {
        let settings::Default::Relative(fraction) = spec.default else {
            return None;
        };
        match spec.id {
            "epsilon" => Some(self.params.epsilon),
            _ => self
                .scene
                .bodies
                .iter()
                .map(|b| fraction * b.mesh.diagonal())
                .reduce(f64::min),
        }
    }

    /// The friction coefficient between bodies `a` and `b`: the `mu`
    /// setting when given, else the scene's for that pair.
    pub fn mu_between(&self, a: usize, b: usize) -> f64 {
        self.mu.unwrap_or_else(|| self.scene.friction_between(a, b))
    }

    /// The contacts of the last step (at its midpoint poses) and their q.
    pub fn contacts(&self) -> &[Contact] {
        &self.contacts
    }

    pub fn contact_qualities(&self) -> &[ContactQuality] {
        &self.qualities
    }

    /// The last step's contact regions (region methods only; empty
    /// otherwise), each with its body pair.
    pub fn regions(&self) -> &[PairRegion] {
        &self.regions
    }

    /// Takes the Measure-stage settings (`tol_deg`, `oracle`) of
    /// `settings` and measures the last step's contacts again, at the poses
    /// they were found at: what changing a Measure-stage setting does, with
    /// no reload and no step. The new measures of the last step (`None`
    /// before the first step); refused when `settings` differs from the
    /// run's in a setting of another stage.
    pub fn set_measure_settings(
        &mut self,
        settings: &SimSettings,
    ) -> Result<Option<StepMeasures>, SimError> {
        settings.validate()?;
        for spec in SETTINGS {
            if spec.stage != settings::Stage::Measure
                && settings.get(spec.id) != self.settings.get(spec.id)
            {
                return Err(SimError::Setting(SettingError {
                    id: spec.id,
                    message: format!(
                        "{} is not a measure setting: changing it needs a reload",
                        spec.noun
                    ),
                }));
            }
        }
        self.settings = settings.clone();
        // Nothing measured yet: no step taken, and no contact file's step 0.
        if self.contact_poses.is_empty() {
            return Ok(None);
        }
        let measured = self.measure(&self.contacts, &self.contact_poses);
        self.qualities = measured.qualities;
        Ok(Some(measured.measures))
    }

    /// Steps until `steps` steps have been taken in all (at least one), or
    /// the run diverged, and returns the last record: one row of a
    /// comparison.
    pub fn run_to(&mut self, steps: u64) -> Result<StepRecord, SimError> {
        let mut last = self.step()?;
        while self.step < steps && last.diverged.is_none() {
            last = self.step()?;
        }
        Ok(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measures::OracleChoice;

    /// Built and run by hand with `cargo test --no-default-features --lib
    /// lean_build`: the default build (and so `cargo xtask test`) has the
    /// feature on.
    #[cfg(not(feature = "parry"))]
    #[test]
    fn lean_build_lists_parry_as_a_region_method_and_refuses_to_simulate_it() {
        let parry = crate::contact::method_by_id("parry").expect("parry is listed in every build");
        assert_eq!(parry.kind(), "region");
        assert!(!parry.in_this_build());
        let settings = SimSettings {
            method: parry.id.to_string(),
            ..SimSettings::default()
        };
        let text = crate::scene::builtin::builtin_text("pillar").expect("the Pillar is built in");
        let refused = Simulation::new("builtin:pillar", text, settings).err();
        assert!(matches!(refused, Some(SimError::NotInThisBuild(_))));
        assert_eq!(
            refused.map(|e| e.to_string()).as_deref(),
            Some(
                "the parry method is not in this build of ContactLab: it was compiled without the cargo feature `parry`"
            )
        );
    }

    #[test]
    fn a_measure_setting_measures_the_last_step_again_without_a_reload() {
        let text = crate::scene::builtin::builtin_text("arch").expect("the Arch is built in");
        let settings = SimSettings {
            method: "semi-local".to_string(),
            ..SimSettings::default()
        };
        let mut sim = Simulation::new("builtin:arch", text, settings.clone()).unwrap();
        let record = sim.step().unwrap();
        assert_eq!(record.measures.oracle, OracleChoice::Scene);
        let geometric = SimSettings {
            oracle: OracleChoice::Geometric,
            ..settings.clone()
        };
        let again = sim.set_measure_settings(&geometric).unwrap().unwrap();
        // The same contacts, judged by the other oracle; the step stays.
        assert_eq!(sim.step_index(), 1);
        assert_eq!(again.oracle, OracleChoice::Geometric);
        assert_eq!(again.count, record.measures.count);
        assert_eq!(again.quality, record.measures.geo_quality);
        assert_eq!(again.coverage, record.measures.geo_coverage);
        assert_eq!(again.scene_quality, record.measures.scene_quality);
        let right = sim
            .contact_qualities()
            .iter()
            .filter(|q| q.correct == Some(true))
            .count();
        assert_eq!(Some(right), again.correct);
        // A setting of another stage needs a reload: refused.
        let other = SimSettings {
            iterations: 10,
            ..geometric
        };
        assert!(sim.set_measure_settings(&other).is_err());
    }
}
