//! The settings schema: every setting a run takes, declared once — its id,
//! label, unit, valid range, default, whether it changes the geometry, its
//! CLI flag and URL key, and its help text. The core's validation, the CLI's
//! flags and `--help`, the scene file's `settings`, the page's sliders and
//! its URL parser all read this table, so the same bad value gets the same
//! message everywhere (each front end only prefixes where the value came
//! from: `--dt`, `settings.dt`, `dt=`).
//!
//! The typed settings of a run, [`crate::sim::SimSettings`], are built from
//! the same table ([`for_each_setting`]): one field per setting, named by
//! its id, with its default, `get` and `set`. Adding a setting is one entry
//! of the table.
//!
//! This module is data and validation only; it knows nothing of methods,
//! scenes or simulations.

use std::fmt;

/// What kind of value a setting holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SettingKind {
    /// A real number in `[min, max]`.
    Number,
    /// A whole number in `[min, max]`.
    Integer,
    /// On or off.
    Bool,
    /// A contact method id; the method registry decides which are valid.
    Method,
    /// One of the ids listed in the setting's `choices`.
    Choice,
}

/// Which part of a run a setting affects; commands that stop before that
/// part (the CLI's `exact` and `contacts`) do not take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The bodies as loaded: perturbation, refinement.
    Geometry,
    /// Contact detection: the method and its own settings.
    Detection,
    /// Judging contacts: the angle tolerance.
    Measure,
    /// Time stepping and the solver.
    Dynamics,
}

/// A setting's default value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Default {
    Number(f64),
    Bool(bool),
    Text(&'static str),
    /// The scene's own value (a scene file may set it; see `scene_key`).
    Scene,
    /// A length that follows the bodies' size: this fraction of a body
    /// diagonal (which one, each setting's help says). A uniformly scaled
    /// scene then gets the same contacts, scaled; a value given explicitly
    /// is metres. Like [`Default::Scene`], the field holds `None` until set.
    Relative(f64),
}

impl Default {
    /// Whether the default is no fixed value but one the run works out from
    /// the scene (its own value, or a length relative to its bodies): the
    /// field is an `Option`, empty text means "the default".
    pub fn is_from_scene(self) -> bool {
        matches!(self, Default::Scene | Default::Relative(_))
    }
}

/// One setting, declared once.
#[derive(Debug)]
pub struct SettingSpec {
    /// The field name in [`crate::sim::SimSettings`] and in the page's
    /// settings object.
    pub id: &'static str,
    pub label: &'static str,
    /// What the value is, for messages: "the time step".
    pub noun: &'static str,
    /// SI unit shown after values ("" for none).
    pub unit: &'static str,
    pub kind: SettingKind,
    /// The valid ids of a [`SettingKind::Choice`] setting (empty otherwise).
    pub choices: &'static [&'static str],
    /// The one valid range, inclusive (unused for bool, method and choice).
    pub min: f64,
    pub max: f64,
    pub default: Default,
    /// Whether a slider for it is logarithmic.
    pub log: bool,
    /// Whether a change loads the scene again (it changes the bodies).
    pub rebuild: bool,
    pub stage: Stage,
    pub cli_flag: &'static str,
    pub url_key: &'static str,
    /// Whether every link names it, default or not: the method, and the
    /// solver, whose default changed (a link that names none means the
    /// printed one, `SimSettings::from_url_pairs`).
    pub in_every_link: bool,
    /// Key under `settings` in a scene file that gives the scene's own
    /// value, for settings whose default is [`Default::Scene`].
    pub scene_key: Option<&'static str>,
    pub help: &'static str,
}

/// A parsed setting value.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingValue {
    Number(f64),
    Bool(bool),
    Text(String),
    /// "Use the scene's value" (an empty field or `scene` in a link).
    Scene,
}

/// A value refused by the schema. `Display` gives the message every front
/// end shows after its own prefix.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingError {
    pub id: &'static str,
    pub message: String,
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SettingError {}

