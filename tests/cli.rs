//! The `contactlab` command line: its output and its errors.

mod common;

use common::contactlab;

#[test]
fn scenes_lists_every_scene_with_its_minimal_count() {
    let (code, out, _) = contactlab(&["scenes"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        lines.len(),
        contactlab::scene::builtin::BUILTIN_SCENES.len()
    );
    assert!(lines.iter().any(|l| l.starts_with("spinning-sphere ")));
    let pillar: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(pillar, ["pillar", "Complex", "cases", "8", "40"]);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("wall ") && l.trim_end().ends_with(" 852")));
}

#[test]
fn exact_json_has_the_documented_keys() {
    let (code, out, err) = contactlab(&["exact", "wall", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["min_contacts"], 852);
    assert!((v["total_area"].as_f64().unwrap() - 37.59375).abs() < 1e-9);
    assert!(v["max_feature_contacts"].as_u64().unwrap() >= 852);
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 213);
    for key in [
        "a",
        "b",
        "regions",
        "hull_vertices",
        "area",
        "feature_pairs",
    ] {
        assert!(pairs[0].get(key).is_some(), "pairs[0] lacks {key}");
    }
}

#[test]
fn exact_text_reports_the_pillar_totals() {
    // The scene's own meshes (TetGen) by default; the feature pairs depend
    // on the surface triangulation, the hull vertices do not.
    for (args, features) in [
        (&["exact", "pillar"][..], 48),
        (&["exact", "pillar", "--mesher", "tetgen"][..], 48),
        (&["exact", "pillar", "--mesher", "cones"][..], 50),
    ] {
        let (code, out, _) = contactlab(args);
        assert_eq!(code, 0);
        let total = out.lines().last().unwrap();
        assert!(
            total.contains("40 hull vertices")
                && total.contains(&format!("{features} unique touching-feature contacts")),
            "{args:?}: {total}"
        );
    }
}

#[test]
fn exact_reads_a_scene_file_and_takes_options() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/pillar.json");
    let (code, out, err) = contactlab(&[
        "exact",
        path,
        "--refine",
        "1",
        "--perturb",
        "0.01",
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["scene"], "pillar");
}

