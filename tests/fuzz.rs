//! The fuzzer (issue 25): shipped scenes mutated as a careless or hostile
//! user would (bodies scaled, moved onto each other, duplicated, numbers
//! made absurd, keys of the wrong type) under random settings, then loaded
//! and run through `exact`, every method's contacts and a few steps of a
//! run. It asserts what the README promises inside the documented limits:
//! no panic, no non-finite number in any contact or step record, and a
//! refusal that names its cause.
//!
//! Property-based (proptest): a failure is shrunk to a smallest input and
//! printed. The wall-clock budget is `CONTACTLAB_FUZZ_SECONDS` (30 s by
//! default, inside `cargo xtask test`); `cargo xtask fuzz --minutes N`
//! hunts for longer with a fresh seed (`CONTACTLAB_FUZZ_SEED`), which a
//! failure prints so that it can be replayed.

use contactlab::contact::exact_regions::exact_contacts;
use contactlab::contact::{detect, methods_and_variants, Contact, MethodHistory};
use contactlab::scene::builtin::{builtin_text, BUILTIN_SCENES};
use contactlab::scene::{load_scene, Scene};
use contactlab::settings::SETTINGS;
use contactlab::sim::{SimSettings, Simulation, StepRecord};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Cases whose scene loaded, and steps taken: the summary shows that the
/// mutations do not only produce refusals.
static LOADED: AtomicU64 = AtomicU64::new(0);
static STEPS: AtomicU64 = AtomicU64::new(0);

/// The scenes mutated: the small ones (the fuzzer's cases must stay cheap
/// in the debug test profile; the Wall's 81 bodies are left to `bench`).
const SCENES: &[&str] = &[
    "spikes",
    "spike-wedge",
    "wedges",
    "sliding-wedge",
    "spike-in-hole",
    "wedge-in-crack",
    "internal-edges",
    "cliff-edges",
    "spinning-sphere",
    "pillar",
    "arch",
];

/// Numbers a careless file holds.
const ABSURD: &[f64] = &[
    0.0, -1.0, 1e-300, 1e300, -1e300, 0.5, 1e-3, 1e-4, 100000.0, 100001.0, 2.0, 1e5, 1e6, 3.0,
];

/// Setting values typed by people: the spec's ends, beyond them, nonsense.
const TYPED: &[&str] = &[
    "", "0", "1", "-1", "0.5", "2", "1e300", "nan", "inf", "abc", "scene",
];

#[derive(Clone, Debug)]
enum Mutation {
    /// Multiplies every number of a body's shape.
    ScaleShape { body: usize, factor: usize },
    /// Puts a body where another is (a copy on one spot when alike).
    MoveOnto { body: usize, onto: usize },
    /// Adds a copy of a body under a new name.
    Duplicate { body: usize },
    /// Replaces one number anywhere in a body with an absurd one.
    SetNumber {
        body: usize,
        leaf: usize,
        value: usize,
    },
    /// Replaces one value anywhere in a body with a string.
    WrongType { body: usize, leaf: usize },
    /// Removes a body.
    Remove { body: usize },
}

#[derive(Clone, Debug)]
struct Case {
    scene: usize,
    mutations: Vec<Mutation>,
    /// (setting index, typed value index) pairs, set before loading.
    settings: Vec<(usize, usize)>,
    /// The method run for a few steps.
    method: usize,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let body = 0usize..64;
    prop_oneof![
        (body.clone(), 0..ABSURD.len())
            .prop_map(|(body, factor)| Mutation::ScaleShape { body, factor }),
        (body.clone(), 0usize..64).prop_map(|(body, onto)| Mutation::MoveOnto { body, onto }),
        body.clone().prop_map(|body| Mutation::Duplicate { body }),
        (body.clone(), 0usize..1000, 0..ABSURD.len())
            .prop_map(|(body, leaf, value)| Mutation::SetNumber { body, leaf, value }),
        (body.clone(), 0usize..1000).prop_map(|(body, leaf)| Mutation::WrongType { body, leaf }),
        body.prop_map(|body| Mutation::Remove { body }),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..SCENES.len(),
        prop::collection::vec(mutation(), 0..4),
        prop::collection::vec((0..SETTINGS.len(), 0..TYPED.len()), 0..3),
        0usize..64,
    )
        .prop_map(|(scene, mutations, settings, method)| Case {
            scene,
            mutations,
            settings,
            method,
        })
}

