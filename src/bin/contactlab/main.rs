//! `contactlab`: the command line of ContactLab. It runs the same core as the
//! browser playground, for tables, sweeps and tests. This binary parses
//! arguments and formats results; every number comes from the library.

mod args;
mod engine_host;
mod export;
mod output;
mod records;
mod score;
mod tetgen;

use args::{Args, Command, CommandOption, JSON, NO_TIMINGS};
use contactlab::contact::exact_regions::exact_contacts;
use contactlab::contact::{
    detect, every_method, methods::method_ids, ContactSet, FeatureKind, MethodHistory, MethodInfo,
    Undetectable,
};
use contactlab::contact_file::{csv_preamble, csv_rows, write_csv};
use contactlab::engines::{ContactSource, EngineMode, ENGINES};
use contactlab::measures::oracle::GeometricOracle;
use contactlab::measures::{contact_records, measures_of_step, OracleChoice};
use contactlab::mesh::stats::MeshStats;
use contactlab::mesh::Mesher;
use contactlab::report::engines::recorded_engines;
use contactlab::report::initial::initial_tables;
use contactlab::report::sat_unit::{sat_unit_table, DEFAULT_POSES, DEFAULT_SEED};
use contactlab::report::tables::{build_table, table_methods, Contestants, TABLE_KINDS};
use contactlab::scene::builtin::BUILTIN_SCENES;
use contactlab::scene::{load_scene, LoadOptions, Oracle, Scene};
use contactlab::settings::Choice;
use contactlab::settings::Stage;
use contactlab::sim::{EngineRunner, SimSettings, Simulation};
use engine_host::NodeEngine;
use export::{EXPORT_FORMATS, EXPORT_SUMMARY};
use output::{outln, progress, CliError, CliResult, Out};
use records::{print_header, print_record, RecordStyle};
use serde_json::json;
use std::process::ExitCode;

/// `--csv`: contacts as a contact file.
const CONTACTS_CSV: CommandOption = CommandOption {
    flag: "--csv",
    value: None,
    help: "print the contacts as a contactlab-contacts/1 CSV file (see the README), which `contactlab score` reads back",
};

/// Where `cargo xtask engines` records other engines' contacts.
const ENGINES_DIR: &str = "data/engine-contacts";

const ALL_STAGES: &[Stage] = &[
    Stage::Geometry,
    Stage::Detection,
    Stage::Measure,
    Stage::Dynamics,
];