/// The settings table: every setting, declared once, in the order the
/// page's panel and `--help` list them. An entry is `id: FieldType { … }`:
/// the id names the setting and its field of [`crate::sim::SimSettings`],
/// whose Rust type follows it (a [`SettingField`]); the braces hold the
/// entry's [`SettingSpec`] fields, those left out taking
/// [`SettingSpec::BLANK`]'s. Doc comments go to the field.
///
/// It is a macro so that both the specs ([`SETTINGS`], below) and the typed
/// struct (with its defaults, `get` and `set`, in `crate::sim`) are built
/// from this one table: `for_each_setting!(then)` hands the table to the
/// macro `then`. The field types are resolved where the struct is built:
/// `Mesher`, `SolverRules` and `EngineMode` belong to modules above this one.
macro_rules! for_each_setting {
    ($then:ident) => {
        $then! {
            /// A method id of the registry (`contactlab methods`).
            method: String {
                label: "Contact method",
                noun: "the contact method",
                kind: SettingKind::Method,
                default: Default::Text("opposing"),
                stage: Stage::Detection,
                cli_flag: "--method",
                url_key: "method",
                in_every_link: true,
                help: "The contact point method (see `contactlab methods`).",
            },
            /// For an engine: its contacts at our poses, or its own run.
            engine: EngineMode {
                label: "Engine's contacts",
                noun: "the engine mode",
                kind: SettingKind::Choice,
                choices: &["ours", "own"],
                default: Default::Text("ours"),
                stage: Stage::Detection,
                cli_flag: "--engine",
                url_key: "engine",
                help: "For an engine (`contactlab methods` lists them): ours, the engine's contacts at our poses with our solver stepping (the paper's protocol), or own, the engine's own simulation with its own solver, its contacts measured at its own poses (docs/design/engines.md). Methods do not read it.",
            },
            /// The mesher of every body; `None` keeps each scene file's choice.
            mesher: Option<Mesher> {
                label: "Mesh",
                noun: "the mesher",
                kind: SettingKind::Choice,
                choices: &["tetgen", "cones", "paper-fine"],
                // The paper's TetGen meshes by default: `Default::Scene` makes every
                // scene file's (and body's) `mesher` count, and a file that names
                // none gets TetGen. `mesher=cones` gives the cone meshes.
                default: Default::Scene,
                rebuild: true,
                stage: Stage::Geometry,
                cli_flag: "--mesher",
                url_key: "mesher",
                help: "How bodies are cut into tetrahedra: tetgen (the paper's meshes, TetGen -pq2.0Y, committed), cones (each surface triangle coned to a kernel point) or paper-fine (TetGen with the section 8.6 refinement switches); by default each scene file's own `mesher` (TetGen when it names none); a value here overrides it. A shape without a committed TetGen mesh falls back to cones, with a notice.",
            },
            perturb: f64 {
                label: "Perturbation",
                noun: "the perturbation",
                unit: "m",
                kind: SettingKind::Number,
                min: 0.0,
                max: 0.1,
                default: Default::Number(0.0),
                rebuild: true,
                stage: Stage::Geometry,
                cli_flag: "--perturb",
                url_key: "perturb",
                help: "Moves every free body sideways by this much, in a seeded random direction (paper section 8.5).",
            },
            seed: u64 {
                label: "Seed",
                noun: "the seed",
                kind: SettingKind::Integer,
                min: 0.0,
                max: 4_294_967_295.0,
                default: Default::Number(1.0),
                rebuild: true,
                stage: Stage::Geometry,
                cli_flag: "--seed",
                url_key: "seed",
                help: "Seed of the perturbation's random directions.",
            },
            refine: u8 {
                label: "Refinement",
                noun: "the refinement level",
                kind: SettingKind::Integer,
                min: 0.0,
                max: 2.0,
                default: Default::Number(0.0),
                rebuild: true,
                stage: Stage::Geometry,
                cli_flag: "--refine",
                url_key: "refine",
                help: "Splits every tetrahedron into 8, this many times (paper section 8.6).",
            },
            /// Erosion ε in metres; `None` takes the relative default.
            epsilon: Option<f64> {
                label: "Erosion ε (Closest points)",
                noun: "the erosion ε",
                unit: "m",
                kind: SettingKind::Number,
                min: 0.001,
                max: 0.05,
                default: Default::Relative(0.01),
                rebuild: true,
                stage: Stage::Detection,
                cli_flag: "--epsilon",
                url_key: "eps",
                help: "How far the Closest points method shrinks every body (paper section 6); it finds contacts up to 2ε apart. By default 1 % of the diagonal of the scene's smallest free body, one ε for every body (the method needs one); the paper's 0.01 m when set.",
            },
            two_way: bool {
                label: "Two-way (Vertex penetration)",
                noun: "two-way vertex penetration",
                kind: SettingKind::Bool,
                default: Default::Bool(false),
                stage: Stage::Detection,
                cli_flag: "--two-way",
                url_key: "twoway",
                help: "Vertex penetration also takes B's vertices inside A, not only A's inside B (the ArtiSynth manual, §7.4.1, figure 7.10: its setting for two deformable bodies).",
            },
            /// Envelope in metres; `None` takes the relative default.
            // Why 1 %: a round fraction, near the paper's 1 cm on its bricks
            // (0.89 cm on the Wall, 0.68 cm on the Pillar). Measured on the
            // thirteen scenes at their measure steps, 1 % changes no
            // Semi-local answer, while 0.25 % and 0.5 % turn the spikes and
            // wedges cases' step-1 quality to 33–50 %: those scenes were
            // built around the paper's absolute 1 cm.
            envelope: Option<f64> {
                label: "Envelope (Region analysis, parry)",
                noun: "the envelope",
                unit: "m",
                kind: SettingKind::Number,
                min: 0.0001,
                max: 0.1,
                default: Default::Relative(0.01),
                log: true,
                stage: Stage::Detection,
                cli_flag: "--envelope",
                url_key: "env",
                help: "How close two B-rep features must come for Region analysis to count them as touching (Bouma & Vaněček assumes exact touching; a simulation never is), the prediction distance of parry (it reports contacts up to this far apart, like Rapier's), and the geometric oracle's ε (features this close touch). By default 1 % of the smaller body's diagonal, for each pair of bodies; the paper's ε = 0.01 m when set.",
            },
            tol_deg: f64 {
                label: "Angle tolerance",
                noun: "the angle tolerance",
                unit: "°",
                kind: SettingKind::Number,
                min: 0.1,
                max: 10.0,
                default: Default::Number(1.0),
                stage: Stage::Measure,
                cli_flag: "--tol-deg",
                url_key: "tol",
                help: "A contact normal counts as correct when it is within this angle of a right normal.",
            },
            /// The oracle of the headline measures: the scene's own, or the
            /// geometric oracle (`docs/design/oracle.md`).
            oracle: OracleChoice {
                label: "Oracle",
                noun: "the oracle",
                kind: SettingKind::Choice,
                choices: &["scene", "geometric"],
                default: Default::Text("scene"),
                stage: Stage::Measure,
                cli_flag: "--oracle",
                url_key: "oracle",
                help: "Which oracle judges the headline quality, coverage, area coverage and excess: scene, the scene's own answer (the paper's), or geometric, the right normals derived from the bodies' surfaces at each step (docs/design/oracle.md). A scene without an oracle of its own (a user's file, the sphere scenes) is always judged by the geometric oracle; both sets of numbers are in every step record.",
            },
            /// Time step in seconds; `None` takes the scene's.
            dt: Option<f64> {
                label: "Time step",
                noun: "the time step",
                unit: "s",
                kind: SettingKind::Number,
                min: 0.0001,
                max: 0.1,
                default: Default::Scene,
                log: true,
                stage: Stage::Dynamics,
                cli_flag: "--dt",
                url_key: "dt",
                scene_key: Some("dt"),
                help: "Length of one simulation step (paper section 8.7); the scene's own value by default.",
            },
            iterations: u32 {
                label: "Solver iterations",
                noun: "the number of solver iterations",
                kind: SettingKind::Integer,
                min: 1.0,
                max: 100_000.0,
                default: Default::Number(1000.0),
                log: true,
                stage: Stage::Dynamics,
                cli_flag: "--iterations",
                url_key: "iters",
                help: "Gauss-Seidel sweeps per step (the paper forces 1000); the accelerated solver's ceiling.",
            },
            /// Coulomb friction coefficient; `None` takes the scene's.
            mu: Option<f64> {
                label: "Friction μ",
                noun: "the friction coefficient",
                kind: SettingKind::Number,
                min: 0.0,
                max: 2.0,
                default: Default::Scene,
                stage: Stage::Dynamics,
                cli_flag: "--mu",
                url_key: "mu",
                scene_key: Some("friction"),
                help: "Coulomb friction coefficient of every contact; the scene's own value by default (0.5 in the paper's scenes; a scene may give some body pairs their own, as the sphere benchmarks do). When set, it overrides every pair's own value too.",
            },
            warm_start: bool {
                label: "Warm start",
                noun: "warm starting",
                kind: SettingKind::Bool,
                default: Default::Bool(false),
                stage: Stage::Dynamics,
                cli_flag: "--warm-start",
                url_key: "warm",
                help: "Start each solve from the previous step's impulses (off in the paper; an ideal tall stack needs it to converge in 1000 sweeps).",
            },
            tolerance: f64 {
                label: "Solver tolerance",
                noun: "the solver tolerance",
                kind: SettingKind::Number,
                min: 0.0,
                max: 1.0,
                default: Default::Number(0.0),
                stage: Stage::Dynamics,
                cli_flag: "--tolerance",
                url_key: "soltol",
                help: "Gauss-Seidel stops once the largest impulse change is below this (0: every sweep, as the paper); the accelerated solver once its relative residual is (never below 1e-9).",
            },
            /// The accelerated solver, the printed proximal Gauss-Seidel
            /// (`docs/design/solver.md`) or the paper's code's.
            solver: SolverRules {
                label: "Solver",
                noun: "the solver variant",
                kind: SettingKind::Choice,
                choices: &["accelerated", "printed", "paper-code"],
                default: Default::Text("accelerated"),
                stage: Stage::Dynamics,
                cli_flag: "--solver",
                url_key: "solver",
                in_every_link: true,
                help: "accelerated (the default): an accelerated projected gradient that stops once converged (docs/design/solver.md). printed: the paper's Gauss-Seidel, which its tables, presets and links that name no solver run. paper-code: as the paper's code runs it (docs/design/reference-code.md).",
            },
            baumgarte: f64 {
                label: "Baumgarte β",
                noun: "the Baumgarte factor",
                kind: SettingKind::Number,
                min: 0.0,
                max: 1.0,
                default: Default::Number(0.0),
                stage: Stage::Dynamics,
                cli_flag: "--baumgarte",
                url_key: "baumgarte",
                help: "Fraction of the penetration depth corrected per step (0: no stabilisation, the paper's setting).",
            },
            gyroscopic: bool {
                label: "Gyroscopic term",
                noun: "the gyroscopic term",
                kind: SettingKind::Bool,
                default: Default::Bool(false),
                stage: Stage::Dynamics,
                cli_flag: "--gyroscopic",
                url_key: "gyro",
                help: "Integrate Euler's equations (ω × Iω) with the energy-conserving midpoint rule (off in the paper).",
            },
        }
    };
}
pub(crate) use for_each_setting;

