//! Properties every contact method must have (issue 3,
//! `docs/design/methods.md`): normals from A to B, so swapping the bodies
//! flips every normal and keeps positions and depths; the same count and
//! measures after a rigid transform or a scaling of the whole scene;
//! bit-identical results on a rerun; and no panic or hang on degenerate
//! tetrahedra.
//!
//! `find_contacts` drops contacts without a finite position, depth and unit
//! normal, so finiteness is checked on each method's own output
//! ([`raw_contacts`]), and the filter on a method made to emit bad ones.

mod common;

use common::{degenerate_tetrahedra, raw_body, UNIT_TET};
use contactlab::contact::broad_phase::broad_phase;
use contactlab::contact::world_mesh::{Tet, WorldMesh};
use contactlab::contact::{
    find_contacts, methods_and_variants, pair_touch_tol, BodyAtPose, Contact, ContactMethod,
    FeatureKind, MethodParams, RawContact, Rules,
};
use contactlab::measures::{step_measures, StepMeasures};
use contactlab::mesh::Mesher;
use contactlab::scene::builtin::{builtin_ids, load_builtin};
use contactlab::scene::perturb::SeededRng;
use contactlab::scene::{Erosion, LoadOptions, Scene};
use glam::{DQuat, DVec3};

/// Every local method of the registry with its id, `@paper-code` variants
/// included. The region methods (`Algorithm::BodyPair`) have these
/// properties tested in `tests/region_method_properties.rs` and their own
/// case files.
fn local_methods() -> Vec<(&'static str, &'static dyn ContactMethod)> {
    methods_and_variants()
        .filter_map(|m| Some((m.id, m.tet_pair()?)))
        .collect()
}

/// The local methods that treat the two bodies alike: the printed ones.
/// The `@paper-code` variants are not symmetric in A and B by design (A's
/// face normal, A-first tie order;
/// `docs/design/reference-code.md`, "What every variant shares"), so the
/// body-swap test exempts them.
fn symmetric_local_methods() -> Vec<(&'static str, &'static dyn ContactMethod)> {
    local_methods()
        .into_iter()
        .filter(|(_, m)| m.rules() == Rules::Printed)
        .collect()
}

fn load(id: &str, method: &dyn ContactMethod, epsilon: f64) -> Scene {
    load_meshed(id, method, epsilon, LoadOptions::default().mesher)
}

/// The scene meshed by `mesher` (`None`: each file's choice).
fn load_meshed(
    id: &str,
    method: &dyn ContactMethod,
    epsilon: f64,
    mesher: Option<Mesher>,
) -> Scene {
    let erosion = method.erosion(&MethodParams {
        epsilon,
        ..MethodParams::default()
    });
    load_builtin(
        id,
        &LoadOptions {
            erosion: erosion.map(Erosion::Metres),
            mesher,
            ..Default::default()
        },
    )
    .unwrap()
}

fn run(scene: &Scene, method: &dyn ContactMethod, epsilon: f64) -> (Vec<Contact>, StepMeasures) {
    let params = MethodParams {
        epsilon,
        ..MethodParams::per_pair()
    };
    let set = find_contacts(&scene.poses(), method, &params);
    let centres: Vec<DVec3> = scene.bodies.iter().map(|b| b.position).collect();
    let (_, measures) = step_measures(scene, &set.contacts, &centres, 1.0);
    (set.contacts, measures)
}

/// What the method itself emits for every tetrahedron pair `find_contacts`
/// hands it (broad-phase candidates whose two tetrahedra have a surface
/// face), before that function's filter and post-filter.
fn raw_contacts(
    bodies: &[BodyAtPose],
    method: &dyn ContactMethod,
    params: &MethodParams,
) -> Vec<RawContact> {
    let world: Vec<WorldMesh> = bodies
        .iter()
        .map(|b| WorldMesh::new(b.mesh, b.position, b.rotation))
        .collect();
    let fixed: Vec<bool> = bodies.iter().map(|b| b.fixed).collect();
    let mut raw = Vec::new();
    for c in broad_phase(&world, &fixed, method.margin(params)).expect("within the budget") {
        let a = world[c.body_a as usize].tet(c.tet_a as usize);
        let b = world[c.body_b as usize].tet(c.tet_b as usize);
        if a.has_surface() && b.has_surface() {
            let params = params.for_pair(
                bodies[c.body_a as usize].mesh,
                bodies[c.body_b as usize].mesh,
            );
            method.tet_pair(&a, &b, &params, &mut raw);
        }
    }
    raw
}

