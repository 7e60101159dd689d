//! The Vertex penetration method (the ArtiSynth manual, §7.4.1;
//! `docs/design/other-methods.md`, "Vertex penetration") on hand-built
//! bodies whose
//! answers follow from its definition, and its properties: invariance under
//! rigid transforms, scaling and (with `two_way`) body swap, on these cases
//! and on all the built-in scenes.
//!
//! Conventions checked (`docs/design/conventions.md`): the normal is unit and
//! points from A (body 0) to B (body 1), the way B must move to separate;
//! depth is the signed distance of the vertex from the other surface
//! (negative inside); features are (A's entity, B's entity) and `source_a`,
//! `source_b` index the B-rep entities of those kinds.
//!
//! The bodies (metres, y up): `SLAB`, a 4 × 1 × 4 box whose top face is
//! the plane y = 0; `CUBE`, a unit cube standing on it, sunk by `SINK`
//! or resting (sink 0); `spike`, one tetrahedron pointing down with its
//! tip just inside the slab near its rim.

use contactlab::contact::{
    detect, method_by_id, BodyAtPose, Contact, ContactSet, FeatureKind, MethodHistory, MethodParams,
};
use contactlab::measures::step_measures;
use contactlab::mesh::refine::refine;
use contactlab::mesh::shapes::{Cuboid, Shape};
use contactlab::mesh::tetmesh::tet_volume;
use contactlab::mesh::TetMesh;
use contactlab::scene::builtin::{builtin_ids, load_builtin};
use contactlab::scene::parse::FLAT_ANGLE;
use contactlab::scene::perturb::SeededRng;
use contactlab::scene::{LoadOptions, Scene};
use glam::{DQuat, DVec3};

/// Agreement expected of exact inputs after a handful of float operations.
const CLOSE: f64 = 1e-9;
/// Touching tolerance of the hand-built cases (bodies of about 1 m).
const TOL: f64 = 1e-6;
/// How deep the cube is sunk into the slab.
const SINK: f64 = 0.05;

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn cuboid(size: DVec3, refinements: usize) -> TetMesh {
    let mut mesh = Shape::from(Cuboid { size }).build(FLAT_ANGLE).unwrap();
    for _ in 0..refinements {
        mesh = refine(&mesh, FLAT_ANGLE).unwrap();
    }
    mesh
}

fn slab() -> TetMesh {
    cuboid(v(4.0, 1.0, 4.0), 0)
}

fn cube(refinements: usize) -> TetMesh {
    cuboid(DVec3::ONE, refinements)
}

/// A tetrahedron pointing down, its tip at `tip` and its top face at
/// y = tip.y + 1.1 (above the slab), centred over the tip.
fn spike(tip: DVec3) -> TetMesh {
    let top = tip.y + 1.1;
    let mut corners = vec![
        tip,
        v(tip.x - 0.5, top, tip.z - 0.4),
        v(tip.x + 0.5, top, tip.z - 0.4),
        v(tip.x, top, tip.z + 0.5),
    ];
    // Positively oriented: the fourth corner on the side (b − a) × (c − a)
    // points to.
    if tet_volume(corners[0], corners[1], corners[2], corners[3]) < 0.0 {
        corners.swap(1, 2);
    }
    TetMesh::new(corners, vec![[0, 1, 2, 3]], FLAT_ANGLE).unwrap()
}

/// A body of a hand-built case: mesh in its own frame, pose, velocity.
#[derive(Clone)]
struct Body {
    mesh: TetMesh,
    position: DVec3,
    rotation: DQuat,
    velocity: DVec3,
    fixed: bool,
}

impl Body {
    fn at(mesh: TetMesh, position: DVec3) -> Body {
        Body {
            mesh,
            position,
            rotation: DQuat::IDENTITY,
            velocity: DVec3::ZERO,
            fixed: false,
        }
    }

    fn moving(self, velocity: DVec3) -> Body {
        Body { velocity, ..self }
    }

