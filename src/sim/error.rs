//! Why a run stops: [`SimError`], each variant's message written for the
//! person who must act on it.

use crate::contact::MissingAlgorithm;
use crate::settings::SettingError;
use std::fmt;

/// Why a run could not start or a step was refused.
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
