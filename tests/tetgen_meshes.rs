//! The committed TetGen meshes (`docs/design/meshing.md`, issue 10): each one
//! is a valid body with its shape's surface, volume and centre of mass; every
//! built-in body finds one; the `mesher` keys and setting choose as
//! documented and a missing mesh falls back to cones with a notice; and on a
//! TetGen mesh, where a tetrahedron has several surface faces, Vertex only
//! and Consistent vertex differ. (That regenerating the files gives them byte
//! for byte is checked by `cargo xtask test` where `tetgen` is installed:
//! `contactlab tetgen --check meshes`.)

use contactlab::contact::{find_contacts, method_by_id, Contact, MethodParams};
use contactlab::geometry::closest::closest_point_on_triangle;
use contactlab::mesh::plc::Plc;
use contactlab::mesh::{MassProperties, Mesher, TetMesh};
use contactlab::scene::builtin::{builtin_ids, load_builtin};
use contactlab::scene::committed::committed;
use contactlab::scene::parse::FLAT_ANGLE;
use contactlab::scene::{load_scene, LoadOptions, Scene};
use glam::DVec3;

fn with_mesher(mesher: Mesher) -> LoadOptions {
    LoadOptions {
        mesher: Some(mesher),
        ..LoadOptions::default()
    }
}

/// Each file's (and body's) own choice of mesher.
fn files_choice() -> LoadOptions {
    LoadOptions {
        mesher: None,
        ..LoadOptions::default()
    }
}

fn surface_area(mesh: &TetMesh) -> f64 {
    (0..mesh.surface_faces.len())
        .map(|f| {
            let [a, b, c] = mesh.face_corners(f);
            (b - a).cross(c - a).length() / 2.0
        })
        .sum()
}

