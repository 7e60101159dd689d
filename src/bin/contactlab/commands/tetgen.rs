//! `contactlab tetgen`: makes the committed TetGen meshes
//! (`docs/design/meshing.md`, "Making them") for every distinct shape of the
//! built-in scenes, by running the `tetgen` program (Debian's, 1.5) on each
//! shape's PLC and reading its output back; `cargo xtask meshes` calls it.
//! TetGen is only run, never linked: its output is data.
//!
//! Switches, after the paper (section 8) and its reference code:
//! - default level: `-pq2.0Y`; the crack and hole blocks `-p` (the
//!   reference code meshes them without quality refinement);
//! - paper-fine (the section 8.6 study, on the Pillar's shapes only):
//!   `-pq1.015` with `a0.00015` on conical shapes (frusta, pyramids) and
//!   `a0.015` on the others. Debian's TetGen does not finish `-q1.015` on
//!   some shapes, so each ratio of 1.015, 1.1, 1.2, 1.414 is tried in turn
//!   with a time limit and the first that finishes is used and recorded.
//!
//! The switches chosen for a shape are recorded in the committed file with
//! the reason; `--write` reuses them for shapes already there (no search,
//! no waiting for time limits) and searches only for new shapes, unless
//! `--search` asks to measure every shape again. `--check` regenerates with
//! the recorded switches and compares byte for byte.

use crate::args::{Args, Command, CommandOption};
use crate::output::{CliResult, Out};
use contactlab::mesh::plc::Plc;
use contactlab::mesh::shapes::Shape;
use contactlab::mesh::tetgen_files::read_tetgen;
use contactlab::mesh::{Mesher, TetMesh};
use contactlab::scene::builtin::BUILTIN_SCENES;
use contactlab::scene::committed::{CommittedMesh, MeshTable};
use contactlab::scene::parse::{parse_shape_value, FLAT_ANGLE};
use std::path::{Path, PathBuf};
use std::process::{self, Stdio};
use std::time::{Duration, Instant};

pub const COMMAND: Command = Command {
    name: "tetgen",
    arguments: "--write DIR | --search DIR | --check DIR",
    summary: "Makes the committed TetGen meshes of the built-in scenes' shapes by running the tetgen program (what `cargo xtask meshes` calls), or checks that remaking them gives the files in DIR byte for byte. Prints a Markdown table of the switches used.",
    stages: &[],
    settings: &[],
    options: &[
        CommandOption::valued("--write", "DIR", "write DIR/tetgen.json and DIR/paper-fine.json, reusing the switches they record for known shapes"),
        CommandOption::valued("--search", "DIR", "write them, choosing every shape's switches afresh (the paper-fine ratios take minutes of time limits)"),
        CommandOption::valued("--check", "DIR", "remake with the switches recorded in DIR's files and compare"),
        CommandOption::valued("--level", "L", "only this level: tetgen or paper-fine (default: both)"),
        CommandOption::valued("--timeout", "S", "seconds TetGen may take per try before the next quality ratio is tried (default 60)"),
    ],
    more_help: None,
    run: tetgen,
};

/// Bodies the reference code meshes with `-p` only.
const PLAIN_BODIES: [&str; 2] = ["hole-block", "crack-block"];
/// Scenes whose shapes get a paper-fine mesh: the paper refines only the
/// Pillar (section 8.6); the large grounds of the other scenes would take
/// tens of megabytes at these switches.
const PAPER_FINE_SCENES: [&str; 1] = ["pillar"];
/// Quality ratios tried for paper-fine, the paper's first.
const FINE_RATIOS: [&str; 4] = ["1.015", "1.1", "1.2", "1.414"];
/// How many bodies `used_by` names.
const USED_BY_SHOWN: usize = 4;

/// A distinct shape of the built-in scenes and the bodies that have it.
struct ShapeUse {
    shape: Shape,
    bodies: Vec<String>,
    count: usize,
}

