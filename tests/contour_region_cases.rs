//! The contour-region method (the ArtiSynth manual, §7.4.1) on hand-built
//! pairs whose answer follows from its definition: per region, the corners
//! of the region's convex hull in its fitted plane, each with the plane's
//! normal (from A to B) and the region's deepest penetration as depth.
//! Then its invariance under rigid motions, scaling and swapping the
//! bodies, tested like the paper's methods (`docs/design/other-methods.md`,
//! "What every region method promises").
//!
//! A is body 0, the lower one; y is up; the bodies are coned meshes.

use contactlab::contact::{
    find_pair_contacts, method_by_id, Algorithm, BodyAtPose, BodyPairMethod, Contact, FeatureKind,
    MethodHistory, MethodParams,
};
use contactlab::geometry::Pose;
use contactlab::mesh::shapes::{Cuboid, Shape, Tetrahedra, Wedge};
use contactlab::mesh::TetMesh;
use glam::{DQuat, DVec3};

const FLAT: f64 = 1e-6;
/// Touching tolerance for bodies of about 2 m.
const TOL: f64 = 1e-6;
/// Agreement of positions and normals after a rigid motion or scaling.
const CLOSE: f64 = 1e-9;

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn method() -> &'static dyn BodyPairMethod {
    match method_by_id("contour-region")
        .expect("registered")
        .algorithm
    {
        Algorithm::BodyPair(m) => m,
        _ => panic!("contour-region is a region method"),
    }
}

fn cuboid(size: DVec3) -> TetMesh {
    Shape::from(Cuboid { size }).build(FLAT).unwrap()
}

/// A tetrahedron on its tip at the origin, its top face at y = 0.6 with
/// corners 0.25 from the axis.
fn spike(scale: f64) -> TetMesh {
    let corner = |k: f64| {
        let angle = k * std::f64::consts::TAU / 3.0;
        v(0.25 * angle.cos(), 0.6, 0.25 * angle.sin()) * scale
    };
    Shape::from(Tetrahedra {
        vertices: vec![DVec3::ZERO, corner(0.0), corner(2.0), corner(1.0)],
        tets: vec![[0, 1, 2, 3]],
    })
    .build(FLAT)
    .unwrap()
}

fn wedge(scale: f64) -> TetMesh {
    Shape::from(Wedge {
        half_width: scale,
        height: scale,
        half_length: scale,
    })
    .build(FLAT)
    .unwrap()
}

/// One pair: meshes (already scaled) and poses.
struct Case {
    name: &'static str,
    a: TetMesh,
    b: TetMesh,
    pose_a: Pose,
    pose_b: Pose,
}

/// Case 1: a 2 × 1 × 2 block, top at y = 0, with a unit cube sunk 0.2 into
/// it (see `tests/penetrating_regions.rs`): the contour is the square
/// x ∈ [−0.37, 0.63], z ∈ [−0.43, 0.57] at y = 0, the cube's bottom corners
/// are 0.2 deep straight below its corners.
fn box_in_box(s: f64) -> Case {
    Case {
        name: "box in box",
        a: cuboid(v(2.0, 1.0, 2.0) * s),
        b: cuboid(DVec3::ONE * s),
        pose_a: Pose::new(v(0.0, -0.5, 0.0) * s, DQuat::IDENTITY),
        pose_b: Pose::new(v(0.13, 0.3, 0.07) * s, DQuat::IDENTITY),
    }
}

/// Case 2: the spike's tip 0.15 deep in the block at (0.5, −0.15, 0): a
/// triangular contour of radius 0.0625 about the axis at y = 0.
fn spike_in_block(s: f64) -> Case {
    Case {
        name: "spike",
        a: cuboid(v(2.0, 1.0, 2.0) * s),
        b: spike(s),
        pose_a: Pose::new(v(0.0, -0.5, 0.0) * s, DQuat::IDENTITY),
        pose_b: Pose::new(v(0.5, -0.15, 0.0) * s, DQuat::IDENTITY),
    }
}

/// Case 3: two wedges crossed ridge on ridge, 0.1 into each other: the
/// contour is the diamond |x| + |z| = 0.1 on A's faces y = −|x|.
fn crossed_wedges(s: f64) -> Case {
    let upside_down = DQuat::from_rotation_y(std::f64::consts::FRAC_PI_2)
        * DQuat::from_rotation_z(std::f64::consts::PI);
    Case {
        name: "crossed wedges",
        a: wedge(s),
        b: wedge(s),
        pose_a: Pose::new(v(0.0, -1.0, 0.0) * s, DQuat::IDENTITY),
        pose_b: Pose::new(v(0.0, 0.9, 0.0) * s, upside_down),
    }
}

fn contacts_of(case: &Case, tol: f64) -> Vec<Contact> {
    let bodies = [
        BodyAtPose::at_rest(&case.a, case.pose_a.position, case.pose_a.rotation, false),
        BodyAtPose::at_rest(&case.b, case.pose_b.position, case.pose_b.rotation, false),
    ];
    let params = MethodParams {
        touch_tol: tol,
        ..MethodParams::default()
    };
    find_pair_contacts(&bodies, method(), &params, &mut MethodHistory::default()).contacts
}

