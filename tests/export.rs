//! `contactlab export` and `contactlab::export`: every format's files, the
//! `json` round trip (the same bodies and the same measures), the convex
//! pieces, and the command's bad input.

mod common;

use common::contactlab;
use contactlab::export::pieces::{body_surface, convex_pieces};
use contactlab::export::{format_by_id, At, Export, ExportFile, FORMATS};
use contactlab::geometry::Pose;
use contactlab::scene::builtin::builtin_text;
use contactlab::scene::{load_scene, LoadOptions, Oracle, Scene};
use glam::DVec3;
use std::path::PathBuf;

fn builtin(id: &str) -> Scene {
    load_scene(
        &format!("builtin:{id}"),
        builtin_text(id).unwrap(),
        &LoadOptions::default(),
    )
    .unwrap()
}

fn files(format: &str, export: &Export) -> Vec<ExportFile> {
    (format_by_id(format).unwrap().write)(export)
}

fn file<'a>(files: &'a [ExportFile], path: &str) -> &'a str {
    &files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("no file {path}"))
        .text
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A scene text with one body's `fixed` changed.
fn with_fixed(id: &str, body: &str, fixed: bool) -> String {
    let mut value: serde_json::Value = serde_json::from_str(builtin_text(id).unwrap()).unwrap();
    for b in value["bodies"].as_array_mut().unwrap() {
        if b["name"] == body {
            b["fixed"] = serde_json::json!(fixed);
        }
    }
    value.to_string()
}

#[test]
fn every_file_names_the_scene_the_pose_the_version_and_the_bodies() {
    let scene = builtin("spike-in-hole");
    let mut export = Export::initial(&scene);
    for format in FORMATS {
        for f in (format.write)(&export) {
            assert!(
                f.text.contains("ContactLab export"),
                "{}: {}",
                format.id,
                f.path
            );
            assert!(f.text.contains(env!("CARGO_PKG_VERSION")), "{}", f.path);
            assert!(f.text.contains("scene: spike-in-hole"), "{}", f.path);
            assert!(f.text.contains("pose: initial"), "{}", f.path);
            assert!(
                f.text.contains("bodies: hole-block, flipped-spike"),
                "{}",
                f.path
            );
        }
    }
    export.at = At::Step {
        step: 7,
        method: "opposing".to_string(),
    };
    for format in FORMATS {
        for f in (format.write)(&export) {
            assert!(
                f.text
                    .contains("pose: step 7 of a ContactLab run with method opposing"),
                "{}: {}",
                format.id,
                f.path
            );
        }
    }
}

