//! `contactlab contacts <scene> --method M`: the contacts a method (or an
//! engine, through its adapter in Node) finds at the scene's initial pose,
//! judged by the geometric oracle and measured (Erleben 2018 §5).

use crate::args::{Args, Command, CommandOption, JSON, NO_TIMINGS};
use crate::engine_host::NodeEngine;
use crate::load;
use crate::output::{outln, CliResult, Out};
use crate::records::{drop_timings, show};
use contactlab::contact::{
    detect, methods::method_ids, ContactSet, MethodHistory, MethodInfo, Undetectable,
};
use contactlab::contact_file::write_csv;
use contactlab::dynamics::stepper::Pose;
use contactlab::engines::{ContactSource, EngineInfo, EngineMode};
use contactlab::measures::oracle::GeometricOracle;
use contactlab::measures::{
    contact_records, measure, ContactQuality, Measured, OracleChoice, StepMeasures,
};
use contactlab::scene::Scene;
use contactlab::settings::{Choice, Stage};
use contactlab::sim::SimSettings;
use serde_json::json;
use std::time::Instant;

pub const COMMAND: Command = Command {
    name: "contacts",
    arguments: "<scene> --method M",
    summary: "The contacts method M finds at the scene's initial pose, and their quality measures (count, quality %, coverage %, area coverage P, excess).",
    stages: &[Stage::Geometry, Stage::Detection, Stage::Measure],
    settings: &[],
    options: &[JSON, NO_TIMINGS, CONTACTS_CSV],
    more_help: None,
    run: contacts,
};

/// `--csv`: contacts as a contact file.
const CONTACTS_CSV: CommandOption = CommandOption::switch(
    "--csv",
    "print the contacts as a contactlab-contacts/1 CSV file (see the README), which `contactlab score` reads back",
);

/// What finds the contacts: a method of the registry, or an engine.
#[derive(Clone, Copy)]
enum Finder {
    Method(&'static MethodInfo),
    Engine(&'static EngineInfo),
}

impl Finder {
    fn id(self) -> &'static str {
        match self {
            Finder::Method(info) => info.id,
            Finder::Engine(engine) => engine.id,
        }
    }

    /// The name the text's headline gives it.
    fn label(self) -> String {
        match self {
            Finder::Method(info) => info.name.to_string(),
            Finder::Engine(engine) => engine.label(),
        }
    }
}

/// The contacts at the initial pose, judged and measured.
struct Found<'a> {
    scene: &'a Scene,
    finder: Finder,
    set: ContactSet,
    qualities: Vec<ContactQuality>,
    measures: StepMeasures,
    /// The geometric oracle's time, in milliseconds.
    ms_oracle: f64,
}

impl Found<'_> {
    fn name(&self, body: usize) -> &str {
        self.scene.bodies[body].name.as_str()
    }

    fn not_applicable(&self) -> Vec<String> {
        self.set
            .not_applicable_messages(|i| self.name(i).to_string())
    }
}

fn contacts(args: &Args, out: &mut Out) -> CliResult {
    let finder = finder(args)?;
    let scene = load::scene(args, "contacts")?;
    let poses: Vec<Pose> = scene
        .bodies
        .iter()
        .map(|b| Pose::new(b.position, b.rotation))
        .collect();
    let set = detect_at(&scene, &poses, finder, &args.settings)?;
    let Measured {
        qualities,
        measures,
        ms_oracle,
    } = measure(
        &scene,
        &GeometricOracle::new(&scene),
        &set.contacts,
        &poses,
        &args.settings.measure_settings(),
    );
    let found = Found {
        scene: &scene,
        finder,
        set,
        qualities,
        measures,
        ms_oracle,
    };
    if args.flag("--csv") {
        print_csv(out, &found)
    } else if args.flag("--json") {
        print_json(out, &found, args.flag("--no-timings"))
    } else {
        print_text(out, &found)
    }
}

/// The method or engine of `--method`; a reference, which only a run
/// carries, is refused.
fn finder(args: &Args) -> Result<Finder, String> {
    if !args.given("method") {
        return Err(format!(
            "--method is required (one of: {})",
            method_ids().join(", ")
        ));
    }
    if let Some(engine) = args.settings.engine_info() {
        return Ok(Finder::Engine(engine));
    }
    let info = args
        .settings
        .method_info()
        .map_err(|e| format!("--method: {e}"))?;
    if info.is_reference() {
        return Err(format!(
            "'{}' carries the contacts of a simulation's first step; use 'contactlab run' with it",
            info.id
        ));
    }
    Ok(Finder::Method(info))
}

/// The contacts `finder` finds at `poses`.
fn detect_at(
    scene: &Scene,
    poses: &[Pose],
    finder: Finder,
    settings: &SimSettings,
) -> Result<ContactSet, String> {
    match finder {
        Finder::Engine(engine) => {
            // The engine's contacts at the initial pose, from its adapter in Node.
            let mut host = NodeEngine::start(engine, EngineMode::Ours, scene, settings)?;
            let start = Instant::now();
            let contacts = host.contacts_at(poses)?;
            // The call's time includes the pipe to Node and back.
            let ms_method = start.elapsed().as_secs_f64() * 1e3;
            Ok(ContactSet {
                contacts,
                ms_method,
                ..ContactSet::default()
            })
        }
        Finder::Method(info) => {
            let params = settings.method_params(scene);
            // A one-off detection: a region method starts with no memory.
            detect(&scene.poses(), info, &params, &mut MethodHistory::default()).map_err(
                |e| match e {
                    Undetectable::OverBudget(over) => {
                        over.message(|i| scene.bodies[i].name.clone())
                    }
                    other => format!("--method: {other}"),
                },
            )
        }
    }
}

