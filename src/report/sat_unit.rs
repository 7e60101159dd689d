//! The unit test of Cheng Yi & Drumwright (§V-A, table I) as a
//! table: two randomly posed 2 × 2 × 2 boxes, the signed distance each
//! algorithm gives (negative when they overlap) against the distance of the
//! origin to their explicitly built Minkowski difference A − B, and the
//! minimum, maximum, mean and standard deviation of the error over the
//! poses, beside the published ones (`docs/design/other-methods.md`,
//! "SAT-MTD contact manifold for convex bodies").
//!
//! **The reference.** The bodies are disjoint exactly when the origin lies
//! outside A − B, and then their distance is the origin's Euclidean distance
//! to that polytope; when they overlap, the minimum translational distance is
//! the origin's distance to its boundary. A − B is built explicitly as the
//! convex hull of all 64 differences of corners, by brute force and without
//! any knowledge of where its facets come from: every plane through three of
//! the points that has all 64 on one side is a facet plane, and the points on
//! it (their convex hull in the plane) are the facet. Inside, the distance is
//! the smallest offset of a facet plane; outside, the smallest distance to a
//! facet polygon (not the largest plane distance, which is smaller where the
//! nearest point of A − B is on an edge or corner). Cheng Yi & Drumwright
//! took "the minimum distance from the origin to one of the faces" on both
//! sides; outside that would count against SAT-MTD the gap between a plane
//! and the polytope.
//!
//! **The algorithms** are a list ([`ESTIMATORS`]), one row each; adding one
//! (parry's GJK/EPA) is one entry with the published row it sits beside.

use super::text_table::{Progress, Table};
use crate::contact::world_mesh::WorldMesh;
use crate::contact::{sat_signed_distance, BodyPair, MethodParams, PairSide};
use crate::geometry::{closest_point_on_segment, convex_hull_2d, PlaneFrame};
use crate::mesh::shapes::{Cuboid, Shape};
use crate::scene::perturb::SeededRng;
use glam::{DVec2, DVec3};

/// Poses of `contactlab table sat-unit` unless `--poses` says otherwise.
pub const DEFAULT_POSES: usize = 1000;
/// Seed of `contactlab table sat-unit` unless `--seed` says otherwise.
pub const DEFAULT_SEED: u64 = 2;

/// Edge length of Cheng Yi & Drumwright's boxes, metres.
const BOX_SIDE: f64 = 2.0;
/// Box centres are drawn in the cube [−h, h]³ with this h: centres up to
/// 2√3 h ≈ 6.9 m apart, against 2 m (touching face to face) to 3.5 m
/// (corner to corner), so poses overlap and miss in about equal numbers
/// (541 and 459 of the default 1000).
const PLACEMENT_HALF: f64 = 2.0;
/// Relative round-off allowance for "all points on one side" of a
/// candidate facet plane and "on the plane" for its points: a few hundred
/// ulps of the polytope's size, far below any real distance between two of
/// its vertices and the plane.
const HULL_RELATIVE_TOL: f64 = 1e-12;

/// One algorithm of the table: how it gives the signed distance of two
/// bodies, and Cheng Yi & Drumwright's row for the same kind of algorithm.
pub struct DistanceEstimator {
    pub name: &'static str,
    /// The row of Cheng Yi & Drumwright's table I it sits beside: its label
    /// and min, max, mean and standard deviation of the error.
    pub published_label: &'static str,
    pub published_errors: [f64; 4],
    /// Signed distance (negative: overlapping) of the pair, `None` if the
    /// algorithm cannot judge it.
    pub signed_distance: fn(&BodyPair, &MethodParams) -> Option<f64>,
}

fn sat_mtd_distance(pair: &BodyPair, params: &MethodParams) -> Option<f64> {
    sat_signed_distance(pair, params).map(|d| d.distance)
}

/// Cheng Yi & Drumwright's table I, in its order: label, min, max, mean,
/// standard deviation of the error.
pub const PUBLISHED_TABLE_I: [(&str, [f64; 4]); 2] = [
    ("GJK+EPA (libccd)", [2.693e-6, 0.608937, 0.0518467, 0.1311]),
    ("SAT (Moby)", [0.0, 2.66454e-15, 3.353e-16, 4.413e-16]),
];

