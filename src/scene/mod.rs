//! Scenes: the `contactlab-scene/1` file format, its validation, the loaded
//! [`Scene`] (bodies as tetrahedral meshes in their centre-of-mass frames),
//! seeded perturbation, the oracle, the built-in scene files, and the
//! committed TetGen meshes bodies find by their shape.
//!
//! Scenes are shared data: the CLI, the tests, the benchmarks and the page all
//! load the same files from `scenes/`.

pub mod builtin;
pub mod committed;
pub mod deep_overlap;
pub mod limits;
pub mod meshing;
pub mod oracle;
pub mod parse;
pub mod perturb;
pub mod transform;
pub mod types;

pub use oracle::{Oracle, OraclePair};
pub use parse::load_scene;
pub use types::{Erosion, LoadOptions, Scene, SceneBody, SceneError, SceneSettings};
