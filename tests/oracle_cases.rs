//! The geometric oracle on hand-built tetrahedron pairs with known answers
//! (`docs/design/oracle.md`, "Definition", items 4–7; Erleben 2018, §5.1
//! and table 4 for the crack's two normals): one pair per kind of feature
//! pair — a face on a face, a face over a cliff edge, an edge on a face, a
//! corner on a face, two crossing edges, two parallel edges (an
//! indeterminate cone) and a corner in a reflex edge (the crack) — each
//! checked for its regions, its required directions, and the verdicts on
//! right, tilted and far contacts; then overlaps and gaps against the
//! envelope, and the invariance of the verdicts, region counts, minimal
//! counts and required directions under two seeded rigid motions and
//! scales of 0.1 and 10 (tetrahedron pairs and the Wall, the Pillar and the
//! Arch), under refining (split edges), and finite verdicts on degenerate
//! input. At the initial pose of five built-in scenes, with the
//! envelope shrunk to the touching tolerance, its regions must be
//! `contact::exact_regions`' (counts, hull vertices, areas): a cross-check
//! against the exact enumerator, in the tests only, so the oracle itself
//! still shares no code with it.

use contactlab::contact::exact_regions::exact_contacts;
use contactlab::contact::RELATIVE_TOUCH_TOL;
use contactlab::geometry::Pose;
use contactlab::measures::oracle::{BodyFeatures, Feasible, PairOracle, Tolerances, Verdict, Why};
use contactlab::mesh::TetMesh;
use contactlab::scene::builtin::load_builtin;
use contactlab::scene::{LoadOptions, Scene};
use glam::{DQuat, DVec3};

const EPS: f64 = 0.01;
const TOL_DEG: f64 = 1.0;

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

/// A body of tetrahedra over `vertices`, each turned positive.
fn body(vertices: Vec<DVec3>, tets: Vec<[u32; 4]>) -> TetMesh {
    let tets = tets
        .into_iter()
        .map(|[a, b, c, d]| {
            let p = |i: u32| vertices[i as usize];
            let volume = (p(b) - p(a)).dot((p(c) - p(a)).cross(p(d) - p(a)));
            if volume < 0.0 {
                [a, c, b, d]
            } else {
                [a, b, c, d]
            }
        })
        .collect();
    TetMesh::new(vertices, tets, 1e-6).expect("a valid test body")
}

fn tet(corners: [DVec3; 4]) -> TetMesh {
    body(corners.to_vec(), vec![[0, 1, 2, 3]])
}

const HOME: Pose = Pose::IDENTITY;

fn oracle(a: &TetMesh, b: &TetMesh) -> PairOracle {
    oracle_at(a, HOME, b, HOME, EPS)
}

fn oracle_at(a: &TetMesh, pose_a: Pose, b: &TetMesh, pose_b: Pose, eps: f64) -> PairOracle {
    PairOracle::new(
        &BodyFeatures::of(a),
        pose_a,
        &BodyFeatures::of(b),
        pose_b,
        Tolerances::for_bodies(a, b, eps, TOL_DEG),
    )
}

/// `n` turned by `deg` degrees about `axis`.
fn tilted(n: DVec3, axis: DVec3, deg: f64) -> DVec3 {
    DQuat::from_axis_angle(axis, deg.to_radians()) * n
}

fn verdict(o: &PairOracle, p: DVec3, n: DVec3) -> Verdict {
    o.judge(p, n).verdict
}

/// B: a large tetrahedron whose top face is z = 0, facing up.
fn floor() -> TetMesh {
    tet([
        v(-3.0, -3.0, 0.0),
        v(3.0, -3.0, 0.0),
        v(0.0, 3.0, 0.0),
        v(0.0, 0.0, -2.0),
    ])
}

fn single_ray(o: &PairOracle) -> DVec3 {
    assert_eq!(o.regions.len(), 1, "{:#?}", o.regions);
    match o.regions[0].required.as_slice() {
        [Feasible::Ray(r)] => *r,
        other => panic!("expected one required direction, got {other:?}"),
    }
}

#[test]
fn face_on_face_is_its_normal_with_three_hull_corners() {
    let a = tet([
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, 1.0, 0.0),
        v(0.0, 0.0, 1.0),
    ]);
    let b = tet([
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, 1.0, 0.0),
        v(0.0, 0.0, -1.0),
    ]);
    let o = oracle(&a, &b);
    assert!(single_ray(&o).distance(-DVec3::Z) < 1e-12);
    assert_eq!(o.min_contacts(), 3);
    assert!((o.area() - 0.5).abs() < 1e-12);
    let p = v(0.2, 0.2, 0.0);
    assert_eq!(verdict(&o, p, -DVec3::Z), Verdict::Right);
    assert_eq!(
        verdict(&o, p, tilted(-DVec3::Z, DVec3::X, 0.5)),
        Verdict::Right
    );
    assert_eq!(
        verdict(&o, p, tilted(-DVec3::Z, DVec3::X, 5.0)),
        Verdict::Wrong(Why::Normal)
    );
    // Pointing from B to A: wrong, the verdict is signed.
    assert_eq!(verdict(&o, p, DVec3::Z), Verdict::Wrong(Why::Normal));
    // The right normal where nothing touches.
    assert_eq!(
        verdict(&o, v(0.2, 0.2, 0.5), -DVec3::Z),
        Verdict::Wrong(Why::Far)
    );
    assert_eq!(
        verdict(&o, v(2.0, 2.0, 0.0), -DVec3::Z),
        Verdict::Wrong(Why::Far)
    );
    // Even at a corner of the region the face decides.
    assert_eq!(verdict(&o, v(1.0, 0.0, 0.0), -DVec3::Z), Verdict::Right);
    assert_eq!(o.coverage(&[(p, -DVec3::Z)]), (1, 1));
    assert_eq!(o.coverage(&[(p, DVec3::Z)]), (0, 1));
}

