//! `Simulation`: a scene, a contact method and solver settings, stepped by
//! the Moreau midpoint scheme, with one [`StepRecord`] per step. It is the
//! one API the CLI and the page (through the wasm facade) share, so a
//! number on the page and in the CLI is the same number.

use crate::clock::now_ms;
use crate::contact::{
    detect, method_by_id, methods::method_ids, Algorithm, BodyAtPose, Contact, ContactSet,
    MethodHistory, MethodInfo, MethodParams, MissingAlgorithm, PairRegion, Undetectable,
};
use crate::contact_file::ContactFile;
use crate::dynamics::stepper::{moreau_step, Pose};
use crate::dynamics::RigidBody;
use crate::measures::oracle::GeometricOracle;
use crate::measures::overlap::{BodyOverlap, OverlapMeter};
use crate::measures::reference::ReferenceContacts;
use crate::measures::{
    measures_of_step, oracle_envelope, ContactQuality, MeasureSettings, OracleChoice, StepMeasures,
};
use crate::solver::SolverStats;
// `Mesher`, `SolverRules`, `OracleChoice` and `EngineMode` are field types of the settings table.
use crate::engines::{engine_by_id, engine_ids, ContactSource, EngineInfo, EngineMode};
use crate::mesh::Mesher;
use crate::scene::{load_scene, Erosion, LoadOptions, Oracle, Scene, SceneBody};
use crate::settings::{
    self, SettingError, SettingField, SettingKind, SettingSpec, SettingValue, SETTINGS,
};
use crate::solver::{solve, SolverRules, SolverSettings};
use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Every value the `method` setting takes: the methods' ids, then the
/// engines'.
pub fn contestant_ids() -> Vec<&'static str> {
    let mut ids = method_ids();
    ids.extend(engine_ids());
    ids
}

