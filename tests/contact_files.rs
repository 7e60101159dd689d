//! Contact files (`contactlab-contacts/1`, `docs/design/contact-files.md`):
//! the round trip — every method's contacts at every built-in scene's
//! initial pose, written as a CSV file and scored, get exactly the
//! method's own measures — a run written and played back, poses files, and
//! every kind of bad input reported at its line and column.

mod common;

use contactlab::contact::{detect, methods_and_variants, MethodHistory};
use contactlab::contact_file::{
    csv_rows, read_contacts, read_poses, write_csv, FileError, Warnings,
};
use contactlab::geometry::Pose;
use contactlab::measures::measure;
use contactlab::measures::oracle::GeometricOracle;
use contactlab::scene::builtin::{load_builtin, BUILTIN_SCENES};
use contactlab::scene::LoadOptions;
use contactlab::sim::{SimSettings, Simulation};
use glam::{DQuat, DVec3};

/// The measures of a method's contacts at the scene's initial pose, as
/// `contactlab contacts --json` reports them, and its contacts as a file.
fn method_at_start(scene_id: &str, settings: &SimSettings) -> (serde_json::Value, String) {
    let options = settings.load_options().unwrap();
    let scene = load_builtin(scene_id, &options).unwrap();
    let info = settings.method_info().unwrap();
    let params = settings.method_params(&scene);
    let set = detect(&scene.poses(), info, &params, &mut MethodHistory::default()).unwrap();
    let poses: Vec<_> = scene
        .bodies
        .iter()
        .map(|b| Pose::new(b.position, b.rotation))
        .collect();
    let measured = measure(
        &scene,
        &GeometricOracle::new(&scene),
        &set.contacts,
        &poses,
        &settings.measure_settings(),
    );
    let text = write_csv(&scene, "a test", (0, 0), [(0, set.contacts.as_slice())]);
    (serde_json::to_value(measured.measures).unwrap(), text)
}

/// The measures `contactlab score` gives a file's step 0: the scene loaded
/// with the default settings, as `score` loads it.
fn scored_at_start(scene_id: &str, text: &str) -> serde_json::Value {
    let settings = SimSettings::default();
    let scene = load_builtin(scene_id, &settings.load_options().unwrap()).unwrap();
    let file = read_contacts("contacts.csv", text, &scene).unwrap();
    let sim = Simulation::with_contact_file(scene, settings, file).unwrap();
    let record = sim
        .start_record()
        .expect("a file with step 0 has a start record");
    serde_json::to_value(&record.measures).unwrap()
}