/// Every command, in the order `--help` lists them.
const COMMANDS: &[Command] = &[
    Command {
        name: "scenes",
        arguments: "",
        summary: "One line per built-in scene: id, group, bodies, the oracle's minimal contact count.",
        stages: &[],
        settings: &[],
        options: &[],
    },
    Command {
        name: "exact",
        arguments: "<scene>",
        summary: "Exact contact regions of the scene at its initial pose: per touching body pair the regions, convex hull vertices, area and touching feature pairs by type, then the totals.",
        stages: &[Stage::Geometry],
        settings: &[],
        options: &[JSON],
    },
    Command {
        name: "methods",
        arguments: "",
        summary: "The contact point methods of the registry: id and what each does (with --json: every field of the registry).",
        stages: &[],
        settings: &[],
        options: &[JSON],
    },
    Command {
        name: "contacts",
        arguments: "<scene> --method M",
        summary: "The contacts method M finds at the scene's initial pose, and their quality measures (count, quality %, coverage %, area coverage P, excess).",
        stages: &[Stage::Geometry, Stage::Detection, Stage::Measure],
        settings: &[],
        options: &[JSON, NO_TIMINGS, CONTACTS_CSV],
    },
    Command {
        name: "run",
        arguments: "<scene>",
        summary: "Simulates the scene (Moreau midpoint steps; the accelerated solver, or with --solver printed the paper's proximal Gauss-Seidel) and prints one line per step; with --json one JSON object per line. The method may also be `reference`, the exact contacts of the initial pose.",
        stages: ALL_STAGES,
        settings: &[],
        options: &[
            CommandOption { flag: "--steps", value: Some("N"), help: "steps to run (default: the scene's, e.g. 500 for the Pillar)" },
            CommandOption { flag: "--contacts", value: None, help: "with --json, each step's line also lists the step's contacts as `contacts --json` does (bodies, position, normal, depth, feature pair, q, correct); with --csv, print every step's contacts as one contactlab-contacts/1 file instead of the records" },
            JSON,
            NO_TIMINGS,
            CommandOption { flag: "--csv", value: None, help: "with --contacts: the contacts as a contact file (see the README), which `contactlab score` plays back" },
        ],
    },
    Command {
        name: "score",
        arguments: "<scene> <contacts-file>",
        summary: "Measures a contactlab-contacts/1 file (CSV or JSON Lines; see the README) as a method's contacts: the same step records as `run`, then the run means. A file with its own poses (`# poses: FILE`) is measured at them, step by step; without, its step 0 is measured at the scene's pose and its steps 1, 2, ... are the contacts of our solver's steps (the file plays the method).",
        stages: &[Stage::Geometry, Stage::Measure, Stage::Dynamics],
        // The geometric oracle's envelope (a detection setting too).
        settings: &["envelope"],
        options: &[
            CommandOption { flag: "--contacts", value: None, help: "with --json, each step's line also lists its contacts with their q and verdicts" },
            JSON,
            NO_TIMINGS,
        ],
    },
    Command {
        name: "export",
        arguments: "<scene> --format F --out DIR",
        summary: EXPORT_SUMMARY,
        stages: &[Stage::Geometry, Stage::Detection, Stage::Dynamics],
        settings: &[],
        options: &[
            CommandOption { flag: "--format", value: Some("F"), help: EXPORT_FORMATS },
            CommandOption { flag: "--out", value: Some("DIR"), help: "the directory to write into (made if missing); only the export's own files are written, and a file there that is not from an earlier export is never overwritten" },
            CommandOption { flag: "--step", value: Some("N"), help: "export the pose a run with the method and settings given reaches after N steps (default: the scene's initial pose)" },
        ],
    },
    Command {
        name: "mesh",
        arguments: "<scene>",
        summary: "Per body how its tetrahedra were made (tetgen, cones, paper-fine, or given), whether it is convex (every B-rep edge convex: what sat-mtd needs), the tetrahedra, surface triangles, tetrahedra with 1, 2 and 3 surface faces, volume and the largest radius-edge ratio.",
        stages: &[Stage::Geometry],
        settings: &[],
        options: &[JSON],
    },
    Command {
        name: "tetgen",
        arguments: "--write DIR | --search DIR | --check DIR",
        summary: "Makes the committed TetGen meshes of the built-in scenes' shapes by running the tetgen program (what `cargo xtask meshes` calls), or checks that remaking them gives the files in DIR byte for byte. Prints a Markdown table of the switches used.",
        stages: &[],
        settings: &[],
        options: &[
            CommandOption { flag: "--write", value: Some("DIR"), help: "write DIR/tetgen.json and DIR/paper-fine.json, reusing the switches they record for known shapes" },
            CommandOption { flag: "--search", value: Some("DIR"), help: "write them, choosing every shape's switches afresh (the paper-fine ratios take minutes of time limits)" },
            CommandOption { flag: "--check", value: Some("DIR"), help: "remake with the switches recorded in DIR's files and compare" },
            CommandOption { flag: "--level", value: Some("L"), help: "only this level: tetgen or paper-fine (default: both)" },
            CommandOption { flag: "--timeout", value: Some("S"), help: "seconds TetGen may take per try before the next quality ratio is tried (default 60)" },
        ],
    },
    Command {
        name: "table",
        arguments: "<kind>",
        summary: "The paper's tables, one row per method and then per engine (run in Node at our poses; --no-engines for none), beside the paper's numbers: counts (table 6, 500 Pillar steps), pillar (table 7, step 3), cases (table 8), wall and arch (sections 8.2-8.3, step 3), perturb, timestep and refine (sections 8.5-8.7); initial: every method at the initial poses; meshes: the tetrahedra of every body on TetGen and on cone meshes; sat-unit: Cheng Yi & Drumwright's unit test (table I), the error in signed distance of two randomly posed 2 × 2 × 2 boxes against their Minkowski difference; spheres: Cheng Yi & Drumwright's spinning sphere, kinetic energy kept over 5 s for 50 to 2000 vertices at h = 0.001 and 0.01 (minutes). Markdown by default; progress on stderr.",
        stages: &[],
        // The tables vary the method and the setting they study; the
        // meshes they run on, and the solver, are the caller's choice.
        settings: &["mesher", "solver"],
        options: &[
            CommandOption { flag: "--paper-code", value: None, help: "add each method's @paper-code variant (the paper's reference code's rules, docs/errata.md) as a row after it, beside the same paper's numbers" },
            CommandOption { flag: "--steps", value: Some("N"), help: "steps of the whole-run tables (counts: 500, cases: the scene's)" },
            CommandOption { flag: "--csv", value: None, help: "print CSV instead of Markdown" },
            CommandOption { flag: "--engines", value: Some("DIR"), help: "initial, pillar, wall, arch: add a row per engine whose recorded contacts are under DIR/<engine>/<scene>.csv (`cargo xtask engines`; default data/engine-contacts when it exists)" },
            CommandOption { flag: "--no-engines", value: None, help: "no rows for the engines of `contactlab methods`, which every table but meshes, sat-unit and spheres otherwise runs through their adapters in Node, at our poses with our solver (the rows of --engines stay)" },
            CommandOption { flag: "--poses", value: Some("N"), help: "sat-unit: random poses (default 1000)" },
            CommandOption { flag: "--seed", value: Some("S"), help: "sat-unit: seed of the poses (default 2)" },
        ],
    },
];

