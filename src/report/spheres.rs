//! `contactlab table spheres`: Cheng Yi & Drumwright's verification
//! benchmarks (§V-B, figure 5). A tessellated sphere spinning about the
//! vertical on a fixed box with no-slip friction keeps its kinetic energy
//! when it is ideal; the table gives the energy left after 5 s of virtual
//! time for several sphere tessellations and two time steps, per contact
//! method, beside Cheng Yi & Drumwright's statements: the 100-vertex sphere
//! keeps its energy for at least 5 s at h = 0.001; the 50-vertex one stops
//! within about 8 ms; at h = 0.01 even 2000 vertices do not keep it.
//!
//! The sphere's vertex count is a parameter of its shape: the table edits
//! the built-in scene's text (every `sphere` shape gets the count) rather
//! than keeping a second copy of the scene.

use super::text_table::{Progress, Table};
use crate::clock::now_ms;
use crate::contact::method_by_id;
use crate::mesh::shapes::sphere::sphere_vertex_count;
use crate::mesh::Mesher;
use crate::scene::builtin::builtin_text;
use crate::sim::{SimError, SimSettings, Simulation};
use serde_json::Value;

/// Requested surface vertices of the spheres (Cheng Yi & Drumwright's; the
/// grid nearest to each is used, see [`crate::mesh::shapes::sphere`]).
pub const SPHERE_VERTICES: [u32; 5] = [50, 100, 200, 1000, 2000];
/// Cheng Yi & Drumwright's two time steps, seconds.
pub const SPHERE_TIME_STEPS: [f64; 2] = [0.001, 0.01];
/// Virtual time of every run, seconds (Cheng Yi & Drumwright's).
pub const VIRTUAL_SECONDS: f64 = 5.0;
/// The methods the table compares, those of them the registry has:
/// ContactLab's own, the paper's two best (Opposing, Closest points), the
/// region methods, and the convex-polyhedra methods Cheng Yi & Drumwright
/// and industry bring.
pub const SPHERE_METHODS: [&str; 8] = [
    "semi-local",
    "opposing",
    "closest-points",
    "contour-region",
    "vertex-penetration",
    "region-analysis",
    "sat-mtd",
    "parry",
];

/// Cheng Yi & Drumwright's statement about a (vertices, h) cell of the
/// spinning sphere.
fn published_statement(vertices: u32, h: f64) -> &'static str {
    match (vertices, h == 0.001) {
        (50, true) => "stops spinning after about 8 ms",
        (100, true) => "keeps its energy at least 5 s",
        (2000, false) => "does not keep its energy (nor fewer vertices)",
        _ => "—",
    }
}

/// The built-in scene `scene_id` with every sphere given `vertices`.
pub fn scene_with_sphere_vertices(scene_id: &str, vertices: u32) -> Result<String, SimError> {
    let text = builtin_text(scene_id)
        .ok_or_else(|| SimError::Scene(format!("no built-in scene \"{scene_id}\"")))?;
    let mut value: Value = serde_json::from_str(text)
        .map_err(|e| SimError::Scene(format!("builtin:{scene_id}: {e}")))?;
    let mut spheres = 0;
    if let Some(bodies) = value.get_mut("bodies").and_then(Value::as_array_mut) {
        for body in bodies {
            if let Some(shape) = body.get_mut("shape").and_then(Value::as_object_mut) {
                if shape.get("type").and_then(Value::as_str) == Some("sphere") {
                    shape.insert("vertices".into(), Value::from(vertices));
                    spheres += 1;
                }
            }
        }
    }
    if spheres == 0 {
        return Err(SimError::Scene(format!(
            "builtin:{scene_id} has no sphere whose vertices could be set"
        )));
    }
    Ok(value.to_string())
}

/// What one run kept, and what it cost.
#[derive(Clone, Debug)]
pub struct EnergyRun {
    /// Kinetic energy at the start and at the end, joules.
    pub start: f64,
    pub end: f64,
    /// Steps taken (fewer than asked when the run diverged).
    pub steps: u64,
    /// The farthest any free body got from where it started, metres.
    pub max_displacement: f64,
    /// Mean wall-clock time per step, milliseconds.
    pub ms_per_step: f64,
    /// Why the run ended early, if it did.
    pub stopped: Option<String>,
}

impl EnergyRun {
    /// Percentage of the initial kinetic energy left at the end.
    pub fn kept_percent(&self) -> f64 {
        100.0 * self.end / self.start
    }
}

