//! The `sphere` shape, per-pair friction and Cheng Yi & Drumwright's sphere benchmarks
//! (issue 12, deliverables 3 and 4).

use contactlab::mesh::shapes::sphere::sphere_vertex_count;
use contactlab::mesh::Mesher;
use contactlab::report::spheres::{energy_run, scene_with_sphere_vertices};
use contactlab::scene::builtin::load_builtin;
use contactlab::scene::{load_scene, LoadOptions};
use contactlab::sim::{SimSettings, Simulation};

/// A box sliding at 2 m/s on a fixed ground; `friction` is the pair's entry
/// (or nothing), the scene's own μ is 0.5.
fn sliding_box(friction_pairs: &str) -> String {
    format!(
        r#"{{ "format": "contactlab-scene/1", "id": "slide", "settings": {{ "friction": 0.5 }},
        "bodies": [
          {{ "name": "ground", "fixed": true, "shape": {{ "type": "box", "size": [40, 1, 40] }}, "position": [0, -0.5, 0] }},
          {{ "name": "block", "shape": {{ "type": "box", "size": [1, 1, 1] }}, "position": [0, 0.5, 0], "velocity": [2, 0, 0] }}
        ] {friction_pairs} }}"#
    )
}

/// The block's speed after 50 steps of 0.01 s with Opposing.
fn speed_after_sliding(text: &str, mu: Option<f64>) -> f64 {
    let settings = SimSettings {
        method: "opposing".to_string(),
        mesher: Some(Mesher::Cones),
        mu,
        ..SimSettings::default()
    };
    let mut sim = Simulation::new("slide.json", text, settings).unwrap();
    for _ in 0..50 {
        sim.step().unwrap();
    }
    sim.bodies()[1].velocity.length()
}

#[test]
fn a_pair_friction_replaces_the_scenes_and_the_mu_setting_replaces_both() {
    let plain = sliding_box("");
    let frictionless =
        sliding_box(r#", "friction_pairs": [{ "bodies": ["block", "ground"], "friction": 0 }]"#);
    // μ = 0.5 stops a 2 m/s block within 2 / (0.5 g) ≈ 0.41 s.
    assert!(speed_after_sliding(&plain, None) < 1e-6);
    // μ = 0 for the pair: it keeps sliding at 2 m/s.
    let kept = speed_after_sliding(&frictionless, None);
    assert!((kept - 2.0).abs() < 1e-6, "{kept}");
    // The mu setting overrides the pair's own coefficient.
    assert!(speed_after_sliding(&frictionless, Some(0.5)) < 1e-6);
    assert!((speed_after_sliding(&plain, Some(0.0)) - 2.0).abs() < 1e-6);
}

#[test]
fn the_pair_lookup_is_symmetric_and_falls_back_to_the_scene() {
    let scene = load_builtin("rolling-spheres", &LoadOptions::default()).unwrap();
    let (fixed, rolling) = (
        scene.body_index("fixed-sphere").unwrap(),
        scene.body_index("rolling-sphere").unwrap(),
    );
    let wall = scene.body_index("wall-x+").unwrap();
    assert_eq!(scene.friction_between(fixed, rolling), 10.0);
    assert_eq!(scene.friction_between(rolling, fixed), 10.0);
    assert_eq!(scene.friction_between(wall, rolling), 0.0);
}

#[test]
fn the_sphere_benchmarks_load_with_their_committed_tetgen_meshes() {
    for id in ["spinning-sphere", "rolling-spheres"] {
        let scene = load_builtin(id, &LoadOptions::default()).unwrap();
        assert!(
            scene.notices.is_empty(),
            "{id}: every body has a committed TetGen mesh, got {:?}",
            scene.notices
        );
        for body in &scene.bodies {
            assert_eq!(body.mesher, Some(Mesher::TetGen), "{id}/{}", body.name);
        }
    }
    let spinning = load_builtin("spinning-sphere", &LoadOptions::default()).unwrap();
    let sphere = &spinning.bodies[1];
    let surface_vertices = sphere
        .mesh
        .vertex_faces
        .iter()
        .filter(|f| !f.is_empty())
        .count();
    assert_eq!(surface_vertices, 100);
    // The pole touches the box's top (y = 0).
    let lowest = sphere
        .world_vertices()
        .iter()
        .map(|v| v.y)
        .fold(f64::INFINITY, f64::min);
    assert!(lowest.abs() < 1e-12, "{lowest}");
}

#[test]
fn the_table_sets_every_spheres_vertex_count() {
    let text = scene_with_sphere_vertices("rolling-spheres", 200).unwrap();
    let scene = load_scene(
        "t",
        &text,
        &LoadOptions {
            mesher: Some(Mesher::Cones),
            ..LoadOptions::default()
        },
    )
    .unwrap();
    let spheres: Vec<usize> = scene
        .bodies
        .iter()
        .filter(|b| b.name.contains("sphere"))
        .map(|b| b.mesh.vertex_faces.iter().filter(|f| !f.is_empty()).count())
        .collect();
    assert_eq!(spheres, vec![sphere_vertex_count(200) as usize; 2]);
    assert!(scene_with_sphere_vertices("pillar", 100).is_err());
}

/// An ideal spinning sphere touches the box at its pole, on the spin axis:
/// a method whose contacts stay there keeps every joule. Region analysis
/// does on the 100-vertex sphere (its ring of vertices nearest the pole is
/// r (1 − cos π/8) = 0.076 m above the box, beyond the 0.01 m envelope), and so does
/// Opposing; 0.2 s at h = 0.001 keeps this test short.
#[test]
fn the_spinning_sphere_keeps_its_energy_with_contacts_on_its_axis() {
    let text = scene_with_sphere_vertices("spinning-sphere", 100).unwrap();
    for method in ["opposing", "region-analysis"] {
        let settings = SimSettings {
            method: method.to_string(),
            ..SimSettings::default()
        };
        let run = energy_run("builtin:spinning-sphere", &text, settings, 0.2).unwrap();
        assert_eq!(run.steps, 200);
        assert!(run.stopped.is_none());
        assert!(
            (run.kept_percent() - 100.0).abs() < 1e-6,
            "{method}: {} %",
            run.kept_percent()
        );
        assert!(
            run.max_displacement < 1e-9,
            "{method}: {}",
            run.max_displacement
        );
    }
}
