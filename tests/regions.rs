//! The touching part of the contact regions (issue 11, deliverable 2;
//! `docs/design/other-methods.md`, "Shared machinery: contact regions of two
//! surface meshes", step 4): at the touching pose of
//! every built-in scene the regions built from touching B-rep entity pairs
//! are the exact regions of `exact_regions` (same number per body pair,
//! same dimension, same convex hull up to the touching tolerance), with
//! both meshers; and hand-built pairs give the entity pairs Bouma & Vaněček's
//! intersection set names: face on face, an edge on a face, a vertex on a
//! face, two crossing edges, and the internal-edges block, whose internal
//! triangle edges and vertices must not appear.

mod common;

use contactlab::contact::regions::touching::{
    deep_crossings, touching_entity_contacts, touching_regions,
};
use contactlab::contact::regions::{ContactRegions, Entity, EntityContact};
use contactlab::contact::world_mesh::WorldMesh;
use contactlab::contact::{exact_contacts, BodyPair, PairSide, Region, RELATIVE_TOUCH_TOL};
use contactlab::mesh::shapes::{Cuboid, Shape};
use contactlab::mesh::{Mesher, TetMesh};
use contactlab::scene::builtin::{builtin_ids, load_builtin};
use contactlab::scene::perturb::SeededRng;
use contactlab::scene::{LoadOptions, Scene};
use glam::{DQuat, DVec2, DVec3};

/// A body at a pose, at rest.
struct Posed<'a> {
    world: WorldMesh<'a>,
    mesh: &'a TetMesh,
    position: DVec3,
    rotation: DQuat,
}

impl<'a> Posed<'a> {
    fn new(mesh: &'a TetMesh, position: DVec3, rotation: DQuat) -> Self {
        Posed {
            world: WorldMesh::new(mesh, position, rotation),
            mesh,
            position,
            rotation,
        }
    }

    fn side(&self) -> PairSide<'_> {
        PairSide {
            world: &self.world,
            brep: self.mesh.brep(),
            position: self.position,
            rotation: self.rotation,
            velocity: DVec3::ZERO,
            angular_velocity: DVec3::ZERO,
        }
    }
}

fn regions_of(a: &Posed, b: &Posed, tol: f64) -> ContactRegions {
    touching_regions(
        &BodyPair {
            a: a.side(),
            b: b.side(),
        },
        tol,
    )
}

fn contacts_of(a: &Posed, b: &Posed, tol: f64) -> Vec<EntityContact> {
    touching_entity_contacts(
        &BodyPair {
            a: a.side(),
            b: b.side(),
        },
        tol,
    )
}

/// Whether two hulls are the same point set up to `close`: as many points,
/// each near one of the other's.
fn same_hull(x: &[DVec3], y: &[DVec3], close: f64) -> bool {
    x.len() == y.len()
        && x.iter()
            .all(|p| y.iter().any(|q| (*p - *q).length() <= close))
        && y.iter()
            .all(|p| x.iter().any(|q| (*p - *q).length() <= close))
}

fn describe(r: &Region) -> String {
    format!("dimension {} hull {:?}", r.dimension, r.hull)
}

fn load(id: &str, mesher: Mesher) -> Scene {
    common::load_meshed_by(id, mesher)
}

fn check_scene(scene: &Scene, mesher: Mesher) {
    let id = &scene.id;
    let exact = exact_contacts(scene, RELATIVE_TOUCH_TOL);
    let posed: Vec<Posed> = scene
        .bodies
        .iter()
        .map(|b| Posed::new(&b.mesh, b.position, b.rotation))
        .collect();
    let mut pairs_with_regions = 0;
    for a in 0..posed.len() {
        for b in a + 1..posed.len() {
            if scene.bodies[a].fixed && scene.bodies[b].fixed {
                continue;
            }
            let label = format!(
                "{id} ({mesher}): {} — {}",
                scene.bodies[a].name, scene.bodies[b].name
            );
            let tol = RELATIVE_TOUCH_TOL
                * scene.bodies[a]
                    .mesh
                    .diagonal()
                    .max(scene.bodies[b].mesh.diagonal());
            let ours = regions_of(&posed[a], &posed[b], tol);
            let expected: &[Region] = exact
                .pairs
                .iter()
                .find(|p| (p.a, p.b) == (a, b))
                .map_or(&[], |p| &p.regions);
            assert_eq!(
                ours.regions.len(),
                expected.len(),
                "{label}: regions {:?} vs exact {:?}",
                ours.regions
                    .iter()
                    .map(|r| r.touching_hull(tol).map(|h| describe(&h)))
                    .collect::<Vec<_>>(),
                expected.iter().map(describe).collect::<Vec<_>>()
            );
            if !expected.is_empty() {
                pairs_with_regions += 1;
            }
            let hulls: Vec<Region> = ours
                .regions
                .iter()
                .map(|r| r.touching_hull(tol).expect("a touching region has a hull"))
                .collect();
            for e in expected {
                // Π lies midway between the surfaces, the exact pieces on
                // one of them: they agree to the touching tolerance.
                let found = hulls
                    .iter()
                    .any(|h| h.dimension == e.dimension && same_hull(&h.hull, &e.hull, 2.0 * tol));
                assert!(
                    found,
                    "{label}: exact region {} not among {:?}",
                    describe(e),
                    hulls.iter().map(describe).collect::<Vec<_>>()
                );
            }
            for region in &ours.regions {
                assert_eq!(region.depth, 0.0);
                assert!(region.contours.is_empty());
            }
        }
    }
    assert_eq!(pairs_with_regions, exact.pairs.len(), "{id} ({mesher})");
}

