//! Unit cases for each of the eight contact point methods of the paper
//! (Erleben 2018, section 6 and appendices A and B; `docs/design/methods.md`)
//! on small hand-built bodies whose answers are known: face on face, vertex
//! on face, crossing edges, edge on edge (parallel edges touching along a
//! segment), a pair on either side of the touching tolerance, and penetration
//! where the method defines it. Every expected value below is derived from
//! the method's definition, not read off the code.
//!
//! Conventions checked throughout (`docs/design/conventions.md`): the normal
//! is unit and points from body A (index 0) to body B (index 1); depth is 0
//! when touching, > 0 separated, < 0 penetrating; the feature label is (A's
//! feature, B's feature).
//!
//! The bodies (all in metres, y up; A is always body 0):
//! - `GROUND`: a large tetrahedron whose top face is the plane y = 0 and
//!   covers the square |x|, |z| ≤ 1.4 with room to spare;
//! - `CORNER`: the unit corner tetrahedron, its bottom face (0,0,0), (1,0,0),
//!   (0,0,1) at y = 0 and its apex at (0,1,0);
//! - `SPIKE`: a tetrahedron standing on its tip at the origin, top face at
//!   y = 1;
//! - `RIDGE`: a tetrahedron with its top edge from (−1,0,0) to (1,0,0) and
//!   its faces there sloping down at 45° (normals (0,1,±1)/√2);
//! - `CROSS_RIDGE`: `RIDGE` turned upside down and a quarter turn, its
//!   bottom edge along z through the origin;
//! - `PARALLEL_RIDGE`: `RIDGE` upside down, its bottom edge along x from
//!   (−0.5,0,0) to (1.5,0,0), so that it touches `RIDGE` along the segment
//!   x ∈ [−0.5, 1].
//!
//! Two pairs reproduce ties that TetGen meshes, whose tetrahedra can have
//! several surface faces, leave to round-off (`tests/method_properties.rs`
//! checks whole scenes): `stacked_cube` (a cube of five tetrahedra on a
//! corner tetrahedron, their sides coplanar) and `column_at_a_rim_vertex`
//! (two tetrahedra of a hexagonal column cut at y = 0, touching at one rim
//! vertex). Both are checked in [`frames`] rigid frames.

mod common;

use common::{CORNER, CROSS_RIDGE, GROUND, RIDGE, SPIKE};
use contactlab::contact::{
    find_contacts, method_by_id, BodyAtPose, Contact, ContactSet, FeatureKind, MethodParams,
};
use contactlab::mesh::erode::erode;
use contactlab::mesh::TetMesh;
use contactlab::scene::perturb::SeededRng;
use glam::{DQuat, DVec3};

use FeatureKind::{EdgeEdge, FaceFace, FaceVertex, VertexFace};

/// Tests that two methods must pass alike, expanded in each method's module
/// (which defines `ID`): each is `name => common::function`, run on `ID`.
macro_rules! shared_cases {
    ($($name:ident => $common:ident::$case:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                $common::$case(ID);
            }
        )*
    };
}

/// Agreement expected of exact inputs after a handful of float operations.
const CLOSE: f64 = 1e-9;
/// Default touching tolerance for a 1 m scene.
const TOL: f64 = 1e-6;
/// Penetration depth of the penetration cases.
const DEPTH: f64 = 0.1;

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

const PARALLEL_RIDGE: [[f64; 3]; 4] = [
    [-0.5, 0.0, 0.0],
    [1.5, 0.0, 0.0],
    [0.5, 1.0, -1.0],
    [0.5, 1.0, 1.0],
];

/// The corners of `shape` scaled by `scale` and then lifted by `lift` in y.
fn corners(shape: [[f64; 3]; 4], scale: f64, lift: f64) -> [DVec3; 4] {
    shape.map(|[x, y, z]| v(x, y, z) * scale + DVec3::Y * lift)
}

/// A body from vertices and tetrahedra; each tetrahedron is put in positive
/// orientation first (det(b − a, c − a, d − a) > 0), as `TetMesh` requires.
fn body(vertices: Vec<DVec3>, tets: Vec<[u32; 4]>) -> TetMesh {
    let tets = tets
        .into_iter()
        .map(|mut t| {
            let [a, b, c, d] = t.map(|i| vertices[i as usize]);
            if (b - a).cross(c - a).dot(d - a) < 0.0 {
                t.swap(2, 3);
            }
            t
        })
        .collect();
    TetMesh::new(vertices, tets, 1e-6).expect("a valid test body")
}

fn tet(c: [DVec3; 4]) -> TetMesh {
    body(c.to_vec(), vec![[0, 1, 2, 3]])
}

fn shape(s: [[f64; 3]; 4], lift: f64) -> TetMesh {
    tet(corners(s, 1.0, lift))
}

fn params(touch_tol: f64) -> MethodParams {
    MethodParams {
        touch_tol,
        ..MethodParams::default()
    }
}

fn cp_params(epsilon: f64, touch_tol: f64) -> MethodParams {
    MethodParams {
        touch_tol,
        epsilon,
        ..MethodParams::default()
    }
}

/// Runs `id` on A (fixed, body 0) and B (body 1), both at the same pose.
fn detect_posed(
    id: &str,
    a: &TetMesh,
    b: &TetMesh,
    params: &MethodParams,
    position: DVec3,
    rotation: DQuat,
) -> ContactSet {
    let info = method_by_id(id).unwrap_or_else(|| panic!("no method {id}"));
    assert_eq!(info.id, id);
    let method = info
        .tet_pair()
        .unwrap_or_else(|| panic!("{id} is not a local method"));
    let bodies = [
        BodyAtPose::at_rest(a, position, rotation, true),
        BodyAtPose::at_rest(b, position, rotation, false),
    ];
    let set = find_contacts(&bodies, method, params);
    for c in &set.contacts {
        assert_eq!((c.a, c.b), (0, 1), "{id}: body pair of {c:?}");
        assert!(
            (c.normal.length() - 1.0).abs() < CLOSE,
            "{id}: normal not unit in {c:?}"
        );
        assert!(c.depth.is_finite() && c.position.is_finite(), "{id}: {c:?}");
    }
    set
}

fn detect(id: &str, a: &TetMesh, b: &TetMesh, params: &MethodParams) -> Vec<Contact> {
    detect_posed(id, a, b, params, DVec3::ZERO, DQuat::IDENTITY).contacts
}

/// Every contact has this normal and depth (within `tol`) and one of these
/// feature labels.
fn assert_all(cs: &[Contact], normal: DVec3, depth: f64, features: &[FeatureKind], tol: f64) {
    assert!(!cs.is_empty(), "no contacts");
    for c in cs {
        assert!(
            (c.normal - normal).length() < tol,
            "normal {} instead of {normal} in {c:#?}\nall: {cs:#?}",
            c.normal
        );
        assert!(
            (c.depth - depth).abs() < tol,
            "depth {} instead of {depth} in {c:#?}",
            c.depth
        );
        assert!(
            features.contains(&c.features),
            "features {:?} not in {features:?} in {c:#?}",
            c.features
        );
    }
}

/// The contact positions are exactly `expected` (as a multiset, within
/// `tol`).
fn assert_positions(cs: &[Contact], expected: &[DVec3], tol: f64) {
    assert_eq!(
        cs.len(),
        expected.len(),
        "count: expected positions {expected:?}, got {cs:#?}"
    );
    let mut used = vec![false; cs.len()];
    for e in expected {
        let found = (0..cs.len()).find(|&i| !used[i] && (cs[i].position - *e).length() < tol);
        match found {
            Some(i) => used[i] = true,
            None => panic!("no contact at {e}; got {cs:#?}"),
        }
    }
}