/// Every leaf of a JSON value, as a mutable reference.
fn leaves(value: &mut Value) -> Vec<&mut Value> {
    match value {
        Value::Object(map) => map.values_mut().flat_map(leaves).collect(),
        Value::Array(items) => items.iter_mut().flat_map(leaves).collect(),
        leaf => vec![leaf],
    }
}

fn scale(value: &mut Value, factor: f64) {
    for leaf in leaves(value) {
        if let Some(x) = leaf.as_f64() {
            if let Some(n) = serde_json::Number::from_f64(x * factor) {
                *leaf = Value::Number(n);
            }
        }
    }
}

/// The scene file's text after the case's mutations.
fn mutated_text(case: &Case) -> String {
    let id = SCENES[case.scene];
    let mut scene: Value =
        serde_json::from_str(builtin_text(id).expect("a shipped scene")).unwrap();
    let bodies = scene["bodies"].as_array_mut().expect("bodies");
    for m in &case.mutations {
        if bodies.is_empty() {
            break;
        }
        let n = bodies.len();
        match *m {
            Mutation::ScaleShape { body, factor } => {
                scale(&mut bodies[body % n]["shape"], ABSURD[factor])
            }
            Mutation::MoveOnto { body, onto } => {
                let there = bodies[onto % n].get("position").cloned();
                let moved = bodies[body % n].as_object_mut().unwrap();
                match there {
                    Some(p) => moved.insert("position".into(), p),
                    None => moved.remove("position"),
                };
            }
            Mutation::Duplicate { body } => {
                let mut copy = bodies[body % n].clone();
                let name = format!("{}-copy{n}", copy["name"].as_str().unwrap_or("body"));
                copy["name"] = Value::String(name);
                bodies.push(copy);
            }
            Mutation::SetNumber { body, leaf, value } => {
                let mut numbers: Vec<&mut Value> = leaves(&mut bodies[body % n])
                    .into_iter()
                    .filter(|v| v.is_number())
                    .collect();
                if !numbers.is_empty() {
                    let k = leaf % numbers.len();
                    *numbers[k] = serde_json::json!(ABSURD[value]);
                }
            }
            Mutation::WrongType { body, leaf } => {
                let mut all = leaves(&mut bodies[body % n]);
                let k = leaf % all.len();
                *all[k] = Value::String("<b>oops</b>".into());
            }
            Mutation::Remove { body } => {
                bodies.remove(body % n);
            }
        }
    }
    scene.to_string()
}

fn finite_contacts(contacts: &[Contact]) -> Result<(), TestCaseError> {
    for c in contacts {
        prop_assert!(
            c.position.is_finite() && c.normal.is_finite() && c.depth.is_finite(),
            "a non-finite contact: {c:?}"
        );
    }
    Ok(())
}

fn finite_record(record: &StepRecord) -> Result<(), TestCaseError> {
    let numbers = [
        record.time,
        record.kinetic_energy,
        record.max_displacement,
        record.residual,
    ];
    prop_assert!(
        numbers.iter().all(|x| x.is_finite()),
        "a non-finite step record: {record:?}"
    );
    prop_assert!(record.min_depth.is_none_or(f64::is_finite));
    Ok(())
}

