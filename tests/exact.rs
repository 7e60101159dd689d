//! The exact contact regions give the paper's ideal counts and areas (paper
//! sections 5 and 5.1, `docs/design/scenes.md`), and give them again after a
//! seeded random rigid transform of the whole scene and after scaling it by
//! 0.01 and 100: nothing may assume that y is up or a particular size.

use contactlab::contact::exact_regions::{exact_contacts, ExactContacts};
use contactlab::contact::FeatureKind;
use contactlab::contact::RELATIVE_TOUCH_TOL;
use contactlab::mesh::Mesher;
use contactlab::scene::builtin::load_builtin;
use contactlab::scene::perturb::SeededRng;
use contactlab::scene::{LoadOptions, Scene};

/// Both meshers of the built-in scenes: the exact regions (hulls, areas)
/// do not depend on the tetrahedra, the touching feature pairs depend on
/// the surface triangulation.
const MESHERS: [Mesher; 2] = [Mesher::TetGen, Mesher::Cones];

fn options(mesher: Mesher) -> LoadOptions {
    LoadOptions {
        mesher: Some(mesher),
        ..LoadOptions::default()
    }
}

struct Expected {
    id: &'static str,
    min_contacts: usize,
    area: f64,
    regions: usize,
    /// Unique touching feature pairs, counted by hand from the scene files
    /// and the box triangulation (`mesh/shapes/cuboid.rs`: every box face is split
    /// by its diagonal from the (−,−) to the (+,+) corner of the face's two
    /// coordinates); see each entry. On cone meshes.
    features: usize,
    /// The same on the committed TetGen meshes (`-pq2.0Y`), whose surface
    /// triangulation TetGen chose; see each entry.
    tetgen_features: usize,
}

impl Expected {
    fn features(&self, mesher: Mesher) -> usize {
        match mesher {
            Mesher::Cones => self.features,
            _ => self.tetgen_features,
        }
    }
}

/// The plinth's 0.5 m square on the ground plus six hexagonal joints of
/// circumradius r, each of area (3√3/2) r².
fn pillar_area() -> f64 {
    let radii = [
        0.25_f64,
        0.2,
        0.18333333333333333,
        0.16666666666666666,
        0.15,
        0.25,
    ];
    0.25 + 1.5 * 3f64.sqrt() * radii.iter().map(|r| r * r).sum::<f64>()
}

const EXPECTED: [Expected; 5] = [
    Expected {
        id: "pillar",
        min_contacts: 40,
        area: f64::NAN, // computed by pillar_area()
        regions: 7,
        // 4 under the plinth (2 plinth corners on the ground's diagonal,
        // 2 inside ground triangles; the diagonals are collinear), 9 at
        // each of the 2 hexagon-on-square joints, 7 (V,V) at each of the 4
        // hexagon-on-hexagon joints (rims and cap centre):
        // 4 + 2 × 9 + 4 × 7 (docs/results.md).
        features: 50,
        // TetGen triangulates the hexagonal caps without a centre vertex:
        // 6 (V,V) at each hexagon-on-hexagon joint, and 10 at each
        // hexagon-on-square joint (2 corners on the square's edges, 4
        // inside its triangles, 4 (E,E) crossings): 4 + 2 × 10 + 4 × 6.
        tetgen_features: 48,
    },
    Expected {
        id: "wall",
        min_contacts: 852,
        area: 37.59375,
        regions: 213,
        // 70 side joints of identical faces with collinear diagonals: 4 (V,V)
        // each = 280. 135 half overlaps between layers: the lower brick's 2
        // corners on the upper's rim edges (V,E), the upper's 2 on the
        // lower's (E,V), and each brick's rim edge across the other's
        // diagonal (2 (E,E); the two diagonals are parallel) = 6 each, 810.
        // 8 bricks on the ground: 4 corners inside ground triangles = 32;
        // the ground's diagonal x = z also crosses the middle brick's two
        // long rim edges and its diagonal = 3. 280 + 810 + 32 + 3 = 1125.
        features: 1125,
        tetgen_features: 1125,
    },
    Expected {
        id: "arch",
        min_contacts: 56,
        area: 14.0,
        regions: 14,
        // 2 piers on the ground: 4 corners inside ground triangles each = 8;
        // 4 pier joints and 2 pier–voussoir joints of identical rectangles
        // with collinear diagonals: 4 (V,V) each = 24; 6 voussoir joints,
        // whose prism sides use the rectangle's two different diagonals:
        // 4 (V,V) + 1 (E,E) each = 30. 8 + 24 + 30 = 62.
        features: 62,
        tetgen_features: 62,
    },
    Expected {
        id: "cliff-edges",
        min_contacts: 4,
        area: 10.24,
        regions: 1,
        // The box's bottom equals the frustum's top, diagonal (4–6) and all:
        // 4 (V,V).
        features: 4,
        tetgen_features: 4,
    },
    Expected {
        id: "internal-edges",
        min_contacts: 4,
        area: 4.0,
        regions: 1,
        // Box corners: 2 on block vertices 2 and 5 (V,V), 2 on block edges
        // 3–8 and 6–8 (E,V). (E,E): edge 1–8 (x = 0) crosses the box's rim
        // at z = ±1 and its diagonal; 2–8 crosses the rim z = −1 and the
        // diagonal; 5–8 crosses the rim z = −1. 2 + 2 + 3 + 2 + 1 = 10.
        features: 10,
        tetgen_features: 10,
    },
];

