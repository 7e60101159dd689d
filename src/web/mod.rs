//! The wasm-bindgen facade used by the page's worker
//! (`docs/design/page.md`, "The boundary between Rust and JavaScript"). It only
//! translates: every number is computed by the core ([`crate::sim`]), and
//! JavaScript gets plain objects (serde-wasm-bindgen) and flat `Float32Array`
//! buffers.

use crate::contact::methods::MethodDescription;
use crate::contact::{every_method, FeatureKind};
use crate::engines::ENGINES;
use crate::measures::oracle::Verdict;
use crate::measures::{contact_records, expected_region_areas, StepDistributions};
use crate::scene::builtin::{builtin_text, BUILTIN_SCENES};
use crate::scene::{load_scene, LoadOptions, Scene};
use crate::settings::{self, SettingSpec, SETTINGS};
use crate::sim::{SimSettings, Simulation, StepRecord};
use glam::DVec3;
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[cfg(feature = "contact-files")]
mod contact_files;
#[cfg(feature = "engines")]
mod engines;

#[derive(Serialize)]
struct SceneEntry {
    id: String,
    title: String,
    group: String,
    description: String,
    bodies: usize,
    min_contacts: Option<u64>,
}

/// A method's registry entry as the page reads it: the description
/// `contactlab methods --json` prints, and whether this module can run it.
#[derive(Serialize)]
struct MethodEntry {
    #[serde(flatten)]
    description: MethodDescription,
    /// Whether this module holds the method's algorithm
    /// (`MethodInfo::in_this_build`): the page's lean module lists parry
    /// but leaves its algorithm to the full module, which the worker loads
    /// when parry is first run.
    in_this_build: bool,
}

/// An engine of the registry as the page reads it: the keys of a
/// method's entry, with `kind` "engine", and its package.
#[derive(Serialize)]
struct EngineEntry {
    id: &'static str,
    name: &'static str,
    source: String,
    summary: &'static str,
    help: &'static str,
    /// The settings only engines read.
    reads: &'static [&'static str],
    kind: &'static str,
    reference: bool,
    paper_code: bool,
    printed: &'static str,
    package: &'static str,
    version: &'static str,
    users: &'static str,
    /// Whether this module runs engines (the full one).
    in_this_build: bool,
}

/// An entry of the page's method picker: a method or an engine.
#[derive(Serialize)]
#[serde(untagged)]
enum CatalogueEntry {
    Method(MethodEntry),
    Engine(EngineEntry),
}

/// A setting of the schema as the page reads it.
#[derive(Serialize)]
struct SettingEntry {
    id: &'static str,
    label: &'static str,
    unit: &'static str,
    kind: settings::SettingKind,
    /// The ids a choice setting takes (empty for other kinds).
    choices: &'static [&'static str],
    /// The valid range (null for on/off and method settings).
    min: Option<f64>,
    max: Option<f64>,
    /// Null: the scene's own value.
    default: serde_json::Value,
    log: bool,
    nullable: bool,
    /// Whether null stands for a length relative to the bodies' size (else
    /// for the scene's own value).
    relative: bool,
    rebuild: bool,
    /// Which part of a run it affects: the page judges the step on screen
    /// again (`setMeasureSettings`) for a change of `measure` settings only.
    stage: settings::Stage,
    cli_flag: &'static str,
    url_key: &'static str,
    help: &'static str,
}

impl SettingEntry {
    fn of(spec: &'static SettingSpec) -> SettingEntry {
        let ranged = matches!(
            spec.kind,
            settings::SettingKind::Number | settings::SettingKind::Integer
        );
        SettingEntry {
            id: spec.id,
            label: spec.label,
            unit: spec.unit,
            kind: spec.kind,
            choices: spec.choices,
            min: ranged.then_some(spec.min),
            max: ranged.then_some(spec.max),
            default: setting_json(&spec.default_value()),
            log: spec.log,
            nullable: spec.default.is_from_scene(),
            relative: matches!(spec.default, settings::Default::Relative(_)),
            rebuild: spec.rebuild,
            stage: spec.stage,
            cli_flag: spec.cli_flag,
            url_key: spec.url_key,
            help: spec.help,
        }
    }
}

fn setting_json(value: &settings::SettingValue) -> serde_json::Value {
    match value {
        settings::SettingValue::Number(x) => serde_json::json!(x),
        settings::SettingValue::Bool(b) => serde_json::json!(b),
        settings::SettingValue::Text(t) => serde_json::json!(t),
        settings::SettingValue::Scene => serde_json::Value::Null,
    }
}

/// Where each field of a contact sits in `contactBuffer()`'s floats: the
/// one statement of the layout, which the page reads through
/// `contactLayout()`.
#[derive(Serialize)]
struct ContactLayout {
    stride: usize,
    position: usize,
    normal: usize,
    q: usize,
    correct: usize,
    depth: usize,
    feature: usize,
    a: usize,
    b: usize,
    region: usize,
    kept_normal: usize,
    /// The geometric oracle's verdict: 1 right, 0.5 indeterminate-right,
    /// 0 wrong.
    geo: usize,
}

