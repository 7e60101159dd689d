//! The wasm-bindgen facade used by the page's worker
//! (`docs/design/page.md`, "The boundary between Rust and JavaScript"). It only
//! translates: every number is computed by the core ([`crate::sim`]), and
//! JavaScript gets plain objects (serde-wasm-bindgen) and flat `Float32Array`
//! buffers. One concern per file: the catalogues (`catalogue.rs`), the
//! loaded scene's description (`scene_info.rs`), the drawing buffers
//! (`buffers.rs`), contact files and engines (full module only); this file
//! holds the session and its run.

use crate::measures::StepDistributions;
use crate::scene::builtin::builtin_text;
use crate::scene::Scene;
use crate::sim::{SimSettings, Simulation, StepRecord};
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod buffers;
mod catalogue;
#[cfg(feature = "contact-files")]
mod contact_files;
#[cfg(feature = "engines")]
mod engines;
mod scene_info;

/// A step record as the page reads it: a line of `contactlab run --json`
/// and the distributions the page plots (`sorted_quality`, `histogram`,
/// `region_areas`).
#[derive(Serialize)]
struct PlottedRecord<'a, R: Serialize> {
    #[serde(flatten)]
    record: R,
    #[serde(flatten)]
    distributions: &'a StepDistributions,
}

fn plotted_record(record: &StepRecord) -> Result<JsValue, JsError> {
    let distributions = &record.measures.distributions;
    // Only a contact file's records lack a dynamics step, whose keys
    // `StepRecord::to_json` leaves out, and only the full module reads
    // contact files: the lean one sends the record as it is, without the
    // JSON value machinery.
    #[cfg(feature = "contact-files")]
    return to_js(&PlottedRecord {
        record: record.to_json(),
        distributions,
    });
    #[cfg(not(feature = "contact-files"))]
    to_js(&PlottedRecord {
        record,
        distributions,
    })
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    // Maps become plain objects, so JavaScript reads `record.count`.
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value
        .serialize(&serializer)
        .map_err(|e| JsError::new(&e.to_string()))
}

/// One playground session: the scene text, the settings, the simulation.
#[wasm_bindgen]
pub struct Playground {
    source: String,
    text: String,
    sim: Option<Simulation>,
    last: Option<StepRecord>,
    /// The contact file whose contacts the run plays, if one is open.
    #[cfg(feature = "contact-files")]
    contact_file: Option<contact_files::ContactFileText>,
    /// The engine adapter's world for the next load of an engine.
    #[cfg(feature = "engines")]
    engine: Option<engines::EngineCallbacks>,
}

#[wasm_bindgen]
impl Playground {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Playground {
        console_error_panic_hook::set_once();
        Playground {
            source: String::new(),
            text: String::new(),
            sim: None,
            last: None,
            #[cfg(feature = "contact-files")]
            contact_file: None,
            #[cfg(feature = "engines")]
            engine: None,
        }
    }

