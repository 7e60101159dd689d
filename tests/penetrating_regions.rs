//! Penetrating contact regions (`contact::regions::penetrating`) on
//! hand-built bodies whose intersection is known: a box sunk into a box, a
//! tetrahedral spike into a block, two wedges crossed ridge on ridge, and a
//! two-toothed comb pressed into a block (two separate penetrations). Every
//! expected value is derived from the geometry in the comments, not read
//! off the code. Then the same regions after rigid transforms of the whole
//! pair and with the bodies swapped, and no contour where bodies only
//! touch (the built-in scenes' touching poses, built exactly from
//! integers and halves so that no round-off overlaps them).
//!
//! All bodies are coned meshes (`Shape::build`); y is up; A is the lower
//! body.

use contactlab::contact::regions::penetrating::{intersection_contours, penetrating_regions};
use contactlab::contact::regions::touching::touching_regions;
use contactlab::contact::regions::{contact_regions, ContactRegion, Contour, Entity};
use contactlab::contact::world_mesh::WorldMesh;
use contactlab::contact::{BodyPair, PairSide};
use contactlab::mesh::shapes::{Cuboid, Prism, Shape, Tetrahedra, Wedge};
use contactlab::mesh::TetMesh;
use glam::{DQuat, DVec2, DVec3};

const FLAT: f64 = 1e-6;
/// Touching tolerance of the cases (bodies of about 2 m).
const TOL: f64 = 1e-6;
/// Agreement of positions after a rigid transform: a few roundings of
/// coordinates of size about 3.
const CLOSE: f64 = 1e-12;

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn cuboid(x: f64, y: f64, z: f64) -> TetMesh {
    Shape::from(Cuboid { size: v(x, y, z) })
        .build(FLAT)
        .unwrap()
}

/// A tetrahedron standing on its tip at the origin, its top face at y = 0.6
/// (a sharp spike: the top face's corners are 0.25 from the axis).
fn spike() -> TetMesh {
    let corners = [0.0, 1.0, 2.0].map(|k: f64| {
        let angle = k * std::f64::consts::TAU / 3.0;
        v(0.25 * angle.cos(), 0.6, 0.25 * angle.sin())
    });
    Shape::from(Tetrahedra {
        // Positively oriented: the tip below a counter-clockwise (seen from
        // above) top face.
        vertices: vec![v(0.0, 0.0, 0.0), corners[0], corners[2], corners[1]],
        tets: vec![[0, 1, 2, 3]],
    })
    .build(FLAT)
    .unwrap()
}

/// A wedge with its ridge along z at y = 1, faces sloping at 45° to the
/// base at y = 0 (half-width 1), length 2.
fn wedge() -> TetMesh {
    Shape::from(Wedge {
        half_width: 1.0,
        height: 1.0,
        half_length: 1.0,
    })
    .build(FLAT)
    .unwrap()
}

/// A prism along z (depth 1) whose profile is a comb with two teeth
/// pointing down: tips at (−0.6, 0.2) and (0.6, 0.2), the gap between them
/// at y = 0.5, the back at y = 1.
fn comb() -> TetMesh {
    let profile = [
        (-1.0, 1.0),
        (-1.0, 0.5),
        (-0.6, 0.2),
        (-0.2, 0.5),
        (0.2, 0.5),
        (0.6, 0.2),
        (1.0, 0.5),
        (1.0, 1.0),
    ]
    .map(|(x, y)| DVec2::new(x, y));
    Shape::from(Prism {
        profile: profile.to_vec(),
        depth: 1.0,
        kernel: Some(v(0.0, 0.8, 0.0)),
    })
    .build(FLAT)
    .unwrap()
}

/// A body at a pose.
#[derive(Clone, Copy)]
struct Placed<'a> {
    mesh: &'a TetMesh,
    position: DVec3,
    rotation: DQuat,
}

