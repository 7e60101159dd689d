//! B-rep features (issue 11, deliverable 1; `docs/design/other-methods.md`,
//! "B-rep features") on the meshes the scenes really use: a box is 6 faces,
//! 12 edges and 8 vertices, its corners, whether it is coned, refined or
//! meshed by TetGen; the `internal-edges` block has no B-rep edge or vertex
//! inside its flat top; and every body of every built-in scene, with every
//! mesher, has planar faces and a B-rep that satisfies the Euler–Poincaré
//! formula.

use contactlab::mesh::{Brep, EdgeKind, Mesher, TetMesh};
use contactlab::scene::builtin::{builtin_ids, load_builtin};
use contactlab::scene::{LoadOptions, Scene};
use glam::DVec3;

fn load(id: &str, mesher: Option<Mesher>, refine: u8) -> Scene {
    let options = LoadOptions {
        mesher,
        refine,
        ..LoadOptions::default()
    };
    load_builtin(id, &options).unwrap()
}

fn body<'a>(scene: &'a Scene, name: &str) -> &'a TetMesh {
    &scene.bodies[scene.body_index(name).unwrap()].mesh
}

fn counts(mesh: &TetMesh) -> (usize, usize, usize) {
    let brep = Brep::of(mesh);
    (brep.faces.len(), brep.edges.len(), brep.vertices.len())
}

/// Every face's triangles lie in its plane and share its normal to 1e-9;
/// V − E + F = 2; every non-flat surface edge is on exactly one B-rep edge.
fn check_planar_and_consistent(mesh: &TetMesh, brep: &Brep, what: &str) {
    for (f, face) in brep.faces.iter().enumerate() {
        for &t in &face.triangles {
            let n = mesh.surface_faces[t as usize].normal;
            assert!(
                (n - face.normal).length() <= 1e-9,
                "{what}: face {f}, triangle {t}: normal {n} vs {}",
                face.normal
            );
            for p in mesh.face_corners(t as usize) {
                let distance = (face.normal.dot(p) - face.offset).abs();
                assert!(
                    distance <= 1e-9 * mesh.diagonal().max(1.0),
                    "{what}: face {f}, triangle {t}: a corner is {distance:e} off the plane"
                );
            }
        }
    }
    // Euler–Poincaré for one solid of genus 0 whose faces may have holes
    // (a blind hole's rim is an inner loop of the face around it):
    // V − E + F − (L − F) = 2, L the boundary loops of all faces.
    let loops: usize = brep.faces.iter().map(|f| f.boundary.len()).sum();
    let euler = brep.vertices.len() as i64 - brep.edges.len() as i64 + 2 * brep.faces.len() as i64
        - loops as i64;
    assert_eq!(euler, 2, "{what}");
    for (s, edge) in mesh.surface_edges.iter().enumerate() {
        assert_eq!(
            brep.edge_of_surface_edge[s].is_some(),
            edge.kind != EdgeKind::Flat,
            "{what}: surface edge {s}"
        );
    }
    for edge in &brep.edges {
        assert_ne!(edge.faces[0], edge.faces[1], "{what}");
    }
}

#[test]
fn a_box_has_six_faces_twelve_edges_eight_vertices_with_every_mesher() {
    for mesher in [Mesher::Cones, Mesher::TetGen, Mesher::PaperFine] {
        // Paper-fine refined twice is beyond the scene loader's limit.
        let most = if mesher == Mesher::PaperFine { 1 } else { 2 };
        for refine in 0..=most {
            let scene = load("pillar", Some(mesher), refine);
            assert!(scene.notices.is_empty(), "{:?}", scene.notices);
            let plinth = body(&scene, "plinth");
            assert_eq!(
                counts(plinth),
                (6, 12, 8),
                "{} refined {refine}",
                mesher.meshes()
            );
        }
    }
}

