//! The divergence guard (issue 9): a run whose kinetic energy or
//! displacement leaves the scene's bounds pauses with a message that names
//! the likely cause, in the core, so the CLI and the page say the same.

mod common;

use contactlab::scene::builtin::builtin_text;
use contactlab::scene::{load_scene, LoadOptions};
use contactlab::sim::{SimError, SimSettings, Simulation};

fn pillar(settings: SimSettings) -> Simulation {
    Simulation::new("builtin:pillar", builtin_text("pillar").unwrap(), settings).unwrap()
}

#[test]
fn a_run_with_a_huge_time_step_and_no_friction_diverges_and_pauses() {
    let mut sim = pillar(SimSettings {
        dt: Some(0.1),
        iterations: 1,
        mu: Some(0.0),
        ..SimSettings::default()
    });
    let mut diverged = None;
    for _ in 0..500 {
        let record = sim.step().expect("diverges before it blows up");
        if let Some(message) = record.diverged {
            diverged = Some((record.step, message));
            break;
        }
    }
    let (step, message) = diverged.expect("the stones fall for ever: the guard must fire");
    assert!(step < 300, "only at step {step}");
    for cause in [
        "the time step 0.1 s",
        "only 1 solver iteration per step",
        "no friction",
    ] {
        assert!(message.contains(cause), "{cause}: {message}");
    }
    // Paused: the next step is refused with the same message.
    match sim.step() {
        Err(SimError::Diverged { message: again, .. }) => assert_eq!(again, message),
        other => panic!("expected the run to stay paused, got {other:?}"),
    }
}

#[test]
fn the_paper_s_settings_never_trip_the_guard_on_a_standing_pillar() {
    let mut sim = pillar(SimSettings::default());
    for _ in 0..100 {
        let record = sim.step().unwrap();
        assert_eq!(record.diverged, None, "step {}", record.step);
    }
}

#[test]
fn a_blow_up_names_the_scene_s_own_numbers_when_the_settings_are_sound() {
    let text = r#"{ "format": "contactlab-scene/1", "id": "t", "gravity": [0, -9.81, 0], "bodies": [
        { "name": "ground", "fixed": true, "shape": { "type": "box", "size": [10, 1, 10] }, "position": [0, -0.5, 0] },
        { "name": "rocket", "shape": { "type": "box", "size": [0.5, 0.5, 0.5] }, "position": [0, 3, 0] } ] }"#;
    // A scene file may not hold such a speed (scene::limits); a scene built
    // in code can.
    let mut scene = load_scene("t.json", text, &LoadOptions::default()).unwrap();
    scene.bodies[1].velocity = glam::DVec3::new(1e200, 0.0, 0.0);
    let mut sim = Simulation::from_scene(scene, SimSettings::default()).unwrap();
    let error = (0..10).find_map(|_| sim.step().err()).expect("overflows");
    let message = error.to_string();
    assert!(message.contains("rocket"), "{message}");
    assert!(
        message.contains("the scene's initial velocities"),
        "{message}"
    );
    assert!(!message.contains("time step 0.01"), "{message}");
}

/// The words of the "Likely cause" sentence of a scene whose free body
/// starts at `speed` (a scene built in code: a file may not hold such a
/// speed).
fn likely_cause(text: &str, speed: f64) -> String {
    let mut scene = load_scene("t.json", text, &LoadOptions::default()).unwrap();
    scene.bodies[1].velocity = glam::DVec3::new(speed, 0.0, 0.0);
    let mut sim = Simulation::from_scene(scene, SimSettings::default()).unwrap();
    let message = (0..10)
        .find_map(|_| sim.step().err())
        .expect("overflows")
        .to_string();
    let at = message.find("Likely cause").expect("a likely cause");
    // Its words: the numbers in it (the gravity's value) scale.
    message[at..]
        .chars()
        .filter(|c| c.is_alphabetic() || *c == ' ' || *c == ';')
        .collect()
}

#[test]
fn the_likely_cause_of_a_blow_up_is_the_same_on_the_scene_scaled() {
    // The thresholds follow the scene's size and time step (sqrt(g L),
    // L / h, g h² against L): scaled with its gravity and speeds, the scene
    // gets the same words. At 0.01 its gravity is 20 m/s², which an
    // absolute threshold of 100 m/s² would no longer name.
    let text = r#"{ "format": "contactlab-scene/1", "id": "t", "gravity": [0, -2000, 0], "bodies": [
        { "name": "ground", "fixed": true, "shape": { "type": "box", "size": [10, 1, 10] }, "position": [0, -0.5, 0] },
        { "name": "rocket", "shape": { "type": "box", "size": [0.5, 0.5, 0.5] }, "position": [0, 3, 0] } ] }"#;
    let original = likely_cause(text, 1e200);
    assert!(original.contains("gravity"), "{original}");
    for s in [0.1, 0.01] {
        let scaled = likely_cause(&common::scale_scene_json(text, s), 1e200 * s);
        assert_eq!(scaled, original, "scaled by {s}");
    }
}
