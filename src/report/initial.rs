//! The initial-pose tables: every method of the registry on the paper's
//! scenes at their initial poses, beside the paper's tables 7 and 8 (which
//! it measured at simulation step 3): what `contactlab table initial`
//! prints. Cheap, since nothing is simulated.

use super::contestants::{initial_pose_row, Contestants};
use super::paper;
use super::tables::{paper_number, ENGINE_NOTE};
use super::text_table::Progress;
use crate::measures::StepMeasures;
use crate::scene::SceneError;
use crate::sim::SimSettings;
use std::fmt::Write;

/// Appends a formatted line to a `String` (writing to a `String` cannot
/// fail).
macro_rules! w {
    ($out:expr) => {
        $out.push('\n')
    };
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

/// Measures of every method (and engine run through the runner) on one
/// scene, then of every engine's recorded contacts at step 0 (an engine
/// that recorded nothing there: no contacts), with progress on stderr.
fn rows_for(
    scene: &str,
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Vec<StepMeasures>, SceneError> {
    let run = contestants.rows();
    let mut rows = Vec::with_capacity(run.len() + contestants.recorded.len());
    for (i, c) in run.iter().enumerate() {
        progress(&format!("{scene} / {}", c.id()), i, run.len());
        let row = initial_pose_row(scene, *c, base, contestants.runner)?;
        rows.push(row.measures);
    }
    for engine in contestants.recorded {
        let measures = engine
            .measures(scene, 0, base)
            .map_err(|message| SceneError {
                source: scene.to_string(),
                message,
            })?
            .ok_or_else(|| SceneError {
                source: scene.to_string(),
                message: format!("{} recorded nothing at step 0", engine.label),
            })?;
        rows.push(measures);
    }
    Ok(rows)
}

/// Reads one measure of a row.
type MeasurePick = fn(&StepMeasures) -> Option<f64>;
/// One of the paper's table 8 blocks: cases per method id.
type PaperGrid<'a> = &'a [(&'a str, [f64; 10])];

fn percent(x: Option<f64>) -> String {
    x.map_or("—".to_string(), |v| format!("{v:.1}"))
}

/// The initial-pose tables: every method on the Pillar, the fundamental
/// cases, the Wall and the Arch at their initial poses, in the shapes of the
/// paper's tables 7 and 8 and sections 8.2–8.3, as Markdown, with the
/// paper's envelope and erosion ε unless `base` sets its own
/// ([`SimSettings::with_paper_lengths`]).
pub fn initial_tables(
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<String, SceneError> {
    let base = &base.with_paper_lengths();
    let pillar = rows_for("pillar", base, contestants, progress)?;
    let mut cases = Vec::with_capacity(paper::TABLE_8_CASES.len());
    for case in paper::TABLE_8_CASES {
        cases.push(rows_for(case, base, contestants, progress)?);
    }
    let (wall, arch) = (
        rows_for("wall", base, contestants, progress)?,
        rows_for("arch", base, contestants, progress)?,
    );
    progress("", 1, 1);
    // The methods' rows, the engines' run here, then the recorded ones.
    let run = contestants.rows();
    let names: Vec<String> = run
        .iter()
        .map(|c| c.name())
        .chain(contestants.recorded.iter().map(|e| e.label.clone()))
        .collect();
    let paper_ids: Vec<Option<&'static str>> = (0..names.len())
        .map(|i| run.get(i).and_then(|c| c.paper_id()))
        .collect();
    let labels = RowLabels { names, paper_ids };
    let mut out = String::new();
    // Which meshes, when the caller chose them.
    let meshes = base
        .mesher
        .map_or(String::new(), |m| format!(" — {}", m.meshes()));
    pillar_table(&mut out, &meshes, &labels, &pillar);
    case_tables(&mut out, &meshes, &labels, &cases);
    wall_and_arch_table(&mut out, &meshes, &labels, &wall, &arch);
    if contestants.engines_run() {
        w!(out, "\n{INITIAL_ENGINE_NOTE}");
    }
    if !contestants.recorded.is_empty() {
        w!(
            out,
            "\n{}",
            ENGINE_NOTE.replace("after 3 of its own steps", "at the initial pose")
        );
    }
    Ok(out)
}

/// The rows' labels: each row's name, and the id the paper's tables list
/// it under (none for an engine).
struct RowLabels {
    names: Vec<String>,
    paper_ids: Vec<Option<&'static str>>,
}

/// The Pillar in the shape of table 7, beside the paper's numbers.
fn pillar_table(out: &mut String, meshes: &str, labels: &RowLabels, pillar: &[StepMeasures]) {
    let name = |i: usize| labels.names[i].as_str();
    let paper_of = |i: usize| labels.paper_ids[i];
    w!(
        out,
        "### Pillar at the initial pose (shape of table 7){meshes}\n"
    );
    w!(
        out,
        "Ours at the initial pose; the paper's at simulation step 3.\n"
    );
    w!(out, "| method | quality % | contacts | excess | paper quality % | paper contacts | paper excess |");
    w!(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (i, m) in pillar.iter().enumerate() {
        let paper_cells = paper_of(i)
            .and_then(|id| paper::row(&paper::TABLE_7, id))
            .map_or("— | — | —".to_string(), |(pq, pc, pe)| {
                format!("{pq:.1} | {pc} | {pe:.1}")
            });
        w!(
            out,
            "| {} | {} | {} | {} | {paper_cells} |",
            name(i),
            percent(m.quality),
            m.count,
            percent(m.excess)
        );
    }
}

/// The fundamental cases in the shape of table 8: coverage, quality and
/// excess, each cell beside the paper's.
fn case_tables(out: &mut String, meshes: &str, labels: &RowLabels, cases: &[Vec<StepMeasures>]) {
    let name = |i: usize| labels.names[i].as_str();
    let paper_of = |i: usize| labels.paper_ids[i];
    let names = &labels.names;
    let case_header = paper::TABLE_8_CASES.join(" | ");
    let rule = vec!["---:"; paper::TABLE_8_CASES.len()].join(" | ");
    let grids: [(&str, MeasurePick, PaperGrid); 3] = [
        ("Coverage %", |m| m.coverage, &paper::TABLE_8_COVERAGE),
        ("Quality %", |m| m.quality, &paper::TABLE_8_QUALITY),
        ("Excess", |m| m.excess, &paper::TABLE_8_EXCESS),
    ];
    w!(
        out,
        "\n### Fundamental cases at the initial pose (shape of table 8){meshes}\n"
    );
    w!(out, "Each cell: ours at the initial pose (the paper's, from simulation). — means no contacts.\n");
    for (title, pick, reference) in grids {
        w!(out, "**{title}**\n");
        w!(out, "| method | {case_header} |");
        w!(out, "| --- | {rule} |");
        for i in 0..names.len() {
            let paper_row = paper_of(i).and_then(|id| paper::row(reference, id));
            let cells: Vec<String> = (0..cases.len())
                .map(|c| {
                    format!(
                        "{} ({})",
                        percent(pick(&cases[c][i])),
                        paper_number(paper_row.map(|r| r[c]))
                    )
                })
                .collect();
            w!(out, "| {} | {} |", name(i), cells.join(" | "));
        }
        w!(out);
    }
}

/// The Wall and the Arch (sections 8.2–8.3): quality and area coverage P.
fn wall_and_arch_table(
    out: &mut String,
    meshes: &str,
    labels: &RowLabels,
    wall: &[StepMeasures],
    arch: &[StepMeasures],
) {
    let name = |i: usize| labels.names[i].as_str();
    let names = &labels.names;
    w!(
        out,
        "### Wall and Arch at the initial pose (sections 8.2–8.3){meshes}\n"
    );
    w!(out, "Correct normals % and area coverage P. The paper reports, at step 3: Wall, Closest points about 80 % correct with P = 0.89, Opposing 100 % with P = 0.93; Arch, Closest points about 70 % with P = 0.64, Opposing about 50 % with P = 0.90.\n");
    w!(out, "| method | wall quality % | wall P | wall contacts | arch quality % | arch P | arch contacts |");
    w!(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let p = |x: Option<f64>| x.map_or("—".to_string(), |v| format!("{v:.3}"));
    for i in 0..names.len() {
        w!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            name(i),
            percent(wall[i].quality),
            p(wall[i].area_coverage),
            wall[i].count,
            percent(arch[i].quality),
            p(arch[i].area_coverage),
            arch[i].count
        );
    }
}

/// What an engine's row is in the initial-pose tables.
const INITIAL_ENGINE_NOTE: &str = "The rows named after an engine and its npm package are that engine's contacts at the initial pose: its adapter (`www/engines/<id>.js`, run in Node) builds the bodies as the engine's users do, puts them at the pose and runs the engine's collision detection once (`contactlab contacts <scene> --method <id>`).";