/// Runs `scene_text` for `seconds` of virtual time with `settings`.
pub fn energy_run(
    source: &str,
    scene_text: &str,
    settings: SimSettings,
    seconds: f64,
) -> Result<EnergyRun, SimError> {
    let mut sim = Simulation::new(source, scene_text, settings)?;
    let steps = (seconds / sim.dt()).round() as u64;
    let energy =
        |sim: &Simulation| -> f64 { sim.bodies().iter().map(|b| b.kinetic_energy()).sum() };
    let start = energy(&sim);
    let began = now_ms();
    let mut stopped = None;
    let mut taken = 0;
    let mut max_displacement: f64 = 0.0;
    while taken < steps {
        match sim.step() {
            Ok(record) => {
                taken += 1;
                max_displacement = max_displacement.max(record.max_displacement);
                if let Some(message) = record.diverged {
                    stopped = Some(message);
                    break;
                }
            }
            Err(e) => {
                stopped = Some(e.to_string());
                break;
            }
        }
    }
    Ok(EnergyRun {
        start,
        end: energy(&sim),
        steps: taken,
        max_displacement,
        ms_per_step: (now_ms() - began) / taken.max(1) as f64,
        stopped,
    })
}

/// How far the sphere may wander before a cell says so: 1 cm, 1 % of its
/// radius (an ideal spinning sphere does not move at all).
const WANDER: f64 = 0.01;

/// A cell: the energy kept, and what else went wrong. No timings: the
/// table must come out the same on every machine (`docs/results.md`).
fn energy_cell(run: &EnergyRun, h: f64) -> String {
    let mut cell = format!("{:.3} %", run.kept_percent());
    if run.max_displacement > WANDER {
        cell.push_str(&format!(", moved {:.2} m", run.max_displacement));
    }
    if run.stopped.is_some() {
        cell.push_str(&format!(", stopped at {:.3} s", run.steps as f64 * h));
    }
    cell
}

/// The spinning-sphere table. `vertices` and `time_steps` choose the grid
/// (the CLI passes Cheng Yi & Drumwright's); meshes are cones unless `base`
/// names a mesher, because only the built-in 100-vertex sphere has a
/// committed TetGen mesh.
pub fn spheres_table(
    base: &SimSettings,
    vertices: &[u32],
    time_steps: &[f64],
    progress: Progress,
) -> Result<Table, SimError> {
    let scene_id = "spinning-sphere";
    let methods: Vec<&str> = SPHERE_METHODS
        .iter()
        .copied()
        .filter(|id| method_by_id(id).is_some())
        .collect();
    let mesher = base.mesher.unwrap_or(Mesher::Cones);
    let total = vertices.len() * time_steps.len() * methods.len();
    let mut rows = Vec::new();
    let mut done = 0;
    for &n in vertices {
        let text = scene_with_sphere_vertices(scene_id, n)?;
        for &h in time_steps {
            let mut row = vec![
                sphere_vertex_count(n).to_string(),
                format!("{h}"),
                published_statement(n, h).to_string(),
            ];
            for id in &methods {
                progress(&format!("{n} vertices / h = {h} / {id}"), done, total);
                done += 1;
                let settings = SimSettings {
                    method: id.to_string(),
                    mesher: Some(mesher),
                    dt: Some(h),
                    ..base.clone()
                };
                let run = energy_run(
                    &format!("builtin:{scene_id}"),
                    &text,
                    settings,
                    VIRTUAL_SECONDS,
                )?;
                row.push(energy_cell(&run, h));
            }
            rows.push(row);
        }
    }
    progress("", total, total);
    let mut headers: Vec<String> = ["sphere vertices", "h s", "Cheng Yi & Drumwright (Moby)"]
        .map(String::from)
        .to_vec();
    headers.extend(
        methods
            .iter()
            .map(|id| method_by_id(id).map_or(id.to_string(), |m| m.name.to_string())),
    );
    Ok(Table {
        title: "Spinning sphere: kinetic energy kept over 5 s (Cheng Yi & Drumwright, section V-B)".to_string(),
        notes: vec![format!(
            "A tessellated sphere of radius 1 m (a pole at the bottom, see the `sphere` shape) spins at 2π rad/s about the vertical on a fixed box, with μ = 10 between them (no slip). Each cell: the kinetic energy left after {VIRTUAL_SECONDS} s as a percentage of the initial, and how far the sphere moved when it moved more than {WANDER} m (through the box, when a method finds no contact). Meshes: {}. Cheng Yi & Drumwright's column is their section V-B; they give no numbers.",
            mesher.meshes()
        )],
        headers,
        rows,
    })
}
