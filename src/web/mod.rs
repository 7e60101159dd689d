//! The wasm-bindgen facade used by the page's worker (design
//! `playground.md`, "The boundary between Rust and JavaScript"). It only
//! translates: every number is computed by the core ([`crate::sim`]), and
//! JavaScript gets plain objects (serde-wasm-bindgen) and flat `Float32Array`
//! buffers.

use crate::contact::methods::METHODS;
use crate::contact::reference::REFERENCE_ID;
use crate::contact::FeatureKind;
use crate::measures::tables::{build_table, Table, TABLE_KINDS};
use crate::scene::builtin::{builtin_text, BUILTIN_SCENES};
use crate::scene::{load_scene, LoadOptions, Scene};
use crate::sim::{SimSettings, Simulation, StepRecord};
use glam::DVec3;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct SceneEntry {
    id: String,
    title: String,
    group: String,
    description: String,
    bodies: usize,
    min_contacts: Option<u64>,
}

#[derive(Serialize)]
struct MethodEntry {
    id: &'static str,
    name: &'static str,
    description: &'static str,
}

#[derive(Serialize)]
struct BodyInfo {
    name: String,
    fixed: bool,
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
    min_contacts: Option<u64>,
    measure_step: u64,
    steps: u64,
    dt: f64,
    /// The scene's friction coefficient (the solver's default μ).
    friction: f64,
    /// The distinct areas of the exact contact regions at the initial pose,
    /// for the wall and arch oracles: the plateaus the sorted region areas
    /// should show (the paper's figures 25 and 28).
    expected_region_areas: Vec<f64>,
    bodies: Vec<BodyInfo>,
}

/// A step record as the page reads it: the CLI's JSON keys plus the plot data.
#[derive(Serialize)]
struct RecordOut<'a> {
    #[serde(flatten)]
    record: &'a StepRecord,
    sorted_quality: &'a [f64],
    histogram: &'a [usize],
    region_areas: &'a [f64],
}

#[derive(Serialize)]
struct ContactOut {
    a: String,
    b: String,
    position: [f64; 3],
    normal: [f64; 3],
    depth: f64,
    features: FeatureKind,
    /// The paper's notation, e.g. "(V,F)", as `featureKinds()` gives it.
    feature_label: &'static str,
    q: Option<f64>,
    correct: Option<bool>,
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    // Maps become plain objects, so JavaScript reads `record.count`.
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value
        .serialize(&serializer)
        .map_err(|e| JsError::new(&e.to_string()))
}

fn push3(out: &mut Vec<f32>, v: DVec3) {
    out.extend_from_slice(&[v.x as f32, v.y as f32, v.z as f32]);
}

