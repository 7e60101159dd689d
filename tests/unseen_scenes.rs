//! Scenes the paper's thirteen do not cover (issue 13: a method "will also
//! be judged on scenes it has not seen"), kept in `tests/scenes/`: a cube
//! in a three-sided corner pit (three face regions of one pair meeting at
//! concave edges and a concave corner), a box held by friction on a ramp,
//! a crossed stack of beams with a block turned 45° (edge–edge crossings at
//! the region corners), the same stack under an arbitrary rotation, a
//! non-convex staple on two feet (two regions of one pair), a plank leaning
//! on a wall (edge-on-face line contacts on two bodies), a cube sliding over
//! the joint between two slabs, and a tall box toppling from one edge onto
//! its side.
//!
//! Every file in the folder is checked (a new file is covered without
//! touching this one): it loads, its oracle agrees with the exact contact
//! regions pair by pair, and the reference is right at every step.
//! [`judge`] holds a method to the bar issue 13 sets for `semi-local`, on
//! each scene's own meshes (TetGen where a mesh is committed for the shape)
//! and on cone meshes.

use contactlab::contact::{exact_contacts, method_by_id, RELATIVE_TOUCH_TOL};
use contactlab::mesh::Mesher;
use contactlab::scene::builtin::builtin_ids;
use contactlab::scene::{load_scene, LoadOptions, Oracle, Scene};
use contactlab::sim::{SimSettings, Simulation, StepRecord};
use std::path::PathBuf;

/// Issue 13's targets for a method on a scene.
const MEASURE_QUALITY: f64 = 100.0;
const MEASURE_COVERAGE: f64 = 100.0;
const MAX_EXCESS: f64 = 1.25;
const MEAN_QUALITY: f64 = 99.0;
/// Quality and coverage are ratios of whole numbers times 100; "100 %"
/// allows for nothing but the rounding of that product.
const ROUNDING: f64 = 1e-9;

/// The scene files of `tests/scenes/`, as (file name, text), sorted.
fn scene_files() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenes");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|x| x == "json"))
        .map(|path| {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a UTF-8 file name")
                .to_string();
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (name, text)
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 6,
        "{} holds {} scene files; issue 13 asks for several (six or more)",
        dir.display(),
        files.len()
    );
    files
}

fn source(name: &str) -> String {
    format!("tests/scenes/{name}")
}

fn load(name: &str, text: &str, options: &LoadOptions) -> Scene {
    load_scene(&source(name), text, options).unwrap_or_else(|e| panic!("{e}"))
}

/// The scene's own steps with `settings`, ending early at an error or a
/// diverged step (as a message naming the scene and the step).
fn run(name: &str, text: &str, settings: SimSettings) -> Result<Vec<StepRecord>, String> {
    let what = format!(
        "{name} with {} ({} meshes)",
        settings.method,
        meshes(settings.mesher)
    );
    let mut sim = Simulation::new(&source(name), text, settings)
        .map_err(|e| format!("{what}: does not start: {e}"))?;
    let steps = sim.scene().settings.steps;
    let mut records = Vec::with_capacity(steps as usize);
    for _ in 0..steps {
        let r = sim
            .step()
            .map_err(|e| format!("{what}: step {}: {e}", sim.step_index() + 1))?;
        if let Some(message) = &r.diverged {
            return Err(format!("{what}: {message}"));
        }
        records.push(r);
    }
    Ok(records)
}

fn settings(method: &str, mesher: Option<Mesher>) -> SimSettings {
    SimSettings {
        method: method.to_string(),
        mesher,
        ..SimSettings::default()
    }
}

/// The meshes a method is judged on: the scene's own (TetGen where one is
/// committed for the shape, else cones, as the loader falls back) and
/// cones, unless the scene's own are cones (or given tetrahedra) already.
fn meshers(name: &str, text: &str) -> Vec<Option<Mesher>> {
    let own = load(name, text, &LoadOptions::default());
    if own
        .bodies
        .iter()
        .all(|b| matches!(b.mesher, None | Some(Mesher::Cones)))
    {
        vec![None]
    } else {
        vec![None, Some(Mesher::Cones)]
    }
}