    fn pose(&self) -> BodyAtPose<'_> {
        BodyAtPose {
            velocity: self.velocity,
            ..BodyAtPose::at_rest(&self.mesh, self.position, self.rotation, self.fixed)
        }
    }

    /// The body after x ↦ s (R x + t) applied to the world.
    fn transformed(&self, rotation: DQuat, translation: DVec3, scale: f64) -> Body {
        Body {
            mesh: self.mesh.map_vertices(|p| p * scale),
            position: (rotation * self.position + translation) * scale,
            rotation: (rotation * self.rotation).normalize(),
            velocity: rotation * self.velocity * scale,
            fixed: self.fixed,
        }
    }
}

fn params(two_way: bool, tol: f64) -> MethodParams {
    MethodParams {
        touch_tol: tol,
        two_way,
        ..MethodParams::default()
    }
}

fn detect_with(bodies: &[Body], params: &MethodParams) -> ContactSet {
    let method = method_by_id("vertex-penetration").expect("registered");
    let poses: Vec<BodyAtPose> = bodies.iter().map(Body::pose).collect();
    detect(&poses, method, params, &mut MethodHistory::default()).expect("a method")
}

fn contacts(bodies: &[Body], two_way: bool) -> Vec<Contact> {
    detect_with(bodies, &params(two_way, TOL)).contacts
}

/// The cube standing on the slab, its bottom `sink` below the slab's top.
fn cube_on_slab(refinements: usize, sink: f64) -> [Body; 2] {
    [
        Body::at(cube(refinements), v(0.0, 0.5 - sink, 0.0)),
        Body::at(slab(), v(0.0, -0.5, 0.0)),
    ]
}

/// The B-rep face of `mesh` with outward normal `n`.
fn face_with_normal(mesh: &TetMesh, n: DVec3) -> u32 {
    mesh.brep()
        .faces
        .iter()
        .position(|f| (f.normal - n).length() < CLOSE)
        .expect("the box has that face") as u32
}

fn assert_close(a: DVec3, b: DVec3, what: &str) {
    assert!((a - b).length() < CLOSE, "{what}: {a} != {b}");
}

#[test]
fn a_cube_sunk_into_a_slab_gives_its_four_bottom_corners() {
    let bodies = cube_on_slab(0, SINK);
    let found = contacts(&bodies, false);
    assert_eq!(found.len(), 4);
    let top = face_with_normal(&bodies[1].mesh, DVec3::Y);
    let brep = bodies[0].mesh.brep();
    for c in &found {
        assert_eq!((c.a, c.b), (0, 1));
        assert_close(c.normal, -DVec3::Y, "normal from the cube down to the slab");
        assert!((c.depth + SINK).abs() < CLOSE, "depth {}", c.depth);
        assert!((c.position.y + SINK).abs() < CLOSE);
        assert!(
            (c.position.x.abs() - 0.5).abs() < CLOSE && (c.position.z.abs() - 0.5).abs() < CLOSE
        );
        assert_eq!(c.features, FeatureKind::VertexFace);
        let corner = brep.vertices[c.source_a as usize].mesh_vertex;
        assert_close(
            bodies[0].mesh.vertices[corner as usize] + bodies[0].position,
            c.position,
            "source_a is the corner",
        );
        assert_eq!(c.source_b, top);
    }
    // Two-way adds nothing: no corner of the slab is inside the cube.
    assert_eq!(contacts(&bodies, true), found);
}

#[test]
fn with_the_slab_as_a_only_two_way_finds_the_cube() {
    let [cube, slab] = cube_on_slab(0, SINK);
    let bodies = [slab, cube];
    assert!(
        contacts(&bodies, false).is_empty(),
        "the slab's corners are outside the cube"
    );
    let found = contacts(&bodies, true);
    assert_eq!(found.len(), 4);
    let top = face_with_normal(&bodies[0].mesh, DVec3::Y);
    for c in &found {
        assert_close(c.normal, DVec3::Y, "normal from the slab up to the cube");
        assert!((c.depth + SINK).abs() < CLOSE);
        assert_eq!(c.features, FeatureKind::FaceVertex);
        assert_eq!(c.source_a, top);
    }
}