#[test]
fn json_loads_back_as_the_same_bodies_masses_poses_and_settings() {
    for id in ["pillar", "arch", "spike-in-hole", "spinning-sphere"] {
        let scene = builtin(id);
        let written = files("json", &Export::initial(&scene));
        let text = file(&written, "scene.json");
        let back = load_scene("scene.json", text, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let size = scene.size();
        assert_eq!(back.id, scene.id);
        assert_eq!(back.gravity, scene.gravity, "{id}");
        assert_eq!(back.settings, scene.settings, "{id}");
        assert_eq!(back.friction_pairs, scene.friction_pairs, "{id}");
        assert_eq!(back.oracle.type_name(), scene.oracle.type_name(), "{id}");
        assert_eq!(
            back.oracle.min_contacts(),
            scene.oracle.min_contacts(),
            "{id}"
        );
        assert_eq!(back.bodies.len(), scene.bodies.len());
        for (a, b) in scene.bodies.iter().zip(&back.bodies) {
            assert_eq!(a.name, b.name);
            assert_eq!(a.fixed, b.fixed);
            assert_eq!(a.density, b.density);
            assert_eq!(a.mesh.tets, b.mesh.tets, "{id} {}", a.name);
            for (p, q) in a.mesh.vertices.iter().zip(&b.mesh.vertices) {
                assert!(
                    (*p - *q).length() <= 1e-14 * size,
                    "{id} {}: {p} vs {q}",
                    a.name
                );
            }
            let world = |s: &contactlab::scene::SceneBody| s.world_vertices();
            for (p, q) in world(a).iter().zip(&world(b)) {
                assert!((*p - *q).length() <= 1e-14 * size, "{id} {}", a.name);
            }
            assert!(
                (a.mass.mass - b.mass.mass).abs() <= 1e-12 * a.mass.mass,
                "{id}"
            );
            let inertia = (a.mass.inertia - b.mass.inertia).abs_diff_eq(
                glam::DMat3::ZERO,
                1e-12 * a.mass.inertia.x_axis.x.abs().max(1.0),
            );
            assert!(inertia, "{id} {}", a.name);
            assert!((a.position - b.position).length() <= 1e-14 * size, "{id}");
            assert!(a.rotation.abs_diff_eq(b.rotation, 1e-14), "{id}");
            assert_eq!(a.velocity, b.velocity, "{id}");
            assert_eq!(a.angular_velocity, b.angular_velocity, "{id}");
        }
    }
}

#[test]
fn json_at_a_later_pose_keeps_the_pose_and_leaves_the_oracle_out() {
    let scene = builtin("arch");
    let mut export = Export::initial(&scene);
    let turn = glam::DQuat::from_axis_angle(DVec3::new(0.3, 1.0, -0.2).normalize(), 0.01);
    export.poses[3] = Pose::new(
        export.poses[3].position + DVec3::new(0.001, -0.002, 0.0),
        turn,
    );
    export.at = At::Step {
        step: 3,
        method: "semi-local".to_string(),
    };
    let written = files("json", &export);
    let text = file(&written, "scene.json");
    assert!(text.contains("left out: the scene's arch oracle"));
    let back = load_scene("scene.json", text, &LoadOptions::default()).unwrap();
    assert!(matches!(back.oracle, Oracle::None));
    let Pose { position, rotation } = export.poses[3];
    assert!((back.bodies[3].position - position).length() < 1e-12);
    assert!(back.bodies[3].rotation.abs_diff_eq(rotation, 1e-12));
}

/// `contactlab contacts --json` measures of a scene argument.
fn measures(scene: &str, method: &str) -> serde_json::Value {
    let (code, out, err) = contactlab(&[
        "contacts",
        scene,
        "--method",
        method,
        "--json",
        "--no-timings",
    ]);
    assert_eq!(code, 0, "{scene} {method}: {err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    report["measures"].clone()
}

#[test]
fn json_round_trip_gives_the_same_measures() {
    for id in ["pillar", "arch"] {
        let dir = temp_dir(&format!("round-trip-{id}"));
        let out = dir.to_str().unwrap();
        let (code, _, err) = contactlab(&["export", id, "--format", "json", "--out", out]);
        assert_eq!(code, 0, "{err}");
        let file = dir.join("scene.json");
        for method in ["semi-local", "opposing", "vertex-only"] {
            assert_eq!(
                measures(id, method),
                measures(file.to_str().unwrap(), method),
                "{id} {method}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The element names of an XML text, checked to nest and close; comments,
/// the declaration and attribute values are skipped.
fn xml_elements(text: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        rest = &rest[start..];
        if let Some(body) = rest.strip_prefix("<!--") {
            let end = body.find("-->").expect("a closed comment");
            assert!(!body[..end].contains("--"), "`--` inside a comment");
            rest = &body[end + 3..];
            continue;
        }
        let end = rest.find('>').expect("a closed tag");
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') {
            continue;
        }
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in <{tag}>"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.trim()), "</{name}>");
            continue;
        }
        let name = tag.split_whitespace().next().unwrap().trim_end_matches('/');
        seen.push(name.to_string());
        if !tag.ends_with('/') {
            stack.push(name.to_string());
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert_eq!(rest.trim(), "", "text after the root element");
    seen
}

/// Every value of `attribute="…"` on elements named `element`.
fn attributes(text: &str, element: &str, attribute: &str) -> Vec<String> {
    text.split(&format!("<{element} "))
        .skip(1)
        .filter_map(|tag| {
            let tag = &tag[..tag.find('>').unwrap()];
            let key = format!(" {attribute}=\"");
            let start = tag
                .find(&key)
                .map(|i| i + key.len())
                .or_else(|| tag.strip_prefix(&key[1..]).map(|_| key.len() - 1))?;
            Some(tag[start..start + tag[start..].find('"').unwrap()].to_string())
        })
        .collect()
}

#[test]
fn mjcf_is_well_formed_with_every_body_its_mass_and_convex_pieces() {
    for id in ["pillar", "wall", "spike-in-hole", "spinning-sphere"] {
        let scene = builtin(id);
        let written = files("mjcf", &Export::initial(&scene));
        let text = file(&written, "model.xml");
        let elements = xml_elements(text);
        assert_eq!(elements[0], "mujoco", "{id}");
        let names = attributes(text, "body", "name");
        let wanted: Vec<&str> = scene.bodies.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, wanted, "{id}");
        let masses: Vec<f64> = attributes(text, "inertial", "mass")
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let ours: Vec<f64> = scene.bodies.iter().map(|b| b.mass.mass).collect();
        assert_eq!(masses, ours, "{id}");
        let free = scene.bodies.iter().filter(|b| !b.fixed).count();
        assert_eq!(elements.iter().filter(|e| *e == "freejoint").count(), free);
        assert!(text.contains(&format!("timestep=\"{:?}\"", scene.settings.dt)));
        assert!(text.contains("gravity=\"0 -9.81 0\""));
        for (i, body) in scene.bodies.iter().enumerate() {
            let geoms = attributes(text, "geom", "name")
                .iter()
                .filter(|g| g.starts_with(&format!("g{i}_")))
                .count();
            let convex = body.mesh.brep().is_convex();
            assert_eq!(geoms == 1, convex, "{id} {}: {geoms} geoms", body.name);
        }
        if !scene.friction_pairs.is_empty() {
            assert!(elements.iter().any(|e| e == "pair"), "{id}");
            assert!(elements.iter().any(|e| e == "exclude"), "{id}");
        }
    }
}

#[test]
fn convex_pieces_cover_the_body_once_and_are_convex() {
    for (id, body) in [
        ("spike-in-hole", "hole-block"),
        ("spike-in-crack", "crack-block"),
    ] {
        let scene = builtin(id);
        let mesh = &scene.bodies[scene.body_index(body).unwrap()].mesh;
        let pieces = convex_pieces(mesh);
        assert!(pieces.len() > 1, "{id}: one piece of a non-convex body");
        assert!(pieces.len() < mesh.tets.len(), "{id}: no tetrahedra merged");
        let total: f64 = pieces.iter().map(|p| p.enclosed_volume()).sum();
        assert!(
            (total - mesh.volume()).abs() < 1e-12 * mesh.volume(),
            "{id}"
        );
        for piece in &pieces {
            for t in &piece.triangles {
                let [a, b, c] = t.map(|i| piece.vertices[i as usize]);
                let n = (b - a).cross(c - a).normalize();
                for &v in &piece.vertices {
                    assert!(
                        n.dot(v - a) <= 1e-9 * mesh.diagonal(),
                        "{id}: a piece is not convex"
                    );
                }
            }
        }
    }
    let sphere = builtin("spinning-sphere");
    assert_eq!(convex_pieces(&sphere.bodies[1].mesh).len(), 1);
}

#[test]
fn obj_faces_point_outward_in_world_coordinates() {
    let scene = builtin("arch");
    let export = Export::initial(&scene);
    let written = files("obj", &export);
    assert_eq!(written.len(), scene.bodies.len());
    for (i, body) in scene.bodies.iter().enumerate() {
        let text = file(&written, &format!("{}.obj", body.name));
        let vertices: Vec<DVec3> = text
            .lines()
            .filter_map(|l| l.strip_prefix("v "))
            .map(|l| {
                let c: Vec<f64> = l.split(' ').map(|x| x.parse().unwrap()).collect();
                DVec3::new(c[0], c[1], c[2])
            })
            .collect();
        let mut volume = 0.0;
        for l in text.lines().filter_map(|l| l.strip_prefix("f ")) {
            let [a, b, c]: [DVec3; 3] = l
                .split(' ')
                .map(|x| vertices[x.parse::<usize>().unwrap() - 1])
                .collect::<Vec<_>>()
                .try_into()
                .unwrap();
            volume += a.dot(b.cross(c)) / 6.0;
        }
        let expected = body.mesh.volume();
        assert!(volume > 0.0, "{}: faces point inward", body.name);
        assert!((volume - expected).abs() < 1e-9 * expected, "{}", body.name);
        let surface = body_surface(&body.mesh);
        assert_eq!(vertices.len(), surface.vertices.len());
        assert!((vertices[0] - export.world_point(i, surface.vertices[0])).length() < 1e-12);
    }
}

#[test]
fn urdf_has_a_file_per_body_a_manifest_and_static_or_pieced_non_convex_bodies() {
    let scene = builtin("spike-in-hole");
    let written = files("urdf", &Export::initial(&scene));
    let manifest = file(&written, "bodies.csv");
    assert!(manifest.contains("# gravity: 0 -9.81 0\n"));
    assert!(manifest.contains(&format!("# timestep: {:?}\n", scene.settings.dt)));
    let rows: Vec<&str> = manifest.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        rows[0],
        "name,urdf,fixed,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz"
    );
    assert_eq!(rows.len(), 1 + scene.bodies.len());
    for (row, body) in rows[1..].iter().zip(&scene.bodies) {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[0], body.name);
        assert_eq!(cells[2], if body.fixed { "1" } else { "0" });
        let urdf = file(&written, cells[1]);
        xml_elements(urdf);
        let mass: f64 = attributes(urdf, "mass", "value")[0].parse().unwrap();
        assert_eq!(mass, if body.fixed { 0.0 } else { body.mass.mass });
        for mesh in attributes(urdf, "mesh", "filename") {
            file(&written, &mesh);
        }
    }
    let hole = file(&written, "hole-block.urdf");
    assert!(hole.contains("<collision concave=\"yes\">"), "{hole}");
    // The same body free: its convex pieces, one collision element each.
    let text = with_fixed("spike-in-hole", "hole-block", false);
    let free = load_scene("free", &text, &LoadOptions::default()).unwrap();
    let written = files("urdf", &Export::initial(&free));
    let hole = file(&written, "hole-block.urdf");
    let pieces = convex_pieces(&free.bodies[0].mesh).len();
    assert_eq!(hole.matches("<collision>").count(), pieces);
    assert!(!hole.contains("concave"));
}

#[test]
fn export_writes_its_files_lists_them_and_overwrites_only_its_own() {
    let dir = temp_dir("cli");
    let out = dir.to_str().unwrap();
    let (code, stdout, err) = contactlab(&["export", "pillar", "--format", "mjcf", "--out", out]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("model.xml"), "{stdout}");
    assert!(dir.join("model.xml").is_file());
    // Again: its own file is replaced.
    let (code, _, err) = contactlab(&["export", "pillar", "--format", "mjcf", "--out", out]);
    assert_eq!(code, 0, "{err}");
    // A file of the person's own is never replaced, and nothing is written.
    std::fs::write(dir.join("bodies.csv"), "mine\n").unwrap();
    let (code, stdout, err) = contactlab(&["export", "pillar", "--format", "urdf", "--out", out]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bodies.csv exists and is not from a ContactLab export"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("bodies.csv")).unwrap(),
        "mine\n"
    );
    assert!(!dir.join("pillar.urdf").exists() && !dir.join("ground.urdf").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_at_a_step_runs_the_method_and_says_so() {
    let dir = temp_dir("step");
    let out = dir.to_str().unwrap();
    let (code, _, err) = contactlab(&[
        "export", "spikes", "--format", "json", "--out", out, "--step", "3", "--method", "opposing",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("scene.json")).unwrap();
    assert!(text.contains("pose: step 3 of a ContactLab run with method opposing"));
    let moved = load_scene("scene.json", &text, &LoadOptions::default()).unwrap();
    let start = builtin("spikes");
    let free = start.bodies.iter().position(|b| !b.fixed).unwrap();
    assert_ne!(moved.bodies[free].position, start.bodies[free].position);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_lists_every_format_of_the_registry() {
    let (code, out, _) = contactlab(&["export", "--help"]);
    assert_eq!(code, 0);
    for format in FORMATS {
        assert!(
            out.contains(&format!("  {:<6} for {}", format.id, format.purpose)),
            "{out}"
        );
    }
}

#[test]
fn bad_export_arguments_get_one_line_and_exit_2() {
    let dir = temp_dir("bad");
    let out = dir.to_str().unwrap();
    let unknown_format = format!(
        "--format: unknown format \"stl\" (expected one of: {})",
        contactlab::export::format_ids().join(", ")
    );
    for (args, message) in [
        (
            vec!["export", "pillar", "--format", "stl", "--out", out],
            unknown_format.as_str(),
        ),
        (
            vec!["export", "pillar", "--out", out],
            "--format is required",
        ),
        (
            vec!["export", "pillar", "--format", "obj"],
            "--out DIR is required",
        ),
        (
            vec!["export", "nowhere", "--format", "obj", "--out", out],
            "'nowhere' is neither a built-in scene",
        ),
        (
            vec![
                "export", "pillar", "--format", "obj", "--out", out, "--step", "0",
            ],
            "--step: the number of steps must be a whole number",
        ),
        (
            vec![
                "export",
                "pillar",
                "--format",
                "json",
                "--out",
                out,
                "--step",
                "400",
                "--dt",
                "0.1",
                "--iterations",
                "1",
                "--mu",
                "0",
            ],
            "--step 400: the simulation diverged at step",
        ),
    ] {
        let (code, stdout, err) = contactlab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(stdout, "", "{args:?}");
        let lines: Vec<&str> = err
            .lines()
            .filter(|l| !l.starts_with("\rexport: step") && !l.trim().is_empty())
            .collect();
        let last = err
            .rsplit(['\n', '\r'])
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        assert!(last.contains(message), "{args:?}: {err}");
        assert!(lines.len() <= 2, "{args:?}: {err}");
    }
    assert!(!dir.exists(), "a refused export wrote something");
}