impl<'a> Placed<'a> {
    fn at(mesh: &'a TetMesh, position: DVec3, rotation: DQuat) -> Self {
        Placed {
            mesh,
            position,
            rotation,
        }
    }

    /// This body after the rigid motion x ↦ t + q x of the world.
    fn moved(&self, q: DQuat, t: DVec3) -> Self {
        Placed {
            mesh: self.mesh,
            position: t + q * self.position,
            rotation: q * self.rotation,
        }
    }
}

fn side<'a>(world: &'a WorldMesh<'a>, body: &Placed<'a>) -> PairSide<'a> {
    PairSide {
        world,
        brep: body.mesh.brep(),
        position: body.position,
        rotation: body.rotation,
        velocity: DVec3::ZERO,
        angular_velocity: DVec3::ZERO,
    }
}

fn with_pair<R>(a: &Placed, b: &Placed, f: impl FnOnce(&BodyPair) -> R) -> R {
    let wa = WorldMesh::new(a.mesh, a.position, a.rotation);
    let wb = WorldMesh::new(b.mesh, b.position, b.rotation);
    f(&BodyPair {
        a: side(&wa, a),
        b: side(&wb, b),
    })
}

fn regions(a: &Placed, b: &Placed) -> Vec<ContactRegion> {
    with_pair(a, b, |pair| penetrating_regions(pair, TOL))
}

/// The mesh vertices of `mesh` (body frame) with local y equal to `y`.
fn vertices_at_height(mesh: &TetMesh, y: f64) -> Vec<u32> {
    (0..mesh.vertices.len() as u32)
        .filter(|&i| mesh.vertices[i as usize].y == y && mesh.is_surface_vertex(i as usize))
        .collect()
}

/// The only region of `found`, which has one closed contour.
fn one_closed_contour(found: &[ContactRegion]) -> (&ContactRegion, &Contour) {
    assert_eq!(found.len(), 1, "{found:#?}");
    let region = &found[0];
    assert_eq!(region.contours.len(), 1, "{region:#?}");
    assert!(region.contours[0].closed, "{region:#?}");
    (region, &region.contours[0])
}

/// The B-rep face of `mesh` with this outward normal (body frame).
fn face_with_normal(mesh: &TetMesh, normal: DVec3) -> Entity {
    let brep = mesh.brep();
    let f = brep
        .faces
        .iter()
        .position(|f| (f.normal - normal).length() < 1e-9)
        .unwrap_or_else(|| panic!("no face with normal {normal}"));
    Entity::Face(f as u32)
}

/// The B-rep edge of `mesh` between the two mesh vertices at these
/// body-frame positions (which must be its ends).
fn edge_between(mesh: &TetMesh, p: DVec3, q: DVec3) -> Entity {
    let brep = mesh.brep();
    let vertex_at = |x: DVec3| {
        mesh.vertices
            .iter()
            .position(|&y| (y - x).length() < 1e-12)
            .unwrap_or_else(|| panic!("no vertex at {x}")) as u32
    };
    let (i, j) = (vertex_at(p), vertex_at(q));
    let e = brep
        .edges
        .iter()
        .position(|e| {
            let (s, t) = (e.path[0], *e.path.last().unwrap());
            (s, t) == (i, j) || (s, t) == (j, i)
        })
        .unwrap_or_else(|| panic!("no B-rep edge from {p} to {q}"));
    Entity::Edge(e as u32)
}

/// Case 1. A 2 × 1 × 2 block with its top face at y = 0 and a unit cube
/// sunk 0.2 into it, off centre so that no edge of one meets an edge of the
/// other. The intersection is the square where the cube's sides cross the
/// block's top: x ∈ [−0.37, 0.63], z ∈ [−0.43, 0.57] at y = 0. The cube's
/// four bottom corners are inside the block, 0.2 below its top and at least
/// 0.37 from its sides: depth −0.2. Nothing of the block is inside the cube
/// (its top corners are outside the cube's footprint).
fn box_in_box<'a>(block: &'a TetMesh, cube: &'a TetMesh) -> (Placed<'a>, Placed<'a>) {
    (
        Placed::at(block, v(0.0, -0.5, 0.0), DQuat::IDENTITY),
        Placed::at(cube, v(0.13, 0.3, 0.07), DQuat::IDENTITY),
    )
}