#[test]
fn edge_on_face_is_the_face_normal_with_two_ends() {
    let a = tet([
        v(-0.5, 0.0, 0.0),
        v(0.5, 0.0, 0.0),
        v(0.0, -0.5, 1.0),
        v(0.0, 0.5, 1.0),
    ]);
    let o = oracle(&a, &floor());
    assert!(single_ray(&o).distance(-DVec3::Z) < 1e-12);
    assert_eq!(o.min_contacts(), 2);
    assert_eq!(o.area(), 0.0);
    assert_eq!(verdict(&o, v(0.0, 0.0, 0.0), -DVec3::Z), Verdict::Right);
    assert_eq!(verdict(&o, v(0.5, 0.0, 0.0), -DVec3::Z), Verdict::Right);
    // Inside the edge's own cone, but the face singles out one direction.
    assert_eq!(
        verdict(&o, v(0.3, 0.0, 0.0), tilted(-DVec3::Z, DVec3::X, 30.0)),
        Verdict::Wrong(Why::Normal)
    );
    assert_eq!(
        verdict(&o, v(0.0, 0.3, 0.0), -DVec3::Z),
        Verdict::Wrong(Why::Far)
    );
}

#[test]
fn corner_on_face_is_the_face_normal_at_one_point() {
    let a = tet([
        v(0.0, 0.0, 0.0),
        v(0.5, 0.0, 1.0),
        v(-0.25, 0.4, 1.0),
        v(-0.25, -0.4, 1.0),
    ]);
    let o = oracle(&a, &floor());
    assert!(single_ray(&o).distance(-DVec3::Z) < 1e-12);
    assert_eq!(o.min_contacts(), 1);
    assert_eq!(verdict(&o, DVec3::ZERO, -DVec3::Z), Verdict::Right);
    assert_eq!(
        verdict(&o, DVec3::ZERO, tilted(-DVec3::Z, DVec3::Y, 5.0)),
        Verdict::Wrong(Why::Normal)
    );
    // Within the envelope of the point, not beyond it.
    assert_eq!(verdict(&o, v(0.005, 0.0, 0.0), -DVec3::Z), Verdict::Right);
    assert_eq!(
        verdict(&o, v(0.05, 0.0, 0.0), -DVec3::Z),
        Verdict::Wrong(Why::Far)
    );
}

#[test]
fn crossing_edges_are_their_cross_product() {
    let a = tet([
        v(-0.5, 0.0, 0.0),
        v(0.5, 0.0, 0.0),
        v(0.0, -0.5, 1.0),
        v(0.0, 0.5, 1.0),
    ]);
    let b = tet([
        v(0.0, -0.5, 0.0),
        v(0.0, 0.5, 0.0),
        v(-0.5, 0.0, -1.0),
        v(0.5, 0.0, -1.0),
    ]);
    let o = oracle(&a, &b);
    assert!(single_ray(&o).distance(-DVec3::Z) < 1e-12);
    assert_eq!(o.min_contacts(), 1);
    assert_eq!(verdict(&o, DVec3::ZERO, -DVec3::Z), Verdict::Right);
    for axis in [DVec3::X, DVec3::Y] {
        assert_eq!(
            verdict(&o, DVec3::ZERO, tilted(-DVec3::Z, axis, 5.0)),
            Verdict::Wrong(Why::Normal),
            "tilted about {axis}"
        );
    }
    // Turned about z, the edges still cross: still their cross product.
    let turned = Pose::new(DVec3::ZERO, DQuat::from_rotation_z(0.3));
    let o = oracle_at(&a, HOME, &b, turned, EPS);
    assert_eq!(verdict(&o, DVec3::ZERO, -DVec3::Z), Verdict::Right);
}

#[test]
fn parallel_edges_are_an_indeterminate_cone() {
    // A's edge (faces at ±63° from −z) on a longer edge of B (faces at
    // ±45° from +z): the feasible normals are B's arc, ±45° about −z.
    let a = tet([
        v(-0.5, 0.0, 0.0),
        v(0.5, 0.0, 0.0),
        v(0.0, -0.5, 1.0),
        v(0.0, 0.5, 1.0),
    ]);
    let b = tet([
        v(-1.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, -0.5, -0.5),
        v(0.0, 0.5, -0.5),
    ]);
    let o = oracle(&a, &b);
    assert_eq!(o.regions.len(), 1);
    assert!(
        matches!(o.regions[0].required.as_slice(), [Feasible::Cone(_)]),
        "{:?}",
        o.regions[0].required
    );
    assert_eq!(o.min_contacts(), 2);
    let p = v(0.1, 0.0, 0.0);
    assert_eq!(verdict(&o, p, -DVec3::Z), Verdict::IndeterminateRight);
    assert_eq!(
        verdict(&o, p, tilted(-DVec3::Z, DVec3::X, 30.0)),
        Verdict::IndeterminateRight
    );
    assert_eq!(
        verdict(&o, p, tilted(-DVec3::Z, DVec3::X, 45.5)),
        Verdict::IndeterminateRight
    );
    assert_eq!(
        verdict(&o, p, tilted(-DVec3::Z, DVec3::X, 50.0)),
        Verdict::Wrong(Why::Normal)
    );
    assert_eq!(
        verdict(&o, p, tilted(-DVec3::Z, DVec3::Y, 5.0)),
        Verdict::Wrong(Why::Normal)
    );
    assert_eq!(
        o.coverage(&[(p, tilted(-DVec3::Z, DVec3::X, 20.0))]),
        (1, 1)
    );
}

