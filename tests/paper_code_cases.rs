//! One hand-built pair of tetrahedra per rule of
//! `docs/design/reference-code.md` (issue 14), run with the printed method
//! and with its `@paper-code` variant: the two outputs differ exactly as the
//! rule says. Every expected value is derived from the rule, not read off the
//! code. The pairs are the minimal examples `docs/errata.md` quotes.
//!
//! Bodies (metres, y up; A is body 0 and fixed, B is body 1):
//! - `GROUND`: a large tetrahedron whose top face is the plane y = 0;
//! - `SPIKE`: a tetrahedron standing on its tip at the origin, top face at
//!   y = 1, lowered by `lift` < 0 to push the tip into the ground;
//! - `RIDGE` / `CROSS_RIDGE`: a tetrahedron with its top edge along x at
//!   y = 0, and one with its bottom edge along z, crossing it;
//! - `SLANT_RIDGE` / `SLANT_CROSS_RIDGE`: the same with faces of unequal
//!   slopes at the edges (45° and 63° from the vertical), so that the edge
//!   normals of the printed Growth lean away from the common perpendicular.

mod common;

use common::{tet_body, CORNER, CROSS_RIDGE, GROUND, RIDGE, SPIKE};
use contactlab::contact::code_arithmetic::{code_intersection_points, code_planes};
use contactlab::contact::post_filter::{post_filter, sorted_neighbours};
use contactlab::contact::tet_geometry::{intersection_points, TetShape};
use contactlab::contact::{
    find_contacts, method_by_id, BodyAtPose, Contact, ContactSet, FeatureKind, MethodParams,
};
use contactlab::measures::step_measures;
use contactlab::mesh::TetMesh;
use contactlab::scene::builtin::load_builtin;
use contactlab::scene::LoadOptions;
use glam::{DQuat, DVec3};

const CLOSE: f64 = 1e-9;
const UP: DVec3 = DVec3::Y;

const SLANT_RIDGE: [[f64; 3]; 4] = [
    [-1.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, -1.0, -1.0],
    [0.0, -2.0, 1.0],
];
const SLANT_CROSS_RIDGE: [[f64; 3]; 4] = [
    [0.0, 0.0, -1.0],
    [0.0, 0.0, 1.0],
    [-1.0, 1.0, 0.0],
    [2.0, 1.0, 0.0],
];

fn corners(shape: [[f64; 3]; 4], lift: f64) -> [DVec3; 4] {
    shape.map(|[x, y, z]| DVec3::new(x, y, z) + UP * lift)
}

/// `id` on A = `a` (fixed) and B = `b`, with the hand-built cases' touching
/// tolerance and ε = 0.01 (the paper's code drops the tolerance itself).
fn detect(id: &str, a: [DVec3; 4], b: [DVec3; 4]) -> ContactSet {
    let method = method_by_id(id)
        .and_then(|m| m.tet_pair())
        .unwrap_or_else(|| panic!("no local method {id}"));
    let (a, b) = (tet_body(a), tet_body(b));
    let bodies = [
        BodyAtPose::at_rest(&a, DVec3::ZERO, DQuat::IDENTITY, true),
        BodyAtPose::at_rest(&b, DVec3::ZERO, DQuat::IDENTITY, false),
    ];
    let params = MethodParams {
        touch_tol: 1e-6,
        epsilon: 0.01,
        ..MethodParams::default()
    };
    find_contacts(&bodies, method, &params)
}

fn printed_and_code(id: &str, a: [DVec3; 4], b: [DVec3; 4]) -> (ContactSet, ContactSet) {
    (detect(id, a, b), detect(&format!("{id}@paper-code"), a, b))
}

/// Outward unit normals of the four faces of a tetrahedron, face i being
/// the one opposite corner i.
fn outward_normals(t: [DVec3; 4]) -> [DVec3; 4] {
    std::array::from_fn(|i| {
        let [p, q, r] = [1, 2, 3].map(|k| t[(i + k) % 4]);
        let n = (q - p).cross(r - p).normalize();
        if n.dot(t[i] - p) > 0.0 {
            -n
        } else {
            n
        }
    })
}

fn signed_distance(t: [DVec3; 4], face: usize, p: DVec3) -> f64 {
    let on = t[(face + 1) % 4];
    outward_normals(t)[face].dot(p - on)
}

fn at(cs: &[Contact], p: DVec3) -> Vec<Contact> {
    cs.iter()
        .copied()
        .filter(|c| (c.position - p).length() < CLOSE)
        .collect()
}

/// Opposing: the normal is A's face normal n_a, not the bisector
/// unit(n_a − n_b). A spike on its tip: the bisector of the ground's up and
/// the most opposing side face of the spike leans over; the code's normal
/// is a face normal of A. (With the two-sided sandwich test it is not the
/// top's: a sloped face of the one-tetrahedron ground, paired with a face
/// of the spike, is more opposing and passes the test; the Sliding spike
/// test below checks that rule on a real mesh.)
#[test]
fn opposing_takes_a_s_face_normal_not_the_bisector() {
    let (a, b) = (corners(GROUND, 0.0), corners(SPIKE, 0.0));
    let (printed, code) = printed_and_code("opposing", a, b);
    assert_eq!(code.contacts.len(), 1, "{:?}", code.contacts);
    let c = code.contacts[0];
    assert!(
        c.position.length() < CLOSE
            && outward_normals(a)
                .iter()
                .any(|&n| (c.normal - n).length() < CLOSE),
        "{c:?}"
    );
    // The printed normal: the bisector of up and one of the spike's three
    // side faces (faces 1–3, opposite the top corners).
    let sides = outward_normals(b);
    let bisectors: Vec<DVec3> = sides[1..].iter().map(|&n| (UP - n).normalize()).collect();
    assert_eq!(printed.contacts.len(), 1, "{:?}", printed.contacts);
    let n = printed.contacts[0].normal;
    assert!(
        bisectors.iter().any(|m| (n - *m).length() < CLOSE),
        "{n} is none of {bisectors:?}"
    );
    assert!(
        n.dot(UP) < 10f64.to_radians().cos(),
        "the bisector leans: {n}"
    );
}

