//! `cargo xtask bench`: milliseconds per step (broad phase, method, solver;
//! median over the measured steps) for the Pillar, the Wall and the Arch
//! with every method, with the default (accelerated) solver and with the
//! paper's (printed, 1000 sweeps), natively (the release CLI) and in
//! headless Chromium (the page's `#bench` mode, run in its worker); the
//! solvers' iterations and cost per contact visit, the ratio wasm/native,
//! Compare on the Pillar in the page, the page's first drawn frame and the
//! sizes of the page's two wasm modules, and the published site's loading
//! (bytes, ready times on slow links, Lighthouse: `tests/e2e/loading.mjs`).
//! Issue 24's targets are checked and every miss listed.
//! The geometric oracle's time per step (`ms_oracle`, a judge's cost that
//! every step pays but no method does) is reported natively next to the
//! method's, outside the totals.
//! Prints a Markdown report and writes it to docs/bench.md. `bench
//! --loading` measures only the loading and replaces that section of
//! docs/bench.md.

use crate::cmd::{self, Error, Result};
use crate::{dist, server, setup, wasm};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// (scene, measured steps): fewer for the Wall, whose steps are slow.
/// The paper's three structures, and Cheng Yi & Drumwright's two sphere benchmarks
/// (its table II times its per-step cost on them).
const WORKLOADS: [(&str, usize); 5] = [
    ("pillar", 20),
    ("wall", 3),
    ("arch", 10),
    ("spinning-sphere", 20),
    ("rolling-spheres", 20),
];
const WARM_UP: usize = 2;

/// (scene, method, timing) of one browser workload.
type BrowserTiming = (String, String, String, Timing);

/// What the page's runs give: the workloads' timings, the default page's
/// first frame, each engine's first frame after it is chosen, and Compare
/// on the Pillar to step [`COMPARE_STEPS`] (ms).
struct BrowserResults {
    timings: Vec<BrowserTiming>,
    first_frame: f64,
    engine_frames: Vec<(String, f64)>,
    compare: f64,
}

/// The step Compare runs the Pillar to, in the page.
const COMPARE_STEPS: usize = 100;

/// The solvers every workload runs with: (title, the `solver` setting's
/// value). The workloads run on the scenes' own meshes (TetGen for the
/// built-in scenes).
const SOLVERS: [(&str, &str); 2] = [
    ("The default solver (accelerated)", "accelerated"),
    ("The paper's solver (printed, 1000 sweeps)", "printed"),
];

/// Median milliseconds of one workload.
#[derive(Clone, Copy, Default)]
struct Timing {
    broad: f64,
    method: f64,
    solver: f64,
    /// The geometric oracle's (native only; not part of the total).
    oracle: f64,
    /// Solver iterations per step and nanoseconds per contact visit (one
    /// contact's rows in one sweep or iteration), natively.
    iterations: f64,
    ns_per_visit: f64,
}

impl Timing {
    fn total(&self) -> f64 {
        self.broad + self.method + self.solver
    }
}

/// The ids and kinds ("local", "region") of the registry's methods under
/// test (not the reference), from the release CLI's `methods --json`: the
/// registry is the one list.
fn methods_under_test(root: &Path) -> Result<Vec<(String, String)>> {
    let binary = root.join("target/release/contactlab");
    let mut command = Command::new(&binary);
    command.args(["methods", "--json"]);
    let text = cmd::output(&mut command)
        .ok_or_else(|| Error::new(format!("`{} methods --json` failed", binary.display())))?;
    let registry: Value = serde_json::from_str(&text)
        .map_err(|e| Error::new(format!("`contactlab methods --json` is not JSON: {e}")))?;
    let entries = registry_entries(&registry);
    if entries.is_empty() {
        return Err(Error::new("`contactlab methods --json` listed no methods"));
    }
    Ok(entries)
}

/// The `id` and `kind` of every method in the registry's JSON list whose
/// `reference` and `paper_code` are false.
fn registry_entries(registry: &Value) -> Vec<(String, String)> {
    let text = |method: &Value, key: &str| method[key].as_str().unwrap_or_default().to_string();
    registry
        .as_array()
        .into_iter()
        .flatten()
        // The `@paper-code` variants (the paper's reference code's rules)
        // cost what their printed methods cost; the benchmark times the
        // printed ones.
        .filter(|m| m["reference"] != true && m["paper_code"] != true)
        .map(|m| (text(m, "id"), text(m, "kind")))
        .filter(|(id, _)| !id.is_empty())
        .collect()
}

