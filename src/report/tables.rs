//! Comparison tables: one row per method of the registry, in the shape of
//! the paper's tables 6, 7 and 8 and of its studies in sections 8.2–8.7
//! (`docs/design/measures.md`, "Summary tables"), for `contactlab table` and
//! `docs/results.md`; the numbers come from [`crate::sim::Simulation`] runs.

use super::contestants::method_settings;
pub use super::contestants::{initial_pose_row, Contestant, Contestants, InitialPoseRow};
use super::paper;
pub use super::text_table::{Progress, Table};
use crate::contact::{methods_and_variants, methods_under_test, MethodInfo};
use crate::measures::StepMeasures;
use crate::scene::builtin::{builtin_text, load_builtin};
use crate::scene::LoadOptions;
use crate::settings::SettingError;
use crate::sim::{EngineRunner, SimError, SimSettings, Simulation, StepRecord};

/// The table kinds of `contactlab table`.
pub const TABLE_KINDS: [&str; 12] = [
    "counts", "pillar", "cases", "wall", "arch", "perturb", "timestep", "refine", "meshes",
    "sat-unit", "spheres", "engines",
];

/// The methods the tables compare: the registry without the reference,
/// and with `paper_code` each method's `@paper-code` variant after it
/// (`docs/design/reference-code.md`; `contactlab table … --paper-code`).
pub fn table_methods(paper_code: bool) -> Vec<&'static MethodInfo> {
    if paper_code {
        methods_and_variants().collect()
    } else {
        methods_under_test().collect()
    }
}

/// A cell of the paper's table 8: "(*)" where it found no contacts, "—"
/// where the paper does not have the method.
pub(super) fn paper_number(x: Option<f64>) -> String {
    match x {
        None => "—".to_string(),
        Some(x) if x.is_nan() => "(*)".to_string(),
        Some(x) => format!("{x:.1}"),
    }
}

/// What the geometric columns of the run tables are.
const GEO_NOTE: &str = "The geo columns judge the same contacts by the geometric oracle (`docs/design/oracle.md`: the right normals derived from the two surfaces at the step's pose; quality counts right and indeterminate-right contacts).";

fn number(x: Option<f64>, digits: usize) -> String {
    x.map_or("—".to_string(), |v| format!("{v:.digits$}"))
}

/// Runs `steps` steps of a built-in scene; returns every step's record. An
/// engine's run (the `method` setting names one) has its adapter started
/// by `runner`.
pub fn run_builtin(
    scene_id: &str,
    settings: SimSettings,
    steps: u64,
    runner: Option<&dyn EngineRunner>,
) -> Result<Vec<StepRecord>, SimError> {
    let text = builtin_text(scene_id)
        .ok_or_else(|| SimError::Scene(format!("no built-in scene \"{scene_id}\"")))?;
    let mut sim = match settings.engine_info() {
        Some(_) => {
            let scene = load_builtin(scene_id, &settings.load_options()?)
                .map_err(|e| SimError::Scene(e.to_string()))?;
            Simulation::with_runner(scene, settings, runner)?
        }
        None => Simulation::new(&format!("builtin:{scene_id}"), text, settings)?,
    };
    // A diverged run ends with the step that diverged (it says so in its
    // record); the tables show what it reached.
    let mut records: Vec<StepRecord> = Vec::new();
    while (records.len() as u64) < steps && records.last().is_none_or(|r| r.diverged.is_none()) {
        records.push(sim.step()?);
    }
    Ok(records)
}