#[test]
fn a_box_sunk_into_a_box_is_one_closed_square_contour_around_its_four_bottom_corners() {
    let (block, cube) = (cuboid(2.0, 1.0, 2.0), cuboid(1.0, 1.0, 1.0));
    let (a, b) = box_in_box(&block, &cube);
    let found = regions(&a, &b);
    let (region, contour) = one_closed_contour(&found);
    let top = face_with_normal(&block, DVec3::Y);
    let (x0, x1, z0, z1) = (-0.37, 0.63, -0.43, 0.57);
    let on_square_boundary = |p: DVec3| {
        let within =
            p.x >= x0 - CLOSE && p.x <= x1 + CLOSE && p.z >= z0 - CLOSE && p.z <= z1 + CLOSE;
        let on_side = [p.x - x0, p.x - x1, p.z - z0, p.z - z1]
            .iter()
            .any(|d| d.abs() < CLOSE);
        p.y.abs() < CLOSE && within && on_side
    };
    for point in &contour.points {
        assert!(on_square_boundary(point.position), "{point:?}");
        // Every point is in the open top face of the block.
        assert_eq!(point.a, top, "{point:?}");
    }
    // The four vertical edges of the cube cross the top at the corners.
    for (x, z) in [(x0, z0), (x1, z0), (x1, z1), (x0, z1)] {
        let corner = v(x, 0.0, z);
        let local = corner - b.position;
        let edge = edge_between(&cube, v(local.x, -0.5, local.z), v(local.x, 0.5, local.z));
        assert!(
            contour
                .points
                .iter()
                .any(|p| (p.position - corner).length() < CLOSE && p.b == edge),
            "no contour point at {corner} on the cube's edge {edge:?}: {contour:#?}"
        );
    }
    assert_eq!(region.penetrating_a, Vec::<u32>::new());
    assert_eq!(region.penetrating_b, vertices_at_height(&cube, -0.5));
    assert_eq!(region.penetrating_b.len(), 4);
    assert!((region.depth + 0.2).abs() < CLOSE, "{}", region.depth);
}

/// Case 2. The spike, tip down at (0.5, −0.15, 0) in the block: its three
/// edges from the tip cross the block's top at the corners of a triangle
/// (the top face's triangle scaled by 0.15 / 0.6 about the axis), which
/// lies in one triangle of the block's top (its diagonals x = ±z are at
/// least 0.35 / √2 > 0.0625 away). Only the tip is inside, 0.15 deep.
fn spike_in_block<'a>(block: &'a TetMesh, spike: &'a TetMesh) -> (Placed<'a>, Placed<'a>) {
    (
        Placed::at(block, v(0.0, -0.5, 0.0), DQuat::IDENTITY),
        Placed::at(spike, v(0.5, -0.15, 0.0), DQuat::IDENTITY),
    )
}

#[test]
fn a_spike_in_a_block_is_a_triangular_contour_around_its_tip() {
    let (block, spike) = (cuboid(2.0, 1.0, 2.0), spike());
    let (a, b) = spike_in_block(&block, &spike);
    let found = regions(&a, &b);
    let (region, contour) = one_closed_contour(&found);
    assert_eq!(contour.points.len(), 3, "{contour:#?}");
    let top = face_with_normal(&block, DVec3::Y);
    for k in 0..3 {
        let angle = k as f64 * std::f64::consts::TAU / 3.0;
        let expected = v(0.5 + 0.0625 * angle.cos(), 0.0, 0.0625 * angle.sin());
        let local_corner = v(0.25 * angle.cos(), 0.6, 0.25 * angle.sin());
        let edge = edge_between(&spike, DVec3::ZERO, local_corner);
        assert!(
            contour
                .points
                .iter()
                .any(|p| (p.position - expected).length() < CLOSE && p.a == top && p.b == edge),
            "no contour point at {expected}: {contour:#?}"
        );
    }
    assert_eq!(region.penetrating_a, Vec::<u32>::new());
    assert_eq!(region.penetrating_b, vertices_at_height(&spike, 0.0));
    assert!((region.depth + 0.15).abs() < CLOSE, "{}", region.depth);
}