/// Opposing on the Sliding spike's TetGen meshes at the initial pose, with
/// the code's two-sided sandwich test (a pair is skipped only when both
/// opposite corners lie strictly behind the other's face): the pair of the
/// ground's side face x = −10 and a sloped face of the spike has A's
/// opposite corner in front, so it is kept and gives A's face normal
/// (−1, 0, 0) beside the ground's up: 50 %, not the paper's 100 % (which
/// the one-sided reading we first followed gave). The printed bisector
/// gives 0 %.
#[test]
fn opposing_paper_code_keeps_the_side_face_on_the_sliding_spike() {
    let scene = load_builtin("sliding-spike", &LoadOptions::default()).unwrap();
    let run = |id: &str| {
        let method = method_by_id(id).unwrap().tet_pair().unwrap();
        let set = find_contacts(&scene.poses(), method, &MethodParams::per_pair());
        let centres: Vec<DVec3> = scene.bodies.iter().map(|b| b.position).collect();
        let quality = step_measures(&scene, &set.contacts, &centres, 1.0)
            .1
            .quality;
        (set.contacts, quality)
    };
    let (contacts, quality) = run("opposing@paper-code");
    assert_eq!(quality, Some(50.0));
    let side = DVec3::new(-1.0, 0.0, 0.0);
    assert!(
        contacts.iter().any(|c| c.normal.abs_diff_eq(side, 1e-12)),
        "{:?}",
        contacts.iter().map(|c| c.normal).collect::<Vec<_>>()
    );
    assert!(contacts.iter().any(|c| c.normal.abs_diff_eq(UP, 1e-12)));
    assert_eq!(run("opposing").1, Some(0.0));
}

/// Consistent vertex: one contact per tetrahedron edge of the vertex that
/// strictly crosses a surface plane, none for an edge that only touches
/// one. The tip pushed 0.1 into the ground: its three edges all cross the
/// top plane, so three contacts (merged by the exact post-filter, as they
/// are the same), where the printed method makes one; the tip resting on
/// the plane: the printed method makes its touching contact, the code none
/// (the tip counts as inside, but its edges start on the plane).
#[test]
fn consistent_vertex_counts_edges_and_skips_a_vertex_on_a_plane() {
    let (printed, code) = printed_and_code(
        "consistent-vertex",
        corners(GROUND, 0.0),
        corners(SPIKE, -0.1),
    );
    assert_eq!((printed.unfiltered, code.unfiltered), (1, 3));
    for c in printed.contacts.iter().chain(&code.contacts) {
        assert!((c.position + UP * 0.1).length() < CLOSE, "{c:?}");
        assert!((c.normal - UP).length() < CLOSE && (c.depth + 0.1).abs() < CLOSE);
    }
    assert_eq!(code.contacts.len(), 1);
    let (printed, code) = printed_and_code(
        "consistent-vertex",
        corners(GROUND, 0.0),
        corners(SPIKE, 0.0),
    );
    assert_eq!(printed.contacts.len(), 1);
    assert!(printed.contacts[0].depth.abs() < CLOSE);
    assert!(code.contacts.is_empty(), "{:?}", code.contacts);
}

/// Vertex only: the surface face of minimum signed distance, which for a
/// vertex inside is the farthest face. The tip 0.1 deep: printed takes the
/// top face (depth −0.1), the code the ground's face farthest from the tip.
/// (A corner resting on the plane: "Vertex only and Consistent vertex,
/// measured again" below.)
#[test]
fn vertex_only_takes_the_farthest_face() {
    let ground = corners(GROUND, 0.0);
    let tip = -UP * 0.1;
    let (printed, code) = printed_and_code("vertex-only", ground, corners(SPIKE, -0.1));
    let only = |set: &ContactSet| {
        assert_eq!(set.contacts.len(), 1, "{:?}", set.contacts);
        set.contacts[0]
    };
    let p = only(&printed);
    assert!((p.position - tip).length() < CLOSE);
    assert!((p.normal - UP).length() < CLOSE && (p.depth + 0.1).abs() < CLOSE);
    let farthest = (0..4)
        .min_by(|&f, &g| {
            signed_distance(ground, f, tip).total_cmp(&signed_distance(ground, g, tip))
        })
        .unwrap();
    let c = only(&code);
    assert!((c.position - tip).length() < CLOSE);
    assert!(
        (c.normal - outward_normals(ground)[farthest]).length() < CLOSE,
        "{c:?}"
    );
    assert!((c.depth - signed_distance(ground, farthest, tip)).abs() < CLOSE);
    assert!(c.depth < -1.0, "farther than the top face: {}", c.depth);
}

/// Intersection: (V,F) takes any vertex with d ≤ 0. The tip 0.1 below the
/// top face is no (F,V) contact of the printed method (not within the
/// touching tolerance of the plane), and one of the code's, with the
/// face's normal and depth −0.1.
#[test]
fn intersection_takes_any_vertex_behind_a_face() {
    let tip = -UP * 0.1;
    let (printed, code) =
        printed_and_code("intersection", corners(GROUND, 0.0), corners(SPIKE, -0.1));
    let vertex_face = |set: &ContactSet| -> Vec<Contact> {
        at(&set.contacts, tip)
            .into_iter()
            .filter(|c| c.features == FeatureKind::FaceVertex)
            .collect()
    };
    assert!(vertex_face(&printed).is_empty(), "{:?}", printed.contacts);
    let found = vertex_face(&code);
    assert!(
        found
            .iter()
            .any(|c| (c.normal - UP).length() < CLOSE && (c.depth + 0.1).abs() < CLOSE),
        "{found:?}"
    );
}

