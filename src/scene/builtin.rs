//! The scenes shipped in `scenes/`, compiled in so that the CLI, the tests
//! and the page (through wasm) read the very same bytes.

use super::parse::load_scene;
use super::types::{LoadOptions, Scene, SceneError};

/// (id, file text), in the order the page's picker shows them.
pub const BUILTIN_SCENES: &[(&str, &str)] = &[
    ("pillar", include_str!("../../scenes/pillar.json")),
    ("wall", include_str!("../../scenes/wall.json")),
    ("arch", include_str!("../../scenes/arch.json")),
    ("spikes", include_str!("../../scenes/spikes.json")),
    ("spike-wedge", include_str!("../../scenes/spike-wedge.json")),
    ("wedges", include_str!("../../scenes/wedges.json")),
    (
        "sliding-spike",
        include_str!("../../scenes/sliding-spike.json"),
    ),
    (
        "sliding-wedge",
        include_str!("../../scenes/sliding-wedge.json"),
    ),
    (
        "spike-in-hole",
        include_str!("../../scenes/spike-in-hole.json"),
    ),
    (
        "spike-in-crack",
        include_str!("../../scenes/spike-in-crack.json"),
    ),
    (
        "wedge-in-crack",
        include_str!("../../scenes/wedge-in-crack.json"),
    ),
    (
        "internal-edges",
        include_str!("../../scenes/internal-edges.json"),
    ),
    ("cliff-edges", include_str!("../../scenes/cliff-edges.json")),
];

pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
    BUILTIN_SCENES.iter().map(|(id, _)| *id)
}

pub fn builtin_text(id: &str) -> Option<&'static str> {
    BUILTIN_SCENES
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, text)| *text)
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