    /// The core's version (Cargo.toml's): a development page names it in
    /// its links; a published page says its release in its `<meta>` tags.
    pub fn version() -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }

    /// Loads a built-in scene with `settings` (an object like
    /// `defaultSettings()`). On failure the previous scene stays.
    #[wasm_bindgen(js_name = loadScene)]
    pub fn load_scene(&mut self, id: &str, settings: JsValue) -> Result<(), JsError> {
        let text = builtin_text(id)
            .ok_or_else(|| JsError::new(&format!("no built-in scene is called \"{id}\"")))?;
        self.load(&format!("builtin:{id}"), text, settings)
    }

    /// Loads a user's scene file (its JSON text) with `settings`.
    #[wasm_bindgen(js_name = loadSceneText)]
    pub fn load_scene_text(&mut self, text: &str, settings: JsValue) -> Result<(), JsError> {
        self.load("your scene file", text, settings)
    }

    fn load(&mut self, source: &str, text: &str, settings: JsValue) -> Result<(), JsError> {
        let settings = parse_settings(settings)?;
        let sim = self.run_of(source, text, settings)?;
        self.source = source.to_string();
        self.text = text.to_string();
        // An engine's own run is measured at its start (step 0).
        self.last = sim.start_record().cloned();
        self.sim = Some(sim);
        #[cfg(feature = "contact-files")]
        {
            self.contact_file = None;
        }
        Ok(())
    }

    /// Takes up to `count` steps, fewer when one diverges; returns the last
    /// step's record (see `record`), whose `diverged` then holds the message.
    pub fn step(&mut self, count: u32) -> Result<JsValue, JsError> {
        let sim = self
            .sim
            .as_mut()
            .ok_or_else(|| JsError::new("no scene is loaded"))?;
        for _ in 0..count {
            let record = sim.step().map_err(|e| JsError::new(&e.to_string()))?;
            // A diverged step ends the call; its record carries the message
            // (`diverged`) and the run stays paused.
            let diverged = record.diverged.is_some();
            self.last = Some(record);
            if diverged {
                break;
            }
        }
        self.record()
    }

    /// The last step's record with the CLI's keys, plus `sorted_quality`,
    /// `histogram` and `region_areas`; null before the first step.
    pub fn record(&self) -> Result<JsValue, JsError> {
        match &self.last {
            None => Ok(JsValue::NULL),
            Some(r) => plotted_record(r),
        }
    }

    /// Changes the Measure-stage settings (`tol_deg`, `oracle`) to those
    /// of `settings` and measures the last step's contacts again at the
    /// poses they were found at: no reload, no step. Refuses settings that
    /// differ in any other stage. Returns the updated record (see
    /// `record`).
    #[wasm_bindgen(js_name = setMeasureSettings)]
    pub fn set_measure_settings(&mut self, settings: JsValue) -> Result<JsValue, JsError> {
        let settings = parse_settings(settings)?;
        let sim = self
            .sim
            .as_mut()
            .ok_or_else(|| JsError::new("no scene is loaded"))?;
        let measures = sim
            .set_measure_settings(&settings)
            .map_err(|e| JsError::new(&e.to_string()))?;
        if let (Some(last), Some(measures)) = (self.last.as_mut(), measures) {
            last.measures = measures;
        }
        self.record()
    }

    #[wasm_bindgen(js_name = stepIndex)]
    pub fn step_index(&self) -> u64 {
        self.sim.as_ref().map_or(0, |s| s.step_index())
    }

    fn sim(&self) -> Result<&Simulation, JsError> {
        self.sim
            .as_ref()
            .ok_or_else(|| JsError::new("no scene is loaded"))
    }

    fn scene(&self) -> Result<&Scene, JsError> {
        Ok(self.sim()?.scene())
    }

    fn body(&self, body: usize) -> Result<&crate::scene::SceneBody, JsError> {
        let scene = self.scene()?;
        scene.bodies.get(body).ok_or_else(|| {
            JsError::new(&format!(
                "body {body} does not exist (the scene has {})",
                scene.bodies.len()
            ))
        })
    }

    /// One row of the compare table: `method` run from the start of the
    /// current scene and settings for `steps` steps; the last record.
    #[wasm_bindgen(js_name = compareRow)]
    pub fn compare_row(&self, method: &str, steps: u32) -> Result<JsValue, JsError> {
        #[cfg(feature = "contact-files")]
        if method == contact_files::IMPORTED {
            return self.compare_contact_file(steps);
        }
        let mut settings = self.sim()?.settings().clone();
        settings
            .set_text("method", method)
            .map_err(|e| JsError::new(&e.to_string()))?;
        let mut sim = self.run_of(&self.source, &self.text, settings)?;
        let record = match sim.start_record() {
            // An engine's own run measured only at its start.
            Some(start) if steps == 0 => start.clone(),
            _ => sim
                .run_to(u64::from(steps))
                .map_err(|e| JsError::new(&e.to_string()))?,
        };
        plotted_record(&record)
    }
}

impl Playground {
    /// The run `settings` ask for on a scene: a method's, or an engine's
    /// with the adapter's world `setEngine` handed over (full module only).
    fn run_of(
        &self,
        source: &str,
        text: &str,
        settings: SimSettings,
    ) -> Result<Simulation, JsError> {
        #[cfg(feature = "engines")]
        if settings.engine_info().is_some() {
            let options = settings
                .load_options()
                .map_err(|e| JsError::new(&e.to_string()))?;
            let scene = crate::scene::load_scene(source, text, &options)
                .map_err(|e| JsError::new(&e.to_string()))?;
            return self.engine_run(scene, settings);
        }
        // Without the feature `Simulation::new` refuses an engine, saying so.
        Simulation::new(source, text, settings).map_err(|e| JsError::new(&e.to_string()))
    }
}

/// A built-in scene's source and text (`id`), or a scene file's (`text`).
#[cfg_attr(not(feature = "engines"), allow(dead_code))]
fn scene_source(id: Option<&str>, text: Option<&str>) -> Result<(String, String), JsError> {
    match (id, text) {
        (Some(id), _) => builtin_text(id)
            .map(|text| (format!("builtin:{id}"), text.to_string()))
            .ok_or_else(|| JsError::new(&format!("no built-in scene is called \"{id}\""))),
        (None, Some(text)) => Ok(("your scene file".to_string(), text.to_string())),
        (None, None) => Err(JsError::new(
            "no scene: give a built-in scene's id or a scene file's text",
        )),
    }
}

fn parse_settings(value: JsValue) -> Result<SimSettings, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(SimSettings::default());
    }
    let settings: SimSettings = serde_wasm_bindgen::from_value(value)
        .map_err(|e| JsError::new(&format!("settings: {e}")))?;
    settings
        .validate()
        .map_err(|e| JsError::new(&format!("{}: {e}", e.id)))?;
    Ok(settings)
}

impl Default for Playground {
    fn default() -> Self {
        Playground::new()
    }
}