/// Builds [`SETTINGS`] from the table: each entry's spec, with its id.
macro_rules! setting_specs {
    ($( $(#[$field_doc:meta])* $id:ident: $field_type:ty { $($spec:tt)* } ),* $(,)?) => {
        /// Every setting, in the order the page's panel and `--help` list
        /// them.
        pub static SETTINGS: &[SettingSpec] = &[
            $( SettingSpec { id: stringify!($id), $($spec)* ..SettingSpec::BLANK } ),*
        ];
    };
}
for_each_setting!(setting_specs);

/// The setting with this id.
pub fn spec(id: &str) -> Option<&'static SettingSpec> {
    SETTINGS.iter().find(|s| s.id == id)
}

/// The schema default of a numeric setting (a programming error for any
/// other id, so it panics: tests cover every caller).
pub fn default_number(id: &str) -> f64 {
    match spec(id).map(|s| s.default) {
        Some(Default::Number(x)) => x,
        other => panic!("setting \"{id}\" has no numeric default ({other:?})"),
    }
}

/// The paper's envelope and erosion ε, 1 cm for bodies of about 1 m
/// (Erleben 2018 §6 and §8): what the size-relative defaults of `envelope`
/// and `epsilon` replace, and what the paper's tables are computed with.
pub const PAPER_EPSILON: f64 = 0.01;

/// The fraction of a body diagonal a size-relative length setting takes by
/// default (a programming error for any other id, so it panics: tests cover
/// every caller).
pub fn default_fraction(id: &str) -> f64 {
    match spec(id).map(|s| s.default) {
        Some(Default::Relative(k)) => k,
        other => panic!("setting \"{id}\" has no size-relative default ({other:?})"),
    }
}

/// The default of a yes/no setting (for code that needs it as a constant).
pub fn default_bool(id: &str) -> bool {
    match spec(id).map(|s| s.default) {
        Some(Default::Bool(b)) => b,
        other => panic!("setting \"{id}\" has no yes/no default ({other:?})"),
    }
}

/// The setting with this URL key.
pub fn spec_by_url_key(key: &str) -> Option<&'static SettingSpec> {
    SETTINGS.iter().find(|s| s.url_key == key)
}

