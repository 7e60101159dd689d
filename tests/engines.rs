//! The engines people ship (`docs/design/engines.md`), run from the
//! command line through their adapters in Node: each registry entry names
//! the package version `package-lock.json` pins, each engine runs the
//! Pillar in both modes, and MuJoCo's contacts at the initial pose are the
//! Python package's of the same version (the committed files of
//! `cargo xtask engines`) to 1e-9 on every built-in scene.

mod common;

use common::contactlab;
use contactlab::engines::ENGINES;
use contactlab::scene::builtin::BUILTIN_SCENES;

#[test]
fn every_engine_names_the_version_package_lock_pins() {
    let lock: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/package-lock.json"))
            .unwrap(),
    )
    .unwrap();
    for engine in ENGINES {
        let entry = &lock["packages"][format!("node_modules/{}", engine.package)];
        assert_eq!(
            entry["version"], engine.version,
            "{} in package-lock.json",
            engine.package
        );
    }
}

/// The JSON records `run` prints, one per line.
fn records(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn every_engine_runs_the_pillar_at_our_poses_and_on_its_own() {
    for engine in ENGINES {
        let (code, out, err) = contactlab(&[
            "run",
            "pillar",
            "--method",
            engine.id,
            "--steps",
            "2",
            "--json",
            "--no-timings",
        ]);
        assert_eq!(code, 0, "{}: {err}", engine.id);
        let ours = records(&out);
        assert_eq!(
            ours.iter()
                .map(|r| r["step"].as_u64().unwrap())
                .collect::<Vec<_>>(),
            [1, 2],
            "{}",
            engine.id
        );
        // Every engine finds the ground under the plinth.
        assert!(
            ours[0]["count"].as_u64().unwrap() >= 1,
            "{}: {}",
            engine.id,
            ours[0]
        );
        let (code, out, err) = contactlab(&[
            "run",
            "pillar",
            "--method",
            engine.id,
            "--engine",
            "own",
            "--steps",
            "1",
            "--json",
            "--no-timings",
        ]);
        assert_eq!(code, 0, "{} own: {err}", engine.id);
        let own = records(&out);
        assert_eq!(
            own.iter()
                .map(|r| r["step"].as_u64().unwrap())
                .collect::<Vec<_>>(),
            [0, 1],
            "{} own",
            engine.id
        );
        // No solve of ours happened: the records say so.
        assert!(
            own[1].get("kinetic_energy").is_none(),
            "{} own: {}",
            engine.id,
            own[1]
        );
    }
}

#[test]
fn engine_mode_is_checked() {
    let (code, _, err) = contactlab(&["run", "pillar", "--method", "jolt", "--engine", "theirs"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--engine") && err.contains("ours, own"),
        "{err}"
    );
}

/// The step-0 rows of a contact file: the ten numbers-and-names columns.
fn step_zero_rows(csv: &str) -> Vec<Vec<String>> {
    csv.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("step,") && !l.is_empty())
        .map(|l| {
            l.split(',')
                .take(10)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|row| row[0] == "0")
        .collect()
}

#[test]
fn mujoco_in_node_gives_the_python_packages_contacts_at_the_initial_pose() {
    for builtin in BUILTIN_SCENES {
        let path = format!(
            "{}/data/engine-contacts/mujoco/{}.csv",
            env!("CARGO_MANIFEST_DIR"),
            builtin.id
        );
        let python = step_zero_rows(&std::fs::read_to_string(&path).unwrap());
        let (code, out, err) = contactlab(&["contacts", builtin.id, "--method", "mujoco", "--csv"]);
        assert_eq!(code, 0, "{}: {err}", builtin.id);
        let node = step_zero_rows(&out);
        assert_eq!(node.len(), python.len(), "{}: contacts", builtin.id);
        for (k, (n, p)) in node.iter().zip(&python).enumerate() {
            assert_eq!(n[1..3], p[1..3], "{} contact {k}: bodies", builtin.id);
            for column in 3..10 {
                let (a, b): (f64, f64) = (n[column].parse().unwrap(), p[column].parse().unwrap());
                assert!(
                    (a - b).abs() <= 1e-9,
                    "{} contact {k} column {column}: {a} in Node, {b} in Python",
                    builtin.id
                );
            }
        }
    }
}

/// The `method` cells of a CSV table's rows.
fn row_names(csv: &str) -> Vec<String> {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect()
}

#[test]
fn the_run_tables_have_a_row_per_engine_after_the_methods() {
    // The time-step table runs every row three times over 4 steps: each
    // engine through its adapter, labelled from the registry.
    let (code, out, err) = contactlab(&["table", "timestep", "--csv"]);
    assert_eq!(code, 0, "{err}");
    let names = row_names(&out);
    let methods = contactlab::contact::methods_under_test().count();
    let labels: Vec<String> = ENGINES.iter().map(|e| e.label()).collect();
    assert_eq!(names.len(), methods + ENGINES.len(), "{out}");
    assert_eq!(names[methods..], labels[..]);
    for line in out.lines().skip(1 + methods) {
        // Every engine finds contacts on the Pillar at every time step.
        assert!(
            line.split(',').skip(1).all(|q| q.parse::<f64>().is_ok()),
            "{line}"
        );
    }
    let (code, out, err) = contactlab(&["table", "timestep", "--csv", "--no-engines"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(row_names(&out).len(), methods);
}

#[test]
fn a_table_without_node_fails_at_once_with_one_line() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["table", "counts"])
        .env("CONTACTLAB_NODE", "/nonexistent/node")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("Node") && err.contains("--no-engines") && !err.contains("table counts:"),
        "{err}"
    );
    // The tables without engine rows do not need Node.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["table", "meshes"])
        .env("CONTACTLAB_NODE", "/nonexistent/node")
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn an_engines_run_exports_the_pose_it_reaches() {
    let dir = std::env::temp_dir().join(format!("contactlab-engine-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let (code, _, err) = contactlab(&[
        "export", "pillar", "--format", "json", "--out", out, "--step", "2", "--method", "jolt",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("scene.json")).unwrap();
    assert!(
        text.contains("step 2 of a ContactLab run with method jolt"),
        "{}",
        &text[..400.min(text.len())]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