/// parry3d's GJK (apart) and EPA (overlapping) on the two bodies' surface
/// points as convex hulls, at their poses.
#[cfg(feature = "parry")]
fn gjk_epa_distance(pair: &BodyPair, _params: &MethodParams) -> Option<f64> {
    use crate::contact::methods::{gjk_epa_signed_distance, PosedHull};
    fn hull<'a>(side: &PairSide<'a>) -> PosedHull<'a> {
        PosedHull {
            points: &side.world.mesh.vertices,
            position: side.position,
            rotation: side.rotation,
        }
    }
    gjk_epa_signed_distance(hull(&pair.a), hull(&pair.b))
}

/// The algorithms of the table, one row each.
pub const ESTIMATORS: &[DistanceEstimator] = &[
    DistanceEstimator {
        name: "SAT-MTD (ours: SAT when overlapping, closest features when disjoint)",
        published_label: PUBLISHED_TABLE_I[1].0,
        published_errors: PUBLISHED_TABLE_I[1].1,
        signed_distance: sat_mtd_distance,
    },
    #[cfg(feature = "parry")]
    DistanceEstimator {
        name: "GJK/EPA (parry3d-f64, what Rapier uses)",
        published_label: PUBLISHED_TABLE_I[0].0,
        published_errors: PUBLISHED_TABLE_I[0].1,
        signed_distance: gjk_epa_distance,
    },
];

/// The errors of one algorithm over the poses.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorStats {
    pub name: &'static str,
    /// Poses the algorithm judged.
    pub poses: usize,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    /// Population standard deviation.
    pub std: f64,
    /// Largest error where the boxes overlap, and where they are disjoint.
    pub max_overlapping: f64,
    pub max_disjoint: f64,
}

/// The errors of every algorithm of [`ESTIMATORS`] over `poses` seeded
/// poses, and how many of the poses overlap.
pub fn sat_unit_errors(poses: usize, seed: u64, progress: Progress) -> (Vec<ErrorStats>, usize) {
    let mesh = Shape::from(Cuboid {
        size: DVec3::splat(BOX_SIDE),
    })
    .build(crate::scene::parse::FLAT_ANGLE)
    .expect("a box meshes");
    let mut rng = SeededRng::new(seed);
    let params = MethodParams::default();
    let mut errors: Vec<Vec<(f64, bool)>> = vec![Vec::new(); ESTIMATORS.len()];
    let mut overlapping = 0;
    for i in 0..poses {
        if i % 100 == 0 {
            progress("poses", i, poses);
        }
        let pose = |rng: &mut SeededRng| (rng.in_cube(PLACEMENT_HALF), rng.rotation());
        let (pa, qa) = pose(&mut rng);
        let (pb, qb) = pose(&mut rng);
        let (wa, wb) = (WorldMesh::new(&mesh, pa, qa), WorldMesh::new(&mesh, pb, qb));
        let reference = minkowski_signed_distance(&corners(&wa), &corners(&wb));
        let inside = reference < 0.0;
        overlapping += usize::from(inside);
        let pair = BodyPair {
            a: at_rest(&wa, mesh.brep()),
            b: at_rest(&wb, mesh.brep()),
        };
        for (estimator, errors) in ESTIMATORS.iter().zip(&mut errors) {
            if let Some(d) = (estimator.signed_distance)(&pair, &params) {
                errors.push(((d - reference).abs(), inside));
            }
        }
    }
    progress("poses", poses, poses);
    let stats = ESTIMATORS
        .iter()
        .zip(errors)
        .map(|(estimator, errors)| {
            let n = errors.len().max(1) as f64;
            let mean = errors.iter().map(|e| e.0).sum::<f64>() / n;
            let variance = errors.iter().map(|e| (e.0 - mean).powi(2)).sum::<f64>() / n;
            let max_where = |inside: bool| {
                errors
                    .iter()
                    .filter(|e| e.1 == inside)
                    .map(|e| e.0)
                    .fold(0.0, f64::max)
            };
            ErrorStats {
                name: estimator.name,
                poses: errors.len(),
                min: errors.iter().map(|e| e.0).fold(f64::INFINITY, f64::min),
                max: errors.iter().map(|e| e.0).fold(0.0, f64::max),
                mean,
                std: variance.sqrt(),
                max_overlapping: max_where(true),
                max_disjoint: max_where(false),
            }
        })
        .collect();
    (stats, overlapping)
}