#[test]
fn at_the_touching_pose_of_every_scene_the_regions_are_the_exact_regions() {
    for id in builtin_ids() {
        for mesher in [Mesher::TetGen, Mesher::Cones] {
            check_scene(&load(id, mesher), mesher);
        }
    }
}

#[test]
fn the_regions_are_the_exact_regions_after_a_rigid_transform_and_a_scaling() {
    for id in builtin_ids() {
        let base = load(id, Mesher::TetGen);
        let mut rng = SeededRng::new(7);
        let mut moved = base.clone();
        moved.transform_rigid(rng.rotation(), rng.in_cube(20.0));
        check_scene(&moved, Mesher::TetGen);
        for factor in [0.01, 100.0] {
            let mut scaled = base.clone();
            scaled.scale(factor);
            check_scene(&scaled, Mesher::TetGen);
        }
    }
}

// Hand-built pairs. Boxes are built with the cone mesher (`Shape::build`),
// centred on their body origin.

const FLAT: f64 = 1e-6;
const TOL: f64 = 1e-6;

fn cube(size: f64) -> TetMesh {
    Shape::from(Cuboid {
        size: DVec3::splat(size),
    })
    .build(FLAT)
    .unwrap()
}

fn kinds(contacts: &[EntityContact]) -> Vec<(u8, u8, u8)> {
    let mut k: Vec<(u8, u8, u8)> = contacts
        .iter()
        .map(|c| (c.a.dimension(), c.b.dimension(), c.dimension()))
        .collect();
    k.sort_unstable();
    k
}

fn count(contacts: &[EntityContact], a: u8, b: u8) -> usize {
    contacts
        .iter()
        .filter(|c| c.a.dimension() == a && c.b.dimension() == b)
        .count()
}

#[test]
fn a_small_box_on_a_large_box_touches_face_on_face() {
    // A 1 m cube centred on a 2 m cube's top face: the overlap is the small
    // cube's bottom square; its four bottom edges lie on the large top face
    // (edge–face) and its four corners too (vertex–face).
    let (big, small) = (cube(2.0), cube(1.0));
    let a = Posed::new(&big, DVec3::ZERO, DQuat::IDENTITY);
    let b = Posed::new(&small, DVec3::new(0.0, 1.5, 0.0), DQuat::IDENTITY);
    let contacts = contacts_of(&a, &b, TOL);
    assert_eq!(count(&contacts, 2, 2), 1);
    assert_eq!(count(&contacts, 2, 1), 4);
    assert_eq!(count(&contacts, 2, 0), 4);
    assert_eq!(contacts.len(), 9, "{:?}", kinds(&contacts));
    let face = contacts.iter().find(|c| c.dimension() == 2).unwrap();
    assert_eq!(face.normal, Some(DVec3::Y));
    assert_eq!(face.points.len(), 4);
    for p in &face.points {
        assert!((p.x.abs() - 0.5).abs() < 1e-12 && (p.z.abs() - 0.5).abs() < 1e-12);
        assert!((p.y - 1.0).abs() < 1e-12);
    }
    // Each edge–face piece is a whole bottom edge of the small cube.
    for c in contacts.iter().filter(|c| c.dimension() == 1) {
        assert!(((c.points[0] - c.points[1]).length() - 1.0).abs() < 1e-12);
    }
    let regions = regions_of(&a, &b, TOL);
    assert_eq!(regions.regions.len(), 1);
    assert_eq!(regions.regions[0].touching.len(), 9);
    let hull = regions.regions[0].touching_hull(TOL).unwrap();
    assert_eq!((hull.dimension, hull.hull.len()), (2, 4));
    assert!((hull.area - 1.0).abs() < 1e-12);
}

