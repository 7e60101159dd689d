//! Scenes: the `contactlab-scene/1` file format, its validation, the loaded
//! [`Scene`] (bodies as tetrahedral meshes in their centre-of-mass frames),
//! seeded perturbation, the oracle, and the built-in scene files.
//!
//! Scenes are shared data: the CLI, the tests, the benchmarks and the page all
//! load the same files from `scenes/`.

pub mod builtin;
pub mod file;
pub mod oracle;
pub mod perturb;
mod reader;
pub mod transform;

pub use file::{load_scene, LoadOptions, Scene, SceneBody, SceneError, SceneSettings};
pub use oracle::{Oracle, OraclePair};