/// `--csv`: the contacts as a contact file of one step.
fn print_csv(out: &mut Out, found: &Found) -> CliResult {
    let about = format!(
        "scene: {}; method: {}; the initial pose (step 0); contactlab {}",
        found.scene.id,
        found.finder.id(),
        env!("CARGO_PKG_VERSION")
    );
    out.write(&write_csv(
        found.scene,
        &about,
        (0, 0),
        [(0, found.set.contacts.as_slice())],
    ))?;
    Ok(())
}

/// `--json`: the contacts, the regions, the refusals and the measures.
fn print_json(out: &mut Out, found: &Found, no_timings: bool) -> CliResult {
    let (set, measures) = (&found.set, &found.measures);
    let contacts = contact_records(found.scene, &set.contacts, &found.qualities);
    let regions: Vec<_> = set
        .regions
        .iter()
        .map(|r| {
            json!({
                "a": found.name(r.a), "b": found.name(r.b), "dimension": r.outline.dimension,
                "points": r.outline.points.iter().map(|p| p.to_array()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut report = json!({
        "scene": found.scene.id,
        "method": found.finder.id(),
        "contacts": contacts,
        "regions": regions,
        "not_applicable": found.not_applicable(),
        "indeterminate": set.indeterminate,
        "measures": measures,
    });
    if let Some(m) = report["measures"].as_object_mut() {
        m.insert("candidate_pairs".into(), json!(set.candidate_pairs));
        m.insert("unfiltered".into(), json!(set.unfiltered));
        m.insert("ms_broad".into(), json!(set.ms_broad));
        m.insert("ms_method".into(), json!(set.ms_method));
        m.insert("ms_oracle".into(), json!(found.ms_oracle));
        m.insert("histogram".into(), json!(measures.distributions.histogram));
        if no_timings {
            drop_timings(m);
        }
    }
    outln!(out, "{report}")?;
    Ok(())
}

/// The text: a headline, a line per body pair, the refusals, the measures.
fn print_text(out: &mut Out, found: &Found) -> CliResult {
    outln!(
        out,
        "{} with {} ({}): contacts at the initial pose",
        found.scene.title,
        found.finder.label(),
        found.scene.source
    )?;
    print_pairs(out, found)?;
    for message in &found.not_applicable() {
        outln!(out, "{message}")?;
    }
    let indeterminate = found.set.indeterminate;
    if indeterminate > 0 {
        outln!(
            out,
            "{} contact{} refused: indeterminate normal (vertex–vertex, vertex–edge or parallel edge–edge)",
            indeterminate,
            if indeterminate == 1 { "" } else { "s" }
        )?;
    }
    print_measures(out, found)
}

/// A line per body pair: its contacts, how many are correct by the scene's
/// oracle and how many right by the geometric one. The contacts come
/// grouped by pair.
fn print_pairs(out: &mut Out, found: &Found) -> CliResult {
    outln!(
        out,
        "{:<32} {:>8} {:>8} {:>9}",
        "pair (a — b)",
        "contacts",
        "correct",
        "geo right"
    )?;
    let contacts = &found.set.contacts;
    let mut i = 0;
    while i < contacts.len() {
        let key = (contacts[i].a, contacts[i].b);
        let mut j = i;
        while j < contacts.len() && (contacts[j].a, contacts[j].b) == key {
            j += 1;
        }
        let pair = &found.qualities[i..j];
        let correct = pair.iter().filter(|q| q.correct == Some(true)).count();
        let geo_right = pair.iter().filter(|q| q.geo.is_right()).count();
        outln!(
            out,
            "{:<32} {:>8} {:>8} {:>9}",
            format!("{} — {}", found.name(key.0), found.name(key.1)),
            j - i,
            correct,
            geo_right
        )?;
        i = j;
    }
    Ok(())
}

/// The measures by the chosen oracle, then by the geometric one.
fn print_measures(out: &mut Out, found: &Found) -> CliResult {
    let (set, measures) = (&found.set, &found.measures);
    let percent = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.1} %"));
    let minimal = match measures.oracle {
        OracleChoice::Scene => measures.scene_min_contacts,
        OracleChoice::Geometric => Some(measures.geo_min_contacts as u64),
    };
    outln!(out, "count {} (minimal {}), quality {}, coverage {}, area coverage P {}, excess {} ({} oracle); broad phase {:.2} ms ({} tetrahedron pairs), method {:.2} ms",
        measures.count,
        minimal.map_or("-".to_string(), |m| m.to_string()),
        percent(measures.quality),
        percent(measures.coverage),
        show(measures.area_coverage, 3),
        show(measures.excess, 1),
        measures.oracle.id(),
        set.ms_broad,
        set.candidate_pairs,
        set.ms_method
    )?;
    outln!(out, "geometric oracle: {} right, {} indeterminate-right, {} wrong; quality {}, coverage {}, area coverage P {}, minimal {}, excess {}",
        measures.geo_right,
        measures.geo_indeterminate_right,
        measures.geo_wrong,
        percent(measures.geo_quality),
        percent(measures.geo_coverage),
        show(measures.geo_area_coverage, 3),
        measures.geo_min_contacts,
        show(measures.geo_excess, 1),
    )?;
    Ok(())
}