#[test]
fn the_b_rep_vertices_of_a_box_are_its_corners() {
    for mesher in [Mesher::Cones, Mesher::TetGen, Mesher::PaperFine] {
        for refine in 0..=1 {
            let scene = load("pillar", Some(mesher), refine);
            let plinth = body(&scene, "plinth");
            let brep = Brep::of(plinth);
            let (lo, hi) = contactlab::mesh::tetmesh::bounds(&plinth.vertices);
            for v in &brep.vertices {
                let p = plinth.vertices[v.mesh_vertex as usize];
                assert!(
                    (0..3).all(|k| p[k] == lo[k] || p[k] == hi[k]),
                    "{} refined {refine}: vertex {p} is not a corner of the box",
                    mesher.meshes()
                );
                assert_eq!((v.faces.len(), v.edges.len()), (3, 3));
            }
        }
    }
}

#[test]
fn a_hexagonal_frustum_has_eight_faces_eighteen_edges_twelve_vertices() {
    for mesher in [Mesher::Cones, Mesher::TetGen] {
        let scene = load("pillar", Some(mesher), 0);
        assert_eq!(
            counts(body(&scene, "base")),
            (8, 18, 12),
            "{}",
            mesher.meshes()
        );
    }
}

#[test]
fn the_internal_edges_block_has_no_edge_or_vertex_inside_its_flat_top() {
    for mesher in [Mesher::Cones, Mesher::TetGen] {
        for refine in 0..=1 {
            let scene = load("internal-edges", Some(mesher), refine);
            let block = body(&scene, "tessellated-block");
            let brep = Brep::of(block);
            assert_eq!(counts(block), (6, 12, 8));
            let up = scene.up;
            let top = brep
                .faces
                .iter()
                .position(|f| (f.normal - up).length() < 1e-9)
                .expect("a face facing up");
            let top_face = &brep.faces[top];
            // The authored top is ten triangles, refined four each.
            assert!(top_face.triangles.len() >= 10);
            assert_eq!(top_face.edges.len(), 4);
            assert_eq!(top_face.vertices.len(), 4);
            // No B-rep edge has the top on both sides or runs through the
            // top's inside: every non-flat surface edge with a vertex in the
            // top's plane lies on the top's boundary.
            // Strictly inside the top's rectangle, seen from above.
            let axes = [scene.horizontal, up.cross(scene.horizontal)];
            let range = |axis: DVec3| {
                block
                    .vertices
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                        (lo.min(axis.dot(*p)), hi.max(axis.dot(*p)))
                    })
            };
            let inside = |p: DVec3| {
                axes.iter().all(|&axis| {
                    let (lo, hi) = range(axis);
                    axis.dot(p) > lo + 1e-9 && axis.dot(p) < hi - 1e-9
                })
            };
            for (s, edge) in block.surface_edges.iter().enumerate() {
                let [a, b] = edge.vertices.map(|v| block.vertices[v as usize]);
                let on_top = |p: DVec3| (up.dot(p) - top_face.offset).abs() < 1e-9;
                if on_top(a) && on_top(b) && (inside(a) || inside(b)) {
                    assert_eq!(edge.kind, EdgeKind::Flat, "surface edge {s}");
                    assert_eq!(brep.edge_of_surface_edge[s], None);
                }
            }
            for v in &brep.vertices {
                assert!(!inside(block.vertices[v.mesh_vertex as usize]));
            }
        }
    }
}

#[test]
fn every_builtin_body_has_planar_faces_and_a_sphere_b_rep() {
    for id in builtin_ids() {
        for mesher in [Mesher::Cones, Mesher::TetGen] {
            let scene = load(id, Some(mesher), 0);
            for body in &scene.bodies {
                let what = format!("{id}/{} ({})", body.name, mesher.meshes());
                let brep = Brep::of(&body.mesh);
                check_planar_and_consistent(&body.mesh, &brep, &what);
            }
        }
    }
}

#[test]
fn the_b_rep_is_deterministic() {
    let scene = load("pillar", Some(Mesher::TetGen), 1);
    for body in &scene.bodies {
        assert_eq!(Brep::of(&body.mesh), Brep::of(&body.mesh.clone()));
    }
}