/// The contacts at `p` (within `tol`).
fn at(cs: &[Contact], p: DVec3, tol: f64) -> Vec<Contact> {
    cs.iter()
        .copied()
        .filter(|c| (c.position - p).length() < tol)
        .collect()
}

fn is_one_of(n: DVec3, candidates: &[DVec3]) -> bool {
    candidates.iter().any(|c| (n - *c).length() < CLOSE)
}

/// Outward unit normal of the face (p, q, r) of a tetrahedron whose fourth
/// corner is `other`.
fn outward(p: DVec3, q: DVec3, r: DVec3, other: DVec3) -> DVec3 {
    let n = (q - p).cross(r - p).normalize();
    if n.dot(other - p) > 0.0 {
        -n
    } else {
        n
    }
}

/// The corner tetrahedron's bottom corners at height `y`.
fn corner_bottom(y: f64) -> [DVec3; 3] {
    [v(0.0, y, 0.0), v(1.0, y, 0.0), v(0.0, y, 1.0)]
}

/// Where the corner tetrahedron's three side edges cross y = 0 when its
/// bottom is at y = −DEPTH (apex at (0, 1 − DEPTH, 0)): a fraction DEPTH of
/// the way up from each bottom corner.
fn corner_crossings() -> [DVec3; 3] {
    let apex = v(0.0, 1.0 - DEPTH, 0.0);
    corner_bottom(-DEPTH).map(|p| p + (apex - p) * DEPTH)
}

/// The spike's tip at −DEPTH and where its three edges cross y = 0 (a
/// fraction DEPTH of the way up: the top is 1 above the tip).
fn spike_points() -> [DVec3; 4] {
    let c = corners(SPIKE, 1.0, -DEPTH);
    [
        c[0],
        c[0] + (c[1] - c[0]) * DEPTH,
        c[0] + (c[2] - c[0]) * DEPTH,
        c[0] + (c[3] - c[0]) * DEPTH,
    ]
}

/// Outward normals of the spike's three side faces (the faces through the
/// tip), in the order (tip, 1, 2), (tip, 2, 3), (tip, 3, 1).
fn spike_side_normals() -> [DVec3; 3] {
    let c = corners(SPIKE, 1.0, 0.0);
    [
        outward(c[0], c[1], c[2], c[3]),
        outward(c[0], c[2], c[3], c[1]),
        outward(c[0], c[3], c[1], c[2]),
    ]
}

/// Opposing's normal for a spike on the ground (appendix A, algorithm 1):
/// the admissible pairs are the ground's top face (n_a = +y) with each side
/// face of the spike (n_a · n_b < 0; the ground's apex is in front of every
/// side face and the spike's top corners in front of y = 0). The most
/// opposing is the side face with the most negative y component, and the
/// normal is the bisector unit(n_a − n_b): tilted, not +y.
fn spike_opposing_normal() -> DVec3 {
    let sides = spike_side_normals();
    let most = sides
        .iter()
        .copied()
        .min_by(|a, b| a.y.total_cmp(&b.y))
        .unwrap();
    // The choice must not be a near tie, or the test would test round-off.
    for s in sides {
        assert!(s == most || s.y > most.y + 0.02);
    }
    (DVec3::Y - most).normalize()
}

/// The four bisectors unit(n_a − n_b) of RIDGE's top faces n_a = (0,1,±1)/√2
/// with CROSS_RIDGE's bottom faces n_b = (±1,−1,0)/√2: every one of these
/// pairs has n_a · n_b = −1/2 and passes the sandwich test, so Opposing
/// picks one of them (the first found) for crossing edges.
fn crossing_opposing_normals() -> Vec<DVec3> {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let mut out = Vec::new();
    for na in [v(0.0, s, s), v(0.0, s, -s)] {
        for nb in [v(s, -s, 0.0), v(-s, -s, 0.0)] {
            assert!((na.dot(nb) + 0.5).abs() < 1e-12);
            out.push((na - nb).normalize());
        }
    }
    out
}

/// The normals of RIDGE's two top faces, (0,1,±1)/√2: for parallel edges
/// touching, the normal cone of the contact is spanned by these.
fn ridge_top_normals() -> [DVec3; 2] {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    [v(0.0, s, s), v(0.0, s, -s)]
}

/// Runs `id` on (A, B) and on (B, A) and checks the convention: the swapped
/// run gives the same positions and depths with every normal negated.
/// Returns the contacts of (A, B).
fn detect_both_ways(id: &str, a: &TetMesh, b: &TetMesh, p: &MethodParams) -> Vec<Contact> {
    let forward = detect(id, a, b, p);
    let backward = detect(id, b, a, p);
    assert_eq!(
        forward.len(),
        backward.len(),
        "{id}: swapping the bodies changed the count:\n{forward:#?}\nvs\n{backward:#?}"
    );
    for c in &forward {
        assert!(
            backward
                .iter()
                .any(|s| (s.position - c.position).length() < CLOSE
                    && (s.normal + c.normal).length() < CLOSE
                    && (s.depth - c.depth).abs() < CLOSE),
            "{id}: no swapped twin of {c:#?}\nin {backward:#?}"
        );
    }
    forward
}

/// Ground and corner tetrahedron touching face on face; the contact region
/// is the corner's bottom triangle.
fn face_on_face(id: &str, lift: f64, p: &MethodParams) -> Vec<Contact> {
    detect_both_ways(id, &shape(GROUND, 0.0), &shape(CORNER, lift), p)
}

fn vertex_on_face(id: &str, lift: f64, p: &MethodParams) -> Vec<Contact> {
    detect_both_ways(id, &shape(GROUND, 0.0), &shape(SPIKE, lift), p)
}

fn crossing_edges(id: &str, lift: f64, p: &MethodParams) -> Vec<Contact> {
    detect_both_ways(id, &shape(RIDGE, 0.0), &shape(CROSS_RIDGE, lift), p)
}

fn edge_on_edge(id: &str, lift: f64, p: &MethodParams) -> Vec<Contact> {
    detect_both_ways(id, &shape(RIDGE, 0.0), &shape(PARALLEL_RIDGE, lift), p)
}

/// Face on face scaled by 100, the corner's bottom `gap` above the ground.
fn scaled_face_on_face(id: &str, gap: f64, p: &MethodParams) -> ContactSet {
    let a = tet(corners(GROUND, 100.0, 0.0));
    let b = tet(corners(CORNER, 100.0, gap));
    detect_posed(id, &a, &b, p, DVec3::ZERO, DQuat::IDENTITY)
}

/// The touching tolerance at scale 100: touch_tol = 2, gaps 1.99 (touching)
/// and 2.01 (separated). Returns the contacts of the touching pair after
/// checking that the separated pair has none although the broad phase
/// passed it to the method.
fn tolerance_band(id: &str) -> Vec<Contact> {
    let p = params(2.0);
    let apart = scaled_face_on_face(id, 2.01, &p);
    assert!(
        apart.candidate_pairs > 0,
        "{id}: the broad phase must pass the pair"
    );
    assert!(
        apart.contacts.is_empty(),
        "{id}: 2.01 apart with touch_tol 2 is separated: {:#?}",
        apart.contacts
    );
    scaled_face_on_face(id, 1.99, &p).contacts
}

fn scaled_corner_bottom(y: f64) -> Vec<DVec3> {
    corner_bottom(0.0)
        .iter()
        .map(|p| *p * 100.0 + DVec3::Y * y)
        .collect()
}