fn exact(scene: &Scene) -> ExactContacts {
    exact_contacts(scene, RELATIVE_TOUCH_TOL)
}

fn check(label: &str, scene: &Scene, e: &Expected, mesher: Mesher, area_scale: f64) {
    let result = exact(scene);
    let e_area = if e.id == "pillar" {
        pillar_area()
    } else {
        e.area
    };
    assert_eq!(
        result.min_contacts(),
        e.min_contacts,
        "{label}: minimal contacts"
    );
    assert_eq!(result.region_count(), e.regions, "{label}: regions");
    let area = e_area * area_scale;
    assert!(
        (result.total_area() - area).abs() <= 1e-9 * area,
        "{label}: area {} != {area}",
        result.total_area()
    );
    assert_eq!(
        result.max_feature_contacts(),
        e.features(mesher),
        "{label}: unique touching-feature contacts"
    );
}

#[test]
fn ideal_counts_and_areas_match_the_paper() {
    for mesher in MESHERS {
        for e in &EXPECTED {
            let scene = load_builtin(e.id, &options(mesher)).unwrap();
            check(&format!("{} on {mesher}", e.id), &scene, e, mesher, 1.0);
            assert_eq!(
                scene.oracle.min_contacts(),
                Some(e.min_contacts as u64),
                "{}: the oracle's count",
                e.id
            );
        }
    }
}

#[test]
fn pillar_feature_counts_are_48_on_tetgen_and_50_on_cones() {
    // The paper's figure 6 counts 49 on its TetGen meshes; ours differ by
    // one and by two (documented in docs/results.md). Guard the numbers we
    // publish; the default (the scene's mesher) is TetGen.
    let count = |options: &LoadOptions| {
        exact(&load_builtin("pillar", options).unwrap()).max_feature_contacts()
    };
    assert_eq!(count(&LoadOptions::default()), 48);
    assert_eq!(count(&options(Mesher::TetGen)), 48);
    assert_eq!(count(&options(Mesher::Cones)), 50);
}

#[test]
fn wall_and_arch_region_areas_have_the_known_plateaus() {
    let wall = load_builtin("wall", &LoadOptions::default()).unwrap();
    let mut areas: Vec<f64> = exact(&wall).pairs.iter().map(|p| p.area()).collect();
    areas.sort_by(f64::total_cmp);
    let count = |a: f64| areas.iter().filter(|&&x| (x - a).abs() < 1e-12).count();
    assert_eq!((count(0.15625), count(0.2), count(0.3125)), (135, 70, 8));
    let arch = load_builtin("arch", &LoadOptions::default()).unwrap();
    assert!(exact(&arch)
        .pairs
        .iter()
        .all(|p| (p.area() - 1.0).abs() < 1e-12));
}

