//! Contact files (`contactlab-contacts/1`, `docs/design/contact-files.md`):
//! the round trip — every method's contacts at every built-in scene's
//! initial pose, written as a CSV file and scored, get exactly the
//! method's own measures — a run written and played back, poses files, and
//! every kind of bad input reported at its line and column.

use contactlab::contact::{detect, methods_and_variants, MethodHistory};
use contactlab::contact_file::{
    csv_rows, read_contacts, read_poses, write_csv, FileError, Warnings,
};
use contactlab::measures::oracle::GeometricOracle;
use contactlab::measures::{measures_of_step, oracle_envelope};
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
        .map(|b| (b.position, b.rotation))
        .collect();
    let geo = GeometricOracle::new(&scene).judge_step(
        &set.contacts,
        &poses,
        oracle_envelope(settings.envelope),
        settings.tol_deg,
    );
    let (_, measures) = measures_of_step(
        &scene,
        &set.contacts,
        &poses,
        &geo,
        &settings.measure_settings(),
    );
    let text = write_csv(&scene, "a test", (0, 0), [(0, set.contacts.as_slice())]);
    (serde_json::to_value(measures).unwrap(), text)
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
    assert_eq!(poses[&0][1].1, DQuat::IDENTITY);
    assert!(warnings.normalised_rotations > 0);
}