/// Volume-SAT and Surface-SAT: the contact plane runs through the middle of
/// the extreme points, not their mean. The tip 0.1 deep: the points are
/// the tip (y = −0.1) and the three crossings of the side edges with y = 0;
/// the axis is up for both. Printed: plane at the mean, y = −0.025; code:
/// at the middle, y = −0.05. Both depths are −0.1 here (the overlap along
/// the axis equals the points' extent).
#[test]
fn sat_plane_through_the_middle_of_the_extremes() {
    for id in ["volume-sat", "surface-sat"] {
        let (printed, code) = printed_and_code(id, corners(GROUND, 0.0), corners(SPIKE, -0.1));
        for (set, height) in [(&printed, -0.025), (&code, -0.05)] {
            assert_eq!(set.contacts.len(), 4, "{id}: {:?}", set.contacts);
            for c in &set.contacts {
                assert!((c.normal - UP).length() < CLOSE, "{id}: {c:?}");
                assert!((c.position.y - height).abs() < CLOSE, "{id}: {c:?}");
                assert!((c.depth + 0.1).abs() < CLOSE, "{id}: {c:?}");
            }
        }
    }
}

/// Growth: the normal of an edge or vertex feature is the search direction
/// itself, and a tie of dimensions takes A's. Two crossing ridges with
/// unequal slopes, touching at the origin: the growth direction is the
/// common perpendicular of the two edges, up; the printed method takes an
/// edge normal (the normalised sum of its two face normals), which leans.
#[test]
fn growth_edge_normal_is_the_search_direction() {
    let (a, b) = (corners(SLANT_RIDGE, 0.0), corners(SLANT_CROSS_RIDGE, 0.0));
    let (printed, code) = printed_and_code("growth", a, b);
    assert!(!code.contacts.is_empty());
    for c in &code.contacts {
        assert!((c.normal - UP).length() < 1e-6, "{c:?}");
        assert_eq!(c.features, FeatureKind::EdgeEdge);
    }
    assert!(!printed.contacts.is_empty());
    for c in &printed.contacts {
        assert!(
            c.normal.dot(UP) < 0.999,
            "the printed edge normal leans: {c:?}"
        );
    }
}

/// Closest points: a hard threshold 2ε with no tolerance, and depth
/// 2ε − distance. The tip 2ε + 10⁻⁹ above the ground: the printed method's
/// tolerance keeps it, the code does not; 0.015 above: both find it, the
/// printed depth is −0.005, the code's +0.005.
#[test]
fn closest_points_hard_threshold_and_reversed_depth() {
    let reach = 0.02;
    let (printed, code) = printed_and_code(
        "closest-points",
        corners(GROUND, 0.0),
        corners(SPIKE, reach + 1e-9),
    );
    assert_eq!((printed.contacts.len(), code.contacts.len()), (1, 0));
    let (printed, code) = printed_and_code(
        "closest-points",
        corners(GROUND, 0.0),
        corners(SPIKE, 0.015),
    );
    for (set, depth) in [(&printed, -0.005), (&code, 0.005)] {
        assert_eq!(set.contacts.len(), 1, "{:?}", set.contacts);
        let c = set.contacts[0];
        assert!(
            (c.normal - UP).length() < CLOSE && (c.depth - depth).abs() < CLOSE,
            "{c:?}"
        );
        assert!((c.position - UP * 0.0075).length() < CLOSE, "{c:?}");
    }
}

/// Closest points: the (E,E) normal is (a_j − a_i) × (b_j − a_i), not the
/// separation direction. Two crossing ridges 0.01 apart: the printed
/// normal is up; the code's is that cross product (for one of the two
/// orders of each edge's ends), which leans by about 0.6°.
#[test]
fn closest_points_edge_normal_is_the_codes_cross_product() {
    let (a, b) = (corners(RIDGE, 0.0), corners(CROSS_RIDGE, 0.01));
    let (printed, code) = printed_and_code("closest-points", a, b);
    let edge = |set: &ContactSet| -> Contact {
        let found: Vec<Contact> = set
            .contacts
            .iter()
            .copied()
            .filter(|c| c.features == FeatureKind::EdgeEdge)
            .collect();
        assert_eq!(found.len(), 1, "{:?}", set.contacts);
        found[0]
    };
    assert!((edge(&printed).normal - UP).length() < CLOSE);
    let (ends_a, ends_b) = ([a[0], a[1]], [b[0], b[1]]);
    let mut candidates = Vec::new();
    for (ai, aj) in [(ends_a[0], ends_a[1]), (ends_a[1], ends_a[0])] {
        for bj in ends_b {
            let n = (aj - ai).cross(bj - ai).normalize();
            candidates.push(if n.dot(UP) < 0.0 { -n } else { n });
        }
    }
    let n = edge(&code).normal;
    assert!(
        candidates.iter().any(|c| (n - *c).length() < CLOSE),
        "{n} is none of {candidates:?}"
    );
    assert!(n.dot(UP) < 1.0 - 1e-6, "it leans: {n}");
}

/// The post-filter: the code sorts the contacts (bodies, position y, x, z,
/// normal, depth) and removes a contact equal to its neighbour before it,
/// every component within 10 machine epsilons; the printed one merges
/// positions within 10 × the touching tolerance and keeps the deepest depth.
/// `same` is one machine epsilon off `first` and goes; `near` (10⁻⁹ off)
/// and `deeper` stay. `apart` equals `first` to round-off too, but the sort
/// puts `between` (a hair higher than `first`, far off in x) between them,
/// so the code keeps it: only neighbours are compared.
#[test]
fn post_filter_sorts_and_removes_equal_neighbours() {
    let first = Contact {
        a: 0,
        b: 1,
        position: DVec3::new(0.3, 0.0, 0.2),
        normal: UP,
        depth: -0.01,
        features: FeatureKind::VertexFace,
        source_a: 0,
        source_b: 0,
        region: None,
        kept_normal: false,
    };
    let same = Contact {
        position: first.position + DVec3::X * f64::EPSILON,
        ..first
    };
    let near = Contact {
        position: first.position + DVec3::X * 1e-9,
        ..first
    };
    let deeper = Contact {
        depth: -0.02,
        ..first
    };
    let all = vec![near, deeper, first, same];
    let mut printed = all.clone();
    post_filter(&mut printed, |_, _| 1e-6);
    assert_eq!(printed.len(), 1);
    assert_eq!(printed[0].depth, -0.02);
    let mut code = all;
    sorted_neighbours(&mut code);
    assert_eq!(code, vec![deeper, first, near], "sorted by x, then depth");

    let between = Contact {
        position: DVec3::new(0.9, f64::EPSILON, 0.2),
        ..first
    };
    let apart = Contact {
        position: first.position + UP * (2.0 * f64::EPSILON),
        ..first
    };
    let mut code = vec![apart, between, first];
    sorted_neighbours(&mut code);
    assert_eq!(code, vec![first, between, apart]);
    let mut printed = vec![apart, between, first];
    post_filter(&mut printed, |_, _| 1e-6);
    assert_eq!(printed.len(), 2, "{printed:?}");
}