/// The distinct shapes of `scenes`, in scene and body order.
fn builtin_shapes(scenes: &[&str]) -> Result<Vec<ShapeUse>, String> {
    let mut uses: Vec<ShapeUse> = Vec::new();
    for builtin in BUILTIN_SCENES {
        let (id, text) = (builtin.id, builtin.text);
        if !scenes.is_empty() && !scenes.contains(&id) {
            continue;
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("builtin:{id}: {e}"))?;
        for (i, body) in value["bodies"].as_array().into_iter().flatten().enumerate() {
            let path = format!("builtin:{id}: bodies[{i}].shape");
            let shape = parse_shape_value(&path, &body["shape"])?;
            if shape.surface().is_none() {
                continue; // given as tetrahedra: nothing for TetGen to mesh
            }
            let name = format!("{id}/{}", body["name"].as_str().unwrap_or("?"));
            match uses.iter_mut().find(|u| u.shape.same_surface(&shape)) {
                Some(u) => {
                    u.count += 1;
                    if u.bodies.len() < USED_BY_SHOWN {
                        u.bodies.push(name);
                    }
                }
                None => uses.push(ShapeUse {
                    shape,
                    bodies: vec![name],
                    count: 1,
                }),
            }
        }
    }
    Ok(uses)
}

/// The installed TetGen's version, as Debian's package names it (the
/// program itself has no version switch).
fn tetgen_version() -> Option<String> {
    let which = process::Command::new("tetgen")
        .arg("-h")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    which.ok()?;
    let out = process::Command::new("dpkg-query")
        .args(["-W", "-f=${Version}", "tetgen"])
        .output()
        .ok()
        .filter(|o| o.status.success());
    Some(match out {
        Some(o) => format!(
            "tetgen {} (Debian package)",
            String::from_utf8_lossy(&o.stdout).trim()
        ),
        None => "tetgen (version unknown)".to_string(),
    })
}

/// What one TetGen run gave.
struct Run {
    tets: Vec<[u32; 4]>,
    vertices: Vec<glam::DVec3>,
    seconds: f64,
}