/// Case 3. Two wedges crossed ridge on ridge: A's ridge along z at y = 0
/// (faces y = −|x|), B upside down with its ridge along x at y = −0.1
/// (faces y = −0.1 + |z|). The surfaces cross where −|x| = −0.1 + |z|, the
/// diamond |x| + |z| = 0.1: A's ridge pierces B's faces at (0, 0, ±0.1),
/// B's ridge pierces A's faces at (±0.1, −0.1, 0). No vertex of either is
/// inside the other (every corner is at least 0.9 away), so the region has
/// no penetrating vertex and depth 0.
fn crossed_wedges(wedge: &TetMesh) -> (Placed<'_>, Placed<'_>) {
    let upside_down = DQuat::from_rotation_y(std::f64::consts::FRAC_PI_2)
        * DQuat::from_rotation_z(std::f64::consts::PI);
    (
        Placed::at(wedge, v(0.0, -1.0, 0.0), DQuat::IDENTITY),
        Placed::at(wedge, v(0.0, 0.9, 0.0), upside_down),
    )
}

#[test]
fn two_crossed_wedges_meet_in_a_diamond_with_no_vertex_inside() {
    let mesh = wedge();
    let (a, b) = crossed_wedges(&mesh);
    let found = regions(&a, &b);
    let (region, contour) = one_closed_contour(&found);
    for p in &contour.points {
        let x = p.position;
        assert!((x.x.abs() + x.z.abs() - 0.1).abs() < CLOSE, "{p:?}");
        assert!((x.y + x.x.abs()).abs() < CLOSE, "{p:?}");
    }
    let ridge = edge_between(&mesh, v(0.0, 1.0, -1.0), v(0.0, 1.0, 1.0));
    for (point, a_on_ridge) in [
        (v(0.0, 0.0, 0.1), true),
        (v(0.0, 0.0, -0.1), true),
        (v(0.1, -0.1, 0.0), false),
        (v(-0.1, -0.1, 0.0), false),
    ] {
        let hit = contour
            .points
            .iter()
            .find(|p| (p.position - point).length() < CLOSE)
            .unwrap_or_else(|| panic!("no contour point at {point}: {contour:#?}"));
        let (on_ridge, other) = if a_on_ridge {
            (hit.a, hit.b)
        } else {
            (hit.b, hit.a)
        };
        assert_eq!(on_ridge, ridge, "{hit:?}");
        assert!(matches!(other, Entity::Face(_)), "{hit:?}");
    }
    assert!(region.penetrating_a.is_empty() && region.penetrating_b.is_empty());
    assert_eq!(region.depth, 0.0);
}

/// Case 4. The comb pressed 0.1 into the block: each tooth's tip edge (at
/// x = ±0.6, running along z from −0.5 to 0.5) is 0.1 below the top, the
/// gap between the teeth is above it, so there are two separate contours,
/// each around one tooth's two tip vertices, both 0.1 deep.
fn comb_in_block<'a>(block: &'a TetMesh, comb: &'a TetMesh) -> (Placed<'a>, Placed<'a>) {
    (
        Placed::at(block, v(0.0, -0.5, 0.0), DQuat::IDENTITY),
        Placed::at(comb, v(0.0, -0.3, 0.0), DQuat::IDENTITY),
    )
}

