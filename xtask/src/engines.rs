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
//! numbers within [`RELATIVE`] and [`ABSOLUTE`]. Where no Python can import
//! both engine packages it fails on CI, naming what each Python lacks, and
//! elsewhere prints one "skipped" line saying so (`xtask/src/ci.rs`).

use crate::ci;
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

/// The modules the script imports.
const MODULES: [&str; 3] = ["mujoco", "pybullet", "numpy"];

/// The Pythons tried, in order: the project's `.venv` (which `.ci/run`
/// makes from [`REQUIREMENTS`]), then `python3`.
fn candidates(root: &Path) -> [PathBuf; 2] {
    [root.join(".venv/bin/python"), PathBuf::from("python3")]
}

/// The first Python that can import every module of [`MODULES`], or, when
/// none can, what each candidate lacks.
fn python(root: &Path) -> std::result::Result<PathBuf, String> {
    let mut lacking = Vec::new();
    for candidate in candidates(root) {
        match missing_modules(&candidate) {
            Some(missing) if missing.is_empty() => return Ok(candidate),
            Some(missing) => lacking.push(format!(
                "{} cannot import {}",
                candidate.display(),
                missing.join(", ")
            )),
            None if candidate.is_absolute() && !candidate.exists() => {
                lacking.push(format!("{} is missing", candidate.display()))
            }
            None => lacking.push(format!("{} does not run", candidate.display())),
        }
    }
    Err(format!(
        "{} (install them with `python3 -m venv .venv && .venv/bin/pip install -r {REQUIREMENTS}`)",
        lacking.join("; ")
    ))
}

/// Which of [`MODULES`] `python` cannot import; `None` when it does not run.
fn missing_modules(python: &Path) -> Option<Vec<String>> {
    let probe =
        format!("for m in {MODULES:?}:\n    try: __import__(m)\n    except Exception: print(m)");
    let out = cmd::output(Command::new(python).args(["-c", &probe]))?;
    Some(out.split_whitespace().map(str::to_string).collect())
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
    let python = python(root).map_err(|lacking| {
        Error::new(format!(
            "the engines' contacts cannot be recorded: {lacking}"
        ))
    })?;
    let refused = generate(root, &python, &root.join(DATA))?;
    for r in &refused {
        println!("refused by the engine (see the file's `# failed:` line): {r}");
    }
    println!("wrote {DATA}/");
    Ok(())
}

/// `cargo xtask test`'s check: regenerates into target/ and compares.
pub fn check(root: &Path) -> Result<()> {
    let python = match python(root) {
        Ok(python) => python,
        Err(lacking) => return ci::cannot_run("the engine contacts check", &lacking),
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