/// A finite position and depth and a finite unit normal.
fn well_formed(r: &RawContact) -> bool {
    r.position.is_finite()
        && r.depth.is_finite()
        && r.normal.is_finite()
        && (r.normal.length() - 1.0).abs() < 1e-12
}

/// The count and the scene's oracle's measures. The methods are on trial
/// here; the geometric oracle's own invariance is tested in
/// `tests/oracle_cases.rs` and `tests/scale_invariance.rs` (and it judges
/// with the paper's absolute 1 cm in `step_measures`, which a scaled scene
/// would not keep).
fn same_measures(label: &str, a: &StepMeasures, b: &StepMeasures) {
    assert_eq!(a.count, b.count, "{label}: count");
    let close = |x: Option<f64>, y: Option<f64>, what: &str| match (x, y) {
        (Some(x), Some(y)) => assert!(
            (x - y).abs() <= 1e-9 * x.abs().max(1.0),
            "{label}: {what} {x} != {y}"
        ),
        (x, y) => assert_eq!(x, y, "{label}: {what}"),
    };
    close(a.scene_quality, b.scene_quality, "quality");
    close(a.scene_coverage, b.scene_coverage, "coverage");
    close(
        a.scene_area_coverage,
        b.scene_area_coverage,
        "area coverage",
    );
    close(a.scene_excess, b.scene_excess, "excess");
}

#[test]
fn every_method_is_invariant_under_rigid_transforms_and_scaling() {
    invariant_under_rigid_transforms_and_scaling(Mesher::Cones);
}

// TetGen meshes have tetrahedra with two or three surface faces whose
// corners and edges lie in the planes of the other body's faces (the
// Pillar's blocks are one frustum cut in pieces): ties that coned meshes,
// with one surface face per tetrahedron and the kernel as its opposite
// corner, never leave to round-off (Consistent vertex's grazing edges,
// Opposing's sandwich corners on a plane; `tests/method_cases.rs`).
#[test]
fn every_method_is_invariant_under_rigid_transforms_and_scaling_on_tetgen_meshes() {
    invariant_under_rigid_transforms_and_scaling(Mesher::TetGen);
}

fn invariant_under_rigid_transforms_and_scaling(mesher: Mesher) {
    let epsilon = MethodParams::default().epsilon;
    for id in builtin_ids() {
        for (method_id, method) in symmetric_local_methods() {
            let method_id = format!("{method_id} on {mesher}");
            let base = load_meshed(id, method, epsilon, Some(mesher));
            let (_, reference) = run(&base, method, epsilon);
            for seed in [11_u64, 12] {
                let mut rng = SeededRng::new(seed);
                let mut scene = base.clone();
                scene.transform_rigid(rng.rotation(), rng.in_cube(20.0));
                let (_, moved) = run(&scene, method, epsilon);
                same_measures(
                    &format!("{id} / {} rotated (seed {seed})", method_id),
                    &reference,
                    &moved,
                );
            }
            for factor in [0.01, 100.0] {
                let mut scene = base.clone();
                scene.scale(factor);
                let (_, scaled) = run(&scene, method, epsilon * factor);
                same_measures(
                    &format!("{id} / {} scaled by {factor}", method_id),
                    &reference,
                    &scaled,
                );
            }
        }
    }
}

/// The contacts that differ by more than round-off: the first of each
/// group within `1e-9 × size` in position and depth and 1e-9 in normal.
fn distinct(contacts: &[Contact], size: f64) -> Vec<Contact> {
    let mut kept: Vec<Contact> = Vec::new();
    for c in contacts {
        if !kept.iter().any(|k| same_contact(k, c, size)) {
            kept.push(*c);
        }
    }
    kept
}

fn same_contact(k: &Contact, c: &Contact, size: f64) -> bool {
    (k.a, k.b) == (c.a, c.b)
        && (k.position - c.position).length() <= 1e-9 * size
        && (k.normal - c.normal).length() <= 1e-9
        && (k.depth - c.depth).abs() <= 1e-9 * size
}

