//! The README's first numbers are what the page shows by default (issue 20,
//! item 10): its headline quote must be the default page's, the Pillar with
//! the default settings at its measure step, as the core computes it and
//! as the page's own code formats it. The scene and the headline's text
//! come from the page's modules, run in Node by `tests/readme_headline.mjs`
//! (`DEFAULT_SCENE`, and `headlineText` in `www/ui/readout-table.js`), so a
//! change of the page's formatter fails this test too.

use contactlab::scene::builtin::builtin_text;
use contactlab::sim::{SimSettings, Simulation};
use std::io::Write;
use std::process::{Command, Stdio};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/readme_headline.mjs");

/// Runs `node tests/readme_headline.mjs <mode>` with `input` on its stdin
/// and returns its output's one line.
fn page(mode: &str, input: &str) -> String {
    let mut child = Command::new("node")
        .arg(SCRIPT)
        .arg(mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("`node` runs (Node.js must be on PATH for this test)");
    let mut stdin = child.stdin.take().expect("a pipe to node");
    stdin
        .write_all(input.as_bytes())
        .expect("node reads its input");
    drop(stdin);
    let out = child.wait_with_output().expect("node finishes");
    assert!(
        out.status.success(),
        "node tests/readme_headline.mjs {mode} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8 from node")
        .trim_end()
        .to_string()
}

/// The text the README quotes after `a headline says "`.
fn readme_quote() -> String {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = flat
        .find("a headline says \"")
        .expect("the README quotes the headline under the view")
        + "a headline says \"".len();
    flat[start..start + flat[start..].find('"').unwrap()].to_string()
}

#[test]
fn the_readme_s_headline_is_the_default_page_s() {
    let scene = page("scene", "");
    let settings = SimSettings::default();
    let tolerance = settings.tol_deg;
    let text = builtin_text(&scene)
        .unwrap_or_else(|| panic!("the page's DEFAULT_SCENE {scene:?} is no built-in scene"));
    let mut sim = Simulation::new(&scene, text, settings).unwrap();
    let step = sim.scene().settings.measure_step;
    let record = sim.run_to(step).unwrap();
    let input = serde_json::json!({
        "record": record.to_json(),
        "info": { "oracle": sim.scene().oracle.type_name() },
        "tolerance_deg": tolerance,
    });
    let shown = page("headline", &input.to_string());
    assert!(
        shown.contains(" normals right (") && shown.contains("scene's oracle"),
        "the page's headline for the default scene has no quality and oracle: {shown}"
    );
    assert_eq!(
        readme_quote(),
        shown,
        "README.md quotes another headline than the default page shows"
    );
}