#[test]
fn equal_boxes_stacked_touch_with_collinear_edges_and_corners() {
    // Two equal cubes, one on the other: face on face, their four bottom
    // and top edges collinear (edge–edge along a segment), their corners
    // on each other (vertex–vertex); nothing else.
    let c = cube(1.0);
    let a = Posed::new(&c, DVec3::ZERO, DQuat::IDENTITY);
    let b = Posed::new(&c, DVec3::Y, DQuat::IDENTITY);
    let contacts = contacts_of(&a, &b, TOL);
    assert_eq!(
        kinds(&contacts),
        [vec![(0, 0, 0); 4], vec![(1, 1, 1); 4], vec![(2, 2, 2)]].concat()
    );
    for e in contacts.iter().filter(|c| c.dimension() == 1) {
        assert!(((e.points[0] - e.points[1]).length() - 1.0).abs() < 1e-12);
    }
}

#[test]
fn a_box_on_its_edge_touches_along_a_segment() {
    // A cube turned 45° about z, its lowest edge on the ground's top face.
    let (ground, c) = (cube(4.0), cube(1.0));
    let a = Posed::new(&ground, DVec3::ZERO, DQuat::IDENTITY);
    let rotation = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4);
    let b = Posed::new(&c, DVec3::new(0.0, 2.0 + 0.5f64.sqrt(), 0.0), rotation);
    let contacts = contacts_of(&a, &b, 1e-9);
    // The edge on the face and its two end vertices on it.
    assert_eq!(kinds(&contacts), [(2, 0, 0), (2, 0, 0), (2, 1, 1)]);
    let edge = contacts.iter().find(|c| c.dimension() == 1).unwrap();
    let along = edge.points[1] - edge.points[0];
    assert!((along.abs() - DVec3::Z).length() < 1e-9, "{along}");
    let regions = regions_of(&a, &b, 1e-9);
    assert_eq!(regions.regions.len(), 1);
    let hull = regions.regions[0].touching_hull(1e-9).unwrap();
    assert_eq!((hull.dimension, hull.hull.len()), (1, 2));
}

#[test]
fn a_box_on_its_corner_touches_at_one_point() {
    // A cube with its main diagonal vertical: one corner on the ground.
    let (ground, c) = (cube(4.0), cube(1.0));
    let a = Posed::new(&ground, DVec3::ZERO, DQuat::IDENTITY);
    let rotation = DQuat::from_rotation_arc(DVec3::ONE.normalize(), -DVec3::Y);
    let b = Posed::new(&c, DVec3::new(0.3, 2.0 + 0.75f64.sqrt(), -0.2), rotation);
    let contacts = contacts_of(&a, &b, 1e-9);
    assert_eq!(kinds(&contacts), [(2, 0, 0)]);
    assert!((contacts[0].points[0] - DVec3::new(0.3, 2.0, -0.2)).length() < 1e-9);
}

#[test]
fn two_crossing_edges_touch_at_one_point() {
    // Two cubes on their edges, one upside down on the other, their edges
    // crossing at right angles at (0, 0, 0).
    let c = cube(1.0);
    let h = 0.5f64.sqrt();
    let a = Posed::new(
        &c,
        DVec3::new(0.0, -h, 0.0),
        DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4),
    );
    let b = Posed::new(
        &c,
        DVec3::new(0.0, h, 0.0),
        DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4),
    );
    let contacts = contacts_of(&a, &b, 1e-9);
    assert_eq!(kinds(&contacts), [(1, 1, 0)]);
    assert!(contacts[0].points[0].length() < 1e-9);
    let regions = regions_of(&a, &b, 1e-9);
    let hull = regions.regions[0].touching_hull(1e-9).unwrap();
    assert_eq!((hull.dimension, hull.hull.len()), (0, 1));
}