#[test]
fn a_face_over_a_cliff_edge_is_the_face_normal_there_too() {
    // A's bottom face overhangs B's top face past its slanted side: the
    // region is the overlap triangle, and at the cliff edge below A's face
    // the face, not the edge's cone, decides the normal.
    let a = tet([
        v(0.2, 0.2, 0.0),
        v(1.2, 0.2, 0.0),
        v(0.2, 1.2, 0.0),
        v(0.2, 0.2, 1.0),
    ]);
    let b = tet([
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, 1.0, 0.0),
        v(0.0, 0.0, -1.0),
    ]);
    let o = oracle(&a, &b);
    assert!(single_ray(&o).distance(-DVec3::Z) < 1e-12);
    assert_eq!(o.min_contacts(), 3);
    assert!((o.area() - 0.18).abs() < 1e-12);
    let on_cliff = v(0.5, 0.5, 0.0);
    assert_eq!(verdict(&o, on_cliff, -DVec3::Z), Verdict::Right);
    let into_the_edge = tilted(-DVec3::Z, v(1.0, -1.0, 0.0).normalize(), -20.0);
    assert!(into_the_edge.x < 0.0 && into_the_edge.y < 0.0);
    assert_eq!(
        verdict(&o, on_cliff, into_the_edge),
        Verdict::Wrong(Why::Normal)
    );
    // Beyond the cliff, under A's overhang, nothing touches.
    assert_eq!(
        verdict(&o, v(0.6, 0.6, 0.0), -DVec3::Z),
        Verdict::Wrong(Why::Far)
    );
}

/// A's bottom face tilted 0.2° off B's top face (the faces meet in one
/// ray), touching along x = −1
/// and rising to 1.05 cm at x = 2: the faces touch only where their planes
/// are within ε, up to x ≈ 1.865, and a contact there is judged by the face
/// pair, while one beyond is far.
#[test]
fn faces_tilted_within_the_angle_touch_only_where_their_planes_are_within_the_envelope() {
    let a = tet([
        v(-1.0, -1.0, 0.0),
        v(2.0, -1.0, 0.0),
        v(-1.0, 2.0, 0.0),
        v(-1.0, -1.0, 1.0),
    ]);
    let b = floor();
    let tilt = 0.2_f64.to_radians();
    let turn = DQuat::from_axis_angle(DVec3::Y, -tilt);
    let pivot = v(-1.0, 0.0, 0.0);
    let o = oracle_at(&a, Pose::new(pivot - turn * pivot, turn), &b, HOME, EPS);
    let rise = |x: f64| (x + 1.0) * tilt.tan();
    // 5.2 mm apart, 1.5 m from A's edge on B: the face pair's.
    let inside = v(0.5, -0.5, rise(0.5) * 0.5);
    assert_eq!(verdict(&o, inside, -DVec3::Z), Verdict::Right);
    // 1.04 cm apart, 11 cm past where the planes are ε apart: far.
    let beyond = v(1.98, -0.9, rise(1.98) * 0.5);
    assert_eq!(verdict(&o, beyond, -DVec3::Z), Verdict::Wrong(Why::Far));
    // The face piece reaches to where the planes are ε apart.
    let reach = o
        .touches
        .iter()
        .filter(|t| t.area > 0.0)
        .flat_map(|t| t.points.iter().map(|p| p.x))
        .fold(f64::NEG_INFINITY, f64::max);
    let edge = EPS / tilt.tan() - 1.0;
    assert!((reach - edge).abs() < 1e-3, "{reach} vs {edge}");
}

/// Faces 0.6° off antiparallel, within θ = 1°, touch (item 2), so their
/// normals must meet (item 4): in the mean direction, 0.3° off each face's
/// normal. With a slack of θ/4 in `cones::feasible` the pair had no
/// feasible normal and was dropped, and a contact 0.5 m from A's edge on B
/// was far.
#[test]
fn faces_within_the_angle_of_antiparallel_meet_in_one_direction() {
    let a = tet([
        v(-1.0, -1.0, 0.0),
        v(2.0, -1.0, 0.0),
        v(-1.0, 2.0, 0.0),
        v(-1.0, -1.0, 1.0),
    ]);
    let tilt = 0.6_f64.to_radians();
    let turn = DQuat::from_axis_angle(DVec3::Y, -tilt);
    let pivot = v(-1.0, 0.0, 0.0);
    let o = oracle_at(
        &a,
        Pose::new(pivot - turn * pivot, turn),
        &floor(),
        HOME,
        EPS,
    );
    // 5.2 mm apart, 0.5 m from A's edge on B: only the face pair is near.
    let p = v(-0.5, -0.5, 0.5 * tilt.tan() * 0.5);
    let mean = tilted(-DVec3::Z, DVec3::Y, -0.3);
    assert_eq!(verdict(&o, p, mean), Verdict::Right);
    assert_eq!(verdict(&o, p, -DVec3::Z), Verdict::Right);
    assert_eq!(verdict(&o, p, turn * -DVec3::Z), Verdict::Right);
    assert_eq!(
        verdict(&o, p, tilted(mean, DVec3::Y, 3.0)),
        Verdict::Wrong(Why::Normal)
    );
    assert!(single_ray(&o).angle_between(mean) < 1e-9);
}

