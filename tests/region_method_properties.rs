//! Properties every region method (`Algorithm::BodyPair`, design
//! `methods-seeds.md`: "every method ... is invariant under rigid
//! transforms, scaling and body swap") must have, for every such method of
//! the registry, run through `contact::detect` like the simulation runs
//! them: the same count and measures after a rigid transform or a scaling
//! of the whole scene (the envelope scaled with it), on all 13 scenes with
//! both meshers; swapping the bodies flips every normal and keeps
//! positions and depths; a rerun is bit-identical; contacts follow the
//! conventions (unit normals, touching depths at the touching poses, a
//! region and B-rep entities that exist); and degenerate bodies neither
//! panic nor hang. `tests/method_properties.rs` does the same for the
//! paper's local methods.

mod common;

use common::{degenerate_tetrahedra, raw_body, UNIT_TET};
use contactlab::contact::{
    detect, methods_under_test, pair_touch_tol, Algorithm, BodyAtPose, Contact, ContactSet,
    FeatureKind, MethodHistory, MethodInfo, MethodParams,
};
use contactlab::measures::{step_measures, StepMeasures};
use contactlab::mesh::{Mesher, TetMesh};
use contactlab::scene::builtin::builtin_ids;
use contactlab::scene::perturb::SeededRng;
use contactlab::scene::Scene;
use glam::{DQuat, DVec3};

/// Every region method of the registry.
fn region_methods() -> Vec<&'static MethodInfo> {
    methods_under_test()
        .filter(|m| matches!(m.algorithm, Algorithm::BodyPair(_)))
        .collect()
}

#[test]
fn the_registry_has_region_methods() {
    assert!(!region_methods().is_empty());
}

fn load(id: &str, mesher: Mesher) -> Scene {
    common::load_meshed_by(id, mesher)
}

/// The defaults with the envelope scaled with the scene, and both bodies'
/// vertices for vertex penetration (`two_way`): one-way, it looks at A's
/// vertices only, so swapping the bodies changes its answer by design
/// (seed 004, §7.4.1), and a pair touching only at a vertex of B (a spike
/// on a wedge) has no contact.
fn params(scale: f64) -> MethodParams {
    let defaults = MethodParams::per_pair();
    MethodParams {
        envelope: defaults.envelope * scale,
        two_way: true,
        ..defaults
    }
}

fn detect_once(bodies: &[BodyAtPose], method: &MethodInfo, params: &MethodParams) -> ContactSet {
    detect(bodies, method, params, &mut MethodHistory::default()).expect("a method")
}

fn run(scene: &Scene, method: &MethodInfo, params: &MethodParams) -> (Vec<Contact>, StepMeasures) {
    let set = detect_once(&scene.poses(), method, params);
    let centres: Vec<DVec3> = scene.bodies.iter().map(|b| b.position).collect();
    let (_, measures) = step_measures(scene, &set.contacts, &centres, 1.0);
    (set.contacts, measures)
}

fn same_measures(label: &str, a: &StepMeasures, b: &StepMeasures) {
    assert_eq!(a.count, b.count, "{label}: count");
    let close = |x: Option<f64>, y: Option<f64>, what: &str| match (x, y) {
        (Some(x), Some(y)) => assert!(
            (x - y).abs() <= 1e-9 * x.abs().max(1.0),
            "{label}: {what} {x} != {y}"
        ),
        (x, y) => assert_eq!(x, y, "{label}: {what}"),
    };
    close(a.quality, b.quality, "quality");
    close(a.coverage, b.coverage, "coverage");
    close(a.area_coverage, b.area_coverage, "area coverage");
    close(a.excess, b.excess, "excess");
}

#[test]
fn every_region_method_is_invariant_under_rigid_transforms_and_scaling() {
    for method in region_methods() {
        for mesher in [Mesher::TetGen, Mesher::Cones] {
            for id in builtin_ids() {
                // One-way vertex penetration too: it is still invariant.
                for two_way in [true, false] {
                    let label = format!("{id} / {} on {mesher} (two-way {two_way})", method.id);
                    let at = |scale: f64| MethodParams {
                        two_way,
                        ..params(scale)
                    };
                    let base = load(id, mesher);
                    let (_, reference) = run(&base, method, &at(1.0));
                    for seed in [11_u64, 12] {
                        let mut rng = SeededRng::new(seed);
                        let mut scene = base.clone();
                        scene.transform_rigid(rng.rotation(), rng.in_cube(20.0));
                        let (_, moved) = run(&scene, method, &at(1.0));
                        same_measures(
                            &format!("{label} rotated (seed {seed})"),
                            &reference,
                            &moved,
                        );
                    }
                    for factor in [0.01, 100.0] {
                        let mut scene = base.clone();
                        scene.scale(factor);
                        let (_, scaled) = run(&scene, method, &at(factor));
                        same_measures(&format!("{label} scaled by {factor}"), &reference, &scaled);
                    }
                }
            }
        }
    }
}

