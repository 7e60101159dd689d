//! Issue 21, item 5: every default length follows the bodies' size, so a
//! uniformly scaled scene gives the same contacts, scaled. Every shipped
//! scene is scaled by 0.1 and by 10 (lengths, positions, velocities,
//! gravity, the oracle's expected area: [`common::scale_scene_json`]) and
//! meshed by the cone mesher (which meshes any size; TetGen's committed
//! meshes are for the files' own sizes); at the scene's measure step every
//! method must give the same number of contacts, at the same places scaled,
//! with the same verdicts of the scene's oracle and of the geometric one.
//!
//! The run to the measure step includes the dynamics: with lengths,
//! velocities and gravity × s and the same time step, the motion scales too.

mod common;

use common::scale_scene_json;
use contactlab::contact::{every_method, MethodInfo};
use contactlab::mesh::Mesher;
use contactlab::scene::builtin::{builtin_ids, builtin_text};
use contactlab::sim::{SimSettings, Simulation};
use contactlab::solver::SolverRules;
use glam::DVec3;

/// The scales, for every method whose tolerances are ours.
const SCALES: [f64; 2] = [0.1, 10.0];
/// Whether a method's answers depend on absolute lengths that are not
/// defaults of ours, so that no default can make it scale invariant:
/// - parry3d's manifolds keep hard-coded thresholds in metres (a squared
///   distance of 1e-6 between kept contacts, contact_manifold.rs, marked
///   "should not be hard-coded"; 1e-3 in polygonal_feature3d.rs);
/// - the `@paper-code` variants reproduce the paper's code, which compares
///   exactly and merges points within ten machine epsilons *in metres*
///   (`code_arithmetic::CODE_SAME`): the round-off of coordinates grows
///   with the scene, so even a scale by 8, exact in floating point, merges
///   fewer points (Pillar, Volume SAT: 438 contacts, 538 at × 8).
fn absolute_inside(method: &MethodInfo) -> bool {
    method.id == "parry" || method.is_paper_code()
}
/// How far a scaled contact may sit from the original's place times s, as
/// a fraction of the scaled scene's size. The solver's 1000 sweeps over the
/// steps before the measure step amplify round-off: SAT-MTD's Pillar
/// contacts land 4e-6 of the scene's size apart at step 3, at 0.1 and at
/// 10 alike (an absolute length would show at one scale only). Still a
/// hundredth of the smallest envelope of the scenes.
const PLACE_TOLERANCE: f64 = 1e-4;

/// Scenes checked at step 1 rather than at their measure step (10): the
/// geometric oracle judges Rolling spheres' two 100-vertex spheres (and
/// the box) at about 0.7 s a step for all methods together, which at the
/// measure step and three scales took 200 of this test's 240 s. Step 1
/// asks the same question of every default length.
const AT_STEP_ONE: [&str; 1] = ["rolling-spheres"];

/// What a run shows at the scene's measure step.
struct Outcome {
    count: usize,
    positions: Vec<DVec3>,
    /// Per contact: the scene's oracle's verdict (`None`: no oracle) and
    /// the geometric oracle's.
    verdicts: Vec<(Option<bool>, &'static str)>,
    /// The scene's size, for the tolerance.
    size: f64,
}

fn outcome(id: &str, text: &str, method: &str) -> Result<Outcome, String> {
    // The printed solver: its fixed 1000 sweeps make the same operations at
    // every scale. The accelerated solver's steps are scale-free too, but
    // where a method's wrong contacts admit no resting solution it runs to
    // its ceiling, and its restart test (a sign) can flip with rounding at
    // another scale (docs/design/solver.md, "The accelerated solver").
    let settings = SimSettings {
        method: method.to_string(),
        mesher: Some(Mesher::Cones),
        solver: SolverRules::Printed,
        ..SimSettings::default()
    };
    let mut sim =
        Simulation::new(&format!("builtin:{id}"), text, settings).map_err(|e| e.to_string())?;
    let step = if AT_STEP_ONE.contains(&id) {
        1
    } else {
        sim.scene().settings.measure_step
    };
    let record = sim.run_to(step).map_err(|e| e.to_string())?;
    Ok(Outcome {
        count: record.measures.count,
        positions: sim.contacts().iter().map(|c| c.position).collect(),
        verdicts: sim
            .contact_qualities()
            .iter()
            .map(|q| (q.correct, q.geo.id()))
            .collect(),
        size: sim.scene().size(),
    })
}

/// Where `scaled` differs from `base` scaled by `s`, in words.
fn differences(base: &Outcome, scaled: &Outcome, s: f64) -> Vec<String> {
    let mut found = Vec::new();
    if base.count != scaled.count {
        found.push(format!(
            "{} contacts, {} unscaled",
            scaled.count, base.count
        ));
        return found;
    }
    // Matched by place within each pair of verdicts (the scene oracle's:
    // right, wrong or none; the geometric oracle's), not by index: contacts
    // the same up to round-off may come out in another order, and a
    // contact whose verdict changed finds no partner.
    let reach = PLACE_TOLERANCE * scaled.size;
    let mut kinds: Vec<(Option<bool>, &str)> = base.verdicts.clone();
    kinds.extend(scaled.verdicts.iter().copied());
    kinds.sort_unstable();
    kinds.dedup();
    for verdict in kinds {
        let of = |o: &Outcome| -> Vec<DVec3> {
            o.positions
                .iter()
                .zip(&o.verdicts)
                .filter(|(_, v)| **v == verdict)
                .map(|(p, _)| *p)
                .collect()
        };
        let (mine, theirs) = (of(base), of(scaled));
        if mine.len() != theirs.len() {
            found.push(format!(
                "{} contacts judged {verdict:?}, {} unscaled",
                theirs.len(),
                mine.len()
            ));
            continue;
        }
        let mut unused: Vec<DVec3> = theirs;
        let mut far = 0;
        for p in &mine {
            let want = *p * s;
            let nearest = unused
                .iter()
                .enumerate()
                .map(|(k, q)| (k, (*q - want).length()))
                .filter(|&(_, d)| d <= reach)
                .min_by(|x, y| x.1.total_cmp(&y.1));
            match nearest {
                Some((k, _)) => {
                    unused.swap_remove(k);
                }
                None => far += 1,
            }
        }
        if far > 0 {
            found.push(format!(
                "{far} of {} contacts judged {verdict:?} not at their place × {s}",
                mine.len()
            ));
        }
    }
    found
}

#[test]
fn every_shipped_scene_scaled_by_a_tenth_and_by_ten_gives_every_method_the_same_contacts_scaled() {
    let mut failures = Vec::new();
    let mut runs = 0;
    for id in builtin_ids() {
        let text = builtin_text(id).unwrap();
        for method in every_method().filter(|m| !absolute_inside(m)) {
            let base = match outcome(id, text, method.id) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{id} / {}: {e}", method.id));
                    continue;
                }
            };
            for s in SCALES {
                runs += 1;
                let scaled_text = scale_scene_json(text, s);
                match outcome(id, &scaled_text, method.id) {
                    Ok(scaled) => {
                        for d in differences(&base, &scaled, s) {
                            failures.push(format!("{id} / {} × {s}: {d}", method.id));
                        }
                    }
                    Err(e) => failures.push(format!("{id} / {} × {s}: {e}", method.id)),
                }
            }
        }
    }
    assert!(runs > 0);
    assert!(
        failures.is_empty(),
        "{} of {runs} scaled runs differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