// ---------------------------------------------------------------------------
// Vertex only and Consistent vertex, measured again (`docs/errata.md`,
// "Vertex only" and "Consistent vertex"): a corner counts as inside unless
// a face plane of the other tetrahedron has it strictly in front; Vertex
// only gives every surface face tied at the minimum its own contact;
// Consistent vertex takes any corner (not only surface vertices), follows
// an edge only to a corner that is not inside, and needs a strict crossing.

/// `id` on the bodies `a` (A, fixed) and `b` (B), as [`detect`] does for
/// one-tetrahedron bodies.
fn detect_bodies(id: &str, a: &TetMesh, b: &TetMesh) -> ContactSet {
    let method = method_by_id(id)
        .and_then(|m| m.tet_pair())
        .unwrap_or_else(|| panic!("no local method {id}"));
    let bodies = [
        BodyAtPose::at_rest(a, DVec3::ZERO, DQuat::IDENTITY, true),
        BodyAtPose::at_rest(b, DVec3::ZERO, DQuat::IDENTITY, false),
    ];
    let params = MethodParams {
        touch_tol: 1e-6,
        epsilon: 0.01,
        ..MethodParams::default()
    };
    find_contacts(&bodies, method, &params)
}

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

/// Vertex only: a corner lying on a face counts as inside. The spike's tip
/// resting on the ground's top face: before the correction (strict
/// inclusion) the code found nothing; now the tip takes the ground's face
/// of minimum signed distance, the farthest (the top face's distance, 0,
/// is the largest), as the printed method takes the top face.
#[test]
fn vertex_only_paper_code_counts_a_corner_on_a_face() {
    let ground = corners(GROUND, 0.0);
    let (printed, code) = printed_and_code("vertex-only", ground, corners(SPIKE, 0.0));
    assert_eq!(printed.contacts.len(), 1, "{:?}", printed.contacts);
    assert!((printed.contacts[0].normal - UP).length() < CLOSE);
    assert_eq!(code.contacts.len(), 1, "{:?}", code.contacts);
    let c = code.contacts[0];
    let farthest = (0..4)
        .min_by(|&f, &g| {
            signed_distance(ground, f, DVec3::ZERO).total_cmp(&signed_distance(
                ground,
                g,
                DVec3::ZERO,
            ))
        })
        .unwrap();
    assert!(c.position.length() < CLOSE, "{c:?}");
    assert!(
        (c.normal - outward_normals(ground)[farthest]).length() < CLOSE,
        "{c:?}"
    );
    assert!((c.depth - signed_distance(ground, farthest, DVec3::ZERO)).abs() < CLOSE);
    assert!(c.depth < -1.0, "{c:?}");
}

/// Vertex only: every surface face tied at the minimum gives its own
/// contact. B's corner (0.3, 0.3, 0.1) inside the unit corner tetrahedron
/// is 0.3 from the faces x = 0 and y = 0 (exactly, in floating point too:
/// their normals are axis vectors), 0.1 from z = 0 and 0.3 / √3 from the
/// slanted face. The code: two contacts at the corner, normals (−1, 0, 0)
/// and (0, −1, 0) (A's outward normals), depth −0.3 each; the printed
/// method: one, the nearest face z = 0, depth −0.1.
#[test]
fn vertex_only_paper_code_gives_each_tied_face_a_contact() {
    let p = v(0.3, 0.3, 0.1);
    let b = [
        p,
        v(1.3, 0.3, -1.0),
        v(-0.2, 1.2, -1.0),
        v(-0.2, -0.6, -1.0),
    ];
    let (printed, code) = printed_and_code("vertex-only", corners(CORNER, 0.0), b);
    assert_eq!(printed.contacts.len(), 1, "{:?}", printed.contacts);
    let c = printed.contacts[0];
    assert!((c.position - p).length() < CLOSE && (c.normal + DVec3::Z).length() < CLOSE);
    assert!((c.depth + 0.1).abs() < CLOSE, "{c:?}");
    assert_eq!(code.contacts.len(), 2, "{:?}", code.contacts);
    for n in [DVec3::NEG_X, DVec3::NEG_Y] {
        assert!(
            code.contacts
                .iter()
                .any(|c| (c.position - p).length() < CLOSE
                    && (c.normal - n).length() < CLOSE
                    && (c.depth + 0.3).abs() < CLOSE),
            "no contact with normal {n}: {:?}",
            code.contacts
        );
    }
}

