//! Scene files beyond the documented limits (`contactlab::scene::limits`)
//! are refused up front with a message that names the body or key and the
//! limit (issue 9), and the README lists every limit.

use contactlab::scene::builtin::builtin_text;
use contactlab::scene::limits;
use contactlab::scene::{load_scene, LoadOptions};

fn refused(text: &str, options: &LoadOptions) -> String {
    load_scene("limits.json", text, options)
        .err()
        .unwrap_or_else(|| panic!("accepted: {text}"))
        .to_string()
}

fn scene(gravity: &str, bodies: &str, oracle: &str) -> String {
    format!(
        r#"{{ "format": "contactlab-scene/1", "id": "t", "gravity": {gravity}, "bodies": [
            {{ "name": "ground", "fixed": true, "shape": {{ "type": "box", "size": [10, 1, 10] }}, "position": [0, -0.5, 0] }},
            {bodies} ] {oracle} }}"#
    )
}

fn block(extra: &str) -> String {
    format!(
        r#"{{ "name": "block", "shape": {{ "type": "box", "size": [1, 1, 1] }}, "position": [0, 0.5, 0] {extra} }}"#
    )
}

#[test]
fn absurd_numbers_are_refused_with_the_body_and_the_limit_named() {
    let g = "[0, -9.81, 0]";
    let cases = [
        (
            scene(g, &block(r#", "density": 1e-320"#), ""),
            r#"bodies[1] "block".density: must be from 0.001 to 1000000 kg/m³"#,
        ),
        (
            scene("[0, -1e308, 0]", &block(""), ""),
            "gravity: at most 2500 m/s² is supported",
        ),
        (
            scene(g, &block(r#", "velocity": [1e200, 0, 0]"#), ""),
            r#"bodies[1] "block".velocity: at most 10000 m/s"#,
        ),
        (
            scene(
                g,
                r#"{ "name": "far", "shape": { "type": "box", "size": [1, 1, 1] }, "position": [1e300, 0, 0] }"#,
                "",
            ),
            r#"bodies[1] "far": every coordinate must be within ±100000 m"#,
        ),
        (
            scene(
                g,
                r#"{ "name": "dust", "shape": { "type": "box", "size": [1e-5, 1e-5, 1e-5] } }"#,
                "",
            ),
            r#"bodies[1] "dust": the body's size"#,
        ),
        (
            scene(
                g,
                &block(""),
                r#", "oracle": { "type": "arch", "up": [0, 1, 0], "ground": "ground", "min_contacts": 4, "expected_area": 1e-320 }"#,
            ),
            "oracle.expected_area: must be at least 0.00000001 m²",
        ),
    ];
    for (text, words) in cases {
        let message = refused(&text, &LoadOptions::default());
        assert!(message.contains(words), "{words}\n  got: {message}");
    }
}

#[test]
fn counts_beyond_the_limits_are_refused_before_any_work() {
    let many: Vec<String> = (0..=limits::MAX_BODIES)
        .map(|i| {
            format!(r#"{{ "name": "b{i}", "shape": {{ "type": "box", "size": [1, 1, 1] }}, "position": [{}, 0.5, 0] }}"#, 2 * i)
        })
        .collect();
    let message = refused(
        &scene("[0, -9.81, 0]", &many.join(","), ""),
        &LoadOptions::default(),
    );
    assert!(
        message.contains("bodies: at most 500 bodies are supported, the scene has 502"),
        "{message}"
    );

    let profile: Vec<String> = (0..=limits::MAX_PROFILE_POINTS)
        .map(|i| {
            let a = i as f64 * std::f64::consts::TAU / (limits::MAX_PROFILE_POINTS + 1) as f64;
            format!("[{}, {}]", a.cos(), a.sin())
        })
        .collect();
    let prism = format!(
        r#"{{ "name": "coin", "shape": {{ "type": "prism", "profile": [{}], "depth": 0.1 }}, "position": [0, 2, 0] }}"#,
        profile.join(",")
    );
    let message = refused(&scene("[0, -9.81, 0]", &prism, ""), &LoadOptions::default());
    assert!(
        message.contains(r#"bodies[1] "coin".shape.profile: at most 2000 points"#),
        "{message}"
    );

    // The Wall refined twice: 64 times its tetrahedra, still allowed; a
    // scene whose one body would pass the limit is refused before refining.
    let wall = builtin_text("wall").unwrap();
    load_scene(
        "builtin:wall",
        wall,
        &LoadOptions {
            refine: 2,
            ..Default::default()
        },
    )
    .expect("the Wall refined twice stays within the limits");
}

#[test]
fn a_body_at_ten_kilometres_is_within_the_limits() {
    let text = scene(
        "[0, -9.81, 0]",
        r#"{ "name": "far", "shape": { "type": "box", "size": [1, 1, 1] }, "position": [10000, 0.5, 0] }"#,
        "",
    );
    load_scene("t.json", &text, &LoadOptions::default()).unwrap();
}

#[test]
fn the_readme_lists_every_limit() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let budgets = contactlab::contact::budget::described();
    let files = [format!(
        "contacts and poses files: at most {} MB",
        contactlab::contact_file::MAX_CONTACT_FILE_BYTES / 1_000_000
    )];
    for line in limits::described().into_iter().chain(budgets).chain(files) {
        assert!(
            readme.contains(&line),
            "README.md does not list the limit \"{line}\""
        );
    }
}