/// Builds [`SimSettings`] from the settings table
/// ([`crate::settings::for_each_setting`]): a field per setting, named by its
/// id and of the type the entry gives, its schema default, and its `get` and
/// `set` arms.
macro_rules! sim_settings {
    ($( $(#[$field_doc:meta])* $id:ident: $field_type:ty { $($spec:tt)* } ),* $(,)?) => {
        /// Everything that decides a run besides the scene file. Each field
        /// is a setting of [`crate::settings::SETTINGS`] under the same id,
        /// where its range, default, flag and URL key are declared; the
        /// struct is built from that table, so they cover each other exactly.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct SimSettings {
            $( $(#[$field_doc])* pub $id: $field_type, )*
        }

        impl Default for SimSettings {
            /// The schema's defaults (the paper's settings).
            fn default() -> Self {
                SimSettings {
                    $( $id: settings::default_of(stringify!($id)), )*
                }
            }
        }

        impl SimSettings {
            /// The value of the setting `id`.
            pub fn get(&self, id: &str) -> Option<SettingValue> {
                match id {
                    $( stringify!($id) => Some(self.$id.to_value()), )*
                    _ => None,
                }
            }

            /// Checks `value` against `spec` into its field; on error
            /// nothing changes.
            fn set_field(
                &mut self,
                spec: &SettingSpec,
                value: &SettingValue,
            ) -> Result<(), SettingError> {
                match spec.id {
                    $( stringify!($id) => self.$id = SettingField::from_value(spec, value)?, )*
                    id => unreachable!("the settings table gives \"{id}\" a field"),
                }
                Ok(())
            }
        }
    };
}
settings::for_each_setting!(sim_settings);

impl SimSettings {
    /// Sets the setting `id` after checking it against the schema (and a
    /// method id against the registry). On error nothing changes.
    pub fn set(&mut self, id: &str, value: SettingValue) -> Result<(), SettingError> {
        let spec = settings::spec(id).ok_or_else(|| SettingError {
            id: "setting",
            message: format!("there is no setting called \"{id}\""),
        })?;
        if spec.kind == SettingKind::Method {
            let id = match &value {
                SettingValue::Text(t) => t.trim(),
                _ => "",
            };
            if method_by_id(id).is_none() && engine_by_id(id).is_none() {
                return Err(settings::unknown_method(id, &contestant_ids()));
            }
        }
        self.set_field(spec, &value)
    }

    /// Parses and sets `id` from text typed by a person.
    pub fn set_text(&mut self, id: &str, text: &str) -> Result<(), SettingError> {
        let spec = settings::spec(id).ok_or_else(|| SettingError {
            id: "setting",
            message: format!("there is no setting called \"{id}\""),
        })?;
        let value = spec.parse(text)?;
        self.set(id, value)
    }

    /// Settings from a link's `key=value` pairs (keys are the schema's URL
    /// keys; others are not settings and are skipped): the defaults with
    /// every valid pair applied, and one problem text per refused pair,
    /// worded as the CLI words it after its own prefix.
    ///
    /// A link that names no solver ran the printed one: every link made
    /// before the accelerated solver was the default (release 0.5.0 and
    /// older) did, so it still does ([`SolverRules::UNNAMED_IN_LINKS`]);
    /// [`Self::to_url_pairs`] always names it.
    pub fn from_url_pairs(pairs: &[(String, String)]) -> (SimSettings, Vec<String>) {
        SimSettings {
            solver: SolverRules::UNNAMED_IN_LINKS,
            ..SimSettings::default()
        }
        .with_url_pairs(pairs)
    }

    /// These settings with a link's valid pairs applied, and one problem
    /// text per refused pair (as [`Self::from_url_pairs`], from `self`
    /// rather than a link's starting point).
    pub fn with_url_pairs(mut self, pairs: &[(String, String)]) -> (SimSettings, Vec<String>) {
        let mut problems = Vec::new();
        for (key, text) in pairs {
            let Some(spec) = settings::spec_by_url_key(key) else {
                continue;
            };
            if let Err(e) = self.set_text(spec.id, text) {
                problems.push(format!("{key}: {e}; using the default"));
            }
        }
        (self, problems)
    }

    /// The settings as a link's `key=value` pairs: those the schema puts
    /// in every link (the method, and the solver: a link that names none
    /// means the printed one, [`Self::from_url_pairs`]), the others where
    /// they differ from the default, in schema order.
    pub fn to_url_pairs(&self) -> Vec<(&'static str, String)> {
        let defaults = SimSettings::default();
        SETTINGS
            .iter()
            .filter_map(|spec| {
                let value = self.get(spec.id)?;
                (spec.in_every_link || defaults.get(spec.id).as_ref() != Some(&value))
                    .then(|| (spec.url_key, settings::SettingSpec::format(&value)))
            })
            .collect()
    }

    /// Checks every setting against the schema (settings built in code or
    /// read through serde bypass `set`).
    pub fn validate(&self) -> Result<(), SettingError> {
        let mut copy = self.clone();
        for spec in SETTINGS {
            let value = self.get(spec.id).expect("every schema id has a field");
            copy.set(spec.id, value)?;
        }
        Ok(())
    }

    /// The registry entry of the chosen method (valid after `validate`);
    /// an error for an engine ([`Self::engine_info`]).
    pub fn method_info(&self) -> Result<&'static MethodInfo, SettingError> {
        method_by_id(&self.method).ok_or_else(|| match engine_by_id(&self.method) {
            Some(engine) => SettingError {
                id: "method",
                message: format!(
                    "{} is an engine, whose contacts come from its adapter (docs/design/engines.md), not a method of this core",
                    engine.name
                ),
            },
            None => settings::unknown_method(&self.method, &contestant_ids()),
        })
    }

    /// The engine chosen as the `method`, if it is one.
    pub fn engine_info(&self) -> Option<&'static EngineInfo> {
        engine_by_id(&self.method)
    }

    /// The tolerances the method reads on `scene` (as loaded with
    /// [`Self::load_options`]): an envelope set in metres replaces the
    /// per-pair relative one; the erosion ε is the one the bodies were
    /// eroded by, else the setting's, else its relative default on `scene`.
    pub fn method_params(&self, scene: &Scene) -> MethodParams {
        let per_pair = MethodParams::per_pair();
        MethodParams {
            epsilon: scene.erosion.or(self.epsilon).unwrap_or_else(|| {
                settings::default_fraction("epsilon") * scene.smallest_free_diagonal()
            }),
            two_way: self.two_way,
            envelope: self.envelope.unwrap_or(per_pair.envelope),
            relative_envelope: per_pair
                .relative_envelope
                .filter(|_| self.envelope.is_none()),
            ..per_pair
        }
    }

    /// The paper's settings: its absolute envelope and erosion ε (1 cm,
    /// Erleben 2018 §6 and §8) in place of the size-relative defaults, and
    /// its solver (the printed Gauss-Seidel, 1000 sweeps), so the paper's
    /// tables and presets keep the paper's numbers.
    pub fn paper() -> SimSettings {
        SimSettings {
            envelope: Some(MethodParams::PAPER_EPSILON),
            epsilon: Some(MethodParams::PAPER_EPSILON),
            solver: SolverRules::Printed,
            ..SimSettings::default()
        }
    }

    /// These settings with the paper's absolute envelope and erosion ε
    /// wherever they are left at their size-relative defaults (a value set
    /// explicitly stays): the base of the paper's tables.
    pub fn with_paper_lengths(&self) -> SimSettings {
        let paper = SimSettings::paper();
        SimSettings {
            envelope: self.envelope.or(paper.envelope),
            epsilon: self.epsilon.or(paper.epsilon),
            ..self.clone()
        }
    }

    /// What the step measures read.
    pub fn measure_settings(&self) -> MeasureSettings {
        MeasureSettings {
            tol_deg: self.tol_deg,
            envelope: self.envelope,
            oracle: self.oracle,
        }
    }

    /// The settings that change the bodies as loaded.
    pub fn load_options(&self) -> Result<LoadOptions, SettingError> {
        let probe = MethodParams {
            epsilon: self.epsilon.unwrap_or(MethodParams::PAPER_EPSILON),
            ..MethodParams::default()
        };
        // An engine collides the bodies as they are.
        let erosion = match self.engine_info() {
            Some(_) => None,
            None => self.method_info()?.erosion(&probe),
        }
        .map(|metres| match self.epsilon {
            Some(_) => Erosion::Metres(metres),
            None => Erosion::OfSmallestFreeBody(settings::default_fraction("epsilon")),
        });
        Ok(LoadOptions {
            refine: self.refine,
            erosion,
            perturb: self.perturb,
            seed: self.seed,
            mesher: self.mesher,
        })
    }
}

/// Starts engines' adapters, for library code that needs an engine's
/// contacts but runs no process itself (the tables, `crate::report`): the
/// front end that can run adapters (the CLI, in Node) implements it and
/// hands it in.
pub trait EngineRunner {
    /// `engine`'s adapter on `scene` at its initial pose, with the time
    /// step and friction of `settings`, in `mode`.
    fn start(
        &self,
        engine: &'static EngineInfo,
        mode: EngineMode,
        scene: &Scene,
        settings: &SimSettings,
    ) -> Result<Box<dyn ContactSource>, String>;
}

#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    /// A setting is refused by the schema or the registry.
    Setting(SettingError),
    /// The scene failed to load.
    Scene(String),
    /// The state became non-finite during this step.
    BlewUp {
        step: u64,
        body: String,
        /// The likely causes, as a sentence.
        causes: String,
    },
    /// The run diverged at `step` (see [`StepRecord::diverged`]) and was
    /// stepped again.
    Diverged { step: u64, message: String },
    /// The method is listed but its algorithm is not compiled into this
    /// build (the page's lean wasm module leaves parry out).
    NotInThisBuild(MissingAlgorithm),
    /// A run of a contact file was stepped past the file's last step.
    FileEnded { file: String, last_step: u64 },
    /// An engine's adapter failed, or no adapter was started: the sentence
    /// says which engine and why.
    Engine(String),
    /// Contact detection passed its budget (`contact::budget`); the step
    /// was undone. The sentence names the bodies and the budget.
    OverBudget(String),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Setting(e) => write!(f, "{}: {}", e.id, e.message),
            SimError::Scene(m) => f.write_str(m),
            SimError::BlewUp { step, body, causes } => write!(f, "the simulation blew up at step {step}: body \"{body}\" has a non-finite position or velocity. {causes}"),
            SimError::Diverged { message, .. } => f.write_str(message),
            SimError::NotInThisBuild(missing) => missing.fmt(f),
            SimError::FileEnded { file, last_step } => write!(f, "{file} has no contacts after step {last_step}: the run ends there"),
            SimError::Engine(m) | SimError::OverBudget(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SimError {}

impl From<SettingError> for SimError {
    fn from(e: SettingError) -> Self {
        SimError::Setting(e)
    }
}

impl From<MissingAlgorithm> for SimError {
    fn from(e: MissingAlgorithm) -> Self {
        SimError::NotInThisBuild(e)
    }
}

/// What one step produced (`docs/design/measures.md`, "Per step"). Serialised, it
/// is a line of `contactlab run --json` and the page's step record (which
/// adds the measures' distributions); its keys are the page's
/// `data-readout` names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepRecord {
    pub step: u64,
    pub time: f64,
    /// The measures of the step's contacts: count, correct, quality,
    /// coverage, area coverage and excess, under their own keys (the
    /// distributions the page plots are not part of the record's JSON).
    #[serde(flatten)]
    pub measures: StepMeasures,
    /// The most negative contact depth: the method's own depth estimate,
    /// not a measure of the bodies (`penetration` is).
    pub min_depth: Option<f64>,
    /// The bodies' deepest real overlap at the end of the step, in metres
    /// (0 when none overlap): the judges' geometric measure
    /// (`measures::overlap`), which shares no code with the methods.
    pub penetration: f64,
    pub kinetic_energy: f64,
    /// Largest distance of a free body's centre from where it started.
    pub max_displacement: f64,
    /// The name of the free body whose centre moved most (the one
    /// `max_displacement` measures), so a fall is traced to its stone; none
    /// in a scene without free bodies.
    pub moved_most: Option<String>,
    /// For scenes meant to rest (oracles `up`, `wall`, `arch`): whether every
    /// free body is still within `Scene::standing_tolerance` of its start.
    pub standing: Option<bool>,
    pub iterations: u32,
    pub residual: f64,
    pub ms_broad: f64,
    pub ms_method: f64,
    pub ms_solver: f64,
    /// The geometric oracle's time on the step's contacts (a judge's cost,
    /// not the method's).
    pub ms_oracle: f64,
    /// Set when this step's kinetic energy or displacement passed the
    /// scene's divergence bounds: the message, naming the likely cause. The
    /// run is paused: the next `step` is refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diverged: Option<String>,
    /// Pairs the method could not judge, one message per body at fault:
    /// "not applicable: <body> is not convex" (SAT-MTD on a non-convex body).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_applicable: Vec<String>,
    /// Contacts refused for an indeterminate normal (SAT-MTD: vertex–vertex,
    /// vertex–edge, parallel edge–edge; Cheng Yi & Drumwright, §III-B).
    pub indeterminate: usize,
    /// Whether the record is of a dynamics step. A contact file's step 0,
    /// and every step of a file with its own poses, is measured at given
    /// poses with no step taken: its JSON ([`StepRecord::to_json`]) leaves
    /// out the keys of [`DYNAMICS_KEYS`], which would describe a solve that
    /// did not happen.
    #[serde(skip)]
    pub dynamics: bool,
}

/// The keys of a step record that only a dynamics step has.
pub const DYNAMICS_KEYS: [&str; 4] = ["kinetic_energy", "iterations", "residual", "ms_solver"];

impl StepRecord {
    /// The record as the CLI prints it and the page reads it: its fields
    /// under their keys, without [`DYNAMICS_KEYS`] when no step was taken.
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        if let (false, Some(fields)) = (self.dynamics, value.as_object_mut()) {
            fields.retain(|key, _| !DYNAMICS_KEYS.contains(&key.as_str()));
        }
        value
    }
}