#[test]
fn a_resting_cube_gives_every_vertex_of_its_bottom_face() {
    // Cones: the four corners. Each refinement splits every surface
    // triangle into four, adding vertices inside the bottom face's edges and
    // inside the face: (2^k + 1)^2 vertices on it, all on the slab.
    for (refinements, count) in [(0, 4), (1, 9), (2, 25)] {
        let bodies = cube_on_slab(refinements, 0.0);
        let found = contacts(&bodies, false);
        assert_eq!(found.len(), count, "{refinements} refinements");
        let mut kinds = [0; 3];
        for c in &found {
            assert_close(c.normal, -DVec3::Y, "normal");
            assert!(c.depth.abs() <= TOL, "depth {}", c.depth);
            match c.features {
                FeatureKind::VertexFace => kinds[0] += 1,
                FeatureKind::EdgeFace => kinds[1] += 1,
                FeatureKind::FaceFace => kinds[2] += 1,
                other => panic!("unexpected {other:?}"),
            }
        }
        // Corners, points inside the bottom's four edges, points inside it.
        let side = (1 << refinements) - 1;
        assert_eq!(
            kinds,
            [4, 4 * side, side * side],
            "{refinements} refinements"
        );
    }
    // Lifted beyond the tolerance: nothing; within it: the same contacts,
    // now with a positive depth.
    assert!(contacts(&cube_on_slab(0, -2.0 * TOL), false).is_empty());
    let near = contacts(&cube_on_slab(0, -0.5 * TOL), false);
    assert_eq!(near.len(), 4);
    assert!(near
        .iter()
        .all(|c| (c.depth - 0.5 * TOL).abs() < CLOSE * TOL));
}

#[test]
fn a_resting_cube_is_one_square_region() {
    let set = detect_with(&cube_on_slab(1, 0.0), &params(false, TOL));
    assert_eq!(set.regions.len(), 1);
    let outline = &set.regions[0].outline;
    assert_eq!(outline.dimension, 2);
    assert_eq!(outline.points.len(), 4);
    for p in &outline.points {
        assert!(
            (p.x.abs() - 0.5).abs() < CLOSE && p.y.abs() < CLOSE && (p.z.abs() - 0.5).abs() < CLOSE
        );
    }
    assert!(set.contacts.iter().all(|c| c.region == Some(0)));
}

#[test]
fn a_tilted_cube_gives_a_point_or_a_segment_region() {
    // Tipped about z by a small angle, then about x: only the lowest
    // corner is in the slab.
    let tip = |rotation: DQuat| {
        let mut bodies = cube_on_slab(0, 0.0);
        bodies[0].rotation = rotation;
        // Lowest corner 0.05 below the top of the slab.
        let lowest = bodies[0]
            .mesh
            .vertices
            .iter()
            .map(|&p| (rotation * p).y)
            .fold(f64::INFINITY, f64::min);
        bodies[0].position = v(0.0, -lowest - SINK, 0.0);
        detect_with(&bodies, &params(false, TOL))
    };
    let corner = tip(DQuat::from_rotation_z(0.2) * DQuat::from_rotation_x(0.1));
    assert_eq!(corner.contacts.len(), 1);
    assert_eq!(corner.regions.len(), 1);
    assert_eq!(corner.regions[0].outline.dimension, 0);
    assert!((corner.contacts[0].depth + SINK).abs() < CLOSE);
    // Tipped about z only: the bottom edge along z is lowest, its two ends
    // in the slab, one segment.
    let edge = tip(DQuat::from_rotation_z(0.2));
    assert_eq!(edge.contacts.len(), 2);
    assert_eq!(edge.regions.len(), 1);
    assert_eq!(edge.regions[0].outline.dimension, 1);
    assert!(edge.contacts.iter().all(|c| (c.depth + SINK).abs() < CLOSE));
}

