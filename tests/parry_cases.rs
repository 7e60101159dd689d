//! Hand-built cases for the `parry` method (parry3d's contact manifolds,
//! `docs/design/other-methods.md`, "An industry baseline: parry3d"): a box on a
//! box (the four corners of the face-on-face overlap with the face normal,
//! plus parry's one extra contact at GJK's closest points); a box sunk into
//! or lifted above a box within the envelope (the signed distance as
//! depth, negative when penetrating); and a box in the corner of an
//! L-shaped, non-convex support (its triangle mesh with internal-edge
//! fixing: floor and wall normals, no tilted normal from the internal
//! triangle edges or the reflex corner).
//!
//! Body A is index 0 (fixed), B index 1 (moving); normals point from A to
//! B.

#![cfg(feature = "parry")]

mod common;

use common::{cuboid, hand_built_params, CLOSE, FLAT};
use contactlab::contact::{
    detect, method_by_id, BodyAtPose, Contact, ContactSet, FeatureKind, MethodHistory, MethodParams,
};
use contactlab::mesh::parry_shape::ParryShape;
use contactlab::mesh::shapes::{Prism, Shape};
use contactlab::mesh::TetMesh;
use glam::{DQuat, DVec2, DVec3};

fn params() -> MethodParams {
    hand_built_params()
}

/// parry on A fixed at `a` and B free at `b`.
fn detect_pair(a: (&TetMesh, DVec3), b: (&TetMesh, DVec3, DQuat)) -> ContactSet {
    let poses = [
        BodyAtPose::at_rest(a.0, a.1, DQuat::IDENTITY, true),
        BodyAtPose::at_rest(b.0, b.1, b.2, false),
    ];
    let method = method_by_id("parry").expect("registered");
    detect(&poses, method, &params(), &mut MethodHistory::default()).expect("a method")
}

fn assert_normal(c: &Contact, n: DVec3) {
    assert!((c.normal - n).length() < CLOSE, "{c:?} is not along {n}");
}

fn near(p: DVec3, q: DVec3) -> bool {
    (p - q).length() < CLOSE
}

/// The box's bottom corners at height `y`.
fn box_corners(y: f64) -> Vec<DVec3> {
    let mut out = Vec::new();
    for x in [-0.2, 0.8] {
        for z in [-0.7, 0.3] {
            out.push(DVec3::new(x, y, z));
        }
    }
    out
}

#[test]
fn a_box_on_a_box_gives_the_four_corners_and_the_gjk_point_with_the_face_normal() {
    let (ground, small) = (cuboid(4.0, 1.0, 4.0), cuboid(1.0, 1.0, 1.0));
    let set = detect_pair(
        (&ground, DVec3::ZERO),
        (&small, DVec3::new(0.3, 1.0, -0.2), DQuat::IDENTITY),
    );
    // parry clips B's bottom face against A's top face: B's four corners lie
    // on A's face, (face, vertex); then one more contact at GJK's closest
    // points, inside both faces.
    let corners: Vec<&Contact> = set
        .contacts
        .iter()
        .filter(|c| c.features == FeatureKind::FaceVertex)
        .collect();
    assert_eq!(corners.len(), 4, "{:?}", set.contacts);
    for corner in box_corners(0.5) {
        assert!(
            corners.iter().any(|c| near(c.position, corner)),
            "{corner} missing"
        );
    }
    let extra: Vec<&Contact> = set
        .contacts
        .iter()
        .filter(|c| c.features != FeatureKind::FaceVertex)
        .collect();
    assert_eq!(extra.len(), 1, "{:?}", set.contacts);
    assert_eq!(extra[0].features, FeatureKind::FaceFace);
    let p = extra[0].position;
    assert!(
        (p.y - 0.5).abs() < CLOSE && (-0.2..=0.8).contains(&p.x) && (-0.7..=0.3).contains(&p.z)
    );
    for c in &set.contacts {
        assert_normal(c, DVec3::Y);
        assert!(c.depth.abs() < CLOSE, "{c:?}");
        assert_eq!(c.region, Some(0));
    }
    // One manifold, one region: the hull of its contacts, B's bottom face.
    assert_eq!(set.regions.len(), 1);
    let outline = &set.regions[0].outline;
    assert_eq!((outline.dimension, outline.points.len()), (2, 4));
    for corner in box_corners(0.5) {
        assert!(
            outline.points.iter().any(|&q| near(q, corner)),
            "{corner} not on the outline"
        );
    }
}

