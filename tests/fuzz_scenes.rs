//! Hostile scene files: a seeded fuzzer mutates the shipped scenes (deletes
//! and duplicates keys, replaces values by 0, −1, 1e300, −1e-320, strings
//! such as "NaN" and values of other types, blows arrays up, shuffles them,
//! scales coordinates by 1e6, truncates the text) and feeds each result to
//! the loader and, when it loads, to `Simulation::new` and three steps of a
//! few methods.
//!
//! Errors are the expected outcome. A case fails the test when it panics,
//! when a step record it returns holds a non-finite number, or when it took
//! more than `CASE_BUDGET`. A real hang would stall this test rather than
//! fail it; the suite's own time budget is what catches that, the per-case
//! limit catches the slow-but-finishing cases before they become hangs.
//!
//! Every failing case is reported with its seed and the mutations it made;
//! the seeds that found bugs are kept below as named regression cases.

use contactlab::contact::REGISTRY;
use contactlab::scene::builtin::{BuiltinScene, BUILTIN_SCENES};
use contactlab::scene::perturb::SeededRng;
use contactlab::scene::{load_scene, LoadOptions};
use contactlab::sim::{SimSettings, Simulation, StepRecord};
use serde_json::{Map, Number, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// How many random cases the sweep runs, seeds 0 to CASES − 1 (a longer
/// hunt: `CONTACTLAB_FUZZ_CASES=5000 cargo test --release --test
/// fuzz_scenes`).
const CASES: u64 = 300;

fn case_count() -> u64 {
    std::env::var("CONTACTLAB_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES)
}

/// Counts of what the cases did, printed so a run shows how much of the
/// pipeline the mutations reach.
static LOADED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static STEPPED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// Longest a case may take, loading and stepping included.
const CASE_BUDGET: Duration = Duration::from_secs(10);
/// Methods each loadable case is stepped with, two per case in turn, so the
/// sweep covers them all at a fraction of the cost: every method of the
/// registry and the reference, so a new method is fuzzed from the day it
/// is registered.
fn methods_for(seed: u64) -> [&'static str; 2] {
    let ids: Vec<&'static str> = REGISTRY.iter().map(|m| m.id).collect();
    let at = |i: u64| ids[(i % ids.len() as u64) as usize];
    [at(2 * seed), at(2 * seed + 1)]
}
const STEPS: usize = 3;
/// Length of a blown-up array: large enough to find quadratic work in a
/// check that should refuse the input at once, small enough for the budget.
const HUGE: usize = 5_000;

/// The scenes the fuzzer mutates: the paper's 13, so that a seed (and the
/// regression seeds below) keeps picking the same scene when scenes beyond
/// the paper are added.
fn fuzzed_scenes() -> Vec<BuiltinScene> {
    BUILTIN_SCENES.iter().copied().filter(|s| s.paper).collect()
}

/// Runs one case with the sweep's methods for its seed and returns what
/// went wrong, if anything.
fn run_case(seed: u64) -> Result<(), String> {
    run_case_with(seed, methods_for(seed))
}

/// Runs one case with these two methods.
fn run_case_with(seed: u64, methods: [&str; 2]) -> Result<(), String> {
    let mut rng = SeededRng::new(seed);
    let pool = fuzzed_scenes();
    let BuiltinScene { id, text, .. } = pool[pick(&mut rng, pool.len())];
    let (mutated, log) = mutate(text, &mut rng);
    let what = format!("seed {seed} ({id}: {})", log.join("; "));
    if std::env::var_os("CONTACTLAB_FUZZ_VERBOSE").is_some() {
        // For a hunt that hangs: the last case printed is the culprit.
        eprintln!("{what}");
    }
    let start = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| exercise(&mutated, &methods)));
    let elapsed = start.elapsed();
    match outcome {
        Err(payload) => Err(format!("{what}: panicked: {}", panic_message(&payload))),
        Ok(Err(problem)) => Err(format!("{what}: {problem}")),
        Ok(Ok(())) if elapsed > CASE_BUDGET => Err(format!(
            "{what}: took {:.1} s (budget {} s)",
            elapsed.as_secs_f64(),
            CASE_BUDGET.as_secs()
        )),
        Ok(Ok(())) => Ok(()),
    }
}

