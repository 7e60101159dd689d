//! `contactlab score <scene> <contacts-file>`: another engine's contacts (a
//! `contactlab-contacts/1` file) measured by the same rules as a method's:
//! the same step records and JSON as `run`, then the run means.

use crate::args::{
    read_capped, scene_text_of, Args, Command, CommandOption, JSON, NO_TIMINGS, SCENE_ARGUMENT,
};
use crate::load;
use crate::output::{note, outln, progress, CliResult, Out};
use crate::records::{headline_oracle, print_header, print_means, print_record, RecordStyle};
use contactlab::contact_file::{
    read_contacts, read_poses, ContactFile, FileError, Warnings, MAX_CONTACT_FILE_BYTES,
};
use contactlab::scene::Scene;
use contactlab::settings::{Choice, Stage};
use contactlab::sim::{RunMeans, Simulation, StepRecord};
use serde_json::json;
use std::path::Path;

pub const COMMAND: Command = Command {
    name: "score",
    arguments: "<scene> <contacts-file>",
    summary: "Measures a contactlab-contacts/1 file (CSV or JSON Lines; see the README) as a method's contacts: the same step records as `run`, then the run means. A file with its own poses (`# poses: FILE`) is measured at them, step by step; without, its step 0 is measured at the scene's pose and its steps 1, 2, ... are the contacts of our solver's steps (the file plays the method).",
    stages: &[Stage::Geometry, Stage::Measure, Stage::Dynamics],
    // The geometric oracle's envelope (a detection setting too).
    settings: &["envelope"],
    options: &[
        CommandOption::switch("--contacts", "with --json, each step's line also lists its contacts with their q and verdicts"),
        JSON,
        NO_TIMINGS,
    ],
    more_help: None,
    run: score,
};

/// Reads a file given on the command line as text, with a message naming it.
fn read_text(path: &Path) -> Result<String, String> {
    let bytes = read_capped(path, MAX_CONTACT_FILE_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads the contacts file at `path` against `scene`, and the poses file
/// it names, if any (relative to the contacts file). Warnings go to stderr.
fn read_contact_file(path: &Path, scene: &Scene) -> Result<ContactFile, String> {
    let shown = path.display().to_string();
    let text = read_text(path)?;
    let mut file = read_contacts(&shown, &text, scene).map_err(|e: FileError| e.to_string())?;
    if let Some(poses_name) = file.poses_file.clone() {
        let poses_path = path.parent().unwrap_or(Path::new(".")).join(&poses_name);
        let poses_text = read_text(&poses_path).map_err(|e| {
            format!("{shown}: its \"# poses: {poses_name}\" comment names a file that cannot be read: {e}")
        })?;
        let mut warnings = Warnings::default();
        let poses = read_poses(
            &poses_path.display().to_string(),
            &poses_text,
            scene,
            &mut warnings,
        )
        .map_err(|e| e.to_string())?;
        file.attach_poses(poses, &poses_path.display().to_string())
            .map_err(|e| e.to_string())?;
        for message in warnings.messages(&poses_path.display().to_string()) {
            note(&message);
        }
    }
    for message in file.warnings.messages(&shown) {
        note(&message);
    }
    Ok(file)
}

fn score(args: &Args, out: &mut Out) -> CliResult {
    let (scene_arg, file_arg) = two_positionals(args)?;
    let (source, text) = scene_text_of(scene_arg)?;
    let scene = load::scene_of(&source, &text, &args.settings)?;
    load::print_notices(&scene);
    let file = read_contact_file(Path::new(file_arg), &scene)?;
    let posed = file.poses.is_some();
    let last = file.last_step();
    let rows = file.rows;
    let mut sim = Simulation::with_contact_file(scene, args.settings.clone(), file)
        .map_err(|e| e.to_string())?;
    let style = RecordStyle::of(args);
    if style.contacts && !style.json {
        return Err(
            "--contacts lists each step's contacts in the JSON lines: add --json"
                .to_string()
                .into(),
        );
    }
    if !style.json {
        let headline = headline(&sim, file_arg, rows, posed, last);
        outln!(out, "{headline}")?;
        print_header(out)?;
    }
    let steps_to_take = if posed {
        sim.contact_file().map_or(0, |f| {
            f.measured_steps().iter().filter(|s| **s > 0).count() as u64
        })
    } else {
        last
    };
    let records = score_steps(out, &mut sim, steps_to_take, style)?;
    let means = RunMeans::of(&records);
    if style.json {
        outln!(out, "{}", json!({ "run_means": means }))?;
    } else {
        print_means(out, &means)?;
    }
    Ok(())
}

/// The scene and the contact file arguments.
fn two_positionals(args: &Args) -> Result<(&str, &str), String> {
    match args.positional.as_slice() {
        [scene, file] => Ok((scene, file)),
        [] => Err(format!(
            "'score' needs {SCENE_ARGUMENT}, then a contact file"
        )),
        [_] => Err(
            "'score' needs a contact file after the scene (contactlab-contacts/1: see the README)"
                .to_string(),
        ),
        [_, _, extra, ..] => Err(format!(
            "'score' takes a scene and a contact file, got an extra argument: '{extra}'"
        )),
    }
}

/// The text's first line: the file, its contacts and steps, how they are
/// measured, and by which oracle.
fn headline(sim: &Simulation, file_arg: &str, rows: usize, posed: bool, last: u64) -> String {
    format!(
        "{} scored: {rows} contacts in {} steps, {}; quality, coverage, P and excess by the {} oracle",
        file_arg,
        sim.contact_file().map_or(0, |f| f.steps.len()),
        if posed {
            "each step measured at the file's own poses".to_string()
        } else if last == 0 {
            "measured at the scene's initial pose".to_string()
        } else {
            format!(
                "our solver stepping with them to step {last} (dt {} s, {} iterations)",
                sim.dt(),
                sim.settings().iterations
            )
        },
        headline_oracle(sim).id()
    )
}

/// The file's start record, if any, and `steps_to_take` steps, each printed
/// as `style` says; the records, for the run means.
fn score_steps(
    out: &mut Out,
    sim: &mut Simulation,
    steps_to_take: u64,
    style: RecordStyle,
) -> Result<Vec<StepRecord>, crate::output::CliError> {
    let mut records: Vec<StepRecord> = Vec::new();
    if let Some(record) = sim.start_record().cloned() {
        print_record(out, sim, &record, style)?;
        records.push(record);
    }
    let show_progress = !style.json && steps_to_take > 100;
    for taken in 0..steps_to_take {
        if show_progress && taken % 100 == 0 {
            progress(&format!("\rscore: step {taken} of {steps_to_take}"));
        }
        let record = sim.step().map_err(|e| unreached(sim, e.to_string()))?;
        print_record(out, sim, &record, style)?;
        let diverged = record.diverged.clone();
        records.push(record);
        if let Some(message) = diverged {
            return Err(unreached(sim, message).into());
        }
    }
    if show_progress {
        progress(&format!("\rscore: done{:30}\n", ""));
    }
    Ok(records)
}

/// `why` a run stopped early, naming the first of the file's steps it
/// leaves unreached.
fn unreached(sim: &Simulation, why: String) -> String {
    let file = sim.contact_file();
    let next = file.and_then(|f| f.first_line.range(sim.step_index() + 1..).next());
    match (file, next) {
        (Some(f), Some((step, line))) => {
            format!("{}:{line}: step {step} is not reached: {why}", f.name)
        }
        _ => why,
    }
}
