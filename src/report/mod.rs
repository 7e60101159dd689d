//! The paper's tables and published numbers, built on [`crate::sim`]:
//! what `contactlab table` prints and `docs/results.md` records.
//!
//! - [`paper`]: the numbers the paper prints, keyed by method id.
//! - [`tables`]: our runs in the shape of the paper's tables, beside them,
//!   and the dispatcher that builds any table by its kind.
//! - [`contestants`]: the rows the tables compare (methods and engines) and
//!   one row's measures at a scene's initial pose; [`text_table`]: a table
//!   as text cells. Every table file uses these two, below the dispatcher.
//! - [`engines`]: other engines' recorded contacts, scored, as rows of the tables.
//! - [`engine_cases`]: every engine on every built-in scene at its initial
//!   pose, for `docs/engines.md`.
//! - [`spheres`]: Cheng Yi & Drumwright's spinning-sphere benchmark, energy kept per method.

// The page reads only the presets (and the paper's numbers they carry);
// the tables are the CLI's, and left out of the wasm modules, whose size
// the default page's budget counts.
#[cfg(not(target_arch = "wasm32"))]
pub mod contestants;
#[cfg(not(target_arch = "wasm32"))]
pub mod engine_cases;
#[cfg(not(target_arch = "wasm32"))]
pub mod engines;
#[cfg(not(target_arch = "wasm32"))]
pub mod initial;
#[cfg(not(target_arch = "wasm32"))]
pub mod meshes;
pub mod paper;
pub mod presets;
#[cfg(not(target_arch = "wasm32"))]
pub mod sat_unit;
#[cfg(not(target_arch = "wasm32"))]
pub mod spheres;
#[cfg(not(target_arch = "wasm32"))]
pub mod tables;
#[cfg(not(target_arch = "wasm32"))]
pub mod text_table;