/// A rotation about a generic axis and a translation, applied to both bodies.
fn motion() -> (DVec3, DQuat) {
    (
        v(0.3, -1.2, 2.5),
        DQuat::from_axis_angle(v(1.0, 2.0, 3.0).normalize(), 0.7),
    )
}

/// Face on face under `motion()`: the same contacts, moved.
fn check_rigid_motion(id: &str, lift: f64, p: &MethodParams) {
    let (a, b) = (shape(GROUND, 0.0), shape(CORNER, lift));
    let still = detect(id, &a, &b, p);
    let (t, r) = motion();
    let moved = detect_posed(id, &a, &b, p, t, r).contacts;
    assert_eq!(still.len(), moved.len(), "{id}: {still:#?} vs {moved:#?}");
    assert!(!still.is_empty());
    let expected: Vec<DVec3> = still.iter().map(|c| t + r * c.position).collect();
    assert_positions(&moved, &expected, CLOSE);
    for c in &moved {
        let s = still
            .iter()
            .find(|s| (t + r * s.position - c.position).length() < CLOSE)
            .unwrap();
        assert!((r * s.normal - c.normal).length() < CLOSE, "{id}: {c:?}");
        assert!((s.depth - c.depth).abs() < CLOSE, "{id}: {c:?}");
        assert_eq!(s.features, c.features, "{id}");
    }
}

/// Face on face with the bodies' order swapped: the normal must point from
/// the new A (the corner) to the new B (the ground), i.e. −y.
fn swapped_face_on_face(id: &str, lift: f64, p: &MethodParams) -> Vec<Contact> {
    detect(id, &shape(CORNER, lift), &shape(GROUND, 0.0), p)
}

/// The octant tetrahedron x, z ≥ 0, y ≤ 0, x − y + z ≤ 4: faces x = 0
/// (normal −x), z = 0 (−z), y = 0 (+y) and the slanted one.
const OCTANT: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [4.0, 0.0, 0.0],
    [0.0, 0.0, 4.0],
    [0.0, -4.0, 0.0],
];
/// A spike whose tip (0.2, −0.5, 2) is 0.5 below the octant's top face and
/// only 0.2 from its face x = 0 (0.75 from the slanted face, 2 from z = 0).
/// Its three edges go up and away from x = 0 (every top corner has x ≥
/// 0.3), so they leave the octant through the top face.
const LEANING_SPIKE: [[f64; 3]; 4] = [
    [0.2, -0.5, 2.0],
    [0.3, 0.5, 1.5],
    [1.0, 0.5, 2.0],
    [0.3, 0.5, 2.6],
];

fn leaning_spike_in_octant(id: &str) -> Vec<Contact> {
    detect(
        id,
        &shape(OCTANT, 0.0),
        &shape(LEANING_SPIKE, 0.0),
        &params(TOL),
    )
}

/// A square pyramid, apex down, made of two tetrahedra: T0 (x ≤ 0) and T1
/// (x ≥ 0) share the interior face x = 0; the top (y = 0) is two surface
/// triangles.
fn pyramid() -> TetMesh {
    body(
        vec![
            v(-2.0, 0.0, 0.0),
            v(2.0, 0.0, 0.0),
            v(0.0, 0.0, -2.0),
            v(0.0, 0.0, 2.0),
            v(0.0, -2.0, 0.0),
        ],
        vec![[0, 2, 3, 4], [1, 2, 3, 4]],
    )
}

/// A flat-bottomed tetrahedron sunk DEPTH into the pyramid's top, lying over
/// T0 except for its tip (0.05, −0.1, 0), which pokes 0.05 past the
/// interior face x = 0 into T1. For the pair (T1, wedge) the separating axis
/// of minimum overlap is T1's interior face (0.05); the best axis from
/// surface features is the top face (0.1); every other axis overlaps by
/// more than 0.3.
const WEDGE: [[f64; 3]; 4] = [
    [0.05, -0.1, 0.0],
    [-1.0, -0.1, -0.6],
    [-0.8, -0.1, 0.6],
    [-2.5, 0.5, 0.1],
];

/// The intersection points of T1 with the wedge: the tip inside T1 and the
/// three wedge edges from the tip where they cross x = 0 (all three cross
/// below y = 0 and well inside the face).
fn wedge_points_in_t1() -> [DVec3; 4] {
    let c = corners(WEDGE, 1.0, 0.0);
    let cross = |q: DVec3| c[0] + (q - c[0]) * (c[0].x / (c[0].x - q.x));
    [c[0], cross(c[1]), cross(c[2]), cross(c[3])]
}

fn wedge_in_pyramid(id: &str) -> Vec<Contact> {
    detect(id, &pyramid(), &shape(WEDGE, 0.0), &params(TOL))
}

/// `points` without repeats (within CLOSE): contacts that project to the
/// same position with the same normal are merged by the post-filter.
fn distinct(points: Vec<DVec3>) -> Vec<DVec3> {
    let mut out: Vec<DVec3> = Vec::new();
    for p in points {
        if !out.iter().any(|q| (*q - p).length() < CLOSE) {
            out.push(p);
        }
    }
    out
}

/// The positions `points` projected onto the plane with normal `n` through
/// their mean (the SAT contact plane), repeats merged.
fn onto_mean_plane(points: &[DVec3], n: DVec3) -> Vec<DVec3> {
    let mean = points.iter().copied().sum::<DVec3>() / points.len() as f64;
    distinct(points.iter().map(|p| *p - n * (*p - mean).dot(n)).collect())
}

/// The positions `points` projected onto the plane with normal `n` through
/// the middle of their extreme projections (repeats merged), and minus that
/// extent (the Opposing contact plane and depth).
fn onto_middle_plane(points: &[DVec3], n: DVec3) -> (Vec<DVec3>, f64) {
    let (lo, hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.dot(n)), hi.max(p.dot(n)))
        });
    let mid = 0.5 * (lo + hi);
    (
        distinct(points.iter().map(|p| *p - n * (p.dot(n) - mid)).collect()),
        -(hi - lo),
    )
}

/// The six intersection points of a corner tetrahedron sunk DEPTH into the
/// ground: its bottom corners and its side edges' crossings of y = 0.
fn sunk_corner_points() -> Vec<DVec3> {
    corner_bottom(-DEPTH)
        .into_iter()
        .chain(corner_crossings())
        .collect()
}

/// Rigid frames for the tie cases: seeded random rotations and translations
/// (within 20 m). Exact coordinates put a vertex exactly on a plane; in
/// these frames it is off by round-off, of either sign.
fn frames() -> Vec<(DVec3, DQuat)> {
    (1..=24)
        .map(|seed| {
            let mut rng = SeededRng::new(seed);
            let rotation = rng.rotation();
            (rng.in_cube(20.0), rotation)
        })
        .collect()
}

/// The contacts of (A, B) as given, after checking that every frame of
/// [`frames`] gives the same contacts, moved.
fn same_in_every_frame(id: &str, a: &TetMesh, b: &TetMesh, p: &MethodParams) -> Vec<Contact> {
    let still = detect(id, a, b, p);
    for (t, r) in frames() {
        let moved = detect_posed(id, a, b, p, t, r).contacts;
        assert_eq!(
            still.len(),
            moved.len(),
            "{id}: another count after rotating by {r:?}:\n{still:#?}\nvs\n{moved:#?}"
        );
        for s in &still {
            assert!(
                moved
                    .iter()
                    .any(|c| (t + r * s.position - c.position).length() < CLOSE
                        && (r * s.normal - c.normal).length() < CLOSE
                        && (s.depth - c.depth).abs() < CLOSE
                        && s.features == c.features),
                "{id}: {s:#?} has no moved twin after rotating by {r:?}:\n{moved:#?}"
            );
        }
    }
    still
}