/// The meshes of a run, for messages.
fn meshes(mesher: Option<Mesher>) -> String {
    mesher.map_or("the scene's own".to_string(), |m| m.to_string())
}

fn show(x: Option<f64>) -> String {
    x.map_or("—".to_string(), |v| format!("{v:.2}"))
}

/// What falls short of issue 13's bar for `method_id` on every scene of
/// `tests/scenes/` and on both mesh kinds, one line per shortfall: at the
/// scene's measure step 100 % quality, 100 % coverage and excess ≤ 1.25;
/// over the steps with contacts a mean quality ≥ 99 %.
fn judge_failures(method_id: &str) -> Vec<String> {
    assert!(
        method_by_id(method_id).is_some(),
        "no method \"{method_id}\" in the registry"
    );
    let mut failures = Vec::new();
    for (name, text) in scene_files() {
        for mesher in meshers(&name, &text) {
            let what = format!("{name} ({} meshes)", meshes(mesher));
            let records = match run(&name, &text, settings(method_id, mesher)) {
                Ok(records) => records,
                Err(message) => {
                    failures.push(message);
                    continue;
                }
            };
            let measure_step = load(&name, &text, &LoadOptions::default())
                .settings
                .measure_step;
            match records.get(measure_step as usize - 1) {
                None => failures.push(format!(
                    "{what}: the run ended before its measure step {measure_step}"
                )),
                Some(r) => {
                    let at = format!("{what}, measure step {}", r.step);
                    if r.measures.count == 0 {
                        failures.push(format!("{at}: no contacts"));
                    } else {
                        if r.measures
                            .quality
                            .is_none_or(|q| q < MEASURE_QUALITY - ROUNDING)
                        {
                            failures.push(format!(
                                "{at}: quality {} % ({} of {} normals right), must be {MEASURE_QUALITY} %",
                                show(r.measures.quality),
                                r.measures.correct.unwrap_or(0),
                                r.measures.count
                            ));
                        }
                        if r.measures
                            .coverage
                            .is_none_or(|c| c < MEASURE_COVERAGE - ROUNDING)
                        {
                            failures.push(format!(
                                "{at}: coverage {} %, must be {MEASURE_COVERAGE} %",
                                show(r.measures.coverage)
                            ));
                        }
                        if r.measures.excess.is_none_or(|e| e > MAX_EXCESS) {
                            failures.push(format!(
                                "{at}: excess {} ({} contacts), must be at most {MAX_EXCESS}",
                                show(r.measures.excess),
                                r.measures.count
                            ));
                        }
                    }
                }
            }
            let touching: Vec<&StepRecord> =
                records.iter().filter(|r| r.measures.count > 0).collect();
            let qualities: Vec<f64> = touching.iter().filter_map(|r| r.measures.quality).collect();
            if qualities.is_empty() {
                failures.push(format!("{what}: no step of the run has contacts"));
                continue;
            }
            let mean = qualities.iter().sum::<f64>() / qualities.len() as f64;
            if mean < MEAN_QUALITY {
                let worst = touching
                    .iter()
                    .filter(|r| r.measures.quality.is_some())
                    .min_by(|a, b| {
                        a.measures
                            .quality
                            .unwrap()
                            .total_cmp(&b.measures.quality.unwrap())
                    })
                    .expect("a step with a quality");
                failures.push(format!(
                    "{what}: mean quality {mean:.2} % over the {} steps with contacts, must be at least {MEAN_QUALITY} % (worst: step {}, {} % of {} contacts)",
                    touching.len(),
                    worst.step,
                    show(worst.measures.quality),
                    worst.measures.count
                ));
            }
        }
    }
    failures
}

/// Asserts issue 13's bar for `method_id` on every scene of `tests/scenes/`
/// (see [`judge_failures`]), listing every shortfall.
fn judge(method_id: &str) {
    let failures = judge_failures(method_id);
    assert!(
        failures.is_empty(),
        "{method_id} falls short on the unseen scenes:\n  {}",
        failures.join("\n  ")
    );
}

