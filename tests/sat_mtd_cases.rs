//! Hand-built cases for SAT-MTD (Cheng Yi & Drumwright, §III-B and §IV;
//! `docs/design/other-methods.md`), each with the answer Cheng Yi &
//! Drumwright give: a box resting
//! on a box (four contacts at the small box's corners, face normal, depth
//! 0); the same box sunk into the other (depth = −sink, contacts on the
//! plane halfway); a face tilted within the envelope (four contacts, each
//! with its own gap); the box lifted within the envelope and beyond it; the
//! box tilted onto one edge (two contacts at the edge's
//! ends); two boxes corner to corner (indeterminate normal: no contact,
//! counted); a non-convex body (not applicable, with the body named by the
//! simulation's step record).
//!
//! Body A is index 0 (fixed), B index 1 (free); normals point from A to B.

mod common;

use common::{cuboid, hand_built_params, CLOSE};
use contactlab::contact::{
    detect, method_by_id, BodyAtPose, ContactSet, FeatureKind, MethodHistory, MethodParams,
};
use contactlab::mesh::TetMesh;
use contactlab::scene::builtin::builtin_text;
use contactlab::sim::{SimSettings, Simulation};
use glam::{DQuat, DVec3};

fn params() -> MethodParams {
    hand_built_params()
}

fn cube(side: f64) -> TetMesh {
    cuboid(side, side, side)
}

/// SAT-MTD on A fixed at the origin and B at `position`, turned by
/// `rotation`.
fn detect_pair(a: &TetMesh, b: &TetMesh, position: DVec3, rotation: DQuat) -> ContactSet {
    let poses = [
        BodyAtPose::at_rest(a, DVec3::ZERO, DQuat::IDENTITY, true),
        BodyAtPose::at_rest(b, position, rotation, false),
    ];
    let method = method_by_id("sat-mtd").expect("registered");
    detect(&poses, method, &params(), &mut MethodHistory::default()).expect("a method")
}

fn same_points(got: &[DVec3], expected: &[DVec3]) {
    assert_eq!(got.len(), expected.len(), "{got:?} vs {expected:?}");
    for e in expected {
        assert!(
            got.iter().any(|g| (*g - *e).length() < CLOSE),
            "{e} missing from {got:?}"
        );
    }
}

fn top_corners(half: f64, y: f64) -> Vec<DVec3> {
    let mut out = Vec::new();
    for x in [-half, half] {
        for z in [-half, half] {
            out.push(DVec3::new(x, y, z));
        }
    }
    out
}

#[test]
fn a_box_on_a_box_gives_four_corners_with_the_face_normal() {
    let (big, small) = (cube(2.0), cube(1.0));
    let set = detect_pair(&big, &small, DVec3::new(0.0, 1.5, 0.0), DQuat::IDENTITY);
    assert_eq!(set.indeterminate, 0);
    assert!(set.not_applicable.is_empty());
    let points: Vec<DVec3> = set.contacts.iter().map(|c| c.position).collect();
    same_points(&points, &top_corners(0.5, 1.0));
    for c in &set.contacts {
        assert!((c.normal - DVec3::Y).length() < CLOSE, "{c:?}");
        assert!(c.depth.abs() < CLOSE, "{c:?}");
        assert_eq!(c.features, FeatureKind::FaceFace);
    }
    assert_eq!(set.regions.len(), 1);
    assert_eq!(set.regions[0].outline.dimension, 2);
}

#[test]
fn a_sunk_box_reports_minus_the_sink_on_the_halfway_plane() {
    let (big, small) = (cube(2.0), cube(1.0));
    for sink in [0.003, 0.2] {
        let set = detect_pair(
            &big,
            &small,
            DVec3::new(0.1, 1.5 - sink, -0.2),
            DQuat::IDENTITY,
        );
        let points: Vec<DVec3> = set.contacts.iter().map(|c| c.position).collect();
        let expected: Vec<DVec3> = top_corners(0.5, 1.0 - 0.5 * sink)
            .into_iter()
            .map(|p| p + DVec3::new(0.1, 0.0, -0.2))
            .collect();
        same_points(&points, &expected);
        for c in &set.contacts {
            assert!((c.normal - DVec3::Y).length() < CLOSE, "{c:?}");
            assert!((c.depth + sink).abs() < CLOSE, "sink {sink}: {c:?}");
        }
    }
}

