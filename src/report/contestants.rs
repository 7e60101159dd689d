//! What the comparison tables compare, one row each: a method of the
//! registry or an engine run through its adapter, and one contestant's
//! measures at a scene's initial pose (Erleben 2018 §8.1: the initial
//! configurations). Below every table file, which all use it.

use crate::contact::{detect, Contact, MethodHistory, MethodInfo};
use crate::dynamics::stepper::Pose;
use crate::engines::{EngineInfo, EngineMode, ENGINES};
use crate::measures::{step_measures, StepMeasures};
use crate::report::engines::EngineContacts;
use crate::scene::builtin::load_builtin;
use crate::scene::SceneError;
use crate::sim::{EngineRunner, SimSettings};
use glam::DVec3;

/// One row of a table: a method of the registry, or an engine whose
/// adapter finds the contacts at our poses (`docs/design/engines.md`).
#[derive(Clone, Copy)]
pub enum Contestant {
    Method(&'static MethodInfo),
    Engine(&'static EngineInfo),
}

impl Contestant {
    /// The value of the `method` setting that runs it.
    pub fn id(self) -> &'static str {
        match self {
            Contestant::Method(m) => m.id,
            Contestant::Engine(e) => e.id,
        }
    }

    /// The row's label: the method's name, or the engine's with its
    /// package and version ([`EngineInfo::label`]).
    pub fn name(self) -> String {
        match self {
            Contestant::Method(m) => m.name.to_string(),
            Contestant::Engine(e) => e.label(),
        }
    }

    /// The id under which the paper's tables list it (none for an engine).
    pub(super) fn paper_id(self) -> Option<&'static str> {
        match self {
            Contestant::Method(m) => Some(paper_id(m)),
            Contestant::Engine(_) => None,
        }
    }
}

/// What the tables compare.
#[derive(Clone, Copy)]
pub struct Contestants<'a> {
    /// The methods, the first rows.
    pub methods: &'a [&'static MethodInfo],
    /// Starts engines' adapters (the CLI runs them in Node): with one,
    /// every engine of [`ENGINES`] gets a row after the methods, its
    /// contacts found at our poses and our solver stepping
    /// ([`EngineMode::Ours`], the paper's protocol); without one, none.
    pub runner: Option<&'a dyn EngineRunner>,
    /// Engines' recorded contacts at their own poses, the last rows of
    /// the tables that have them (initial, pillar, wall, arch).
    pub recorded: &'a [EngineContacts],
}

impl Contestants<'_> {
    /// The methods, then the engines when there is a runner.
    pub fn rows(&self) -> Vec<Contestant> {
        let engines = ENGINES.iter().filter(|_| self.runner.is_some());
        self.methods
            .iter()
            .map(|&m| Contestant::Method(m))
            .chain(engines.map(Contestant::Engine))
            .collect()
    }

    /// Whether the engines have rows.
    pub fn engines_run(&self) -> bool {
        self.runner.is_some() && !ENGINES.is_empty()
    }
}

/// The measures of one method or engine on one scene at its initial pose.
#[derive(Clone, Debug)]
pub struct InitialPoseRow {
    pub method: &'static str,
    pub measures: StepMeasures,
    /// The contacts measured.
    pub contacts: Vec<Contact>,
}

/// Loads `scene_id` as `contestant` needs it (eroded for Closest points;
/// as it is for an engine) and measures its contacts at the initial pose:
/// a method's one detection, or the engine's one collision pass there,
/// its adapter started by `runner`.
pub fn initial_pose_row(
    scene_id: &str,
    contestant: Contestant,
    base: &SimSettings,
    runner: Option<&dyn EngineRunner>,
) -> Result<InitialPoseRow, SceneError> {
    let failed = |message: String| SceneError {
        source: scene_id.to_string(),
        message,
    };
    let settings = method_settings(base, contestant.id());
    let options = settings.load_options().map_err(|e| failed(e.to_string()))?;
    let scene = load_builtin(scene_id, &options)?;
    let contacts = match contestant {
        Contestant::Method(method) => {
            let params = settings.method_params(&scene);
            detect(
                &scene.poses(),
                method,
                &params,
                &mut MethodHistory::default(),
            )
            .map_err(|e| failed(e.to_string()))?
            .contacts
        }
        Contestant::Engine(engine) => {
            let runner = runner
                .ok_or_else(|| failed(format!("{} has no runner for its adapter", engine.name)))?;
            let poses: Vec<Pose> = scene
                .bodies
                .iter()
                .map(|b| Pose::new(b.position, b.rotation))
                .collect();
            let mut source = runner
                .start(engine, EngineMode::Ours, &scene, &settings)
                .map_err(failed)?;
            source
                .contacts_at(&poses)
                .map_err(|e| failed(format!("{}: {e}", engine.name)))?
        }
    };
    let centres: Vec<DVec3> = scene.bodies.iter().map(|b| b.position).collect();
    let (_, measures) = step_measures(&scene, &contacts, &centres, settings.tol_deg);
    Ok(InitialPoseRow {
        method: contestant.id(),
        measures,
        contacts,
    })
}

/// `base` with `method` (a method's or an engine's id); an engine finds
/// its contacts at our poses (the paper's protocol).
pub(super) fn method_settings(base: &SimSettings, method: &str) -> SimSettings {
    SimSettings {
        method: method.to_string(),
        engine: EngineMode::Ours,
        ..base.clone()
    }
}

/// The id under which the paper's tables list `m`: a variant's row shows
/// the paper's numbers of its printed method, which is what they are
/// compared with.
fn paper_id(m: &'static MethodInfo) -> &'static str {
    m.printed().id
}
