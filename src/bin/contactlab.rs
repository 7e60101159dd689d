//! `contactlab`: the command line of ContactLab. It runs the same core as the
//! browser playground, for tables, sweeps and tests.

use contactlab::contact::exact_regions::{default_touch_tol, exact_contacts};
use contactlab::contact::methods::method_ids;
use contactlab::contact::{
    find_contacts, method_by_id, ContactMethod, FeatureKind, MethodParams, METHODS,
};
use contactlab::measures::tables::{build_table, initial_pose_row, TABLE_KINDS};
use contactlab::measures::{paper, step_measures, StepMeasures, DEFAULT_ANGLE_TOLERANCE_DEG};
use contactlab::scene::builtin::{builtin_text, BUILTIN_SCENES};
use contactlab::scene::{load_scene, LoadOptions, Scene};
use contactlab::sim::{SimSettings, Simulation, StepRecord};
use contactlab::solver::SolverSettings;
use serde_json::json;
use std::process::ExitCode;

const USAGE: &str = "\
contactlab — assess mesh-based contact point methods (Erleben 2018)

Usage:
  contactlab scenes
      One line per built-in scene: id, group, bodies, the oracle's minimal
      contact count.
  contactlab exact <scene> [--perturb P] [--seed S] [--refine R] [--json]
      Exact contact regions of the scene at its initial pose: per touching
      body pair the regions, convex hull vertices, area and touching feature
      pairs by type, then the totals.
  contactlab methods
      The contact point methods: id and what each does.
  contactlab contacts <scene> --method M [--perturb P] [--seed S] [--refine R]
                      [--epsilon E] [--tol-deg D] [--json]
      The contacts method M finds at the scene's initial pose, and their
      quality measures (count, quality %, coverage %, area coverage P, excess).
  contactlab run <scene> [--method M] [--steps N] [--dt H] [--iterations K]
                 [--mu F] [--warm-start] [--perturb P] [--seed S] [--refine R] [--epsilon E]
                 [--tol-deg D] [--json]
      Simulates the scene (Moreau midpoint steps, proximal Gauss-Seidel)
      and prints one line per step; with --json one JSON object per line.
      M may also be `reference`, the exact contacts of the initial pose.
  contactlab table <initial|counts|pillar|cases|wall|arch|perturb|timestep|refine>
                   [--steps N] [--csv]
      The paper's tables, one row per method, beside the paper's numbers:
      counts (table 6, 500 Pillar steps), pillar (table 7, step 3), cases
      (table 8), wall and arch (sections 8.2-8.3, step 3), perturb, timestep
      and refine (sections 8.5-8.7); initial: every method at the initial
      poses. Markdown by default; progress on stderr.

A <scene> is a built-in scene id (see `contactlab scenes`) or the path of a
contactlab-scene/1 JSON file.