/// Loads the text and, when it loads, steps it with each method. Loader
/// and simulation errors are fine; non-finite numbers in a record are not.
fn exercise(text: &str, methods: &[&str]) -> Result<(), String> {
    if load_scene("fuzz.json", text, &LoadOptions::default()).is_err() {
        return Ok(());
    }
    LOADED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    for method in methods {
        let settings = SimSettings {
            method: method.to_string(),
            ..SimSettings::default()
        };
        let start = Instant::now();
        let Ok(mut sim) = Simulation::new("fuzz.json", text, settings) else {
            continue;
        };
        for _ in 0..STEPS {
            let record = sim.step();
            if std::env::var_os("CONTACTLAB_FUZZ_VERBOSE").is_some() {
                // Where a slow case spends its time.
                let (count, ms) = record
                    .as_ref()
                    .map(|r| (r.measures.count, [r.ms_broad, r.ms_method, r.ms_solver]))
                    .unwrap_or_default();
                eprintln!(
                    "  {method}: {count} contacts, broad/method/solver {ms:.0?} ms, {:.1} s so far",
                    start.elapsed().as_secs_f64()
                );
            }
            match record {
                Ok(record) => {
                    STEPPED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    check_finite(&record).map_err(|e| format!("{method}: {e}"))?
                }
                Err(_) => break,
            }
        }
    }
    Ok(())
}

fn check_finite(r: &StepRecord) -> Result<(), String> {
    let scalars = [
        ("time", Some(r.time)),
        ("quality", r.measures.quality),
        ("coverage", r.measures.coverage),
        ("area_coverage", r.measures.area_coverage),
        ("excess", r.measures.excess),
        ("geo_quality", r.measures.geo_quality),
        ("geo_coverage", r.measures.geo_coverage),
        ("geo_area_coverage", r.measures.geo_area_coverage),
        ("geo_excess", r.measures.geo_excess),
        ("min_depth", r.min_depth),
        ("penetration", Some(r.penetration)),
        ("kinetic_energy", Some(r.kinetic_energy)),
        ("max_displacement", Some(r.max_displacement)),
        ("residual", Some(r.residual)),
        ("ms_broad", Some(r.ms_broad)),
        ("ms_method", Some(r.ms_method)),
        ("ms_solver", Some(r.ms_solver)),
        ("ms_oracle", Some(r.ms_oracle)),
    ];
    for (name, value) in scalars {
        if let Some(x) = value {
            if !x.is_finite() {
                return Err(format!("step {}: {name} is {x}", r.step));
            }
        }
    }
    let lists = [
        ("sorted_quality", &r.measures.distributions.sorted_quality),
        ("region_areas", &r.measures.distributions.region_areas),
    ];
    for (name, list) in lists {
        if let Some(x) = list.iter().find(|x| !x.is_finite()) {
            return Err(format!("step {}: {name} holds {x}", r.step));
        }
    }
    Ok(())
}

fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(not a string)".to_string())
}