/// B: a valley along y (a reflex edge at the origin) between walls rising
/// at 45° to x = ±1; A: a tetrahedron standing on its corner in it.
fn crack() -> (TetMesh, TetMesh) {
    let b = body(
        vec![
            v(0.0, -1.0, 0.0),
            v(0.0, 1.0, 0.0),
            v(0.0, 0.0, -1.0),
            v(-1.0, 0.0, 1.0),
            v(1.0, 0.0, 1.0),
        ],
        vec![[0, 1, 2, 3], [0, 1, 2, 4]],
    );
    let a = tet([
        v(0.0, 0.0, 0.0),
        v(0.2, 0.3, 1.0),
        v(0.2, -0.3, 1.0),
        v(-0.3, 0.0, 1.0),
    ]);
    (a, b)
}

#[test]
fn a_corner_in_a_reflex_edge_needs_both_walls() {
    let (a, b) = crack();
    let features = BodyFeatures::of(&b);
    assert!(
        features.edges.iter().any(|e| !e.convex),
        "the valley is reflex"
    );
    let o = oracle(&a, &b);
    let s = std::f64::consts::FRAC_1_SQRT_2;
    // n from A to B: into each wall, against its outward normal.
    let (left, right) = (v(-s, 0.0, -s), v(s, 0.0, -s));
    assert_eq!(o.regions.len(), 1);
    let mut required: Vec<DVec3> = o.regions[0]
        .required
        .iter()
        .map(|f| match f {
            Feasible::Ray(r) => *r,
            other => panic!("{other:?}"),
        })
        .collect();
    required.sort_by(|p, q| p.x.total_cmp(&q.x));
    assert_eq!(required.len(), 2, "{required:?}");
    assert!(required[0].distance(left) < 1e-12 && required[1].distance(right) < 1e-12);
    assert_eq!(o.min_contacts(), 1);
    assert_eq!(verdict(&o, DVec3::ZERO, left), Verdict::Right);
    assert_eq!(verdict(&o, DVec3::ZERO, right), Verdict::Right);
    // Straight down, between the walls: no wall's normal.
    assert_eq!(
        verdict(&o, DVec3::ZERO, -DVec3::Z),
        Verdict::Wrong(Why::Normal)
    );
    assert_eq!(o.coverage(&[(DVec3::ZERO, left)]), (1, 2));
    assert_eq!(
        o.coverage(&[(DVec3::ZERO, left), (DVec3::ZERO, right)]),
        (2, 2)
    );
}

/// The corner slid 4 mm along x (as the fundamental cases' spike does in
/// its first half-step): 2.8 mm into the right wall, 2.8 mm above the left
/// one, 4 mm from the reflex edge. Its face pair's piece and its edge
/// pair's lie halfway between the features, 1.4 mm apart: within ε, one
/// place (item 5). One region, asking for each wall once, and one contact
/// is its minimal count; joining at τ made two regions, three required
/// directions and a minimal count of 2.
#[test]
fn a_corner_slid_into_one_wall_of_a_reflex_edge_is_one_region() {
    let (a, b) = crack();
    let shifted = Pose::new(v(0.004, 0.0, 0.0), DQuat::IDENTITY);
    let o = oracle_at(&a, shifted, &b, HOME, EPS);
    assert_eq!(o.regions.len(), 1, "{:#?}", o.regions);
    assert_eq!(o.min_contacts(), 1);
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let (left, right) = (v(-s, 0.0, -s), v(s, 0.0, -s));
    let required = &o.regions[0].required;
    assert_eq!(required.len(), 2, "{required:?}");
    for wall in [left, right] {
        assert!(
            required.iter().any(|f| f.contains(wall, 1e-9)),
            "{wall} not required: {required:?}"
        );
    }
}

/// The same slid corner: the region requires both walls (item 7), so a
/// contact at the tip with either wall's normal must be right, though the
/// right wall's face pair is nearer than the reflex edge's pair that gives
/// the left wall. The nearest-features rule set the left wall aside; a
/// nearer pair now supersedes only a set whose pieces its features contain
/// (the right face holds the reflex edge's right piece, not its left one).
#[test]
fn a_corner_slid_into_one_wall_of_a_reflex_edge_is_judged_by_both() {
    let (a, b) = crack();
    let shifted = Pose::new(v(0.004, 0.0, 0.0), DQuat::IDENTITY);
    let o = oracle_at(&a, shifted, &b, HOME, EPS);
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let (left, right) = (v(-s, 0.0, -s), v(s, 0.0, -s));
    let tip = v(0.004, 0.0, 0.0);
    assert_eq!(verdict(&o, tip, right), Verdict::Right);
    assert_eq!(verdict(&o, tip, left), Verdict::Right);
    assert_eq!(
        verdict(&o, tip, tilted(right, DVec3::Y, -10.0)),
        Verdict::Wrong(Why::Normal)
    );
    assert_eq!(verdict(&o, tip, -DVec3::Z), Verdict::Wrong(Why::Normal));
    assert_eq!(o.coverage(&[(tip, right)]), (1, 2));
    assert_eq!(o.coverage(&[(tip, right), (tip, left)]), (2, 2));
}

