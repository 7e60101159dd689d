//! `contactlab table <kind>`: the paper's tables (Erleben 2018 §8), one row
//! per method and then per engine, beside the paper's numbers; Markdown or
//! CSV on standard output, progress on standard error.

use crate::args::{Args, Command, CommandOption};
use crate::engine_host::NodeRunner;
use crate::output::{progress, CliResult, Out};
use contactlab::report::engines::{recorded_engines, EngineContacts};
use contactlab::report::initial::initial_tables;
use contactlab::report::sat_unit::{sat_unit_table, DEFAULT_POSES, DEFAULT_SEED};
use contactlab::report::tables::{
    build_table, table_methods, Contestants, Progress, Table, TABLE_KINDS,
};
use contactlab::sim::{EngineRunner, SimSettings};
use std::path::Path;

pub const COMMAND: Command = Command {
    name: "table",
    arguments: "<kind>",
    summary: "The paper's tables, one row per method and then per engine (run in Node at our poses; --no-engines for none), beside the paper's numbers: counts (table 6, 500 Pillar steps), pillar (table 7, step 3), cases (table 8), wall and arch (sections 8.2-8.3, step 3), perturb, timestep and refine (sections 8.5-8.7); initial: every method at the initial poses; meshes: the tetrahedra of every body on TetGen and on cone meshes; sat-unit: Cheng Yi & Drumwright's unit test (table I), the error in signed distance of two randomly posed 2 × 2 × 2 boxes against their Minkowski difference; spheres: Cheng Yi & Drumwright's spinning sphere, kinetic energy kept over 5 s for 50 to 2000 vertices at h = 0.001 and 0.01 (minutes). Markdown by default; progress on stderr.",
    stages: &[],
    // The tables vary the method and the setting they study; the
    // meshes they run on, and the solver, are the caller's choice.
    settings: &["mesher", "solver"],
    options: &[
        CommandOption::switch("--paper-code", "add each method's @paper-code variant (the paper's reference code's rules, docs/errata.md) as a row after it, beside the same paper's numbers"),
        CommandOption::valued("--steps", "N", "steps of the whole-run tables (counts: 500, cases: the scene's)"),
        CommandOption::switch("--csv", "print CSV instead of Markdown"),
        CommandOption::valued("--engines", "DIR", "initial, pillar, wall, arch: add a row per engine whose recorded contacts are under DIR/<engine>/<scene>.csv (`cargo xtask engines`; default data/engine-contacts when it exists)"),
        CommandOption::switch("--no-engines", "no rows for the engines of `contactlab methods`, which every table but meshes, sat-unit and spheres otherwise runs through their adapters in Node, at our poses with our solver (the rows of --engines stay)"),
        CommandOption::valued("--poses", "N", "sat-unit: random poses (default 1000)"),
        CommandOption::valued("--seed", "S", "sat-unit: seed of the poses (default 2)"),
    ],
    more_help: None,
    run: table,
};

/// Where `cargo xtask engines` records other engines' contacts.
const ENGINES_DIR: &str = "data/engine-contacts";

fn table(args: &Args, out: &mut Out) -> CliResult {
    let kind = table_kind(args)?;
    let steps = args.count("--steps", "steps")?;
    let settings = table_settings(args);
    let methods = table_methods(args.flag("--paper-code"));
    let runner = engine_runner(args, kind)?;
    let engines = recorded_rows(args, kind)?;
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
        sat_unit(args, &mut report)?
    } else {
        build_table(kind, steps, &settings, &contestants, &mut report).map_err(|e| e.to_string())?
    };
    if args.flag("--csv") {
        out.write(&table.to_csv())?;
    } else {
        out.write(&table.to_markdown())?;
    }
    Ok(())
}

/// The table asked for: `initial` or one of [`TABLE_KINDS`].
fn table_kind(args: &Args) -> Result<&str, String> {
    let kind = args.one_positional(
        "table",
        &format!("a table name (one of: initial, {})", TABLE_KINDS.join(", ")),
    )?;
    if kind != "initial" && !TABLE_KINDS.contains(&kind) {
        return Err(format!(
            "unknown table '{kind}' (expected one of: initial, {})",
            TABLE_KINDS.join(", ")
        ));
    }
    Ok(kind)
}

/// The settings given, with the paper's solver unless --solver says
/// otherwise, so that the tables keep the paper's numbers.
fn table_settings(args: &Args) -> SimSettings {
    SimSettings {
        solver: if args.given("solver") {
            args.settings.solver
        } else {
            SimSettings::paper().solver
        },
        ..args.settings.clone()
    }
}

/// The engines' adapters in Node, for the tables that run methods; started
/// first, so that a missing Node or package fails at once, not after the
/// methods' runs.
fn engine_runner(args: &Args, kind: &str) -> Result<Option<NodeRunner>, String> {
    if !args.flag("--no-engines") && !matches!(kind, "meshes" | "sat-unit" | "spheres") {
        Ok(Some(NodeRunner::for_tables()?))
    } else {
        Ok(None)
    }
}

/// Other engines' recorded contacts, for the tables that have their rows.
fn recorded_rows(args: &Args, kind: &str) -> Result<Vec<EngineContacts>, String> {
    if !matches!(kind, "initial" | "pillar" | "wall" | "arch") {
        return Ok(Vec::new());
    }
    let engines_dir = args.value("--engines").unwrap_or(ENGINES_DIR);
    let engines = recorded_engines(Path::new(engines_dir))?;
    if engines.is_empty() && args.value("--engines").is_some() {
        return Err(format!(
            "--engines: no engine's contacts under \"{engines_dir}\""
        ));
    }
    Ok(engines)
}

/// The sat-unit table at `--poses` random poses from `--seed`.
fn sat_unit(args: &Args, report: Progress) -> Result<Table, String> {
    let poses = args
        .count("--poses", "poses")?
        .map_or(DEFAULT_POSES, |n| n as usize);
    let seed = match args.value("--seed") {
        None => DEFAULT_SEED,
        Some(text) => text.trim().parse::<u64>().map_err(|_| {
            format!(
                "--seed: a whole number from 0 to {}, got \"{text}\"",
                u64::MAX
            )
        })?,
    };
    Ok(sat_unit_table(poses, seed, report))
}
