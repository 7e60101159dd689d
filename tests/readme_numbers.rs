//! The README's first numbers are what the page shows by default (issue 20,
//! item 10): its headline quote must be the default page's, the Pillar with
//! the default settings at its measure step, as the core computes it.

use contactlab::scene::builtin::builtin_text;
use contactlab::sim::{SimSettings, Simulation};

/// The default page's scene (`DEFAULT_SCENE` in `www/state/page-state.js`).
const DEFAULT_SCENE: &str = "pillar";

#[test]
fn the_readme_s_headline_is_the_default_page_s() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = flat
        .find("a headline says \"")
        .expect("the README quotes the headline under the view")
        + "a headline says \"".len();
    let quoted = &flat[start..start + flat[start..].find('"').unwrap()];

    let settings = SimSettings::default();
    let tolerance = settings.tol_deg;
    let mut sim = Simulation::new(
        DEFAULT_SCENE,
        builtin_text(DEFAULT_SCENE).unwrap(),
        settings,
    )
    .unwrap();
    let step = sim.scene().settings.measure_step;
    let record = sim.run_to(step).unwrap();
    let m = &record.measures;
    // The page's headline (`headlineParts` in www/ui/readout-table.js),
    // which names the headline's oracle (the scene's by default).
    let expected = format!(
        "Step {} · {} s · {} of {} normals right ({:.1} %) within {}° · scene's oracle: {}",
        record.step,
        record.time,
        m.correct.unwrap(),
        m.count,
        m.quality.unwrap(),
        tolerance,
        sim.scene().oracle.type_name()
    );
    assert_eq!(
        quoted, expected,
        "README.md quotes another headline than the default page shows"
    );
}