/// A corner resting on a face ε/2 from one of its edges is judged by the
/// face alone: the corner–edge pair's cone, wider than the face's normal,
/// is superseded because the face contains the edge.
#[test]
fn a_corner_near_a_face_edge_is_judged_by_the_face() {
    let a = tet([
        v(0.0, 0.0, 0.0),
        v(0.5, 0.0, 1.0),
        v(-0.25, 0.4, 1.0),
        v(-0.25, -0.4, 1.0),
    ]);
    // The floor's edge from (−3, −3) to (3, −3): put the corner 5 mm in.
    let at = Pose::new(v(0.0, -3.0 + 0.5 * EPS, 0.0), DQuat::IDENTITY);
    let o = oracle_at(&a, at, &floor(), HOME, EPS);
    let p = at.position;
    assert_eq!(verdict(&o, p, -DVec3::Z), Verdict::Right);
    assert_eq!(
        verdict(&o, p, tilted(-DVec3::Z, DVec3::X, 20.0)),
        Verdict::Wrong(Why::Normal)
    );
}

#[test]
fn the_envelope_takes_overlaps_and_gaps_up_to_it() {
    let a = tet([
        v(0.0, 0.0, 0.0),
        v(0.5, 0.0, 1.0),
        v(-0.25, 0.4, 1.0),
        v(-0.25, -0.4, 1.0),
    ]);
    let b = floor();
    for (dz, touches) in [(-0.5 * EPS, true), (0.5 * EPS, true), (2.0 * EPS, false)] {
        let o = oracle_at(
            &a,
            Pose::new(v(0.0, 0.0, dz), DQuat::IDENTITY),
            &b,
            HOME,
            EPS,
        );
        assert_eq!(o.regions.len(), usize::from(touches), "dz = {dz}");
        let expected = if touches {
            Verdict::Right
        } else {
            Verdict::Wrong(Why::Far)
        };
        assert_eq!(verdict(&o, v(0.0, 0.0, dz / 2.0), -DVec3::Z), expected);
    }
}

#[test]
fn verdicts_survive_a_rigid_motion_and_a_uniform_scale() {
    let (a, b) = crack();
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let probes = [
        (DVec3::ZERO, v(-s, 0.0, -s)),
        (DVec3::ZERO, v(s, 0.0, -s)),
        (DVec3::ZERO, -DVec3::Z),
        (v(0.0, 0.0, 0.5), v(s, 0.0, -s)),
        (DVec3::ZERO, tilted(v(s, 0.0, -s), DVec3::Y, 3.0)),
    ];
    let at_home = oracle(&a, &b);
    let expected: Vec<Verdict> = probes
        .iter()
        .map(|&(p, n)| verdict(&at_home, p, n))
        .collect();
    let rotation = DQuat::from_euler(glam::EulerRot::XYZ, 0.7, -1.1, 2.3);
    let shift = v(3.0, -2.0, 7.5);
    let moved = oracle_at(
        &a,
        Pose::new(shift, rotation),
        &b,
        Pose::new(shift, rotation),
        EPS,
    );
    for (k, &(p, n)) in probes.iter().enumerate() {
        assert_eq!(
            verdict(&moved, shift + rotation * p, rotation * n),
            expected[k],
            "probe {k}"
        );
    }
    let scale = 10.0;
    let (a10, b10) = (a.map_vertices(|x| x * scale), b.map_vertices(|x| x * scale));
    let scaled = oracle_at(&a10, HOME, &b10, HOME, EPS * scale);
    for (k, &(p, n)) in probes.iter().enumerate() {
        assert_eq!(
            verdict(&scaled, p * scale, n),
            expected[k],
            "probe {k} scaled"
        );
    }
}

/// The oracle's regions at a scene's initial pose with the envelope at the
/// touching tolerance: region count, minimal count and area summed over
/// every body pair. Bodies farther apart than their bounding spheres and
/// the envelope are skipped. Every region of these scenes is planar, so it
/// must ask for exactly one direction, a single one: the aligned edges and
/// corners of the Wall's bricks included (their cones meet in one ray).
fn oracle_totals(scene: &Scene) -> (usize, usize, f64) {
    let features: Vec<BodyFeatures> = scene
        .bodies
        .iter()
        .map(|b| BodyFeatures::of(&b.mesh))
        .collect();
    let radius = |i: usize| {
        let b = &scene.bodies[i];
        b.mesh
            .vertices
            .iter()
            .map(|v| v.length())
            .fold(0.0, f64::max)
    };
    let (mut regions, mut count, mut area) = (0, 0, 0.0);
    for i in 0..scene.bodies.len() {
        for j in i + 1..scene.bodies.len() {
            let (a, b) = (&scene.bodies[i], &scene.bodies[j]);
            let tol = Tolerances::for_bodies(&a.mesh, &b.mesh, 0.0, TOL_DEG);
            let tol = Tolerances {
                envelope: tol.touch,
                ..tol
            };
            if a.position.distance(b.position) > radius(i) + radius(j) + tol.envelope {
                continue;
            }
            let o = PairOracle::new(
                &features[i],
                Pose::new(a.position, a.rotation),
                &features[j],
                Pose::new(b.position, b.rotation),
                tol,
            );
            for r in &o.regions {
                assert!(
                    matches!(r.required.as_slice(), [Feasible::Ray(_)]),
                    "{} and {}: {:?}",
                    a.name,
                    b.name,
                    r.required
                );
            }
            regions += o.regions.len();
            count += o.min_contacts();
            area += o.area();
        }
    }
    (regions, count, area)
}