/// The setting with this CLI flag.
pub fn spec_by_flag(flag: &str) -> Option<&'static SettingSpec> {
    SETTINGS.iter().find(|s| s.cli_flag == flag)
}

/// The setting whose scene-file key is `key`.
pub fn spec_by_scene_key(key: &str) -> Option<&'static SettingSpec> {
    SETTINGS.iter().find(|s| s.scene_key == Some(key))
}

/// A number as people write it: no trailing ".0", no exponent for the
/// ranges used here.
fn plain(x: f64) -> String {
    format!("{x}")
}

impl SettingSpec {
    /// What a table entry leaves out: no unit, no choices, no range (bool,
    /// method and choice settings have none), a linear slider, no reload of
    /// the scene, in links only when not the default, and no scene-file key. The text fields are empty here; a
    /// test checks that every entry gives its own.
    pub const BLANK: SettingSpec = SettingSpec {
        id: "",
        label: "",
        noun: "",
        unit: "",
        kind: SettingKind::Number,
        choices: &[],
        min: 0.0,
        max: 0.0,
        default: Default::Scene,
        log: false,
        rebuild: false,
        stage: Stage::Geometry,
        cli_flag: "",
        url_key: "",
        in_every_link: false,
        scene_key: None,
        help: "",
    };

    /// The valid range in words, e.g. "from 0.0001 to 0.1 s".
    pub fn range_text(&self) -> String {
        let unit = match self.unit {
            "" => String::new(),
            "°" => "°".to_string(),
            u => format!(" {u}"),
        };
        match self.kind {
            SettingKind::Integer => format!(
                "a whole number from {} to {}{unit}",
                plain(self.min),
                plain(self.max)
            ),
            _ => format!("from {} to {}{unit}", plain(self.min), plain(self.max)),
        }
    }

