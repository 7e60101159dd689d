//! Step records as `run` and `score` print them: a table with one line per
//! step, or one JSON object per line, and the run means.

use crate::args::Args;
use crate::output::{outln, CliResult, Out};
use contactlab::measures::{contact_records, OracleChoice};
use contactlab::scene::Oracle;
use contactlab::sim::{RunMeans, Simulation, StepRecord};
use serde_json::{json, Map, Value};

/// The oracle of a run's headline: the `oracle` setting, or the geometric
/// oracle when the scene has none of its own.
pub fn headline_oracle(sim: &Simulation) -> OracleChoice {
    if matches!(sim.scene().oracle, Oracle::None) {
        OracleChoice::Geometric
    } else {
        sim.settings().oracle
    }
}

/// The table's header line.
pub fn print_header(out: &mut Out) -> CliResult {
    outln!(
        out,
        "{:>6} {:>8} {:>6} {:>8} {:>9} {:>7} {:>7} {:>8} {:>11} {:>10} {:>11} {:>10} {:>6} {:>10} {:>8}",
        "step",
        "time",
        "count",
        "quality",
        "coverage",
        "geo q",
        "P",
        "excess",
        "min depth",
        "overlap",
        "kinetic",
        "max disp",
        "iters",
        "residual",
        "ms"
    )?;
    Ok(())
}

/// `x` with `digits` decimals, or "-" when there is none.
pub fn show(x: Option<f64>, digits: usize) -> String {
    x.map_or("-".to_string(), |v| format!("{v:.digits$}"))
}

/// One step's line. A record measured at given poses (no step taken) shows
/// "-" for what only a dynamics step has.
pub fn print_line(out: &mut Out, r: &StepRecord) -> CliResult {
    let dynamics = |text: String| if r.dynamics { text } else { "-".to_string() };
    outln!(out, "{:>6} {:>8.3} {:>6} {:>8} {:>9} {:>7} {:>7} {:>8} {:>11} {:>10.3e} {:>11} {:>10.3e} {:>6} {:>10} {:>8.2}",
        r.step,
        r.time,
        r.measures.count,
        show(r.measures.quality, 1),
        show(r.measures.coverage, 1),
        show(r.measures.geo_quality, 1),
        show(r.measures.area_coverage, 3),
        show(r.measures.excess, 2),
        r.min_depth.map_or("-".to_string(), |d| format!("{d:.3e}")),
        r.penetration,
        dynamics(format!("{:.4e}", r.kinetic_energy)),
        r.max_displacement,
        dynamics(r.iterations.to_string()),
        dynamics(format!("{:.2e}", r.residual)),
        r.ms_broad + r.ms_method + r.ms_solver
    )?;
    Ok(())
}

/// One `--json` line: the record's keys (the page's readout names),
/// without the `ms_*` timings when `timings` is off.
pub fn record_json(r: &StepRecord, timings: bool) -> Value {
    let mut value = r.to_json();
    if let (false, Some(fields)) = (timings, value.as_object_mut()) {
        drop_timings(fields);
    }
    value
}

/// Leaves out the `ms_*` fields (`--no-timings`), which differ run to run.
pub fn drop_timings(fields: &mut Map<String, Value>) {
    fields.retain(|key, _| !key.starts_with("ms_"));
}

/// The run means as the table's last line.
pub fn print_means(out: &mut Out, means: &RunMeans) -> CliResult {
    outln!(
        out,
        "means over {} steps ({} with contacts): count {}, quality {}, coverage {}, geo q {}, P {}, excess {}; deepest overlap {:.3e} m",
        means.steps,
        means.steps_with_contacts,
        show(means.count, 1),
        show(means.quality, 1),
        show(means.coverage, 1),
        show(means.geo_quality, 1),
        show(means.area_coverage, 3),
        show(means.excess, 2),
        means.max_penetration
    )?;
    Ok(())
}

/// How `run` and `score` print each step.
#[derive(Clone, Copy)]
pub struct RecordStyle {
    pub json: bool,
    pub timings: bool,
    /// With `json`: each line also lists the step's contacts.
    pub contacts: bool,
}

impl RecordStyle {
    /// As `--json`, `--no-timings` and `--contacts` say.
    pub fn of(args: &Args) -> RecordStyle {
        RecordStyle {
            json: args.flag("--json"),
            timings: !args.flag("--no-timings"),
            contacts: args.flag("--contacts"),
        }
    }
}

/// One step as `style` says: a JSON line (with the contacts `sim` holds,
/// when asked) or a table line; flushed, so a long run shows its progress.
pub fn print_record(
    out: &mut Out,
    sim: &Simulation,
    record: &StepRecord,
    style: RecordStyle,
) -> CliResult {
    if style.json {
        let mut line = record_json(record, style.timings);
        if let (true, Some(fields)) = (style.contacts, line.as_object_mut()) {
            let contacts = contact_records(sim.scene(), sim.contacts(), sim.contact_qualities());
            fields.insert("contacts".into(), json!(contacts));
        }
        outln!(out, "{line}")?;
    } else {
        print_line(out, record)?;
    }
    out.flush()?;
    Ok(())
}