/// A cube [0,1]³ of five tetrahedra resting on the corner tetrahedron below
/// it, (0,0,0), (1,0,0), (0,0,1), (0,−1,0), whose faces x = 0 and z = 0 are
/// coplanar with the cube's. The cube is split into a middle tetrahedron
/// (0,0,0), (1,1,0), (1,0,1), (0,1,1) and the four corner tetrahedra cut
/// off at (1,0,0), (0,1,0), (0,0,1) and (1,1,1). The one at (0,1,0), the
/// `STACKED_CUBE_NEEDLE` (tetrahedron 2), reaches down to the origin
/// between the surface faces x = 0 and z = 0, which meet there, and has no
/// face on the bottom y = 0 (its fourth face is interior).
fn stacked_cube() -> (TetMesh, TetMesh) {
    let base = tet(corners(
        [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, -1.0, 0.0],
        ],
        1.0,
        0.0,
    ));
    let cube = body(
        vec![
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            v(0.0, 0.0, 1.0),
            v(1.0, 1.0, 0.0),
            v(1.0, 0.0, 1.0),
            v(0.0, 1.0, 1.0),
            v(1.0, 1.0, 1.0),
        ],
        vec![
            [0, 4, 5, 6],
            [1, 0, 4, 5],
            [2, 0, 4, 6],
            [3, 0, 5, 6],
            [7, 4, 5, 6],
        ],
    );
    (base, cube)
}
const STACKED_CUBE_NEEDLE: u32 = 2;

/// A corner of a regular hexagonal column of radius 1 about the y axis, at
/// `degrees` round from +x towards +z and height `y`.
fn column(degrees: f64, y: f64) -> DVec3 {
    let a = degrees.to_radians();
    v(a.cos(), y, a.sin())
}

/// Two tetrahedra of a hexagonal column cut at y = 0, touching only at the
/// rim vertex `column(−60, 0)`. A (below) has that vertex and the bottom
/// corners at −120°, −60° and 0°: its faces through the vertex are the
/// column's sides around −90° and −30° and a slanted face through the
/// corners at −120° and 0°. B (above) has that vertex, the rim corners at
/// 0° and 60° and the top corner at 0°: its bottom is y = 0, and its sides
/// lie on the column's sides around −30° and 30°. The column's sides pass
/// through corners of the other tetrahedron, so a corner of each lies on the
/// planes of faces of the other.
fn column_at_a_rim_vertex() -> (TetMesh, TetMesh) {
    let rim = column(-60.0, 0.0);
    let below = tet([
        rim,
        column(-120.0, -1.0),
        column(-60.0, -1.0),
        column(0.0, -1.0),
    ]);
    let above = tet([rim, column(0.0, 1.0), column(60.0, 0.0), column(0.0, 0.0)]);
    (below, above)
}

// ---------------------------------------------------------------------------

mod closest_points {
    //! Bodies eroded by ε start 2ε apart; a feature pair at most 2ε (+ the
    //! touching tolerance) apart gives a contact at the midpoint, normal the
    //! unit separation vector, depth = distance − 2ε. Closer than the
    //! touching tolerance: no contact.
    use super::*;

    const ID: &str = "closest-points";
    const E: f64 = 0.01;

    fn p() -> MethodParams {
        cp_params(E, TOL)
    }

    #[test]
    fn face_on_face_gives_the_three_corners_at_mid_gap() {
        let cs = face_on_face(ID, 2.0 * E, &p());
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &corner_bottom(E), CLOSE);
    }

    #[test]
    fn face_on_face_with_bodies_eroded_at_load() {
        // The un-eroded bodies touch; erosion moves each face plane in by ε,
        // so the ground's top is at −ε and the corner's bottom at +ε.
        let a = erode(&shape(GROUND, 0.0), E, 1e-6).unwrap();
        let b = erode(&shape(CORNER, 0.0), E, 1e-6).unwrap();
        let bottom: Vec<DVec3> = b.vertices.iter().copied().filter(|q| q.y < 0.5).collect();
        assert_eq!(bottom.len(), 3);
        for q in &bottom {
            assert!((q.y - E).abs() < CLOSE, "eroded bottom at {q}");
            // Inside the original bottom triangle, ε from its edges.
            assert!(q.x > 0.0 && q.z > 0.0 && q.x + q.z < 1.0, "{q}");
        }
        let cs = detect(ID, &a, &b, &p());
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        let mid: Vec<DVec3> = bottom.iter().map(|q| v(q.x, 0.0, q.z)).collect();
        assert_positions(&cs, &mid, CLOSE);
    }

    #[test]
    fn vertex_on_face_gives_one_contact_below_the_tip() {
        let cs = vertex_on_face(ID, 2.0 * E, &p());
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &[v(0.0, E, 0.0)], CLOSE);
    }

    #[test]
    fn crossing_edges_give_one_edge_edge_contact() {
        let cs = crossing_edges(ID, 2.0 * E, &p());
        assert_all(&cs, DVec3::Y, 0.0, &[EdgeEdge], CLOSE);
        assert_positions(&cs, &[v(0.0, E, 0.0)], CLOSE);
    }

    #[test]
    fn parallel_edges_give_the_segment_ends_and_its_middle() {
        // Touching along x ∈ [−0.5, 1]: B's corner over A's top edge and
        // A's corner under B's bottom edge give the ends (as vertex–face
        // pairs, and again as edge–edge pairs with the edges leaving those
        // corners, merged by the post-filter); the parallel edge pair gives
        // the middle of its overlap.
        let cs = edge_on_edge(ID, 2.0 * E, &p());
        assert_all(
            &cs,
            DVec3::Y,
            0.0,
            &[FaceVertex, VertexFace, EdgeEdge],
            CLOSE,
        );
        assert_positions(
            &cs,
            &[v(-0.5, E, 0.0), v(0.25, E, 0.0), v(1.0, E, 0.0)],
            CLOSE,
        );
        let middle = at(&cs, v(0.25, E, 0.0), CLOSE);
        assert_eq!(middle[0].features, EdgeEdge);
        assert_ne!(at(&cs, v(-0.5, E, 0.0), CLOSE)[0].features, VertexFace);
        assert_ne!(at(&cs, v(1.0, E, 0.0), CLOSE)[0].features, FaceVertex);
    }

    #[test]
    fn reach_is_two_epsilon_plus_the_touching_tolerance() {
        // Scale 100: ε = 1, touch_tol 0.5; the reach is 2ε + 0.5 = 2.5.
        let p = cp_params(1.0, 0.5);
        let apart = scaled_face_on_face(ID, 2.505, &p);
        assert!(apart.candidate_pairs > 0);
        assert!(apart.contacts.is_empty(), "{:#?}", apart.contacts);
        let cs = scaled_face_on_face(ID, 2.495, &p).contacts;
        assert_all(&cs, DVec3::Y, 0.495, &[FaceVertex], 1e-9);
        assert_positions(&cs, &scaled_corner_bottom(2.495 / 2.0), 1e-9);
    }

    #[test]
    fn penetration_within_the_envelope_has_negative_depth() {
        // The un-eroded shapes overlap by 0.005: the eroded ones are
        // 2ε − 0.005 apart.
        let cs = face_on_face(ID, 2.0 * E - 0.005, &p());
        assert_all(&cs, DVec3::Y, -0.005, &[FaceVertex], CLOSE);
        assert_positions(&cs, &corner_bottom((2.0 * E - 0.005) / 2.0), CLOSE);
    }

    #[test]
    fn features_closer_than_the_touching_tolerance_give_nothing() {
        // Un-eroded bodies touching: the separation vector has no direction.
        let set = detect_posed(
            ID,
            &shape(GROUND, 0.0),
            &shape(CORNER, 0.0),
            &p(),
            DVec3::ZERO,
            DQuat::IDENTITY,
        );
        assert!(set.candidate_pairs > 0);
        assert!(set.contacts.is_empty(), "{:#?}", set.contacts);
    }

    #[test]
    fn swapped_bodies_flip_the_normal_and_the_label() {
        let cs = swapped_face_on_face(ID, 2.0 * E, &p());
        // The corner is A now, the ground B, shifted by 2ε: same geometry.
        assert_all(&cs, DVec3::NEG_Y, 0.0, &[VertexFace], CLOSE);
        assert_positions(&cs, &corner_bottom(E), CLOSE);
    }

    #[test]
    fn rigid_motion_moves_the_contacts() {
        check_rigid_motion(ID, 2.0 * E, &p());
    }
}