/// Builds one of [`TABLE_KINDS`]. `steps` overrides the number of steps
/// where the table runs a whole simulation (counts: 500, cases: the scene's).
///
/// `base` holds the settings every run starts from (the paper's, with the
/// mesher the caller chose); each table varies the method and what it
/// studies. An envelope or erosion ε left at its size-relative default
/// takes the paper's 1 cm ([`SimSettings::with_paper_lengths`]): these are
/// the paper's tables, and their numbers are the paper's settings'.
/// `contestants` are the rows: the methods, the engines when it has a
/// runner (every table but meshes, sat-unit and spheres), and the
/// recorded engines (pillar, wall, arch).
pub fn build_table(
    kind: &str,
    steps: Option<u64>,
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Table, SimError> {
    let base = &base.with_paper_lengths();
    let mut table = match kind {
        "counts" => counts_table(steps.unwrap_or(500), base, contestants, progress),
        "pillar" => step_table("pillar", 3, base, contestants, progress),
        "wall" => step_table("wall", 3, base, contestants, progress),
        "arch" => step_table("arch", 3, base, contestants, progress),
        "cases" => cases_table(steps, base, contestants, progress),
        "perturb" => perturb_table(base, contestants, progress),
        "timestep" => timestep_table(base, contestants, progress),
        "refine" => refine_table(base, contestants, progress),
        "engines" => super::engine_cases::engine_cases_table(base, contestants, progress),
        "spheres" => super::spheres::spheres_table(
            base,
            &super::spheres::SPHERE_VERTICES,
            &super::spheres::SPHERE_TIME_STEPS,
            progress,
        ),
        // Both meshers side by side, whatever the caller chose.
        "meshes" => {
            return super::meshes::meshes_table(progress)
                .map_err(|e| SimError::Scene(e.to_string()))
        }
        // Cheng Yi & Drumwright's unit test, with its default poses and seed (the CLI
        // passes --poses and --seed to `sat_unit::sat_unit_table`).
        "sat-unit" => {
            return Ok(super::sat_unit::sat_unit_table(
                super::sat_unit::DEFAULT_POSES,
                super::sat_unit::DEFAULT_SEED,
                progress,
            ))
        }
        other => Err(SimError::Setting(SettingError {
            id: "table",
            message: format!(
                "unknown table \"{other}\" (expected one of: {})",
                TABLE_KINDS.join(", ")
            ),
        })),
    }?;
    if let Some(mesher) = base.mesher {
        table.title = format!("{} — {}", table.title, mesher.meshes());
    }
    Ok(table)
}

/// The run tables' notes, with [`RUN_ENGINE_NOTE`] when engines have rows.
fn notes_with_engines(notes: Vec<String>, contestants: &Contestants) -> Vec<String> {
    let mut notes = notes;
    if contestants.engines_run() {
        notes.push(RUN_ENGINE_NOTE.to_string());
    }
    notes
}

fn counts_table(
    steps: u64,
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Table, SimError> {
    let runner = contestants.runner;
    let rows_of = contestants.rows();
    let mut rows = Vec::new();
    for (i, c) in rows_of.iter().enumerate() {
        progress(c.id(), i, rows_of.len());
        let records = run_builtin("pillar", method_settings(base, c.id()), steps, runner)?;
        let counts: Vec<f64> = records.iter().map(|r| r.measures.count as f64).collect();
        let n = counts.len().max(1) as f64;
        let mean = counts.iter().sum::<f64>() / n;
        let std = (counts.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / n).sqrt();
        let (min, max) = counts
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &c| {
                (lo.min(c), hi.max(c))
            });
        let last = records.last().map_or(0.0, |r| r.max_displacement);
        let standing = records.last().and_then(|r| r.standing).unwrap_or(true);
        // A run that diverged ends early: the table says at which step.
        let pillar = match records.last().filter(|r| r.diverged.is_some()) {
            Some(r) => format!("diverged at step {}", r.step),
            None => (if standing { "stands" } else { "falls" }).to_string(),
        };
        let paper_row = c.paper_id().and_then(|id| paper::row(&paper::TABLE_6, id));
        let paper_cells =
            paper_row.map_or(vec![String::from("—"); 4], |&(pm, pmin, pmax, pstd)| {
                vec![
                    format!("{pm:.2}"),
                    format!("{pmin}"),
                    format!("{pmax}"),
                    format!("{pstd:.2}"),
                ]
            });
        let mut row = vec![
            c.name(),
            format!("{mean:.2}"),
            format!("{min:.0}"),
            format!("{max:.0}"),
            format!("{std:.2}"),
            format!("{last:.4}"),
            pillar,
        ];
        row.extend(paper_cells);
        rows.push(row);
    }
    progress("", rows_of.len(), rows_of.len());
    Ok(Table {
        title: format!("Pillar contact counts over the first {steps} steps (table 6)"),
        notes: notes_with_engines(vec![format!("Mean, min, max and standard deviation of the count per step; the largest displacement of a stone at step {steps}, and whether every stone stayed within 0.2 % of the scene's size, 1.1 cm (\"stands\"). The paper's columns are its table 6.")], contestants),
        headers: ["method", "mean", "min", "max", "std", "max displacement m", "pillar", "paper mean", "paper min", "paper max", "paper std"].map(String::from).to_vec(),
        rows,
    })
}

fn step_table(
    scene: &str,
    step: u64,
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Table, SimError> {
    let rows_of = contestants.rows();
    let mut measured: Vec<(String, Option<&'static str>, Option<StepMeasures>)> = Vec::new();
    for (i, c) in rows_of.iter().enumerate() {
        progress(c.id(), i, rows_of.len());
        let records = run_builtin(
            scene,
            method_settings(base, c.id()),
            step,
            contestants.runner,
        )?;
        measured.push((
            c.name(),
            c.paper_id(),
            records.last().map(|r| r.measures.clone()),
        ));
    }
    // Recorded engines at their own step `step`, at their own poses.
    for engine in contestants.recorded {
        let measures = engine
            .measures(scene, step, base)
            .map_err(SimError::Scene)?;
        measured.push((engine.label.clone(), None, measures));
    }
    let mut rows = Vec::new();
    for (name, paper_id, measures) in &measured {
        let measures = measures.as_ref();
        let pick = |f: fn(&StepMeasures) -> Option<f64>| measures.and_then(f);
        let mut row = vec![
            name.clone(),
            number(pick(|m| m.quality), 1),
            measures.map_or(0, |m| m.count).to_string(),
            number(pick(|m| m.excess), 1),
        ];
        if scene != "pillar" {
            row.push(number(pick(|m| m.area_coverage), 3));
        }
        row.extend([
            number(pick(|m| m.geo_quality), 1),
            number(pick(|m| m.geo_coverage), 1),
            number(pick(|m| m.geo_excess), 1),
        ]);
        if scene == "pillar" {
            let paper_row = paper_id.and_then(|id| paper::row(&paper::TABLE_7, id));
            row.extend(paper_row.map_or(
                [const { String::new() }; 3].map(|_| "—".to_string()),
                |&(pq, pc, pe)| [format!("{pq:.1}"), pc.to_string(), format!("{pe:.1}")],
            ));
        } else {
            row.push(number(pick(|m| m.geo_area_coverage), 3));
        }
        rows.push(row);
    }
    progress("", rows_of.len(), rows_of.len());
    let (title, headers, notes) = match scene {
        "pillar" => (
            "Pillar at simulation step 3 (table 7)".to_string(),
            vec!["method", "quality %", "contacts", "excess", "geo quality %", "geo coverage %", "geo excess", "paper quality %", "paper contacts", "paper excess"],
            vec![format!("The paper's columns are its table 7. {GEO_NOTE}")],
        ),
        "wall" => (
            "Wall at simulation step 3 (section 8.2)".to_string(),
            vec!["method", "correct %", "contacts", "excess", "P", "geo quality %", "geo coverage %", "geo excess", "geo P"],
            vec![format!("The paper reports Closest points with about 80 % correct normals and P = 0.89, Opposing with 100 % and P = 0.93. {GEO_NOTE}")],
        ),
        _ => (
            "Arch at simulation step 3 (section 8.3)".to_string(),
            vec!["method", "correct %", "contacts", "excess", "P", "geo quality %", "geo coverage %", "geo excess", "geo P"],
            vec![format!("The paper reports Closest points with about 70 % correct normals and P = 0.64, Opposing with about 50 % and P = 0.90. {GEO_NOTE}")],
        ),
    };
    let mut notes = notes_with_engines(notes, contestants);
    if !contestants.recorded.is_empty() {
        notes.push(ENGINE_NOTE.to_string());
    }
    Ok(Table {
        title,
        notes,
        headers: headers.into_iter().map(String::from).collect(),
        rows,
    })
}

/// What an engine's row is in a table of runs.
pub(super) const RUN_ENGINE_NOTE: &str = "The rows named after an engine and its npm package are that engine's contacts at our poses, the paper's protocol: at every step its adapter (`www/engines/<id>.js`, run in Node) puts the bodies at the step's midpoint pose, runs the engine's collision detection once, and our solver steps with the contacts it reports (`contactlab run <scene> --method <id>`).";

/// What a recorded engine's row is.
pub(super) const ENGINE_NOTE: &str = "The rows named after an engine and its version alone are that engine's own contacts, recorded by `tools/engine_contacts.py` (`cargo xtask engines`) after 3 of its own steps from the exported scene, measured at its own poses by the same rules (`contactlab score`).";

fn cases_table(
    steps: Option<u64>,
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Table, SimError> {
    let cases = paper::TABLE_8_CASES;
    let rows_of = contestants.rows();
    let total = cases.len() * rows_of.len();
    let mut rows = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        let case_steps = steps.unwrap_or_else(|| {
            load_builtin(case, &LoadOptions::default())
                .map(|s| s.settings.steps)
                .unwrap_or(200)
        });
        for (i, m) in rows_of.iter().enumerate() {
            progress(
                &format!("{case} / {}", m.id()),
                c * rows_of.len() + i,
                total,
            );
            let records = run_builtin(
                case,
                method_settings(base, m.id()),
                case_steps,
                contestants.runner,
            )?;
            let touching: Vec<&StepRecord> =
                records.iter().filter(|r| r.measures.count > 0).collect();
            let mean = |pick: fn(&StepRecord) -> Option<f64>| {
                let values: Vec<f64> = touching.iter().filter_map(|r| pick(r)).collect();
                (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
            };
            let first = touching.first();
            let paper_cell = |grid: &[(&str, [f64; 10])]| {
                paper_number(
                    m.paper_id()
                        .and_then(|id| paper::row(grid, id))
                        .map(|r| r[c]),
                )
            };
            rows.push(vec![
                case.to_string(),
                m.name(),
                touching.len().to_string(),
                number(mean(|r| r.measures.coverage), 1),
                number(mean(|r| r.measures.quality), 1),
                number(mean(|r| r.measures.excess), 1),
                number(first.and_then(|r| r.measures.coverage), 1),
                number(first.and_then(|r| r.measures.quality), 1),
                number(first.and_then(|r| r.measures.excess), 1),
                number(mean(|r| r.measures.geo_coverage), 1),
                number(mean(|r| r.measures.geo_quality), 1),
                number(mean(|r| r.measures.geo_excess), 1),
                paper_cell(&paper::TABLE_8_COVERAGE),
                paper_cell(&paper::TABLE_8_QUALITY),
                paper_cell(&paper::TABLE_8_EXCESS),
            ]);
        }
    }
    progress("", total, total);
    Ok(Table {
        title: "Fundamental cases (table 8)".to_string(),
        notes: notes_with_engines(vec![format!("Per case and method: the steps with contacts, the mean coverage %, quality % and excess over those steps by the case's own oracle (the paper's `pairs`: the normals of the first contact), the same at the first step with contacts, the means over the same steps by the geometric oracle, and the paper's table 8 values. {GEO_NOTE}")], contestants),
        headers: ["case", "method", "steps with contacts", "coverage %", "quality %", "excess", "first: coverage %", "first: quality %", "first: excess", "geo coverage %", "geo quality %", "geo excess", "paper coverage %", "paper quality %", "paper excess"].map(String::from).to_vec(),
        rows,
    })
}

/// Pillar quality at `step` for every method (and engine) under several
/// settings; `(title, notes, column)` label the table and the settings'
/// column.
fn pillar_sweep(
    (title, notes, column): (&str, &str, &str),
    variants: &[(String, SimSettings)],
    step: u64,
    show_count: bool,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Table, SimError> {
    let rows_of = contestants.rows();
    let total = variants.len() * rows_of.len();
    let mut rows = Vec::new();
    for (i, m) in rows_of.iter().enumerate() {
        let mut row = vec![m.name()];
        for (v, (label, base)) in variants.iter().enumerate() {
            progress(
                &format!("{} / {label}", m.id()),
                i * variants.len() + v,
                total,
            );
            let settings = method_settings(base, m.id());
            let r = run_builtin("pillar", settings, step, contestants.runner)?.pop();
            row.push(number(r.as_ref().and_then(|r| r.measures.quality), 1));
            if show_count {
                row.push(r.map_or("0".to_string(), |r| r.measures.count.to_string()));
            }
        }
        rows.push(row);
    }
    progress("", total, total);
    let mut headers = vec!["method".to_string()];
    for (label, _) in variants {
        headers.push(format!("{column} {label}: quality %"));
        if show_count {
            headers.push(format!("{column} {label}: contacts"));
        }
    }
    Ok(Table {
        title: title.to_string(),
        notes: notes_with_engines(vec![notes.to_string()], contestants),
        headers,
        rows,
    })
}

/// Seeds averaged in the perturbation table.
pub const PERTURB_SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

fn perturb_table(
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Table, SimError> {
    let magnitudes = [0.0, 0.01, 0.02, 0.03];
    let rows_of = contestants.rows();
    let total = magnitudes.len() * PERTURB_SEEDS.len() * rows_of.len();
    let mut rows = Vec::new();
    let mut done = 0;
    for m in &rows_of {
        let mut row = vec![m.name()];
        for &p in &magnitudes {
            let mut qualities = Vec::new();
            for &seed in &PERTURB_SEEDS {
                progress(&format!("{} / p = {p} / seed {seed}", m.id()), done, total);
                done += 1;
                let settings = SimSettings {
                    perturb: p,
                    seed,
                    ..method_settings(base, m.id())
                };
                if let Some(q) = run_builtin("pillar", settings, 3, contestants.runner)?
                    .pop()
                    .and_then(|r| r.measures.quality)
                {
                    qualities.push(q);
                }
            }
            let mean = (!qualities.is_empty())
                .then(|| qualities.iter().sum::<f64>() / qualities.len() as f64);
            row.push(number(mean, 1));
        }
        rows.push(row);
    }
    progress("", total, total);
    Ok(Table {
        title: "Pillar quality at step 3 under perturbation (section 8.5)".to_string(),
        notes: notes_with_engines(vec![format!("Every free stone displaced horizontally by p metres in a seeded random direction; the mean quality % over seeds {PERTURB_SEEDS:?}. The paper (figure 30) finds that every method gains quality with perturbation, Growth the most.")], contestants),
        headers: ["method", "p = 0", "p = 0.01", "p = 0.02", "p = 0.03"].map(String::from).to_vec(),
        rows,
    })
}

fn timestep_table(
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Table, SimError> {
    let variants: Vec<(String, SimSettings)> = [0.001, 0.01, 0.1]
        .iter()
        .map(|&h| {
            (
                format!("{h}"),
                SimSettings {
                    dt: Some(h),
                    ..base.clone()
                },
            )
        })
        .collect();
    pillar_sweep(
        (
            "Pillar quality at step 4 for three time steps (section 8.7)",
            "Quality % at step 4 with h = 0.001, 0.01 and 0.1 s. The paper (figure 34) finds Opposing and Closest points insensitive to the time step and Growth very sensitive, with the Pillar collapsing under Opposing at h = 0.1.",
            "h",
        ),
        &variants,
        4,
        false,
        contestants,
        progress,
    )
}

fn refine_table(
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Table, SimError> {
    let variants: Vec<(String, SimSettings)> = (0..=2u8)
        .map(|r| {
            (
                format!("{r}"),
                SimSettings {
                    refine: r,
                    ..base.clone()
                },
            )
        })
        .collect();
    pillar_sweep(
        (
            "Pillar quality and count at step 3 for refinement 0, 1, 2 (section 8.6)",
            "Every tetrahedron split into 8, r times. The paper (figures 31–32, TetGen refinement) finds that finer meshes do not remove bad normals, Opposing benefits most and Closest points stays worst.",
            "refine",
        ),
        &variants,
        3,
        true,
        contestants,
        progress,
    )
}
