//! Malformed scene files give an error that names the source and the
//! problem (body and key where there is one); none panics and none loads.

use contactlab::scene::{load_scene, Erosion, LoadOptions};

const GOOD_BODY: &str = r#"{ "name": "ground", "fixed": true, "shape": { "type": "box", "size": [3, 0.3, 3] }, "position": [0, -0.15, 0] }"#;

fn scene_with(bodies: &str, extra: &str) -> String {
    format!(r#"{{ "format": "contactlab-scene/1", "id": "bad", {extra} "bodies": [{bodies}] }}"#)
}

fn free_box(shape: &str) -> String {
    format!(r#"{GOOD_BODY}, {{ "name": "stone", "shape": {shape}, "position": [0, 1, 0] }}"#)
}

/// (what is wrong, file text, words the message must contain)
fn cases() -> Vec<(&'static str, String, Vec<&'static str>)> {
    let ok_box = r#"{ "type": "box", "size": [1, 1, 1] }"#;
    vec![
        (
            "missing key",
            r#"{ "format": "contactlab-scene/1", "id": "bad" }"#.to_string(),
            vec!["bodies", "missing required key"],
        ),
        (
            "unknown top-level key",
            scene_with(&free_box(ok_box), r#""colour": "red","#),
            vec!["colour", "unknown key"],
        ),
        (
            "unknown body key",
            format!(
                r#"{{ "format": "contactlab-scene/1", "id": "bad", "bodies": [{GOOD_BODY}, {{ "name": "stone", "shape": {ok_box}, "mass": 3 }}] }}"#
            ),
            vec!["bodies[1] \"stone\"", "mass", "unknown key"],
        ),
        (
            "unknown shape type",
            scene_with(&free_box(r#"{ "type": "ellipsoid", "radius": 1 }"#), ""),
            vec!["bodies[1] \"stone\"", "shape.type", "ellipsoid"],
        ),
        (
            "NaN",
            scene_with(&free_box(ok_box), "")
                .replace("\"position\": [0, 1, 0]", "\"position\": [0, NaN, 0]"),
            vec!["not valid JSON"],
        ),
        (
            "overflowing number",
            scene_with(&free_box(ok_box), "")
                .replace("\"position\": [0, 1, 0]", "\"position\": [0, 1e999, 0]"),
            vec!["not valid JSON"],
        ),
        (
            "negative size",
            scene_with(&free_box(r#"{ "type": "box", "size": [1, -2, 1] }"#), ""),
            vec!["bodies[1] \"stone\"", "shape.size", "positive"],
        ),
        (
            "negative radius",
            scene_with(
                &free_box(
                    r#"{ "type": "frustum", "sides": 6, "bottom_radius": -0.2, "top_radius": 0.1, "height": 1 }"#,
                ),
                "",
            ),
            vec!["shape.bottom_radius", "positive"],
        ),
        (
            "non-closed mesh",
            scene_with(
                &free_box(
                    r#"{ "type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "triangles": [[0,2,1],[0,1,3],[0,3,2],[0,1,2]] }"#,
                ),
                "",
            ),
            vec!["bodies[1] \"stone\"", "shape", "not closed"],
        ),
        (
            "inward mesh",
            scene_with(
                &free_box(
                    r#"{ "type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "triangles": [[0,1,2],[0,3,1],[0,2,3],[1,3,2]] }"#,
                ),
                "",
            ),
            vec!["bodies[1] \"stone\"", "kernel"],
        ),
        (
            "kernel outside the shape",
            scene_with(
                &free_box(
                    r#"{ "type": "prism", "profile": [[0,0],[1,0],[1,1],[0,1]], "depth": 1, "kernel": [5, 5, 0] }"#,
                ),
                "",
            ),
            vec!["bodies[1] \"stone\"", "kernel", "does not see"],
        ),
        (
            "clockwise prism profile",
            scene_with(
                &free_box(
                    r#"{ "type": "prism", "profile": [[0,0],[0,1],[1,1],[1,0]], "depth": 1 }"#,
                ),
                "",
            ),
            vec!["shape", "counter-clockwise"],
        ),
        (
            "inverted tetrahedron",
            scene_with(
                &free_box(
                    r#"{ "type": "tetmesh", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "tets": [[0,2,1,3]] }"#,
                ),
                "",
            ),
            vec!["bodies[1] \"stone\"", "non-positive volume"],
        ),
        (
            "vertex index out of range",
            scene_with(
                &free_box(
                    r#"{ "type": "tetmesh", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "tets": [[0,1,2,9]] }"#,
                ),
                "",
            ),
            vec!["vertex 9"],
        ),
        ("no bodies", scene_with("", ""), vec!["bodies", "no bodies"]),
        (
            "only fixed bodies",
            scene_with(GOOD_BODY, ""),
            vec!["fixed"],
        ),
        (
            "duplicate body names",
            format!(
                r#"{{ "format": "contactlab-scene/1", "id": "bad", "bodies": [{GOOD_BODY}, {GOOD_BODY}] }}"#
            ),
            vec!["bodies[1] \"ground\"", "name", "already"],
        ),
        (
            "zero rotation axis",
            scene_with(
                &format!(
                    r#"{GOOD_BODY}, {{ "name": "stone", "shape": {ok_box}, "rotation": {{ "axis": [0, 0, 0], "degrees": 30 }} }}"#
                ),
                "",
            ),
            vec!["bodies[1] \"stone\"", "rotation.axis", "non-zero"],
        ),
        (
            "wrong format tag",
            scene_with(&free_box(ok_box), "").replace("contactlab-scene/1", "contactlab-scene/2"),
            vec!["format", "contactlab-scene/2"],
        ),
        (
            "truncated JSON",
            scene_with(&free_box(ok_box), "")[..60].to_string(),
            vec!["not valid JSON"],
        ),
        (
            "wrong type",
            scene_with(&free_box(r#"{ "type": "box", "size": "big" }"#), ""),
            vec!["shape.size", "expected an array of 3 numbers"],
        ),
        (
            "too few sides",
            scene_with(
                &free_box(
                    r#"{ "type": "frustum", "sides": 2, "bottom_radius": 1, "top_radius": 1, "height": 1 }"#,
                ),
                "",
            ),
            vec!["shape.sides", "from 3"],
        ),
        (
            "oracle names an unknown body",
            scene_with(
                &free_box(ok_box),
                r#""oracle": { "type": "pairs", "pairs": [ { "a": "ground", "b": "rock", "normals": [[0,1,0]], "min_contacts": 1 } ] },"#,
            ),
            vec!["oracle.pairs[0].b", "rock"],
        ),
        (
            "unknown oracle type",
            scene_with(&free_box(ok_box), r#""oracle": { "type": "magic" },"#),
            vec!["oracle.type", "magic"],
        ),
        (
            "negative friction",
            scene_with(&free_box(ok_box), r#""settings": { "friction": -1 },"#),
            vec!["settings.friction"],
        ),
        (
            "sphere with too few vertices",
            scene_with(
                &free_box(r#"{ "type": "sphere", "radius": 1, "vertices": 4 }"#),
                "",
            ),
            vec!["bodies[1] \"stone\"", "shape.vertices", "from 5"],
        ),
        (
            "sphere without a radius",
            scene_with(&free_box(r#"{ "type": "sphere", "vertices": 100 }"#), ""),
            vec!["shape", "radius"],
        ),
        (
            "friction pair names an unknown body",
            scene_with(
                &free_box(ok_box),
                r#""friction_pairs": [{ "bodies": ["ground", "rock"], "friction": 0 }],"#,
            ),
            vec!["friction_pairs[0].bodies", "rock"],
        ),
        (
            "negative pair friction",
            scene_with(
                &free_box(ok_box),
                r#""friction_pairs": [{ "bodies": ["ground", "stone"], "friction": -0.5 }],"#,
            ),
            vec!["friction_pairs[0].friction", "-0.5"],
        ),
        (
            "friction pair of one body",
            scene_with(
                &free_box(ok_box),
                r#""friction_pairs": [{ "bodies": ["stone", "stone"], "friction": 1 }],"#,
            ),
            vec!["friction_pairs[0].bodies", "twice"],
        ),
        (
            "friction pair given twice",
            scene_with(
                &free_box(ok_box),
                r#""friction_pairs": [{ "bodies": ["ground", "stone"], "friction": 1 }, { "bodies": ["stone", "ground"], "friction": 0 }],"#,
            ),
            vec!["friction_pairs[1].bodies", "already"],
        ),
        (
            "friction pair of three bodies",
            scene_with(
                &free_box(ok_box),
                r#""friction_pairs": [{ "bodies": ["ground", "stone", "ground"], "friction": 1 }],"#,
            ),
            vec!["friction_pairs[0].bodies", "exactly two"],
        ),
        (
            "friction pair with an unknown key",
            scene_with(
                &free_box(ok_box),
                r#""friction_pairs": [{ "bodies": ["ground", "stone"], "mu": 1 }],"#,
            ),
            vec!["friction_pairs[0]", "friction"],
        ),
        (
            "body is not an object",
            scene_with("42", ""),
            vec!["bodies[0]", "expected an object"],
        ),
    ]
}

#[test]
fn every_malformed_file_is_refused_with_a_named_problem() {
    let cases = cases();
    assert!(cases.len() >= 12);
    for (what, text, words) in cases {
        let result =
            std::panic::catch_unwind(|| load_scene("bad.json", &text, &LoadOptions::default()));
        let outcome = result.unwrap_or_else(|_| panic!("{what}: the loader panicked"));
        let err = outcome
            .err()
            .unwrap_or_else(|| panic!("{what}: the file loaded"));
        let message = err.to_string();
        assert!(
            message.starts_with("bad.json: "),
            "{what}: the message must name the file: {message}"
        );
        for word in words {
            assert!(
                message.contains(word),
                "{what}: '{message}' does not mention '{word}'"
            );
        }
    }
}

#[test]
fn bad_load_options_are_refused() {
    let text = scene_with(&free_box(r#"{ "type": "box", "size": [1, 1, 1] }"#), "");
    assert!(load_scene("x", &text, &LoadOptions::default()).is_ok());
    for (options, word) in [
        (
            LoadOptions {
                refine: 3,
                ..Default::default()
            },
            "refine",
        ),
        (
            LoadOptions {
                erosion: Some(Erosion::Metres(-0.1)),
                ..Default::default()
            },
            "erosion",
        ),
        (
            LoadOptions {
                perturb: f64::NAN,
                ..Default::default()
            },
            "perturb",
        ),
        // Eroding a 1 m box by 0.6 m turns it inside out.
        (
            LoadOptions {
                erosion: Some(Erosion::Metres(0.6)),
                ..Default::default()
            },
            "too thin",
        ),
    ] {
        let err = load_scene("x", &text, &options).unwrap_err().to_string();
        assert!(err.contains(word), "{err}");
    }
}