/// Runs `tetgen <switches>Q` on the shape's PLC in `dir`; `Ok(None)` when it
/// did not finish within `limit`.
fn run_tetgen(
    dir: &Path,
    name: &str,
    plc: &Plc,
    switches: &str,
    limit: Duration,
) -> Result<Option<Run>, String> {
    let poly = dir.join(format!("{name}.poly"));
    std::fs::write(&poly, plc.to_poly()).map_err(|e| format!("{}: {e}", poly.display()))?;
    let start = Instant::now();
    let mut child = process::Command::new("tetgen")
        .arg(format!("{switches}Q"))
        .arg(&poly)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run tetgen: {e}"))?;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > limit {
            // Our own child, by its handle.
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let seconds = start.elapsed().as_secs_f64();
    if !status.success() {
        return Err(format!(
            "tetgen {switches} {} failed ({status})",
            poly.display()
        ));
    }
    let read = |ext: &str| {
        let path = dir.join(format!("{name}.1.{ext}"));
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let mesh = read_tetgen(plc, &read("node")?, &read("ele")?)
        .map_err(|e| format!("tetgen {switches} on {name}: {e}"))?;
    Ok(Some(Run {
        tets: mesh.tets,
        vertices: mesh.vertices,
        seconds,
    }))
}

/// One line of the Markdown report.
struct Row {
    bodies: String,
    switches: String,
    tets: usize,
    seconds: f64,
    why: String,
}

/// Makes the table of one level. `recorded` gives the switches of the shapes
/// it has; with `strict` a shape it lacks is an error, otherwise its
/// switches are chosen as the module doc says.
fn make_table(
    level: Mesher,
    version: &str,
    dir: &Path,
    limit: Duration,
    recorded: Option<&MeshTable>,
    strict: bool,
    rows: &mut Vec<Row>,
) -> Result<MeshTable, String> {
    let scenes: &[&str] = match level {
        Mesher::PaperFine => &PAPER_FINE_SCENES,
        _ => &[],
    };
    let mut meshes = Vec::new();
    for (i, shape_use) in builtin_shapes(scenes)?.into_iter().enumerate() {
        let plc = Plc::of_shape(&shape_use.shape).ok_or("a tetmesh shape has no PLC")?;
        let found = recorded.and_then(|table| table.find(&shape_use.shape));
        if strict && found.is_none() {
            return Err(format!(
                "the committed {level} meshes have no mesh for the shape of {} (run cargo xtask meshes)",
                shape_use.bodies[0]
            ));
        }
        let candidates = candidate_switches(level, &shape_use, found);
        let name = format!("{}-{i}", level.id());
        let (switches, why, run) =
            first_finishing(dir, &name, &plc, &candidates, limit, &shape_use)?;
        TetMesh::new(run.vertices.clone(), run.tets.clone(), FLAT_ANGLE).map_err(|e| {
            format!(
                "tetgen {switches} gave an invalid mesh for {}: {e}",
                shape_use.bodies[0]
            )
        })?;
        let mut used_by = shape_use.bodies.clone();
        if shape_use.count > used_by.len() {
            used_by.push(format!("and {} more", shape_use.count - used_by.len()));
        }
        rows.push(Row {
            bodies: used_by.join(", "),
            switches: switches.clone(),
            tets: run.tets.len(),
            seconds: run.seconds,
            why: why.clone(),
        });
        meshes.push(CommittedMesh {
            shape: shape_use.shape,
            used_by,
            switches,
            why,
            vertices: run.vertices,
            tets: run.tets,
        });
    }
    Ok(MeshTable {
        level,
        tetgen: version.to_string(),
        meshes,
    })
}

/// The switches to try for a shape, in order, each with why it is chosen
/// (empty for the paper-fine ratios: [`first_finishing`] says why). A
/// recorded mesh's switches come alone.
fn candidate_switches(
    level: Mesher,
    shape_use: &ShapeUse,
    found: Option<&CommittedMesh>,
) -> Vec<(String, String)> {
    let plain = shape_use
        .bodies
        .iter()
        .any(|b| PLAIN_BODIES.iter().any(|p| b.ends_with(&format!("/{p}"))));
    match (found, level) {
        (Some(found), _) => vec![(found.switches.clone(), found.why.clone())],
        (None, Mesher::TetGen) if plain => vec![(
            "-p".to_string(),
            "the reference code meshes the crack and hole blocks with -p (no quality bound)"
                .to_string(),
        )],
        (None, Mesher::TetGen) => vec![(
            "-pq2.0Y".to_string(),
            "the paper's default (section 8): ratio 2.0, no volume bound, no boundary splitting"
                .to_string(),
        )],
        (None, _) => {
            let area = if shape_use.shape.is_conical() {
                "0.00015"
            } else {
                "0.015"
            };
            FINE_RATIOS
                .iter()
                .map(|q| (format!("-pq{q}a{area}"), String::new()))
                .collect()
        }
    }
}

/// The first of `candidates` that TetGen finishes within `limit`: its
/// switches, why they were chosen, and the run.
fn first_finishing(
    dir: &Path,
    name: &str,
    plc: &Plc,
    candidates: &[(String, String)],
    limit: Duration,
    shape_use: &ShapeUse,
) -> Result<(String, String, Run), String> {
    let mut refused = Vec::new();
    for (switches, why) in candidates {
        let Some(run) = run_tetgen(dir, name, plc, switches, limit)? else {
            refused.push(switches.clone());
            continue;
        };
        let why = if !why.is_empty() {
            why.clone()
        } else if refused.is_empty() {
            "the paper's section 8.6 switches".to_string()
        } else {
            format!(
                "{} did not finish within {} s",
                refused.join(" and "),
                limit.as_secs()
            )
        };
        return Ok((switches.clone(), why, run));
    }
    Err(format!(
        "tetgen did not finish within {} s for the shape of {} with any of {}",
        limit.as_secs(),
        shape_use.bodies[0],
        refused.join(", ")
    ))
}

/// What the command does with the files in its directory.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Write them, reusing the recorded switches of known shapes.
    Write,
    /// Write them, choosing every shape's switches afresh.
    Search,
    /// Remake them with the recorded switches and compare.
    Check,
}