#[test]
fn a_box_sunk_or_lifted_within_the_envelope_reports_the_signed_distance() {
    let (ground, small) = (cuboid(4.0, 1.0, 4.0), cuboid(1.0, 1.0, 1.0));
    for depth in [-5e-3, -1e-5, 4e-3] {
        let set = detect_pair(
            (&ground, DVec3::ZERO),
            (&small, DVec3::new(0.3, 1.0 + depth, -0.2), DQuat::IDENTITY),
        );
        assert_eq!(set.contacts.len(), 5, "depth {depth}: {:?}", set.contacts);
        for c in &set.contacts {
            assert_normal(c, DVec3::Y);
            assert!((c.depth - depth).abs() < CLOSE, "{} vs {depth}", c.depth);
            // Midway between the two surfaces.
            assert!((c.position.y - (0.5 + 0.5 * depth)).abs() < CLOSE, "{c:?}");
        }
    }
    // Apart beyond the envelope: nothing.
    let apart = detect_pair(
        (&ground, DVec3::ZERO),
        (&small, DVec3::new(0.3, 1.02, -0.2), DQuat::IDENTITY),
    );
    assert!(apart.contacts.is_empty(), "{:?}", apart.contacts);
}

#[test]
fn the_normal_points_from_a_to_b_whichever_body_is_below() {
    // B hangs under A: the normal is down, from A to B.
    let (top, small) = (cuboid(4.0, 1.0, 4.0), cuboid(1.0, 1.0, 1.0));
    let set = detect_pair(
        (&top, DVec3::ZERO),
        (&small, DVec3::new(0.3, -1.0 + 2e-3, -0.2), DQuat::IDENTITY),
    );
    assert_eq!(set.contacts.len(), 5, "{:?}", set.contacts);
    for c in &set.contacts {
        assert_normal(c, -DVec3::Y);
        assert!((c.depth + 2e-3).abs() < CLOSE, "{c:?}");
    }
}