fn pick(rng: &mut SeededRng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// One to three mutations of the scene's JSON tree, then perhaps a
/// duplicated key or a truncation of the text. Returns the text and a log
/// of what was done, for the report.
fn mutate(text: &str, rng: &mut SeededRng) -> (String, Vec<String>) {
    let mut value: Value = serde_json::from_str(text).expect("shipped scenes are JSON");
    let mut log = Vec::new();
    // Mostly one change, so that many cases still load and reach the
    // simulation; sometimes two or three.
    let changes = [1, 1, 1, 2, 3][pick(rng, 5)];
    for _ in 0..changes {
        let change = mutate_tree(&mut value, rng);
        let blown_up = change.contains("blown up");
        log.push(change);
        if blown_up {
            // Blowing up an array inside a blown-up array would make the
            // fuzzer, not the code under test, take minutes.
            break;
        }
    }
    let objects = pointers(&value, &|v| v.as_object().is_some_and(|o| !o.is_empty()));
    let mut text = match pick(rng, 6) {
        0 if !objects.is_empty() => {
            let target = objects[pick(rng, objects.len())].clone();
            log.push(format!("duplicate first key of {target}"));
            let mut out = String::new();
            emit(&value, "", &target, &mut out);
            out
        }
        _ => serde_json::to_string_pretty(&value).expect("a Value serialises"),
    };
    if pick(rng, 8) == 0 {
        let mut cut = pick(rng, text.len());
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        log.push(format!("truncate at byte {cut}"));
        text.truncate(cut);
    }
    (text, log)
}

/// One random change somewhere in the tree; returns what it did.
fn mutate_tree(root: &mut Value, rng: &mut SeededRng) -> String {
    // Half the time a number: those are what the physics reads.
    let numbers = pointers(root, &Value::is_number);
    let candidates = if pick(rng, 2) == 0 && !numbers.is_empty() {
        numbers
    } else {
        pointers(root, &|_| true)
    };
    let target = candidates[pick(rng, candidates.len())].clone();
    let node = root.pointer_mut(&target).expect("pointer from the tree");
    match pick(rng, 13) {
        0 => {
            // Delete a key of the nearest object at or above the node.
            if let Some((pointer, object)) = parent_object(root, &target) {
                if let Some(key) = object.keys().nth(pick(rng, object.len().max(1))).cloned() {
                    object.remove(&key);
                    return format!("delete {pointer}/{key}");
                }
            }
            "delete nothing".to_string()
        }
        1 | 2 => {
            let replacement = hostile_scalar(rng);
            let shown = replacement.to_string();
            *node = replacement;
            format!("{target} = {shown}")
        }
        3 => {
            // Another type altogether.
            let replacement = match pick(rng, 6) {
                0 => Value::Object(Map::new()),
                1 => Value::Array(Vec::new()),
                2 => Value::String("x".to_string()),
                3 => Value::Bool(true),
                4 => Value::Null,
                _ => Value::Array(vec![node.clone()]),
            };
            let shown = replacement.to_string();
            *node = replacement;
            format!("{target} = {shown}")
        }
        4 => {
            let arrays = pointers(root, &|v| v.as_array().is_some_and(|a| !a.is_empty()));
            if arrays.is_empty() {
                return "blow up nothing".to_string();
            }
            let at = arrays[pick(rng, arrays.len())].clone();
            let array = root
                .pointer_mut(&at)
                .and_then(Value::as_array_mut)
                .expect("array");
            let item = array[pick(rng, array.len())].clone();
            array.resize(HUGE, item);
            format!("{at} blown up to {HUGE} copies of one item")
        }
        5 => {
            let arrays = pointers(root, &|v| v.as_array().is_some_and(|a| a.len() > 1));
            if arrays.is_empty() {
                return "shuffle nothing".to_string();
            }
            let at = arrays[pick(rng, arrays.len())].clone();
            let array = root
                .pointer_mut(&at)
                .and_then(Value::as_array_mut)
                .expect("array");
            for i in (1..array.len()).rev() {
                let j = pick(rng, i + 1);
                array.swap(i, j);
            }
            format!("shuffle {at}")
        }
        6 => {
            scale_numbers(node, 1e6);
            format!("{target} scaled by 1e6")
        }
        7 => {
            scale_numbers(root, 1e6);
            "every number scaled by 1e6".to_string()
        }
        8 => {
            // Scale a part by a tiny, negative or huge factor.
            let factor = [1e-9, -1.0, 1e9][pick(rng, 3)];
            scale_numbers(node, factor);
            format!("{target} scaled by {factor}")
        }
        9 | 10 => {
            // A plausible change that often still loads: the physics gets
            // odd but valid input.
            let factor = [-1.0, 0.5, 2.0, 10.0, 1e3, 1e-3][pick(rng, 6)];
            scale_numbers(node, factor);
            format!("{target} scaled by {factor}")
        }
        11 => {
            // Two bodies in the same place: deep interpenetration.
            let bodies = root.pointer_mut("/bodies").and_then(Value::as_array_mut);
            match bodies {
                Some(bodies) if bodies.len() > 1 => {
                    let (from, to) = (pick(rng, bodies.len()), pick(rng, bodies.len()));
                    let position = bodies[from].get("position").cloned();
                    if let (Some(p), Some(body)) = (position, bodies[to].as_object_mut()) {
                        body.insert("position".to_string(), p);
                    }
                    format!("body {to} moved to body {from}")
                }
                _ => "move nothing".to_string(),
            }
        }
        _ => {
            // Nothing fixed: everything falls (the loader refuses this).
            if let Some(bodies) = root.pointer_mut("/bodies").and_then(Value::as_array_mut) {
                for body in bodies.iter_mut().filter_map(Value::as_object_mut) {
                    body.insert("fixed".to_string(), Value::Bool(pick(rng, 4) == 0));
                }
            }
            "bodies fixed at random".to_string()
        }
    }
}

/// Numbers and number-like strings that break careless code.
fn hostile_scalar(rng: &mut SeededRng) -> Value {
    let number = |x: f64| Value::Number(Number::from_f64(x).expect("finite"));
    match pick(rng, 12) {
        0 => number(0.0),
        1 => number(-1.0),
        2 => number(1e300),
        3 => number(-1e-320),
        4 => number(-1e300),
        5 => number(1e-300),
        6 => Value::Number(u64::MAX.into()),
        7 => Value::String("NaN".to_string()),
        8 => Value::String("inf".to_string()),
        9 => Value::String("-Infinity".to_string()),
        10 => Value::String("1e999".to_string()),
        _ => number(4294967296.0),
    }
}

fn scale_numbers(value: &mut Value, factor: f64) {
    match value {
        Value::Number(n) => {
            if let Some(x) = n.as_f64().and_then(|x| Number::from_f64(x * factor)) {
                *n = x;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| scale_numbers(v, factor)),
        Value::Object(map) => map.values_mut().for_each(|v| scale_numbers(v, factor)),
        _ => {}
    }
}

/// JSON pointers of every node (root included) that `keep` accepts, in
/// document order.
fn pointers(root: &Value, keep: &dyn Fn(&Value) -> bool) -> Vec<String> {
    fn walk(v: &Value, at: String, keep: &dyn Fn(&Value) -> bool, out: &mut Vec<String>) {
        if keep(v) {
            out.push(at.clone());
        }
        match v {
            Value::Object(map) => {
                for (k, child) in map {
                    let key = k.replace('~', "~0").replace('/', "~1");
                    walk(child, format!("{at}/{key}"), keep, out);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    walk(child, format!("{at}/{i}"), keep, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(root, String::new(), keep, &mut out);
    out
}

/// The object at `pointer`, or the nearest object above it, with its
/// pointer; `None` when there is none (an earlier change replaced the root).
fn parent_object<'a>(
    root: &'a mut Value,
    pointer: &str,
) -> Option<(String, &'a mut Map<String, Value>)> {
    let mut at = pointer.to_string();
    while !root.pointer(&at).is_some_and(Value::is_object) {
        at.truncate(at.rfind('/')?);
    }
    let object = root.pointer_mut(&at).and_then(Value::as_object_mut)?;
    Some((at, object))
}

/// Serialises `value` as JSON, writing the first entry of the object at
/// `duplicate` twice (serde_json's tree cannot hold a repeated key).
fn emit(value: &Value, at: &str, duplicate: &str, out: &mut String) {
    match value {
        Value::Object(map) => {
            out.push('{');
            let mut first = true;
            for (i, (k, child)) in map.iter().enumerate() {
                let times = if i == 0 && at == duplicate { 2 } else { 1 };
                for _ in 0..times {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    out.push_str(&Value::String(k.clone()).to_string());
                    out.push(':');
                    let key = k.replace('~', "~0").replace('/', "~1");
                    emit(child, &format!("{at}/{key}"), duplicate, out);
                }
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, child) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                emit(child, &format!("{at}/{i}"), duplicate, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[test]
fn mutated_shipped_scenes_never_panic_hang_or_return_non_finite_numbers() {
    let start = Instant::now();
    let cases = case_count();
    let first: u64 = std::env::var("CONTACTLAB_FUZZ_FIRST")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let failures: Vec<String> = (first..first + cases)
        .filter_map(|seed| run_case(seed).err())
        .collect();
    eprintln!(
        "{cases} fuzz cases in {:.1} s: {} loaded, {} steps ran",
        start.elapsed().as_secs_f64(),
        LOADED.load(std::sync::atomic::Ordering::Relaxed),
        STEPPED.load(std::sync::atomic::Ordering::Relaxed)
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_mutator_changes_the_text() {
    // A fuzzer that hands back the shipped text unchanged tests nothing.
    let unchanged = (0..50)
        .filter(|&seed| {
            let mut rng = SeededRng::new(seed);
            let pool = fuzzed_scenes();
            let text = pool[pick(&mut rng, pool.len())].text;
            let (mutated, _) = mutate(text, &mut rng);
            serde_json::from_str::<Value>(&mutated).ok() == serde_json::from_str::<Value>(text).ok()
        })
        .count();
    assert!(unchanged < 5, "{unchanged} of 50 mutations changed nothing");
}

/// Runs one seed as its own test, for the cases the sweep has found, with
/// the methods the sweep gave it when it found the case (the sweep's
/// choice moves as methods are registered).
fn regression(seed: u64, methods: [&str; 2]) {
    if let Err(problem) = run_case_with(seed, methods) {
        panic!("{problem}");
    }
}

/// The fuzzer's own bug, kept so it stays fixed: this seed replaces the
/// whole scene by a string, then deletes a key from "the nearest object",
/// which used to search upwards forever.
#[test]
fn seed_536_scene_replaced_by_a_string_then_a_key_deleted() {
    regression(536, ["surface-sat", "reference"]);
}

/// Found by the 4000-case hunt: one Wall brick moved 1.8e6 m away made the
/// scene 1e6 m across, the touch tolerance (then relative to the scene)
/// grew with it, and Growth slowed from 0.3 s to 6 s a step (dev profile).
/// Now such a coordinate is refused (`scene::limits`) and the tolerance is
/// per pair of bodies.
#[test]
fn seed_730_a_far_away_brick_makes_growth_twenty_times_slower() {
    regression(730, ["growth", "vertex-only"]);
}

/// Found by the 4000-case hunt: the spike moved into the crack block (deep
/// interpenetration) gave the reference 30 000 exact contacts and the
/// solver took 7 s for the first step (dev profile), with the tolerance
/// relative to the whole scene. The per-pair tolerance brought it to about
/// 2 s a step, still close to the case budget on a loaded 2-core machine
/// (it exceeded it once in CI). The cause was the mutation itself: the
/// oracle's one normal repeated 5000 times, which the reference took as
/// 5000 normals at every point. It now takes each distinct normal once: 12
/// contacts, milliseconds.
#[test]
fn seed_758_a_spike_buried_in_the_crack_block_slows_the_reference() {
    regression(758, ["surface-sat", "reference"]);
}