#[test]
fn at_a_touching_pose_the_regions_are_the_exact_ones() {
    for id in ["wall", "arch", "pillar", "cliff-edges", "internal-edges"] {
        let scene = load_builtin(id, &LoadOptions::default()).unwrap();
        let exact = exact_contacts(&scene, RELATIVE_TOUCH_TOL);
        let (regions, count, area) = oracle_totals(&scene);
        assert_eq!(regions, exact.region_count(), "{id}: regions");
        assert_eq!(count, exact.min_contacts(), "{id}: minimal count");
        assert!(
            (area - exact.total_area()).abs() <= 1e-9 * exact.total_area(),
            "{id}: area {area} against {}",
            exact.total_area()
        );
    }
}

/// The fundamental cases' hand-written answers (Erleben 2018, table 4),
/// from the shapes alone: at each case's initial pose every listed normal
/// is one the geometric oracle requires. Where the case touches face to
/// face, edge across edge or in a crack or hole, its required directions
/// are exactly the listed ones; where it touches corner to corner or
/// corner to ridge (the two-points cases, marked †), the listed normal is
/// one the paper picked by the initial velocity from an indeterminate
/// cone, and the oracle requires that cone.
#[test]
fn the_fundamental_cases_answers_come_from_the_shapes() {
    use contactlab::scene::Oracle;
    // (case, required single directions, required cones): the crack's two
    // walls, the hole's four; the two-points cases † one cone each.
    let expected = [
        ("spike-in-crack", 2, 0),
        ("spike-in-hole", 4, 0),
        ("wedge-in-crack", 2, 0),
        ("spikes", 0, 1),
        ("spike-wedge", 0, 1),
        ("wedges", 0, 1),
        ("sliding-spike", 1, 0),
        ("sliding-wedge", 1, 0),
        ("cliff-edges", 1, 0),
        ("internal-edges", 1, 0),
    ];
    for (scene_id, want_rays, want_cones) in expected {
        let scene = load_builtin(scene_id, &LoadOptions::default()).unwrap();
        let Oracle::Pairs { pairs } = &scene.oracle else {
            panic!("{scene_id}: not a pairs oracle");
        };
        assert_eq!(pairs.len(), 1, "{scene_id}");
        for pair in pairs {
            let (a, b) = (&scene.bodies[pair.a], &scene.bodies[pair.b]);
            let o = oracle_at(
                &a.mesh,
                Pose::new(a.position, a.rotation),
                &b.mesh,
                Pose::new(b.position, b.rotation),
                EPS,
            );
            let required: Vec<&Feasible> = o.regions.iter().flat_map(|r| &r.required).collect();
            let rays = required
                .iter()
                .filter(|f| matches!(f, Feasible::Ray(_)))
                .count();
            let cones = required.len() - rays;
            for n in &pair.normals {
                assert!(
                    required
                        .iter()
                        .any(|f| f.contains(*n, TOL_DEG.to_radians())),
                    "{scene_id}: listed normal {n} is not required: {required:?}"
                );
            }
            assert_eq!((rays, cones), (want_rays, want_cones), "{scene_id}");
            if cones == 0 {
                assert_eq!(rays, pair.normals.len(), "{scene_id}");
            }
        }
    }
}

/// Bodies at poses and the pairs to judge: a hand-built pair or a scene's
/// initial pose.
struct Setup {
    bodies: Vec<(TetMesh, Pose)>,
    pairs: Vec<(usize, usize)>,
    eps: f64,
}

impl Setup {
    fn pair(a: TetMesh, b: TetMesh) -> Setup {
        Setup {
            bodies: vec![(a, HOME), (b, HOME)],
            pairs: vec![(0, 1)],
            eps: EPS,
        }
    }

    /// A scene's bodies at their initial poses, and the pairs whose
    /// bounding spheres come within the envelope.
    fn scene(id: &str, options: &LoadOptions) -> Setup {
        let scene = load_builtin(id, options).unwrap();
        let bodies: Vec<(TetMesh, Pose)> = scene
            .bodies
            .iter()
            .map(|b| (b.mesh.clone(), Pose::new(b.position, b.rotation)))
            .collect();
        let radius = |m: &TetMesh| m.vertices.iter().map(|v| v.length()).fold(0.0, f64::max);
        let mut pairs = Vec::new();
        for i in 0..bodies.len() {
            for j in i + 1..bodies.len() {
                let ((a, pa), (b, pb)) = (&bodies[i], &bodies[j]);
                if pa.position.distance(pb.position) <= radius(a) + radius(b) + EPS {
                    pairs.push((i, j));
                }
            }
        }
        Setup {
            bodies,
            pairs,
            eps: EPS,
        }
    }

    fn oracles(&self) -> Vec<PairOracle> {
        let features: Vec<BodyFeatures> = self
            .bodies
            .iter()
            .map(|(m, _)| BodyFeatures::of(m))
            .collect();
        self.pairs
            .iter()
            .map(|&(i, j)| {
                let ((a, pa), (b, pb)) = (&self.bodies[i], &self.bodies[j]);
                PairOracle::new(
                    &features[i],
                    *pa,
                    &features[j],
                    *pb,
                    Tolerances::for_bodies(a, b, self.eps, TOL_DEG),
                )
            })
            .collect()
    }