#[test]
fn a_comb_with_two_teeth_makes_two_regions() {
    let (block, comb) = (cuboid(3.0, 1.0, 2.0), comb());
    let (a, b) = comb_in_block(&block, &comb);
    let found = regions(&a, &b);
    assert_eq!(found.len(), 2, "{found:#?}");
    let tips = vertices_at_height(&comb, 0.2);
    assert_eq!(tips.len(), 4);
    let mut seen: Vec<u32> = Vec::new();
    for region in &found {
        assert_eq!(region.contours.len(), 1);
        assert!(region.contours[0].closed);
        assert!(region.penetrating_a.is_empty());
        assert_eq!(region.penetrating_b.len(), 2, "{region:#?}");
        // Both vertices of one tooth: the same x.
        let xs: Vec<f64> = region
            .penetrating_b
            .iter()
            .map(|&i| comb.vertices[i as usize].x)
            .collect();
        assert_eq!(xs[0], xs[1]);
        // The contour runs around that tooth only.
        for p in &region.contours[0].points {
            assert!((p.position.x - xs[0]).abs() < 0.2 + CLOSE, "{p:?}");
            assert!(p.position.y.abs() < CLOSE, "{p:?}");
        }
        assert!((region.depth + 0.1).abs() < CLOSE, "{}", region.depth);
        seen.extend(&region.penetrating_b);
    }
    seen.sort_unstable();
    assert_eq!(seen, tips);
}

/// The four cases as (A, B) pairs.
fn cases<'a>(meshes: &'a [TetMesh; 6]) -> Vec<(&'static str, Placed<'a>, Placed<'a>)> {
    let [block, cube, spike, wedge, wide, comb] = meshes;
    [
        ("box in box", box_in_box(block, cube)),
        ("spike", spike_in_block(block, spike)),
        ("crossed wedges", crossed_wedges(wedge)),
        ("comb", comb_in_block(wide, comb)),
    ]
    .into_iter()
    .map(|(name, (a, b))| (name, a, b))
    .collect()
}

fn meshes() -> [TetMesh; 6] {
    [
        cuboid(2.0, 1.0, 2.0),
        cuboid(1.0, 1.0, 1.0),
        spike(),
        wedge(),
        cuboid(3.0, 1.0, 2.0),
        comb(),
    ]
}

/// Whether two region lists describe the same regions, up to order, with
/// positions mapped by `map` and B-rep entities compared as given
/// (`swapped`: `other` has A and B exchanged).
fn same_regions(
    one: &[ContactRegion],
    other: &[ContactRegion],
    map: impl Fn(DVec3) -> DVec3,
    swapped: bool,
) -> Result<(), String> {
    if one.len() != other.len() {
        return Err(format!("{} regions against {}", one.len(), other.len()));
    }
    for r in one {
        let (pa, pb) = if swapped {
            (&r.penetrating_b, &r.penetrating_a)
        } else {
            (&r.penetrating_a, &r.penetrating_b)
        };
        let matching = other.iter().find(|s| {
            &s.penetrating_a == pa
                && &s.penetrating_b == pb
                && s.contours.len() == r.contours.len()
                && (s.depth - r.depth).abs() < CLOSE
        });
        let Some(s) = matching else {
            return Err(format!("no region like {r:#?} in {other:#?}"));
        };
        for c in &r.contours {
            let found = s.contours.iter().any(|d| {
                d.closed == c.closed
                    && d.points.len() == c.points.len()
                    && c.points.iter().all(|p| {
                        let (ea, eb) = if swapped { (p.b, p.a) } else { (p.a, p.b) };
                        d.points.iter().any(|q| {
                            (q.position - map(p.position)).length() < CLOSE
                                && q.a == ea
                                && q.b == eb
                        })
                    })
            });
            if !found {
                return Err(format!("no contour like {c:#?} in {:#?}", s.contours));
            }
        }
    }
    Ok(())
}

