//! `Simulation`: a scene, a contact method and solver settings, stepped by
//! the Moreau midpoint scheme, with one [`StepRecord`] per step. It is the
//! one API the CLI and the page (through the wasm facade) share, so a
//! number on the page and in the CLI is the same number.
//!
//! One concept per file: the settings ([`SimSettings`]), the records, the
//! errors, the divergence checks, the warm-start keys, the start-overlap
//! notices, the run's modes (`modes/`, one file each), the run
//! ([`Simulation`]) and its step in named stages (`step.rs`).

mod divergence;
mod error;
mod modes;
mod records;
mod settings;
mod simulation;
mod start_overlaps;
mod step;
mod warm_start;

pub use error::SimError;
pub use modes::EngineRunner;
pub use records::{RunMeans, StepRecord, DYNAMICS_KEYS};
pub use settings::{contestant_ids, SimSettings};
pub use simulation::Simulation;
