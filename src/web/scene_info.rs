//! What the page shows about the loaded scene (`sceneInfo()`): its
//! names, bounds and oracle, the values its settings stand for, the
//! expected region areas and its bodies.

use super::{to_js, Playground};
use crate::measures::expected_region_areas;
use crate::settings::SETTINGS;
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct BodyInfo {
    name: String,
    fixed: bool,
    /// How its tetrahedra were made: tetgen, cones, paper-fine or given.
    mesher: &'static str,
    /// Whether its surface is convex (every B-rep edge convex), which
    /// SAT-MTD needs.
    convex: bool,
}

#[derive(Serialize)]
struct SceneInfo {
    id: String,
    title: String,
    group: String,
    description: String,
    bounds_min: [f64; 3],
    bounds_max: [f64; 3],
    /// The part of the scene the camera frames first.
    focus_min: [f64; 3],
    focus_max: [f64; 3],
    up: [f64; 3],
    oracle: &'static str,
    /// Whether the scene has an oracle of its own (else the headline is
    /// always the geometric oracle's).
    scene_oracle: bool,
    min_contacts: Option<u64>,
    measure_step: u64,
    steps: u64,
    /// The run's time step: the `dt` setting, or the scene's own.
    dt: f64,
    /// What each setting whose default is the scene's own value or a length
    /// relative to its bodies (`nullable` in `settingsSchema()`) stands for
    /// in this scene, by setting id: the page shows it in place of null.
    scene_values: BTreeMap<&'static str, f64>,
    /// The distinct areas of the exact contact regions at the initial pose,
    /// for the wall and arch oracles: the plateaus the sorted region areas
    /// should show (the paper's figures 25 and 28).
    expected_region_areas: Vec<f64>,
    /// What the page should show about how the scene was loaded (a body
    /// meshed with cones because its shape has no committed TetGen mesh).
    notices: Vec<String>,
    bodies: Vec<BodyInfo>,
}

#[wasm_bindgen]
impl Playground {
    #[wasm_bindgen(js_name = sceneInfo)]
    pub fn scene_info(&self) -> Result<JsValue, JsError> {
        let sim = self.sim()?;
        let scene = sim.scene();
        let (lo, hi) = scene.bounds();
        let (focus_lo, focus_hi) = scene.focus_bounds();
        to_js(&SceneInfo {
            id: scene.id.clone(),
            title: scene.title.clone(),
            group: scene.group.clone(),
            description: scene.description.clone(),
            bounds_min: lo.to_array(),
            bounds_max: hi.to_array(),
            focus_min: focus_lo.to_array(),
            focus_max: focus_hi.to_array(),
            up: scene.up.to_array(),
            oracle: scene.oracle.type_name(),
            scene_oracle: !matches!(scene.oracle, crate::scene::Oracle::None),
            min_contacts: scene.oracle.min_contacts(),
            measure_step: scene.settings.measure_step,
            steps: scene.settings.steps,
            dt: sim.dt(),
            scene_values: SETTINGS
                .iter()
                .filter_map(|spec| {
                    let own = scene.settings.own_value(spec);
                    Some((spec.id, own.or_else(|| sim.relative_default(spec))?))
                })
                .collect(),
            expected_region_areas: expected_region_areas(scene),
            notices: scene.notices.clone(),
            bodies: scene
                .bodies
                .iter()
                .map(|b| BodyInfo {
                    name: b.name.clone(),
                    fixed: b.fixed,
                    mesher: b.mesher.map_or("given", |m| m.id()),
                    convex: b.mesh.brep().is_convex(),
                })
                .collect(),
        })
    }

    #[wasm_bindgen(js_name = bodyCount)]
    pub fn body_count(&self) -> usize {
        self.sim.as_ref().map_or(0, |s| s.scene().bodies.len())
    }
}
