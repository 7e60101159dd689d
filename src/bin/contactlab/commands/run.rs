//! `contactlab run <scene>`: simulates the scene and prints one record per
//! step (a table line or a JSON line), or every step's contacts as one
//! contact file.

use crate::args::{Args, Command, CommandOption, JSON, NO_TIMINGS};
use crate::load;
use crate::output::{outln, CliResult, Out};
use crate::records::{headline_oracle, print_header, print_record, RecordStyle};
use contactlab::contact_file::{csv_preamble, csv_rows};
use contactlab::settings::{Choice, Stage};
use contactlab::sim::Simulation;

pub const COMMAND: Command = Command {
    name: "run",
    arguments: "<scene>",
    summary: "Simulates the scene (Moreau midpoint steps; the accelerated solver, or with --solver printed the paper's proximal Gauss-Seidel) and prints one line per step; with --json one JSON object per line. The method may also be `reference`, the exact contacts of the initial pose.",
    stages: &[
        Stage::Geometry,
        Stage::Detection,
        Stage::Measure,
        Stage::Dynamics,
    ],
    settings: &[],
    options: &[
        CommandOption::valued("--steps", "N", "steps to run (default: the scene's, e.g. 500 for the Pillar)"),
        CommandOption::switch("--contacts", "with --json, each step's line also lists the step's contacts as `contacts --json` does (bodies, position, normal, depth, feature pair, q, correct); with --csv, print every step's contacts as one contactlab-contacts/1 file instead of the records"),
        JSON,
        NO_TIMINGS,
        CommandOption::switch("--csv", "with --contacts: the contacts as a contact file (see the README), which `contactlab score` plays back"),
    ],
    more_help: None,
    run,
};

fn run(args: &Args, out: &mut Out) -> CliResult {
    let mut sim = load::simulation(args, "run")?;
    let steps = args
        .count("--steps", "steps")?
        .unwrap_or(sim.scene().settings.steps);
    let style = RecordStyle::of(args);
    let csv = args.flag("--csv");
    check_output(style, csv)?;
    if csv {
        print_contact_file(out, &mut sim, steps)
    } else {
        print_records(out, &mut sim, steps, style)
    }
}

/// Refuses the combinations of `--csv`, `--contacts` and `--json` that
/// print nothing sensible.
fn check_output(style: RecordStyle, csv: bool) -> Result<(), String> {
    if csv && (!style.contacts || style.json) {
        return Err(
            "--csv prints the contacts of every step as a contact file: use it with --contacts and without --json"
                .to_string(),
        );
    }
    if style.contacts && !style.json && !csv {
        return Err(
            "--contacts lists each step's contacts in the JSON lines (add --json) or as a contact file (add --csv)"
                .to_string(),
        );
    }
    Ok(())
}

/// `--contacts --csv`: every step's contacts as one contact file.
fn print_contact_file(out: &mut Out, sim: &mut Simulation, steps: u64) -> CliResult {
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
    Ok(())
}

/// A record per step, after a headline and the table's header in text.
fn print_records(out: &mut Out, sim: &mut Simulation, steps: u64, style: RecordStyle) -> CliResult {
    if !style.json {
        outln!(
            out,
            "{} with {}, dt {} s, {} iterations: {} steps; quality, coverage, P and excess by the {} oracle",
            sim.scene().title,
            sim.settings().method,
            sim.dt(),
            sim.settings().iterations,
            steps,
            headline_oracle(sim).id()
        )?;
        print_header(out)?;
    }
    // An engine's own run has its contacts at the initial pose as step 0.
    if let Some(start) = sim.start_record() {
        print_record(out, sim, &start.clone(), style)?;
    }
    // Said once, and again whenever it changes.
    let mut said: Vec<String> = Vec::new();
    for _ in 0..steps {
        let r = sim.step().map_err(|e| e.to_string())?;
        if !style.json && r.not_applicable != said {
            for message in &r.not_applicable {
                outln!(out, "{message}")?;
            }
            said = r.not_applicable.clone();
        }
        print_record(out, sim, &r, style)?;
        if let Some(message) = r.diverged {
            return Err(message.into());
        }
    }
    Ok(())
}