/// An L-shaped support: floor y = 0 for x ∈ [−1, 2], wall x = −1 for y ∈
/// [0, 2], 2 deep in z; not convex (its reflex corner edge is concave).
fn l_support() -> TetMesh {
    Shape::from(Prism {
        profile: vec![
            DVec2::new(-2.0, -1.0),
            DVec2::new(2.0, -1.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(-1.0, 0.0),
            DVec2::new(-1.0, 2.0),
            DVec2::new(-2.0, 2.0),
        ],
        depth: 2.0,
        kernel: Some(DVec3::new(-1.5, -0.5, 0.0)),
    })
    .build(FLAT)
    .unwrap()
}

#[test]
fn convex_bodies_are_hulls_and_others_triangle_meshes() {
    assert!(matches!(
        cuboid(1.0, 1.0, 1.0).parry_shape(),
        ParryShape::Convex(_)
    ));
    assert!(matches!(l_support().parry_shape(), ParryShape::Mesh(_)));
}

#[test]
fn a_box_in_the_corner_of_a_non_convex_support_gets_floor_and_wall_normals() {
    let (support, unit) = (l_support(), cuboid(1.0, 1.0, 1.0));
    // Sunk 1 mm into the floor and 1 mm into the wall.
    let set = detect_pair(
        (&support, DVec3::ZERO),
        (&unit, DVec3::new(-0.501, 0.499, 0.0), DQuat::IDENTITY),
    );
    assert!(!set.contacts.is_empty());
    let (mut up, mut side) = (0, 0);
    for c in &set.contacts {
        if (c.normal - DVec3::Y).length() < 1e-6 {
            up += 1;
            assert!(
                c.position.x > -1.0 - 1e-6 && c.position.x < 0.0 + 1e-6,
                "{c:?}"
            );
        } else if (c.normal - DVec3::X).length() < 1e-6 {
            side += 1;
            assert!(c.position.y > -1e-6 && c.position.y < 1.0 + 1e-6, "{c:?}");
        } else {
            panic!("a normal neither up nor off the wall: {c:?}");
        }
        assert!((c.depth + 1e-3).abs() < 1e-6, "{c:?}");
        assert!(c.position.z.abs() <= 0.5 + 1e-6, "{c:?}");
    }
    assert!(
        up >= 3 && side >= 3,
        "{up} up, {side} side: {:?}",
        set.contacts
    );
}

#[test]
fn a_box_on_the_internal_edges_of_a_non_convex_body_gets_only_the_face_normal() {
    // The floor of the L support is cut into triangles whose internal
    // edges run under the box; FIX_INTERNAL_EDGES keeps every normal up.
    let (support, unit) = (l_support(), cuboid(1.0, 1.0, 1.0));
    for x in [-0.2, 0.5, 1.2] {
        let set = detect_pair(
            (&support, DVec3::ZERO),
            (
                &unit,
                DVec3::new(x, 0.5 - 2e-3, 0.2),
                DQuat::from_rotation_y(0.3),
            ),
        );
        assert!(set.contacts.len() >= 4, "x {x}: {:?}", set.contacts);
        for c in &set.contacts {
            assert!((c.normal - DVec3::Y).length() < 1e-6, "x {x}: {c:?}");
            assert!((c.depth + 2e-3).abs() < 1e-6, "x {x}: {c:?}");
            assert!(c.position.y.abs() < 2e-3, "x {x}: {c:?}");
        }
    }
}

/// parry on bodies at poses (the first fixed).
fn detect_poses(bodies: &[(&TetMesh, DVec3, DQuat)]) -> ContactSet {
    let poses: Vec<BodyAtPose> = bodies
        .iter()
        .enumerate()
        .map(|(i, &(mesh, position, rotation))| {
            BodyAtPose::at_rest(mesh, position, rotation, i == 0)
        })
        .collect();
    let method = method_by_id("parry").expect("registered");
    detect(&poses, method, &params(), &mut MethodHistory::default()).expect("a method")
}

/// Poses where no pair touches exactly (parry's GJK direction is then
/// decided by the geometry, not by round-off; `tests/region_method_properties.rs`
/// lists the scenes' exactly touching poses as exceptions): a turned box
/// sunk 2 mm into a box, and a box sunk 1 mm into the floor and wall of
/// the non-convex L support.
fn generic_cases() -> Vec<(TetMesh, TetMesh, DVec3, DQuat)> {
    vec![
        (
            cuboid(4.0, 1.0, 4.0),
            cuboid(1.0, 1.0, 1.0),
            DVec3::new(0.3, 1.0 - 2e-3, -0.2),
            DQuat::from_rotation_y(0.4),
        ),
        (
            l_support(),
            cuboid(1.0, 1.0, 1.0),
            DVec3::new(-0.501, 0.499, 0.0),
            DQuat::IDENTITY,
        ),
    ]
}

#[test]
fn away_from_exact_touching_parry_is_invariant_under_rigid_transforms_and_swap() {
    for (i, (a, b, position, rotation)) in generic_cases().iter().enumerate() {
        let base = detect_poses(&[(a, DVec3::ZERO, DQuat::IDENTITY), (b, *position, *rotation)]);
        assert!(!base.contacts.is_empty(), "case {i}");
        // A rigid transform of both bodies moves every contact with them,
        // except that parry's extra contact at GJK's closest points, the
        // one (face, face) contact (clipping only gives a vertex in a face
        // or crossing edges), lies anywhere in the overlap of two parallel
        // faces: the closest points of two faces are not unique, and GJK's
        // pick follows round-off. It must stay in the contact plane.
        for (turn, shift) in [
            (
                DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7),
                DVec3::new(5.0, -3.0, 2.0),
            ),
            (DQuat::from_rotation_x(2.0), DVec3::new(-10.0, 4.0, 0.5)),
        ] {
            let moved = detect_poses(&[
                (a, shift, turn),
                (b, turn * *position + shift, turn * *rotation),
            ]);
            assert_eq!(moved.contacts.len(), base.contacts.len(), "case {i}");
            for c in &base.contacts {
                let twin = moved.contacts.iter().any(|m| {
                    let offset = m.position - (turn * c.position + shift);
                    let placed = if c.features == FeatureKind::FaceFace {
                        offset.dot(m.normal).abs() < 1e-9
                    } else {
                        offset.length() < 1e-9
                    };
                    placed
                        && (m.normal - turn * c.normal).length() < 1e-9
                        && (m.depth - c.depth).abs() < 1e-9
                        && m.features == c.features
                        && (m.source_a, m.source_b) == (c.source_a, c.source_b)
                });
                assert!(twin, "case {i}: {c:?} not moved along");
            }
        }
        // Swapped: B first. parry clips from the first shape's side, so
        // the points and features may differ, but the normal flips and the
        // depth stays.
        let swapped = detect_poses(&[(b, *position, *rotation), (a, DVec3::ZERO, DQuat::IDENTITY)]);
        assert!(!swapped.contacts.is_empty(), "case {i}");
        for s in &swapped.contacts {
            let twin = base
                .contacts
                .iter()
                .any(|c| (s.normal + c.normal).length() < 1e-9 && (s.depth - c.depth).abs() < 1e-9);
            assert!(twin, "case {i}: swapped {s:?} has no flipped twin");
        }
    }
}