    /// Every body moved by the rigid motion x ↦ r x + t.
    fn moved(&self, r: DQuat, t: DVec3) -> Setup {
        Setup {
            bodies: self
                .bodies
                .iter()
                .map(|(m, pose)| {
                    (
                        m.clone(),
                        Pose::new(r * pose.position + t, r * pose.rotation),
                    )
                })
                .collect(),
            pairs: self.pairs.clone(),
            eps: self.eps,
        }
    }

    /// Every length times `s`: meshes, positions and the envelope.
    fn scaled(&self, s: f64) -> Setup {
        Setup {
            bodies: self
                .bodies
                .iter()
                .map(|(m, pose)| {
                    (
                        m.map_vertices(|x| x * s),
                        Pose::new(pose.position * s, pose.rotation),
                    )
                })
                .collect(),
            pairs: self.pairs.clone(),
            eps: self.eps * s,
        }
    }
}

/// Probes (p, n) for one pair's oracle: at each touching piece's centroid,
/// each feasible set's direction (a cone's mean ray), that direction
/// tilted 5°, its opposite, and the direction 3ε off the piece.
fn probes(o: &PairOracle) -> Vec<(DVec3, DVec3)> {
    let mut out = Vec::new();
    for t in &o.touches {
        let c = t.points.iter().copied().sum::<DVec3>() / t.points.len() as f64;
        for set in &t.feasible {
            let d = match set {
                Feasible::Ray(r) => *r,
                Feasible::Cone(rays) => rays.iter().copied().sum::<DVec3>().normalize(),
                Feasible::Empty => continue,
            };
            out.push((c, d));
            out.push((c, tilted(d, d.any_orthonormal_vector(), 5.0)));
            out.push((c, -d));
            out.push((c + d * (3.0 * o.tol.envelope), d));
        }
    }
    out
}

/// What must not change under a rigid motion or a uniform scale, per pair:
/// the region count, the minimal count, the required single directions
/// and cones, and the verdicts on the probes (mapped by `map`).
fn fingerprint(
    oracles: &[PairOracle],
    probes: &[Vec<(DVec3, DVec3)>],
    map: impl Fn(DVec3, DVec3) -> (DVec3, DVec3),
) -> Vec<(usize, usize, usize, usize, Vec<Verdict>)> {
    oracles
        .iter()
        .zip(probes)
        .map(|(o, ps)| {
            let required: Vec<&Feasible> = o.regions.iter().flat_map(|r| &r.required).collect();
            let rays = required
                .iter()
                .filter(|f| matches!(f, Feasible::Ray(_)))
                .count();
            let verdicts = ps
                .iter()
                .map(|&(p, n)| {
                    let (p, n) = map(p, n);
                    let j = o.judge(p, n);
                    assert!(j.q.is_finite(), "q at {p}, {n}");
                    j.verdict
                })
                .collect();
            (
                o.regions.len(),
                o.min_contacts(),
                rays,
                required.len() - rays,
                verdicts,
            )
        })
        .collect()
}

/// A seeded rotation and translation (SplitMix64, so the poses are the
/// same on every run).
fn seeded_motion(seed: u64) -> (DQuat, DVec3) {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let axis = v(next(), next(), next()).normalize();
    let rotation = DQuat::from_axis_angle(axis, 3.0 * next());
    let shift = v(next(), next(), next()) * 10.0;
    (rotation, shift)
}

fn assert_invariant(name: &str, setup: &Setup) {
    let home = setup.oracles();
    let ps: Vec<Vec<(DVec3, DVec3)>> = home.iter().map(probes).collect();
    let expected = fingerprint(&home, &ps, |p, n| (p, n));
    assert!(
        expected.iter().any(|f| f.0 > 0),
        "{name}: nothing touches at home"
    );
    for seed in [1, 2] {
        let (r, t) = seeded_motion(seed);
        let got = fingerprint(&setup.moved(r, t).oracles(), &ps, |p, n| (r * p + t, r * n));
        for (k, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(g, e, "{name}: pair {k} after motion {seed}");
        }
    }
    for s in [0.1, 10.0] {
        let got = fingerprint(&setup.scaled(s).oracles(), &ps, |p, n| (p * s, n));
        for (k, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(g, e, "{name}: pair {k} scaled by {s}");
        }
    }
}

#[test]
fn counts_and_verdicts_survive_rigid_motions_and_uniform_scales() {
    let edge_down = || {
        tet([
            v(-0.5, 0.0, 0.0),
            v(0.5, 0.0, 0.0),
            v(0.0, -0.5, 1.0),
            v(0.0, 0.5, 1.0),
        ])
    };
    let corner_down = tet([
        v(0.0, 0.0, 0.0),
        v(0.5, 0.0, 1.0),
        v(-0.25, 0.4, 1.0),
        v(-0.25, -0.4, 1.0),
    ]);
    let crossing = tet([
        v(0.0, -0.5, 0.0),
        v(0.0, 0.5, 0.0),
        v(-0.5, 0.0, -1.0),
        v(0.5, 0.0, -1.0),
    ]);
    let ridge = tet([
        v(-1.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, -0.5, -0.5),
        v(0.0, 0.5, -0.5),
    ]);
    let (spike, valley) = crack();
    let cases = [
        ("edge on face", Setup::pair(edge_down(), floor())),
        ("corner on face", Setup::pair(corner_down, floor())),
        ("crossing edges", Setup::pair(edge_down(), crossing)),
        ("parallel edges", Setup::pair(edge_down(), ridge)),
        ("crack", Setup::pair(spike, valley)),
    ];
    for (name, setup) in &cases {
        assert_invariant(name, setup);
    }
    for id in ["wall", "pillar", "arch"] {
        assert_invariant(id, &Setup::scene(id, &LoadOptions::default()));
    }
}