/// The spike's tip 0.1 under the slab's top face and 0.1 inside its side
/// x = 2: equally near both faces.
fn spike_at_the_rim(velocity: DVec3) -> [Body; 2] {
    let tip = v(1.9, -0.1, 0.3);
    [
        Body::at(spike(tip), DVec3::ZERO).moving(velocity),
        Body::at(slab(), v(0.0, -0.5, 0.0)),
    ]
}

#[test]
fn a_tie_between_two_faces_goes_to_the_face_whose_normal_best_opposes_the_relative_velocity() {
    // The slab's velocity relative to the spike is v = −(spike's velocity).
    // Spike moving down, v = +y: the top face's normal (+y) has m · v = 1,
    // the side's (+x) 0, so the side wins (the tip keeps its distance to
    // the side and moves away from the top): B must go −x.
    let down = contacts(&spike_at_the_rim(v(0.0, -1.0, 0.0)), false);
    assert_eq!(down.len(), 1);
    assert_close(down[0].normal, -DVec3::X, "the side");
    assert_eq!(down[0].features, FeatureKind::VertexFace);
    assert!((down[0].depth + 0.1).abs() < CLOSE);
    // Spike moving in −x (and a little down), v = (1, 0.3, 0): the side
    // has m · v = 1, the top 0.3: the top wins, B must go down.
    let sideways = contacts(&spike_at_the_rim(v(-1.0, -0.3, 0.0)), false);
    assert_close(sideways[0].normal, -DVec3::Y, "the top");
    assert_eq!(sideways[0].features, FeatureKind::VertexFace);
    // At rest neither face is preferred: the average of the two normals,
    // and B's entity is the edge between the faces.
    let still = contacts(&spike_at_the_rim(DVec3::ZERO), false);
    assert_close(
        still[0].normal,
        -(DVec3::X + DVec3::Y).normalize(),
        "average of the tied normals",
    );
    assert_eq!(still[0].features, FeatureKind::VertexEdge);
    let slab_brep = slab();
    let edge = &slab_brep.brep().edges[still[0].source_b as usize];
    let faces = edge
        .faces
        .map(|f| slab_brep.brep().faces[f as usize].normal);
    let has = |n: DVec3| faces.iter().any(|f| (*f - n).length() < CLOSE);
    assert!(has(DVec3::X) && has(DVec3::Y), "{faces:?}");
    // Moving along the edge (z) also leaves them tied.
    let along = contacts(&spike_at_the_rim(v(0.0, 0.0, 1.0)), false);
    assert_close(along[0].normal, still[0].normal, "velocity along the edge");
}

/// Two cubes overlapping corner into corner: A's corner (0.5, 0.5, 0.5)
/// is 0.2 deep inside B, B's corner (0.3, 0.3, 0.3) 0.2 deep inside A.
fn overlapping_cubes(velocity: DVec3) -> [Body; 2] {
    [
        Body::at(cube(0), DVec3::ZERO).moving(velocity),
        Body::at(cube(0), DVec3::splat(0.8)),
    ]
}

#[test]
fn two_way_adds_the_other_body_s_vertices_in_the_same_region() {
    let one_way = contacts(&overlapping_cubes(v(1.0, 0.2, 0.1)), false);
    assert_eq!(one_way.len(), 1);
    let set = detect_with(&overlapping_cubes(v(1.0, 0.2, 0.1)), &params(true, TOL));
    assert_eq!(set.contacts.len(), 2);
    assert_eq!(set.regions.len(), 1, "joined through the tetrahedra");
    assert_eq!(set.regions[0].outline.dimension, 1);
    // A moves by (1, 0.2, 0.1) into B, so B's velocity relative to A is
    // v = (−1, −0.2, −0.1). A's corner is equally deep under B's faces
    // x, y, z = 0.3 (normals −x, −y, −z; m · v = 1, 0.2, 0.1): the face
    // z = 0.3 wins, B must go +z. B's corner in A, seen from B: A's faces
    // x, y, z = 0.5 against −v, again z, reversed to point from A to B.
    for c in &set.contacts {
        assert_close(c.normal, DVec3::Z, "normal");
        assert!((c.depth + 0.2).abs() < CLOSE);
    }
    assert_eq!(set.contacts[0].features, FeatureKind::VertexFace);
    assert_eq!(set.contacts[1].features, FeatureKind::FaceVertex);
}