#[test]
fn separated_or_penetrating_beyond_the_tolerance_is_not_touching() {
    let c = cube(1.0);
    let a = Posed::new(&c, DVec3::ZERO, DQuat::IDENTITY);
    for gap in [2e-6, -2e-6] {
        let b = Posed::new(&c, DVec3::new(0.2, 1.0 + gap, 0.1), DQuat::IDENTITY);
        let contacts = contacts_of(&a, &b, 1e-6);
        // Separated: nothing; sunk: only the pairs of the sides' edges, which
        // cross the other's faces (the penetrating part's business), so no
        // face–face, edge–face or vertex–face pair.
        assert!(
            contacts
                .iter()
                .all(|c| c.a.dimension() + c.b.dimension() <= 2 && c.dimension() == 0),
            "gap {gap}: {:?}",
            kinds(&contacts)
        );
        if gap > 0.0 {
            assert!(contacts.is_empty(), "{:?}", kinds(&contacts));
        }
    }
    // Within the tolerance either way: face on face.
    for gap in [5e-7, -5e-7] {
        let b = Posed::new(&c, DVec3::new(0.2, 1.0 + gap, 0.1), DQuat::IDENTITY);
        assert_eq!(count(&contacts_of(&a, &b, 1e-6), 2, 2), 1, "gap {gap}");
    }
}

#[test]
fn the_internal_edges_block_touches_only_through_its_top_face() {
    // The scene's box sits on the ten-triangle top: two of its corners on
    // internal vertices, two on internal edges. None of those is a B-rep
    // entity: the block touches only with its top face.
    for mesher in [Mesher::TetGen, Mesher::Cones] {
        let scene = load_builtin(
            "internal-edges",
            &LoadOptions {
                mesher: Some(mesher),
                ..LoadOptions::default()
            },
        )
        .unwrap();
        let [block, boxed] = [0, 1].map(|i| {
            let b = &scene.bodies[i];
            Posed::new(&b.mesh, b.position, b.rotation)
        });
        let contacts = contacts_of(&block, &boxed, TOL);
        assert!(
            contacts.iter().all(|c| matches!(c.a, Entity::Face(_))),
            "{mesher}: {:?}",
            kinds(&contacts)
        );
        // Face on face, the box's four bottom edges and four corners on it.
        assert_eq!(
            kinds(&contacts),
            [vec![(2, 0, 0); 4], vec![(2, 1, 1); 4], vec![(2, 2, 2)]].concat(),
            "{mesher}"
        );
        let top = contacts.iter().find(|c| c.dimension() == 2).unwrap();
        let area = polygon_area(&top.points, top.normal.unwrap());
        assert!((area - 4.0).abs() < 1e-9, "{mesher}: {area}");
    }
}

fn polygon_area(points: &[DVec3], normal: DVec3) -> f64 {
    let plane = contactlab::geometry::PlaneFrame::new(points[0], normal);
    let flat: Vec<DVec2> = points.iter().map(|&p| plane.to_2d(p)).collect();
    contactlab::geometry::polygon_area_2d(&flat)
}

#[test]
fn swapping_the_bodies_swaps_the_entity_pairs() {
    let (ground, c) = (cube(4.0), cube(1.0));
    let a = Posed::new(&ground, DVec3::ZERO, DQuat::IDENTITY);
    let b = Posed::new(&c, DVec3::new(1.5, 2.5, 1.5), DQuat::from_rotation_y(0.3));
    let forward = contacts_of(&a, &b, TOL);
    let backward = contacts_of(&b, &a, TOL);
    assert_eq!(forward.len(), backward.len());
    for f in &forward {
        assert!(
            backward
                .iter()
                .any(|g| g.a == f.b && g.b == f.a && same_hull(&g.points, &f.points, 1e-12)),
            "{f:?}"
        );
    }
}

#[test]
fn a_box_sunk_beyond_the_tolerance_has_its_side_edges_crossing_the_top_face() {
    // The four vertical edges of the small cube cross the large cube's top
    // face; the stretch of each inside reaches 0.02 below it (the edge's
    // end). Nothing of the large cube crosses the small one's faces.
    let (big, small) = (cube(2.0), cube(1.0));
    let a = Posed::new(&big, DVec3::ZERO, DQuat::IDENTITY);
    let b = Posed::new(&small, DVec3::new(0.1, 1.48, 0.2), DQuat::IDENTITY);
    let pair = BodyPair {
        a: a.side(),
        b: b.side(),
    };
    let crossings = deep_crossings(&pair, TOL);
    assert_eq!(crossings.len(), 4, "{crossings:?}");
    for c in &crossings {
        assert!(c.face_of_a);
        assert_eq!(c.normal, DVec3::Y);
        assert!((c.depth - 0.02).abs() < 1e-12, "{}", c.depth);
    }
    // Within the tolerance: none.
    let touching = Posed::new(&small, DVec3::new(0.1, 1.5, 0.2), DQuat::IDENTITY);
    let pair = BodyPair {
        a: a.side(),
        b: touching.side(),
    };
    assert!(deep_crossings(&pair, TOL).is_empty());
}
