//! The paper's tables and published numbers, built on [`crate::sim`]:
//! what `contactlab table` prints and `docs/results.md` records.
//!
//! - [`paper`]: the numbers the paper prints, keyed by method id.
//! - [`tables`]: our runs in the shape of the paper's tables, beside them.
//! - [`engines`]: other engines' recorded contacts, scored, as rows of the tables.
//! - [`engine_cases`]: every engine on every built-in scene at its initial
//!   pose, for `docs/engines.md`.
//! - [`spheres`]: Cheng Yi & Drumwright's spinning-sphere benchmark, energy kept per method.

pub mod engine_cases;
pub mod engines;
pub mod initial;
pub mod meshes;
pub mod paper;
pub mod presets;
pub mod sat_unit;
pub mod spheres;
pub mod tables;