/// The contacts' positions must be exactly these (in any order), each once.
fn assert_positions(contacts: &[Contact], expected: &[DVec3]) {
    assert_eq!(contacts.len(), expected.len(), "{contacts:#?}");
    for e in expected {
        assert_eq!(
            contacts
                .iter()
                .filter(|c| (c.position - *e).length() < CLOSE)
                .count(),
            1,
            "one contact at {e}: {contacts:#?}"
        );
    }
}

/// The corners of the square where the cube of cases 1 and 4 meets the
/// block's top.
const SQUARE: [DVec3; 4] = [
    DVec3::new(-0.37, 0.0, -0.43),
    DVec3::new(0.63, 0.0, -0.43),
    DVec3::new(0.63, 0.0, 0.57),
    DVec3::new(-0.37, 0.0, 0.57),
];

#[test]
fn a_box_sunk_into_a_box_has_four_contacts_at_the_contour_corners() {
    let contacts = contacts_of(&box_in_box(1.0), TOL);
    // The hull of the square contour; the cube's bottom corners project
    // onto its corners and are not added.
    assert_positions(&contacts, &SQUARE);
    for c in &contacts {
        assert!((c.normal - DVec3::Y).length() < CLOSE, "{c:?}");
        assert!((c.depth + 0.2).abs() < CLOSE, "{c:?}");
        // The block's top face and the cube's vertical edge.
        assert_eq!(c.features, FeatureKind::FaceEdge, "{c:?}");
        assert_eq!(c.region, Some(0));
    }
}

#[test]
fn a_spike_in_a_block_has_three_contacts_with_the_face_normal() {
    let contacts = contacts_of(&spike_in_block(1.0), TOL);
    let expected: Vec<DVec3> = (0..3)
        .map(|k| {
            let angle = k as f64 * std::f64::consts::TAU / 3.0;
            v(0.5 + 0.0625 * angle.cos(), 0.0, 0.0625 * angle.sin())
        })
        .collect();
    // The tip projects into the contour triangle: no contact of its own.
    assert_positions(&contacts, &expected);
    for c in &contacts {
        assert!((c.normal - DVec3::Y).length() < CLOSE, "{c:?}");
        assert!((c.depth + 0.15).abs() < CLOSE, "{c:?}");
        assert_eq!(c.features, FeatureKind::FaceEdge, "{c:?}");
    }
}

#[test]
fn crossed_wedges_have_four_contacts_at_the_diamond_with_no_depth() {
    let contacts = contacts_of(&crossed_wedges(1.0), TOL);
    // The diamond's points are not in one plane (two at y = 0, two at
    // y = −0.1); the least-squares plane through them is horizontal, and
    // the normal points up, from A's faces towards B's: no vertex is
    // inside, so the surface normals decide.
    assert_positions(
        &contacts,
        &[
            v(0.0, 0.0, 0.1),
            v(0.0, 0.0, -0.1),
            v(0.1, -0.1, 0.0),
            v(-0.1, -0.1, 0.0),
        ],
    );
    for c in &contacts {
        assert!((c.normal - DVec3::Y).length() < CLOSE, "{c:?}");
        assert_eq!(c.depth, 0.0, "{c:?}");
        let expected = if c.position.y == 0.0 {
            FeatureKind::EdgeFace
        } else {
            FeatureKind::FaceEdge
        };
        assert_eq!(c.features, expected, "{c:?}");
    }
}

/// Case 4: the unit cube resting on the block's top, off centre: the
/// touching region is the square x ∈ [−0.37, 0.63], z ∈ [−0.43, 0.57] at
/// y = 0, and nothing crosses.
fn box_on_box(s: f64) -> Case {
    Case {
        name: "box on box",
        pose_b: Pose::new(v(0.13, 0.5, 0.07) * s, DQuat::IDENTITY),
        ..box_in_box(s)
    }
}

#[test]
fn a_box_resting_on_a_box_has_four_contacts_at_the_touching_square() {
    let contacts = contacts_of(&box_on_box(1.0), TOL);
    assert_positions(&contacts, &SQUARE);
    for c in &contacts {
        assert!((c.normal - DVec3::Y).length() < CLOSE, "{c:?}");
        assert_eq!(c.depth, 0.0, "{c:?}");
        // Each corner of the touching square is a corner of the cube on
        // the block's top face: the (face, vertex) pair, not the corner of
        // the (face, face) overlap that lies at the same point.
        assert_eq!(c.features, FeatureKind::FaceVertex, "{c:?}");
    }
}

