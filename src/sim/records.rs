//! What a run hands out: one [`StepRecord`] per step (its JSON is a line of
//! `contactlab run --json` and the page's step record), and [`RunMeans`],
//! the means over a run as the paper's table 8 takes them (Erleben 2018).

use crate::measures::StepMeasures;
use serde::Serialize;

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
