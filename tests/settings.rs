//! The settings schema and the method registry are the one source of every
//! list (issue 8): the typed settings cover the schema exactly, and the same
//! bad value gets the same message from the CLI, a scene file and a link.

use contactlab::contact::{method_by_id, REGISTRY};
use contactlab::scene::{load_scene, LoadOptions};
use contactlab::settings::{self, SettingValue, SETTINGS};
use contactlab::sim::SimSettings;
use std::process::Command;

#[test]
fn sim_settings_have_exactly_the_schema_s_fields() {
    let defaults = SimSettings::default();
    let json = serde_json::to_value(&defaults).unwrap();
    let mut fields: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut ids: Vec<&str> = SETTINGS.iter().map(|s| s.id).collect();
    fields.sort_unstable();
    ids.sort_unstable();
    assert_eq!(fields, ids);
    for spec in SETTINGS {
        assert_eq!(
            defaults.get(spec.id),
            Some(spec.default_value()),
            "{}",
            spec.id
        );
    }
}

#[test]
fn every_setting_round_trips_through_text() {
    for spec in SETTINGS {
        let mut s = SimSettings::default();
        let value = match spec.kind {
            settings::SettingKind::Number | settings::SettingKind::Integer => {
                SettingValue::Number(spec.max)
            }
            settings::SettingKind::Bool => SettingValue::Bool(true),
            settings::SettingKind::Method => SettingValue::Text("growth".into()),
            settings::SettingKind::Choice => {
                // A choice other than the default, so the link carries it.
                let default = settings::SettingSpec::format(&spec.default_value());
                let other = spec.choices.iter().find(|c| **c != default).unwrap();
                SettingValue::Text(other.to_string())
            }
        };
        s.set_text(spec.id, &settings::SettingSpec::format(&value))
            .unwrap_or_else(|e| panic!("{}: {e}", spec.id));
        assert_eq!(s.get(spec.id), Some(value), "{}", spec.id);
        // A link carries it and brings it back.
        let pairs: Vec<(String, String)> = s
            .to_url_pairs()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let (back, problems) = SimSettings::from_url_pairs(&pairs);
        assert!(problems.is_empty(), "{}: {problems:?}", spec.id);
        assert_eq!(back, s, "{}", spec.id);
    }
}

#[test]
fn the_registry_ids_are_unique_and_name_only_known_settings() {
    for (i, m) in REGISTRY.iter().enumerate() {
        assert!(
            REGISTRY[i + 1..].iter().all(|o| o.id != m.id),
            "{} twice",
            m.id
        );
        assert!(std::ptr::eq(method_by_id(m.id).unwrap(), *m));
        assert!(!m.help.is_empty() && !m.summary.is_empty() && !m.source.is_empty());
        for id in m.reads {
            assert!(
                settings::spec(id).is_some(),
                "{} reads unknown setting {id}",
                m.id
            );
        }
    }
    assert_eq!(REGISTRY.iter().filter(|m| m.is_reference()).count(), 1);
}

/// The core's words for a time step of 2 s.
const BAD_DT: &str =
    "the time step must be from 0.0001 to 0.1 s, or empty for the scene's value, got 2";

#[test]
fn a_bad_time_step_gets_the_same_message_from_the_cli_a_scene_file_and_a_link() {
    let cli = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["run", "pillar", "--dt", "2"])
        .output()
        .unwrap();
    assert_eq!(cli.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&cli.stderr).trim(),
        format!("contactlab: --dt: {BAD_DT}")
    );

    let file = r#"{ "format": "contactlab-scene/1", "id": "t", "settings": { "dt": 2 },
        "bodies": [ { "name": "b", "shape": { "type": "box", "size": [1, 1, 1] } } ] }"#;
    let error = load_scene("bad.json", file, &LoadOptions::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("bad.json: settings.dt: {BAD_DT}")
    );

    let (settings, problems) = SimSettings::from_url_pairs(&[("dt".to_string(), "2".to_string())]);
    assert_eq!(problems, [format!("dt: {BAD_DT}; using the default")]);
    assert_eq!(settings.dt, None);
}

#[test]
fn a_setting_that_defaults_to_the_scene_s_value_finds_it_under_its_scene_key() {
    let file = r#"{ "format": "contactlab-scene/1", "id": "t", "settings": { "dt": 0.002, "friction": 0.3 },
        "bodies": [ { "name": "b", "shape": { "type": "box", "size": [1, 1, 1] } } ] }"#;
    let scene = load_scene("t.json", file, &LoadOptions::default()).unwrap();
    let own: Vec<(&str, f64)> = SETTINGS
        .iter()
        .filter_map(|spec| Some((spec.id, scene.settings.own_value(spec)?)))
        .collect();
    assert_eq!(own, [("dt", 0.002), ("mu", 0.3)]);
    for spec in SETTINGS.iter().filter(|s| s.scene_key.is_some()) {
        assert_eq!(spec.default, settings::Default::Scene, "{}", spec.id);
    }
}

#[test]
fn today_s_links_keep_their_meaning() {
    // Keys and values a link made before the schema carried.
    let link = "method=closest-points&perturb=0.01&seed=7&dt=0.005&iters=200&mu=0.3&eps=0.02&refine=1&tol=2";
    let pairs: Vec<(String, String)> = link
        .split('&')
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect();
    let (s, problems) = SimSettings::from_url_pairs(&pairs);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        s,
        SimSettings {
            method: "closest-points".into(),
            perturb: 0.01,
            seed: 7,
            dt: Some(0.005),
            iterations: 200,
            mu: Some(0.3),
            epsilon: Some(0.02),
            refine: 1,
            tol_deg: 2.0,
            // It names no solver: it ran the printed one, and still does.
            solver: contactlab::solver::SolverRules::Printed,
            ..SimSettings::default()
        }
    );
}

#[test]
fn the_solver_setting_offers_exactly_the_solver_variants() {
    let spec = settings::spec("solver").unwrap();
    assert_eq!(spec.choices, contactlab::solver::SolverRules::IDS);
    for id in spec.choices {
        let mut s = SimSettings::default();
        s.set_text("solver", id).unwrap();
        assert_eq!(s.get("solver"), Some(SettingValue::Text(id.to_string())));
    }
}

#[test]
fn a_link_can_name_a_paper_code_variant_and_an_unknown_one_is_refused() {
    let key = settings::spec("method").unwrap().url_key;
    let pairs = |id: &str| vec![(key.to_string(), id.to_string())];
    let (s, problems) = SimSettings::from_url_pairs(&pairs("opposing@paper-code"));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.method, "opposing@paper-code");
    assert!(s.method_info().unwrap().is_paper_code());
    assert!(s
        .to_url_pairs()
        .contains(&(key, "opposing@paper-code".to_string())));
    let (s, problems) = SimSettings::from_url_pairs(&pairs("growth@foo"));
    assert_eq!(s.method, SimSettings::default().method);
    assert!(problems[0].contains("growth@paper-code"), "{problems:?}");
}