#[test]
fn bad_input_gives_a_clear_error_and_exit_code_2() {
    for (args, words) in [
        (vec!["exact"], "needs a scene"),
        (vec!["exact", "no-such-scene"], "neither a built-in scene"),
        (
            vec!["exact", "pillar", "--refine", "5"],
            "--refine: the refinement level must be a whole number from 0 to 2, got 5",
        ),
        (vec!["exact", "pillar", "--perturb", "-1"], "--perturb"),
        (vec!["exact", "pillar", "--seed"], "needs a value"),
        (
            vec!["exact", "pillar", "--bogus", "1"],
            "unknown option '--bogus'",
        ),
        (
            vec!["frobnicate"],
            "unknown command 'frobnicate' (expected one of: scenes, exact, methods, contacts, run, score, export, mesh, tetgen, table;",
        ),
        (vec!["exact", "pillar", "--dt", "0.01"], "unknown option '--dt'"),
        (vec!["table", "pillar", "--steps", "0"], "--steps: the number of steps must be a whole number from 1"),
        (vec!["scenes", "extra"], "takes no argument"),
    ] {
        let (code, out, err) = contactlab(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
}

#[test]
fn a_malformed_scene_file_names_the_file() {
    let dir = std::env::temp_dir().join(format!("contactlab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.json");
    std::fs::write(
        &path,
        r#"{ "format": "contactlab-scene/1", "id": "x", "bodies": [] }"#,
    )
    .unwrap();
    let (code, _, err) = contactlab(&["exact", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("broken.json") && err.contains("no bodies"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The paper's eight methods, in the order of its tables.
const PAPER_EIGHT: [&str; 8] = [
    "closest-points",
    "intersection",
    "vertex-only",
    "consistent-vertex",
    "volume-sat",
    "surface-sat",
    "opposing",
    "growth",
];

/// The method ids `contactlab methods` prints, one per line, in its order
/// (the engines' lines, which follow, left out).
fn listed_ids() -> Vec<String> {
    let (code, out, _) = contactlab(&["methods"]);
    assert_eq!(code, 0);
    out.lines()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .filter(|id| contactlab::engines::engine_by_id(id).is_none())
        .collect()
}

#[test]
fn methods_lists_the_engines_after_the_methods_with_how_to_run_them() {
    let (code, out, _) = contactlab(&["methods"]);
    assert_eq!(code, 0);
    let engine_lines: Vec<&str> = out
        .lines()
        .filter(|l| l.split_whitespace().nth(1) == Some("engine"))
        .collect();
    let ids: Vec<&str> = engine_lines
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(ids, contactlab::engines::engine_ids());
    for (line, engine) in engine_lines.iter().zip(contactlab::engines::ENGINES) {
        assert!(line.contains(&format!("--method {}", engine.id)), "{line}");
        assert!(line.contains(engine.version), "{line}");
    }
    assert!(
        out.lines().last().unwrap().contains(" engine "),
        "the engines come last"
    );
}

/// A `@paper-code` variant's id (`docs/design/reference-code.md`).
fn is_variant(id: &str) -> bool {
    id.ends_with(contactlab::contact::PAPER_CODE_SUFFIX)
}

#[test]
fn methods_lists_the_registry_in_its_order() {
    let ids: Vec<String> = listed_ids()
        .into_iter()
        .filter(|id| !is_variant(id))
        .collect();
    let registry: Vec<&str> = contactlab::contact::REGISTRY.iter().map(|m| m.id).collect();
    assert_eq!(ids, registry);
    // ContactLab's own method leads; the paper's eight follow, in the
    // order of its tables.
    assert_eq!(ids[0], "semi-local");
    assert_eq!(ids[1..9], PAPER_EIGHT);
    let (_, json, _) = contactlab(&["methods", "--json"]);
    let list: serde_json::Value = serde_json::from_str(&json).unwrap();
    let json_ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] != "engine")
        .map(|m| m["id"].as_str().unwrap())
        .filter(|id| !is_variant(id))
        .collect();
    assert_eq!(json_ids, registry);
}

#[test]
fn methods_lists_each_paper_code_variant_after_its_method() {
    let ids = listed_ids();
    let every: Vec<&str> = contactlab::contact::every_method().map(|m| m.id).collect();
    assert_eq!(ids, every);
    for id in PAPER_EIGHT {
        let at = ids.iter().position(|i| i == id).unwrap();
        assert_eq!(ids[at + 1], format!("{id}@paper-code"), "{id}'s variant");
    }
    assert_eq!(ids.iter().filter(|id| is_variant(id)).count(), 8);
}

#[test]
fn contacts_json_has_contacts_and_measures() {
    let (code, out, err) = contactlab(&["contacts", "pillar", "--method", "opposing", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let contacts = v["contacts"].as_array().unwrap();
    let measures = &v["measures"];
    assert_eq!(measures["count"].as_u64().unwrap() as usize, contacts.len());
    for key in ["quality", "excess", "ms_broad", "ms_method"] {
        assert!(measures[key].is_number(), "{key}: {}", measures[key]);
    }
    // The Pillar's oracle has no coverage or area coverage: null, not 0.
    assert!(measures["coverage"].is_null() && measures["area_coverage"].is_null());
    let correct = contacts.iter().filter(|c| c["correct"] == true).count();
    let quality = measures["quality"].as_f64().unwrap();
    assert!((quality - 100.0 * correct as f64 / contacts.len() as f64).abs() < 1e-9);
    for c in contacts {
        for key in [
            "a", "b", "position", "normal", "depth", "features", "q", "correct",
        ] {
            assert!(c.get(key).is_some(), "contact lacks {key}");
        }
        let n: Vec<f64> = c["normal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() - 1.0).abs() < 1e-12);
    }
}

#[test]
fn contacts_on_a_case_reports_coverage_and_on_the_wall_area_coverage() {
    let (_, out, _) = contactlab(&[
        "contacts",
        "spike-in-crack",
        "--method",
        "volume-sat",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["measures"]["coverage"], 100.0);
    let (_, out, _) = contactlab(&["contacts", "wall", "--method", "opposing", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p = v["measures"]["area_coverage"].as_f64().unwrap();
    assert!(p > 0.9 && p <= 1.0 + 1e-9, "{p}");
}

#[test]
fn contacts_refuses_bad_method_and_settings() {
    for (args, words) in [
        (vec!["contacts", "pillar"], "--method is required"),
        (
            vec!["contacts", "pillar", "--method", "magic"],
            "--method: the contact method must be one of semi-local, closest-points,",
        ),
        (
            vec!["contacts", "pillar", "--method", "growth", "--epsilon", "0"],
            "--epsilon",
        ),
        (
            vec![
                "contacts",
                "pillar",
                "--method",
                "growth",
                "--tol-deg",
                "95",
            ],
            "--tol-deg",
        ),
        (vec!["table", "everything"], "unknown table"),
    ] {
        let (code, _, err) = contactlab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
}

#[test]
fn initial_table_has_the_papers_shape_and_pattern() {
    // On the scene's own meshes (TetGen, the default) Closest points has
    // the best Pillar normals and Intersection the worst, as in table 7;
    // Surface-SAT beats Opposing there (docs/results.md).
    let (code, out, _) = contactlab(&["table", "initial"]);
    assert_eq!(code, 0);
    let quality = |name: &str| pillar_quality(&out, name);
    for other in [
        "Intersection",
        "Vertex only",
        "Consistent vertex",
        "Volume-SAT",
        "Surface-SAT",
        "Opposing",
        "Growth",
    ] {
        assert!(
            quality("Closest points") > quality(other),
            "TetGen: Closest points vs {other}"
        );
        if other != "Intersection" {
            assert!(
                quality(other) > quality("Intersection"),
                "TetGen: {other} vs Intersection"
            );
        }
    }
    assert!(
        out.contains("**Coverage %**")
            && out.contains("**Quality %**")
            && out.contains("**Excess**")
    );
}

/// The quality % of `name`'s row in the Pillar table of `table initial`.
fn pillar_quality(out: &str, name: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("| {name} |")))
        .unwrap_or_else(|| panic!("no row for {name}"));
    let cells: Vec<&str> = line
        .split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    cells[1].parse().unwrap()
}

#[test]
fn initial_table_on_cones_has_the_papers_full_pillar_pattern() {
    let (code, out, _) = contactlab(&["table", "initial", "--mesher", "cones"]);
    assert_eq!(code, 0);
    let quality = |name: &str| pillar_quality(&out, name);
    // The paper's pattern on the Pillar (table 7): Closest points and Opposing
    // are the best, Intersection the worst, and Opposing beats Volume-SAT.
    let others = [
        "Intersection",
        "Vertex only",
        "Consistent vertex",
        "Volume-SAT",
        "Surface-SAT",
        "Growth",
    ];
    for other in others {
        assert!(quality("Opposing") > quality(other), "Opposing vs {other}");
        assert!(
            quality("Closest points") > quality(other),
            "Closest points vs {other}"
        );
        if other != "Intersection" {
            assert!(
                quality(other) > quality("Intersection"),
                "{other} vs Intersection"
            );
        }
    }
    assert!(
        out.contains("**Coverage %**")
            && out.contains("**Quality %**")
            && out.contains("**Excess**")
    );
}

#[test]
fn run_json_prints_one_record_per_step_with_the_documented_keys() {
    let (code, out, err) = contactlab(&[
        "run", "pillar", "--method", "opposing", "--steps", "3", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for key in [
        "step",
        "time",
        "count",
        "quality",
        "coverage",
        "area_coverage",
        "excess",
        "min_depth",
        "penetration",
        "kinetic_energy",
        "max_displacement",
        "iterations",
        "residual",
        "ms_broad",
        "ms_method",
        "ms_solver",
        "ms_oracle",
        "oracle",
        "scene_correct",
        "scene_quality",
        "scene_coverage",
        "scene_area_coverage",
        "scene_min_contacts",
        "scene_excess",
        "geo_right",
        "geo_indeterminate_right",
        "geo_wrong",
        "geo_quality",
        "geo_coverage",
        "geo_area_coverage",
        "geo_min_contacts",
        "geo_excess",
    ] {
        assert!(lines[2].get(key).is_some(), "missing {key}");
    }
    // The Pillar has its own oracle: the headline is the scene's.
    assert_eq!(lines[2]["oracle"], "scene");
    assert_eq!(lines[2]["quality"], lines[2]["scene_quality"]);
    assert_eq!(lines[2]["step"], 3);
    assert_eq!(lines[2]["iterations"], 1000);
    assert!(lines[2]["coverage"].is_null() && lines[2]["quality"].is_number());
    // The same run twice prints the same numbers (timings aside).
    let (_, again, _) = contactlab(&[
        "run", "pillar", "--method", "opposing", "--steps", "3", "--json",
    ]);
    let strip = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                for k in ["ms_broad", "ms_method", "ms_solver", "ms_oracle"] {
                    v[k] = serde_json::Value::Null;
                }
                v.to_string()
            })
            .collect()
    };
    assert_eq!(strip(&out), strip(&again));
}

#[test]
fn run_json_with_contacts_lists_each_steps_contacts_and_their_verdicts() {
    let (code, out, err) = contactlab(&[
        "run",
        "pillar",
        "--method",
        "opposing",
        "--steps",
        "3",
        "--json",
        "--contacts",
    ]);
    assert_eq!(code, 0, "{err}");
    for line in out.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let contacts = record["contacts"].as_array().expect("a contacts array");
        assert_eq!(contacts.len() as u64, record["count"].as_u64().unwrap());
        let right = contacts.iter().filter(|c| c["correct"] == true).count();
        assert_eq!(right as u64, record["correct"].as_u64().unwrap());
        let geo = |verdict: &str| contacts.iter().filter(|c| c["geo"] == verdict).count() as u64;
        assert_eq!(geo("right"), record["geo_right"].as_u64().unwrap());
        assert_eq!(
            geo("indeterminate-right"),
            record["geo_indeterminate_right"].as_u64().unwrap()
        );
        assert_eq!(
            geo("wrong-far") + geo("wrong-normal"),
            record["geo_wrong"].as_u64().unwrap()
        );
        assert!(contacts.iter().all(|c| c["geo_q"].is_number()));
        assert!(contacts
            .iter()
            .all(|c| c["a"].is_string() && c["features"].is_string()));
    }
    // Without --json there is no line to put them in: said, not ignored.
    let (code, _, err) = contactlab(&["run", "pillar", "--contacts"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--contacts") && err.contains("--json"),
        "{err}"
    );
}

/// A step's numbers as the `run --json` line gives them.
fn run_line(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = contactlab(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(out.lines().last().expect("a line")).unwrap()
}

#[test]
fn the_oracle_setting_picks_the_headline() {
    // The Arch: its own oracle wants the line between the stones' centres
    // and has no coverage; the geometric oracle judges the same contacts
    // from the stones' surfaces. Both sets are in the record whichever
    // heads it.
    let base = [
        "run",
        "arch",
        "--method",
        "semi-local",
        "--steps",
        "1",
        "--json",
        "--no-timings",
    ];
    let scene = run_line(&base);
    let geometric = run_line(&[&base[..], &["--oracle", "geometric"]].concat());
    assert_eq!(scene["oracle"], "scene");
    assert_eq!(geometric["oracle"], "geometric");
    for key in ["quality", "coverage", "excess", "correct"] {
        assert_eq!(scene[key], scene[format!("scene_{key}")], "{key}");
    }
    for key in ["quality", "coverage", "excess"] {
        assert_eq!(geometric[key], geometric[format!("geo_{key}")], "{key}");
    }
    assert_eq!(
        geometric["correct"].as_u64().unwrap(),
        geometric["geo_right"].as_u64().unwrap()
            + geometric["geo_indeterminate_right"].as_u64().unwrap()
    );
    // Only the headline moves: every other key is the same.
    let rest = |mut v: serde_json::Value| {
        for key in [
            "oracle",
            "correct",
            "quality",
            "coverage",
            "area_coverage",
            "excess",
        ] {
            v[key] = serde_json::Value::Null;
        }
        v
    };
    assert_eq!(rest(scene.clone()), rest(geometric.clone()));
    // The headline differs: the arch oracle has no coverage, the
    // geometric oracle has one.
    assert!(scene["coverage"].is_null(), "{scene}");
    assert!(geometric["coverage"].is_number(), "{geometric}");
    // A bad value names the flag and the choices.
    let (code, _, err) = contactlab(&["run", "pillar", "--oracle", "best"]);
    assert_eq!(code, 2);
    assert!(err.contains("scene") && err.contains("geometric"), "{err}");
}

#[test]
fn a_scene_file_without_an_oracle_is_judged_by_the_geometric_oracle() {
    let dir = std::env::temp_dir().join(format!("contactlab-no-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/box-on-ramp.json"),
    )
    .unwrap();
    let mut scene: serde_json::Value = serde_json::from_str(&text).unwrap();
    scene.as_object_mut().unwrap().remove("oracle");
    let file = dir.join("box-on-ramp-no-oracle.json");
    std::fs::write(&file, scene.to_string()).unwrap();
    let path = file.to_str().unwrap();
    // Whatever the setting says, the headline is the geometric oracle's.
    for oracle in ["scene", "geometric"] {
        let line = run_line(&[
            "run",
            path,
            "--method",
            "semi-local",
            "--steps",
            "1",
            "--json",
            "--oracle",
            oracle,
        ]);
        assert_eq!(line["oracle"], "geometric", "{line}");
        assert!(line["quality"].is_number(), "{line}");
        assert_eq!(line["quality"], line["geo_quality"]);
        assert!(line["scene_quality"].is_null() && line["scene_min_contacts"].is_null());
    }
    let (code, out, err) = contactlab(&["run", path, "--method", "semi-local", "--steps", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines()
            .next()
            .unwrap()
            .contains("by the geometric oracle"),
        "{out}"
    );
    let row: Vec<&str> = out.lines().nth(2).unwrap().split_whitespace().collect();
    // step, time, count, quality: a number, not "-".
    assert!(row[3].parse::<f64>().is_ok(), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_text_and_the_reference_method() {
    let (code, out, err) = contactlab(&[
        "run",
        "wedges",
        "--method",
        "reference",
        "--steps",
        "2",
        "--dt",
        "0.005",
        "--iterations",
        "50",
        "--mu",
        "0.3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().next().unwrap().contains("reference") && out.lines().count() == 4,
        "{out}"
    );
}

#[test]
fn run_refuses_bad_settings() {
    for (args, words) in [
        (
            vec!["run", "pillar", "--method", "nope"],
            "--method: the contact method must be one of",
        ),
        (vec!["run", "pillar", "--dt", "0"], "--dt"),
        (vec!["run", "pillar", "--iterations", "0"], "iterations"),
        (vec!["run", "pillar", "--mu", "-2"], "mu"),
        (vec!["run", "pillar", "--steps", "x"], "--steps"),
    ] {
        let (code, _, err) = contactlab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
}

/// The engines whose contacts `cargo xtask engines` recorded (rows after
/// the methods' in the initial-pose and step-3 tables).
fn recorded_engine_labels() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/engine-contacts");
    let engines = contactlab::report::engines::recorded_engines(&dir).unwrap();
    assert!(
        !engines.is_empty(),
        "no engine contacts under {}",
        dir.display()
    );
    engines.into_iter().map(|e| e.label).collect()
}

#[test]
fn table_pillar_as_csv_has_a_row_per_method() {
    let (code, out, err) = contactlab(&["table", "pillar", "--csv"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let methods: Vec<_> = contactlab::contact::methods_under_test().collect();
    // The engines run in Node, then the recorded ones.
    let engines: Vec<String> = contactlab::engines::ENGINES
        .iter()
        .map(|e| e.label())
        .chain(recorded_engine_labels())
        .collect();
    assert_eq!(lines.len(), 1 + methods.len() + engines.len());
    assert!(lines[0].starts_with(
        "method,quality %,contacts,excess,geo quality %,geo coverage %,geo excess,paper quality %"
    ));
    let names = methods.iter().map(|m| m.name.to_string()).chain(engines);
    for (line, name) in lines[1..].iter().zip(names) {
        assert!(line.starts_with(&format!("{name},")), "{line}");
    }
    assert!(err.contains("table pillar: done"));
}

#[test]
fn every_command_answers_help() {
    // The commands as the top-level help lists them, so a new command is
    // covered without editing this test.
    let (_, usage, _) = contactlab(&["--help"]);
    let commands: Vec<&str> = usage
        .lines()
        .filter_map(|l| l.strip_prefix("  contactlab "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.len() >= 8, "{usage}");
    for command in commands {
        let (code, out, err) = contactlab(&[command, "--help"]);
        assert_eq!(code, 0, "{command}: {err}");
        assert!(
            out.starts_with(&format!("Usage: contactlab {command}")),
            "{command}: {out}"
        );
    }
    let (_, run_help, _) = contactlab(&["run", "--help"]);
    for spec in contactlab::settings::SETTINGS {
        assert!(
            run_help.contains(spec.cli_flag),
            "run --help lacks {}",
            spec.cli_flag
        );
    }
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        // Hundreds of lines, each flushed as its step ends: the writes after
        // the hang-up below must fail with a broken pipe.
        .args([
            "run",
            "pillar",
            "--steps",
            "300",
            "--iterations",
            "1",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one byte, then hang up, as `| head -c 1` does.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn two_runs_without_timings_print_identical_json() {
    let args = ["run", "pillar", "--steps", "2", "--json", "--no-timings"];
    let (code, first, err) = contactlab(&args);
    assert_eq!(code, 0, "{err}");
    assert!(!first.contains("ms_"), "{first}");
    let (_, second, _) = contactlab(&args);
    assert_eq!(first, second);
}

#[test]
fn scene_files_with_a_byte_order_mark_load_and_non_utf8_files_are_named() {
    let dir = std::env::temp_dir().join(format!("contactlab-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = contactlab::scene::builtin::builtin_text("spikes").unwrap();
    let bom = dir.join("bom.json");
    std::fs::write(&bom, format!("\u{feff}{text}")).unwrap();
    let (code, _, err) = contactlab(&["exact", bom.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let latin1 = dir.join("latin1.json");
    std::fs::write(&latin1, b"{ \"title\": \"caf\xe9\" }").unwrap();
    let (code, _, err) = contactlab(&["exact", latin1.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("latin1.json: not UTF-8 text"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn mesh_json_reports_the_tetgen_pillar_per_body() {
    let (code, out, err) = contactlab(&["mesh", "pillar", "--mesher", "tetgen", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let bodies = v["bodies"].as_array().unwrap();
    assert_eq!(bodies.len(), 8);
    for b in bodies {
        assert_eq!(b["mesher"], "tetgen");
        let by_faces: Vec<u64> = b["tets_by_surface_faces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        // The rest are interior (TetGen puts one inside the base frustum).
        assert!(by_faces.iter().sum::<u64>() <= b["tetrahedra"].as_u64().unwrap());
        assert!(b["max_radius_edge_ratio"].as_f64().unwrap() > 0.6);
    }
    let plinth = &bodies[1];
    assert_eq!(plinth["name"], "plinth");
    assert_eq!(plinth["tetrahedra"], 6);
    assert_eq!(plinth["surface_triangles"], 12);
    assert_eq!(
        plinth["tets_by_surface_faces"],
        serde_json::json!([0, 6, 0])
    );
    assert!((plinth["volume"].as_f64().unwrap() - 0.5 * 0.21 * 0.5).abs() < 1e-15);
    assert_eq!(bodies[7]["name"], "abacus");
    assert_eq!(bodies[7]["tetrahedra"], 6);
}

#[test]
fn mesh_text_and_the_cones_mesher() {
    let (code, out, _) = contactlab(&["mesh", "pillar", "--mesher", "cones"]);
    assert_eq!(code, 0);
    let plinth: Vec<&str> = out
        .lines()
        .find(|l| l.starts_with("plinth"))
        .unwrap()
        .split_whitespace()
        .collect();
    // 12 cones, one surface face each.
    // A box: convex.
    assert_eq!(
        plinth[..7],
        ["plinth", "cones", "yes", "12", "12", "12", "0"]
    );
    let (code, _, err) = contactlab(&["mesh", "pillar", "--mesher", "delaunay"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--mesher: the mesher must be one of tetgen, cones, paper-fine"),
        "{err}"
    );
}

#[test]
fn a_fallback_to_cones_is_a_notice_on_stderr() {
    let dir = std::env::temp_dir().join(format!("contactlab-cli-mesher-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("odd.json");
    std::fs::write(
        &path,
        r#"{ "format": "contactlab-scene/1", "id": "odd", "mesher": "tetgen",
             "bodies": [ { "name": "odd-box", "shape": { "type": "box", "size": [0.7, 0.2, 0.3] } } ] }"#,
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let (code, out, err) = contactlab(&["mesh", path, "--mesher", "tetgen", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note:") && err.contains("odd-box: meshed with cones instead of tetgen"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bodies"][0]["mesher"], "cones");
    // Asking for cones is no fallback: no notice.
    let (code, _, err) = contactlab(&["mesh", path, "--mesher", "cones"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn vertex_only_and_consistent_vertex_differ_on_the_tetgen_pillar_only() {
    let count = |method: &str, mesher: &str| {
        let (code, out, err) = contactlab(&[
            "contacts",
            "pillar",
            "--method",
            method,
            "--mesher",
            mesher,
            "--json",
            "--no-timings",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (
            v["measures"]["count"].as_u64().unwrap(),
            v["measures"]["quality"].as_f64().unwrap(),
        )
    };
    assert_ne!(
        count("vertex-only", "tetgen"),
        count("consistent-vertex", "tetgen")
    );
    assert_eq!(
        count("vertex-only", "cones"),
        count("consistent-vertex", "cones")
    );
}

#[test]
fn meshes_table_gives_tetgen_and_cone_tetrahedra_per_body() {
    let (code, out, _) = contactlab(&["table", "meshes"]);
    assert_eq!(code, 0);
    // A box: 6 TetGen tetrahedra with two surface faces each, 12 cones.
    assert!(
        out.contains("| `pillar` | plinth | 6 | 0 / 0 / 6 / 0 | 12 |"),
        "{out}"
    );
    // The Wall is summarised by family.
    assert!(out.contains("| `wall` | brick ×80 | 6 |"), "{out}");
    assert!(out.contains("| `arch` | voussoir-6 |"), "{out}");
}

#[test]
fn table_with_paper_code_adds_each_variant_after_its_method() {
    let (code, out, err) =
        contactlab(&["table", "pillar", "--csv", "--paper-code", "--no-engines"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let methods: Vec<_> = contactlab::contact::methods_and_variants().collect();
    // --no-engines leaves out the engines run in Node, not the recorded ones.
    assert_eq!(
        lines.len(),
        1 + methods.len() + recorded_engine_labels().len()
    );
    for (line, method) in lines[1..].iter().zip(&methods) {
        assert!(line.starts_with(&format!("{},", method.name)), "{line}");
    }
    // A variant's row carries its printed method's paper numbers (the
    // last three columns).
    let paper_cells = |name: &str| {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("{name},")))
            .unwrap();
        let cells: Vec<&str> = line.split(',').collect();
        cells[cells.len() - 3..].join(",")
    };
    assert_eq!(
        paper_cells("Opposing"),
        paper_cells("Opposing (paper's code)")
    );
}

#[test]
fn an_unknown_variant_is_refused_with_the_valid_ids() {
    for id in [
        "opposing@foo",
        "reference@paper-code",
        "contour-region@paper-code",
    ] {
        let (code, _, err) = contactlab(&["contacts", "pillar", "--method", id]);
        assert_ne!(code, 0, "{id}");
        assert!(err.contains(&format!("got \"{id}\"")), "{err}");
        assert!(err.contains("opposing@paper-code"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