#[test]
fn internal_edges_has_two_vertex_vertex_and_two_vertex_edge_pairs() {
    let scene = load_builtin("internal-edges", &LoadOptions::default()).unwrap();
    let result = exact(&scene);
    assert_eq!(result.pairs.len(), 1);
    let pair = &result.pairs[0];
    assert_eq!(pair.count_features(FeatureKind::VertexVertex), 2);
    assert_eq!(
        pair.count_features(FeatureKind::VertexEdge) + pair.count_features(FeatureKind::EdgeVertex),
        2
    );
    // All four lie inside the contact region (the box's bottom square).
    let corners: Vec<_> = pair
        .features
        .iter()
        .filter(|f| {
            matches!(
                f.kind,
                FeatureKind::VertexVertex | FeatureKind::VertexEdge | FeatureKind::EdgeVertex
            )
        })
        .collect();
    for f in corners {
        assert!(
            (f.point.y - 1.0).abs() < 1e-9
                && f.point.x.abs() <= 1.0 + 1e-9
                && f.point.z.abs() <= 1.0 + 1e-9,
            "{:?}",
            f
        );
    }
}

#[test]
fn point_and_line_contacts_of_the_fundamental_cases() {
    // (scene, hull vertices, region dimension)
    for (id, hull, dimension) in [
        ("spikes", 1, 0),
        ("spike-wedge", 1, 0),
        ("wedges", 2, 1),
        ("sliding-spike", 1, 0),
        ("sliding-wedge", 2, 1),
        ("spike-in-hole", 1, 0),
        ("spike-in-crack", 1, 0),
        ("wedge-in-crack", 2, 1),
    ] {
        let scene = load_builtin(id, &LoadOptions::default()).unwrap();
        let result = exact(&scene);
        assert_eq!(result.region_count(), 1, "{id}");
        let region = &result.pairs[0].regions[0];
        assert_eq!(
            (region.hull.len(), region.dimension),
            (hull, dimension),
            "{id}"
        );
    }
}

#[test]
fn same_numbers_after_random_rigid_transforms() {
    for (e, mesher) in EXPECTED.iter().flat_map(|e| MESHERS.map(|m| (e, m))) {
        let base = load_builtin(e.id, &options(mesher)).unwrap();
        for seed in [1_u64, 2, 3] {
            let mut rng = SeededRng::new(seed);
            let mut scene = base.clone();
            let (rotation, translation) = (rng.rotation(), rng.in_cube(10.0));
            scene.transform_rigid(rotation, translation);
            assert!((scene.gravity - rotation * base.gravity).length() < 1e-12);
            let label = format!("{} on {mesher} rotated (seed {seed})", e.id);
            check(&label, &scene, e, mesher, 1.0);
        }
    }
}

#[test]
fn same_numbers_after_scaling() {
    for (e, mesher) in EXPECTED.iter().flat_map(|e| MESHERS.map(|m| (e, m))) {
        let base = load_builtin(e.id, &options(mesher)).unwrap();
        for factor in [0.01, 100.0] {
            let mut scene = base.clone();
            scene.scale(factor);
            check(
                &format!("{} on {mesher} scaled by {factor}", e.id),
                &scene,
                e,
                mesher,
                factor * factor,
            );
        }
    }
}

#[test]
fn a_perturbed_pillar_keeps_its_areas_but_loses_vertex_vertex_contacts() {
    // A horizontal shift of 1 cm breaks the coincident rims (paper section
    // 8.5): the (V,V) pairs vanish while every joint still touches.
    // The coincident rims give 28 (V,V) pairs on cones (six rims and the
    // cap centre at four joints) and 24 on TetGen (no centre vertex).
    for (mesher, rims) in [(Mesher::TetGen, 24), (Mesher::Cones, 28)] {
        let base = exact(&load_builtin("pillar", &options(mesher)).unwrap());
        let moved = exact(
            &load_builtin(
                "pillar",
                &LoadOptions {
                    perturb: 0.01,
                    seed: 3,
                    ..options(mesher)
                },
            )
            .unwrap(),
        );
        let vv = |r: &ExactContacts| {
            r.pairs
                .iter()
                .map(|p| p.count_features(FeatureKind::VertexVertex))
                .sum::<usize>()
        };
        assert_eq!(vv(&base), rims, "{mesher}");
        assert_eq!(vv(&moved), 0, "{mesher}");
        assert_eq!(moved.pairs.len(), 7, "{mesher}");
        assert!(moved.total_area() < base.total_area(), "{mesher}");
    }
}
