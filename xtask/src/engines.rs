//! `cargo xtask engines [--check]`: real engines' contacts on every
//! built-in scene, from `tools/engine_contacts.py` (MuJoCo and PyBullet).
//!
//! For every scene of `contactlab scenes` and both engines it exports the
//! scene with the release CLI (`--format mjcf` for MuJoCo, `--format urdf`
//! for PyBullet) into `target/engines/`, runs the script on it and writes
//! `data/engine-contacts/<engine>/<scene>.csv` (contactlab-contacts/1) and
//! `<scene>-poses.csv` beside it. A scene the engine refuses gets a
//! contacts file without rows and with a `# failed:` comment saying why.
//!
//! `--check` (what `cargo xtask test` runs) does the same into `target/`
//! and compares with the committed files: the same lines, the same counts,
//! numbers within [`RELATIVE`] and [`ABSOLUTE`]. Where Python cannot import
//! both engine packages it prints one "skipped" line saying how to install
//! them, and passes.

use crate::cmd::{self, Error, Result};
use crate::results::build_cli;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The committed files, relative to the workspace root.
pub const DATA: &str = "data/engine-contacts";
const SCRIPT: &str = "tools/engine_contacts.py";
const REQUIREMENTS: &str = "tools/requirements.txt";

/// Engine id (the data folder's name), export format, the script's flag.
const ENGINES: &[(&str, &str, &str)] =
    &[("mujoco", "mjcf", "--mjcf"), ("bullet", "urdf", "--urdf")];

/// Numbers agree when within this fraction of the larger, or this much:
/// the engines are deterministic on one machine, and another machine's
/// floating point may differ in the last bits of a contact's solve.
const RELATIVE: f64 = 1e-6;
const ABSOLUTE: f64 = 1e-9;

/// The Python that can import both engines: the project's `.venv` (which
/// `.ci/run` makes) or `python3`.
fn python(root: &Path) -> Option<PathBuf> {
    let candidates = [root.join(".venv/bin/python"), PathBuf::from("python3")];
    candidates.into_iter().find(|p| {
        Command::new(p)
            .args(["-c", "import mujoco, pybullet, numpy"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// The message of a skipped run.
fn skipped() -> String {
    format!("skipped: the engine contacts (neither .venv/bin/python nor python3 imports mujoco and pybullet; install with `python3 -m venv .venv && .venv/bin/pip install -r {REQUIREMENTS}`)")
}

/// The built-in scene ids, as `contactlab scenes` lists them.
fn scene_ids(cli: &Path) -> Result<Vec<String>> {
    let listing = cmd::output(Command::new(cli).arg("scenes"))
        .ok_or_else(|| Error::new("`contactlab scenes` failed"))?;
    Ok(listing
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect())
}

/// Exports every scene for every engine and runs the script, writing the
/// contacts and poses under `out` (`<engine>/<scene>.csv`,
/// `<engine>/<scene>-poses.csv`). Returns the scenes an engine refused.
fn generate(root: &Path, python: &Path, out: &Path) -> Result<Vec<String>> {
    cmd::heading("cargo build --release --bin contactlab");
    let cli = build_cli(root)?;
    let scenes = scene_ids(&cli)?;
    let work = root.join("target/engines");
    let mut refused = Vec::new();
    for (engine, format, flag) in ENGINES {
        let folder = out.join(engine);
        std::fs::create_dir_all(&folder)
            .map_err(|e| Error::new(format!("cannot make {}: {e}", folder.display())))?;
        for scene in &scenes {
            let export = work.join(format!("{engine}-{scene}"));
            let _ = std::fs::remove_dir_all(&export);
            let exported = Command::new(&cli)
                .args(["export", scene, "--format", format, "--out"])
                .arg(&export)
                .output()
                .map_err(|e| Error::new(format!("cannot run contactlab export: {e}")))?;
            if !exported.status.success() {
                return Err(Error::new(format!(
                    "contactlab export {scene} --format {format} failed: {}",
                    String::from_utf8_lossy(&exported.stderr).trim()
                )));
            }
            let contacts = folder.join(format!("{scene}.csv"));
            let poses = folder.join(format!("{scene}-poses.csv"));
            let status = Command::new(python)
                .current_dir(root)
                .arg(SCRIPT)
                .arg(flag)
                .arg(&export)
                .arg("--contacts")
                .arg(&contacts)
                .arg("--poses")
                .arg(&poses)
                .status()
                .map_err(|e| Error::new(format!("cannot run {SCRIPT}: {e}")))?;
            match status.code() {
                Some(0) => {}
                // The engine refused the model; the file says why.
                Some(1) => refused.push(format!("{engine}: {scene}")),
                _ => {
                    return Err(Error::new(format!(
                        "{SCRIPT} {flag} {scene} failed ({status})"
                    )))
                }
            }
        }
    }
    Ok(refused)
}

/// `cargo xtask engines`: regenerates the committed files.
pub fn run(root: &Path) -> Result<()> {
    let Some(python) = python(root) else {
        return Err(Error::new(skipped()));
    };
    let refused = generate(root, &python, &root.join(DATA))?;
    for r in &refused {
        println!("refused by the engine (see the file's `# failed:` line): {r}");
    }
    println!("wrote {DATA}/");
    Ok(())
}

/// `cargo xtask test`'s check: regenerates into target/ and compares.
pub fn check(root: &Path) -> Result<()> {
    let Some(python) = python(root) else {
        println!("{}", skipped());
        return Ok(());
    };
    let fresh = root.join("target/engines-check");
    let _ = std::fs::remove_dir_all(&fresh);
    generate(root, &python, &fresh)?;
    let mut problems = Vec::new();
    for (engine, _, _) in ENGINES {
        let folder = fresh.join(engine);
        let mut names: Vec<PathBuf> = std::fs::read_dir(&folder)
            .map_err(|e| Error::new(format!("cannot read {}: {e}", folder.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        names.sort();
        for path in names {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let committed_path = root.join(DATA).join(engine).join(&name);
            let new = std::fs::read_to_string(&path).unwrap_or_default();
            match std::fs::read_to_string(&committed_path) {
                Err(_) => problems.push(format!("{DATA}/{engine}/{name}: missing")),
                Ok(old) => {
                    if let Some(difference) = first_difference(&old, &new) {
                        problems.push(format!("{DATA}/{engine}/{name}: {difference}"));
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        println!("{DATA}/ matches what the engines give now");
        return Ok(());
    }
    Err(Error::new(format!(
        "{DATA}/ is stale: run `cargo xtask engines`\n  {}",
        problems.join("\n  ")
    )))
}

/// Where two CSV texts first differ: the line count, or the first line
/// whose fields differ (numbers beyond the tolerances, text at all).
fn first_difference(old: &str, new: &str) -> Option<String> {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    if a.len() != b.len() {
        return Some(format!("{} lines committed, {} now", a.len(), b.len()));
    }
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let (fx, fy): (Vec<&str>, Vec<&str>) = (x.split(',').collect(), y.split(',').collect());
        let same = fx.len() == fy.len()
            && fx
                .iter()
                .zip(&fy)
                .all(|(p, q)| match (p.parse::<f64>(), q.parse::<f64>()) {
                    (Ok(p), Ok(q)) => {
                        (p - q).abs() <= ABSOLUTE.max(RELATIVE * p.abs().max(q.abs()))
                    }
                    _ => p == q,
                });
        if !same {
            return Some(format!("line {}: committed `{x}`, now `{y}`", i + 1));
        }
    }
    None
}