/// `contactlab table sat-unit`.
pub fn sat_unit_table(poses: usize, seed: u64, progress: Progress) -> Table {
    let (stats, overlapping) = sat_unit_errors(poses, seed, progress);
    let e = |x: f64| format!("{x:.3e}");
    let rows = stats
        .iter()
        .zip(ESTIMATORS)
        .map(|(s, estimator)| {
            let mut row = vec![
                s.name.to_string(),
                s.poses.to_string(),
                e(s.min),
                e(s.max),
                e(s.mean),
                e(s.std),
                e(s.max_overlapping),
                e(s.max_disjoint),
                estimator.published_label.to_string(),
            ];
            row.extend(estimator.published_errors.iter().map(|&x| e(x)));
            row
        })
        .collect();
    let published_rows: Vec<String> = PUBLISHED_TABLE_I
        .iter()
        .map(|(label, [min, max, mean, std])| {
            format!("{label}: min {min:e}, max {max:e}, mean {mean:e}, SD {std:e}")
        })
        .collect();
    Table {
        title: format!("Unit test (Cheng Yi & Drumwright, table I): error in signed distance on two 2 × 2 × 2 boxes, {poses} poses, seed {seed}"),
        notes: vec![
            format!("{overlapping} of the {poses} poses overlap, {} are disjoint (box centres uniform in [−{PLACEMENT_HALF}, {PLACEMENT_HALF}]³ m, uniform rotations). Error: |signed distance − the origin's signed distance to the Minkowski difference built as the convex hull of the 64 corner differences| in metres (outside: the Euclidean distance to the polytope). Mean and SD over all poses, SD of the population.", poses - overlapping),
            format!("Cheng Yi & Drumwright's table I: {}.", published_rows.join("; ")),
        ],
        headers: [
            "algorithm",
            "poses",
            "min error",
            "max error",
            "mean error",
            "error SD",
            "max overlapping",
            "max disjoint",
            "their algorithm",
            "their min",
            "their max",
            "their mean",
            "their SD",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

/// A body at rest at the pose of `world`.
fn at_rest<'a>(world: &'a WorldMesh<'a>, brep: &'a crate::mesh::Brep) -> PairSide<'a> {
    PairSide {
        world,
        brep,
        position: world.position,
        rotation: world.rotation,
        velocity: DVec3::ZERO,
        angular_velocity: DVec3::ZERO,
    }
}

/// The corners of a box at its pose (its B-rep vertices).
fn corners(world: &WorldMesh) -> Vec<DVec3> {
    world
        .mesh
        .brep()
        .vertices
        .iter()
        .map(|v| world.vertices[v.mesh_vertex as usize])
        .collect()
}

/// The signed distance of the origin to the Minkowski difference of the
/// convex hulls of `a` and `b` (negative inside), from its explicit hull.
pub fn minkowski_signed_distance(a: &[DVec3], b: &[DVec3]) -> f64 {
    let mut points: Vec<DVec3> = a
        .iter()
        .flat_map(|&p| b.iter().map(move |&q| p - q))
        .collect();
    points.sort_by(|x, y| {
        x.x.total_cmp(&y.x)
            .then(x.y.total_cmp(&y.y))
            .then(x.z.total_cmp(&y.z))
    });
    points.dedup();
    let facets = hull_facets(&points);
    let inside_depth = facets
        .iter()
        .map(|f| f.offset)
        .fold(f64::INFINITY, f64::min);
    if inside_depth >= 0.0 {
        return -inside_depth;
    }
    facets
        .iter()
        .map(|f| distance_to_polygon(DVec3::ZERO, f))
        .fold(f64::INFINITY, f64::min)
}

/// A facet of the hull: its plane `normal · x = offset` (outward unit
/// normal) and its corners in the plane, counter-clockwise.
struct Facet {
    normal: DVec3,
    offset: f64,
    frame: PlaneFrame,
    polygon: Vec<DVec2>,
}

/// Every facet plane of the convex hull of `points` (brute force over
/// triples), each once, with its polygon.
fn hull_facets(points: &[DVec3]) -> Vec<Facet> {
    let size = points
        .iter()
        .map(|p| p.abs().max_element())
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let tol = HULL_RELATIVE_TOL * size;
    let mut facets: Vec<Facet> = Vec::new();
    let n = points.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let cross = (points[j] - points[i]).cross(points[k] - points[i]);
                // A nearly collinear triple gives no reliable plane; the
                // facet it lies on has better-shaped triples.
                if cross.length() <= tol * size {
                    continue;
                }
                let mut normal = cross.normalize();
                let mut offset = normal.dot(points[i]);
                let (mut above, mut below) = (false, false);
                for p in points {
                    let s = normal.dot(*p) - offset;
                    above |= s > tol;
                    below |= s < -tol;
                    if above && below {
                        break;
                    }
                }
                if above && below {
                    continue;
                }
                if above {
                    normal = -normal;
                    offset = -offset;
                }
                let known = facets.iter().any(|f| {
                    (f.normal - normal).length() <= tol && (f.offset - offset).abs() <= tol
                });
                if known {
                    continue;
                }
                let frame = PlaneFrame::new(normal * offset, normal);
                let on_plane: Vec<DVec2> = points
                    .iter()
                    .filter(|p| (normal.dot(**p) - offset).abs() <= tol)
                    .map(|&p| frame.to_2d(p))
                    .collect();
                facets.push(Facet {
                    normal,
                    offset,
                    frame,
                    polygon: convex_hull_2d(&on_plane, 0.0),
                });
            }
        }
    }
    facets
}