    /// The refusal of `got` (already written as the person wrote it).
    pub fn refuse(&self, got: &str) -> SettingError {
        let expected = match self.kind {
            SettingKind::Number | SettingKind::Integer => self.range_text(),
            SettingKind::Bool => "on or off (1/0, true/false)".to_string(),
            SettingKind::Method => "a contact method id".to_string(),
            SettingKind::Choice => format!("one of {}", self.choices.join(", ")),
        };
        let scene = match self.default {
            Default::Scene => ", or empty for the scene's value",
            Default::Relative(_) => ", or empty for the size-relative default",
            _ => "",
        };
        SettingError {
            id: self.id,
            message: format!("{} must be {expected}{scene}, got {got}", self.noun),
        }
    }

    /// Checks a number against the kind and range (scene files and typed
    /// settings go through here; text goes through [`Self::parse`]).
    pub fn check_number(&self, x: f64) -> Result<f64, SettingError> {
        let whole = self.kind != SettingKind::Integer || x.fract() == 0.0;
        if x.is_finite() && x >= self.min && x <= self.max && whole {
            Ok(x)
        } else {
            Err(self.refuse(&crate::number_text::readable(x)))
        }
    }

    /// Parses a value typed by a person (a CLI argument, a URL value, a
    /// slider's text field).
    pub fn parse(&self, text: &str) -> Result<SettingValue, SettingError> {
        let trimmed = text.trim();
        let quoted = || format!("\"{text}\"");
        match self.kind {
            SettingKind::Bool => match trimmed {
                "1" | "true" | "on" | "yes" => Ok(SettingValue::Bool(true)),
                "0" | "false" | "off" | "no" => Ok(SettingValue::Bool(false)),
                _ => Err(self.refuse(&quoted())),
            },
            SettingKind::Method => {
                if trimmed.is_empty() {
                    Err(self.refuse(&quoted()))
                } else {
                    Ok(SettingValue::Text(trimmed.to_string()))
                }
            }
            SettingKind::Choice => {
                if self.default == Default::Scene && (trimmed.is_empty() || trimmed == "scene") {
                    Ok(SettingValue::Scene)
                } else if self.choices.contains(&trimmed) {
                    Ok(SettingValue::Text(trimmed.to_string()))
                } else {
                    Err(self.refuse(&quoted()))
                }
            }
            SettingKind::Number | SettingKind::Integer => {
                if self.default.is_from_scene() && (trimmed.is_empty() || trimmed == "scene") {
                    return Ok(SettingValue::Scene);
                }
                // Rust's parser takes "inf" and "NaN"; the range check then
                // refuses them with the same message as any other number.
                // A refused number is echoed as typed (its f64 may differ:
                // 18446744073709551616 is 18446744073709552000), unless
                // the text is too long to read.
                match trimmed.parse::<f64>() {
                    Ok(x) => self.check_number(x).map(SettingValue::Number).map_err(|e| {
                        if trimmed.len() <= 24 {
                            self.refuse(trimmed)
                        } else {
                            e
                        }
                    }),
                    Err(_) => Err(self.refuse(&quoted())),
                }
            }
        }
    }