/// Means over a run's step records: the count over every step; quality,
/// coverage, area coverage and excess over the steps with contacts (as the
/// paper's table 8 takes them) where each is defined; and the deepest
/// overlap.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunMeans {
    pub steps: usize,
    pub steps_with_contacts: usize,
    pub count: Option<f64>,
    pub quality: Option<f64>,
    pub coverage: Option<f64>,
    pub area_coverage: Option<f64>,
    pub excess: Option<f64>,
    pub geo_quality: Option<f64>,
    pub geo_coverage: Option<f64>,
    pub geo_excess: Option<f64>,
    /// The deepest overlap of any step.
    pub max_penetration: f64,
}

impl RunMeans {
    pub fn of(records: &[StepRecord]) -> RunMeans {
        let with_contacts: Vec<&StepRecord> =
            records.iter().filter(|r| r.measures.count > 0).collect();
        let mean = |pick: &dyn Fn(&StepRecord) -> Option<f64>| {
            let values: Vec<f64> = with_contacts.iter().filter_map(|r| pick(r)).collect();
            (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
        };
        fn m(r: &StepRecord) -> &StepMeasures {
            &r.measures
        }
        RunMeans {
            steps: records.len(),
            steps_with_contacts: with_contacts.len(),
            count: (!records.is_empty()).then(|| {
                records.iter().map(|r| r.measures.count as f64).sum::<f64>() / records.len() as f64
            }),
            quality: mean(&|r| m(r).quality),
            coverage: mean(&|r| m(r).coverage),
            area_coverage: mean(&|r| m(r).area_coverage),
            excess: mean(&|r| m(r).excess),
            geo_quality: mean(&|r| m(r).geo_quality),
            geo_coverage: mean(&|r| m(r).geo_coverage),
            geo_excess: mean(&|r| m(r).geo_excess),
            max_penetration: records.iter().map(|r| r.penetration).fold(0.0, f64::max),
        }
    }
}

/// The method of a run: a method of the registry with what it remembers
/// across steps, the reference with the exact contacts it carries, or a
/// contact file's contacts.
enum ActiveMethod {
    Method(&'static MethodInfo, MethodHistory),
    Reference(ReferenceContacts),
    /// A contact file (`contact_file`). Without poses its step k's contacts
    /// are the contacts of the run's step k, found (by someone else) at
    /// the step's midpoint poses, and the solver steps with them: the file
    /// is the method. With poses, no step is taken: each step of the file
    /// is measured at its own poses.
    Imported(Box<ContactFile>),
    /// An engine's contacts, from its adapter (`engines`): at our poses,
    /// our solver stepping with them; or, in its own run, at its poses.
    Engine {
        info: &'static EngineInfo,
        mode: EngineMode,
        source: Box<dyn ContactSource>,
        /// The first failure of the adapter during a step's detection,
        /// reported once the step is undone.
        failure: Option<String>,
    },
}

pub struct Simulation {
    scene: Scene,
    settings: SimSettings,
    method: ActiveMethod,
    params: MethodParams,
    bodies: Vec<RigidBody>,
    start: Vec<DVec3>,
    dt: f64,
    /// The `mu` setting when given (it overrides every pair's own), else
    /// `None`: each pair then has the scene's coefficient for it.
    mu: Option<f64>,
    step: u64,
    contacts: Vec<Contact>,
    /// The last step's regions, for region methods.
    regions: Vec<PairRegion>,
    qualities: Vec<ContactQuality>,
    /// Last step's impulses for warm starting (a sorted map: its order never
    /// matters, lookups only).
    warm: BTreeMap<WarmKey, DVec3>,
    /// The bounds past which the run counts as diverged.
    bounds: DivergenceBounds,
    /// The message of the step that diverged, once one has.
    diverged: Option<String>,
    /// The judges' measure of how far the bodies overlap.
    overlap: OverlapMeter,
    /// The geometric oracle of the scene's bodies.
    geometric: GeometricOracle,
    /// The poses the last step's contacts were found at (its midpoint), for
    /// measuring them again.
    contact_poses: Vec<Pose>,
    /// The record of step 0 when the run has one: a contact file's contacts
    /// at the start (its own poses, or the scene's).
    start_record: Option<StepRecord>,
}

/// Scene-relative bounds of a run that has gone wrong: kinetic energy far
/// beyond anything gravity and the initial velocities can supply over the
/// scene's height, or a body gone far out of the scene.
#[derive(Clone, Copy, Debug)]
struct DivergenceBounds {
    /// The scene's length: the diagonal of its free bodies and what they
    /// rest on (`Scene::focus_bounds`).
    length: f64,
    /// Σ over free bodies of m (|g| L + |v₀|² + |ω₀|² L² + L²/s²): the energy
    /// a body can gain by falling the scene's height, plus what it starts
    /// with, plus a floor for a scene without gravity or motion.
    energy: f64,
}

/// How many times the energy scale, and the length, a run may reach.
const DIVERGED_ENERGY_FACTOR: f64 = 100.0;
const DIVERGED_LENGTH_FACTOR: f64 = 100.0;

impl DivergenceBounds {
    fn of(scene: &Scene) -> DivergenceBounds {
        let (lo, hi) = scene.focus_bounds();
        let length = (hi - lo).length().max(f64::MIN_POSITIVE);
        let g = scene.gravity.length();
        let energy = scene
            .bodies
            .iter()
            .filter(|b| !b.fixed)
            .map(|b| {
                b.mass.mass
                    * (g * length
                        + b.velocity.length_squared()
                        + b.angular_velocity.length_squared() * length * length
                        + length * length)
            })
            .sum();
        DivergenceBounds { length, energy }
    }
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
            let group = (c.a, c.b, c.source_a, c.source_b, c.features);
            let ordinal = seen.entry(group).or_insert(0);
            *ordinal += 1;
            (group.0, group.1, group.2, group.3, group.4, *ordinal - 1)
        })
        .collect()
}