/// One line of a tool's output read as a JSON object (the CLI's step
/// records, the page's bench results); any other line is `None`.
fn json_object(line: &str) -> Option<Value> {
    serde_json::from_str::<Value>(line)
        .ok()
        .filter(Value::is_object)
}

/// The number under `key`.
fn json_number(object: &Value, key: &str) -> Option<f64> {
    object.get(key)?.as_f64()
}

/// The numbers of the list under `key`.
fn json_numbers(object: &Value, key: &str) -> Option<Vec<f64>> {
    object
        .get(key)?
        .as_array()?
        .iter()
        .map(Value::as_f64)
        .collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => 0.5 * (values[n / 2 - 1] + values[n / 2]),
    }
}

/// Whether `value` meets `target` (a missing measurement does not).
fn within(value: f64, target: f64) -> bool {
    value.is_finite() && value <= target
}

fn native(root: &Path, scene: &str, method: &str, solver: &str, steps: usize) -> Result<Timing> {
    let binary = root.join("target/release/contactlab");
    let mut command = Command::new(&binary);
    command.args([
        "run",
        scene,
        "--method",
        method,
        "--solver",
        solver,
        "--steps",
        &(steps + WARM_UP).to_string(),
        "--json",
    ]);
    let out = cmd::output(&mut command)
        .ok_or_else(|| Error::new(format!("`{}` failed", cmd::display(&command))))?;
    let lines: Vec<Value> = out.lines().skip(WARM_UP).filter_map(json_object).collect();
    let pick = |key: &str| median(lines.iter().filter_map(|l| json_number(l, key)).collect());
    let visits = lines.iter().filter_map(|l| {
        let visits = json_number(l, "iterations")? * json_number(l, "count")?;
        (visits > 0.0).then(|| json_number(l, "ms_solver").map(|ms| ms * 1e6 / visits))?
    });
    Ok(Timing {
        broad: pick("ms_broad"),
        method: pick("ms_method"),
        solver: pick("ms_solver"),
        oracle: pick("ms_oracle"),
        iterations: pick("iterations"),
        ns_per_visit: median(visits.collect()),
    })
}

/// Runs the page's `#bench` mode for every workload through
/// xtask/bench.mjs; returns (scene, method) → timing, and the first frame.
fn browser(root: &Path, methods: &[String], engines: &[String]) -> Result<BrowserResults> {
    setup::npm_packages(root)?;
    let chromium = setup::chromium()?;
    let server = server::bind(&root.join("www"), 0, false)?;
    let url = format!("http://127.0.0.1:{}/", server.port()?);
    server.spawn();
    let mut jobs = Vec::new();
    for (_, solver) in SOLVERS {
        for (scene, steps) in WORKLOADS {
            for method in methods {
                jobs.push(format!("{scene}:{method}:{steps}:{solver}"));
            }
        }
    }
    let mut command = Command::new("node");
    command
        .current_dir(root)
        .arg("xtask/bench.mjs")
        .arg(&url)
        .arg(WARM_UP.to_string())
        .arg(format!("--engines={}", engines.join(",")))
        .arg(format!("--compare-steps={COMPARE_STEPS}"))
        .args(&jobs)
        .env("CHROMIUM", &chromium);
    let out = cmd::output(&mut command).ok_or_else(|| {
        Error::new(format!(
            "`{}` failed (is the page's #bench mode there?)",
            cmd::display(&command)
        ))
    })?;
    let mut results = Vec::new();
    let mut first_frame = f64::NAN;
    let mut engine_frames = Vec::new();
    let mut compare = f64::NAN;
    for line in out.lines().filter_map(json_object) {
        if let Some(ms) = json_number(&line, "compare_ms") {
            compare = ms;
            continue;
        }
        if let Some(ms) = json_number(&line, "engine_first_frame_ms") {
            if let Some(id) = line["engine"].as_str() {
                engine_frames.push((id.to_string(), ms));
            }
            continue;
        }
        if let Some(ms) = json_number(&line, "first_frame_ms") {
            if line.get("method").is_none() {
                first_frame = ms;
                continue;
            }
        }
        let field = |key: &str| line[key].as_str().map(str::to_string);
        let (Some(scene), Some(method)) = (field("scene"), field("method")) else {
            continue;
        };
        // The page reports the solver it ran.
        let solver = field("solver").unwrap_or_default();
        let pick = |key: &str| {
            json_numbers(&line, key)
                .map(|v| median(v.into_iter().skip(WARM_UP).collect()))
                .unwrap_or(f64::NAN)
        };
        results.push((
            scene,
            method,
            solver,
            Timing {
                broad: pick("ms_broad"),
                method: pick("ms_method"),
                solver: pick("ms_solver"),
                oracle: f64::NAN,
                iterations: f64::NAN,
                ns_per_visit: f64::NAN,
            },
        ));
    }
    Ok(BrowserResults {
        timings: results,
        first_frame,
        engine_frames,
        compare,
    })
}

fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    format!("{cores} cores, {cpu}")
}

/// The Loading section: the site as `dist` writes it, measured by
/// tests/e2e/loading.mjs.
fn loading(root: &Path) -> Result<String> {
    let site = root.join("target/site-bench");
    if site.exists() {
        std::fs::remove_dir_all(&site)
            .map_err(|e| Error::new(format!("cannot remove {}: {e}", site.display())))?;
    }
    dist::run(root, &dist::Options::new(site.clone(), None))?;
    let lighthouse = setup::lighthouse(root)?;
    setup::npm_packages(root)?;
    let chromium = setup::chromium()?;
    cmd::heading("loading: node tests/e2e/loading.mjs (a few minutes)");
    let out = Command::new("node")
        .current_dir(root)
        .arg("tests/e2e/loading.mjs")
        .env("CONTACTLAB_SITE", &site)
        .env("LIGHTHOUSE", &lighthouse)
        .env("CHROMIUM", &chromium)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| Error::new(format!("could not start node: {e}")))?;
    if !out.status.success() {
        return Err(Error::new(format!(
            "tests/e2e/loading.mjs failed ({})",
            out.status
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `cargo xtask bench --loading`: measures the loading only and puts its
/// section into docs/bench.md in place of the old one.
pub fn run_loading(root: &Path) -> Result<()> {
    let section = loading(root)?;
    let path = root.join("docs/bench.md");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))?;
    let updated = splice_section(&text, "## Loading", &section);
    std::fs::write(&path, updated)
        .map_err(|e| Error::new(format!("cannot write {}: {e}", path.display())))?;
    print!("{section}");
    println!("\nwrote the Loading section of docs/bench.md");
    Ok(())
}

/// `text` with the section that starts at the line `heading` (up to the
/// next `## ` heading) replaced by `section`; without one, `section` goes
/// before "## Targets missed", or at the end.
fn splice_section(text: &str, heading: &str, section: &str) -> String {
    let section = format!("{}\n\n", section.trim_end());
    let start = text
        .match_indices(heading)
        .map(|(at, _)| at)
        .find(|&at| at == 0 || text[..at].ends_with('\n'));
    match start {
        Some(start) => {
            let after = start + heading.len();
            let end = text[after..]
                .find("\n## ")
                .map_or(text.len(), |offset| after + offset + 1);
            format!("{}{section}{}", &text[..start], &text[end..])
        }
        None => match text.find("\n## Targets missed") {
            Some(at) => format!("{}{section}{}", &text[..=at], &text[at + 1..]),
            None => format!("{}\n\n{section}", text.trim_end()),
        },
    }
}

/// Everything `bench` measures before it writes the report.
struct Measured {
    /// The methods under test, and those of them of kind "region".
    methods: Vec<String>,
    region_methods: Vec<String>,
    /// (scene, method, solver, timing) of every native run.
    native: Vec<(&'static str, String, &'static str, Timing)>,
    page: BrowserResults,
    /// The lean module's bytes (what every visitor loads) and the full
    /// one's (parry3d added, loaded when parry is first run).
    wasm_bytes: u64,
    full_wasm_bytes: u64,
}

impl Measured {
    fn native_of(&self, scene: &str, method: &str, solver: &str) -> Timing {
        self.native
            .iter()
            .find(|(s, m, v, _)| *s == scene && m == method && *v == solver)
            .map(|r| r.3)
            .unwrap_or_default()
    }

    fn wasm_of(&self, scene: &str, method: &str, solver: &str) -> f64 {
        self.page
            .timings
            .iter()
            .find(|(s, m, v, _)| s == scene && m == method && v == solver)
            .map_or(f64::NAN, |r| r.3.total())
    }
}

/// The Markdown report being written, and the targets it found missed.
#[derive(Default)]
struct Report {
    text: String,
    misses: Vec<String>,
}

impl Report {
    /// A row of a figure-and-target table; a miss when not within target.
    fn figure(&mut self, what: String, value: f64, unit: &str, target: f64) {
        let _ = writeln!(
            self.text,
            "| {what} | {value:.2} {unit} | ≤ {target} {unit} |"
        );
        if !within(value, target) {
            self.misses.push(format!(
                "{what}: {value:.2} {unit} (target {target} {unit})"
            ));
        }
    }
}

pub fn run(root: &Path) -> Result<()> {
    let measured = measure(root)?;
    let mut report = Report::default();
    let _ = writeln!(report.text, "# Benchmarks\n");
    let _ = writeln!(report.text, "Regenerate with `cargo xtask bench`. Machine: {}. Milliseconds per step, the median of the measured steps after {WARM_UP} warm-up steps, h = 0.01 s, on the scenes' own meshes (TetGen), with the default solver (accelerated: it stops when converged, at most 1000 iterations) and with the paper's (printed: 1000 Gauss-Seidel sweeps). Native: the release CLI; wasm: the same workload in the page's Web Worker in headless Chromium (`#bench` mode). Oracle: the geometric oracle judging the step's contacts (native; a judge's cost, outside the totals). Iterations: the solver's per step; ns / visit: native solver time per contact per iteration.\n", machine());
    for (title, solver) in SOLVERS {
        let _ = writeln!(report.text, "## {title}\n");
        for (scene, steps) in WORKLOADS {
            workload_table(&mut report, &measured, (title, solver), (scene, steps));
        }
    }
    solver_and_wall(&mut report, &measured);
    the_page(&mut report, &measured);
    engines_in_the_page(&mut report, &measured);
    report.text.push_str(&loading(root)?);
    let _ = writeln!(report.text);
    let _ = writeln!(report.text, "## Targets missed\n");
    if report.misses.is_empty() {
        let _ = writeln!(report.text, "None.");
    }
    for m in &report.misses {
        let _ = writeln!(report.text, "- {m}");
    }
    print!("{}", report.text);
    let analysis = std::fs::read_to_string(root.join("docs/bench-notes.md")).unwrap_or_default();
    std::fs::write(
        root.join("docs/bench.md"),
        format!("{}\n{analysis}", report.text),
    )
    .map_err(|e| Error::new(format!("cannot write docs/bench.md: {e}")))?;
    println!("\nwrote docs/bench.md");
    Ok(())
}

/// Builds the release CLI and the page, and runs every workload natively
/// and in the page.
fn measure(root: &Path) -> Result<Measured> {
    cmd::heading("cargo build --release (native CLI)");
    cmd::run(
        cmd::cargo()
            .current_dir(root)
            .args(["build", "--release", "--bin", "contactlab"]),
    )?;
    wasm::build(root)?;
    let entries = methods_under_test(root)?;
    let of_kind = |wanted: &str| -> Vec<String> {
        entries
            .iter()
            .filter(|(_, kind)| kind == wanted)
            .map(|(id, _)| id.clone())
            .collect()
    };
    let methods: Vec<String> = entries.iter().map(|(id, _)| id.clone()).collect();
    cmd::heading("native runs");
    let mut native_results = Vec::new();
    for (_, solver) in SOLVERS {
        for (scene, steps) in WORKLOADS {
            for method in &methods {
                eprint!("\rnative {scene} {method:<20} {solver:<12}");
                let timing = native(root, scene, method, solver, steps)?;
                native_results.push((scene, method.clone(), solver, timing));
            }
        }
    }
    eprintln!("\rnative done{:40}", "");
    cmd::heading("headless Chromium runs (#bench mode)");
    let page = browser(root, &methods, &of_kind("engine"))?;
    let file_bytes = |path: &str| std::fs::metadata(root.join(path)).map_or(0, |m| m.len());
    Ok(Measured {
        region_methods: of_kind("region"),
        methods,
        native: native_results,
        page,
        wasm_bytes: file_bytes("www/pkg/contactlab_bg.wasm"),
        full_wasm_bytes: file_bytes("www/pkg/full/contactlab_bg.wasm"),
    })
}

/// One workload's table (every method, native and wasm) and its misses:
/// the per-step targets in wasm, issue 11's region budget and the ratio
/// wasm / native.
fn workload_table(
    report: &mut Report,
    measured: &Measured,
    (title, solver): (&str, &str),
    (scene, steps): (&str, usize),
) {
    let target = match scene {
        "pillar" => Some(33.0),
        "wall" => Some(250.0),
        _ => None,
    };
    let _ = writeln!(report.text, "### {scene} ({steps} measured steps)\n");
    let _ = writeln!(
        report.text,
        "| method | broad | method | oracle | solver | iterations | ns / visit | native total | × Opposing | wasm total | wasm / native |"
    );
    let _ = writeln!(
        report.text,
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    // Issue 11's budget for a region method: at most 3 × Opposing's
    // detection (broad phase + method) per Pillar step, native.
    let detection = |t: &Timing| t.broad + t.method;
    let opposing = detection(&measured.native_of(scene, "opposing", solver));
    for method in &measured.methods {
        let method = method.as_str();
        let n = measured.native_of(scene, method, solver);
        let versus_opposing = detection(&n) / opposing;
        let wasm_total = measured.wasm_of(scene, method, solver);
        let ratio = wasm_total / n.total();
        let _ = writeln!(
            report.text,
            "| {method} | {:.2} | {:.2} | {:.2} | {:.2} | {:.0} | {:.1} | {:.2} | {:.1} | {:.2} | {:.2} |",
            n.broad,
            n.method,
            n.oracle,
            n.solver,
            n.iterations,
            n.ns_per_visit,
            n.total(),
            versus_opposing,
            wasm_total,
            ratio
        );
        let misses = &mut report.misses;
        if let Some(t) = target {
            if !within(wasm_total, t) {
                misses.push(format!(
                    "{title}, {scene} / {method}: {wasm_total:.1} ms per step in wasm (target {t} ms)"
                ));
            }
        }
        if scene == "pillar"
            && measured.region_methods.iter().any(|r| r == method)
            && !within(versus_opposing, 3.0)
        {
            misses.push(format!(
                "{title}, pillar / {method}: detection {versus_opposing:.1} × Opposing's (target 3)"
            ));
        }
        if !within(ratio, 1.5) {
            misses.push(format!(
                "{title}, {scene} / {method}: wasm / native = {ratio:.2} (target 1.5)"
            ));
        }
    }
    let _ = writeln!(report.text);
}

/// Issue 24's targets: the solver's cost, the Wall in the browser and
/// Compare on the Pillar.
fn solver_and_wall(report: &mut Report, measured: &Measured) {
    let _ = writeln!(report.text, "## The solver and the Wall (issue 24)\n");
    let _ = writeln!(report.text, "| figure | measured | target |");
    let _ = writeln!(report.text, "| --- | ---: | ---: |");
    for (title, solver) in SOLVERS {
        let wall = measured.native_of("wall", "semi-local", solver);
        report.figure(
            format!("{title}: solver cost per contact visit, Wall with semi-local, native"),
            wall.ns_per_visit,
            "ns",
            10.0,
        );
    }
    report.figure(
        "The paper's solver: Wall with semi-local per step in the browser".to_string(),
        measured.wasm_of("wall", "semi-local", "printed"),
        "ms",
        16.0,
    );
    for (title, solver) in SOLVERS {
        let slowest = measured
            .methods
            .iter()
            .map(|m| (measured.wasm_of("wall", m, solver), m))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((ms, method)) = slowest {
            report.figure(
                format!("{title}: the slowest method's Wall step in the browser ({method})"),
                ms,
                "ms",
                100.0,
            );
        }
    }
    let wall = measured.native_of("wall", "semi-local", "accelerated");
    report.figure(
        "Semi-local's detection (broad phase + method) on the Wall, native".to_string(),
        wall.broad + wall.method,
        "ms",
        1.5,
    );
    report.figure(
        format!("Compare on the Pillar to step {COMPARE_STEPS} in the page (default solver)"),
        measured.page.compare / 1000.0,
        "s",
        2.0,
    );
    let _ = writeln!(report.text);
}

/// The page's first frame and its wasm modules' sizes (the lean one's
/// target).
fn the_page(report: &mut Report, measured: &Measured) {
    let (first_frame, wasm_bytes) = (measured.page.first_frame, measured.wasm_bytes);
    let _ = writeln!(report.text, "## The page\n");
    let _ = writeln!(
        report.text,
        "- First drawn frame: {first_frame:.0} ms after navigation (target 1000 ms)."
    );
    let _ = writeln!(
        report.text,
        "- wasm file the page starts: {:.0} KB (target 1500 KB); the full module, fetched when parry is first run: {:.0} KB.\n",
        wasm_bytes as f64 / 1024.0,
        measured.full_wasm_bytes as f64 / 1024.0
    );
    if !within(first_frame, 1000.0) {
        report
            .misses
            .push(format!("first frame {first_frame:.0} ms (target 1000 ms)"));
    }
    if wasm_bytes as f64 > 1.5 * 1024.0 * 1024.0 {
        report
            .misses
            .push(format!("wasm file {wasm_bytes} bytes (target 1.5 MB)"));
    }
}

/// Each engine's first frame after it is chosen, and its Pillar step.
fn engines_in_the_page(report: &mut Report, measured: &Measured) {
    let _ = writeln!(report.text, "## The engines in the page\n");
    let _ = writeln!(report.text, "Choosing an engine in the picker of a loaded default page, until its first frame is drawn (its adapter and package fetched from the page's own server on this machine, compiled and run): target 2000 ms. An engine plays the Pillar in real time when its wasm total per step (the tables above) is within the scene's time step, 10 ms.\n");
    let _ = writeln!(
        report.text,
        "| engine | first frame after the choice | Pillar step in the page (default solver) |"
    );
    let _ = writeln!(report.text, "| --- | ---: | ---: |");
    for (engine, ms) in &measured.page.engine_frames {
        let pillar = measured.wasm_of("pillar", engine, "accelerated");
        let _ = writeln!(report.text, "| {engine} | {ms:.0} ms | {pillar:.2} ms |");
        if !within(*ms, 2000.0) {
            report.misses.push(format!(
                "{engine}: first frame {ms:.0} ms after the choice (target 2000 ms)"
            ));
        }
        if !within(pillar, 10.0) {
            report.misses.push(format!(
                "{engine}: {pillar:.1} ms per Pillar step in the page (real time: 10 ms)"
            ));
        }
    }
    let _ = writeln!(report.text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_from_the_cli_and_page_json() {
        let line = json_object(
            r#"{"count":63,"ms_broad":0.08,"ms_method":1.5e0,"ms_solver":3.25,"quality":80.6}"#,
        )
        .unwrap();
        assert_eq!(json_number(&line, "ms_broad"), Some(0.08));
        assert_eq!(json_number(&line, "ms_method"), Some(1.5));
        assert_eq!(json_number(&line, "quality"), Some(80.6));
        assert_eq!(json_number(&line, "missing"), None);
        let page = json_object(
            r#"{"scene":"pillar","method":"opposing","ms_solver":[3,1, 2],"ms_broad":[]}"#,
        )
        .unwrap();
        assert_eq!(json_numbers(&page, "ms_solver"), Some(vec![3.0, 1.0, 2.0]));
        assert_eq!(json_numbers(&page, "ms_broad"), Some(vec![]));
        assert!(json_object("Pillar: 20 steps").is_none());
        assert!(json_object("[1, 2]").is_none());
    }

    #[test]
    fn registry_entries_skip_the_reference_and_the_variants_and_carry_the_kind() {
        let json = r#"[{"help":"a","id":"opposing","kind":"local","name":"O","paper_code":false,"reads":[],"reference":false},{"help":"v","id":"opposing@paper-code","kind":"local","name":"O2","paper_code":true,"reads":[],"reference":false},{"help":"b","id":"contour-region","kind":"region","name":"C","paper_code":false,"reads":[],"reference":false},{"help":"c","id":"reference","kind":"reference","name":"R","paper_code":false,"reads":[],"reference":true}]"#;
        let entries = registry_entries(&serde_json::from_str(json).unwrap());
        let expected = [("opposing", "local"), ("contour-region", "region")];
        assert_eq!(entries.len(), expected.len());
        for ((id, kind), (want_id, want_kind)) in entries.iter().zip(expected) {
            assert_eq!((id.as_str(), kind.as_str()), (want_id, want_kind));
        }
    }

    #[test]
    fn the_loading_section_replaces_its_old_self_or_goes_before_the_misses() {
        let old = "# B\n\n## The page\n\nx\n\n## Loading\n\nold\n\n## Targets missed\n\nNone.\n";
        assert_eq!(
            splice_section(old, "## Loading", "## Loading\n\nnew\n"),
            "# B\n\n## The page\n\nx\n\n## Loading\n\nnew\n\n## Targets missed\n\nNone.\n"
        );
        let none = "# B\n\n## Targets missed\n\nNone.\n";
        assert_eq!(
            splice_section(none, "## Loading", "## Loading\n\nnew"),
            "# B\n\n## Loading\n\nnew\n\n## Targets missed\n\nNone.\n"
        );
    }

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(vec![]).is_nan());
        assert!(!within(f64::NAN, 1.0) && within(1.0, 1.0));
    }
}