/// Makes (or with [`Mode::Check`] remakes and compares) the meshes of
/// `levels` from the files in `dir`; returns the Markdown report.
fn run(dir: &Path, mode: Mode, levels: &[Mesher], timeout: Duration) -> Result<String, String> {
    let version = tetgen_version().ok_or(
        "the tetgen program is not installed (Debian: apt-get install tetgen); it is needed only to remake the committed meshes",
    )?;
    let work = std::env::temp_dir().join(format!("contactlab-tetgen-{}", process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let result = remake_levels(dir, mode, levels, timeout, &version, &work);
    let _ = std::fs::remove_dir_all(&work);
    result
}

/// [`run`] with TetGen's files in `work`.
fn remake_levels(
    dir: &Path,
    mode: Mode,
    levels: &[Mesher],
    timeout: Duration,
    version: &str,
    work: &Path,
) -> Result<String, String> {
    let check = mode == Mode::Check;
    let mut report = String::from(
        "| level | bodies | switches | tetrahedra | tetgen time | why these switches |\n| --- | --- | --- | ---: | ---: | --- |\n",
    );
    let mut problems = Vec::new();
    for &level in levels {
        let path: PathBuf = dir.join(format!("{}.json", level.id()));
        let committed = read_committed(mode, &path)?;
        let mut rows = Vec::new();
        let table = make_table(
            level,
            version,
            work,
            timeout,
            committed.as_ref().map(|(t, _)| t),
            check,
            &mut rows,
        )?;
        for r in rows {
            report.push_str(&format!(
                "| {} | {} | `{}` | {} | {:.3} s | {} |\n",
                level.id(),
                r.bodies,
                r.switches,
                r.tets,
                r.seconds,
                r.why
            ));
        }
        let text = table.to_text();
        match committed.filter(|_| check) {
            Some((old, old_text)) if old_text != text => {
                let version_note = if old.tetgen != version {
                    format!(" (committed with {}, this is {version})", old.tetgen)
                } else {
                    String::new()
                };
                problems.push(format!(
                    "{} differs from what TetGen makes now{version_note}",
                    path.display()
                ));
            }
            Some(_) => {}
            None => std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?,
        }
    }
    if problems.is_empty() {
        Ok(report)
    } else {
        Err(problems.join("; "))
    }
}

/// The committed table at `path` and its text, as `mode` needs it: none
/// for a search, or a write with no file yet; a check needs the file.
fn read_committed(mode: Mode, path: &Path) -> Result<Option<(MeshTable, String)>, String> {
    match (mode, std::fs::read_to_string(path)) {
        (Mode::Search, _) => Ok(None),
        (Mode::Check, Err(e)) => Err(format!("{}: {e}", path.display())),
        (Mode::Write, Err(_)) => Ok(None),
        (_, Ok(text)) => Ok(Some((
            MeshTable::parse(&path.display().to_string(), &text)?,
            text,
        ))),
    }
}

/// The command: `--write DIR`, `--search DIR` or `--check DIR`, `--level L`
/// (default both), `--timeout S` (default 60); prints the Markdown report.
fn tetgen(args: &Args, out: &mut Out) -> CliResult {
    args.no_positional("tetgen")?;
    let (dir, mode) = mode_of(args)?;
    let levels = levels_of(args)?;
    let timeout = timeout_of(args)?;
    let report = run(Path::new(dir), mode, &levels, timeout)?;
    out.write(&report)?;
    Ok(())
}

/// The directory and what to do with it: exactly one of the three options.
fn mode_of(args: &Args) -> Result<(&str, Mode), String> {
    let modes = [
        ("--write", Mode::Write),
        ("--search", Mode::Search),
        ("--check", Mode::Check),
    ];
    let given: Vec<_> = modes
        .iter()
        .filter_map(|(flag, mode)| args.value(flag).map(|dir| (dir, *mode)))
        .collect();
    match given[..] {
        [one] => Ok(one),
        _ => Err(
            "'tetgen' needs exactly one of --write DIR, --search DIR and --check DIR".to_string(),
        ),
    }
}

/// `--level`: tetgen or paper-fine; both by default.
fn levels_of(args: &Args) -> Result<Vec<Mesher>, String> {
    match args.value("--level") {
        None => Ok(vec![Mesher::TetGen, Mesher::PaperFine]),
        Some(id) => match Mesher::from_id(id) {
            Some(m) if m != Mesher::Cones => Ok(vec![m]),
            _ => Err(format!(
                "--level: must be tetgen or paper-fine, got \"{id}\""
            )),
        },
    }
}

/// `--timeout`: seconds per TetGen try, 60 by default.
fn timeout_of(args: &Args) -> Result<Duration, String> {
    let seconds = match args.value("--timeout") {
        None => 60.0,
        Some(t) => match t.trim().parse::<f64>() {
            Ok(x) if (0.1..=3600.0).contains(&x) => x,
            _ => {
                return Err(format!(
                    "--timeout: must be a number of seconds from 0.1 to 3600, got \"{t}\""
                ))
            }
        },
    };
    Ok(Duration::from_secs_f64(seconds))
}