#[test]
fn every_method_on_every_scene_scores_as_itself() {
    let mut checked = 0;
    let mut differ = Vec::new();
    for scene in BUILTIN_SCENES {
        for info in methods_and_variants() {
            let mut settings = SimSettings::default();
            settings.set_text("method", info.id).unwrap();
            let (own, text) = method_at_start(scene.id, &settings);
            let scored = scored_at_start(scene.id, &text);
            if own != scored {
                differ.push(format!(
                    "{} with {}:\n  own    {own}\n  scored {scored}",
                    scene.id, info.id
                ));
            }
            checked += 1;
        }
    }
    assert!(checked >= 13 * 20, "only {checked} cases");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn a_run_written_and_played_back_gives_the_same_records() {
    let mut settings = SimSettings::default();
    settings.set_text("method", "opposing").unwrap();
    let scene = load_builtin("pillar", &settings.load_options().unwrap()).unwrap();
    let mut run = Simulation::from_scene(scene.clone(), settings.clone()).unwrap();
    let mut text = write_csv(&scene, "a run", (1, 4), []);
    let mut records = Vec::new();
    for _ in 0..4 {
        let r = run.step().unwrap();
        text.push_str(&csv_rows(&scene, r.step, run.contacts()));
        records.push(r);
    }
    let file = read_contacts("run.csv", &text, &scene).unwrap();
    assert_eq!(file.last_step(), 4);
    let mut played = Simulation::with_contact_file(scene, settings, file).unwrap();
    assert!(played.start_record().is_none(), "the file has no step 0");
    for own in &records {
        let again = played.step().unwrap();
        assert_eq!(again.step, own.step);
        assert_eq!(again.measures, own.measures, "step {}", own.step);
        assert_eq!(
            again.kinetic_energy, own.kinetic_energy,
            "step {}",
            own.step
        );
        assert_eq!(again.penetration, own.penetration, "step {}", own.step);
    }
    let past = played.step().unwrap_err().to_string();
    assert!(past.contains("no contacts after step 4"), "{past}");
}

/// A box of the Pillar lifted by `lift` metres.
fn lifted_pillar_poses(lift: f64) -> String {
    let scene = load_builtin("pillar", &LoadOptions::default()).unwrap();
    let mut text = String::from("step,body,x,y,z,qw,qx,qy,qz\n");
    for step in [0u64, 3] {
        for body in &scene.bodies {
            let p = body.position + DVec3::Y * if body.fixed { 0.0 } else { lift };
            text.push_str(&format!(
                "{step},{},{},{},{},1,0,0,0\n",
                body.name, p.x, p.y, p.z
            ));
        }
    }
    text
}

#[test]
fn a_file_with_poses_is_measured_at_them() {
    let scene = load_builtin("pillar", &LoadOptions::default()).unwrap();
    let mut warnings = Warnings::default();
    // Every free body 1 m up: nothing touches, so a contact at the old
    // resting place is far from anything.
    let poses = read_poses(
        "poses.csv",
        &lifted_pillar_poses(1.0),
        &scene,
        &mut warnings,
    )
    .unwrap();
    let ground = &scene.bodies[0].name;
    let first = &scene.bodies[1].name;
    let contacts = format!(
        "# poses: poses.csv\nstep,body_a,body_b,x,y,z,nx,ny,nz,depth\n3,{ground},{first},0,0,0,0,1,0,0\n"
    );
    let mut file = read_contacts("c.csv", &contacts, &scene).unwrap();
    assert_eq!(file.poses_file.as_deref(), Some("poses.csv"));
    file.attach_poses(poses, "poses.csv").unwrap();
    let mut sim = Simulation::with_contact_file(scene, SimSettings::default(), file).unwrap();
    let start = sim.start_record().unwrap().clone();
    assert_eq!(start.measures.count, 0, "step 0 has poses but no contacts");
    let r = sim.step().unwrap();
    assert_eq!(r.step, 3);
    assert!(!r.dynamics);
    assert_eq!(
        r.measures.geo_wrong, 1,
        "a contact 1 m from everything is wrong"
    );
    assert!((r.max_displacement - 1.0).abs() < 1e-12);
    let json = r.to_json();
    assert!(json.get("kinetic_energy").is_none() && json.get("iterations").is_none());
    assert!(sim.step().is_err(), "the file ends at step 3");
}

fn pillar() -> contactlab::scene::Scene {
    load_builtin("pillar", &LoadOptions::default()).unwrap()
}

fn error_of(text: &str) -> FileError {
    read_contacts("bad.csv", text, &pillar()).unwrap_err()
}

const HEADER: &str = "step,body_a,body_b,x,y,z,nx,ny,nz,depth\n";

#[test]
fn bad_input_is_named_with_its_line_and_column() {
    let scene = pillar();
    let (a, b) = (&scene.bodies[0].name, &scene.bodies[1].name);
    let cases: Vec<(String, &str)> = vec![
        (format!("{HEADER}0,{a},nobody,0,0,0,0,1,0,0\n"), "bad.csv:2:"),
        (format!("{HEADER}0,{a},{b},0,nan,0,0,1,0,0\n"), "y: not a finite number"),
        (format!("{HEADER}0,{a},{b},0,0,0,0,0,0,0\n"), "is zero"),
        (format!("{HEADER}0,{a},{b},0,0,0,0,1,0\n"), "9 fields, but the header has 10"),
        ("step,body_a,body_b,x,y,z,nx,ny,nz\n".to_string(), "no column \"depth\""),
        ("step,body_a,body_b,x,y,z,nx,ny,nz,depth,colour\n".to_string(), "unknown column \"colour\""),
        (format!("{HEADER}-1,{a},{b},0,0,0,0,1,0,0\n"), "step: expected a whole number"),
        (format!("{HEADER}0,{a},{a},0,0,0,0,1,0,0\n"), "both"),
        (format!("{HEADER}0,{a},{b},0,0,0,0,1,0,x\n"), "depth: expected a number, got \"x\""),
        (format!("{}0,{a},{b},0,0,0,0,1,0,0,Q-Q\n", HEADER.replace("depth", "depth,feature")), "unknown feature pair"),
        ("".to_string(), "no header line"),
        (format!("{{\"step\":0,\"body_a\":\"{a}\",\"body_b\":\"{b}\",\"x\":0,\"y\":0,\"z\":0,\"nx\":0,\"ny\":1,\"nz\":0}}\n"), "missing key \"depth\""),
        (format!("{{\"step\":0,\"body_a\":\"{a}\",\"body_b\":\"{b}\",\"x\":0,\"y\":0,\"z\":0,\"nx\":0,\"ny\":1,\"nz\":0,\"depth\":\"deep\"}}\n"), "depth: expected a number"),
        ("{not json\n".to_string(), "not a JSON object"),
    ];
    for (text, expected) in cases {
        let message = error_of(&text).to_string();
        assert!(
            message.starts_with("bad.csv") && message.contains(expected),
            "for\n{text}\ngot: {message}\nexpected it to contain: {expected}"
        );
    }
    // The column of the field at fault.
    let e = error_of(&format!("{HEADER}0,{a},{b},0,inf,0,0,1,0,0\n"));
    assert_eq!((e.line, e.column), (2, 4 + a.len() + b.len() + 3));
}

#[test]
fn normals_are_made_unit_and_counted_and_comments_are_counted() {
    let scene = pillar();
    let (a, b) = (&scene.bodies[0].name, &scene.bodies[1].name);
    let text = format!("# a comment\n\n{HEADER}0,{a},{b},0,0,0,0,2,0,0\n0,{a},{b},0,0,0,0,1,0,0\n");
    let file = read_contacts("c.csv", &text, &scene).unwrap();
    assert_eq!(file.warnings.normalised_normals, 1);
    assert_eq!(file.warnings.skipped_lines, 2);
    assert_eq!(file.steps[&0][0].normal, DVec3::Y);
    assert_eq!(file.rows, 2);
    let messages = file.warnings.messages("c.csv");
    assert!(
        messages.iter().any(|m| m.contains("1 normal")),
        "{messages:?}"
    );
}

#[test]
fn a_poses_file_needs_every_free_body_and_a_nonzero_rotation() {
    let scene = pillar();
    let mut warnings = Warnings::default();
    let free = scene.bodies.iter().find(|b| !b.fixed).unwrap();
    let only_one = format!(
        "step,body,x,y,z,qw,qx,qy,qz\n0,{},0,1,0,1,0,0,0\n",
        free.name
    );
    let free_count = scene.bodies.iter().filter(|b| !b.fixed).count();
    if free_count > 1 {
        let e = read_poses("p.csv", &only_one, &scene, &mut warnings).unwrap_err();
        assert!(e.to_string().contains("no pose for the free body"), "{e}");
    }
    let zero = format!(
        "step,body,x,y,z,qw,qx,qy,qz\n0,{},0,1,0,0,0,0,0\n",
        free.name
    );
    let e = read_poses("p.csv", &zero, &scene, &mut warnings).unwrap_err();
    assert!(
        e.to_string().starts_with("p.csv:2:") && e.to_string().contains("zero"),
        "{e}"
    );
    // A quaternion of length 2 is made unit and counted.
    let doubled = lifted_pillar_poses(0.0).replace(",1,0,0,0\n", ",2,0,0,0\n");
    let poses = read_poses("p.csv", &doubled, &scene, &mut warnings).unwrap();
    assert_eq!(poses[&0][1].rotation, DQuat::IDENTITY);
    assert!(warnings.normalised_rotations > 0);
}

/// The command line, as a user runs it.
mod cli {
    use super::common::contactlab;

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("contactlab-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn contacts_csv_scored_gives_the_methods_json_measures() {
        let dir = temp_dir("score");
        let (code, csv, err) = contactlab(&["contacts", "arch", "--method", "semi-local", "--csv"]);
        assert_eq!(code, 0, "{err}");
        let path = dir.join("arch.csv");
        std::fs::write(&path, &csv).unwrap();
        let (_, own, _) = contactlab(&[
            "contacts",
            "arch",
            "--method",
            "semi-local",
            "--json",
            "--no-timings",
        ]);
        let own: serde_json::Value = serde_json::from_str(&own).unwrap();
        let (code, scored, err) = contactlab(&[
            "score",
            "arch",
            path.to_str().unwrap(),
            "--json",
            "--no-timings",
        ]);
        assert_eq!(code, 0, "{err}");
        let lines: Vec<serde_json::Value> = scored
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "step 0, then the run means");
        for (key, value) in own["measures"].as_object().unwrap() {
            if let Some(scored) = lines[0].get(key) {
                assert_eq!(scored, value, "{key}");
            }
        }
        assert_eq!(lines[0]["step"], 0);
        assert!(
            lines[0].get("kinetic_energy").is_none(),
            "no step was taken"
        );
        assert!(lines[1].get("run_means").is_some());
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_run_as_csv_plays_back_with_the_same_records() {
        let dir = temp_dir("run");
        let args = ["run", "pillar", "--method", "vertex-only", "--steps", "3"];
        let (code, csv, err) = contactlab(&[&args[..], &["--contacts", "--csv"]].concat());
        assert_eq!(code, 0, "{err}");
        assert!(csv.contains("# steps: 1-3"), "{csv}");
        let path = dir.join("run.csv");
        std::fs::write(&path, &csv).unwrap();
        let (_, own, _) = contactlab(&[&args[..], &["--json", "--no-timings"]].concat());
        let (code, scored, err) = contactlab(&[
            "score",
            "pillar",
            path.to_str().unwrap(),
            "--json",
            "--no-timings",
        ]);
        assert_eq!(code, 0, "{err}");
        let scored: Vec<&str> = scored.lines().collect();
        assert_eq!(own.lines().collect::<Vec<_>>(), scored[..3].to_vec());
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn bad_files_get_one_line_naming_file_line_and_column_and_exit_2() {
        let dir = temp_dir("bad");
        let bad = dir.join("bad.csv");
        std::fs::write(
            &bad,
            "step,body_a,body_b,x,y,z,nx,ny,nz,depth\n0,ground,plinth,0,0,0,0,1,0,0\n0,ground,plinth,0,0,0,0,1,0,NaN\n",
        )
        .unwrap();
        let (code, out, err) = contactlab(&["score", "pillar", bad.to_str().unwrap()]);
        assert_eq!(code, 2);
        assert!(out.is_empty(), "nothing half-read: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("bad.csv:3:") && err.contains("depth: not a finite number"),
            "{err}"
        );
        // A poses file that is named but missing.
        let named = dir.join("named.csv");
        std::fs::write(
            &named,
            "# poses: nowhere.csv\nstep,body_a,body_b,x,y,z,nx,ny,nz,depth\n0,ground,plinth,0,0,0,0,1,0,0\n",
        )
        .unwrap();
        let (code, _, err) = contactlab(&["score", "pillar", named.to_str().unwrap()]);
        assert_eq!(code, 2);
        assert!(err.contains("nowhere.csv"), "{err}");
        let (code, _, err) = contactlab(&["score", "pillar"]);
        assert_eq!(code, 2);
        assert!(err.contains("contact file"), "{err}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn the_committed_engine_files_score() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for engine in ["mujoco", "bullet"] {
            let file = root.join(format!("data/engine-contacts/{engine}/pillar.csv"));
            let (code, out, err) = contactlab(&["score", "pillar", file.to_str().unwrap()]);
            assert_eq!(code, 0, "{engine}: {err}");
            assert!(
                out.contains("each step measured at the file's own poses"),
                "{out}"
            );
            assert_eq!(
                out.lines()
                    .filter(|l| l.trim_start().starts_with("3 "))
                    .count(),
                1,
                "{out}"
            );
        }
    }
}

#[test]
fn json_lines_read_as_the_same_contacts_as_csv() {
    let scene = pillar();
    let (a, b) = (&scene.bodies[0].name, &scene.bodies[1].name);
    let csv = format!("{HEADER}0,{a},{b},0.25,0,0.25,0,1,0,-0.001\n");
    let jsonl = format!(
        "# contactlab-contacts/1\n{{\"step\":0,\"body_a\":\"{a}\",\"body_b\":\"{b}\",\"x\":0.25,\"y\":0,\"z\":0.25,\"nx\":0,\"ny\":1,\"nz\":0,\"depth\":-0.001,\"engine\":\"hand\"}}\n"
    );
    let from_csv = read_contacts("c.csv", &csv, &scene).unwrap();
    let from_json = read_contacts("c.jsonl", &jsonl, &scene).unwrap();
    assert_eq!(from_csv.steps, from_json.steps);
    assert_eq!(from_json.notes[&0][0].engine.as_deref(), Some("hand"));
    assert_eq!(from_json.warnings.skipped_lines, 1);
}