/// The `@paper-code` variants compare with 0 exactly and merge only
/// duplicates within 10 machine epsilons (metres), as the paper's code
/// does, so their counts follow the round-off of the coordinates: on the
/// Pillar, Closest points' hard 2ε threshold keeps 28 contacts in one frame
/// and 20 in another, and the Wall's Volume-SAT count moves by hundreds
/// when the scene is turned, as the same intersection point computed from
/// two tetrahedron pairs lands within 10 ε of itself or not. That is the
/// code's behaviour, kept on purpose (`docs/design/reference-code.md`), so the
/// counts of the printed methods' test cannot be asked for. What must hold
/// is that the contacts themselves move with the scene: every free body is
/// first pushed into its neighbours by a small seeded offset, each deeper
/// than the one before, so that no corner lies exactly on a plane or at
/// exactly 2ε, and then the distinct
/// contacts (round-off duplicates merged) of the moved or scaled scene are
/// those of the original, moved or scaled.
///
/// Five variants fail even that, by their rules, and are left out:
/// Volume-SAT's, Surface-SAT's and Opposing's intersection points are the
/// code's: a cut of an edge with a face plane is kept only if it is on or
/// behind that plane too, and it lies on it up to round-off, so round-off
/// keeps or drops each cut, differently in each frame (the Pillar on TetGen
/// meshes moved rigidly, seed 11: 494 distinct Volume-SAT contacts against
/// 571). Besides, Opposing's "first strictly most opposing pair" picks among A's faces
/// that are equally opposing in exact arithmetic (the frustum's symmetric
/// sides) by round-off, so the normal itself changes with the frame, and
/// Surface-SAT's "first strictly smaller overlap" does the same among tied
/// axes (the Cliff edges scaled by 0.01; Volume-SAT's ties happen to fall
/// the same way in every frame here); and
/// Intersection's pair ends at the first edge axis along which the two
/// tetrahedra separate or exactly touch (a_max ≤ b_min, no tolerance) and
/// keeps only what came before it, so a comparison that round-off can tip
/// either way decides how many contacts a pair keeps (the Pillar on TetGen
/// meshes moved rigidly, seed 11: 255 distinct contacts against 279; we
/// did not trace which pair); and Growth, whose growing sets the scale to
/// the step factor and so can pass touching, after which the search
/// direction (an edge's or vertex's normal) is the separation of
/// overlapping tetrahedra, and whether a pair stops before or after touching
/// is a comparison with δ that round-off can tip (the Wall on TetGen meshes
/// moved rigidly, seed 11: a contact whose normal has no twin; not traced
/// further).
#[test]
fn paper_code_variants_move_with_a_rigid_transform_or_scaling_away_from_ties() {
    let epsilon = MethodParams::default().epsilon;
    let variants: Vec<_> = local_methods()
        .into_iter()
        .filter(|(_, m)| m.rules() == Rules::PaperCode)
        .collect();
    assert_eq!(variants.len(), 8, "the paper's eight methods have variants");
    let variants: Vec<_> = variants
        .into_iter()
        .filter(|(id, _)| {
            ![
                "volume-sat@paper-code",
                "opposing@paper-code",
                "surface-sat@paper-code",
                "intersection@paper-code",
                "growth@paper-code",
            ]
            .contains(id)
        })
        .collect();
    for mesher in [Mesher::TetGen, Mesher::Cones] {
        for id in builtin_ids() {
            for &(method_id, method) in &variants {
                let mut base = load_meshed(id, method, epsilon, Some(mesher));
                let mut rng = SeededRng::new(7);
                let size = base.size();
                // Each body a little deeper than the one before it (scene
                // files list stacks bottom up), so that no two keep the
                // same height and rest face on face.
                for (k, body) in base.bodies.iter_mut().filter(|b| !b.fixed).enumerate() {
                    let depth = 2e-3 * size * (k + 1) as f64;
                    body.position += rng.in_cube(1e-3 * size) - base.up * depth;
                }
                let label = format!("{id} / {method_id} on {mesher}");
                let reference = distinct(&run(&base, method, epsilon).0, size);
                let check =
                    |what: &str, moved: Vec<Contact>, back: &dyn Fn(&Contact) -> Contact| {
                        let moved: Vec<Contact> = distinct(&moved, size).iter().map(back).collect();
                        assert_eq!(
                            moved.len(),
                            reference.len(),
                            "{label} {what}: distinct count"
                        );
                        for c in &moved {
                            assert!(
                                reference.iter().any(|r| same_contact(r, c, size)),
                                "{label} {what}: no twin of {c:?}"
                            );
                        }
                    };
                for seed in [11_u64, 12] {
                    let mut rng = SeededRng::new(seed);
                    let (rotation, translation) = (rng.rotation(), rng.in_cube(20.0));
                    let mut scene = base.clone();
                    scene.transform_rigid(rotation, translation);
                    let undo = rotation.inverse();
                    check(
                        &format!("moved (seed {seed})"),
                        run(&scene, method, epsilon).0,
                        &|c| Contact {
                            position: undo * (c.position - translation),
                            normal: undo * c.normal,
                            ..*c
                        },
                    );
                }
                for factor in [0.01, 100.0] {
                    let mut scene = base.clone();
                    scene.scale(factor);
                    check(
                        &format!("scaled by {factor}"),
                        run(&scene, method, epsilon * factor).0,
                        &|c| Contact {
                            position: c.position / factor,
                            depth: c.depth / factor,
                            ..*c
                        },
                    );
                }
            }
        }
    }
}