#[test]
fn swapping_the_bodies_flips_normals_and_keeps_positions_and_depths() {
    for method in region_methods() {
        for mesher in [Mesher::TetGen, Mesher::Cones] {
            for id in builtin_ids() {
                let label = format!("{id} / {} on {mesher}", method.id);
                let scene = load(id, mesher);
                let poses = scene.poses();
                let original = detect_once(&poses, method, &params(1.0)).contacts;
                let reversed: Vec<BodyAtPose> = poses.iter().rev().copied().collect();
                let n = poses.len();
                let swapped = detect_once(&reversed, method, &params(1.0)).contacts;
                assert_eq!(original.len(), swapped.len(), "{label}: count");
                let size = scene.size();
                for c in &original {
                    let found = swapped.iter().any(|s| {
                        // Reversed body k is original body n − 1 − k.
                        (n - 1 - s.a, n - 1 - s.b) == (c.b, c.a)
                            && (s.position - c.position).length() <= 1e-9 * size
                            && (s.normal + c.normal).length() <= 1e-9
                            && (s.depth - c.depth).abs() <= 1e-9 * size
                            && s.features == c.features.swapped()
                            && (s.source_a, s.source_b) == (c.source_b, c.source_a)
                    });
                    assert!(found, "{label}: no swapped twin of {c:?}");
                }
            }
        }
    }
}

#[test]
fn a_rerun_gives_bit_identical_contacts() {
    for method in region_methods() {
        for id in ["pillar", "wall", "spike-in-hole"] {
            let scene = load(id, Mesher::TetGen);
            let (first, _) = run(&scene, method, &params(1.0));
            let (second, _) = run(&scene, method, &params(1.0));
            assert_eq!(first, second, "{id} / {}", method.id);
        }
    }
}

/// Whether `index` names a B-rep entity of the kind `dimension` (0 vertex,
/// 1 edge, 2 face) of `mesh`.
fn entity_exists(mesh: &TetMesh, dimension: u8, index: u32) -> bool {
    let brep = mesh.brep();
    (index as usize)
        < match dimension {
            0 => brep.vertices.len(),
            1 => brep.edges.len(),
            _ => brep.faces.len(),
        }
}

/// Dimensions of A's and B's features of a label.
fn dimensions(kind: FeatureKind) -> (u8, u8) {
    use FeatureKind::*;
    match kind {
        VertexVertex => (0, 0),
        VertexEdge => (0, 1),
        EdgeVertex => (1, 0),
        VertexFace => (0, 2),
        FaceVertex => (2, 0),
        EdgeEdge => (1, 1),
        EdgeFace => (1, 2),
        FaceEdge => (2, 1),
        FaceFace => (2, 2),
    }
}

#[test]
fn contacts_follow_the_conventions() {
    for method in region_methods() {
        for mesher in [Mesher::TetGen, Mesher::Cones] {
            for id in builtin_ids() {
                let label = format!("{id} / {} on {mesher}", method.id);
                let scene = load(id, mesher);
                let set = detect_once(&scene.poses(), method, &params(1.0));
                assert!(!set.contacts.is_empty(), "{label}: no contacts");
                for c in &set.contacts {
                    assert!(
                        c.position.is_finite()
                            && c.depth.is_finite()
                            && (c.normal.length() - 1.0).abs() < 1e-12,
                        "{label}: {c:?}"
                    );
                    // The initial poses touch without penetrating.
                    let tol = pair_touch_tol(&scene.bodies[c.a].mesh, &scene.bodies[c.b].mesh);
                    assert!(c.depth.abs() <= 10.0 * tol, "{label}: depth {}", c.depth);
                    let region = c.region.expect("a region method names the region") as usize;
                    let outlines = set
                        .regions
                        .iter()
                        .filter(|r| (r.a, r.b) == (c.a, c.b))
                        .count();
                    assert!(region < outlines, "{label}: region {region} of {outlines}");
                    let (da, db) = dimensions(c.features);
                    assert!(
                        entity_exists(&scene.bodies[c.a].mesh, da, c.source_a),
                        "{label}"
                    );
                    assert!(
                        entity_exists(&scene.bodies[c.b].mesh, db, c.source_b),
                        "{label}"
                    );
                }
                for r in &set.regions {
                    let n = r.outline.points.len();
                    assert!(
                        n >= 1 && r.outline.dimension == (n.min(3) - 1) as u8,
                        "{label}"
                    );
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
        for method in region_methods() {
            for (first, second) in [(&solid, &odd), (&odd, &solid), (&odd, &odd)] {
                for offset in [DVec3::ZERO, DVec3::splat(0.1), DVec3::new(0.0, 1.0, 0.0)] {
                    let bodies = [
                        BodyAtPose::at_rest(first, DVec3::ZERO, DQuat::IDENTITY, true),
                        BodyAtPose::at_rest(second, offset, DQuat::IDENTITY, false),
                    ];
                    let set = detect_once(&bodies, method, &MethodParams::default());
                    for c in &set.contacts {
                        assert!(
                            c.position.is_finite() && c.depth.is_finite(),
                            "{name}/{}",
                            method.id
                        );
                    }
                }
            }
        }
    }
}
