//! `contactlab export`: the scene at its initial pose, or at the pose a run
//! reaches after `--step N` steps, written in one of the formats of
//! `contactlab::export::FORMATS` into a directory. Only the export's own
//! files are written; a file in the way that no export wrote is refused,
//! never overwritten.

use crate::args::{Args, Command, CommandOption};
use crate::initial_export;
use crate::load;
use crate::output::{outln, progress, CliResult, Out};
use contactlab::export::{format_by_id, format_ids, At, Export, ExportFile, FORMATS, HEADER_MARK};
use contactlab::geometry::Pose;
use contactlab::settings::Stage;
use contactlab::sim::Simulation;
use std::path::{Path, PathBuf};

pub const COMMAND: Command = Command {
    name: "export",
    arguments: "<scene> --format F --out DIR",
    summary: "Writes the scene for another simulator (or as our own scene file), at its initial pose or at the pose a run reaches after --step N steps with the method and settings given: masses, inertias, friction, gravity and time step come along, and every file names the scene, the pose, the ContactLab version and the body names. Lists the files it wrote.",
    stages: &[Stage::Geometry, Stage::Detection, Stage::Dynamics],
    settings: &[],
    options: &[
        CommandOption::valued("--format", "F", "the format, one of those listed under \"Formats\""),
        CommandOption::valued("--out", "DIR", "the directory to write into (made if missing); only the export's own files are written, and a file there that is not from an earlier export is never overwritten"),
        CommandOption::valued("--step", "N", "export the pose a run with the method and settings given reaches after N steps (default: the scene's initial pose)"),
    ],
    more_help: Some(formats_help),
    run: export,
};

/// The formats of the registry, for `contactlab export --help`.
fn formats_help() -> String {
    let mut text = String::from("\nFormats:\n");
    for f in FORMATS {
        text.push_str(&format!("  {:<6} for {}: {}\n", f.id, f.purpose, f.summary));
    }
    text
}

fn export(args: &Args, out: &mut Out) -> CliResult {
    let format_id = args
        .value("--format")
        .ok_or_else(|| format!("--format is required (one of: {})", format_ids().join(", ")))?;
    let format = format_by_id(format_id).ok_or_else(|| {
        format!(
            "--format: unknown format \"{format_id}\" (expected one of: {})",
            format_ids().join(", ")
        )
    })?;
    let dir = PathBuf::from(args.value("--out").ok_or_else(|| {
        "--out DIR is required: the directory to write the files into".to_string()
    })?);
    let files = match args.count("--step", "steps")? {
        None => {
            let scene = load::scene(args, "export")?;
            (format.write)(&initial_export::initial_export(&scene, &args.settings))
        }
        Some(steps) => {
            let sim = run_to_step(args, steps)?;
            (format.write)(&export_of_run(&sim, steps))
        }
    };
    write_files(&dir, &files)?;
    for file in &files {
        outln!(out, "wrote {}", dir.join(&file.path).display())?;
    }
    outln!(
        out,
        "{} files ({}) in {}",
        files.len(),
        format.id,
        dir.display()
    )?;
    Ok(())
}

/// The run the arguments ask for, `steps` steps on; progress on standard
/// error for a long one.
fn run_to_step(args: &Args, steps: u64) -> Result<Simulation, String> {
    let mut sim = load::simulation(args, "export")?;
    let long = steps >= 20;
    while sim.step_index() < steps {
        let record = sim.step().map_err(|e| format!("--step {steps}: {e}"))?;
        if let Some(message) = record.diverged {
            if long {
                progress("\n");
            }
            return Err(format!("--step {steps}: {message}"));
        }
        if long {
            progress(&format!("\rexport: step {}/{steps}", sim.step_index()));
        }
    }
    if long {
        progress("\n");
    }
    Ok(sim)
}

/// The pose and velocities a run has reached, to export.
fn export_of_run(sim: &Simulation, steps: u64) -> Export<'_> {
    Export {
        scene: sim.scene(),
        poses: sim
            .bodies()
            .iter()
            .map(|b| Pose::new(b.position, b.rotation))
            .collect(),
        velocities: sim
            .bodies()
            .iter()
            .map(|b| (b.velocity, b.angular_velocity))
            .collect(),
        at: At::Step {
            step: steps,
            method: sim.settings().method.clone(),
        },
        dt: sim.dt(),
        mu: sim.settings().mu,
    }
}

/// Writes every file under `dir`, after checking that none would replace a
/// file no export wrote (so a refusal writes nothing).
fn write_files(dir: &Path, files: &[ExportFile]) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "--out: {} exists and is not a directory",
            dir.display()
        ));
    }
    for file in files {
        let path = dir.join(&file.path);
        if path.is_dir() {
            return Err(format!(
                "--out: {} is a directory; the export would write a file there",
                path.display()
            ));
        }
        if path.exists() && !written_by_export(&path) {
            return Err(format!(
                "--out: {} exists and is not from a ContactLab export; not overwriting it (choose another directory)",
                path.display()
            ));
        }
    }
    for file in files {
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("--out: cannot make {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &file.text)
            .map_err(|e| format!("--out: cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Whether the file's first lines carry an export's header.
fn written_by_export(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let start = &bytes[..bytes.len().min(512)];
    String::from_utf8_lossy(start).contains(HEADER_MARK)
}