/// One playground session: the scene text, the settings, the simulation.
#[wasm_bindgen]
pub struct Playground {
    source: String,
    text: String,
    sim: Option<Simulation>,
    last: Option<StepRecord>,
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
        }
    }

    /// The built-in scenes, in picker order.
    pub fn scenes() -> Result<JsValue, JsError> {
        let mut entries = Vec::with_capacity(BUILTIN_SCENES.len());
        for (id, text) in BUILTIN_SCENES {
            let scene = load_scene(&format!("builtin:{id}"), text, &LoadOptions::default())
                .map_err(|e| JsError::new(&e.to_string()))?;
            entries.push(SceneEntry {
                id: scene.id,
                title: scene.title,
                group: scene.group,
                description: scene.description,
                bodies: scene.bodies.len(),
                min_contacts: scene.oracle.min_contacts(),
            });
        }
        to_js(&entries)
    }

    /// The contact methods (the paper's eight, then `reference`).
    pub fn methods() -> Result<JsValue, JsError> {
        let mut entries: Vec<MethodEntry> = METHODS
            .iter()
            .map(|m| MethodEntry {
                id: m.id(),
                name: m.name(),
                description: m.description(),
            })
            .collect();
        entries.push(MethodEntry { id: REFERENCE_ID, name: "Reference (exact)", description: "The exact contact regions of the initial pose carried with the bodies: what an ideal method would give a resting scene." });
        to_js(&entries)
    }

    /// The default settings (the paper's), as the object `load` takes.
    #[wasm_bindgen(js_name = defaultSettings)]
    pub fn default_settings() -> Result<JsValue, JsError> {
        to_js(&SimSettings::default())
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
        let sim =
            Simulation::new(source, text, settings).map_err(|e| JsError::new(&e.to_string()))?;
        self.source = source.to_string();
        self.text = text.to_string();
        self.sim = Some(sim);
        self.last = None;
        Ok(())
    }

    /// Applies new settings: from the next step when they allow it, else by
    /// loading the scene again. Returns true when the scene was reset.
    #[wasm_bindgen(js_name = setSettings)]
    pub fn set_settings(&mut self, settings: JsValue) -> Result<bool, JsError> {
        let settings = parse_settings(settings)?;
        let sim = self
            .sim
            .as_mut()
            .ok_or_else(|| JsError::new("no scene is loaded"))?;
        if Simulation::needs_rebuild(sim.settings(), &settings) {
            let (source, text) = (self.source.clone(), self.text.clone());
            let sim = Simulation::new(&source, &text, settings)
                .map_err(|e| JsError::new(&e.to_string()))?;
            self.sim = Some(sim);
            self.last = None;
            return Ok(true);
        }
        sim.apply_settings(settings)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(false)
    }

    /// Back to step 0 with the current settings.
    pub fn reset(&mut self) -> Result<(), JsError> {
        let settings = self.sim()?.settings().clone();
        let (source, text) = (self.source.clone(), self.text.clone());
        self.sim = Some(
            Simulation::new(&source, &text, settings).map_err(|e| JsError::new(&e.to_string()))?,
        );
        self.last = None;
        Ok(())
    }

    /// Takes `count` steps; returns the last step's record (see `record`).
    pub fn step(&mut self, count: u32) -> Result<JsValue, JsError> {
        let sim = self
            .sim
            .as_mut()
            .ok_or_else(|| JsError::new("no scene is loaded"))?;
        for _ in 0..count {
            let record = sim.step().map_err(|e| JsError::new(&e.to_string()))?;
            self.last = Some(record);
        }
        self.record()
    }

    /// The last step's record with the CLI's keys, plus `sorted_quality`,
    /// `histogram` and `region_areas`; null before the first step.
    pub fn record(&self) -> Result<JsValue, JsError> {
        match &self.last {
            None => Ok(JsValue::NULL),
            Some(r) => to_js(&RecordOut {
                record: r,
                sorted_quality: &r.measures.sorted_quality,
                histogram: &r.measures.histogram,
                region_areas: &r.measures.region_areas,
            }),
        }
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
            min_contacts: scene.oracle.min_contacts(),
            measure_step: scene.settings.measure_step,
            steps: scene.settings.steps,
            dt: sim.dt(),
            friction: scene.settings.friction,
            expected_region_areas: expected_region_areas(scene),
            bodies: scene
                .bodies
                .iter()
                .map(|b| BodyInfo {
                    name: b.name.clone(),
                    fixed: b.fixed,
                })
                .collect(),
        })
    }

    #[wasm_bindgen(js_name = bodyCount)]
    pub fn body_count(&self) -> usize {
        self.sim.as_ref().map_or(0, |s| s.scene().bodies.len())
    }

    /// Body-frame corners of every surface triangle, 9 floats each.
    #[wasm_bindgen(js_name = surfaceTriangles)]
    pub fn surface_triangles(&self, body: usize) -> Result<Vec<f32>, JsError> {
        let mesh = &self.body(body)?.mesh;
        let mut out = Vec::with_capacity(mesh.surface_faces.len() * 9);
        for f in 0..mesh.surface_faces.len() {
            for p in mesh.face_corners(f) {
                push3(&mut out, p);
            }
        }
        Ok(out)
    }

    /// Outward unit normal of every surface triangle, 3 floats each.
    #[wasm_bindgen(js_name = surfaceNormals)]
    pub fn surface_normals(&self, body: usize) -> Result<Vec<f32>, JsError> {
        let mesh = &self.body(body)?.mesh;
        let mut out = Vec::with_capacity(mesh.surface_faces.len() * 3);
        for face in &mesh.surface_faces {
            push3(&mut out, face.normal);
        }
        Ok(out)
    }

    /// Body-frame end points of every surface edge, 6 floats each.
    #[wasm_bindgen(js_name = surfaceEdges)]
    pub fn surface_edges(&self, body: usize) -> Result<Vec<f32>, JsError> {
        let mesh = &self.body(body)?.mesh;
        let mut out = Vec::with_capacity(mesh.surface_edges.len() * 6);
        for edge in &mesh.surface_edges {
            for v in edge.vertices {
                push3(&mut out, mesh.vertices[v as usize]);
            }
        }
        Ok(out)
    }

    /// Body-frame end points of every tetrahedron edge, 6 floats each.
    #[wasm_bindgen(js_name = tetEdges)]
    pub fn tet_edges(&self, body: usize) -> Result<Vec<f32>, JsError> {
        let mesh = &self.body(body)?.mesh;
        let edges = mesh.tet_edges();
        let mut out = Vec::with_capacity(edges.len() * 6);
        for edge in edges {
            for v in edge {
                push3(&mut out, mesh.vertices[v as usize]);
            }
        }
        Ok(out)
    }

    /// World-from-body matrices at the current state, 16 floats per body,
    /// column-major.
    #[wasm_bindgen(js_name = bodyTransforms)]
    pub fn body_transforms(&self) -> Result<Vec<f32>, JsError> {
        let sim = self.sim()?;
        let mut out = Vec::with_capacity(sim.bodies().len() * 16);
        for body in sim.bodies() {
            let m = glam::DMat4::from_rotation_translation(body.rotation, body.position);
            out.extend(m.to_cols_array().iter().map(|&x| x as f32));
        }
        Ok(out)
    }

    /// The last step's contacts for drawing, 12 floats each: position (3),
    /// normal A→B (3), q (NaN without an oracle), correct (1, 0, or NaN),
    /// depth, feature kind (index into `featureKinds()`), body a, body b.
    #[wasm_bindgen(js_name = contactBuffer)]
    pub fn contact_buffer(&self) -> Result<Vec<f32>, JsError> {
        let sim = self.sim()?;
        let mut out = Vec::with_capacity(sim.contacts().len() * 12);
        for (c, q) in sim.contacts().iter().zip(sim.contact_qualities()) {
            push3(&mut out, c.position);
            push3(&mut out, c.normal);
            out.push(q.q.map_or(f32::NAN, |x| x as f32));
            out.push(q.correct.map_or(f32::NAN, |x| if x { 1.0 } else { 0.0 }));
            out.push(c.depth as f32);
            out.push(
                FeatureKind::ALL
                    .iter()
                    .position(|k| *k == c.features)
                    .unwrap_or(0) as f32,
            );
            out.push(c.a as f32);
            out.push(c.b as f32);
        }
        Ok(out)
    }

    /// Labels of the feature kinds, in `contactBuffer`'s index order.
    #[wasm_bindgen(js_name = featureKinds)]
    pub fn feature_kinds() -> Vec<JsValue> {
        FeatureKind::ALL
            .iter()
            .map(|k| JsValue::from_str(k.label()))
            .collect()
    }

    /// The last step's contacts in full (for export and hover details), in
    /// full f64 precision.
    #[wasm_bindgen(js_name = contactList)]
    pub fn contact_list(&self) -> Result<JsValue, JsError> {
        let sim = self.sim()?;
        let name = |i: usize| sim.scene().bodies[i].name.clone();
        let list: Vec<ContactOut> = sim
            .contacts()
            .iter()
            .zip(sim.contact_qualities())
            .map(|(c, q)| ContactOut {
                a: name(c.a),
                b: name(c.b),
                position: c.position.to_array(),
                normal: c.normal.to_array(),
                depth: c.depth,
                features: c.features,
                feature_label: c.features.label(),
                q: q.q,
                correct: q.correct,
            })
            .collect();
        to_js(&list)
    }

    /// One row of the compare table: `method` run from the start of the
    /// current scene and settings for `steps` steps; the last record.
    #[wasm_bindgen(js_name = compareRow)]
    pub fn compare_row(&self, method: &str, steps: u32) -> Result<JsValue, JsError> {
        let settings = SimSettings {
            method: method.to_string(),
            ..self.sim()?.settings().clone()
        };
        let mut sim = Simulation::new(&self.source, &self.text, settings)
            .map_err(|e| JsError::new(&e.to_string()))?;
        let mut last = None;
        for _ in 0..steps.max(1) {
            last = Some(sim.step().map_err(|e| JsError::new(&e.to_string()))?);
        }
        match last {
            Some(r) => to_js(&RecordOut {
                record: &r,
                sorted_quality: &r.measures.sorted_quality,
                histogram: &r.measures.histogram,
                region_areas: &r.measures.region_areas,
            }),
            None => Ok(JsValue::NULL),
        }
    }

    /// The CLI's table kinds.
    #[wasm_bindgen(js_name = tableKinds)]
    pub fn table_kinds() -> Vec<JsValue> {
        TABLE_KINDS.iter().map(|k| JsValue::from_str(k)).collect()
    }

    /// A CLI table (`contactlab table <kind>`) as Markdown, for the page.
    #[wasm_bindgen(js_name = tableMarkdown)]
    pub fn table_markdown(kind: &str) -> Result<String, JsError> {
        let table: Table =
            build_table(kind, None, &mut |_, _, _| {}).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(table.to_markdown())
    }
}

fn expected_region_areas(scene: &Scene) -> Vec<f64> {
    if !matches!(
        scene.oracle,
        crate::scene::Oracle::Wall { .. } | crate::scene::Oracle::Arch { .. }
    ) {
        return Vec::new();
    }
    let exact = crate::contact::exact_contacts(
        scene,
        crate::contact::exact_regions::default_touch_tol(scene),
    );
    let mut areas: Vec<f64> = exact.pairs.iter().map(|p| p.area()).collect();
    areas.sort_by(f64::total_cmp);
    areas.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs().max(1e-12));
    areas
}

fn parse_settings(value: JsValue) -> Result<SimSettings, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(SimSettings::default());
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("settings: {e}")))
}

impl Default for Playground {
    fn default() -> Self {
        Playground::new()
    }
}