fn usage() -> String {
    let mut text = String::from(
        "contactlab — assess mesh-based contact point methods (Erleben 2018)\n\nUsage:\n",
    );
    for c in COMMANDS {
        text.push_str(&format!(
            "  contactlab {} {}\n      {}\n",
            c.name, c.arguments, c.summary
        ));
    }
    text.push_str("\nA <scene> is a built-in scene id (see `contactlab scenes`) or the path of a\ncontactlab-scene/1 JSON file. `contactlab <command> --help` lists a command's\noptions, with their ranges and defaults.\n");
    text
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = Out::new();
    let result = run(&args, &mut out).and_then(|()| out.flush().map_err(CliError::Output));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`| head`): what it wanted, it has.
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Output(e)) => {
            eprintln!("contactlab: cannot write the output: {e}");
            ExitCode::FAILURE
        }
        Err(CliError::Message(message)) => {
            eprintln!("contactlab: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String], out: &mut Out) -> CliResult {
    let Some(name) = args.first() else {
        out.write(&usage())?;
        return Ok(());
    };
    if matches!(name.as_str(), "-h" | "--help" | "help") {
        match args
            .get(1)
            .and_then(|n| COMMANDS.iter().find(|c| c.name == n))
        {
            Some(command) => out.write(&command_help(command))?,
            None => out.write(&usage())?,
        }
        return Ok(());
    }
    let command = COMMANDS.iter().find(|c| c.name == name).ok_or_else(|| {
        let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        format!(
            "unknown command '{name}' (expected one of: {}; see contactlab --help)",
            names.join(", ")
        )
    })?;
    let parsed = Args::parse(command, &args[1..])?;
    if parsed.help {
        out.write(&command_help(command))?;
        return Ok(());
    }
    match command.name {
        "scenes" => {
            parsed.no_positional("scenes")?;
            list_scenes(out)
        }
        "exact" => exact(&parsed, out),
        "methods" => {
            parsed.no_positional("methods")?;
            methods(&parsed, out)
        }
        "contacts" => contacts(&parsed, out),
        "mesh" => mesh(&parsed, out),
        "export" => export::export(&parsed, out),
        "tetgen" => tetgen_command(&parsed, out),
        "run" => run_scene(&parsed, out),
        "score" => score::score(&parsed, out),
        "table" => table(&parsed, out),
        other => unreachable!("command '{other}' is listed but not dispatched"),
    }
}

/// A command's help, with the export formats of the registry for `export`.
fn command_help(command: &Command) -> String {
    let mut text = command.help();
    if command.name == "export" {
        text.push_str(&export::formats_help());
    }
    text
}

fn methods(args: &Args, out: &mut Out) -> CliResult {
    if args.flag("--json") {
        let mut list: Vec<_> = every_method()
            .map(|m| json!(MethodInfo::description(m)))
            .collect();
        list.extend(ENGINES.iter().map(|e| {
            json!({ "id": e.id, "kind": "engine", "name": e.name, "label": e.label(),
                    "package": e.package, "version": e.version, "inside": e.inside,
                    "users": e.users, "summary": e.summary, "help": e.help,
                    "reads": ["engine"], "reference": false, "paper_code": false })
        }));
        outln!(out, "{}", json!(list))?;
        return Ok(());
    }
    for m in every_method() {
        outln!(out, "{:<29} {}", m.id, m.summary)?;
    }
    // The engines run in Node (tools/engine-host.mjs): the line says how.
    for e in ENGINES {
        outln!(
            out,
            "{:<29} engine {} — {}; run in Node: --method {} [--engine own]",
            e.id,
            e.label(),
            e.summary,
            e.id
        )?;
    }
    Ok(())
}

/// The scene argument loaded as the settings say (eroded for a method that
/// needs it).
fn load(args: &Args, command: &str) -> Result<Scene, String> {
    let (source, text) = args.scene_text(command)?;
    let options: LoadOptions = args.settings.load_options().map_err(|e| e.to_string())?;
    let scene = load_scene(&source, &text, &options).map_err(|e| e.to_string())?;
    print_notices(&scene);
    Ok(scene)
}

/// The scene's notices (a body that did not get the mesher it asked for),
/// on standard error so that JSON on standard output stays clean.
fn print_notices(scene: &Scene) {
    for notice in &scene.notices {
        progress(&format!("contactlab: note: {}: {notice}\n", scene.source));
    }
}

fn mesh(options: &Args, out: &mut Out) -> CliResult {
    let scene = load(options, "mesh")?;
    let rows: Vec<(&str, &str, MeshStats, bool)> = scene
        .bodies
        .iter()
        .map(|b| {
            (
                b.name.as_str(),
                b.mesher.map_or("given", Mesher::id),
                MeshStats::of(&b.mesh),
                b.mesh.brep().is_convex(),
            )
        })
        .collect();
    if options.flag("--json") {
        let bodies: Vec<_> = rows
            .iter()
            .map(|(name, mesher, s, convex)| {
                json!({
                    "name": name, "mesher": mesher, "convex": convex, "tetrahedra": s.tetrahedra,
                    "surface_triangles": s.surface_triangles,
                    "tets_by_surface_faces": s.tets_by_surface_faces,
                    "volume": s.volume, "max_radius_edge_ratio": s.max_radius_edge_ratio,
                })
            })
            .collect();
        outln!(out, "{}", json!({ "bodies": bodies }))?;
        return Ok(());
    }
    outln!(
        out,
        "{} ({}): tetrahedra per body",
        scene.title,
        scene.source
    )?;
    outln!(
        out,
        "{:<16} {:<10} {:>6} {:>10} {:>9} {:>7} {:>7} {:>7} {:>12} {:>9}",
        "body",
        "mesher",
        "convex",
        "tetrahedra",
        "surface",
        "1 face",
        "2 faces",
        "3 faces",
        "volume m³",
        "max r/e"
    )?;
    for (name, mesher, s, convex) in &rows {
        let [one, two, three] = s.tets_by_surface_faces;
        outln!(
            out,
            "{:<16} {:<10} {:>6} {:>10} {:>9} {:>7} {:>7} {:>7} {:>12.6} {:>9.3}",
            name,
            mesher,
            if *convex { "yes" } else { "no" },
            s.tetrahedra,
            s.surface_triangles,
            one,
            two,
            three,
            s.volume,
            s.max_radius_edge_ratio
        )?;
    }
    Ok(())
}

fn tetgen_command(options: &Args, out: &mut Out) -> CliResult {
    options.no_positional("tetgen")?;
    let modes = [
        ("--write", tetgen::Mode::Write),
        ("--search", tetgen::Mode::Search),
        ("--check", tetgen::Mode::Check),
    ];
    let given: Vec<_> = modes
        .iter()
        .filter_map(|(flag, mode)| options.value(flag).map(|dir| (dir, *mode)))
        .collect();
    let [(dir, mode)] = given[..] else {
        return Err(
            "'tetgen' needs exactly one of --write DIR, --search DIR and --check DIR"
                .to_string()
                .into(),
        );
    };
    let levels = match options.value("--level") {
        None => vec![Mesher::TetGen, Mesher::PaperFine],
        Some(id) => match Mesher::from_id(id) {
            Some(m) if m != Mesher::Cones => vec![m],
            _ => return Err(format!("--level: must be tetgen or paper-fine, got \"{id}\"").into()),
        },
    };
    let timeout = match options.value("--timeout") {
        None => 60.0,
        Some(t) => match t.trim().parse::<f64>() {
            Ok(x) if (0.1..=3600.0).contains(&x) => x,
            _ => {
                return Err(format!(
                    "--timeout: must be a number of seconds from 0.1 to 3600, got \"{t}\""
                )
                .into())
            }
        },
    };
    let report = tetgen::run(
        std::path::Path::new(dir),
        mode,
        &levels,
        std::time::Duration::from_secs_f64(timeout),
    )?;
    out.write(&report)?;
    Ok(())
}

fn list_scenes(out: &mut Out) -> CliResult {
    outln!(
        out,
        "{:<16} {:<16} {:>6} {:>12}",
        "id",
        "group",
        "bodies",
        "min contacts"
    )?;
    for builtin in BUILTIN_SCENES {
        let (id, text) = (builtin.id, builtin.text);
        let scene = load_scene(&format!("builtin:{id}"), text, &LoadOptions::default())
            .map_err(|e| e.to_string())?;
        let min = scene
            .oracle
            .min_contacts()
            .map_or("-".to_string(), |m| m.to_string());
        outln!(
            out,
            "{:<16} {:<16} {:>6} {:>12}",
            scene.id,
            scene.group,
            scene.bodies.len(),
            min
        )?;
    }
    Ok(())
}

/// The kinds of touching feature pair the exact regions report, (V,V) to
/// (E,E): the first six of `FeatureKind::ALL`.
const REPORTED_KINDS: &[FeatureKind] = FeatureKind::ALL.split_at(6).0;

fn exact(options: &Args, out: &mut Out) -> CliResult {
    let scene = load(options, "exact")?;
    let exact = exact_contacts(&scene, contactlab::contact::RELATIVE_TOUCH_TOL);
    let name = |i: usize| scene.bodies[i].name.as_str();
    if options.flag("--json") {
        let pairs: Vec<_> = exact
            .pairs
            .iter()
            .map(|p| {
                let features: serde_json::Map<String, serde_json::Value> = REPORTED_KINDS.iter().map(|&k| (serde_json::to_value(k).unwrap_or_default().as_str().unwrap_or("?").to_string(), json!(p.count_features(k)))).collect();
                json!({ "a": name(p.a), "b": name(p.b), "touch_tol": p.touch_tol, "regions": p.regions.len(), "hull_vertices": p.hull_vertices(), "area": p.area(), "feature_pairs": features })
            })
            .collect();
        let report = json!({
            "scene": scene.id,
            "relative_touch_tol": exact.relative_touch_tol,
            "regions": exact.region_count(),
            "min_contacts": exact.min_contacts(),
            "max_feature_contacts": exact.max_feature_contacts(),
            "total_area": exact.total_area(),
            "oracle_min_contacts": scene.oracle.min_contacts(),
            "pairs": pairs,
        });
        outln!(out, "{report}")?;
        return Ok(());
    }
    outln!(
        out,
        "{} ({}): exact contact regions at the initial pose, touching tolerance {:e} × the larger body of each pair",
        scene.title,
        scene.source,
        exact.relative_touch_tol
    )?;
    let header: Vec<&str> = REPORTED_KINDS.iter().map(|k| k.label()).collect();
    outln!(
        out,
        "{:<32} {:>7} {:>5} {:>10}  {}",
        "pair (a — b)",
        "regions",
        "hull",
        "area m²",
        header.join(" ")
    )?;
    for p in &exact.pairs {
        let counts: Vec<String> = REPORTED_KINDS
            .iter()
            .map(|&k| format!("{:>5}", p.count_features(k)))
            .collect();
        outln!(
            out,
            "{:<32} {:>7} {:>5} {:>10.6}  {}",
            format!("{} — {}", name(p.a), name(p.b)),
            p.regions.len(),
            p.hull_vertices(),
            p.area(),
            counts.join(" ")
        )?;
    }
    outln!(out, "total: {} touching pairs, {} regions, {} hull vertices (minimal contacts; the oracle says {}), {} unique touching-feature contacts, area {:.6} m²",
        exact.pairs.len(),
        exact.region_count(),
        exact.min_contacts(),
        scene.oracle.min_contacts().map_or("nothing".to_string(), |m| m.to_string()),
        exact.max_feature_contacts(),
        exact.total_area()
    )?;
    Ok(())
}

fn contacts(options: &Args, out: &mut Out) -> CliResult {
    if !options.given("method") {
        return Err(format!("--method is required (one of: {})", method_ids().join(", ")).into());
    }
    let settings = &options.settings;
    let engine = settings.engine_info();
    let info = match engine {
        Some(_) => None,
        None => Some(
            settings
                .method_info()
                .map_err(|e| format!("--method: {e}"))?,
        ),
    };
    if let Some(info) = info.filter(|i| i.is_reference()) {
        return Err(format!(
            "'{}' carries the contacts of a simulation's first step; use 'contactlab run' with it",
            info.id
        )
        .into());
    }
    let scene = load(options, "contacts")?;
    let poses: Vec<_> = scene
        .bodies
        .iter()
        .map(|b| (b.position, b.rotation))
        .collect();
    let (set, method_id) = match (engine, info) {
        (Some(engine), _) => {
            // The engine's contacts at the initial pose, from its adapter in Node.
            let mut host = NodeEngine::start(engine, EngineMode::Ours, &scene, settings)?;
            let start = std::time::Instant::now();
            let contacts = host.contacts_at(&poses)?;
            // The call's time includes the pipe to Node and back.
            let ms_method = start.elapsed().as_secs_f64() * 1e3;
            (
                ContactSet {
                    contacts,
                    ms_method,
                    ..ContactSet::default()
                },
                engine.id,
            )
        }
        (None, Some(info)) => {
            let params = settings.method_params(&scene);
            // A one-off detection: a region method starts with no memory.
            let set = detect(&scene.poses(), info, &params, &mut MethodHistory::default())
                .map_err(|e| match e {
                    Undetectable::OverBudget(over) => {
                        over.message(|i| scene.bodies[i].name.clone())
                    }
                    other => format!("--method: {other}"),
                })?;
            (set, info.id)
        }
        (None, None) => unreachable!("a setting that is neither a method nor an engine is refused"),
    };
    let oracle_start = std::time::Instant::now();
    let geo = GeometricOracle::new(&scene).judge_step(
        &set.contacts,
        &poses,
        contactlab::measures::oracle_envelope(settings.envelope),
        settings.tol_deg,
    );
    let ms_oracle = oracle_start.elapsed().as_secs_f64() * 1e3;
    let (qualities, measures) = measures_of_step(
        &scene,
        &set.contacts,
        &poses,
        &geo,
        &settings.measure_settings(),
    );
    let name = |i: usize| scene.bodies[i].name.as_str();
    let not_applicable = set.not_applicable_messages(|i| name(i).to_string());
    if options.flag("--csv") {
        let about = format!(
            "scene: {}; method: {}; the initial pose (step 0); contactlab {}",
            scene.id,
            method_id,
            env!("CARGO_PKG_VERSION")
        );
        out.write(&write_csv(
            &scene,
            &about,
            (0, 0),
            [(0, set.contacts.as_slice())],
        ))?;
        return Ok(());
    }
    if options.flag("--json") {
        let contacts = contact_records(&scene, &set.contacts, &qualities);
        let regions: Vec<_> = set
            .regions
            .iter()
            .map(|r| {
                json!({
                    "a": name(r.a), "b": name(r.b), "dimension": r.outline.dimension,
                    "points": r.outline.points.iter().map(|p| p.to_array()).collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut report = json!({
            "scene": scene.id,
            "method": method_id,
            "contacts": contacts,
            "regions": regions,
            "not_applicable": not_applicable,
            "indeterminate": set.indeterminate,
            "measures": measures,
        });
        if let Some(m) = report["measures"].as_object_mut() {
            m.insert("candidate_pairs".into(), json!(set.candidate_pairs));
            m.insert("unfiltered".into(), json!(set.unfiltered));
            m.insert("ms_broad".into(), json!(set.ms_broad));
            m.insert("ms_method".into(), json!(set.ms_method));
            m.insert("ms_oracle".into(), json!(ms_oracle));
            m.insert("histogram".into(), json!(measures.distributions.histogram));
        }
        if options.flag("--no-timings") {
            if let Some(m) = report["measures"].as_object_mut() {
                m.retain(|key, _| !key.starts_with("ms_"));
            }
        }
        outln!(out, "{report}")?;
        return Ok(());
    }
    let show = |x: Option<f64>, unit: &str| x.map_or("-".to_string(), |v| format!("{v:.1}{unit}"));
    outln!(
        out,
        "{} with {} ({}): contacts at the initial pose",
        scene.title,
        engine.map_or_else(|| info.map_or("", |i| i.name).to_string(), |e| e.label()),
        scene.source
    )?;
    outln!(
        out,
        "{:<32} {:>8} {:>8} {:>9}",
        "pair (a — b)",
        "contacts",
        "correct",
        "geo right"
    )?;
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
        let geo_right = qualities[i..j].iter().filter(|q| q.geo.is_right()).count();
        outln!(
            out,
            "{:<32} {:>8} {:>8} {:>9}",
            format!("{} — {}", name(key.0), name(key.1)),
            j - i,
            correct,
            geo_right
        )?;
        i = j;
    }
    for message in &not_applicable {
        outln!(out, "{message}")?;
    }
    if set.indeterminate > 0 {
        outln!(
            out,
            "{} contact{} refused: indeterminate normal (vertex–vertex, vertex–edge or parallel edge–edge)",
            set.indeterminate,
            if set.indeterminate == 1 { "" } else { "s" }
        )?;
    }
    let p = |x: Option<f64>| x.map_or("-".to_string(), |p| format!("{p:.3}"));
    let times = |x: Option<f64>| x.map_or("-".to_string(), |e| format!("{e:.1}"));
    let minimal = match measures.oracle {
        OracleChoice::Scene => measures.scene_min_contacts,
        OracleChoice::Geometric => Some(measures.geo_min_contacts as u64),
    };
    outln!(out, "count {} (minimal {}), quality {}, coverage {}, area coverage P {}, excess {} ({} oracle); broad phase {:.2} ms ({} tetrahedron pairs), method {:.2} ms",
        measures.count,
        minimal.map_or("-".to_string(), |m| m.to_string()),
        show(measures.quality, " %"),
        show(measures.coverage, " %"),
        p(measures.area_coverage),
        times(measures.excess),
        measures.oracle.id(),
        set.ms_broad,
        set.candidate_pairs,
        set.ms_method
    )?;
    outln!(out, "geometric oracle: {} right, {} indeterminate-right, {} wrong; quality {}, coverage {}, area coverage P {}, minimal {}, excess {}",
        measures.geo_right,
        measures.geo_indeterminate_right,
        measures.geo_wrong,
        show(measures.geo_quality, " %"),
        show(measures.geo_coverage, " %"),
        p(measures.geo_area_coverage),
        measures.geo_min_contacts,
        times(measures.geo_excess),
    )?;
    Ok(())
}

fn table(options: &Args, out: &mut Out) -> CliResult {
    let kind = options.one_positional(
        "table",
        &format!("a table name (one of: initial, {})", TABLE_KINDS.join(", ")),
    )?;
    if kind != "initial" && !TABLE_KINDS.contains(&kind) {
        return Err(format!(
            "unknown table '{kind}' (expected one of: initial, {})",
            TABLE_KINDS.join(", ")
        )
        .into());
    }
    let steps = options.count("--steps", "steps")?;
    // The paper's tables run the paper's solver unless --solver says
    // otherwise, so that they keep the paper's numbers.
    let settings = SimSettings {
        solver: if options.given("solver") {
            options.settings.solver
        } else {
            SimSettings::paper().solver
        },
        ..options.settings.clone()
    };
    let methods = table_methods(options.flag("--paper-code"));
    // The engines run through their adapters in Node, in the tables that
    // run methods; checked first, so a missing Node or package fails at
    // once, not after the methods' runs.
    let runner =
        if !options.flag("--no-engines") && !matches!(kind, "meshes" | "sat-unit" | "spheres") {
            Some(engine_host::NodeRunner::for_tables()?)
        } else {
            None
        };
    // Other engines' recorded contacts, for the tables that have their rows.
    let engines_dir = options.value("--engines").unwrap_or(ENGINES_DIR);
    let engines = if matches!(kind, "initial" | "pillar" | "wall" | "arch") {
        let engines = recorded_engines(std::path::Path::new(engines_dir))?;
        if engines.is_empty() && options.value("--engines").is_some() {
            return Err(format!("--engines: no engine's contacts under \"{engines_dir}\"").into());
        }
        engines
    } else {
        Vec::new()
    };
    let contestants = Contestants {
        methods: &methods,
        runner: runner.as_ref().map(|r| r as &dyn EngineRunner),
        recorded: &engines,
    };
    let mut report = |what: &str, done: usize, total: usize| {
        if done < total {
            progress(&format!("\rtable {kind}: {done}/{total} {what:<40}"));
        } else {
            progress(&format!("\rtable {kind}: done{:60}\n", ""));
        }
    };
    if kind == "initial" {
        let text =
            initial_tables(&settings, &contestants, &mut report).map_err(|e| e.to_string())?;
        out.write(&text)?;
        return Ok(());
    }
    let table = if kind == "sat-unit" {
        let poses = options
            .count("--poses", "poses")?
            .map_or(DEFAULT_POSES, |n| n as usize);
        let seed = match options.value("--seed") {
            None => DEFAULT_SEED,
            Some(text) => text.trim().parse::<u64>().map_err(|_| {
                format!(
                    "--seed: a whole number from 0 to {}, got \"{text}\"",
                    u64::MAX
                )
            })?,
        };
        sat_unit_table(poses, seed, &mut report)
    } else {
        build_table(kind, steps, &settings, &contestants, &mut report).map_err(|e| e.to_string())?
    };
    if options.flag("--csv") {
        out.write(&table.to_csv())?;
    } else {
        out.write(&table.to_markdown())?;
    }
    Ok(())
}

/// The oracle of a run's headline: the `oracle` setting, or the geometric
/// oracle when the scene has none of its own.
fn headline_oracle(sim: &Simulation) -> OracleChoice {
    if matches!(sim.scene().oracle, Oracle::None) {
        OracleChoice::Geometric
    } else {
        sim.settings().oracle
    }
}

/// The run the arguments ask for: the scene with a method, or with an
/// engine whose adapter runs in Node; the scene's notices printed.
fn start_run(args: &Args, command: &str) -> Result<Simulation, String> {
    let (source, text) = args.scene_text(command)?;
    let sim = match args.settings.engine_info() {
        Some(_) => {
            let load_options = args.settings.load_options().map_err(|e| e.to_string())?;
            let scene = load_scene(&source, &text, &load_options).map_err(|e| e.to_string())?;
            engine_host::simulation(scene, args.settings.clone())
        }
        None => Simulation::new(&source, &text, args.settings.clone()),
    }
    .map_err(|e| e.to_string())?;
    print_notices(sim.scene());
    Ok(sim)
}

fn run_scene(options: &Args, out: &mut Out) -> CliResult {
    let mut sim = start_run(options, "run")?;
    let steps = options
        .count("--steps", "steps")?
        .unwrap_or(sim.scene().settings.steps);
    let timings = !options.flag("--no-timings");
    let json = options.flag("--json");
    let with_contacts = options.flag("--contacts");
    let csv = options.flag("--csv");
    if csv && (!with_contacts || json) {
        return Err(
            "--csv prints the contacts of every step as a contact file: use it with --contacts and without --json"
                .to_string()
                .into(),
        );
    }
    if with_contacts && !json && !csv {
        return Err(
            "--contacts lists each step's contacts in the JSON lines (add --json) or as a contact file (add --csv)"
                .to_string()
                .into(),
        );
    }
    if csv {
        let about = format!(
            "scene: {}; method: {}; steps 1 to {steps} of a run (each step's contacts, found at its midpoint); contactlab {}",
            sim.scene().id,
            sim.settings().method,
            env!("CARGO_PKG_VERSION")
        );
        out.write(&csv_preamble(&about, (1, steps)))?;
        for _ in 0..steps {
            let r = sim.step().map_err(|e| e.to_string())?;
            out.write(&csv_rows(sim.scene(), r.step, sim.contacts()))?;
            if let Some(message) = r.diverged {
                return Err(message.into());
            }
        }
        return Ok(());
    }
    if !json {
        outln!(
            out,
            "{} with {}, dt {} s, {} iterations: {} steps; quality, coverage, P and excess by the {} oracle",
            sim.scene().title,
            sim.settings().method,
            sim.dt(),
            sim.settings().iterations,
            steps,
            headline_oracle(&sim).id()
        )?;
        print_header(out)?;
    }
    let style = RecordStyle {
        json,
        timings,
        contacts: with_contacts,
    };
    // An engine's own run has its contacts at the initial pose as step 0.
    if let Some(start) = sim.start_record() {
        print_record(out, &sim, &start.clone(), style)?;
    }
    // Said once, and again whenever it changes.
    let mut said: Vec<String> = Vec::new();
    for _ in 0..steps {
        let r = sim.step().map_err(|e| e.to_string())?;
        if !json && r.not_applicable != said {
            for message in &r.not_applicable {
                outln!(out, "{message}")?;
            }
            said = r.not_applicable.clone();
        }
        print_record(out, &sim, &r, style)?;
        if let Some(message) = r.diverged {
            return Err(message.into());
        }
    }
    Ok(())
}