#[test]
fn regions_turn_and_move_with_the_pair() {
    let meshes = meshes();
    let motions = [
        (
            DQuat::from_axis_angle(v(1.0, 2.0, -0.5).normalize(), 0.7),
            v(0.3, -1.2, 2.5),
        ),
        (
            DQuat::from_axis_angle(v(-0.3, 0.1, 1.0).normalize(), 2.9),
            v(-4.0, 0.5, 0.25),
        ),
        (
            DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2),
            DVec3::ZERO,
        ),
    ];
    for (name, a, b) in cases(&meshes) {
        let before = regions(&a, &b);
        assert!(!before.is_empty(), "{name}");
        for (q, t) in motions {
            let after = regions(&a.moved(q, t), &b.moved(q, t));
            same_regions(&before, &after, |p| t + q * p, false)
                .unwrap_or_else(|e| panic!("{name}, turned by {q} and moved by {t}: {e}"));
        }
    }
}

#[test]
fn swapping_the_bodies_swaps_the_regions_sides() {
    let meshes = meshes();
    for (name, a, b) in cases(&meshes) {
        let (ab, ba) = (regions(&a, &b), regions(&b, &a));
        same_regions(&ab, &ba, |p| p, true).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// Bodies that only touch have no contour, whichever body is A: a box on a
/// box (coplanar faces, the smaller one's corners inside the larger one's
/// top), a cube on a cube of the same footprint (coincident side faces and
/// edges), the spike's tip on the block's top, and a wedge's ridge on a
/// block. The coordinates are exact, so these are touching poses without
/// round-off; the symbolic translation moves B away from A along the line
/// of centres, which separates them.
#[test]
fn bodies_that_only_touch_have_no_contour() {
    let (block, cube, spike, wedge) = (
        cuboid(2.0, 1.0, 2.0),
        cuboid(1.0, 1.0, 1.0),
        spike(),
        wedge(),
    );
    let upside_down = DQuat::from_rotation_z(std::f64::consts::PI);
    let touching = [
        (
            Placed::at(&block, v(0.0, -0.5, 0.0), DQuat::IDENTITY),
            Placed::at(&cube, v(0.25, 0.5, -0.5), DQuat::IDENTITY),
        ),
        (
            Placed::at(&cube, v(0.0, -0.5, 0.0), DQuat::IDENTITY),
            Placed::at(&cube, v(0.0, 0.5, 0.0), DQuat::IDENTITY),
        ),
        (
            Placed::at(&block, v(0.0, -0.5, 0.0), DQuat::IDENTITY),
            Placed::at(&spike, v(0.5, 0.0, 0.0), DQuat::IDENTITY),
        ),
        (
            Placed::at(&block, v(0.0, -0.5, 0.0), DQuat::IDENTITY),
            Placed::at(&wedge, v(0.0, 1.0, 0.0), upside_down),
        ),
    ];
    for (i, (a, b)) in touching.iter().enumerate() {
        for (x, y) in [(a, b), (b, a)] {
            let found = with_pair(x, y, intersection_contours);
            assert!(found.contours.is_empty(), "case {i}: {found:#?}");
            assert!(regions(x, y).is_empty(), "case {i}");
        }
    }
}

/// A unit cube sunk 0.1 into a unit cube of the same footprint: their side
/// faces coincide, a tie the symbolic translation must break the same way
/// in every test. The intersection is still closed curves, all on the four
/// common side planes between y = −0.1 and y = 0. No vertex is strictly
/// inside the other body (each lies on the other's side face or edge), so
/// the region has depth 0.
#[test]
fn coincident_side_faces_still_give_closed_contours() {
    let cube = cuboid(1.0, 1.0, 1.0);
    let a = Placed::at(&cube, v(0.0, -0.5, 0.0), DQuat::IDENTITY);
    let b = Placed::at(&cube, v(0.0, 0.4, 0.0), DQuat::IDENTITY);
    for (x, y) in [(a, b), (b, a)] {
        let found = regions(&x, &y);
        assert!(!found.is_empty());
        for region in &found {
            for contour in &region.contours {
                assert!(contour.closed, "{contour:#?}");
                for p in &contour.points {
                    let q = p.position;
                    let on_side =
                        (q.x.abs() - 0.5).abs() < CLOSE || (q.z.abs() - 0.5).abs() < CLOSE;
                    assert!(on_side && q.y <= CLOSE && q.y >= -0.1 - CLOSE, "{p:?}");
                }
            }
            assert!(region.penetrating_a.is_empty() && region.penetrating_b.is_empty());
            assert_eq!(region.depth, 0.0);
        }
    }
}

/// A block with a step: the lower tread at y = 0 for x ≤ 0, the riser at
/// x = 0 up to the upper tread at y = 1 (an L-shaped prism, 2 deep).
fn step() -> TetMesh {
    let profile = [
        (-2.0, -1.0),
        (2.0, -1.0),
        (2.0, 1.0),
        (0.0, 1.0),
        (0.0, 0.0),
        (-2.0, 0.0),
    ]
    .map(|(x, y)| DVec2::new(x, y));
    Shape::from(Prism {
        profile: profile.to_vec(),
        depth: 2.0,
        kernel: Some(v(0.5, -0.5, 0.0)),
    })
    .build(FLAT)
    .unwrap()
}

/// A 1 × 0.8 × 1 box standing on the step's lower tread (x ∈ [−0.9, 0.1])
/// and pushed 0.1 into the riser. Its bottom touches the tread over
/// x ∈ [−0.9, 0]; its part beyond x = 0 is inside the step, bounded by the
/// rectangle where it crosses the riser (y ∈ [0, 0.8], z ∈ [−0.5, 0.5]),
/// whose lower side runs along the tread's edge, where the touching
/// square ends. So the two meet, and are one region: the touching pairs,
/// the contour, the box's four corners at x = 0.1 (0.1 from the riser, the
/// nearest surface) and depth −0.1.
#[test]
fn touching_and_penetrating_parts_that_meet_are_one_region() {
    let (step, block) = (step(), cuboid(1.0, 0.8, 1.0));
    let a = Placed::at(&step, DVec3::ZERO, DQuat::IDENTITY);
    let b = Placed::at(&block, v(-0.4, 0.4, 0.0), DQuat::IDENTITY);
    for (x, y, b_is_box) in [(a, b, true), (b, a, false)] {
        let joined = with_pair(&x, &y, |pair| contact_regions(pair, TOL)).regions;
        assert_eq!(joined.len(), 1, "{joined:#?}");
        let region = &joined[0];
        assert!(!region.touching.is_empty(), "{region:#?}");
        assert_eq!(region.contours.len(), 1, "{region:#?}");
        assert!(region.contours[0].closed);
        for p in &region.contours[0].points {
            assert!(p.position.x.abs() < CLOSE, "{p:?}");
        }
        let inside = if b_is_box {
            &region.penetrating_b
        } else {
            &region.penetrating_a
        };
        let corners: Vec<u32> = (0..block.vertices.len() as u32)
            .filter(|&i| block.vertices[i as usize].x == 0.5 && block.is_surface_vertex(i as usize))
            .collect();
        assert_eq!(inside, &corners);
        assert!((region.depth + 0.1).abs() < CLOSE, "{}", region.depth);
    }
}

/// The same box moved back to x ∈ [−1, 0]: it touches the tread and the
/// riser and crosses nothing; its regions are the touching ones alone.
#[test]
fn a_pair_that_only_touches_has_its_touching_regions() {
    let (step, block) = (step(), cuboid(1.0, 0.8, 1.0));
    let a = Placed::at(&step, DVec3::ZERO, DQuat::IDENTITY);
    let b = Placed::at(&block, v(-0.5, 0.4, 0.0), DQuat::IDENTITY);
    let joined = with_pair(&a, &b, |pair| contact_regions(pair, TOL)).regions;
    let touching = with_pair(&a, &b, |pair| touching_regions(pair, TOL)).regions;
    assert!(!joined.is_empty());
    assert_eq!(joined, touching);
}