#[test]
fn swapping_the_bodies_flips_normals_and_keeps_positions_and_depths() {
    swapping_mirrors_every_contact(Mesher::Cones);
}

#[test]
fn swapping_the_bodies_flips_normals_and_keeps_positions_and_depths_on_tetgen_meshes() {
    swapping_mirrors_every_contact(Mesher::TetGen);
}

fn swapping_mirrors_every_contact(mesher: Mesher) {
    let epsilon = MethodParams::default().epsilon;
    for id in builtin_ids().filter(|id| *id != "wall") {
        for (method_id, method) in symmetric_local_methods() {
            let method_id = format!("{method_id} on {mesher}");
            let scene = load_meshed(id, method, epsilon, Some(mesher));
            let params = MethodParams {
                epsilon,
                ..MethodParams::per_pair()
            };
            let poses = scene.poses();
            let original = find_contacts(&poses, method, &params).contacts;
            let reversed: Vec<BodyAtPose> = poses.iter().rev().copied().collect();
            let n = poses.len();
            let swapped = find_contacts(&reversed, method, &params).contacts;
            let label = format!("{id} / {}", method_id);
            assert_eq!(original.len(), swapped.len(), "{label}: count");
            let size = scene.size();
            for c in &original {
                let found = swapped.iter().any(|s| {
                    // Reversed body k is original body n − 1 − k; the swapped
                    // contact has the bodies the other way round.
                    (n - 1 - s.a, n - 1 - s.b) == (c.b, c.a)
                        && (s.position - c.position).length() <= 1e-9 * size
                        && (s.normal + c.normal).length() <= 1e-9
                        && (s.depth - c.depth).abs() <= 1e-9 * size
                });
                assert!(found, "{label}: no swapped twin of {c:?}");
            }
        }
    }
}

#[test]
fn a_rerun_gives_bit_identical_contacts() {
    let epsilon = MethodParams::default().epsilon;
    for (method_id, method) in local_methods() {
        let scene = load("pillar", method, epsilon);
        let (first, _) = run(&scene, method, epsilon);
        let (second, _) = run(&scene, method, epsilon);
        assert_eq!(first, second, "{}", method_id);
    }
}