/// Distance of `p` to a facet polygon.
fn distance_to_polygon(p: DVec3, facet: &Facet) -> f64 {
    let q = facet.frame.to_2d(p);
    let height = (facet.normal.dot(p) - facet.offset).abs();
    let poly = &facet.polygon;
    let m = poly.len();
    let inside =
        m >= 3 && (0..m).all(|i| (poly[(i + 1) % m] - poly[i]).perp_dot(q - poly[i]) >= 0.0);
    if inside {
        return height;
    }
    let flat = |v: DVec2| DVec3::new(v.x, v.y, 0.0);
    let in_plane = (0..m)
        .map(|i| {
            let (c, _) = closest_point_on_segment(flat(q), flat(poly[i]), flat(poly[(i + 1) % m]));
            (c.truncate() - q).length()
        })
        .fold(f64::INFINITY, f64::min);
    in_plane.hypot(height)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(centre: DVec3) -> Vec<DVec3> {
        let mut out = Vec::new();
        for x in [-1.0, 1.0] {
            for y in [-1.0, 1.0] {
                for z in [-1.0, 1.0] {
                    out.push(centre + DVec3::new(x, y, z));
                }
            }
        }
        out
    }

    #[test]
    fn the_reference_is_euclidean_outside_and_the_depth_inside() {
        let a = cube(DVec3::ZERO);
        // Face to face, 1 m apart.
        let d = minkowski_signed_distance(&a, &cube(DVec3::new(3.0, 0.0, 0.0)));
        assert!((d - 1.0).abs() < 1e-12, "{d}");
        // Corner to corner along the diagonal, 0.5 m apart per axis: the
        // Euclidean distance is 0.5 √3, not the plane distance 0.5.
        let d = minkowski_signed_distance(&a, &cube(DVec3::splat(2.5)));
        assert!((d - 0.5 * 3f64.sqrt()).abs() < 1e-12, "{d}");
        // Edge to edge: 0.5 in x and y.
        let d = minkowski_signed_distance(&a, &cube(DVec3::new(2.5, 2.5, 0.0)));
        assert!((d - 0.5 * 2f64.sqrt()).abs() < 1e-12, "{d}");
        // Overlapping by 0.25 in y (more in x and z).
        let d = minkowski_signed_distance(&a, &cube(DVec3::new(0.5, 1.75, -0.3)));
        assert!((d + 0.25).abs() < 1e-12, "{d}");
    }
}