#[test]
fn every_scene_loads_with_its_file_name_as_id_and_a_pairs_oracle() {
    for (name, text) in scene_files() {
        for mesher in [Mesher::TetGen, Mesher::Cones] {
            let options = LoadOptions {
                mesher: Some(mesher),
                ..LoadOptions::default()
            };
            let scene = load(&name, &text, &options);
            assert_eq!(
                format!("{}.json", scene.id),
                name,
                "{name}: the id must be the file name"
            );
            assert!(
                !builtin_ids().any(|id| id == scene.id),
                "{name}: the id \"{}\" is a built-in scene's; these scenes are the ones a method has not seen",
                scene.id
            );
            assert!(
                matches!(scene.oracle, Oracle::Pairs { .. }),
                "{name}: the oracle must be of type \"pairs\" (feasible normals per body pair), got \"{}\"",
                scene.oracle.type_name()
            );
        }
    }
}

#[test]
fn every_scene_touches_exactly_where_its_oracle_says() {
    for (name, text) in scene_files() {
        let scene = load(&name, &text, &LoadOptions::default());
        let Oracle::Pairs { pairs } = &scene.oracle else {
            panic!("{name}: not a pairs oracle");
        };
        let exact = exact_contacts(&scene, RELATIVE_TOUCH_TOL);
        let body = |i: usize| scene.bodies[i].name.as_str();
        for p in pairs {
            let found = exact
                .pairs
                .iter()
                .find(|e| (e.a, e.b) == (p.a, p.b) || (e.a, e.b) == (p.b, p.a));
            let Some(found) = found else {
                panic!(
                    "{name}: the oracle lists {} — {}, but they do not touch at the initial pose",
                    body(p.a),
                    body(p.b)
                );
            };
            assert_eq!(
                found.hull_vertices() as u64,
                p.min_contacts,
                "{name}: {} — {}: min_contacts must be the exact regions' hull vertex count ({} regions)",
                body(p.a),
                body(p.b),
                found.regions.len()
            );
        }
        for e in &exact.pairs {
            assert!(
                pairs
                    .iter()
                    .any(|p| (e.a, e.b) == (p.a, p.b) || (e.a, e.b) == (p.b, p.a)),
                "{name}: {} and {} touch at the initial pose, but the oracle does not list the pair",
                body(e.a),
                body(e.b)
            );
        }
        assert_eq!(
            scene.oracle.min_contacts(),
            Some(exact.min_contacts() as u64),
            "{name}"
        );
    }
}

#[test]
fn the_reference_is_right_at_every_step_of_every_scene() {
    for (name, text) in scene_files() {
        let records =
            run(&name, &text, settings("reference", None)).unwrap_or_else(|e| panic!("{e}"));
        for r in &records {
            assert!(
                r.measures.count > 0
                    && r.measures.correct == Some(r.measures.count)
                    && r.measures.coverage.is_some_and(|c| c >= 100.0 - ROUNDING),
                "{name}, step {}: the reference gives {} contacts, {} right, coverage {} %: the oracle's normals disagree with the geometry",
                r.step,
                r.measures.count,
                r.measures.correct.unwrap_or(0),
                show(r.measures.coverage)
            );
        }
    }
}

#[test]
fn the_judge_passes_the_reference() {
    judge("reference");
}

#[test]
fn the_judge_fails_a_method_that_is_wrong_on_these_scenes() {
    // Opposing takes a plank's edge on a wall for a face of the plank, and
    // stops a cube on a slab joint with the joint's side faces.
    let failures = judge_failures("opposing");
    for scene in ["leaning-plank.json", "sliding-over-joint.json"] {
        assert!(
            failures.iter().any(|f| f.starts_with(scene)),
            "the judge should fail Opposing on {scene}; it reports:\n  {}",
            failures.join("\n  ")
        );
    }
}

#[test]
fn region_analysis_meets_the_bar_so_it_is_reachable_by_a_method() {
    // Not only the reference: the best method of the registry so far is
    // right on every unseen scene too, so a shortfall of a new method is
    // its own, not the scenes'.
    judge("region-analysis");
}

#[test]
fn semi_local_is_right_on_every_unseen_scene() {
    judge("semi-local");
}