/// Every configuration the property tests transform.
fn cases() -> Vec<(&'static str, Vec<Body>)> {
    let tilted = {
        let mut bodies = cube_on_slab(1, 0.0);
        bodies[0].rotation = DQuat::from_rotation_z(0.2);
        bodies[0].position.y -= 0.05;
        bodies
    };
    vec![
        ("sunk cube", cube_on_slab(0, SINK).to_vec()),
        ("resting refined cube", cube_on_slab(1, 0.0).to_vec()),
        ("tilted refined cube", tilted.to_vec()),
        (
            "spike moving down",
            spike_at_the_rim(v(0.0, -1.0, 0.0)).to_vec(),
        ),
        (
            "spike moving sideways",
            spike_at_the_rim(v(-1.0, -0.3, 0.0)).to_vec(),
        ),
        ("spike at rest", spike_at_the_rim(DVec3::ZERO).to_vec()),
        (
            "overlapping cubes",
            overlapping_cubes(v(1.0, 0.2, 0.1)).to_vec(),
        ),
        (
            "overlapping cubes at rest",
            overlapping_cubes(DVec3::ZERO).to_vec(),
        ),
    ]
}

/// The same contacts up to the transform: order, features, sources and
/// regions identical, positions and normals mapped, depths scaled.
fn same_up_to(
    label: &str,
    before: &[Contact],
    after: &[Contact],
    rotation: DQuat,
    translation: DVec3,
    scale: f64,
) {
    assert_eq!(before.len(), after.len(), "{label}: count");
    for (b, a) in before.iter().zip(after) {
        assert_eq!(
            (b.features, b.source_a, b.source_b, b.region),
            (a.features, a.source_a, a.source_b, a.region),
            "{label}"
        );
        let mapped = (rotation * b.position + translation) * scale;
        assert!(
            (mapped - a.position).length() < CLOSE * scale,
            "{label}: position"
        );
        assert!(
            (rotation * b.normal - a.normal).length() < CLOSE,
            "{label}: normal"
        );
        assert!(
            (b.depth * scale - a.depth).abs() < CLOSE * scale,
            "{label}: depth"
        );
    }
}

#[test]
fn contacts_are_invariant_under_rigid_transforms_and_scaling() {
    let mut rng = SeededRng::new(4);
    for (name, bodies) in cases() {
        for two_way in [false, true] {
            let before = contacts(&bodies, two_way);
            assert!(!before.is_empty(), "{name}");
            for trial in 0..4 {
                let (rotation, translation) = (rng.rotation(), rng.in_cube(20.0));
                let scale = [1.0, 0.01, 100.0, 3.7][trial];
                let moved: Vec<Body> = bodies
                    .iter()
                    .map(|b| b.transformed(rotation, translation, scale))
                    .collect();
                let after = detect_with(&moved, &params(two_way, TOL * scale)).contacts;
                same_up_to(
                    &format!("{name}, two-way {two_way}, trial {trial}"),
                    &before,
                    &after,
                    rotation,
                    translation,
                    scale,
                );
            }
        }
    }
}

/// `found` sorted by position, for comparing sets of contacts whose order
/// follows the body order.
fn by_position(mut found: Vec<Contact>) -> Vec<Contact> {
    found.sort_by(|x, y| {
        x.position
            .to_array()
            .partial_cmp(&y.position.to_array())
            .expect("finite")
            .then(x.features.cmp(&y.features))
    });
    found
}