/// Consistent vertex: any corner of the tetrahedron counts, not only a
/// surface vertex of its body. A is a large regular tetrahedron, corners
/// −10 w_i for w = (1, 1, 1), (1, −1, −1), (−1, 1, −1), (−1, −1, 1), split
/// into four at its centre, the origin, an interior vertex of A. B is the
/// tetrahedron w_i around it. The edge from the origin to −10 w_i crosses
/// only B's face opposite w_i (outward normal −w_i / √3; the other three
/// planes it moves away from), so the code gives four distinct contacts at
/// the origin, normals +w_i / √3 (minus B's, from A to B), depth −1 / √3
/// (B's inradius); the printed method none there.
#[test]
fn consistent_vertex_paper_code_takes_a_corner_inside_its_body() {
    let w = [
        v(1.0, 1.0, 1.0),
        v(1.0, -1.0, -1.0),
        v(-1.0, 1.0, -1.0),
        v(-1.0, -1.0, 1.0),
    ];
    let mut vertices: Vec<DVec3> = w.iter().map(|&x| x * -10.0).collect();
    vertices.push(DVec3::ZERO);
    let tets: Vec<[u32; 4]> = (0..4u32)
        .map(|skip| {
            let [i, j, k]: [u32; 3] = (0..4u32)
                .filter(|&o| o != skip)
                .collect::<Vec<_>>()
                .try_into()
                .unwrap();
            let at = |n: u32| vertices[n as usize];
            let positive = (at(i) - at(4)).cross(at(j) - at(4)).dot(at(k) - at(4)) > 0.0;
            if positive {
                [4, i, j, k]
            } else {
                [4, i, k, j]
            }
        })
        .collect();
    let a = TetMesh::new(vertices, tets, 1e-6).expect("a valid split tetrahedron");
    let b = tet_body(w);
    let (printed, code) = (
        detect_bodies("consistent-vertex", &a, &b),
        detect_bodies("consistent-vertex@paper-code", &a, &b),
    );
    assert!(
        at(&printed.contacts, DVec3::ZERO).is_empty(),
        "{:?}",
        printed.contacts
    );
    let found = at(&code.contacts, DVec3::ZERO);
    assert_eq!(found.len(), 4, "{:?}", code.contacts);
    for n in w.map(|x| x / 3f64.sqrt()) {
        assert!(
            found
                .iter()
                .any(|c| (c.normal - n).length() < CLOSE
                    && (c.depth + 1.0 / 3f64.sqrt()).abs() < CLOSE),
            "no contact with normal {n}: {found:?}"
        );
    }
}

/// Consistent vertex: an edge is followed only to a corner that is not
/// inside. B has two corners 0.1 below the ground's top face and two 1
/// above: each lower corner follows its two edges to the upper corners
/// (both cross the top plane strictly: a contact each, normal up, depth
/// −0.1) and not the edge to the other lower corner, so four contacts
/// before the post-filter (not six), one per lower corner after it.
#[test]
fn consistent_vertex_paper_code_does_not_follow_an_edge_to_an_inside_corner() {
    let (low, high) = (
        [v(-0.2, -0.1, 0.0), v(0.2, -0.1, 0.0)],
        [v(0.0, 1.0, -0.3), v(0.0, 1.0, 0.3)],
    );
    let b = [low[0], low[1], high[0], high[1]];
    let code = detect("consistent-vertex@paper-code", corners(GROUND, 0.0), b);
    assert_eq!(code.unfiltered, 4, "{:?}", code.contacts);
    assert_eq!(code.contacts.len(), 2, "{:?}", code.contacts);
    for p in low {
        let found = at(&code.contacts, p);
        assert_eq!(found.len(), 1, "{:?}", code.contacts);
        assert!((found[0].normal - UP).length() < CLOSE && (found[0].depth + 0.1).abs() < CLOSE);
    }
}

/// Consistent vertex: an edge must cross the plane strictly; one that only
/// touches it gives nothing. B's corner p lies on the ground's top face (it
/// counts as inside: Vertex only finds it), its two edges upwards start on
/// the plane and so do not cross it strictly, and its edge to the corner q
/// 0.5 below goes to a corner inside. Only q's two edges upwards give
/// contacts (normal up, depth −0.5); the edge from q to p is not followed
/// (and would only touch the plane at p).
#[test]
fn consistent_vertex_paper_code_needs_a_strict_crossing() {
    let (p, q) = (DVec3::ZERO, v(0.1, -0.5, 0.0));
    let b = [p, q, v(-0.5, 1.0, -0.4), v(0.6, 1.0, 0.3)];
    let ground = corners(GROUND, 0.0);
    let code = detect("consistent-vertex@paper-code", ground, b);
    assert_eq!(code.unfiltered, 2, "{:?}", code.contacts);
    assert_eq!(code.contacts.len(), 1, "{:?}", code.contacts);
    let c = code.contacts[0];
    assert!((c.position - q).length() < CLOSE, "{c:?}");
    assert!((c.normal - UP).length() < CLOSE && (c.depth + 0.5).abs() < CLOSE);
    let vertex_only = detect("vertex-only@paper-code", ground, b);
    assert!(
        !at(&vertex_only.contacts, p).is_empty(),
        "{:?}",
        vertex_only.contacts
    );
}

// Intersection@paper-code, measured again (issue 19): one pair per corrected
// rule of `docs/errata.md`, "Intersection".

fn edge_contacts(set: &ContactSet) -> Vec<Contact> {
    set.contacts
        .iter()
        .copied()
        .filter(|c| c.features == FeatureKind::EdgeEdge)
        .collect()
}

/// Rule: (V,F) only for surface triangles that overlap. B is a small
/// tetrahedron just beyond the corner tetrahedron's slanted face
/// (x + y + z ≥ 1.1 on B, ≤ 1 on A), so no two triangles overlap; yet B's
/// corner (0.4, 0.4, 0.3) lies behind A's face z = 0 (d = −0.3) and inside
/// its edges, which the earlier rule took as a (V,F) contact. Now: nothing.
#[test]
fn intersection_code_no_vertex_face_without_overlapping_triangles() {
    let p = v(0.4, 0.4, 0.3);
    let a = corners(CORNER, 0.0);
    let b = [
        p,
        p + v(0.3, 0.0, 0.0),
        p + v(0.0, 0.3, 0.0),
        p + v(0.0, 0.0, 0.3),
    ];
    // Face 2 of CORNER is the one opposite (0, 0, 1): the plane z = 0.
    assert!((signed_distance(a, 2, p) + 0.3).abs() < CLOSE);
    let (_, code) = printed_and_code("intersection", a, b);
    assert!(code.contacts.is_empty(), "{:?}", code.contacts);
}