/// A scene body as the dynamics sees it: its pose, velocities and mass
/// properties.
/// Bodies that overlap at the start by more than this fraction of the
/// scene's length get a notice: a millionth of a millionth of it, above
/// rounding in the positions of bodies that merely touch, below any overlap
/// someone typed (a micrometre in a 5 m scene).
const START_OVERLAP_RELATIVE: f64 = 1e-9;

/// The notices of bodies that overlap at the start, deepest first: the first
/// three pairs by name and depth, then how many more.
fn overlap_notices(scene: &Scene, overlaps: &[BodyOverlap]) -> Vec<String> {
    const NAMED: usize = 3;
    let name = |i: usize| scene.bodies[i].name.as_str();
    let mut notices: Vec<String> = overlaps
        .iter()
        .take(NAMED)
        .map(|o| {
            format!(
                "bodies \"{}\" and \"{}\" overlap by {}{} at the start; the scene loads as written, and the solver will push them apart",
                name(o.a),
                name(o.b),
                if o.exact { "" } else { "at least " },
                human_length(o.depth)
            )
        })
        .collect();
    if overlaps.len() > NAMED {
        notices.push(format!(
            "{} more pairs of bodies overlap at the start, the deepest by {}",
            overlaps.len() - NAMED,
            human_length(overlaps[NAMED].depth)
        ));
    }
    notices
}