#[test]
fn a_box_lifted_within_the_envelope_reports_the_gap_and_beyond_it_nothing() {
    let (big, small) = (cube(2.0), cube(1.0));
    let set = detect_pair(&big, &small, DVec3::new(0.0, 1.504, 0.0), DQuat::IDENTITY);
    assert_eq!(set.contacts.len(), 4);
    for c in &set.contacts {
        assert!((c.normal - DVec3::Y).length() < CLOSE, "{c:?}");
        assert!((c.depth - 0.004).abs() < CLOSE, "{c:?}");
        assert!((c.position.y - 1.002).abs() < CLOSE, "{c:?}");
    }
    let far = detect_pair(&big, &small, DVec3::new(0.0, 1.52, 0.0), DQuat::IDENTITY);
    assert!(far.contacts.is_empty());
}

#[test]
fn a_box_tilted_onto_an_edge_gives_the_edge_ends() {
    let (big, small) = (cube(2.0), cube(1.0));
    let angle = 30f64.to_radians();
    // The lowest edge of the turned unit cube lies (cos + sin)/2 below its
    // centre, at x = (sin − cos)/2 from it (the corner (−½, −½) turned).
    let drop = 0.5 * (angle.cos() + angle.sin());
    let x = 0.5 * (angle.sin() - angle.cos());
    let set = detect_pair(
        &big,
        &small,
        DVec3::new(0.0, 1.0 + drop, 0.0),
        DQuat::from_rotation_z(angle),
    );
    assert_eq!(set.indeterminate, 0);
    let points: Vec<DVec3> = set.contacts.iter().map(|c| c.position).collect();
    same_points(
        &points,
        &[DVec3::new(x, 1.0, -0.5), DVec3::new(x, 1.0, 0.5)],
    );
    for c in &set.contacts {
        assert!((c.normal - DVec3::Y).length() < CLOSE, "{c:?}");
        assert!(c.depth.abs() < CLOSE, "{c:?}");
        assert_eq!(c.features, FeatureKind::FaceEdge);
    }
}

#[test]
fn corner_on_corner_is_indeterminate_no_contact_counted() {
    let box2 = cube(2.0);
    // Touching corners exactly, and overlapping by less than the tolerance.
    for offset in [2.0, 2.0 - 1e-7] {
        let set = detect_pair(&box2, &box2, DVec3::splat(offset), DQuat::IDENTITY);
        assert!(set.contacts.is_empty(), "{:?}", set.contacts);
        assert_eq!(set.indeterminate, 1);
    }
    // B turned about the diagonal through the touching corners: its corner
    // (−1, −1, −1) stays on the diagonal, its edges no longer parallel to
    // A's. The contact is one point, but no normal is right.
    let turn = DQuat::from_axis_angle(DVec3::ONE.normalize(), 0.5);
    let set = detect_pair(&box2, &box2, DVec3::splat(2.0), turn);
    assert!(set.contacts.is_empty(), "{:?}", set.contacts);
    assert_eq!(set.indeterminate, 1);
}

#[test]
fn a_non_convex_body_makes_the_pair_not_applicable_with_its_name() {
    let mut sim = Simulation::new(
        "builtin:wedge-in-crack",
        builtin_text("wedge-in-crack").unwrap(),
        SimSettings {
            method: "sat-mtd".to_string(),
            ..SimSettings::default()
        },
    )
    .unwrap();
    let record = sim.step().unwrap();
    assert_eq!(record.measures.count, 0);
    assert_eq!(
        record.not_applicable,
        ["not applicable: crack-block is not convex"]
    );
}

#[test]
fn a_slightly_tilted_face_within_the_envelope_keeps_four_contacts_with_their_gaps() {
    let (big, small) = (cube(2.0), cube(1.0));
    let angle: f64 = 0.002;
    let drop = 0.5 * (angle.cos() + angle.sin());
    let set = detect_pair(
        &big,
        &small,
        DVec3::new(0.0, 1.0 + drop, 0.0),
        DQuat::from_rotation_z(angle),
    );
    let mut depths: Vec<f64> = set.contacts.iter().map(|c| c.depth).collect();
    depths.sort_by(f64::total_cmp);
    assert_eq!(depths.len(), 4, "{:?}", set.contacts);
    // The low edge touches; the high one is lifted by the unit face's
    // width times sin(angle).
    for (got, expected) in depths.iter().zip([0.0, 0.0, angle.sin(), angle.sin()]) {
        assert!((got - expected).abs() < CLOSE, "{depths:?}");
    }
    for c in &set.contacts {
        assert!((c.normal - DVec3::Y).length() < CLOSE, "{c:?}");
        // Halfway between the faces.
        assert!(
            (c.position.y - (1.0 + 0.5 * c.depth)).abs() < CLOSE,
            "{c:?}"
        );
    }
}