Options:
  --perturb P   displace every free body horizontally by P metres (default 0)
  --seed S      seed of the perturbation directions (default 1)
  --refine R    refine every mesh R times, 1 tetrahedron into 8 (0, 1 or 2)
  --method M    a contact method id (see `contactlab methods`; default opposing)
  --steps N     steps to run (default: the scene's, e.g. 500 for the Pillar)
  --dt H        time step, seconds (default: the scene's, 0.01)
  --iterations K  solver sweeps per step (default 1000, the paper's)
  --mu F        friction coefficient (default: the scene's, 0.5)
  --warm-start  start each solve from the previous step's impulses (off in
                the paper; an ideal tall stack needs it to converge in 1000 sweeps)
  --epsilon E   erosion ε of the closest-points method, metres (default 0.01)
  --tol-deg D   angle tolerance for a correct normal, degrees (default 1)
  --json        print one JSON object instead of text
  -h, --help    this help
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("contactlab: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let Some(command) = args.first() else {
        print!("{USAGE}");
        return Ok(());
    };
    let rest = &args[1..];
    match command.as_str() {
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            Ok(())
        }
        "scenes" => {
            Options::parse(rest, &[])?.no_positional("scenes")?;
            list_scenes()
        }
        "exact" => exact(Options::parse(
            rest,
            &["--perturb", "--seed", "--refine", "--json"],
        )?),
        "methods" => {
            Options::parse(rest, &[])?.no_positional("methods")?;
            for m in METHODS {
                println!("{:<18} {}", m.id(), m.description());
            }
            Ok(())
        }
        "contacts" => contacts(Options::parse(rest, &["--method", "--perturb", "--seed", "--refine", "--epsilon", "--tol-deg", "--json"])?),
        "table" => table(Options::parse(rest, &["--steps", "--csv"])?),
        "run" => run_scene(Options::parse(
            rest,
            &["--method", "--steps", "--dt", "--iterations", "--mu", "--warm-start", "--perturb", "--seed", "--refine", "--epsilon", "--tol-deg", "--json"],
        )?),
        other => Err(format!("unknown command '{other}' (expected scenes, exact, methods, contacts or table; see contactlab --help)")),
    }
}

/// Parsed command-line options: positional arguments and `--name value`
/// pairs, each name checked against the command's list.
struct Options {
    positional: Vec<String>,
    values: Vec<(String, Option<String>)>,
}

impl Options {
    fn parse(args: &[String], allowed: &[&str]) -> Result<Options, String> {
        let mut options = Options {
            positional: Vec::new(),
            values: Vec::new(),
        };
        let mut i = 0;
        while i < args.len() {
            let arg = &args[i];
            if arg.starts_with("--") {
                if !allowed.contains(&arg.as_str()) {
                    return Err(format!(
                        "unknown option '{arg}' (this command takes: {})",
                        if allowed.is_empty() {
                            "no options".to_string()
                        } else {
                            allowed.join(" ")
                        }
                    ));
                }
                if arg == "--json" || arg == "--warm-start" || arg == "--csv" {
                    options.values.push((arg.clone(), None));
                } else {
                    let value = args
                        .get(i + 1)
                        .ok_or_else(|| format!("option '{arg}' needs a value"))?;
                    options.values.push((arg.clone(), Some(value.clone())));
                    i += 1;
                }
            } else {
                options.positional.push(arg.clone());
            }
            i += 1;
        }
        Ok(options)
    }

    fn no_positional(&self, command: &str) -> Result<(), String> {
        match self.positional.first() {
            Some(p) => Err(format!("'{command}' takes no argument, got '{p}'")),
            None => Ok(()),
        }
    }

    fn flag(&self, name: &str) -> bool {
        self.values.iter().any(|(n, _)| n == name)
    }

    fn number<T: std::str::FromStr>(
        &self,
        name: &str,
        default: T,
        what: &str,
    ) -> Result<T, String> {
        match self.values.iter().rev().find(|(n, _)| n == name) {
            None => Ok(default),
            Some((_, value)) => {
                let text = value.as_deref().unwrap_or("");
                text.parse()
                    .map_err(|_| format!("{name} must be {what}, got '{text}'"))
            }
        }
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    fn method(&self) -> Result<&'static dyn ContactMethod, String> {
        let id = self
            .value("--method")
            .ok_or_else(|| format!("--method is required (one of: {})", method_ids().join(", ")))?;
        method_by_id(id).ok_or_else(|| {
            format!(
                "unknown method '{id}' (expected one of: {})",
                method_ids().join(", ")
            )
        })
    }

    fn positive(&self, name: &str, default: f64, what: &str) -> Result<f64, String> {
        let x: f64 = self.number(name, default, what)?;
        if x > 0.0 && x.is_finite() {
            Ok(x)
        } else {
            Err(format!("{name} must be {what}, got {x}"))
        }
    }

    fn load_options(&self) -> Result<LoadOptions, String> {
        let perturb: f64 = self.number("--perturb", 0.0, "a number of metres")?;
        if !(perturb >= 0.0 && perturb.is_finite()) {
            return Err(format!(
                "--perturb must be zero or a positive number of metres, got {perturb}"
            ));
        }
        let refine: u8 = self.number("--refine", 0, "0, 1 or 2")?;
        if refine > 2 {
            return Err(format!("--refine must be 0, 1 or 2, got {refine}"));
        }
        Ok(LoadOptions {
            perturb,
            seed: self.number("--seed", 1, "a whole number")?,
            refine,
            erosion: None,
        })
    }

    /// The one scene argument's source name and text.
    fn scene_text(&self, command: &str) -> Result<(String, String), String> {
        let arg = match self.positional.as_slice() {
            [one] => one,
            [] => return Err(format!("'{command}' needs a scene: a built-in id (see 'contactlab scenes') or a scene file path")),
            [_, extra, ..] => return Err(format!("'{command}' takes one scene, got an extra argument '{extra}'")),
        };
        match builtin_text(arg) {
            Some(text) => Ok((format!("builtin:{arg}"), text.to_string())),
            None => {
                let text = std::fs::read_to_string(arg).map_err(|e| {
                    let ids: Vec<&str> = BUILTIN_SCENES.iter().map(|(id, _)| *id).collect();
                    format!(
                        "'{arg}' is neither a built-in scene ({}) nor a readable file: {e}",
                        ids.join(", ")
                    )
                })?;
                Ok((arg.clone(), text))
            }
        }
    }

    /// Simulation settings from the options (defaults: the paper's).
    fn sim_settings(&self) -> Result<SimSettings, String> {
        let load = self.load_options()?;
        let defaults = SimSettings::default();
        let method = self
            .value("--method")
            .unwrap_or(&defaults.method)
            .to_string();
        let dt = match self.value("--dt") {
            Some(_) => Some(self.positive("--dt", 0.01, "a positive number of seconds")?),
            None => None,
        };
        let iterations: u32 = self.number(
            "--iterations",
            defaults.solver.iterations,
            "a whole number of sweeps",
        )?;
        let friction = match self.value("--mu") {
            Some(_) => Some(self.number("--mu", 0.5, "a number")?),
            None => None,
        };
        Ok(SimSettings {
            method,
            dt,
            perturb: load.perturb,
            seed: load.seed,
            refine: load.refine,
            epsilon: self.positive(
                "--epsilon",
                MethodParams::DEFAULT_EPSILON,
                "a positive number of metres",
            )?,
            angle_tolerance_deg: self.positive(
                "--tol-deg",
                DEFAULT_ANGLE_TOLERANCE_DEG,
                "a positive angle in degrees",
            )?,
            solver: SolverSettings {
                iterations,
                friction,
                warm_start: self.flag("--warm-start"),
                ..SolverSettings::default()
            },
        })
    }

    /// The one scene argument: a built-in id or a file path.
    fn scene(&self, command: &str) -> Result<Scene, String> {
        self.scene_with(command, None)
    }

    fn scene_with(&self, command: &str, erosion: Option<f64>) -> Result<Scene, String> {
        let (source, text) = self.scene_text(command)?;
        let options = LoadOptions {
            erosion,
            ..self.load_options()?
        };
        load_scene(&source, &text, &options).map_err(|e| e.to_string())
    }
}

fn list_scenes() -> Result<(), String> {
    println!(
        "{:<16} {:<16} {:>6} {:>12}",
        "id", "group", "bodies", "min contacts"
    );
    for (id, text) in BUILTIN_SCENES {
        let scene = load_scene(&format!("builtin:{id}"), text, &LoadOptions::default())
            .map_err(|e| e.to_string())?;
        let min = scene
            .oracle
            .min_contacts()
            .map_or("-".to_string(), |m| m.to_string());
        println!(
            "{:<16} {:<16} {:>6} {:>12}",
            scene.id,
            scene.group,
            scene.bodies.len(),
            min
        );
    }
    Ok(())
}

const REPORTED_KINDS: [FeatureKind; 6] = [
    FeatureKind::VertexVertex,
    FeatureKind::VertexEdge,
    FeatureKind::EdgeVertex,
    FeatureKind::VertexFace,
    FeatureKind::FaceVertex,
    FeatureKind::EdgeEdge,
];

fn exact(options: Options) -> Result<(), String> {
    let scene = options.scene("exact")?;
    let exact = exact_contacts(&scene, default_touch_tol(&scene));
    let name = |i: usize| scene.bodies[i].name.as_str();
    if options.flag("--json") {
        let pairs: Vec<_> = exact
            .pairs
            .iter()
            .map(|p| {
                let features: serde_json::Map<String, serde_json::Value> = REPORTED_KINDS.iter().map(|&k| (serde_json::to_value(k).unwrap_or_default().as_str().unwrap_or("?").to_string(), json!(p.count_features(k)))).collect();
                json!({ "a": name(p.a), "b": name(p.b), "regions": p.regions.len(), "hull_vertices": p.hull_vertices(), "area": p.area(), "feature_pairs": features })
            })
            .collect();
        let out = json!({
            "scene": scene.id,
            "touch_tol": exact.touch_tol,
            "regions": exact.region_count(),
            "min_contacts": exact.min_contacts(),
            "max_feature_contacts": exact.max_feature_contacts(),
            "total_area": exact.total_area(),
            "oracle_min_contacts": scene.oracle.min_contacts(),
            "pairs": pairs,
        });
        println!("{out}");
        return Ok(());
    }
    println!(
        "{} ({}): exact contact regions at the initial pose, touching tolerance {:.3e} m",
        scene.title, scene.source, exact.touch_tol
    );
    let header: Vec<&str> = REPORTED_KINDS.iter().map(|k| k.label()).collect();
    println!(
        "{:<32} {:>7} {:>5} {:>10}  {}",
        "pair (a — b)",
        "regions",
        "hull",
        "area m²",
        header.join(" ")
    );
    for p in &exact.pairs {
        let counts: Vec<String> = REPORTED_KINDS
            .iter()
            .map(|&k| format!("{:>5}", p.count_features(k)))
            .collect();
        println!(
            "{:<32} {:>7} {:>5} {:>10.6}  {}",
            format!("{} — {}", name(p.a), name(p.b)),
            p.regions.len(),
            p.hull_vertices(),
            p.area(),
            counts.join(" ")
        );
    }
    println!(
        "total: {} touching pairs, {} regions, {} hull vertices (minimal contacts; the oracle says {}), {} unique touching-feature contacts, area {:.6} m²",
        exact.pairs.len(),
        exact.region_count(),
        exact.min_contacts(),
        scene.oracle.min_contacts().map_or("nothing".to_string(), |m| m.to_string()),
        exact.max_feature_contacts(),
        exact.total_area()
    );
    Ok(())
}

fn contacts(options: Options) -> Result<(), String> {
    let method = options.method()?;
    let epsilon = options.positive(
        "--epsilon",
        MethodParams::DEFAULT_EPSILON,
        "a positive number of metres",
    )?;
    let tol_deg = options.positive(
        "--tol-deg",
        DEFAULT_ANGLE_TOLERANCE_DEG,
        "a positive angle in degrees",
    )?;
    if tol_deg >= 90.0 {
        return Err(format!("--tol-deg must be below 90 degrees, got {tol_deg}"));
    }
    let erosion = method.erosion(&MethodParams {
        epsilon,
        ..MethodParams::default()
    });
    let scene = options.scene_with("contacts", erosion)?;
    let params = MethodParams {
        epsilon,
        ..MethodParams::for_scene(&scene)
    };
    let set = find_contacts(&scene.poses(), method, &params);
    let centres: Vec<_> = scene.bodies.iter().map(|b| b.position).collect();
    let (qualities, measures) = step_measures(&scene, &set.contacts, &centres, tol_deg);
    let name = |i: usize| scene.bodies[i].name.as_str();
    if options.flag("--json") {
        let contacts: Vec<_> = set
            .contacts
            .iter()
            .zip(&qualities)
            .map(|(c, q)| {
                json!({
                    "a": name(c.a), "b": name(c.b),
                    "position": c.position.to_array(), "normal": c.normal.to_array(), "depth": c.depth,
                    "features": c.features, "tet_a": c.tet_a, "tet_b": c.tet_b,
                    "q": q.q, "correct": q.correct,
                })
            })
            .collect();
        let out = json!({
            "scene": scene.id,
            "method": method.id(),
            "contacts": contacts,
            "measures": {
                "count": measures.count,
                "quality": measures.quality,
                "coverage": measures.coverage,
                "area_coverage": measures.area_coverage,
                "excess": measures.excess,
                "candidate_pairs": set.candidate_pairs,
                "unfiltered": set.unfiltered,
                "ms_broad": set.ms_broad,
                "ms_method": set.ms_method,
                "histogram": measures.histogram,
            },
        });
        println!("{out}");
        return Ok(());
    }
    let show = |x: Option<f64>, unit: &str| x.map_or("-".to_string(), |v| format!("{v:.1}{unit}"));
    println!(
        "{} with {} ({}): contacts at the initial pose",
        scene.title,
        method.name(),
        scene.source
    );
    println!("{:<32} {:>8} {:>8}", "pair (a — b)", "contacts", "correct");
    let mut i = 0;
    while i < set.contacts.len() {
        let key = (set.contacts[i].a, set.contacts[i].b);
        let mut j = i;
        while j < set.contacts.len() && (set.contacts[j].a, set.contacts[j].b) == key {
            j += 1;
        }
        let correct = qualities[i..j]
            .iter()
            .filter(|q| q.correct == Some(true))
            .count();
        println!(
            "{:<32} {:>8} {:>8}",
            format!("{} — {}", name(key.0), name(key.1)),
            j - i,
            correct
        );
        i = j;
    }
    println!(
        "count {} (minimal {}), quality {}, coverage {}, area coverage P {}, excess {}; broad phase {:.2} ms ({} tetrahedron pairs), method {:.2} ms",
        measures.count,
        scene.oracle.min_contacts().map_or("-".to_string(), |m| m.to_string()),
        show(measures.quality, " %"),
        show(measures.coverage, " %"),
        measures.area_coverage.map_or("-".to_string(), |p| format!("{p:.3}")),
        measures.excess.map_or("-".to_string(), |e| format!("{e:.1}")),
        set.ms_broad,
        set.candidate_pairs,
        set.ms_method
    );
    Ok(())
}

fn table(options: Options) -> Result<(), String> {
    let kind = match options.positional.as_slice() {
        [kind] => kind.as_str(),
        [] => {
            return Err(format!(
                "'table' needs a table name (one of: initial, {})",
                TABLE_KINDS.join(", ")
            ))
        }
        [_, extra, ..] => {
            return Err(format!(
                "'table' takes one table name, got an extra argument '{extra}'"
            ))
        }
    };
    if kind == "initial" {
        return initial_tables();
    }
    if !TABLE_KINDS.contains(&kind) {
        return Err(format!(
            "unknown table '{kind}' (expected one of: initial, {})",
            TABLE_KINDS.join(", ")
        ));
    }
    let steps: Option<u64> = match options.value("--steps") {
        Some(_) => Some(options.number("--steps", 1, "a whole number of steps")?)
            .filter(|&n| n > 0)
            .or(Some(1)),
        None => None,
    };
    let mut report = |what: &str, done: usize, total: usize| {
        if done < total {
            eprint!("\rtable {kind}: {done}/{total} {what:<40}");
        } else {
            eprintln!("\rtable {kind}: done{:60}", "");
        }
    };
    let table = build_table(kind, steps, &mut report).map_err(|e| e.to_string())?;
    if options.flag("--csv") {
        print!("{}", table.to_csv());
    } else {
        print!("{}", table.to_markdown());
    }
    Ok(())
}

/// Measures of every method on one scene, with progress on stderr.
fn rows_for(scene: &str) -> Result<Vec<StepMeasures>, String> {
    let mut rows = Vec::with_capacity(METHODS.len());
    for (i, &method) in METHODS.iter().enumerate() {
        eprint!(
            "\rtable: {scene} {}/{} ({})          ",
            i + 1,
            METHODS.len(),
            method.id()
        );
        let row = initial_pose_row(
            scene,
            method,
            MethodParams::DEFAULT_EPSILON,
            DEFAULT_ANGLE_TOLERANCE_DEG,
        )
        .map_err(|e| e.to_string())?;
        rows.push(row.measures);
    }
    Ok(rows)
}

/// Reads one measure of a row.
type MeasurePick = fn(&StepMeasures) -> Option<f64>;
/// One of the paper's table 8 blocks: methods × cases.
type PaperGrid = [[f64; 10]; 8];

fn percent(x: Option<f64>) -> String {
    x.map_or("—".to_string(), |v| format!("{v:.1}"))
}

fn paper_number(x: f64) -> String {
    if x.is_nan() {
        "(*)".to_string()
    } else {
        format!("{x:.1}")
    }
}

fn initial_tables() -> Result<(), String> {
    let pillar = rows_for("pillar")?;
    let mut cases = Vec::with_capacity(paper::TABLE_8_CASES.len());
    for case in paper::TABLE_8_CASES {
        cases.push(rows_for(case)?);
    }
    let (wall, arch) = (rows_for("wall")?, rows_for("arch")?);
    eprintln!("\rtable: done{:40}", "");
    let name = |i: usize| METHODS[i].name();

    println!("### Pillar at the initial pose (shape of table 7)\n");
    println!("Ours at the initial pose; the paper's at simulation step 3.\n");
    println!("| method | quality % | contacts | excess | paper quality % | paper contacts | paper excess |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (i, m) in pillar.iter().enumerate() {
        let (_, pq, pc, pe) = paper::TABLE_7[i];
        println!(
            "| {} | {} | {} | {} | {pq:.1} | {pc} | {pe:.1} |",
            name(i),
            percent(m.quality),
            m.count,
            percent(m.excess)
        );
    }

    let case_header = paper::TABLE_8_CASES.join(" | ");
    let rule = vec!["---:"; paper::TABLE_8_CASES.len()].join(" | ");
    let grids: [(&str, MeasurePick, &PaperGrid); 3] = [
        ("Coverage %", |m| m.coverage, &paper::TABLE_8_COVERAGE),
        ("Quality %", |m| m.quality, &paper::TABLE_8_QUALITY),
        ("Excess", |m| m.excess, &paper::TABLE_8_EXCESS),
    ];
    println!("\n### Fundamental cases at the initial pose (shape of table 8)\n");
    println!("Each cell: ours at the initial pose (the paper's, from simulation). — means no contacts.\n");
    for (title, pick, reference) in grids {
        println!("**{title}**\n");
        println!("| method | {case_header} |");
        println!("| --- | {rule} |");
        for i in 0..METHODS.len() {
            let cells: Vec<String> = (0..cases.len())
                .map(|c| {
                    format!(
                        "{} ({})",
                        percent(pick(&cases[c][i])),
                        paper_number(reference[i][c])
                    )
                })
                .collect();
            println!("| {} | {} |", name(i), cells.join(" | "));
        }
        println!();
    }

    println!("### Wall and Arch at the initial pose (sections 8.2–8.3)\n");
    println!("Correct normals % and area coverage P. The paper reports, at step 3: Wall, Closest points about 80 % correct with P = 0.89, Opposing 100 % with P = 0.93; Arch, Closest points about 70 % with P = 0.64, Opposing about 50 % with P = 0.90.\n");
    println!("| method | wall quality % | wall P | wall contacts | arch quality % | arch P | arch contacts |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let p = |x: Option<f64>| x.map_or("—".to_string(), |v| format!("{v:.3}"));
    for i in 0..METHODS.len() {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            name(i),
            percent(wall[i].quality),
            p(wall[i].area_coverage),
            wall[i].count,
            percent(arch[i].quality),
            p(arch[i].area_coverage),
            arch[i].count
        );
    }
    Ok(())
}

/// The keys of one `run --json` line (design: the page's readout names).
fn record_json(r: &StepRecord) -> serde_json::Value {
    json!({
        "step": r.step, "time": r.time, "count": r.count, "quality": r.quality, "coverage": r.coverage,
        "area_coverage": r.area_coverage, "excess": r.excess, "min_depth": r.min_depth,
        "kinetic_energy": r.kinetic_energy, "max_displacement": r.max_displacement, "standing": r.standing,
        "iterations": r.iterations, "residual": r.residual,
        "ms_broad": r.ms_broad, "ms_method": r.ms_method, "ms_solver": r.ms_solver,
    })
}

fn run_scene(options: Options) -> Result<(), String> {
    let settings = options.sim_settings()?;
    let (source, text) = options.scene_text("run")?;
    let mut sim = Simulation::new(&source, &text, settings).map_err(|e| e.to_string())?;
    let default_steps = sim.scene().settings.steps;
    let steps: u64 = options.number("--steps", default_steps, "a whole number of steps")?;
    let json = options.flag("--json");
    let show =
        |x: Option<f64>, digits: usize| x.map_or("-".to_string(), |v| format!("{v:.digits$}"));
    if !json {
        println!(
            "{} with {}, dt {} s, {} iterations: {} steps",
            sim.scene().title,
            sim.settings().method,
            sim.dt(),
            sim.settings().solver.iterations,
            steps
        );
        println!(
            "{:>6} {:>8} {:>6} {:>8} {:>9} {:>7} {:>7} {:>11} {:>11} {:>10} {:>6} {:>10} {:>8}",
            "step",
            "time",
            "count",
            "quality",
            "coverage",
            "P",
            "excess",
            "min depth",
            "kinetic",
            "max disp",
            "iters",
            "residual",
            "ms"
        );
    }
    for _ in 0..steps {
        let r = sim.step().map_err(|e| e.to_string())?;
        if json {
            println!("{}", record_json(&r));
        } else {
            println!(
                "{:>6} {:>8.3} {:>6} {:>8} {:>9} {:>7} {:>7} {:>11} {:>11.4e} {:>10.3e} {:>6} {:>10.2e} {:>8.2}",
                r.step,
                r.time,
                r.count,
                show(r.quality, 1),
                show(r.coverage, 1),
                show(r.area_coverage, 3),
                show(r.excess, 2),
                r.min_depth.map_or("-".to_string(), |d| format!("{d:.3e}")),
                r.kinetic_energy,
                r.max_displacement,
                r.iterations,
                r.residual,
                r.ms_broad + r.ms_method + r.ms_solver
            );
        }
    }
    Ok(())
}