/// Whether two contact lists are the same up to order, `other` mapped by
/// the given position, normal and depth maps.
fn same_contacts(
    one: &[Contact],
    other: &[Contact],
    position: impl Fn(DVec3) -> DVec3,
    normal: impl Fn(DVec3) -> DVec3,
    depth: impl Fn(f64) -> f64,
    features: impl Fn(FeatureKind) -> FeatureKind,
) -> Result<(), String> {
    if one.len() != other.len() {
        return Err(format!("{} contacts against {}", one.len(), other.len()));
    }
    for c in one {
        let found = other.iter().any(|d| {
            (d.position - position(c.position)).length() < CLOSE
                && (d.normal - normal(c.normal)).length() < CLOSE
                && (d.depth - depth(c.depth)).abs() < CLOSE
                && d.features == features(c.features)
        });
        if !found {
            return Err(format!("nothing like {c:?} in {other:#?}"));
        }
    }
    Ok(())
}

fn cases(scale: f64) -> Vec<Case> {
    vec![
        box_in_box(scale),
        spike_in_block(scale),
        crossed_wedges(scale),
        box_on_box(scale),
    ]
}

#[test]
fn contacts_turn_and_move_with_the_pair() {
    let motions = [
        (
            DQuat::from_axis_angle(v(1.0, 2.0, -0.5).normalize(), 0.7),
            v(0.3, -1.2, 2.5),
        ),
        (
            DQuat::from_axis_angle(v(-0.3, 0.1, 1.0).normalize(), 2.9),
            v(-4.0, 0.5, 0.25),
        ),
    ];
    for case in cases(1.0) {
        let before = contacts_of(&case, TOL);
        assert!(!before.is_empty(), "{}", case.name);
        for (q, t) in motions {
            let moved = Case {
                pose_a: Pose::new(t + q * case.pose_a.position, q * case.pose_a.rotation),
                pose_b: Pose::new(t + q * case.pose_b.position, q * case.pose_b.rotation),
                a: case.a.clone(),
                b: case.b.clone(),
                ..case
            };
            let after = contacts_of(&moved, TOL);
            same_contacts(&before, &after, |p| t + q * p, |n| q * n, |d| d, |f| f)
                .unwrap_or_else(|e| panic!("{}, moved by {q}, {t}: {e}", case.name));
        }
    }
}

#[test]
fn contacts_scale_with_the_pair() {
    for scale in [0.01, 3.0] {
        for (case, scaled) in cases(1.0).into_iter().zip(cases(scale)) {
            let before = contacts_of(&case, TOL);
            let after = contacts_of(&scaled, TOL * scale);
            same_contacts(&before, &after, |p| p * scale, |n| n, |d| d * scale, |f| f)
                .unwrap_or_else(|e| panic!("{} scaled by {scale}: {e}", case.name));
        }
    }
}

#[test]
fn swapping_the_bodies_flips_every_normal_and_keeps_the_rest() {
    for case in cases(1.0) {
        let before = contacts_of(&case, TOL);
        let swapped = Case {
            a: case.b.clone(),
            b: case.a.clone(),
            pose_a: case.pose_b,
            pose_b: case.pose_a,
            ..case
        };
        let after = contacts_of(&swapped, TOL);
        same_contacts(&before, &after, |p| p, |n| -n, |d| d, FeatureKind::swapped)
            .unwrap_or_else(|e| panic!("{} swapped: {e}", case.name));
    }
}

/// The outlines the page draws: the sunk cube's region is its square
/// intersection contour (every point on the square's sides at y = 0), the
/// resting cube's is the touching square itself, corner by corner.
#[test]
fn region_outlines_are_the_contour_or_the_touching_polygon() {
    let outlines = |case: &Case| {
        let bodies = [
            BodyAtPose::at_rest(&case.a, case.pose_a.position, case.pose_a.rotation, false),
            BodyAtPose::at_rest(&case.b, case.pose_b.position, case.pose_b.rotation, false),
        ];
        let params = MethodParams {
            touch_tol: TOL,
            ..MethodParams::default()
        };
        find_pair_contacts(&bodies, method(), &params, &mut MethodHistory::default()).regions
    };
    let sunk = outlines(&box_in_box(1.0));
    assert_eq!(sunk.len(), 1);
    assert_eq!(sunk[0].outline.dimension, 2);
    // The contour has more points than the hull: the cube's side diagonals
    // and the block's top diagonal cross it too.
    assert!(sunk[0].outline.points.len() > 4, "{sunk:#?}");
    for p in &sunk[0].outline.points {
        let on_side = [p.x + 0.37, p.x - 0.63, p.z + 0.43, p.z - 0.57]
            .iter()
            .any(|d| d.abs() < CLOSE);
        assert!(on_side && p.y.abs() < CLOSE, "{p}");
    }
    let resting = outlines(&box_on_box(1.0));
    assert_eq!(resting.len(), 1);
    assert_eq!(resting[0].outline.dimension, 2);
    assert_eq!(resting[0].outline.points.len(), 4);
    for corner in SQUARE {
        assert!(
            resting[0]
                .outline
                .points
                .iter()
                .any(|p| (*p - corner).length() < CLOSE),
            "{resting:#?}"
        );
    }
}
