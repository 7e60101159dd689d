//! Hand-built cases for the region analysis method (Bouma & Vaněček,
//! §3–4; `docs/design/other-methods.md`), each with the answer Bouma &
//! Vaněček give: a box on a box (one face-on-face region: its four corners, the
//! face normal, kept from step to step); a box on cliff edges (the cliff
//! edges lie in the face-on-face region and are not needed); a box on the
//! internal-edges block (its internal triangle edges are no features); a
//! box in an L-shaped corner (two face regions hold the reflex corner
//! edge); a wedge in a crack (the reflex–convex edge pair: both faces of
//! the groove); Bouma & Vaněček's figure 8, a block sliding over two fingers
//! whose trailing edge reaches a finger's ridge (temporal coherence keeps
//! the face's normal; without it the collinear edges' local normal is
//! tilted); the n · v rule for a leading edge meeting a ridge; and two
//! apexes where no separating normal lets them pass (the largest n · v).
//!
//! Body A is index 0 (fixed), B index 1 (moving); normals point from A to
//! B. Shapes are built in their model frames (`Shape::build`, cone
//! meshes) and placed by position and rotation.

mod common;

use common::{cuboid, hand_built_params, CLOSE, FLAT};
use contactlab::contact::{
    detect, method_by_id, BodyAtPose, Contact, ContactSet, FeatureKind, MethodHistory, MethodParams,
};
use contactlab::mesh::shapes::{Frustum, Prism, Pyramid, Shape, TriangleMesh, Wedge};
use contactlab::mesh::TetMesh;
use glam::{DQuat, DVec2, DVec3};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

fn params() -> MethodParams {
    hand_built_params()
}

fn build(shape: Shape) -> TetMesh {
    shape.build(FLAT).unwrap()
}

/// A body and its pose and velocity.
struct Placed<'a> {
    mesh: &'a TetMesh,
    position: DVec3,
    rotation: DQuat,
    velocity: DVec3,
}

fn at(mesh: &TetMesh, position: DVec3) -> Placed<'_> {
    Placed {
        mesh,
        position,
        rotation: DQuat::IDENTITY,
        velocity: DVec3::ZERO,
    }
}

impl<'a> Placed<'a> {
    fn turned(self, rotation: DQuat) -> Self {
        Placed { rotation, ..self }
    }
    fn moving(self, velocity: DVec3) -> Self {
        Placed { velocity, ..self }
    }
}

/// Region analysis on the bodies (the first ones fixed, the last free),
/// remembering in `history`.
fn detect_with(bodies: &[Placed], history: &mut MethodHistory) -> ContactSet {
    let n = bodies.len();
    let poses: Vec<BodyAtPose> = bodies
        .iter()
        .enumerate()
        .map(|(i, b)| BodyAtPose {
            velocity: b.velocity,
            ..BodyAtPose::at_rest(b.mesh, b.position, b.rotation, i + 1 < n)
        })
        .collect();
    let method = method_by_id("region-analysis").expect("registered");
    detect(&poses, method, &params(), history).expect("a method")
}

fn detect_once(bodies: &[Placed]) -> ContactSet {
    detect_with(bodies, &mut MethodHistory::default())
}

fn assert_normal(c: &Contact, n: DVec3) {
    assert!((c.normal - n).length() < CLOSE, "{c:?} is not along {n}");
}