#[test]
fn with_two_way_swapping_the_bodies_swaps_every_contact() {
    for (name, bodies) in cases() {
        let swapped_bodies = [bodies[1].clone(), bodies[0].clone()];
        let forward = by_position(contacts(&bodies, true));
        let swapped = by_position(contacts(&swapped_bodies, true));
        assert_eq!(forward.len(), swapped.len(), "{name}");
        for (f, s) in forward.iter().zip(&swapped) {
            // Body indices name the other body after the swap; the rest
            // must mirror.
            let mirrored = s.swapped();
            assert_eq!(
                (f.features, f.source_a, f.source_b),
                (mirrored.features, mirrored.source_a, mirrored.source_b),
                "{name}"
            );
            assert!((f.position - mirrored.position).length() < CLOSE, "{name}");
            assert!((f.normal - mirrored.normal).length() < CLOSE, "{name}");
            assert!((f.depth - mirrored.depth).abs() < CLOSE, "{name}");
        }
    }
}

#[test]
fn every_contact_is_well_formed_and_a_rerun_is_bit_identical() {
    for (name, bodies) in cases() {
        for two_way in [false, true] {
            let found = contacts(&bodies, two_way);
            for c in &found {
                assert!((c.normal.length() - 1.0).abs() < 1e-12, "{name}");
                assert!(c.position.is_finite() && c.depth.is_finite(), "{name}");
                assert!(c.depth <= TOL, "{name}: a contact is inside or touching");
            }
            assert_eq!(found, contacts(&bodies, two_way), "{name}");
        }
    }
}

fn scene_contacts(scene: &Scene, two_way: bool) -> Vec<Contact> {
    let method = method_by_id("vertex-penetration").expect("registered");
    let params = MethodParams {
        two_way,
        ..MethodParams::per_pair()
    };
    detect(
        &scene.poses(),
        method,
        &params,
        &mut MethodHistory::default(),
    )
    .expect("a method")
    .contacts
}

#[test]
fn every_scene_gives_the_same_contacts_and_measures_rotated_and_scaled() {
    for id in builtin_ids() {
        let base = load_builtin(id, &LoadOptions::default()).unwrap();
        let centres = |s: &Scene| s.bodies.iter().map(|b| b.position).collect::<Vec<_>>();
        for two_way in [false, true] {
            let before = scene_contacts(&base, two_way);
            let (_, reference) = step_measures(&base, &before, &centres(&base), 1.0);
            let mut rng = SeededRng::new(11);
            for (rotation, translation, scale) in [
                (rng.rotation(), rng.in_cube(20.0), 1.0),
                (DQuat::IDENTITY, DVec3::ZERO, 0.01),
                (DQuat::IDENTITY, DVec3::ZERO, 100.0),
            ] {
                let mut scene = base.clone();
                scene.transform_rigid(rotation, translation);
                scene.scale(scale);
                let after = scene_contacts(&scene, two_way);
                let label = format!("{id}, two-way {two_way}, scale {scale}");
                // Depths of touching vertices are round-off, which scales
                // with the scene; a relative bound on the rest.
                let size = scale
                    * base
                        .bodies
                        .iter()
                        .map(|b| b.mesh.diagonal())
                        .fold(0.0, f64::max);
                assert_eq!(before.len(), after.len(), "{label}: count");
                for (b, a) in before.iter().zip(&after) {
                    assert_eq!(
                        (b.a, b.b, b.features, b.source_a, b.source_b, b.region),
                        (a.a, a.b, a.features, a.source_a, a.source_b, a.region),
                        "{label}"
                    );
                    assert!(
                        (rotation * b.normal - a.normal).length() < CLOSE,
                        "{label}: normal"
                    );
                    assert!(
                        (b.depth * scale - a.depth).abs() < CLOSE * size,
                        "{label}: depth"
                    );
                }
                let (_, measures) = step_measures(&scene, &after, &centres(&scene), 1.0);
                assert_eq!(reference.count, measures.count, "{label}");
                assert_eq!(reference.correct, measures.correct, "{label}");
                assert_eq!(
                    reference.distributions.sorted_quality.len(),
                    measures.distributions.sorted_quality.len()
                );
                for (x, y) in reference
                    .distributions
                    .sorted_quality
                    .iter()
                    .zip(&measures.distributions.sorted_quality)
                {
                    assert!((x - y).abs() < CLOSE, "{label}: q {x} != {y}");
                }
            }
        }
    }
}
