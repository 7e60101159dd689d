//! `contactlab score <scene> <contacts-file>`: another engine's contacts (a
//! `contactlab-contacts/1` file) measured by the same rules as a method's:
//! the same step records and JSON as `run`, then the run means.

use crate::args::{read_capped, scene_text_of, Args, SCENE_ARGUMENT};
use crate::output::{outln, progress, CliResult, Out};
use crate::records::{print_header, print_means, print_record, RecordStyle};
use contactlab::contact_file::{
    read_contacts, read_poses, ContactFile, FileError, Warnings, MAX_CONTACT_FILE_BYTES,
};
use contactlab::scene::{load_scene, Scene};
use contactlab::settings::Choice;
use contactlab::sim::{RunMeans, Simulation, StepRecord};
use serde_json::json;
use std::path::Path;

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
pub fn read_contact_file(path: &Path, scene: &Scene) -> Result<ContactFile, String> {
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
            progress(&format!("contactlab: note: {message}\n"));
        }
    }
    for message in file.warnings.messages(&shown) {
        progress(&format!("contactlab: note: {message}\n"));
    }
    Ok(file)
}

pub fn score(options: &Args, out: &mut Out) -> CliResult {
    let [scene_arg, file_arg] = options.positional.as_slice() else {
        return Err(match options.positional.len() {
            0 => format!("'score' needs {SCENE_ARGUMENT}, then a contact file"),
            1 => "'score' needs a contact file after the scene (contactlab-contacts/1: see the README)".to_string(),
            _ => format!(
                "'score' takes a scene and a contact file, got an extra argument: '{}'",
                options.positional[2]
            ),
        }
        .into());
    };
    let (source, text) = scene_text_of(scene_arg)?;
    let load_options = options.settings.load_options().map_err(|e| e.to_string())?;
    let scene = load_scene(&source, &text, &load_options).map_err(|e| e.to_string())?;
    for notice in &scene.notices {
        progress(&format!("contactlab: note: {}: {notice}\n", scene.source));
    }
    let file = read_contact_file(Path::new(file_arg), &scene)?;
    let posed = file.poses.is_some();
    let last = file.last_step();
    let rows = file.rows;
    let mut sim = Simulation::with_contact_file(scene, options.settings.clone(), file)
        .map_err(|e| e.to_string())?;
    let timings = !options.flag("--no-timings");
    let json = options.flag("--json");
    let with_contacts = options.flag("--contacts");
    if with_contacts && !json {
        return Err(
            "--contacts lists each step's contacts in the JSON lines: add --json"
                .to_string()
                .into(),
        );
    }
    if !json {
        outln!(
            out,
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
            crate::headline_oracle(&sim).id()
        )?;
        print_header(out)?;
    }
    let mut records: Vec<StepRecord> = Vec::new();
    let style = RecordStyle {
        json,
        timings,
        contacts: with_contacts,
    };
    if let Some(record) = sim.start_record().cloned() {
        print_record(out, &sim, &record, style)?;
        records.push(record);
    }
    let steps_to_take = if posed {
        sim.contact_file().map_or(0, |f| {
            f.measured_steps().iter().filter(|s| **s > 0).count() as u64
        })
    } else {
        last
    };
    // A run that stops early leaves the file's later steps unreached: the
    // message says so, naming the first of them.
    let unreached = |sim: &Simulation, why: String| -> String {
        let file = sim.contact_file();
        let next = file.and_then(|f| f.first_line.range(sim.step_index() + 1..).next());
        match (file, next) {
            (Some(f), Some((step, line))) => {
                format!("{}:{line}: step {step} is not reached: {why}", f.name)
            }
            _ => why,
        }
    };
    for taken in 0..steps_to_take {
        if !json && steps_to_take > 100 && taken % 100 == 0 {
            progress(&format!("\rscore: step {taken} of {steps_to_take}"));
        }
        let record = sim.step().map_err(|e| unreached(&sim, e.to_string()))?;
        print_record(out, &sim, &record, style)?;
        let diverged = record.diverged.clone();
        records.push(record);
        if let Some(message) = diverged {
            return Err(unreached(&sim, message).into());
        }
    }
    if !json && steps_to_take > 100 {
        progress(&format!("\rscore: done{:30}\n", ""));
    }
    let means = RunMeans::of(&records);
    if json {
        outln!(out, "{}", json!({ "run_means": means }))?;
    } else {
        print_means(out, &means)?;
    }
    Ok(())
}
