//! Every shipped scene loads and every body is a valid rigid tetrahedral
//! mesh: positive tetrahedra, a closed, consistently outward surface with
//! Euler characteristic 2. Also at refinement levels 1 and 2 and eroded.

use contactlab::mesh::tetmesh::tet_volume;
use contactlab::mesh::TetMesh;
use contactlab::scene::builtin::{builtin_ids, load_builtin, paper_scene_ids, BUILTIN_SCENES};
use contactlab::scene::perturb::perturb;
use contactlab::scene::{Erosion, LoadOptions};

fn check_body(scene: &str, name: &str, mesh: &TetMesh) {
    for t in 0..mesh.tets.len() {
        let [a, b, c, d] = mesh.tet_corners(t);
        assert!(
            tet_volume(a, b, c, d) > 0.0,
            "{scene}/{name}: tetrahedron {t} is not positive"
        );
    }
    // Closed: every surface edge has exactly two surface faces, and every
    // face edge is one of the surface edges.
    let mut uses = vec![0usize; mesh.surface_edges.len()];
    for face in &mesh.surface_faces {
        for k in 0..3 {
            let (u, v) = (face.vertices[k], face.vertices[(k + 1) % 3]);
            let key = [u.min(v), u.max(v)];
            let e = mesh
                .surface_edges
                .iter()
                .position(|e| e.vertices == key)
                .unwrap_or_else(|| {
                    panic!("{scene}/{name}: face edge {key:?} is not a surface edge")
                });
            uses[e] += 1;
        }
    }
    assert!(
        uses.iter().all(|&u| u == 2),
        "{scene}/{name}: an edge does not have exactly two faces"
    );
    // Consistently outward: the enclosed volume by the divergence theorem
    // equals the sum of the tetrahedra (an inward or mixed surface does not).
    let (enclosed, volume) = (mesh.surface_enclosed_volume(), mesh.volume());
    assert!(
        (enclosed - volume).abs() <= 1e-10 * volume,
        "{scene}/{name}: surface encloses {enclosed}, tetrahedra sum to {volume}"
    );
    let vertices = mesh.vertex_faces.iter().filter(|f| !f.is_empty()).count() as i64;
    let euler = vertices - mesh.surface_edges.len() as i64 + mesh.surface_faces.len() as i64;
    assert_eq!(euler, 2, "{scene}/{name}: Euler characteristic");
}

#[test]
fn the_paper_has_thirteen_scenes_and_every_id_matches_its_file() {
    assert_eq!(paper_scene_ids().count(), 13);
    assert_eq!(
        BUILTIN_SCENES.iter().filter(|s| !s.paper).count(),
        2,
        "beyond the paper: Cheng Yi & Drumwright's spinning-sphere and rolling-spheres"
    );
    for id in builtin_ids() {
        let scene = load_builtin(id, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(scene.id, id, "the file's id must equal its name");
    }
}

#[test]
fn every_scene_body_is_a_valid_mesh_at_every_refinement() {
    for id in builtin_ids() {
        for refine in 0..=2 {
            let scene = load_builtin(
                id,
                &LoadOptions {
                    refine,
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{e}"));
            for body in &scene.bodies {
                check_body(&format!("{id} refine {refine}"), &body.name, &body.mesh);
                assert!(body.mass.mass > 0.0);
            }
        }
    }
}

#[test]
fn refinement_keeps_mass_and_multiplies_tetrahedra_by_eight() {
    let coarse = load_builtin("pillar", &LoadOptions::default()).unwrap();
    let fine = load_builtin(
        "pillar",
        &LoadOptions {
            refine: 2,
            ..Default::default()
        },
    )
    .unwrap();
    for (c, f) in coarse.bodies.iter().zip(&fine.bodies) {
        assert_eq!(f.mesh.tets.len(), 64 * c.mesh.tets.len());
        assert!((f.mass.mass - c.mass.mass).abs() <= 1e-12 * c.mass.mass);
        assert!((f.position - c.position).length() <= 1e-12);
    }
}

#[test]
fn every_scene_erodes_into_valid_meshes() {
    for id in builtin_ids() {
        let plain = load_builtin(id, &LoadOptions::default()).unwrap();
        let eroded = load_builtin(
            id,
            &LoadOptions {
                erosion: Some(Erosion::Metres(0.01)),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        for (p, e) in plain.bodies.iter().zip(&eroded.bodies) {
            check_body(&format!("{id} eroded"), &e.name, &e.mesh);
            assert!(
                e.mass.mass < p.mass.mass,
                "{id}/{}: erosion must remove material",
                e.name
            );
        }
    }
}

#[test]
fn perturbation_moves_free_bodies_horizontally_by_the_magnitude_reproducibly() {
    let base = load_builtin("pillar", &LoadOptions::default()).unwrap();
    let a = load_builtin(
        "pillar",
        &LoadOptions {
            perturb: 0.02,
            seed: 7,
            ..Default::default()
        },
    )
    .unwrap();
    let b = load_builtin(
        "pillar",
        &LoadOptions {
            perturb: 0.02,
            seed: 7,
            ..Default::default()
        },
    )
    .unwrap();
    let c = load_builtin(
        "pillar",
        &LoadOptions {
            perturb: 0.02,
            seed: 8,
            ..Default::default()
        },
    )
    .unwrap();
    for i in 0..base.bodies.len() {
        assert_eq!(
            a.bodies[i].position, b.bodies[i].position,
            "same seed, same result"
        );
        let d = a.bodies[i].position - base.bodies[i].position;
        if base.bodies[i].fixed {
            assert_eq!(d.length(), 0.0);
        } else {
            assert!(
                (d.length() - 0.02).abs() < 1e-12 && d.y.abs() < 1e-15,
                "{}: {d}",
                base.bodies[i].name
            );
            assert_ne!(
                a.bodies[i].position, c.bodies[i].position,
                "another seed, another direction"
            );
        }
    }
    // The same perturbation applied after loading gives the same positions.
    let mut later = base.clone();
    perturb(&mut later, 0.02, 7);
    for i in 0..base.bodies.len() {
        assert_eq!(later.bodies[i].position, a.bodies[i].position);
    }
}

#[test]
fn pillar_stones_stack_to_three_and_a_half_metres() {
    let scene = load_builtin("pillar", &LoadOptions::default()).unwrap();
    let (lo, hi) = scene.bounds();
    assert!(
        (hi.y - 3.5).abs() < 1e-12 && (lo.y + 0.3).abs() < 1e-12,
        "{lo} {hi}"
    );
}