/// Rules: an (E,E) contact does not end the tetrahedron pair, and an edge
/// pair gives one orientation. The crossing ridges pushed 0.1 into each
/// other overlap, so no axis separates or touches them and every edge pair
/// of every overlapping triangle pair is tried. The top edge against the
/// bottom edge, at the midpoint (0, −0.05, 0): along +y A spans [−1, 0]
/// and B [−0.1, 0.9], so B's lowest lies within A's extent and the contact
/// is +y with depth −0.1 − 0 = −0.1; A's lowest does not lie within B's,
/// so there is no −y contact (our first variant gave both). The sloped
/// edges give more at other points.
#[test]
fn intersection_code_edge_hit_does_not_end_the_pair() {
    let (_, code) = printed_and_code(
        "intersection",
        corners(RIDGE, 0.0),
        corners(CROSS_RIDGE, -0.1),
    );
    let edges = edge_contacts(&code);
    let mid = at(&edges, v(0.0, -0.05, 0.0));
    assert_eq!(mid.len(), 1, "{mid:?}");
    assert!(
        (mid[0].normal - UP).length() < CLOSE && (mid[0].depth + 0.1).abs() < CLOSE,
        "{mid:?}"
    );
    let elsewhere = edges
        .iter()
        .filter(|c| (c.position - v(0.0, -0.05, 0.0)).length() > 0.1)
        .count();
    assert!(elsewhere > 0, "{edges:?}");
}

/// Rule: the first edge pair whose cross product separates or touches the
/// two tetrahedra ends the pair, keeping what was found before. The corner
/// tetrahedron resting on the ground: only the ground's top triangle
/// overlaps (touches) B's triangles. The first of B's, face 0 (the slanted
/// face, corners (1, 0, 0), (0, 0, 1), (0, 1, 0)), gives its two corners on
/// the top face, normal up, depth 0; then its edge (1, 0, 0)–(0, 0, 1) is
/// horizontal like the top's edges, so their cross product is vertical, and
/// along +y A's top (0) is B's bottom (0): the pair stops. The third bottom
/// corner, (0, 0, 0), on B's later faces only, is never reached (the
/// printed method gives all three; the earlier rule gave 15 contacts).
#[test]
fn intersection_code_touching_edge_axis_stops_and_keeps_earlier() {
    let (printed, code) =
        printed_and_code("intersection", corners(GROUND, 0.0), corners(CORNER, 0.0));
    assert_eq!(printed.contacts.len(), 3, "{:?}", printed.contacts);
    assert_eq!(code.contacts.len(), 2, "{:?}", code.contacts);
    for p in [v(1.0, 0.0, 0.0), v(0.0, 0.0, 1.0)] {
        let found = at(&code.contacts, p);
        assert!(
            found.len() == 1
                && found[0].features == FeatureKind::FaceVertex
                && (found[0].normal - UP).length() < CLOSE
                && found[0].depth.abs() < CLOSE,
            "{p}: {found:?}"
        );
    }
}

/// Rule: an (E,E) needs its closest points strictly inside both edges. The
/// crossing ridge pushed 0.1 down and moved 1 along z: its bottom edge now
/// starts at (0, −0.1, 0), right under the middle of A's top edge, so that
/// pair's closest points are an end of B's edge (the earlier rule took it:
/// (E,E) at (0, −0.05, 0), normal ±y). The only other edge pair with a
/// vertical cross product, A's bottom edge and B's top edge, meets at the
/// end (0, −1, 1) of A's edge. No (E,E) contact with a vertical normal.
#[test]
fn intersection_code_no_edge_pair_at_an_edge_end() {
    let b = corners(CROSS_RIDGE, -0.1).map(|q| q + v(0.0, 0.0, 1.0));
    let (_, code) = printed_and_code("intersection", corners(RIDGE, 0.0), b);
    assert!(
        edge_contacts(&code)
            .iter()
            .all(|c| c.normal.cross(UP).length() > 0.1),
        "{:?}",
        code.contacts
    );
}

/// Rule: an (E,E) needs the midpoint of its closest points on or behind
/// both triangles' planes. B's bottom edge (0, 0.1, ±1) crosses 0.1 above
/// A's top edge, the closest points (0, 0, 0) and (0, 0.1, 0) are the
/// middles of both edges, but the midpoint (0, 0.05, 0) is in front of A's
/// two top faces (d = 0.05/√2). B still overlaps A (its corner
/// (0.5, −0.3, 0) is inside), so nothing stops the pair; the triangles of
/// the two edges cross. No contact at the midpoint.
#[test]
fn intersection_code_no_edge_pair_with_midpoint_in_front() {
    let a = corners(RIDGE, 0.0);
    let b = [
        v(0.0, 0.1, -1.0),
        v(0.0, 0.1, 1.0),
        v(0.5, -0.3, 0.0),
        v(-1.0, 1.0, 0.0),
    ];
    let mid = v(0.0, 0.05, 0.0);
    assert!((0..4).any(|f| signed_distance(a, f, mid) > 0.0));
    let (_, code) = printed_and_code("intersection", a, b);
    assert!(!code.contacts.is_empty(), "the pair is not stopped");
    assert!(at(&code.contacts, mid).is_empty(), "{:?}", code.contacts);
}

// ---------------------------------------------------------------------------
// Growth@paper-code, measured again (issue 19): one pair per corrected rule
// (`docs/errata.md`, "Growth"). A is body 0, B body 1; the normal points
// from A to B.

/// A flat fold: its bottom edge along x at y = 0, its top edge along z at
/// y = 0.03, so its two top faces (face 0 opposite (−1, 0, 0), face 1
/// opposite (1, 0, 0)) have outward normals (±0.03, 1, 0), both 1.72° from
/// the vertical.
const FOLD: [[f64; 3]; 4] = [
    [-1.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 0.03, -1.0],
    [0.0, 0.03, 1.0],
];