const CONTACT_LAYOUT: ContactLayout = ContactLayout {
    stride: 15,
    position: 0,
    normal: 3,
    q: 6,
    correct: 7,
    depth: 8,
    feature: 9,
    a: 10,
    b: 11,
    region: 12,
    kept_normal: 13,
    geo: 14,
};

/// Where each field of a region sits in `regionBuffer()`'s floats: the one
/// statement of that layout, which the page reads through `regionLayout()`.
/// A region is `header` floats followed by its `point_count` points, three
/// floats each, so records differ in length.
#[derive(Serialize)]
struct RegionLayout {
    header: usize,
    a: usize,
    b: usize,
    region: usize,
    dimension: usize,
    point_count: usize,
}

const REGION_LAYOUT: RegionLayout = RegionLayout {
    header: 5,
    a: 0,
    b: 1,
    region: 2,
    dimension: 3,
    point_count: 4,
};

/// The answer of `settingsFromPairs`.
#[derive(Serialize)]
struct ParsedSettings {
    settings: SimSettings,
    problems: Vec<String>,
}

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

    /// The built-in scenes, in picker order.
    pub fn scenes() -> Result<JsValue, JsError> {
        let mut entries = Vec::with_capacity(BUILTIN_SCENES.len());
        for builtin in BUILTIN_SCENES {
            let (id, text) = (builtin.id, builtin.text);
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

    /// Every entry of the registry, each `@paper-code` variant right after
    /// its method (the reference last).
    pub fn methods() -> Result<JsValue, JsError> {
        let mut entries: Vec<CatalogueEntry> = every_method()
            .map(|m| {
                CatalogueEntry::Method(MethodEntry {
                    description: m.description(),
                    in_this_build: m.in_this_build(),
                })
            })
            .collect();
        // The engines after the methods: the full module runs them, with
        // their adapters in the worker; the lean one lists them.
        entries.extend(ENGINES.iter().map(|e| {
            CatalogueEntry::Engine(EngineEntry {
                id: e.id,
                name: e.name,
                source: e.source(),
                summary: e.summary,
                help: e.help,
                reads: &["engine"],
                kind: "engine",
                reference: false,
                paper_code: false,
                printed: e.id,
                package: e.package,
                version: e.version,
                users: e.users,
                in_this_build: cfg!(feature = "engines"),
            })
        }));
        to_js(&entries)
    }

    /// The presets of the paper's tables and figures: scene, settings as
    /// link pairs, step, and the paper's columns per method id.
    pub fn presets() -> Result<JsValue, JsError> {
        to_js(&crate::report::presets::presets())
    }

    /// The settings schema, in panel order.
    #[wasm_bindgen(js_name = settingsSchema)]
    pub fn settings_schema() -> Result<JsValue, JsError> {
        to_js(&SETTINGS.iter().map(SettingEntry::of).collect::<Vec<_>>())
    }

    /// Registers a level of committed TetGen meshes from its file's text:
    /// the page's wasm has the default level compiled in but not
    /// `meshes/paper-fine.json` (about 1 MB), which the page fetches when
    /// the paper-fine mesher is first chosen. Until then that mesher falls
    /// back to the default TetGen meshes, with a notice.
    #[wasm_bindgen(js_name = registerMeshes)]
    pub fn register_meshes(level: &str, text: &str) -> Result<(), JsError> {
        let level = crate::mesh::Mesher::from_id(level)
            .ok_or_else(|| JsError::new(&format!("no mesher \"{level}\"")))?;
        crate::scene::committed::register_table(level, text).map_err(|e| JsError::new(&e))
    }

    /// The default settings (the paper's), as the flat object `load` takes.
    #[wasm_bindgen(js_name = defaultSettings)]
    pub fn default_settings() -> Result<JsValue, JsError> {
        to_js(&SimSettings::default())
    }

    /// Settings from a link's `[key, text]` pairs: `{ settings, problems }`.
    /// `link` says whether they come from a link (whose missing solver
    /// means the printed one, `SimSettings::from_url_pairs`) or from a page
    /// opened with none (the defaults).
    #[wasm_bindgen(js_name = settingsFromPairs)]
    pub fn settings_from_pairs(pairs: JsValue, link: bool) -> Result<JsValue, JsError> {
        let pairs: Vec<(String, String)> = serde_wasm_bindgen::from_value(pairs)
            .map_err(|e| JsError::new(&format!("settings pairs: {e}")))?;
        let (settings, problems) = if link {
            SimSettings::from_url_pairs(&pairs)
        } else {
            SimSettings::default().with_url_pairs(&pairs)
        };
        to_js(&ParsedSettings { settings, problems })
    }

    /// A settings object as a link's `[key, text]` pairs.
    #[wasm_bindgen(js_name = settingsToPairs)]
    pub fn settings_to_pairs(settings: JsValue) -> Result<JsValue, JsError> {
        to_js(&parse_settings(settings)?.to_url_pairs())
    }

    /// One typed value of setting `id`: the value, or an error worded as
    /// everywhere else.
    #[wasm_bindgen(js_name = checkSetting)]
    pub fn check_setting(id: &str, text: &str) -> Result<JsValue, JsError> {
        let mut settings = SimSettings::default();
        settings
            .set_text(id, text)
            .map_err(|e| JsError::new(&e.to_string()))?;
        let value = settings
            .get(id)
            .ok_or_else(|| JsError::new(&format!("there is no setting called \"{id}\"")))?;
        to_js(&setting_json(&value))
    }

    /// The layout of `contactBuffer()`: the stride and each field's offset.
    #[wasm_bindgen(js_name = contactLayout)]
    pub fn contact_layout() -> Result<JsValue, JsError> {
        to_js(&CONTACT_LAYOUT)
    }

    /// The layout of `regionBuffer()`: each region's header fields.
    #[wasm_bindgen(js_name = regionLayout)]
    pub fn region_layout() -> Result<JsValue, JsError> {
        to_js(&REGION_LAYOUT)
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

    /// The last step's contacts for drawing, `contactLayout()` floats each:
    /// position (3), normal A→B (3), q (NaN without an oracle), correct (1,
    /// 0, or NaN), depth, feature kind (index into `featureKinds()`), body a,
    /// body b, region (its index among its body pair's regions in
    /// `regionBuffer()`; NaN for a local method's contact), kept normal (1
    /// when a region method kept it from the previous step, else 0).
    #[wasm_bindgen(js_name = contactBuffer)]
    pub fn contact_buffer(&self) -> Result<Vec<f32>, JsError> {
        let sim = self.sim()?;
        let layout = &CONTACT_LAYOUT;
        let mut out = Vec::with_capacity(sim.contacts().len() * layout.stride);
        for (c, q) in sim.contacts().iter().zip(sim.contact_qualities()) {
            // Written in the layout's field order; the debug assertion below
            // keeps the two in step.
            let first = out.len();
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
            out.push(c.region.map_or(f32::NAN, |r| r as f32));
            out.push(if c.kept_normal { 1.0 } else { 0.0 });
            out.push(match q.geo {
                Verdict::Right => 1.0,
                Verdict::IndeterminateRight => 0.5,
                Verdict::Wrong(_) => 0.0,
            });
            debug_assert_eq!(out.len() - first, layout.stride);
            debug_assert_eq!(out[first + layout.b], c.b as f32);
            debug_assert_eq!(out[first + layout.kept_normal], f32::from(c.kept_normal));
        }
        Ok(out)
    }

    /// The last step's contact regions for drawing (region methods only;
    /// empty for the others), in the core's order, each as `regionLayout()`
    /// says: body a, body b, its index among its body pair's regions (what a
    /// contact's `region` names), dimension (0 point, 1 segment, 2 polygon),
    /// the number of points, then the points (world frame, 3 floats each; a
    /// polygon is closed, its last point joining the first).
    #[wasm_bindgen(js_name = regionBuffer)]
    pub fn region_buffer(&self) -> Result<Vec<f32>, JsError> {
        let regions = self.sim()?.regions();
        let layout = &REGION_LAYOUT;
        let floats: usize = regions
            .iter()
            .map(|r| layout.header + 3 * r.outline.points.len())
            .sum();
        let mut out = Vec::with_capacity(floats);
        // A contact's `region` indexes its body pair's regions in the core's
        // order (`ContactSet::regions`), so each pair counts from 0.
        let mut per_pair = std::collections::BTreeMap::new();
        for region in regions {
            let next = per_pair.entry((region.a, region.b)).or_insert(0u32);
            let index = *next;
            *next += 1;
            let first = out.len();
            out.push(region.a as f32);
            out.push(region.b as f32);
            out.push(index as f32);
            out.push(f32::from(region.outline.dimension));
            out.push(region.outline.points.len() as f32);
            debug_assert_eq!(out.len() - first, layout.header);
            debug_assert_eq!(
                out[first + layout.dimension],
                f32::from(region.outline.dimension)
            );
            for &p in &region.outline.points {
                push3(&mut out, p);
            }
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
    /// full f64 precision, as `contactlab contacts --json` lists them.
    #[wasm_bindgen(js_name = contactList)]
    pub fn contact_list(&self) -> Result<JsValue, JsError> {
        let sim = self.sim()?;
        to_js(&contact_records(
            sim.scene(),
            sim.contacts(),
            sim.contact_qualities(),
        ))
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
            let scene =
                load_scene(source, text, &options).map_err(|e| JsError::new(&e.to_string()))?;
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