    /// The value as text, the inverse of [`Self::parse`].
    pub fn format(value: &SettingValue) -> String {
        match value {
            SettingValue::Number(x) => plain(*x),
            SettingValue::Bool(b) => if *b { "1" } else { "0" }.to_string(),
            SettingValue::Text(t) => t.clone(),
            SettingValue::Scene => String::new(),
        }
    }

    /// The default as a value.
    pub fn default_value(&self) -> SettingValue {
        match self.default {
            Default::Number(x) => SettingValue::Number(x),
            Default::Bool(b) => SettingValue::Bool(b),
            Default::Text(t) => SettingValue::Text(t.to_string()),
            Default::Scene | Default::Relative(_) => SettingValue::Scene,
        }
    }
}

/// The message for a method id the registry does not know, shared by every
/// front end.
pub fn unknown_method(id: &str, known: &[&str]) -> SettingError {
    SettingError {
        id: "method",
        message: format!(
            "the contact method must be one of {}, got \"{id}\"",
            known.join(", ")
        ),
    }
}

/// The Rust type of a setting's field in [`crate::sim::SimSettings`]: how
/// the field reads as a [`SettingValue`] and how a value is checked into it
/// under the setting's spec. Each type a table entry names implements it:
/// the numbers, `bool`, `String` (the method id) and `Option<f64>` ("the
/// scene's value" is `None`) here, and every [`Choice`] with its `Option`.
pub trait SettingField: Sized {
    fn to_value(&self) -> SettingValue;
    /// The field's value, or the schema's refusal of `value`.
    fn from_value(spec: &SettingSpec, value: &SettingValue) -> Result<Self, SettingError>;
}

/// The type of a choice setting's field: an enum whose ids are the
/// setting's `choices` (the mesher, the solver variant).
pub trait Choice: Sized + Copy {
    fn id(self) -> &'static str;
    fn from_id(id: &str) -> Option<Self>;
}

/// The schema default of setting `id` as its field's type (a programming
/// error for an unknown id or a default the type cannot hold, so it
/// panics: tests cover every caller).
pub fn default_of<T: SettingField>(id: &str) -> T {
    let spec = spec(id).unwrap_or_else(|| panic!("there is no setting \"{id}\""));
    T::from_value(spec, &spec.default_value())
        .unwrap_or_else(|e| panic!("the default of \"{id}\" does not fit its field: {e}"))
}

/// A number from a value: checked against the kind and range, or parsed
/// from text. Integers are whole and in range once it accepted them.
fn number_of(spec: &SettingSpec, value: &SettingValue) -> Result<f64, SettingError> {
    match value {
        SettingValue::Number(x) => spec.check_number(*x),
        SettingValue::Text(t) => match spec.parse(t)? {
            SettingValue::Number(x) => Ok(x),
            _ => Err(spec.refuse(&format!("\"{t}\""))),
        },
        other => Err(spec.refuse(&format!("{other:?}"))),
    }
}