#[test]
fn contacts_follow_the_conventions() {
    let epsilon = MethodParams::default().epsilon;
    for mesher in [Mesher::TetGen, Mesher::Cones] {
        for id in [
            "pillar",
            "arch",
            "spike-in-hole",
            "internal-edges",
            "cliff-edges",
        ] {
            for (method_id, method) in local_methods() {
                let scene = load_meshed(id, method, epsilon, Some(mesher));
                let params = MethodParams {
                    epsilon,
                    ..MethodParams::per_pair()
                };
                for r in raw_contacts(&scene.poses(), method, &params) {
                    assert!(well_formed(&r), "{id} on {mesher}/{}: {r:?}", method_id);
                }
                let (contacts, _) = run(&scene, method, epsilon);
                for c in &contacts {
                    let tol = pair_touch_tol(&scene.bodies[c.a].mesh, &scene.bodies[c.b].mesh);
                    // The initial poses touch without penetrating. No method
                    // may call a contact separated beyond the touching
                    // tolerance (Closest points measures against 2ε, so the
                    // same holds).
                    assert!(
                        c.depth <= 10.0 * tol,
                        "{id} on {mesher}/{}: depth {}",
                        method_id,
                        c.depth
                    );
                    // Methods whose depth is the penetration along the true
                    // minimum-overlap direction, or the distance to the face
                    // entered, report touching. (Surface-SAT's restricted
                    // axis, Intersection's (E,E) overlaps and the extent of
                    // Opposing's and Growth's points along their normal are
                    // larger by definition.) The vertex methods' depth is the
                    // distance to a surface face of the tetrahedron holding
                    // the vertex: on cone meshes that tetrahedron's one
                    // surface face holds every surface point it touches, but
                    // a TetGen tetrahedron can touch the surface at an edge
                    // or a corner and have its surface faces elsewhere
                    // (depth −0.93 m for Vertex only on the Pillar).
                    let touching = match method_id {
                        "volume-sat" => true,
                        "vertex-only" | "consistent-vertex" => mesher == Mesher::Cones,
                        _ => false,
                    };
                    if touching {
                        assert!(
                            c.depth >= -10.0 * tol,
                            "{id} on {mesher}/{}: depth {}",
                            method_id,
                            c.depth
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn degenerate_tetrahedra_neither_panic_nor_hang() {
    let solid = raw_body(UNIT_TET);
    for (name, corners) in degenerate_tetrahedra() {
        let odd = raw_body(corners);
        for (method_id, method) in local_methods() {
            for (first, second) in [(&solid, &odd), (&odd, &solid), (&odd, &odd)] {
                let bodies = [
                    BodyAtPose::at_rest(first, DVec3::ZERO, DQuat::IDENTITY, true),
                    BodyAtPose::at_rest(second, DVec3::new(0.1, 0.1, 0.1), DQuat::IDENTITY, false),
                ];
                let params = MethodParams {
                    touch_tol: 1e-6,
                    ..MethodParams::default()
                };
                for r in raw_contacts(&bodies, method, &params) {
                    assert!(well_formed(&r), "{name}/{}: {r:?}", method_id);
                }
            }
        }
    }
}

/// Emits, for every tetrahedron pair, one good contact and one of each kind
/// `find_contacts` must drop.
struct EmitsBadContacts;

impl EmitsBadContacts {
    const GOOD: RawContact = RawContact {
        position: DVec3::new(0.1, 0.2, 0.3),
        normal: DVec3::Y,
        depth: 0.0,
        features: FeatureKind::FaceVertex,
    };
}

impl ContactMethod for EmitsBadContacts {
    fn tet_pair(&self, _: &Tet, _: &Tet, _: &MethodParams, out: &mut Vec<RawContact>) {
        let good = Self::GOOD;
        out.extend([
            RawContact {
                position: DVec3::new(f64::NAN, 0.0, 0.0),
                ..good
            },
            RawContact {
                depth: f64::INFINITY,
                ..good
            },
            RawContact {
                normal: DVec3::new(0.0, f64::NAN, 0.0),
                ..good
            },
            RawContact {
                normal: DVec3::ZERO,
                ..good
            },
            RawContact {
                normal: DVec3::new(0.0, 2.0, 0.0),
                ..good
            },
            good,
        ]);
    }
}

#[test]
fn find_contacts_drops_contacts_without_a_finite_unit_normal() {
    let unit = raw_body([DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z]);
    let bodies = [
        BodyAtPose::at_rest(&unit, DVec3::ZERO, DQuat::IDENTITY, true),
        BodyAtPose::at_rest(&unit, DVec3::new(0.1, 0.1, 0.1), DQuat::IDENTITY, false),
    ];
    let set = find_contacts(&bodies, &EmitsBadContacts, &MethodParams::default());
    // One candidate pair: only its good contact survives, with the bodies
    // and tetrahedra it came from.
    assert_eq!(set.candidate_pairs, 1);
    assert_eq!(set.unfiltered, 1);
    let good = EmitsBadContacts::GOOD;
    assert_eq!(
        set.contacts,
        [Contact {
            a: 0,
            b: 1,
            position: good.position,
            normal: good.normal,
            depth: good.depth,
            features: good.features,
            source_a: 0,
            source_b: 0,
            region: None,
            kept_normal: false,
        }]
    );
}