/// Refining a mesh splits its sharp edges: the oracle does not merge the
/// pieces back into one edge, but the vertex splitting an edge is a corner
/// with the edge's two faces, so its cone is the edge's and it adds no
/// region, no hull vertex, no direction and no verdict
/// (`docs/design/oracle.md`, "Features").
#[test]
fn split_edges_change_no_count_and_no_verdict() {
    for id in [
        "pillar",
        "cliff-edges",
        "spike-in-crack",
        "wedge-in-crack",
        "wedges",
        "sliding-wedge",
    ] {
        let coarse = Setup::scene(id, &LoadOptions::default());
        let options = LoadOptions {
            refine: 1,
            ..LoadOptions::default()
        };
        let fine = Setup::scene(id, &options);
        let edges = |s: &Setup| -> usize {
            s.bodies
                .iter()
                .map(|(m, _)| BodyFeatures::of(m).edges.len())
                .sum()
        };
        assert!(
            edges(&fine) > edges(&coarse),
            "{id}: refining split no edge"
        );
        assert_eq!(fine.pairs, coarse.pairs, "{id}");
        let home = coarse.oracles();
        let ps: Vec<Vec<(DVec3, DVec3)>> = home.iter().map(probes).collect();
        let expected = fingerprint(&home, &ps, |p, n| (p, n));
        let got = fingerprint(&fine.oracles(), &ps, |p, n| (p, n));
        for (k, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(g, e, "{id}: pair {k} refined");
        }
    }
}

/// Every verdict on degenerate input is a verdict and every quality a
/// number: a body with a zero-area surface triangle, two coincident
/// bodies, and a zero envelope, touching tolerance and angle.
#[test]
fn degenerate_input_gives_finite_verdicts() {
    // A tetrahedron whose bottom face is split at the middle of one side
    // by a flat tetrahedron: its surface holds the sliver (0, 1, 4) of
    // zero area.
    let sliver = TetMesh::without_validation(
        vec![
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            v(0.0, 0.0, 1.0),
            v(0.5, 0.0, 0.0),
        ],
        vec![[0, 1, 2, 3], [0, 2, 1, 4]],
        1e-6,
    )
    .unwrap();
    assert!(
        sliver.surface_faces.iter().any(|t| {
            let [a, b, c] = t.vertices.map(|i| sliver.vertices[i as usize]);
            (b - a).cross(c - a).length() == 0.0
        }),
        "the body has a zero-area surface triangle"
    );
    let cube_corner = tet([
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, 1.0, 0.0),
        v(0.0, 0.0, -1.0),
    ]);
    let ground = floor();
    let zero = Tolerances {
        envelope: 0.0,
        touch: 0.0,
        angle: 0.0,
    };
    let cases: Vec<(&str, &TetMesh, &TetMesh, Option<Tolerances>)> = vec![
        ("zero-area triangle on a face", &sliver, &cube_corner, None),
        (
            "zero-area triangle, zero tolerances",
            &sliver,
            &cube_corner,
            Some(zero),
        ),
        ("coincident bodies", &sliver, &sliver, None),
        ("coincident tetrahedra", &cube_corner, &cube_corner, None),
        (
            "coincident, zero tolerances",
            &cube_corner,
            &cube_corner,
            Some(zero),
        ),
        (
            "zero-area triangle on the floor, zero tolerances",
            &sliver,
            &ground,
            Some(zero),
        ),
    ];
    for (name, a, b, tol) in cases {
        let tol = tol.unwrap_or_else(|| Tolerances::for_bodies(a, b, EPS, TOL_DEG));
        let o = PairOracle::new(&BodyFeatures::of(a), HOME, &BodyFeatures::of(b), HOME, tol);
        assert!(o.area().is_finite(), "{name}: area");
        let _ = o.min_contacts();
        for t in &o.touches {
            assert!(
                t.points.iter().all(|p| p.is_finite()) && t.gap.is_finite(),
                "{name}: {t:?}"
            );
            for set in &t.feasible {
                let finite = match set {
                    Feasible::Ray(r) => r.is_finite(),
                    Feasible::Cone(rays) => rays.iter().all(|r| r.is_finite()),
                    Feasible::Empty => true,
                };
                assert!(finite, "{name}: {set:?}");
            }
        }
        for p in [
            v(0.2, 0.2, 0.0),
            v(0.5, 0.0, 0.0),
            v(0.0, 0.0, 0.0),
            v(3.0, 3.0, 3.0),
        ] {
            for n in [-DVec3::Z, DVec3::Z, DVec3::X, v(1.0, 1.0, 1.0).normalize()] {
                let j = o.judge(p, n);
                assert!(j.q.is_finite(), "{name}: q at {p}, {n}");
            }
        }
        let contacts = [(v(0.2, 0.2, 0.0), -DVec3::Z)];
        let (matched, required) = o.coverage(&contacts);
        assert!(matched <= required, "{name}");
    }
    // The sliver does not change what the split face touches.
    let o = oracle(&sliver, &cube_corner);
    assert_eq!(verdict(&o, v(0.2, 0.2, 0.0), -DVec3::Z), Verdict::Right);
}