impl SettingField for f64 {
    fn to_value(&self) -> SettingValue {
        SettingValue::Number(*self)
    }

    fn from_value(spec: &SettingSpec, value: &SettingValue) -> Result<Self, SettingError> {
        number_of(spec, value)
    }
}

/// Whole-number fields: the schema's range keeps the value within the type.
macro_rules! whole_number_fields {
    ($($t:ty),*) => {$(
        impl SettingField for $t {
            fn to_value(&self) -> SettingValue {
                SettingValue::Number(*self as f64)
            }

            fn from_value(spec: &SettingSpec, value: &SettingValue) -> Result<Self, SettingError> {
                number_of(spec, value).map(|x| x as $t)
            }
        }
    )*};
}
whole_number_fields!(u8, u32, u64);

impl SettingField for Option<f64> {
    fn to_value(&self) -> SettingValue {
        self.map_or(SettingValue::Scene, SettingValue::Number)
    }

    fn from_value(spec: &SettingSpec, value: &SettingValue) -> Result<Self, SettingError> {
        match value {
            SettingValue::Scene => Ok(None),
            other => number_of(spec, other).map(Some),
        }
    }
}

impl SettingField for bool {
    fn to_value(&self) -> SettingValue {
        SettingValue::Bool(*self)
    }

    fn from_value(spec: &SettingSpec, value: &SettingValue) -> Result<Self, SettingError> {
        match value {
            SettingValue::Bool(b) => Ok(*b),
            SettingValue::Text(t) => match spec.parse(t)? {
                SettingValue::Bool(b) => Ok(b),
                _ => Err(spec.refuse(&format!("\"{t}\""))),
            },
            other => Err(spec.refuse(&format!("{other:?}"))),
        }
    }
}

/// The method id: the text as given, trimmed. Whether the registry knows it
/// is checked where the registry is known (`SimSettings::set`).
impl SettingField for String {
    fn to_value(&self) -> SettingValue {
        SettingValue::Text(self.clone())
    }

    fn from_value(spec: &SettingSpec, value: &SettingValue) -> Result<Self, SettingError> {
        match value {
            SettingValue::Text(t) => Ok(t.trim().to_string()),
            other => Err(spec.refuse(&format!("{other:?}"))),
        }
    }
}

/// The choice a parsed value names, if it names one (text goes through the
/// schema's parser, which knows whether "the scene's" is allowed).
fn choice_of<T: Choice>(
    spec: &SettingSpec,
    parsed: SettingValue,
) -> Result<Option<T>, SettingError> {
    match parsed {
        SettingValue::Text(id) => T::from_id(&id)
            .map(Some)
            .ok_or_else(|| spec.refuse(&format!("\"{id}\""))),
        _ => Ok(None),
    }
}

impl<T: Choice> SettingField for T {
    fn to_value(&self) -> SettingValue {
        SettingValue::Text(self.id().to_string())
    }

    fn from_value(spec: &SettingSpec, value: &SettingValue) -> Result<Self, SettingError> {
        let SettingValue::Text(text) = value else {
            return Err(spec.refuse(&format!("{value:?}")));
        };
        choice_of(spec, spec.parse(text)?)?.ok_or_else(|| spec.refuse(&format!("\"{text}\"")))
    }
}

/// A choice whose default is the scene's own: `None` keeps the scene's.
impl<T: Choice> SettingField for Option<T> {
    fn to_value(&self) -> SettingValue {
        self.map_or(SettingValue::Scene, |c| {
            SettingValue::Text(c.id().to_string())
        })
    }