/// The contacts' positions, sorted, for comparison with expected sets.
fn positions(contacts: &[&Contact]) -> Vec<DVec3> {
    let mut p: Vec<DVec3> = contacts.iter().map(|c| c.position).collect();
    p.sort_by(|a, b| {
        a.x.total_cmp(&b.x)
            .then(a.y.total_cmp(&b.y))
            .then(a.z.total_cmp(&b.z))
    });
    p
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

fn corners(xs: [f64; 2], y: f64, zs: [f64; 2]) -> Vec<DVec3> {
    let mut out = Vec::new();
    for x in xs {
        for z in zs {
            out.push(DVec3::new(x, y, z));
        }
    }
    out
}

#[test]
fn a_box_on_a_box_gives_the_four_corners_with_the_face_normal() {
    let (ground, small) = (cuboid(4.0, 1.0, 4.0), cuboid(1.0, 1.0, 1.0));
    let b_centre = DVec3::new(0.3, 1.0, -0.2);
    let mut history = MethodHistory::default();
    let bodies = [at(&ground, DVec3::ZERO), at(&small, b_centre)];
    let first = detect_with(&bodies, &mut history);
    let all: Vec<&Contact> = first.contacts.iter().collect();
    same_points(&positions(&all), &corners([-0.2, 0.8], 0.5, [-0.7, 0.3]));
    for c in &first.contacts {
        assert_normal(c, DVec3::Y);
        assert_eq!(c.features, FeatureKind::FaceFace);
        assert!(c.depth.abs() < CLOSE);
        assert!(!c.kept_normal);
        assert_eq!(c.region, Some(0));
    }
    assert_eq!(first.regions.len(), 1);
    assert_eq!(first.regions[0].outline.dimension, 2);
    assert_eq!(first.regions[0].outline.points.len(), 4);
    // The same pair at the next detection keeps its normal.
    let second = detect_with(&bodies, &mut history);
    assert_eq!(second.contacts.len(), 4);
    for c in &second.contacts {
        assert_normal(c, DVec3::Y);
        assert!(c.kept_normal);
    }
}

#[test]
fn a_box_sunk_or_lifted_within_the_envelope_reports_the_depth() {
    let (ground, small) = (cuboid(4.0, 1.0, 4.0), cuboid(1.0, 1.0, 1.0));
    for depth in [-1e-3, -1e-5, 4e-3] {
        let set = detect_once(&[
            at(&ground, DVec3::ZERO),
            at(&small, DVec3::new(0.3, 1.0 + depth, -0.2)),
        ]);
        assert_eq!(set.contacts.len(), 4, "depth {depth}");
        for c in &set.contacts {
            assert_normal(c, DVec3::Y);
            assert!((c.depth - depth).abs() < CLOSE, "{} vs {depth}", c.depth);
        }
    }
    // Apart beyond the envelope: nothing.
    let apart = detect_once(&[
        at(&ground, DVec3::ZERO),
        at(&small, DVec3::new(0.3, 1.02, -0.2)),
    ]);
    assert!(apart.contacts.is_empty(), "{:?}", apart.contacts);
}

#[test]
fn a_box_sunk_deeper_than_the_envelope_is_pushed_back_along_the_face_normal() {
    // Its side edges cross the ground's top face beyond the envelope: the
    // shortest push is up, by the depth; the contacts are those of the
    // touching pose, at the real positions midway and with the real depth.
    let (ground, small) = (cuboid(4.0, 1.0, 4.0), cuboid(1.0, 1.0, 1.0));
    for depth in [-0.02, -0.3] {
        let set = detect_once(&[
            at(&ground, DVec3::ZERO),
            at(&small, DVec3::new(0.3, 1.0 + depth, -0.2)).turned(DQuat::from_rotation_y(0.2)),
        ]);
        assert_eq!(set.contacts.len(), 4, "depth {depth}");
        for c in &set.contacts {
            assert_normal(c, DVec3::Y);
            assert!((c.depth - depth).abs() < CLOSE, "{} vs {depth}", c.depth);
            assert!((c.position.y - (0.5 + 0.5 * depth)).abs() < CLOSE, "{c:?}");
        }
    }
}

/// A square frustum, bottom half-size 1.5 at y = 0, top half-size 1 at y =
/// 2: its top edges are cliff edges (the sides slope outwards below).
fn square_frustum() -> (TetMesh, DQuat) {
    let mesh = build(Shape::from(Frustum {
        sides: 4,
        bottom_radius: 1.5 * 2f64.sqrt(),
        top_radius: 2f64.sqrt(),
        height: 2.0,
    }));
    // Its corners lie on the axes; a quarter of a right angle puts its
    // edges along them.
    (mesh, DQuat::from_rotation_y(FRAC_PI_4))
}

#[test]
fn a_box_on_cliff_edges_is_held_by_the_faces_alone() {
    let (frustum, turn) = square_frustum();
    // A box exactly the size of the top (the scene `cliff-edges`), and one
    // overhanging it: either way only the up normal, at the top's corners.
    for size in [2.0, 3.0] {
        let block = cuboid(size, 1.0, size);
        let set = detect_once(&[
            at(&frustum, DVec3::ZERO).turned(turn),
            at(&block, DVec3::new(0.0, 2.5, 0.0)),
        ]);
        let all: Vec<&Contact> = set.contacts.iter().collect();
        same_points(&positions(&all), &corners([-1.0, 1.0], 2.0, [-1.0, 1.0]));
        for c in &set.contacts {
            assert_normal(c, DVec3::Y);
            assert_eq!(c.features, FeatureKind::FaceFace, "size {size}");
        }
    }
}

#[test]
fn a_box_on_the_internal_edges_block_touches_its_top_face_only() {
    // The scene `internal-edges`: a 4 × 2 × 4 block whose top is cut into
    // ten triangles, two box corners on internal vertices and two on
    // internal edges.
    let v = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
    let block = build(Shape::from(TriangleMesh {
        vertices: vec![
            v(-2.0, 1.0, 2.0),
            v(0.0, 1.0, 2.0),
            v(-1.0, 1.0, 1.0),
            v(-2.0, 1.0, 0.0),
            v(2.0, 1.0, 2.0),
            v(1.0, 1.0, 1.0),
            v(2.0, 1.0, 0.0),
            v(2.0, 1.0, -2.0),
            v(0.0, 1.0, -2.0),
            v(-2.0, 1.0, -2.0),
            v(-2.0, -1.0, -2.0),
            v(2.0, -1.0, -2.0),
            v(2.0, -1.0, 2.0),
            v(-2.0, -1.0, 2.0),
        ],
        triangles: vec![
            [0, 1, 2],
            [0, 2, 3],
            [1, 4, 5],
            [4, 6, 5],
            [6, 7, 8],
            [8, 9, 3],
            [1, 5, 8],
            [5, 6, 8],
            [1, 8, 2],
            [2, 8, 3],
            [10, 11, 12],
            [10, 12, 13],
            [11, 6, 12],
            [11, 7, 6],
            [12, 6, 4],
            [10, 13, 3],
            [10, 3, 9],
            [13, 0, 3],
            [13, 12, 1],
            [13, 1, 0],
            [12, 4, 1],
            [10, 8, 11],
            [10, 9, 8],
            [11, 8, 7],
        ],
        kernel: Some(DVec3::ZERO),
    }));
    let boxed = cuboid(2.0, 2.0, 2.0);
    let set = detect_once(&[
        at(&block, DVec3::ZERO),
        at(&boxed, DVec3::new(0.0, 2.0, 0.0)),
    ]);
    let all: Vec<&Contact> = set.contacts.iter().collect();
    same_points(&positions(&all), &corners([-1.0, 1.0], 1.0, [-1.0, 1.0]));
    let top = block
        .brep()
        .faces
        .iter()
        .position(|f| (f.normal - DVec3::Y).length() < CLOSE)
        .unwrap() as u32;
    for c in &set.contacts {
        assert_normal(c, DVec3::Y);
        assert_eq!(c.features, FeatureKind::FaceFace);
        assert_eq!(c.source_a, top);
    }
}

#[test]
fn a_box_in_a_corner_is_held_by_floor_and_wall_not_by_the_corner_edge() {
    // An L-shaped support: floor y = 0 for x ∈ [−1, 2], wall x = −1 for y ∈
    // [0, 2]; a unit box in the corner touches both faces, and its bottom
    // left edge lies in the reflex corner edge, which the two face regions
    // already hold (Bouma & Vaněček, figure 4 and Definition 2).
    let support = build(Shape::from(Prism {
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
    }));
    let unit = cuboid(1.0, 1.0, 1.0);
    let set = detect_once(&[
        at(&support, DVec3::ZERO),
        at(&unit, DVec3::new(-0.5, 0.5, 0.0)),
    ]);
    let up: Vec<&Contact> = set.contacts.iter().filter(|c| c.normal.y > 0.5).collect();
    let side: Vec<&Contact> = set.contacts.iter().filter(|c| c.normal.x > 0.5).collect();
    assert_eq!(
        up.len() + side.len(),
        set.contacts.len(),
        "{:?}",
        set.contacts
    );
    same_points(&positions(&up), &corners([-1.0, 0.0], 0.0, [-0.5, 0.5]));
    let mut wall = Vec::new();
    for y in [0.0, 1.0] {
        for z in [-0.5, 0.5] {
            wall.push(DVec3::new(-1.0, y, z));
        }
    }
    same_points(&positions(&side), &wall);
    for c in &set.contacts {
        assert_eq!(c.features, FeatureKind::FaceFace);
        assert!(c.depth.abs() < CLOSE);
    }
}

/// The scene `wedge-in-crack`'s crack block: a V-groove, walls at 45°,
/// bottom along z at the origin.
fn crack_block() -> TetMesh {
    build(Shape::from(Prism {
        profile: vec![
            DVec2::new(-1.0, -0.5),
            DVec2::new(1.0, -0.5),
            DVec2::new(1.0, 0.5),
            DVec2::new(0.5, 0.5),
            DVec2::new(0.0, 0.0),
            DVec2::new(-0.5, 0.5),
            DVec2::new(-1.0, 0.5),
        ],
        depth: 4.0,
        kernel: Some(DVec3::new(0.0, -0.25, 0.0)),
    }))
}

/// The scene's wedge (half-angle 18°), ridge up at y = 2.4 in its frame.
fn ridge_wedge() -> TetMesh {
    build(Shape::from(Wedge {
        half_width: 0.8,
        height: 2.4,
        half_length: 1.6,
    }))
}

#[test]
fn a_wedge_in_a_crack_gets_both_groove_normals_at_both_ends() {
    // The scene `wedge-in-crack`: a V-groove (walls at 45°, bottom along z
    // at the origin) and a wedge (half-angle 18°) hanging ridge down in it.
    let crack = crack_block();
    let wedge = ridge_wedge();
    let set = detect_once(&[
        at(&crack, DVec3::ZERO),
        at(&wedge, DVec3::new(0.0, 2.4, 0.0)).turned(DQuat::from_rotation_x(PI)),
    ]);
    assert_eq!(set.contacts.len(), 4, "{:?}", set.contacts);
    let s = 0.5f64.sqrt();
    for n in [DVec3::new(s, s, 0.0), DVec3::new(-s, s, 0.0)] {
        let along: Vec<&Contact> = set
            .contacts
            .iter()
            .filter(|c| (c.normal - n).length() < CLOSE)
            .collect();
        same_points(
            &positions(&along),
            &[DVec3::new(0.0, 0.0, -1.6), DVec3::new(0.0, 0.0, 1.6)],
        );
    }
    for c in &set.contacts {
        assert_eq!(c.features, FeatureKind::EdgeEdge);
    }
}

/// Two fingers, wedges with their ridges along z at x = ±1, y = 0 (faces
/// sloping at 63° from the horizontal), and a 3 × 1 × 2 block.
fn fingers() -> (TetMesh, TetMesh) {
    let finger = build(Shape::from(Wedge {
        half_width: 0.5,
        height: 1.0,
        half_length: 1.0,
    }));
    (finger, cuboid(3.0, 1.0, 2.0))
}

/// The contacts of body pair (finger, block).
fn with_finger(set: &ContactSet, finger: usize) -> Vec<&Contact> {
    set.contacts.iter().filter(|c| c.a == finger).collect()
}

#[test]
fn figure_8_a_sliding_block_keeps_the_face_normal_when_its_trailing_edge_reaches_a_ridge() {
    let (finger, block) = fingers();
    let (left, right) = (DVec3::new(-1.0, -1.0, 0.0), DVec3::new(1.0, -1.0, 0.0));
    let v = DVec3::X;
    let at_x = |x: f64| {
        [
            at(&finger, left),
            at(&finger, right),
            at(&block, DVec3::new(x, 0.5, 0.0)).moving(v),
        ]
    };
    let mut history = MethodHistory::default();
    // Before: the block's bottom face lies on both ridges (edge on face).
    let before = detect_with(&at_x(0.0), &mut history);
    assert_eq!(before.contacts.len(), 4);
    for c in &before.contacts {
        assert_normal(c, DVec3::Y);
        assert_eq!(c.features, FeatureKind::EdgeFace);
    }
    // Now: moved right by 0.5 m, its left bottom edge lies on the left ridge
    // (collinear edges, an indeterminate normal). The pair shrank from
    // (ridge, bottom face) to (ridge, an edge of that face) without
    // colliding: the face's normal stays.
    let now = detect_with(&at_x(0.5), &mut history);
    let on_left = with_finger(&now, 0);
    assert_eq!(on_left.len(), 2);
    for c in &on_left {
        assert_eq!(c.features, FeatureKind::EdgeEdge);
        assert_normal(c, DVec3::Y);
        assert!(c.kept_normal);
    }
    // Without the previous step the local geometry tilts the normal
    // between the face's and the block's side's (the bounce of figure
    // 8c); here the block moves away from the tilt, so the n · v rule
    // leaves it.
    let fresh = detect_once(&at_x(0.5));
    for c in with_finger(&fresh, 0) {
        assert!(!c.kept_normal);
        assert!(c.normal.dot(DVec3::Y) < 0.99, "{c:?}");
        assert!(c.normal.dot(v) > 0.0, "{c:?}");
    }
}

#[test]
fn the_n_dot_v_rule_turns_a_leading_edge_normal_that_opposes_the_motion() {
    // The block's right bottom edge has just reached the right ridge. The
    // local normal tilts against +x; moving right, the rule takes the
    // separating normal nearest it with n · v ≥ 0: straight up.
    let (finger, block) = fingers();
    let (left, right) = (DVec3::new(-1.0, -1.0, 0.0), DVec3::new(1.0, -1.0, 0.0));
    let place = |v: DVec3| {
        [
            at(&finger, left),
            at(&finger, right),
            at(&block, DVec3::new(-0.5, 0.5, 0.0)).moving(v),
        ]
    };
    let at_rest = detect_once(&place(DVec3::ZERO));
    let tilted = with_finger(&at_rest, 1);
    assert_eq!(tilted.len(), 2);
    for c in &tilted {
        assert_eq!(c.features, FeatureKind::EdgeEdge);
        assert!(c.normal.x < -0.1, "{c:?}");
    }
    for c in with_finger(&detect_once(&place(DVec3::X)), 1) {
        assert_normal(c, DVec3::Y);
    }
    // Moving left the local normal already has n · v > 0.
    for c in with_finger(&detect_once(&place(-DVec3::X)), 1) {
        assert!((c.normal - tilted[0].normal).length() < CLOSE);
    }
}

#[test]
fn two_apexes_take_the_separating_normal_with_the_largest_n_dot_v() {
    // The scene `spikes`: B's apex comes down and left onto A's apex faster
    // than A's left face falls away, so no separating normal has n · v ≥ 0;
    // the rule takes the one with the largest n · v, A's left face normal.
    let spike = build(Shape::from(Pyramid {
        half_width: 0.8,
        height: 2.4,
    }));
    let place = |v: DVec3| {
        [
            at(&spike, DVec3::new(0.0, -2.4, 0.0)),
            at(&spike, DVec3::new(0.0, 2.4, 0.0))
                .turned(DQuat::from_rotation_x(PI))
                .moving(v),
        ]
    };
    let falling = detect_once(&place(DVec3::new(-1.2, -4.8, 0.0)));
    assert_eq!(falling.contacts.len(), 1);
    assert_eq!(falling.contacts[0].features, FeatureKind::VertexVertex);
    assert_normal(&falling.contacts[0], DVec3::new(-2.4, 0.8, 0.0).normalize());
    // At rest the local choice: straight up (the mean face normals).
    let resting = detect_once(&place(DVec3::ZERO));
    assert_normal(&resting.contacts[0], DVec3::Y);
}

#[test]
fn the_answers_turn_with_the_scene() {
    // The wedge in the crack and the box in the corner, turned as a whole:
    // the normals turn with them.
    let rotation = DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, FRAC_PI_2 * 0.7);
    let shift = DVec3::new(3.0, -2.0, 7.0);
    let crack = crack_block();
    let wedge = ridge_wedge();
    let set = detect_once(&[
        at(&crack, shift).turned(rotation),
        at(&wedge, shift + rotation * DVec3::new(0.0, 2.4, 0.0))
            .turned(rotation * DQuat::from_rotation_x(PI)),
    ]);
    assert_eq!(set.contacts.len(), 4);
    let s = 0.5f64.sqrt();
    for n in [DVec3::new(s, s, 0.0), DVec3::new(-s, s, 0.0)] {
        let turned = rotation * n;
        assert_eq!(
            set.contacts
                .iter()
                .filter(|c| (c.normal - turned).length() < CLOSE)
                .count(),
            2
        );
    }
}