/// A refusal names its cause: a key, a body, a setting or an option, with
/// something after the colon.
fn names_a_cause(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        message
            .split_once(": ")
            .is_some_and(|(_, why)| why.len() > 3),
        "a refusal that names no cause: {message:?}"
    );
    prop_assert!(
        !message.contains("NaN"),
        "a refusal that echoes NaN: {message}"
    );
    Ok(())
}

fn run_case(case: &Case) -> Result<(), TestCaseError> {
    let text = mutated_text(case);
    let mut settings = SimSettings::default();
    for &(spec, typed) in &case.settings {
        let spec = &SETTINGS[spec];
        // The engines need Node; the fuzzer stays in the core.
        if spec.id == "method" || spec.id == "engine" {
            continue;
        }
        if let Err(e) = settings.set_text(spec.id, TYPED[typed]) {
            prop_assert_eq!(e.id, spec.id);
            prop_assert!(e.message.contains(spec.noun), "{}", e.message);
        }
    }
    // Refinement multiplies the work by 8 per level: one level at most in
    // the debug profile.
    if settings.refine > 1 {
        settings.refine = 1;
    }
    let scene: Scene = match settings
        .load_options()
        .map_err(|e| e.to_string())
        .and_then(|o| load_scene("fuzz.json", &text, &o).map_err(|e| e.to_string()))
    {
        Ok(scene) => scene,
        Err(message) => return names_a_cause(&message),
    };

    LOADED.fetch_add(1, Relaxed);
    let exact = exact_contacts(&scene, contactlab::contact::RELATIVE_TOUCH_TOL);
    prop_assert!(exact.total_area().is_finite());

    let params = settings.method_params(&scene);
    let methods: Vec<_> = methods_and_variants()
        .filter(|m| m.in_this_build() && !m.is_reference())
        .collect();
    for method in &methods {
        match detect(
            &scene.poses(),
            method,
            &params,
            &mut MethodHistory::default(),
        ) {
            Ok(set) => finite_contacts(&set.contacts)?,
            Err(e) => names_a_cause(&e.to_string())?,
        }
    }

    let method = methods[case.method % methods.len()];
    settings.method = method.id.to_string();
    match Simulation::new("fuzz.json", &text, settings) {
        Err(e) => names_a_cause(&e.to_string())?,
        Ok(mut sim) => {
            for _ in 0..3 {
                match sim.step() {
                    Ok(record) => {
                        STEPS.fetch_add(1, Relaxed);
                        finite_record(&record)?;
                        finite_contacts(sim.contacts())?;
                    }
                    Err(e) => {
                        names_a_cause(&e.to_string())?;
                        break;
                    }
                }
            }
        }
    }
    Ok(())
}

#[test]
fn mutated_scenes_and_settings_never_panic_nor_give_non_finite_numbers() {
    let seconds: u64 = std::env::var("CONTACTLAB_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let seed: u64 = std::env::var("CONTACTLAB_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(25);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases: 4,
        failure_persistence: None,
        ..Config::default()
    };
    let mut seeds = TestRunner::new_with_rng(
        config.clone(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    );
    let cases = std::cell::Cell::new(0u64);
    // Batches of a few cases until the budget is spent, each batch's RNG
    // drawn from the seeded one, so a seed always gives the same cases.
    while Instant::now() < deadline {
        let mut batch = TestRunner::new_with_rng(config.clone(), seeds.new_rng());
        let outcome = batch.run(&case(), |c| {
            cases.set(cases.get() + 1);
            run_case(&c)
        });
        if let Err(failure) = outcome {
            panic!("the fuzzer failed with CONTACTLAB_FUZZ_SEED={seed}: {failure}");
        }
    }
    eprintln!(
        "fuzz: {} cases in {seconds} s, {} loaded, {} steps (seed {seed}, {} of the {} shipped scenes mutated)",
        cases.get(),
        LOADED.load(Relaxed),
        STEPS.load(Relaxed),
        SCENES.len(),
        BUILTIN_SCENES.len()
    );
}