    fn from_value(spec: &SettingSpec, value: &SettingValue) -> Result<Self, SettingError> {
        let parsed = match value {
            SettingValue::Text(t) => spec.parse(t)?,
            SettingValue::Scene => spec.parse("")?,
            other => return Err(spec.refuse(&format!("{other:?}"))),
        };
        choice_of(spec, parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_url_keys_and_flags_are_unique() {
        for (i, a) in SETTINGS.iter().enumerate() {
            for b in &SETTINGS[i + 1..] {
                assert_ne!(a.id, b.id);
                assert_ne!(a.url_key, b.url_key, "{} and {}", a.id, b.id);
                assert_ne!(a.cli_flag, b.cli_flag, "{} and {}", a.id, b.id);
            }
            assert!(a.cli_flag.starts_with("--"), "{}", a.id);
        }
    }

    #[test]
    fn every_entry_gives_its_words_and_a_range_where_it_has_one() {
        for s in SETTINGS {
            for (what, text) in [
                ("label", s.label),
                ("noun", s.noun),
                ("cli_flag", s.cli_flag),
                ("url_key", s.url_key),
                ("help", s.help),
            ] {
                assert!(!text.is_empty(), "{} has no {what}", s.id);
            }
            let ranged = matches!(s.kind, SettingKind::Number | SettingKind::Integer);
            assert_eq!(
                ranged,
                s.min < s.max,
                "{}: range {} to {}",
                s.id,
                s.min,
                s.max
            );
            assert_eq!(
                s.kind == SettingKind::Choice,
                !s.choices.is_empty(),
                "{}",
                s.id
            );
            if s.scene_key.is_some() {
                assert_eq!(s.default, Default::Scene, "{}", s.id);
            }
        }
    }

    #[test]
    fn every_numeric_default_is_in_range() {
        for s in SETTINGS {
            if let Default::Number(x) = s.default {
                assert_eq!(s.check_number(x), Ok(x), "{}", s.id);
            }
        }
    }

    #[test]
    fn a_bad_time_step_gets_one_message() {
        let dt = spec("dt").unwrap();
        let message = dt.parse("2").unwrap_err().to_string();
        assert_eq!(
            message,
            "the time step must be from 0.0001 to 0.1 s, or empty for the scene's value, got 2"
        );
        assert_eq!(dt.check_number(2.0).unwrap_err().to_string(), message);
        assert!(dt.parse("0").is_err());
        assert!(dt.parse("inf").is_err());
        assert!(dt.parse("NaN").is_err());
        assert!(dt.parse("1e150").is_err());
        assert_eq!(dt.parse(""), Ok(SettingValue::Scene));
        assert_eq!(dt.parse("0.01"), Ok(SettingValue::Number(0.01)));
    }

    #[test]
    fn size_relative_lengths_default_to_empty_and_take_metres_when_set() {
        for id in ["envelope", "epsilon"] {
            let s = spec(id).unwrap();
            assert!(
                matches!(s.default, Default::Relative(k) if k > 0.0 && k < 1.0),
                "{id}"
            );
            assert!(s.default.is_from_scene(), "{id}");
            assert_eq!(s.default_value(), SettingValue::Scene, "{id}");
            assert_eq!(s.parse(""), Ok(SettingValue::Scene), "{id}");
            assert_eq!(s.parse("0.01"), Ok(SettingValue::Number(0.01)), "{id}");
            assert!(
                s.parse("1")
                    .unwrap_err()
                    .to_string()
                    .ends_with("m, or empty for the size-relative default, got 1"),
                "{id}"
            );
        }
        assert_eq!(default_fraction("envelope"), 0.01);
        assert_eq!(default_fraction("epsilon"), 0.01);
    }

    #[test]
    fn integers_refuse_fractions_and_bools_take_words() {
        let refine = spec("refine").unwrap();
        assert!(refine.parse("1.5").is_err());
        assert_eq!(refine.parse("2"), Ok(SettingValue::Number(2.0)));
        let warm = spec("warm_start").unwrap();
        assert_eq!(warm.parse("1"), Ok(SettingValue::Bool(true)));
        assert_eq!(warm.parse("off"), Ok(SettingValue::Bool(false)));
        assert!(warm.parse("maybe").is_err());
    }

    #[test]
    fn choices_take_only_their_ids() {
        let mesher = spec("mesher").unwrap();
        assert_eq!(
            mesher.parse(" cones "),
            Ok(SettingValue::Text("cones".into()))
        );
        assert_eq!(
            mesher.parse("delaunay").unwrap_err().to_string(),
            "the mesher must be one of tetgen, cones, paper-fine, or empty for the scene's value, got \"delaunay\""
        );
        // The default is the scene's own choice: empty or `scene`.
        assert_eq!(mesher.default, Default::Scene);
        assert_eq!(mesher.parse(""), Ok(SettingValue::Scene));
        assert_eq!(mesher.parse("scene"), Ok(SettingValue::Scene));
    }
}