/// A length for a person: three significant figures in m, mm or µm.
fn human_length(metres: f64) -> String {
    let (value, unit) = if metres >= 0.01 {
        (metres, "m")
    } else if metres >= 1e-5 {
        (metres * 1e3, "mm")
    } else {
        (metres * 1e6, "µm")
    };
    let decimals = (2 - value.log10().floor() as i32).max(0) as usize;
    format!("{value:.decimals$} {unit}")
}

fn rigid_body(body: &SceneBody) -> RigidBody {
    RigidBody::new(
        (body.position, body.rotation),
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
        let method = ActiveMethod::Engine {
            info,
            mode,
            source,
            failure: None,
        };
        let mut sim = Simulation::with_method(scene, settings, method)?;
        if mode == EngineMode::Own {
            let record = sim.own_step(0)?;
            sim.start_record = Some(record);
        }
        Ok(sim)
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
        match &self.method {
            ActiveMethod::Engine { info, mode, .. } => Some((info, *mode)),
            _ => None,
        }
    }

    /// One step of the engine's own run, measured at the poses it started
    /// from, recorded as step `step`.
    fn own_step(&mut self, step: u64) -> Result<StepRecord, SimError> {
        let ActiveMethod::Engine { info, source, .. } = &mut self.method else {
            unreachable!("only an engine has its own run");
        };
        let (poses, contacts) = source
            .own_step()
            .map_err(|e| SimError::Engine(format!("{}: {e}", info.name)))?;
        if poses.len() != self.bodies.len() {
            return Err(SimError::Engine(format!(
                "{} gave {} poses for {} bodies",
                info.name,
                poses.len(),
                self.bodies.len()
            )));
        }
        self.place_bodies(&poses);
        Ok(self.measure_at(step, poses, contacts))
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
        let method = match info.algorithm {
            Algorithm::TetPair(_) | Algorithm::BodyPair(_) => {
                ActiveMethod::Method(info, MethodHistory::default())
            }
            Algorithm::ExactReference => {
                ActiveMethod::Reference(ReferenceContacts::from_scene(&scene))
            }
            Algorithm::NotInThisBuild { feature, .. } => {
                return Err(SimError::NotInThisBuild(MissingAlgorithm {
                    method: info.id,
                    feature,
                }))
            }
        };
        Simulation::with_method(scene, settings, method)
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
        let mut sim =
            Simulation::with_method(scene, settings, ActiveMethod::Imported(Box::new(file)))?;
        sim.start_record = sim.measure_start();
        Ok(sim)
    }

    fn with_method(
        mut scene: Scene,
        settings: SimSettings,
        method: ActiveMethod,
    ) -> Result<Simulation, SimError> {
        let params = settings.method_params(&scene);
        let bounds = DivergenceBounds::of(&scene);
        let bodies: Vec<RigidBody> = scene.bodies.iter().map(rigid_body).collect();
        let start = bodies.iter().map(|b| b.position).collect();
        let dt = settings.dt.unwrap_or(scene.settings.dt);
        let mu = settings.mu;
        let overlap = OverlapMeter::new(&scene);
        let geometric = GeometricOracle::new(&scene);
        let start_overlaps = overlap.overlaps(
            &scene,
            &bodies
                .iter()
                .map(|b| (b.position, b.rotation))
                .collect::<Vec<_>>(),
            bounds.length * START_OVERLAP_RELATIVE,
        );
        scene
            .notices
            .extend(overlap_notices(&scene, &start_overlaps));
        Ok(Simulation {
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
            regions: Vec::new(),
            qualities: Vec::new(),
            warm: BTreeMap::new(),
            bounds,
            diverged: None,
            overlap,
            geometric,
            contact_poses: Vec::new(),
            start_record: None,
        })
    }

    /// The contact file the run's contacts come from, if they do.
    pub fn contact_file(&self) -> Option<&ContactFile> {
        match &self.method {
            ActiveMethod::Imported(file) => Some(file),
            _ => None,
        }
    }

    /// The record of step 0: a contact file's contacts at the start,
    /// measured. `None` for a method's run (its first record is step 1's).
    pub fn start_record(&self) -> Option<&StepRecord> {
        self.start_record.as_ref()
    }

    /// The poses of a contact file's step, when the file has its own.
    fn file_poses(&self, step: u64) -> Option<Vec<Pose>> {
        match &self.method {
            ActiveMethod::Imported(file) => file.poses.as_ref()?.get(&step).cloned(),
            _ => None,
        }
    }

    /// Measures a contact file's step 0, if it has one: at the file's poses
    /// for it, or the scene's.
    fn measure_start(&mut self) -> Option<StepRecord> {
        let ActiveMethod::Imported(file) = &self.method else {
            return None;
        };
        let has_start = file.covers(0) || file.poses.as_ref().is_some_and(|p| p.contains_key(&0));
        if !has_start {
            return None;
        }
        let contacts = file.contacts_at(0).to_vec();
        let poses = match self.file_poses(0) {
            Some(poses) => {
                self.place_bodies(&poses);
                poses
            }
            None => self
                .bodies
                .iter()
                .map(|b| (b.position, b.rotation))
                .collect(),
        };
        Some(self.measure_at(0, poses, contacts))
    }

    /// Puts the bodies at `poses`, at rest: a file's poses say nothing of
    /// velocities.
    fn place_bodies(&mut self, poses: &[Pose]) {
        for (body, (position, rotation)) in self.bodies.iter_mut().zip(poses) {
            body.position = *position;
            body.rotation = *rotation;
            body.velocity = DVec3::ZERO;
            body.angular_velocity = DVec3::ZERO;
        }
    }

    /// The record of `contacts` measured at `poses` with no step taken (a
    /// contact file's step 0, or a step of a file with its own poses).
    fn measure_at(&mut self, step: u64, poses: Vec<Pose>, contacts: Vec<Contact>) -> StepRecord {
        let (qualities, measures, ms_oracle) = self.judge(&contacts, &poses);
        let (max_displacement, moved_most) = self.max_displacement(&poses);
        let record = StepRecord {
            step,
            time: step as f64 * self.dt,
            measures,
            min_depth: contacts.iter().map(|c| c.depth).reduce(f64::min),
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
            ms_oracle,
            diverged: None,
            not_applicable: Vec::new(),
            indeterminate: 0,
            dynamics: false,
        };
        self.step = step;
        self.contacts = contacts;
        self.regions = Vec::new();
        self.qualities = qualities;
        self.contact_poses = poses;
        record
    }

    /// The judges' verdicts on `contacts` at `poses` (both oracles, with the
    /// run's Measure-stage settings), and the geometric oracle's time.
    fn judge(
        &self,
        contacts: &[Contact],
        poses: &[Pose],
    ) -> (Vec<ContactQuality>, StepMeasures, f64) {
        let oracle_start = now_ms();
        let geo = self.geometric.judge_step(
            contacts,
            poses,
            oracle_envelope(self.settings.envelope),
            self.settings.tol_deg,
        );
        let ms_oracle = now_ms() - oracle_start;
        let (qualities, measures) = measures_of_step(
            &self.scene,
            contacts,
            poses,
            &geo,
            &self.settings.measure_settings(),
        );
        (qualities, measures, ms_oracle)
    }

    /// Largest distance of a free body's centre at `poses` from where it
    /// started, and that body's name (the first of equals).
    fn max_displacement(&self, poses: &[Pose]) -> (f64, Option<String>) {
        let moved = poses
            .iter()
            .zip(&self.start)
            .zip(&self.scene.bodies)
            .filter(|(_, body)| !body.fixed)
            .map(|((p, s), body)| ((p.0 - *s).length(), body));
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
    fn standing(&self, max_displacement: f64) -> Option<bool> {
        matches!(
            self.scene.oracle,
            Oracle::Up { .. } | Oracle::Wall { .. } | Oracle::Arch { .. }
        )
        .then(|| max_displacement <= self.scene.standing_tolerance())
    }

    /// The next step of a contact file with its own poses, measured at
    /// them; or the end of the file.
    fn step_through_poses(&mut self) -> Result<StepRecord, SimError> {
        let ActiveMethod::Imported(file) = &self.method else {
            unreachable!("only a contact file has poses");
        };
        let Some(next) = file.measured_steps().into_iter().find(|s| *s > self.step) else {
            return Err(SimError::FileEnded {
                file: file.name.clone(),
                last_step: file.last_step(),
            });
        };
        let contacts = file.contacts_at(next).to_vec();
        let poses = self.file_poses(next).unwrap_or_else(|| {
            // `attach_poses` refuses a step with contacts and no poses; a
            // step measured has poses.
            self.bodies
                .iter()
                .map(|b| (b.position, b.rotation))
                .collect()
        });
        self.place_bodies(&poses);
        Ok(self.measure_at(next, poses, contacts))
    }

    /// The likely causes of a run going wrong, from the settings and the
    /// scene's own numbers, as one sentence for the person who must fix it.
    fn likely_causes(&self) -> String {
        let mut causes = Vec::new();
        let scene_dt = self.scene.settings.dt;
        if self.dt > 2.0 * scene_dt || self.dt >= 0.05 {
            causes.push(format!(
                "the time step {} s is large (the scene's own is {scene_dt} s)",
                self.dt
            ));
        }
        if self.settings.iterations < 100 {
            let n = self.settings.iterations;
            let plural = if n == 1 { "" } else { "s" };
            causes.push(format!(
                "only {n} solver iteration{plural} per step (the paper uses 1000)"
            ));
        }
        if self.mu == Some(0.0) && self.scene.settings.friction > 0.0 {
            causes.push(format!(
                "no friction (μ = 0; the scene's own is {})",
                self.scene.settings.friction
            ));
        }
        // The thresholds follow the scene's size L and its own time step,
        // so a uniformly scaled scene (lengths, velocities and gravity × s)
        // gets the same message; for L = 1 m and h = 0.01 s they are the
        // former absolute ones (100 m/s, 100 m/s², a radian per step).
        let g = self.scene.gravity.length();
        let length = self.bounds.length;
        // The speed of a fall through the scene's size, or of moving 1 % of
        // it per step, whichever is larger.
        let speed_scale = (g * length).sqrt().max(0.01 * length / scene_dt);
        let fast = self.scene.bodies.iter().any(|b| {
            !b.fixed
                && (b.velocity.length() > 100.0 * speed_scale
                    || b.angular_velocity.length() * scene_dt > 1.0)
        });
        // Gravity that moves a body from rest by more than 1 % of the
        // scene's size in one step.
        if g * scene_dt * scene_dt > 0.01 * length {
            causes.push(format!("the scene's gravity of {g:.3e} m/s²"));
        }
        if fast {
            causes.push("the scene's initial velocities".to_string());
        }
        let light = self
            .scene
            .bodies
            .iter()
            .any(|b| !b.fixed && (b.density < 1.0 || b.density > 1e5));
        if light {
            causes.push("a density far from that of real materials in the scene file".to_string());
        }
        if causes.is_empty() {
            "Likely cause: the contact method's contacts push the bodies apart, or the scene's own numbers; try a smaller time step or more iterations.".to_string()
        } else {
            format!("Likely cause: {}.", causes.join("; "))
        }
    }

    /// The divergence message for this step's record, if it passed a bound.
    fn divergence(&self, kinetic_energy: f64, max_displacement: f64) -> Option<String> {
        let b = &self.bounds;
        let what = if kinetic_energy > DIVERGED_ENERGY_FACTOR * b.energy {
            format!(
                "the kinetic energy {kinetic_energy:.3e} J is over {DIVERGED_ENERGY_FACTOR} times the scene's energy scale ({:.3e} J)",
                b.energy
            )
        } else if max_displacement > DIVERGED_LENGTH_FACTOR * b.length {
            format!(
                "a body is {max_displacement:.3e} m from where it started, over {DIVERGED_LENGTH_FACTOR} times the scene's size ({:.3e} m)",
                b.length
            )
        } else {
            return None;
        };
        Some(format!(
            "the simulation diverged at step {}: {what}. {} The run is paused; restore the scene's settings to go on.",
            self.step,
            self.likely_causes()
        ))
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

    /// Contacts at `poses`, with the bodies moving at `velocities` (linear,
    /// angular: what the region methods read).
    fn detect(&mut self, poses: &[Pose], velocities: &[(DVec3, DVec3)]) -> ContactSet {
        let at: Vec<BodyAtPose> = self
            .scene
            .bodies
            .iter()
            .zip(poses.iter().zip(velocities))
            .map(|(b, (p, v))| BodyAtPose {
                mesh: &b.mesh,
                position: p.0,
                rotation: p.1,
                fixed: b.fixed,
                velocity: v.0,
                angular_velocity: v.1,
            })
            .collect();
        match &mut self.method {
            ActiveMethod::Method(info, history) => {
                // `from_scene` made this a `Method` only for an algorithm
                // of this build; a detection over its budget comes back as
                // an empty set that says so, and `step` refuses it.
                match detect(&at, info, &self.params, history) {
                    Ok(set) => set,
                    Err(Undetectable::OverBudget(over)) => ContactSet {
                        over_budget: Some(over),
                        ..ContactSet::default()
                    },
                    Err(other) => {
                        unreachable!("from_scene admits only this build's methods: {other}")
                    }
                }
            }
            ActiveMethod::Reference(r) => {
                let start = now_ms();
                let contacts = r.at_pose(&at);
                ContactSet {
                    contacts,
                    ms_method: now_ms() - start,
                    ..ContactSet::default()
                }
            }
            ActiveMethod::Imported(file) => ContactSet {
                // The step being taken is the next one.
                contacts: file.contacts_at(self.step + 1).to_vec(),
                ..ContactSet::default()
            },
            ActiveMethod::Engine {
                info,
                source,
                failure,
                ..
            } => {
                let start = now_ms();
                let contacts = source.contacts_at(poses).unwrap_or_else(|e| {
                    failure.get_or_insert(format!("{}: {e}", info.name));
                    Vec::new()
                });
                ContactSet {
                    contacts,
                    ms_method: now_ms() - start,
                    ..ContactSet::default()
                }
            }
        }
    }

    /// One Moreau midpoint step (`dynamics::stepper::moreau_step`): contacts
    /// at the midpoint, then the proximal Gauss-Seidel solve.
    pub fn step(&mut self) -> Result<StepRecord, SimError> {
        if let Some(message) = &self.diverged {
            return Err(SimError::Diverged {
                step: self.step,
                message: message.clone(),
            });
        }
        if let ActiveMethod::Imported(file) = &self.method {
            if file.poses.is_some() {
                return self.step_through_poses();
            }
            if self.step >= file.last_step() {
                return Err(SimError::FileEnded {
                    file: file.name.clone(),
                    last_step: file.last_step(),
                });
            }
        }
        if let ActiveMethod::Engine {
            mode: EngineMode::Own,
            ..
        } = &self.method
        {
            return self.own_step(self.step + 1);
        }
        // An engine's adapter can fail mid-step, a detection can pass its
        // budget: the step is then undone, and the run keeps its state. The
        // bodies are few and copied every step; the warm-start map only when
        // an engine runs (a detection past its budget skips the solve, which
        // leaves the map as it was).
        let bodies_before = self.bodies.clone();
        let warm_before =
            matches!(self.method, ActiveMethod::Engine { .. }).then(|| self.warm.clone());
        let h = self.dt;
        let solver = SolverSettings {
            iterations: self.settings.iterations,
            tolerance: self.settings.tolerance,
            baumgarte: self.settings.baumgarte,
            rules: self.settings.solver,
        };
        let warm_start = self.settings.warm_start;
        // μ of every body pair, looked up once per step rather than per
        // contact.
        let n = self.scene.bodies.len();
        let mu_of_pair: Vec<f64> = (0..n * n).map(|k| self.mu_between(k / n, k % n)).collect();
        let mut bodies = std::mem::take(&mut self.bodies);
        let mut warm = std::mem::take(&mut self.warm);
        // Detection sees the velocities the step starts with.
        let velocities: Vec<(DVec3, DVec3)> = bodies
            .iter()
            .map(|b| (b.velocity, b.angular_velocity))
            .collect();
        let gravity = self.scene.gravity;
        let gyroscopic = self.settings.gyroscopic;
        let (poses, detected, (stats, ms_solver)) = moreau_step(
            &mut bodies,
            gravity,
            h,
            gyroscopic,
            |poses| self.detect(poses, &velocities),
            |ContactSet {
                 contacts,
                 over_budget,
                 ..
             },
             poses,
             bodies| {
                if over_budget.is_some() {
                    return (SolverStats::default(), 0.0);
                }
                let solver_start = now_ms();
                // A tetrahedron pair can give several contacts of one feature
                // kind (Opposing gives all its intersection points), so the
                // warm-start key also counts them in their (deterministic)
                // order.
                let keys: Vec<WarmKey> = if warm_start {
                    warm_keys(contacts)
                } else {
                    Vec::new()
                };
                let initial: Vec<DVec3> = keys
                    .iter()
                    .map(|k| warm.get(k).copied().unwrap_or(DVec3::ZERO))
                    .collect();
                let mu: Vec<f64> = contacts.iter().map(|c| mu_of_pair[c.a * n + c.b]).collect();
                let (impulses, stats) = solve(bodies, poses, contacts, &mu, &solver, h, &initial);
                if warm_start {
                    warm = keys.into_iter().zip(impulses.iter().copied()).collect();
                }
                (stats, now_ms() - solver_start)
            },
        );
        self.bodies = bodies;
        self.warm = warm;
        if let ActiveMethod::Engine { failure, .. } = &mut self.method {
            if let Some(message) = failure.take() {
                self.bodies = bodies_before;
                self.warm = warm_before.unwrap_or_default();
                return Err(SimError::Engine(message));
            }
        }
        if let Some(over) = detected.over_budget {
            self.bodies = bodies_before;
            return Err(SimError::OverBudget(
                over.message(|i| self.scene.bodies[i].name.clone()),
            ));
        }
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
                causes: self.likely_causes(),
            });
        }

        // Measures of the step's contacts at the midpoint poses, where they
        // were found (the arch oracle's centres, the geometric oracle's
        // bodies).
        let not_applicable =
            detected.not_applicable_messages(|i| self.scene.bodies[i].name.clone());
        let ContactSet {
            contacts,
            regions,
            ms_broad,
            ms_method,
            indeterminate,
            ..
        } = detected;
        let (qualities, measures, ms_oracle) = self.judge(&contacts, &poses);
        let min_depth = contacts.iter().map(|c| c.depth).reduce(f64::min);
        let end_poses: Vec<(DVec3, DQuat)> = self
            .bodies
            .iter()
            .map(|b| (b.position, b.rotation))
            .collect();
        let penetration = self.overlap.deepest(&self.scene, &end_poses);
        let (max_displacement, moved_most) = self.max_displacement(&end_poses);
        let kinetic_energy = self.bodies.iter().map(RigidBody::kinetic_energy).sum();
        let diverged = self.divergence(kinetic_energy, max_displacement);
        let record = StepRecord {
            step: self.step,
            time: self.step as f64 * h,
            measures,
            min_depth,
            penetration,
            kinetic_energy,
            max_displacement,
            moved_most,
            standing: self.standing(max_displacement),
            iterations: stats.iterations,
            residual: stats.residual,
            ms_broad,
            ms_method,
            ms_solver,
            ms_oracle,
            diverged: diverged.clone(),
            not_applicable,
            indeterminate,
            dynamics: true,
        };
        self.diverged = diverged;
        self.contacts = contacts;
        self.regions = regions;
        self.qualities = qualities;
        self.contact_poses = poses;
        Ok(record)
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
        let (qualities, measures, _) = self.judge(&self.contacts, &self.contact_poses);
        self.qualities = qualities;
        Ok(Some(measures))
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
    use crate::contact::FeatureKind;

    /// Built and run by hand with `cargo test --no-default-features --lib
    /// lean_build`: the default build (and so `cargo xtask test`) has the
    /// feature on.
    #[cfg(not(feature = "parry"))]
    #[test]
    fn lean_build_lists_parry_as_a_region_method_and_refuses_to_simulate_it() {
        let parry = method_by_id("parry").expect("parry is listed in every build");
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

    #[test]
    fn warm_keys_tell_apart_contacts_of_one_tetrahedron_pair() {
        let contact = |source_a, features| Contact {
            a: 0,
            b: 1,
            position: DVec3::ZERO,
            normal: DVec3::Y,
            depth: 0.0,
            features,
            source_a,
            source_b: 3,
            region: None,
            kept_normal: false,
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
