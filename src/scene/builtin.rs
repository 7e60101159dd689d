//! The scenes shipped in `scenes/`, compiled in so that the CLI, the tests
//! and the page (through wasm) read the very same bytes.

use super::parse::load_scene;
use super::types::{LoadOptions, Scene, SceneError};

/// A scene shipped with ContactLab.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinScene {
    pub id: &'static str,
    pub text: &'static str,
    /// One of the paper's 13 scenes (Erleben 2018, sections 4 and 5): the tests
    /// and tables that reproduce the paper iterate these; the others (Cheng
    /// Yi & Drumwright's sphere benchmarks) go beyond it.
    pub paper: bool,
}

macro_rules! builtin {
    ($id:literal, paper) => {
        BuiltinScene {
            id: $id,
            text: include_str!(concat!("../../scenes/", $id, ".json")),
            paper: true,
        }
    };
    ($id:literal) => {
        BuiltinScene {
            id: $id,
            text: include_str!(concat!("../../scenes/", $id, ".json")),
            paper: false,
        }
    };
}

/// Every built-in scene, in the order the page's picker shows them.
pub const BUILTIN_SCENES: &[BuiltinScene] = &[
    builtin!("pillar", paper),
    builtin!("wall", paper),
    builtin!("arch", paper),
    builtin!("spikes", paper),
    builtin!("spike-wedge", paper),
    builtin!("wedges", paper),
    builtin!("sliding-spike", paper),
    builtin!("sliding-wedge", paper),
    builtin!("spike-in-hole", paper),
    builtin!("spike-in-crack", paper),
    builtin!("wedge-in-crack", paper),
    builtin!("internal-edges", paper),
    builtin!("cliff-edges", paper),
    builtin!("spinning-sphere"),
    builtin!("rolling-spheres"),
];

pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
    BUILTIN_SCENES.iter().map(|s| s.id)
}

/// The ids of the paper's 13 scenes ([`BuiltinScene::paper`]).
pub fn paper_scene_ids() -> impl Iterator<Item = &'static str> {
    BUILTIN_SCENES.iter().filter(|s| s.paper).map(|s| s.id)
}

pub fn builtin_text(id: &str) -> Option<&'static str> {
    BUILTIN_SCENES.iter().find(|s| s.id == id).map(|s| s.text)
}

/// Loads a built-in scene by id.
pub fn load_builtin(id: &str, options: &LoadOptions) -> Result<Scene, SceneError> {
    match builtin_text(id) {
        Some(text) => load_scene(&format!("builtin:{id}"), text, options),
        None => Err(SceneError {
            source: id.to_string(),
            message: format!(
                "no built-in scene has this id (built-in scenes: {})",
                builtin_ids().collect::<Vec<_>>().join(", ")
            ),
        }),
    }
}
