//! The page's catalogues, read once when the worker starts: the built-in
//! scenes, the method picker's entries (methods, then engines), the
//! paper's presets, the settings schema, and settings to and from a link's
//! pairs. Translation only: every entry comes from a registry of the core.

use super::{parse_settings, to_js, Playground};
use crate::contact::every_method;
use crate::contact::methods::MethodDescription;
use crate::engines::ENGINES;
use crate::scene::builtin::BUILTIN_SCENES;
use crate::scene::{load_scene, LoadOptions};
use crate::settings::{self, SettingSpec, SETTINGS};
use crate::sim::SimSettings;
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

/// The answer of `settingsFromPairs`.
#[derive(Serialize)]
struct ParsedSettings {
    settings: SimSettings,
    problems: Vec<String>,
}

#[wasm_bindgen]
impl Playground {
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
}