mod intersection {
    //! Surface triangles only: (V,F) pairs within the touching tolerance of
    //! the face plane and inside its edge planes, at the vertex, face normal,
    //! signed distance; then (E,E) pairs whose cross product does not
    //! separate the triangles and whose lines' closest points lie on both
    //! edges, at the midpoint, cross product, −overlap. The edges must meet
    //! (each closest point on or inside the other tetrahedron): the face on
    //! face, vertex on face and parallel-edge cases below failed with up to
    //! six extra (E,E) contacts metres away before that was required.
    use super::*;

    const ID: &str = "intersection";

    #[test]
    fn face_on_face_gives_the_three_corners() {
        let cs = face_on_face(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }

    #[test]
    fn vertex_on_face_gives_the_tip() {
        let cs = vertex_on_face(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &[DVec3::ZERO], CLOSE);
    }

    #[test]
    fn crossing_edges_give_one_edge_edge_contact() {
        // The edges (x axis and z axis) cross at the origin; their cross
        // product is ±y, along which A's triangles span [−1, 0] and B's
        // [0, 1]: overlap 0.
        let cs = crossing_edges(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[EdgeEdge], CLOSE);
        assert_positions(&cs, &[DVec3::ZERO], CLOSE);
    }

    #[test]
    fn parallel_edges_give_face_normals_at_the_segment_ends() {
        // B's corner (−0.5,0,0) lies on both of A's top faces (on their
        // common edge): two (F,V) contacts with A's face normals (0,1,±1)/√2.
        // A's corner (1,0,0) lies on both of B's bottom faces: two (V,F)
        // contacts with minus B's face normals, again (0,1,±1)/√2. The
        // (E,E) pairs meeting at those corners give the same positions and
        // normals (merged by the post-filter); the parallel pair gives none.
        let cs = edge_on_edge(ID, 0.0, &params(TOL));
        let normals = ridge_top_normals();
        for c in &cs {
            assert!(is_one_of(c.normal, &normals), "{c:#?}\nall: {cs:#?}");
            assert!(c.depth.abs() < CLOSE, "{c:#?}");
        }
        assert_positions(
            &cs,
            &[
                v(-0.5, 0.0, 0.0),
                v(-0.5, 0.0, 0.0),
                v(1.0, 0.0, 0.0),
                v(1.0, 0.0, 0.0),
            ],
            CLOSE,
        );
        for (p, label) in [
            (v(-0.5, 0.0, 0.0), FaceVertex),
            (v(1.0, 0.0, 0.0), VertexFace),
        ] {
            let here = at(&cs, p, CLOSE);
            assert!(
                (here[0].normal - here[1].normal).length() > 0.1,
                "two normals at {p}: {here:#?}"
            );
            assert!(here.iter().all(|c| c.features == label), "{here:#?}");
        }
    }

    #[test]
    fn tolerance_band_gives_signed_distance() {
        let cs = tolerance_band(ID);
        assert_all(&cs, DVec3::Y, 1.99, &[FaceVertex], 1e-9);
        assert_positions(&cs, &scaled_corner_bottom(1.99), 1e-9);
    }

    #[test]
    fn penetrating_crossing_edges_give_minus_the_overlap() {
        // B's bottom edge 0.1 below A's top edge: the triangles overlap by
        // 0.1 along y; the lines' closest points are (0,0,0) and (0,−0.1,0).
        let cs = crossing_edges(ID, -DEPTH, &params(TOL));
        assert_all(&cs, DVec3::Y, -DEPTH, &[EdgeEdge], CLOSE);
        assert_positions(&cs, &[v(0.0, -DEPTH / 2.0, 0.0)], CLOSE);
    }

    #[test]
    fn sunk_face_gives_nothing() {
        // Vertices 0.1 below the face plane are beyond the tolerance, and an
        // edge crossing a face is an (E,F) pair, which the method does not
        // test.
        let cs = face_on_face(ID, -DEPTH, &params(TOL));
        assert!(cs.is_empty(), "{cs:#?}");
    }

    #[test]
    fn swapped_bodies_flip_the_normal_and_the_label() {
        let cs = swapped_face_on_face(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::NEG_Y, 0.0, &[VertexFace], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }

    #[test]
    fn rigid_motion_moves_the_contacts() {
        check_rigid_motion(ID, 0.0, &params(TOL));
    }
}

/// The cases Vertex only and Consistent vertex share: on these single-tet
/// bodies the nearest face and the entry face are the same face.
mod vertex_common {
    use super::*;

    pub fn face_on_face(id: &str) {
        let cs = super::face_on_face(id, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }

    pub fn vertex_on_face(id: &str) {
        let cs = super::vertex_on_face(id, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &[DVec3::ZERO], CLOSE);
    }

    /// No vertex is inside the other tetrahedron: nothing, although the
    /// broad phase passes the pair (the vertex methods' blind spot).
    pub fn crossing_edges(id: &str) {
        let set = detect_posed(
            id,
            &shape(RIDGE, 0.0),
            &shape(CROSS_RIDGE, 0.0),
            &params(TOL),
            DVec3::ZERO,
            DQuat::IDENTITY,
        );
        assert!(set.candidate_pairs > 0);
        assert!(set.contacts.is_empty(), "{:#?}", set.contacts);
    }

    /// B's corner (−0.5,0,0) is on A's top edge, A's corner (1,0,0) on B's
    /// bottom edge: one contact each, with the normal of one of the two
    /// faces at that edge (equally near, equally entered).
    pub fn edge_on_edge(id: &str) {
        let cs = super::edge_on_edge(id, 0.0, &params(TOL));
        assert_positions(&cs, &[v(-0.5, 0.0, 0.0), v(1.0, 0.0, 0.0)], CLOSE);
        let normals = ridge_top_normals();
        for c in &cs {
            assert!(is_one_of(c.normal, &normals), "{c:#?}");
            assert!(c.depth.abs() < CLOSE, "{c:#?}");
        }
        assert_eq!(at(&cs, v(-0.5, 0.0, 0.0), CLOSE)[0].features, FaceVertex);
        assert_eq!(at(&cs, v(1.0, 0.0, 0.0), CLOSE)[0].features, VertexFace);
    }

    pub fn tolerance_band(id: &str) {
        let cs = super::tolerance_band(id);
        assert_all(&cs, DVec3::Y, 1.99, &[FaceVertex], 1e-9);
        assert_positions(&cs, &scaled_corner_bottom(1.99), 1e-9);
    }

    /// The corner sunk 0.1: its bottom corners are inside the ground, 0.1
    /// below the top face, which is both the nearest face and the one their
    /// edges to the apex leave through.
    pub fn sunk_face(id: &str) {
        let cs = super::face_on_face(id, -DEPTH, &params(TOL));
        assert_all(&cs, DVec3::Y, -DEPTH, &[FaceVertex], CLOSE);
        assert_positions(&cs, &corner_bottom(-DEPTH), CLOSE);
    }

    pub fn swapped(id: &str) {
        let cs = swapped_face_on_face(id, 0.0, &params(TOL));
        assert_all(&cs, DVec3::NEG_Y, 0.0, &[VertexFace], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }
}

mod vertex_only {
    //! Vertices inside the other tetrahedron: the nearest surface face gives
    //! the normal, depth = −distance to its plane.
    use super::*;

    const ID: &str = "vertex-only";

    shared_cases!(
        face_on_face_gives_the_three_corners => vertex_common::face_on_face,
        vertex_on_face_gives_the_tip => vertex_common::vertex_on_face,
        crossing_edges_give_nothing => vertex_common::crossing_edges,
        parallel_edges_give_the_segment_ends => vertex_common::edge_on_edge,
        tolerance_band_gives_signed_distance => vertex_common::tolerance_band,
        sunk_face_gives_the_corners_with_their_depth => vertex_common::sunk_face,
        swapped_bodies_flip_the_normal_and_the_label => vertex_common::swapped,
    );

    #[test]
    fn deep_vertex_takes_the_nearest_face_not_the_entry_face() {
        // The tip is 0.2 from the face x = 0 and 0.5 below the top: the
        // nearest face wins, normal −x (out of A through x = 0).
        let cs = leaning_spike_in_octant(ID);
        assert_all(&cs, DVec3::NEG_X, -0.2, &[FaceVertex], CLOSE);
        assert_positions(&cs, &[v(0.2, -0.5, 2.0)], CLOSE);
    }

    #[test]
    fn rigid_motion_moves_the_contacts() {
        check_rigid_motion(ID, 0.0, &params(TOL));
    }
}

mod consistent_vertex {
    //! Like Vertex only, but the face is the one first crossed walking from
    //! the vertex along its incident surface edges.
    use super::*;

    const ID: &str = "consistent-vertex";

    shared_cases!(
        face_on_face_gives_the_three_corners => vertex_common::face_on_face,
        vertex_on_face_gives_the_tip => vertex_common::vertex_on_face,
        crossing_edges_give_nothing => vertex_common::crossing_edges,
        parallel_edges_give_the_segment_ends => vertex_common::edge_on_edge,
        tolerance_band_gives_signed_distance => vertex_common::tolerance_band,
        sunk_face_gives_the_corners_with_their_depth => vertex_common::sunk_face,
        swapped_bodies_flip_the_normal_and_the_label => vertex_common::swapped,
    );

    #[test]
    fn rim_vertex_whose_edges_only_graze_takes_the_nearest_face_in_every_frame() {
        // The base's corner at the origin is the tip of the cube's needle
        // tetrahedron (`stacked_cube`). Its edges run along +x and +z (the
        // base's top, under the cube's bottom) and −y (down the sides
        // coplanar with the cube's): each lies in the plane of x = 0 or of
        // z = 0, or heads into the needle, so none leaves through a surface
        // face of it. The nearest face decides; x = 0 and z = 0 are equally
        // near (0), and the first in the needle's local order, x = 0 (face 2
        // of (0,1,0), (0,0,0), (1,1,0), (0,1,1)), wins: normal from A to B
        // +x, depth 0. An edge counted as crossing a plane it lies in would
        // make the face depend on the frame.
        let (base, cube) = stacked_cube();
        let cs = same_in_every_frame(ID, &base, &cube, &params(TOL));
        let sideways: Vec<Contact> = at(&cs, DVec3::ZERO, CLOSE)
            .into_iter()
            .filter(|c| (c.normal - DVec3::Y).length() > CLOSE)
            .collect();
        assert_eq!(sideways.len(), 1, "{cs:#?}");
        assert_eq!(sideways[0].source_b, STACKED_CUBE_NEEDLE, "{cs:#?}");
        assert_all(&sideways, DVec3::X, 0.0, &[VertexFace], CLOSE);
        // Every other contact is a corner on the common face y = 0 with
        // normal +y: the cube's corners leave the base through its top, the
        // base's leave the cube's corner tetrahedra at (1,0,0) and (0,0,1)
        // through their bottoms (the middle one has no surface face).
        for c in cs.iter().filter(|c| c.source_b != STACKED_CUBE_NEEDLE) {
            assert!(
                c.position.y.abs() < CLOSE && (c.normal - DVec3::Y).length() < CLOSE,
                "{c:#?}"
            );
        }
    }

    #[test]
    fn deep_vertex_takes_the_entry_face_not_the_nearest() {
        // All three edges from the tip leave the octant through the top face
        // (halfway up); none heads out through x = 0. Normal +y, depth −0.5.
        let cs = leaning_spike_in_octant(ID);
        assert_all(&cs, DVec3::Y, -0.5, &[FaceVertex], CLOSE);
        assert_positions(&cs, &[v(0.2, -0.5, 2.0)], CLOSE);
    }

    #[test]
    fn rigid_motion_moves_the_contacts() {
        check_rigid_motion(ID, 0.0, &params(TOL));
    }
}

/// The cases Volume-SAT and Surface-SAT share: on single tetrahedra every
/// face and edge is on the surface, so they agree.
mod sat_common {
    use super::*;

    /// Axis +y, overlap 0: the ground's top face and the corner's bottom
    /// face give it (face axes beat the tied edge axes; the label is that of
    /// the first finalist, A's face: (F,V)). The intersection points are the
    /// corner's bottom corners, already on the contact plane.
    pub fn face_on_face(id: &str) {
        let cs = super::face_on_face(id, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }

    pub fn vertex_on_face(id: &str) {
        let cs = super::vertex_on_face(id, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &[DVec3::ZERO], CLOSE);
    }

    /// Only the edges' cross product (±y) has zero overlap: an (E,E) axis.
    /// The one intersection point is where A's top edge crosses B's faces.
    pub fn crossing_edges(id: &str) {
        let cs = super::crossing_edges(id, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[EdgeEdge], CLOSE);
        assert_positions(&cs, &[DVec3::ZERO], CLOSE);
    }

    /// A's top face (0,1,1)/√2 is coplanar with B's bottom face
    /// (0,−1,−1)/√2, and likewise for the other pair: four face axes with
    /// overlap 0, two directions (0,1,±1)/√2 equally aligned with the line
    /// between the centroids. The tie rule (`separating_axis_test`: the
    /// paper leaves ties open) averages them: +y, in the middle of the
    /// contact's normal cone. The intersection points are the segment's ends.
    pub fn edge_on_edge(id: &str) {
        let cs = super::edge_on_edge(id, 0.0, &params(TOL));
        assert_positions(&cs, &[v(-0.5, 0.0, 0.0), v(1.0, 0.0, 0.0)], CLOSE);
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex, VertexFace], CLOSE);
    }

    /// Overlap −1.99 on the y axis: depth +1.99.
    pub fn tolerance_band(id: &str) {
        let cs = super::tolerance_band(id);
        assert_all(&cs, DVec3::Y, 1.99, &[FaceVertex], 1e-9);
        assert_positions(&cs, &scaled_corner_bottom(1.99), 1e-9);
    }

    /// Sunk 0.1: six intersection points (three corners at −0.1, three
    /// edge crossings at 0), projected onto their mean plane y = −0.05;
    /// the corner (0,−0.1,0) and the crossing above it, (0,0,0), project to
    /// the same point, so five contacts remain.
    pub fn sunk_face(id: &str) {
        let cs = super::face_on_face(id, -DEPTH, &params(TOL));
        assert_all(&cs, DVec3::Y, -DEPTH, &[FaceVertex], CLOSE);
        assert_positions(
            &cs,
            &onto_mean_plane(&sunk_corner_points(), DVec3::Y),
            CLOSE,
        );
        for c in &cs {
            assert!((c.position.y + DEPTH / 2.0).abs() < CLOSE);
        }
    }

    /// Spike sunk 0.1: the tip and three edge crossings, onto y = −0.025.
    pub fn sunk_vertex(id: &str) {
        let cs = super::vertex_on_face(id, -DEPTH, &params(TOL));
        assert_all(&cs, DVec3::Y, -DEPTH, &[FaceVertex], CLOSE);
        assert_positions(&cs, &onto_mean_plane(&spike_points(), DVec3::Y), CLOSE);
    }

    pub fn swapped(id: &str) {
        let cs = swapped_face_on_face(id, 0.0, &params(TOL));
        // The corner's bottom face is now a face of A and comes first among
        // the tied axes: still (F,V), normal −y.
        assert_all(&cs, DVec3::NEG_Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }

    /// The contacts of the pair (pyramid tet `t`, wedge).
    pub fn of_tet(cs: &[Contact], t: u32) -> Vec<Contact> {
        cs.iter().copied().filter(|c| c.source_a == t).collect()
    }
}

mod volume_sat {
    use super::*;

    const ID: &str = "volume-sat";

    shared_cases!(
        face_on_face_gives_the_three_corners => sat_common::face_on_face,
        vertex_on_face_gives_the_tip => sat_common::vertex_on_face,
        crossing_edges_give_an_edge_edge_axis => sat_common::crossing_edges,
        parallel_edges_give_a_face_axis_at_the_segment_ends => sat_common::edge_on_edge,
        tolerance_band_gives_minus_the_overlap => sat_common::tolerance_band,
        sunk_face_projects_onto_the_mean_plane => sat_common::sunk_face,
        sunk_vertex_projects_onto_the_mean_plane => sat_common::sunk_vertex,
    );

    #[test]
    fn interior_face_can_win() {
        // Pair (T1, wedge): minimum overlap 0.05 on T1's interior face
        // x = 0, oriented A→B: the wedge comes from −x, so −x.
        let cs = wedge_in_pyramid(ID);
        let t1 = sat_common::of_tet(&cs, 1);
        assert_all(&t1, DVec3::NEG_X, -0.05, &[FaceVertex], CLOSE);
        assert_positions(
            &t1,
            &onto_mean_plane(&wedge_points_in_t1(), DVec3::X),
            CLOSE,
        );
        // Pair (T0, wedge): the top face, sunk 0.1.
        let t0 = sat_common::of_tet(&cs, 0);
        assert_all(&t0, DVec3::Y, -DEPTH, &[FaceVertex], CLOSE);
    }

    #[test]
    fn swapped_bodies_flip_the_normal() {
        sat_common::swapped(ID);
    }

    #[test]
    fn rigid_motion_moves_the_contacts() {
        check_rigid_motion(ID, 0.0, &params(TOL));
    }
}

mod surface_sat {
    use super::*;

    const ID: &str = "surface-sat";

    shared_cases!(
        face_on_face_gives_the_three_corners => sat_common::face_on_face,
        vertex_on_face_gives_the_tip => sat_common::vertex_on_face,
        crossing_edges_give_an_edge_edge_axis => sat_common::crossing_edges,
        parallel_edges_give_a_face_axis_at_the_segment_ends => sat_common::edge_on_edge,
        tolerance_band_gives_minus_the_overlap => sat_common::tolerance_band,
        sunk_face_projects_onto_the_mean_plane => sat_common::sunk_face,
        sunk_vertex_projects_onto_the_mean_plane => sat_common::sunk_vertex,
    );

    #[test]
    fn interior_face_cannot_win() {
        // Pair (T1, wedge): the interior face is excluded; the best surface
        // axis is the top face, overlap 0.1.
        let cs = wedge_in_pyramid(ID);
        let t1 = sat_common::of_tet(&cs, 1);
        assert_all(&t1, DVec3::Y, -DEPTH, &[FaceVertex], CLOSE);
        assert_positions(
            &t1,
            &onto_mean_plane(&wedge_points_in_t1(), DVec3::Y),
            CLOSE,
        );
        let t0 = sat_common::of_tet(&cs, 0);
        assert_all(&t0, DVec3::Y, -DEPTH, &[FaceVertex], CLOSE);
    }

    #[test]
    fn swapped_bodies_flip_the_normal() {
        sat_common::swapped(ID);
    }

    #[test]
    fn rigid_motion_moves_the_contacts() {
        check_rigid_motion(ID, 0.0, &params(TOL));
    }
}

mod opposing {
    //! The most opposing admissible pair of surface faces gives the normal
    //! unit(n_a − n_b); the intersection points' extent along it is minus
    //! the depth, and they are projected onto the plane through the middle
    //! of the extremes. Label (F,F).
    use super::*;

    const ID: &str = "opposing";

    #[test]
    fn face_on_face_gives_the_three_corners() {
        // Top (+y) against bottom (−y): n_a · n_b = −1, normal +y.
        let cs = face_on_face(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[FaceFace], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }

    #[test]
    fn vertex_on_face_gets_the_tilted_bisector() {
        let cs = vertex_on_face(ID, 0.0, &params(TOL));
        let n = spike_opposing_normal();
        assert!(n.y < 0.9, "the bisector is tilted: {n}");
        assert_all(&cs, n, 0.0, &[FaceFace], CLOSE);
        assert_positions(&cs, &[DVec3::ZERO], CLOSE);
    }

    #[test]
    fn crossing_edges_get_the_mean_of_the_tied_bisectors() {
        // Four face pairs are equally opposing (n_a · n_b = −1/2); algorithm 1
        // would keep whichever it met first, which depends on which body is
        // A. They are also equally aligned with the line between the
        // centroids, so their mean wins: by symmetry exactly +y.
        let cs = crossing_edges(ID, 0.0, &params(TOL));
        assert_positions(&cs, &[DVec3::ZERO], CLOSE);
        let mean: DVec3 = crossing_opposing_normals().iter().copied().sum();
        assert!((mean.normalize() - DVec3::Y).length() < CLOSE);
        assert_all(&cs, DVec3::Y, 0.0, &[FaceFace], CLOSE);
    }

    #[test]
    fn parallel_edges_get_the_best_aligned_opposing_pairs() {
        // Three admissible pairs are exactly opposing (dot −1): A's top faces
        // (0,1,±1)/√2 with the coplanar bottom faces of B, giving n = n_a,
        // and A's side face (1,−1,0)/√2 with B's side face (−1,1,0)/√2,
        // giving (1,−1,0)/√2, which would push B into A. The two top-face
        // normals are the best aligned with the line between the centroids
        // and tie on that, so their mean, +y, is the normal. The two
        // intersection points, the segment's ends, lie in the contact plane.
        let cs = edge_on_edge(ID, 0.0, &params(TOL));
        let [top_1, top_2] = ridge_top_normals();
        assert!(((top_1 + top_2).normalize() - DVec3::Y).length() < CLOSE);
        let (positions, depth) =
            onto_middle_plane(&[v(-0.5, 0.0, 0.0), v(1.0, 0.0, 0.0)], DVec3::Y);
        assert_all(&cs, DVec3::Y, depth, &[FaceFace], CLOSE);
        assert_positions(&cs, &positions, CLOSE);
    }

    #[test]
    fn tolerance_band_gives_zero_extent() {
        // The three points (the corner's bottom corners, 1.99 above the
        // ground but within the tolerance) have no extent along +y, so the
        // depth is 0, not the gap: the method measures extent only.
        let cs = tolerance_band(ID);
        assert_all(&cs, DVec3::Y, 0.0, &[FaceFace], 1e-9);
        assert_positions(&cs, &scaled_corner_bottom(1.99), 1e-9);
    }

    #[test]
    fn sunk_face_projects_onto_the_middle_plane() {
        let cs = face_on_face(ID, -DEPTH, &params(TOL));
        let (positions, depth) = onto_middle_plane(&sunk_corner_points(), DVec3::Y);
        assert!((depth + DEPTH).abs() < 1e-12);
        assert_eq!(positions.len(), 5);
        assert_all(&cs, DVec3::Y, -DEPTH, &[FaceFace], CLOSE);
        assert_positions(&cs, &positions, CLOSE);
    }

    #[test]
    fn sunk_vertex_measures_the_extent_along_the_bisector() {
        let cs = vertex_on_face(ID, -DEPTH, &params(TOL));
        let n = spike_opposing_normal();
        let (positions, depth) = onto_middle_plane(&spike_points(), n);
        assert!(depth < 0.0);
        assert_all(&cs, n, depth, &[FaceFace], CLOSE);
        assert_positions(&cs, &positions, CLOSE);
    }

    #[test]
    fn corners_on_the_other_face_plane_fail_the_sandwich_test_in_every_frame() {
        // `column_at_a_rim_vertex`: of the pairs with n_a · n_b < 0, three
        // have a corner of one tetrahedron on the plane of the other's face,
        // in front of it by round-off only: A's side at −90° with B's side
        // at 30° (n_a · n_b = −1/2; each opposite corner on a column side
        // through the other's face), A's side at −30° with B's slanted face
        // and A's slanted face with B's side at −30° (−√0.6 each; B's rim
        // corner at 0° and A's bottom corner at −60° lie on the column's
        // side at −30°). A corner on the plane is not in front, so none is
        // admissible in any frame, or the most opposing (−√0.6) would give
        // the normal in some frames only. The one admissible pair is A's
        // slanted face with B's bottom: n = unit(n_a + y). The tetrahedra
        // touch at the rim vertex only: one contact there, depth 0.
        let (below, above) = column_at_a_rim_vertex();
        let rim = column(-60.0, 0.0);
        let slanted = outward(
            rim,
            column(-120.0, -1.0),
            column(0.0, -1.0),
            column(-60.0, -1.0),
        );
        let n = (slanted + DVec3::Y).normalize();
        let cs = same_in_every_frame(ID, &below, &above, &params(TOL));
        assert_all(&cs, n, 0.0, &[FaceFace], CLOSE);
        assert_positions(&cs, &[rim], CLOSE);
    }

    #[test]
    fn tetrahedron_inside_the_other_fails_the_sandwich_test() {
        // A small tetrahedron wholly inside the ground: every corner of B is
        // behind every face of A, so no pair passes the sandwich test and
        // the method gives no contacts, although SAT reports overlap.
        let a = shape(GROUND, 0.0);
        let b = tet([
            v(-0.2, -1.2, -0.2),
            v(0.3, -1.2, -0.1),
            v(0.0, -1.2, 0.3),
            v(0.0, -0.8, 0.0),
        ]);
        let set = detect_posed(ID, &a, &b, &params(TOL), DVec3::ZERO, DQuat::IDENTITY);
        assert!(set.candidate_pairs > 0);
        assert!(set.contacts.is_empty(), "{:#?}", set.contacts);
        // The same pair does overlap: Volume-SAT reports it.
        assert!(!detect("volume-sat", &a, &b, &params(TOL)).is_empty());
    }

    #[test]
    fn swapped_bodies_flip_the_normal() {
        let cs = swapped_face_on_face(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::NEG_Y, 0.0, &[FaceFace], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }

    #[test]
    fn rigid_motion_moves_the_contacts() {
        check_rigid_motion(ID, 0.0, &params(TOL));
    }
}

mod growth {
    //! Shrink apart, grow back to δ apart, take the normal of the highest-
    //! dimensional feature the separation direction points at (A's on a
    //! tie goes to B: n = −n_B unless dim A > dim B); the contacts are the
    //! full tetrahedra's intersection points, unprojected, depth minus their
    //! extent along the normal.
    use super::*;

    const ID: &str = "growth";

    #[test]
    fn face_on_face_gives_the_three_corners() {
        let cs = face_on_face(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[FaceFace], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }

    #[test]
    fn vertex_on_face_takes_the_face_normal() {
        // The ground's face (dimension 2) beats the spike's tip (0).
        let cs = vertex_on_face(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[FaceVertex], CLOSE);
        assert_positions(&cs, &[DVec3::ZERO], CLOSE);
    }

    #[test]
    fn crossing_edges_take_the_edge_normal() {
        // Both supports are edges; the edge normal is the normalised sum of
        // its two faces' normals: (0,1,±1)/√2 sum to +y for A, and
        // (±1,−1,0)/√2 to −y for B.
        let cs = crossing_edges(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[EdgeEdge], CLOSE);
        assert_positions(&cs, &[DVec3::ZERO], CLOSE);
    }

    #[test]
    fn parallel_edges_take_the_edge_normal() {
        let cs = edge_on_edge(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::Y, 0.0, &[EdgeEdge], CLOSE);
        assert_positions(&cs, &[v(-0.5, 0.0, 0.0), v(1.0, 0.0, 0.0)], CLOSE);
    }

    #[test]
    fn tolerance_band_gives_zero_extent() {
        let cs = tolerance_band(ID);
        assert_all(&cs, DVec3::Y, 0.0, &[FaceFace], 1e-9);
        assert_positions(&cs, &scaled_corner_bottom(1.99), 1e-9);
    }

    #[test]
    fn sunk_face_gives_the_unprojected_intersection_points() {
        let cs = face_on_face(ID, -DEPTH, &params(TOL));
        assert_all(&cs, DVec3::Y, -DEPTH, &[FaceFace], CLOSE);
        assert_positions(&cs, &sunk_corner_points(), CLOSE);
    }

    #[test]
    fn sunk_vertex_takes_the_face_normal() {
        let cs = vertex_on_face(ID, -DEPTH, &params(TOL));
        assert_all(&cs, DVec3::Y, -DEPTH, &[FaceVertex], CLOSE);
        assert_positions(&cs, &spike_points(), CLOSE);
    }

    #[test]
    fn swapped_bodies_flip_the_normal() {
        let cs = swapped_face_on_face(ID, 0.0, &params(TOL));
        assert_all(&cs, DVec3::NEG_Y, 0.0, &[FaceFace], CLOSE);
        assert_positions(&cs, &corner_bottom(0.0), CLOSE);
    }

    #[test]
    fn rigid_motion_moves_the_contacts() {
        check_rigid_motion(ID, 0.0, &params(TOL));
    }
}