/// Rule: the Gauss map gives the first face in face order whose 4° cone
/// holds the direction, not the best-aligned one. B's flat bottom face
/// y = 0.02 + x tan 1° (its face 3) sits 0.01 into the fold's top edge; the
/// separation direction is its perpendicular, 1° from the vertical towards
/// −x: 0.72° from A's face 1 and 2.72° from A's face 0. Both are within the
/// cone; face 0 comes first, so A's feature is face 0. B's feature in the
/// opposite direction is its bottom face (0° off). Face against face, A's
/// normal: (0.03, 1, 0) / ‖·‖ (the best-aligned face would give
/// (−0.03, 1, 0) / ‖·‖).
#[test]
fn growth_code_gauss_map_takes_the_first_face_in_the_cone() {
    let t = 1.0_f64.to_radians().tan();
    let y0 = 0.02;
    let b = [
        v(-2.0, y0 - 2.0 * t, -4.0),
        v(-2.0, y0 - 2.0 * t, 4.0),
        v(2.0, y0 + 2.0 * t, 0.0),
        v(0.0, 2.0, 0.0),
    ];
    let (_, code) = printed_and_code("growth", corners(FOLD, 0.0), b);
    let first = v(0.03, 1.0, 0.0).normalize();
    assert!(!code.contacts.is_empty());
    for c in &code.contacts {
        assert!((c.normal - first).length() < CLOSE, "{c:?}");
        assert_eq!(c.features, FeatureKind::FaceFace, "{c:?}");
    }
}

/// Rule: the feature with more points gives the normal (ties to A). The
/// ridge's top edge along x (A, its faces 45° from it: an edge) under B's
/// bottom edge along z, pushed 0.06 into it. The vertical gap between the
/// edges at scale α is 0.7025 − 0.7625 α; parted at 0.9, the growing goes
/// from 0.81 to 0.893 (gap 0.022 ≤ δ = 0.04), and the separation direction
/// is the edges' common perpendicular, up. B's face 3, through its bottom
/// edge and (2, −0.01, 0), rises 0.05 over 2 (1.43° from the horizontal),
/// so B's feature
/// in direction −y is that face: three points against A's two, and the
/// normal is B's, reversed: (−0.025, 1, 0) / ‖·‖, not the direction.
#[test]
fn growth_code_feature_with_more_points_wins() {
    let b = [
        v(0.0, -0.06, -1.0),
        v(0.0, -0.06, 1.0),
        v(2.0, -0.01, 0.0),
        v(-1.0, 0.94, 0.0),
    ];
    let (_, code) = printed_and_code("growth", corners(RIDGE, 0.0), b);
    let face_b = v(-0.025, 1.0, 0.0).normalize();
    assert!(!code.contacts.is_empty());
    for c in &code.contacts {
        assert!((c.normal - face_b).length() < CLOSE, "{c:?}");
        assert_eq!(c.features, FeatureKind::EdgeFace, "{c:?}");
    }
}

/// The Growth variant on GROUND and SPIKE lowered by `lift`: every contact
/// has `normal` and `features`, and the tip (0, −lift, 0) is one of them,
/// with depth −lift (the points' extent along a vertical normal).
fn assert_spike_growth(lift: f64, normal: DVec3, features: FeatureKind) {
    let (_, code) = printed_and_code("growth", corners(GROUND, 0.0), corners(SPIKE, -lift));
    let tip = at(&code.contacts, v(0.0, -lift, 0.0));
    assert!(
        tip.len() == 1 && (tip[0].depth + lift).abs() < CLOSE,
        "{:?}",
        code.contacts
    );
    for c in &code.contacts {
        assert!((c.normal - normal).length() < CLOSE, "{c:?}");
        assert_eq!(c.features, features, "{c:?}");
    }
}

/// Rule: each growing step sets the scale to 1 − s·dc/‖dc‖² (it is not
/// divided by it), with no cap at 1. The spike 0.12 into the ground:
/// scaled about the centroids (A's (0.075, −1, −0.925), B's (0.05, 0.63,
/// 0)), the gap between the tip and the top face is 1.63 − 1.75 α, so they
/// touch at α = 0.931. The shrinking parts them at 0.9 (gap d₀ = 0.055),
/// so δ = 2 min(0.055, 0.01 × 1.503) = 0.030 (1.503: twice the spike's
/// largest corner distance from its centroid). The first step sets the
/// scale to 0.974, past touching: the tip 0.075 under the top face. From
/// there the separation of the overlapping tetrahedra points down, each
/// factor exceeds the scale, and the scale grows for all 20 steps (to
/// 1.29). The search direction is down: on A the ground's bottom corner,
/// no face within 4°; on B (up) the spike's top face, which has more
/// points. The normal is that face's, reversed: (0, −1, 0), labelled
/// (V,F). Dividing the scale by the factor stops short of touching, with
/// the tip above the face and the top face's normal (0, 1, 0).
#[test]
fn growth_code_sets_the_scale_to_the_step_factor() {
    assert_spike_growth(0.12, -UP, FeatureKind::VertexFace);
}

/// Rule: the loop ends when the factor would not grow the scale. The
/// spike 0.14 into the ground: the gap is 1.61 − 1.75 α (touching at
/// 0.92); the shrinking parts them at 0.9 (d₀ = 0.035, δ = 0.030), and the
/// growing (its scale starting one shrink step below, at 0.81) passes
/// touching at the first step (0.984, the tip 0.111 under the top face)
/// and keeps growing, as above, until at scale 1.297 the closest points
/// of the overlapping tetrahedra turn and the separation points up; its
/// factor is then below the scale and the loop ends. Up, A's top face is
/// found: normal (0, 1, 0), labelled (F,V).
#[test]
fn growth_code_restarts_one_shrink_step_below() {
    assert_spike_growth(0.14, UP, FeatureKind::FaceVertex);
}

// ---------------------------------------------------------------------------
// The crossing points of Volume-SAT, Surface-SAT and Opposing, and Closest
// points' used-vertex and used-edge rules, measured again (issue 19;
// `docs/errata.md`, "The crossing points" and "Closest points").

fn shape(corners: [[f64; 3]; 4]) -> TetShape {
    TetShape::from_corners(corners.map(|[x, y, z]| DVec3::new(x, y, z)))
}

