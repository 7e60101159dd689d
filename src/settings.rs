//! The settings schema: every setting a run takes, declared once — its id,
//! label, unit, valid range, default, whether it changes the geometry, its
//! CLI flag and URL key, and its help text. The core's validation, the CLI's
//! flags and `--help`, the scene file's `settings`, the page's sliders and
//! its URL parser all read this table, so the same bad value gets the same
//! message everywhere (each front end only prefixes where the value came
//! from: `--dt`, `settings.dt`, `dt=`).
//!
//! This module is data and validation only; it knows nothing of methods,
//! scenes or simulations. The typed settings of a run are
//! [`crate::sim::SimSettings`], whose fields are named by these ids.

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

/// Every setting, in the order the page's panel and `--help` list them.
pub static SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        id: "method",
        label: "Contact method",
        noun: "the contact method",
        unit: "",
        kind: SettingKind::Method,
        choices: &[],
        min: 0.0,
        max: 0.0,
        default: Default::Text("opposing"),
        log: false,
        rebuild: false,
        stage: Stage::Detection,
        cli_flag: "--method",
        url_key: "method",
        scene_key: None,
        help: "The contact point method (see `contactlab methods`).",
    },
    SettingSpec {
        id: "mesher",
        label: "Mesh",
        noun: "the mesher",
        unit: "",
        kind: SettingKind::Choice,
        choices: &["tetgen", "cones", "paper-fine"],
        min: 0.0,
        max: 0.0,
        // The paper's TetGen meshes by default: `Default::Scene` makes every
        // scene file's (and body's) `mesher` count, and a file that names
        // none gets TetGen. `mesher=cones` gives the cone meshes.
        default: Default::Scene,
        log: false,
        rebuild: true,
        stage: Stage::Geometry,
        cli_flag: "--mesher",
        url_key: "mesher",
        scene_key: None,
        help: "How bodies are cut into tetrahedra: tetgen (the paper's meshes, TetGen -pq2.0Y, committed), cones (each surface triangle coned to a kernel point) or paper-fine (TetGen with the section 8.6 refinement switches); by default each scene file's own `mesher` (TetGen when it names none); a value here overrides it. A shape without a committed TetGen mesh falls back to cones, with a notice.",
    },
    SettingSpec {
        id: "perturb",
        label: "Perturbation",
        noun: "the perturbation",
        unit: "m",
        kind: SettingKind::Number,
        choices: &[],
        min: 0.0,
        max: 0.1,
        default: Default::Number(0.0),
        log: false,
        rebuild: true,
        stage: Stage::Geometry,
        cli_flag: "--perturb",
        url_key: "perturb",
        scene_key: None,
        help: "Moves every free body sideways by this much, in a seeded random direction (paper section 8.5).",
    },
    SettingSpec {
        id: "seed",
        label: "Seed",
        noun: "the seed",
        unit: "",
        kind: SettingKind::Integer,
        choices: &[],
        min: 0.0,
        max: 4_294_967_295.0,
        default: Default::Number(1.0),
        log: false,
        rebuild: true,
        stage: Stage::Geometry,
        cli_flag: "--seed",
        url_key: "seed",
        scene_key: None,
        help: "Seed of the perturbation's random directions.",
    },
    SettingSpec {
        id: "refine",
        label: "Refinement",
        noun: "the refinement level",
        unit: "",
        kind: SettingKind::Integer,
        choices: &[],
        min: 0.0,
        max: 2.0,
        default: Default::Number(0.0),
        log: false,
        rebuild: true,
        stage: Stage::Geometry,
        cli_flag: "--refine",
        url_key: "refine",
        scene_key: None,
        help: "Splits every tetrahedron into 8, this many times (paper section 8.6).",
    },
    SettingSpec {
        id: "epsilon",
        label: "Erosion ε (Closest points)",
        noun: "the erosion ε",
        unit: "m",
        kind: SettingKind::Number,
        choices: &[],
        min: 0.001,
        max: 0.05,
        default: Default::Number(0.01),
        log: false,
        rebuild: true,
        stage: Stage::Detection,
        cli_flag: "--epsilon",
        url_key: "eps",
        scene_key: None,
        help: "How far the Closest points method shrinks every body (paper section 6); it finds contacts up to 2ε apart.",
    },
    SettingSpec {
        id: "two_way",
        label: "Two-way (Vertex penetration)",
        noun: "two-way vertex penetration",
        unit: "",
        kind: SettingKind::Bool,
        choices: &[],
        min: 0.0,
        max: 0.0,
        default: Default::Bool(false),
        log: false,
        rebuild: false,
        stage: Stage::Detection,
        cli_flag: "--two-way",
        url_key: "twoway",
        scene_key: None,
        help: "Vertex penetration also takes B's vertices inside A, not only A's inside B (the ArtiSynth manual, §7.4.1, figure 7.10: its setting for two deformable bodies).",
    },
    SettingSpec {
        id: "envelope",
        label: "Envelope (Region analysis, parry)",
        noun: "the envelope",
        unit: "m",
        kind: SettingKind::Number,
        choices: &[],
        min: 0.0001,
        max: 0.1,
        default: Default::Number(0.01),
        log: true,
        rebuild: false,
        stage: Stage::Detection,
        cli_flag: "--envelope",
        url_key: "env",
        scene_key: None,
        help: "How close two B-rep features must come for Region analysis to count them as touching (Bouma & Vaněček assumes exact touching; a simulation never is), and the prediction distance of parry (it reports contacts up to this far apart, like Rapier's). The paper's ε by default.",
    },
    SettingSpec {
        id: "tol_deg",
        label: "Angle tolerance",
        noun: "the angle tolerance",
        unit: "°",
        kind: SettingKind::Number,
        choices: &[],
        min: 0.1,
        max: 10.0,
        default: Default::Number(1.0),
        log: false,
        rebuild: false,
        stage: Stage::Measure,
        cli_flag: "--tol-deg",
        url_key: "tol",
        scene_key: None,
        help: "A contact normal counts as correct when it is within this angle of a right normal.",
    },
    SettingSpec {
        id: "dt",
        label: "Time step",
        noun: "the time step",
        unit: "s",
        kind: SettingKind::Number,
        choices: &[],
        min: 0.0001,
        max: 0.1,
        default: Default::Scene,
        log: true,
        rebuild: false,
        stage: Stage::Dynamics,
        cli_flag: "--dt",
        url_key: "dt",
        scene_key: Some("dt"),
        help: "Length of one simulation step (paper section 8.7); the scene's own value by default.",
    },
    SettingSpec {
        id: "iterations",
        label: "Solver iterations",
        noun: "the number of solver iterations",
        unit: "",
        kind: SettingKind::Integer,
        choices: &[],
        min: 1.0,
        max: 100_000.0,
        default: Default::Number(1000.0),
        log: true,
        rebuild: false,
        stage: Stage::Dynamics,
        cli_flag: "--iterations",
        url_key: "iters",
        scene_key: None,
        help: "Gauss-Seidel sweeps per step; the paper forces 1000.",
    },
    SettingSpec {
        id: "mu",
        label: "Friction μ",
        noun: "the friction coefficient",
        unit: "",
        kind: SettingKind::Number,
        choices: &[],
        min: 0.0,
        max: 2.0,
        default: Default::Scene,
        log: false,
        rebuild: false,
        stage: Stage::Dynamics,
        cli_flag: "--mu",
        url_key: "mu",
        scene_key: Some("friction"),
        help: "Coulomb friction coefficient of every contact; the scene's own value by default (0.5 in the paper's scenes; a scene may give some body pairs their own, as the sphere benchmarks do). When set, it overrides every pair's own value too.",
    },
    SettingSpec {
        id: "warm_start",
        label: "Warm start",
        noun: "warm starting",
        unit: "",
        kind: SettingKind::Bool,
        choices: &[],
        min: 0.0,
        max: 0.0,
        default: Default::Bool(false),
        log: false,
        rebuild: false,
        stage: Stage::Dynamics,
        cli_flag: "--warm-start",
        url_key: "warm",
        scene_key: None,
        help: "Start each solve from the previous step's impulses (off in the paper; an ideal tall stack needs it to converge in 1000 sweeps).",
    },
    SettingSpec {
        id: "tolerance",
        label: "Solver tolerance",
        noun: "the solver tolerance",
        unit: "",
        kind: SettingKind::Number,
        choices: &[],
        min: 0.0,
        max: 1.0,
        default: Default::Number(0.0),
        log: false,
        rebuild: false,
        stage: Stage::Dynamics,
        cli_flag: "--tolerance",
        url_key: "soltol",
        scene_key: None,
        help: "Stop the sweeps early once the largest impulse change falls below this (0: always run every sweep, as the paper does).",
    },
    SettingSpec {
        id: "solver",
        label: "Solver",
        noun: "the solver variant",
        unit: "",
        kind: SettingKind::Choice,
        choices: &["printed", "paper-code"],
        min: 0.0,
        max: 0.0,
        default: Default::Text("printed"),
        log: false,
        rebuild: false,
        stage: Stage::Dynamics,
        cli_flag: "--solver",
        url_key: "solver",
        scene_key: None,
        help: "printed: the proximal Gauss-Seidel of the design, whose roll-back returns impulses and velocities to the start of a sweep whose residual grew, and which stops once the residual falls below the tolerance. paper-code: as the paper's reference code runs it (design reference-code.md): the roll-back returns the impulses but keeps the sweep's velocity update, and the sweeps stop once the residual changes by less than the tolerance times the previous residual.",
    },
    SettingSpec {
        id: "baumgarte",
        label: "Baumgarte β",
        noun: "the Baumgarte factor",
        unit: "",
        kind: SettingKind::Number,
        choices: &[],
        min: 0.0,
        max: 1.0,
        default: Default::Number(0.0),
        log: false,
        rebuild: false,
        stage: Stage::Dynamics,
        cli_flag: "--baumgarte",
        url_key: "baumgarte",
        scene_key: None,
        help: "Fraction of the penetration depth corrected per step (0: no stabilisation, the paper's setting).",
    },
    SettingSpec {
        id: "gyroscopic",
        label: "Gyroscopic term",
        noun: "the gyroscopic term",
        unit: "",
        kind: SettingKind::Bool,
        choices: &[],
        min: 0.0,
        max: 0.0,
        default: Default::Bool(false),
        log: false,
        rebuild: false,
        stage: Stage::Dynamics,
        cli_flag: "--gyroscopic",
        url_key: "gyro",
        scene_key: None,
        help: "Integrate Euler's equations (ω × Iω) with the energy-conserving midpoint rule (off in the paper).",
    },
];

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
        let scene = if self.default == Default::Scene {
            ", or empty for the scene's value"
        } else {
            ""
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
            Err(self.refuse(&plain(x)))
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
                if self.default == Default::Scene && (trimmed.is_empty() || trimmed == "scene") {
                    return Ok(SettingValue::Scene);
                }
                // Rust's parser takes "inf" and "NaN"; the range check then
                // refuses them with the same message as any other number.
                match trimmed.parse::<f64>() {
                    Ok(x) => self.check_number(x).map(SettingValue::Number),
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
            Default::Scene => SettingValue::Scene,
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
