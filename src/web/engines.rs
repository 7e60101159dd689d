//! The page's engines (`docs/design/engines.md`): the engine scene handed
//! to an adapter in the worker, and runs whose contacts the adapter gives
//! through two JavaScript callbacks. Translation only: the core runs the
//! simulation (`Simulation::with_engine`) and the adapter runs the engine.
//! Built into the full module only (cargo feature `engines`): the worker
//! fetches the full module when an engine is first chosen.

use super::Playground;
use crate::contact::Contact;
use crate::dynamics::stepper::Pose;
use crate::engines::{contacts_from_values, poses_from_values, poses_to_values, ContactSource};
use crate::export::{engine::engine_scene, Export};
use crate::scene::{load_scene, Scene};
use crate::sim::{SimSettings, Simulation};
use js_sys::{Float64Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// An adapter's world, as the two callbacks the worker hands over:
/// `contactsAt(Float64Array) → Float64Array` and
/// `ownStep() → {poses, contacts}`.
#[derive(Clone)]
pub(super) struct EngineCallbacks {
    contacts_at: Function,
    own_step: Function,
}

struct JsEngine {
    callbacks: EngineCallbacks,
    fixed: Vec<bool>,
}

/// The message of a JavaScript exception.
fn message(error: JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the engine's adapter failed".to_string())
}

fn values(value: &JsValue, what: &str) -> Result<Vec<f64>, String> {
    value
        .dyn_ref::<Float64Array>()
        .map(Float64Array::to_vec)
        .ok_or_else(|| format!("the engine's adapter gave {what} that are not a Float64Array"))
}

impl ContactSource for JsEngine {
    fn contacts_at(&mut self, poses: &[Pose]) -> Result<Vec<Contact>, String> {
        let poses = Float64Array::from(&poses_to_values(poses)[..]);
        let answer = self
            .callbacks
            .contacts_at
            .call1(&JsValue::NULL, &poses)
            .map_err(message)?;
        contacts_from_values(&values(&answer, "contacts")?, &self.fixed)
    }

    fn own_step(&mut self) -> Result<(Vec<Pose>, Vec<Contact>), String> {
        let answer = self
            .callbacks
            .own_step
            .call0(&JsValue::NULL)
            .map_err(message)?;
        let field = |key: &str| {
            Reflect::get(&answer, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
        };
        let poses = poses_from_values(&values(&field("poses"), "poses")?, self.fixed.len())?;
        let contacts = contacts_from_values(&values(&field("contacts"), "contacts")?, &self.fixed)?;
        Ok((poses, contacts))
    }
}

/// The engine scene of `scene` with the run's time step and friction.
fn scene_json(scene: &Scene, settings: &SimSettings) -> String {
    let mut export = Export::initial(scene);
    export.dt = settings.dt.unwrap_or(scene.settings.dt);
    export.mu = settings.mu;
    engine_scene(&export).to_string()
}

#[wasm_bindgen]
impl Playground {
    /// The engine scene (`docs/design/engines.md`) of a built-in scene
    /// (`id`) or a scene file's text (`id` null) with `settings`, as JSON
    /// text: what the worker hands the engine's adapter before
    /// `setEngine` and the load.
    #[wasm_bindgen(js_name = engineScene)]
    pub fn engine_scene_text(
        id: Option<String>,
        text: Option<String>,
        settings: JsValue,
    ) -> Result<String, JsError> {
        let settings = super::parse_settings(settings)?;
        let (source, text) = super::scene_source(id.as_deref(), text.as_deref())?;
        let options = settings
            .load_options()
            .map_err(|e| JsError::new(&e.to_string()))?;
        let scene =
            load_scene(&source, &text, &options).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(scene_json(&scene, &settings))
    }

    /// Hands over the adapter's world for the next load of an engine (or
    /// compare row): `contactsAt(poses)` and `ownStep()`
    /// (`docs/design/engines.md`). The world must have been made in the
    /// mode the settings' `engine` names.
    #[wasm_bindgen(js_name = setEngine)]
    pub fn set_engine(&mut self, contacts_at: Function, own_step: Function) {
        self.engine = Some(EngineCallbacks {
            contacts_at,
            own_step,
        });
    }
}

impl Playground {
    /// The run of an engine on `scene`, with the world `setEngine` gave.
    pub(super) fn engine_run(
        &self,
        scene: Scene,
        settings: SimSettings,
    ) -> Result<Simulation, JsError> {
        let callbacks = self.engine.clone().ok_or_else(|| {
            JsError::new("the engine's adapter has not been started (setEngine before the load)")
        })?;
        let fixed = scene.bodies.iter().map(|b| b.fixed).collect();
        let mode = settings.engine;
        Simulation::with_engine(
            scene,
            settings,
            mode,
            Box::new(JsEngine { callbacks, fixed }),
        )
        .map_err(|e| JsError::new(&e.to_string()))
    }
}