/// Largest distance from a point of `points` to the surface of `mesh`.
fn farthest_from_surface(points: impl Iterator<Item = DVec3>, mesh: &TetMesh) -> f64 {
    points
        .map(|p| {
            (0..mesh.surface_faces.len())
                .map(|f| {
                    let [a, b, c] = mesh.face_corners(f);
                    (closest_point_on_triangle(p, a, b, c) - p).length()
                })
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max)
}

#[test]
fn every_committed_mesh_is_a_valid_body_with_its_shapes_surface_volume_and_centre() {
    let mut checked = 0;
    for level in [Mesher::TetGen, Mesher::PaperFine] {
        let table = committed(level)
            .unwrap()
            .expect("native builds have both levels");
        for m in &table.meshes {
            let label = format!("{level} {:?} ({})", m.used_by, m.switches);
            // Positive volumes, closed outward surface, Euler characteristic 2.
            let mesh = TetMesh::new(m.vertices.clone(), m.tets.clone(), FLAT_ANGLE)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            let cones = m.shape.build(FLAT_ANGLE).unwrap();
            let size = cones.diagonal();
            let round_off = 1e-12;
            assert!(
                (mesh.volume() - cones.volume()).abs() <= round_off * cones.volume(),
                "{label}: volume {} vs {}",
                mesh.volume(),
                cones.volume()
            );
            assert!(
                (mesh.surface_enclosed_volume() - mesh.volume()).abs() <= round_off * mesh.volume(),
                "{label}: the surface does not enclose the tetrahedra"
            );
            let (ours, theirs) = (
                MassProperties::of_mesh(&mesh, 1.0),
                MassProperties::of_mesh(&cones, 1.0),
            );
            assert!(
                (ours.centre - theirs.centre).length() <= round_off * size,
                "{label}: centre of mass {} vs {}",
                ours.centre,
                theirs.centre
            );
            assert!(
                (surface_area(&mesh) - surface_area(&cones)).abs()
                    <= round_off * surface_area(&cones),
                "{label}: surface area"
            );
            // Same surface: each one's surface points lie on the other's.
            let face_points = |m: &TetMesh| -> Vec<DVec3> {
                (0..m.surface_faces.len())
                    .flat_map(|f| {
                        let [a, b, c] = m.face_corners(f);
                        [a, b, c, (a + b + c) / 3.0]
                    })
                    .collect()
            };
            assert!(
                farthest_from_surface(face_points(&mesh).into_iter(), &cones) <= round_off * size,
                "{label}: a surface point is off the shape"
            );
            assert!(
                farthest_from_surface(face_points(&cones).into_iter(), &mesh) <= round_off * size,
                "{label}: a point of the shape is off the mesh's surface"
            );
            // Without boundary splitting (`Y`, or `-p` alone) the surface
            // vertices are exactly the PLC's.
            if !m.switches.contains('q') || m.switches.contains('Y') {
                let plc = Plc::of_shape(&m.shape).unwrap();
                let surface: Vec<DVec3> = (0..mesh.vertices.len())
                    .filter(|&v| mesh.is_surface_vertex(v))
                    .map(|v| mesh.vertices[v])
                    .collect();
                assert_eq!(
                    surface, plc.vertices,
                    "{label}: Steiner points on the surface"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} committed meshes");
}

/// TetGen's input for every committed shape, pinned: TetGen's output
/// depends on where each facet begins, so the `.poly` text the shapes' own
/// surfaces give must stay what the committed meshes were made from
/// (`contactlab tetgen --check` remakes them where `tetgen` is installed;
/// this holds everywhere). FNV-1a of the 40 texts, in the files' order.
#[test]
fn tetgens_input_for_every_committed_shape_is_what_its_mesh_was_made_from() {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut shapes = 0;
    for level in [Mesher::TetGen, Mesher::PaperFine] {
        for m in &committed(level).unwrap().unwrap().meshes {
            let poly = Plc::of_shape(&m.shape).unwrap().to_poly();
            for byte in poly.bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
            shapes += 1;
        }
    }
    assert_eq!((shapes, hash), (40, 3_888_659_607_148_187_244));
}

#[test]
fn every_builtin_body_gets_its_tetgen_mesh_without_a_notice() {
    for id in builtin_ids() {
        let scene = load_builtin(id, &with_mesher(Mesher::TetGen)).unwrap();
        assert!(scene.notices.is_empty(), "{id}: {:?}", scene.notices);
        for b in &scene.bodies {
            assert_eq!(b.mesher, Some(Mesher::TetGen), "{id}/{}", b.name);
        }
    }
}

#[test]
fn the_pillars_boxes_are_six_tetrahedra_each_with_two_surface_faces() {
    let scene = load_builtin("pillar", &with_mesher(Mesher::TetGen)).unwrap();
    for name in ["ground", "plinth", "abacus"] {
        let mesh = &scene.bodies[scene.body_index(name).unwrap()].mesh;
        assert_eq!(mesh.tets.len(), 6, "{name}");
        for faces in &mesh.tet_surface_faces {
            assert_eq!(faces.iter().flatten().count(), 2, "{name}");
        }
    }
}

const USER_SCENE: &str = r#"{
  "format": "contactlab-scene/1", "id": "user", MESHER
  "bodies": [
    { "name": "ground", "fixed": true, "shape": { "type": "box", "size": [3, 0.3, 3] },
      "position": [0, -0.15, 0] BODY_MESHER },
    { "name": "odd-box", "shape": { "type": "box", "size": [0.7, 0.2, 0.3] },
      "position": [0, 0.1, 0] }
  ]
}"#;

fn user_scene(scene_key: &str, body_key: &str, options: &LoadOptions) -> Result<Scene, String> {
    let text = USER_SCENE
        .replace("BODY_MESHER", body_key)
        .replace("MESHER", scene_key);
    load_scene("user.json", &text, options).map_err(|e| e.to_string())
}

fn meshers(scene: &Scene) -> Vec<Option<Mesher>> {
    scene.bodies.iter().map(|b| b.mesher).collect()
}

#[test]
fn a_shape_without_a_committed_mesh_falls_back_to_cones_with_a_notice() {
    // The file names no mesher: TetGen, the format's default.
    let scene = user_scene("", "", &files_choice()).unwrap();
    assert_eq!(meshers(&scene), [Some(Mesher::TetGen), Some(Mesher::Cones)]);
    assert_eq!(scene.notices.len(), 1, "{:?}", scene.notices);
    assert!(
        scene.notices[0].starts_with("odd-box: meshed with cones instead of tetgen"),
        "{}",
        scene.notices[0]
    );
    // Asking for cones is no fallback.
    let scene = user_scene("", "", &with_mesher(Mesher::Cones)).unwrap();
    assert_eq!(meshers(&scene), [Some(Mesher::Cones), Some(Mesher::Cones)]);
    assert!(scene.notices.is_empty());
}

#[test]
fn paper_fine_falls_back_to_the_default_tetgen_mesh_then_to_cones() {
    let scene = user_scene("", "", &with_mesher(Mesher::PaperFine)).unwrap();
    // The Pillar's ground has a paper-fine mesh; the odd box has none at all.
    assert_eq!(
        meshers(&scene),
        [Some(Mesher::PaperFine), Some(Mesher::Cones)]
    );
    assert!(scene.notices[0]
        .contains("no paper-fine mesh is committed for this shape, and no tetgen mesh"));
    let scene = load_builtin("wall", &with_mesher(Mesher::PaperFine)).unwrap();
    assert!(scene
        .bodies
        .iter()
        .all(|b| b.mesher == Some(Mesher::TetGen)));
    assert_eq!(scene.notices.len(), 1, "{:?}", scene.notices);
    assert!(
        scene.notices[0].starts_with(
            "ground, brick-0-0, brick-0-1 and 78 more: meshed with tetgen instead of paper-fine"
        ),
        "{}",
        scene.notices[0]
    );
}

#[test]
fn the_scene_and_body_keys_choose_and_the_setting_overrides_both() {
    let scene = user_scene(r#""mesher": "cones","#, "", &files_choice()).unwrap();
    assert_eq!(meshers(&scene), [Some(Mesher::Cones), Some(Mesher::Cones)]);
    let scene = user_scene(
        r#""mesher": "cones","#,
        r#", "mesher": "tetgen""#,
        &files_choice(),
    )
    .unwrap();
    assert_eq!(meshers(&scene), [Some(Mesher::TetGen), Some(Mesher::Cones)]);
    let scene = user_scene(
        r#""mesher": "cones","#,
        r#", "mesher": "tetgen""#,
        &with_mesher(Mesher::Cones),
    )
    .unwrap();
    assert_eq!(meshers(&scene), [Some(Mesher::Cones), Some(Mesher::Cones)]);
}

#[test]
fn a_bad_mesher_is_refused_with_its_key() {
    let e = user_scene(r#""mesher": "delaunay","#, "", &files_choice()).unwrap_err();
    assert_eq!(
        e,
        "user.json: mesher: must be one of tetgen, cones, paper-fine, got \"delaunay\""
    );
    let e = user_scene("", r#", "mesher": 3"#, &files_choice()).unwrap_err();
    assert!(
        e.starts_with("user.json: bodies[0] \"ground\".mesher:"),
        "{e}"
    );
}

/// The plinth's box (committed TetGen mesh: six tetrahedra, each with two
/// surface faces) and a spike given as one tetrahedron whose tip is inside
/// the box 0.025 from its −x side and 0.042 below its top, in the one
/// tetrahedron that has both faces (TetGen's tetrahedron 1, corners 0, 2,
/// 6, 7), its edges rising steeply out through the top.
fn spike_in_plinth(mesher: Mesher) -> Vec<Contact> {
    let text = r#"{
      "format": "contactlab-scene/1", "id": "spike-in-plinth", "gravity": [0, 0, 0],
      "bodies": [
        { "name": "plinth", "fixed": true, "shape": { "type": "box", "size": [0.5, 0.21, 0.5] } },
        { "name": "spike", "shape": { "type": "tetmesh",
          "vertices": [[-0.225, 0.063, 0], [-0.275, 0.4, -0.05], [-0.175, 0.4, -0.05], [-0.225, 0.4, 0.06]],
          "tets": [[0, 1, 3, 2]] } }
      ]
    }"#;
    let scene = load_scene("spike-in-plinth.json", text, &with_mesher(mesher))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scene.bodies[0].mesher, Some(mesher));
    let method = |id: &str| method_by_id(id).unwrap().tet_pair().unwrap();
    let params = MethodParams::per_pair();
    ["vertex-only", "consistent-vertex"]
        .iter()
        .flat_map(|id| find_contacts(&scene.poses(), method(id), &params).contacts)
        .collect()
}

#[test]
fn vertex_only_and_consistent_vertex_differ_where_a_tetrahedron_has_two_surface_faces() {
    let contacts = spike_in_plinth(Mesher::TetGen);
    // One contact per method, at the tip: Vertex only takes the nearest
    // face (−x, 0.025 away), Consistent vertex the face the edges leave
    // through (+y, the top, 0.042 away).
    assert_eq!(contacts.len(), 2, "{contacts:?}");
    let (vertex_only, consistent) = (&contacts[0], &contacts[1]);
    assert!(
        (vertex_only.normal - DVec3::NEG_X).length() < 1e-12,
        "{vertex_only:?}"
    );
    assert!((vertex_only.depth + 0.025).abs() < 1e-12, "{vertex_only:?}");
    assert!(
        (consistent.normal - DVec3::Y).length() < 1e-12,
        "{consistent:?}"
    );
    assert!((consistent.depth + 0.042).abs() < 1e-12, "{consistent:?}");
    // On cones the containing tetrahedron has one surface face: the two
    // methods must agree.
    let contacts = spike_in_plinth(Mesher::Cones);
    assert_eq!(contacts.len(), 2, "{contacts:?}");
    assert_eq!(contacts[0].normal, contacts[1].normal);
    assert_eq!(contacts[0].depth, contacts[1].depth);
}