/// Rule: points that coincide after projection onto the contact plane are
/// merged, within the tetrahedron pair. A tetrahedron with a vertical edge
/// pushed 0.1 into the ground: its tip, and the three crossings of its
/// edges from the tip with y = 0, one of them (0, 0, 0) straight above the
/// tip. The axis is up; projected onto the middle plane y = −0.05 the tip
/// and that crossing are the same point, so the pair gives three contacts
/// before the post-filter, not four. (Opposing shares these points; its
/// normal here is a side face's, so it is not the example.)
#[test]
fn sat_code_merges_points_that_coincide_after_projection() {
    let post = [
        [0.0, -0.1, 0.0],
        [0.0, 0.9, 0.0],
        [1.0, 0.9, 0.0],
        [0.0, 0.9, 1.0],
    ];
    for id in ["volume-sat@paper-code", "surface-sat@paper-code"] {
        let set = detect(id, corners(GROUND, 0.0), corners(post, 0.0));
        assert_eq!(set.unfiltered, 3, "{id}: {:?}", set.contacts);
        let below_tip = at(&set.contacts, DVec3::new(0.0, -0.05, 0.0));
        assert_eq!(below_tip.len(), 1, "{id}: {:?}", set.contacts);
        assert!(
            (below_tip[0].depth + 0.1).abs() < CLOSE,
            "{id}: {:?}",
            below_tip
        );
    }
}

/// Rule: a cut of an edge with a face plane is kept only if it is inside all
/// four planes of the other tetrahedron, the plane it crosses included, in
/// the code's unnormalised arithmetic. The edge from (0.25, −0.4, −0.05) to
/// (0.4, 0.85, 0.9) crosses the ground's top face at (0.298, 0, 0.254), well
/// inside the face; computed as the code computes it, the cut lands
/// 5.6 × 10⁻¹⁷ above the plane, so the code drops it. The printed rule,
/// which does not test the crossed plane, keeps it.
#[test]
fn code_crossing_point_must_pass_its_own_plane() {
    let ground = shape(GROUND);
    let poker = shape([
        [0.25, -0.4, -0.05],
        [0.4, 0.85, 0.9],
        [0.8, 0.73, -0.9],
        [0.1, 1.27, -0.2],
    ]);
    let cut = DVec3::new(0.298, 0.0, 0.254);
    let near_cut = |points: &[DVec3]| {
        points
            .iter()
            .filter(|p| (**p - cut).length() < 1e-9)
            .count()
    };
    let top = code_planes(&ground)[3];
    let (p, q) = (poker.corners[0], poker.corners[1]);
    let (dp, dq) = (top.distance(p), top.distance(q));
    let computed = p + (q - p) * (dp.abs() / (dp.abs() + dq.abs()));
    assert!((computed - cut).length() < 1e-9 && top.distance(computed) > 0.0);
    assert_eq!(near_cut(&code_intersection_points(&ground, &poker)), 0);
    assert_eq!(near_cut(&intersection_points(&ground, &poker, 0.0)), 1);
}

/// Rules: a (V,F) needs the vertex strictly in front of the face, and the
/// code's edge–face case. The spike's tip 0.005 under the ground's top:
/// the printed method gives a (V,F) from the separation of the tip and its
/// foot; the code gives none (the tip is behind the plane), but each of the
/// spike's three side edges crosses the top plane over the top face and
/// gives an edge–face contact there: at the cut (y = 0), with the top
/// face's normal (0, 1, 0) and the deeper end's distance, −0.005, as depth.
#[test]
fn closest_points_code_vertex_in_front_and_edge_face() {
    let (printed, code) = printed_and_code(
        "closest-points",
        corners(GROUND, 0.0),
        corners(SPIKE, -0.005),
    );
    let count = |set: &ContactSet, kind| set.contacts.iter().filter(|c| c.features == kind).count();
    assert!(
        count(&printed, FeatureKind::FaceVertex) > 0,
        "{:?}",
        printed.contacts
    );
    assert_eq!(
        count(&code, FeatureKind::FaceVertex),
        0,
        "{:?}",
        code.contacts
    );
    let crossings: Vec<Contact> = code
        .contacts
        .iter()
        .copied()
        .filter(|c| c.features == FeatureKind::FaceEdge)
        .collect();
    assert_eq!(crossings.len(), 3, "{:?}", code.contacts);
    for c in &crossings {
        assert!(c.position.y.abs() < CLOSE, "{c:?}");
        assert!((c.normal - UP).length() < CLOSE, "{c:?}");
        assert!((c.depth + 0.005).abs() < CLOSE, "{c:?}");
    }
}

/// Rule: an edge whose two end vertices both gave a (V,F) is not tried as
/// an edge. A flat ridge (top edge along x, faces falling 0.005 per metre)
/// under a cross ridge whose bottom edge runs along z 0.01 above it: both
/// ends of that edge are about 0.015 above a top face, inside it, so each
/// gives a (V,F); the two edges' closest points (0, 0.01, 0) and (0, 0, 0)
/// are inside both edges and 0.01 < 2ε apart, but the edge is used up, so
/// the code gives no (E,E). The printed method gives that (E,E).
#[test]
fn closest_points_code_skips_an_edge_whose_ends_gave_contacts() {
    let flat_ridge = [
        [-1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, -0.02, -4.0],
        [0.0, -0.02, 4.0],
    ];
    let (printed, code) = printed_and_code(
        "closest-points",
        corners(CROSS_RIDGE, 0.01),
        corners(flat_ridge, 0.0),
    );
    let count = |set: &ContactSet, kind| set.contacts.iter().filter(|c| c.features == kind).count();
    assert_eq!(
        count(&code, FeatureKind::VertexFace),
        2,
        "{:?}",
        code.contacts
    );
    assert_eq!(
        count(&code, FeatureKind::EdgeEdge),
        0,
        "{:?}",
        code.contacts
    );
    let edge_pair: Vec<Contact> = printed
        .contacts
        .iter()
        .copied()
        .filter(|c| c.features == FeatureKind::EdgeEdge)
        .collect();
    assert!(
        edge_pair
            .iter()
            .any(|c| (c.position - UP * 0.005).length() < CLOSE),
        "{:?}",
        printed.contacts
    );
}
