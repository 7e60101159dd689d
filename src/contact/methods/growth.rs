//! Growth distance (paper section 6, appendix B, algorithm 2; Ong and
//! Gilbert's growth distance): shrink both tetrahedra about their centroids
//! until they are apart, grow them back until their closest points are δ
//! apart (δ = 1/100 of the smaller diameter), and take the normal of the
//! feature the separation direction points at: on A in direction s, on B in
//! direction −s, the higher-dimensional feature winning (face > edge >
//! vertex). The contacts are the intersection points of the full-size
//! tetrahedra, with their extent along the normal as depth.
//!
//! Derivation of the growth loop (paper eqs. 16–19). With c_A, c_B the
//! centroids and v = c_A − c_B, the scaled difference is
//!     A(α) ⊖ B(α) = α (A ⊖ B) + (1 − α) v = α (A ⊖ B − τ v),  τ = 1 − 1/α,
//! so g(α) = α · dist(τ v, A ⊖ B): growing α from 0 to 1 moves the point
//! r = τ v along a ray from −∞·v to the origin. If q is the point of A ⊖ B
//! closest to r, the scaled closest points satisfy p_A − p_B = α (q − r).
//! Conservative advancement steps the ray by the gap's component along it,
//!     Δτ = β (q − r)·v / |v|² = −β (s · v) / (α |v|²),  s = p_B − p_A,
//! which never passes the surface of the convex set A ⊖ B. The paper's
//! algorithm 2 prints this step with the opposite sign and without 1/α
//! (line 9), and inverts τ as α = 1 − 1/τ (line 10); the consistent inverse
//! is α = 1 / (1 − τ). We follow the derivation. The loop is capped at
//! `MethodParams::growth_iterations` steps and the shrinking at 200 (α =
//! 0.9²⁰⁰ ≈ 7e−10): a pair that does not converge in time keeps the last
//! separation direction.
//!
//! `growth@paper-code` follows the paper's reference code
//! (`docs/design/reference-code.md`, "The variants"; `docs/errata.md`,
//! "Growth"): the pair is gated, and the shrinking ended, by the code's
//! overlap test (`code_arithmetic::code_overlaps`); the closest points are
//! taken at the last scale the shrinking tested, while the growing scale
//! starts one shrink step (0.9 ×) below it; the stopping distance is
//! δ = 2 min(d₀, 0.01 · size), d₀ that first closest distance and size the
//! smaller tetrahedron's twice largest corner distance from its centroid
//! (so a first distance under 1 % stops the loop before its first step);
//! each step *sets* the scale to 1 − s·dc/‖dc‖² (dc = c_B − c_A, s the
//! separation at the current scale) and the loop ends when that would not
//! grow the scale, or after 20 steps. The feature in a direction comes from
//! a Gauss map of the full-size tetrahedron over all four faces (not only
//! surface faces) whose face cones are widened by 4°, the first face in
//! face order whose cone holds the direction being taken; an edge or
//! vertex feature's normal is the search direction itself; the feature
//! with more points (face 3, edge 2, vertex 1) gives the normal, A's on a
//! tie. The contacts are the code's intersection points of the full-size
//! tetrahedra, merged as found (`code_arithmetic::merge_with_kept`) and
//! not projected onto a plane, with their extent along the normal as
//! depth. Our first variants divided the scale by the factor, read d₀ as
//! the centroid distance, took the best-aligned face in the cones and
//! kept every point.

use super::{Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact, Rules};
use crate::contact::code_arithmetic::{code_intersection_points, code_overlaps, merge_with_kept};
use crate::contact::features::features_from_dimensions;
use crate::contact::tet_geometry::{
    closest_points, intersection_points, overlaps, TetShape, CANCELLED_UNIT_SUM, COS_TIE,
};
use crate::contact::world_mesh::Tet;
use crate::mesh::tetmesh::TET_FACES;
use glam::DVec3;

pub struct Growth;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "growth",
    name: "Growth",
    source: help_text!("Erleben 2018, section 6, section 7.5 and appendix B (algorithm 2)"),
    summary: "Shrinks the tetrahedra apart, grows them back until nearly touching, and takes the normal of the nearest feature.",
    help: help_text!("Shrinks the two tetrahedra until they separate, then grows them back until they almost touch, and takes the normal of the features that touch first (a face beats an edge beats a vertex). It is a discrete imitation of continuous collision detection and is sensitive to the time step."),
    reads: &[],
    algorithm: Algorithm::TetPair(&Growth),
    paper_code: Some(&PAPER_CODE),
};

pub struct GrowthPaperCode;

/// The variant following the paper's reference code (module doc).
pub static PAPER_CODE: MethodInfo = MethodInfo {
    id: "growth@paper-code",
    name: "Growth (paper's code)",
    source: help_text!("Erleben 2018's reference code, as docs/design/reference-code.md describes it (not appendix B as printed)"),
    summary: "Growth as the paper's code runs it: the first face within 4° of the search direction gives its normal, anything else the direction itself.",
    help: help_text!("What the paper's reference code does instead of algorithm 2's BestNormal: the feature in the search direction is found on a Gauss map of all four faces of the tetrahedron (interior faces too) whose face cones are widened by 4°, and the first face in face order whose cone holds the direction is taken, not the best aligned; an edge or vertex gives the search direction itself as the normal; the feature with more points gives the normal and, on a tie, A's wins. The growing starts one shrink step (0.9 ×) below the last scale the shrinking tested, sets the scale to the factor 1 − s·dc/‖dc‖² at each step, stops at δ = 2 min(first gap, 1 % of the smaller tetrahedron's size), and runs at most 20 times; the contacts are the intersection points, merged when they coincide and not projected onto a plane. Exact comparisons and the code's sort-then-neighbours post-filter. Not symmetric in the two bodies."),
    reads: &[],
    algorithm: Algorithm::TetPair(&GrowthPaperCode),
    paper_code: None,
};

/// The paper's damping factor β for both the shrinking and the growing.
const BETA: f64 = 0.9;
const MAX_SHRINK_STEPS: usize = 200;

/// BestNormal of algorithm 2: the feature of `tet` whose normal cone holds
/// `direction` (the support feature in that direction, with ties within
/// `tol` making it an edge or a face), its dimension and its normal. The
/// normal of an edge or vertex is the normalised sum of its incident
/// surface face normals; when none of its incident faces is on the body's
/// surface, of all its incident face normals.
fn best_normal(tet: &Tet, shape: &TetShape, direction: DVec3, tol: f64) -> (u8, DVec3) {
    let d = direction.normalize_or_zero();
    let heights = shape.corners.map(|p| p.dot(d));
    let top = heights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let support: Vec<usize> = (0..4).filter(|&i| heights[i] >= top - tol).collect();
    if support.len() >= 3 {
        // A face: the one opposite the corner not in the support set (or,
        // for a flat tetrahedron, the face whose normal is closest to d).
        let face = (0..4)
            .filter(|f| !support.contains(f) || support.len() == 4)
            .max_by(|&f, &g| shape.normals[f].dot(d).total_cmp(&shape.normals[g].dot(d)))
            .unwrap_or(0);
        return (2, shape.normals[face].try_normalize().unwrap_or(d));
    }
    // Faces incident to the support feature: those that contain all of its
    // corners, i.e. the faces opposite the corners outside it.
    let incident: Vec<usize> = (0..4)
        .filter(|f| TET_FACES[*f].iter().filter(|c| support.contains(c)).count() == support.len())
        .collect();
    let surface: Vec<usize> = incident
        .iter()
        .copied()
        .filter(|&f| tet.surface_face(f).is_some())
        .collect();
    let chosen = if surface.is_empty() {
        &incident
    } else {
        &surface
    };
    let normal = chosen
        .iter()
        .map(|&f| shape.normals[f])
        .sum::<DVec3>()
        .try_normalize()
        .unwrap_or(d);
    ((support.len() - 1) as u8, normal)
}

impl ContactMethod for Growth {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        if !overlaps(&sa, &sb, params.touch_tol, params.parallel_sin) {
            return;
        }
        let (ca, cb) = (sa.centroid(), sb.centroid());
        let v = ca - cb;
        if v.length() <= params.touch_tol {
            return; // coincident centroids: growth has no direction
        }
        let delta = 0.01 * a.diameter().min(b.diameter());
        let scaled = |alpha: f64| (sa.scaled(alpha, ca), sb.scaled(alpha, cb));

        // Lines 1–4: shrink until apart. Touching within the tolerance counts
        // as overlapping: otherwise exactly touching tetrahedra would be
        // "apart" or not by round-off, and when not shrunk their separation
        // vector is round-off too.
        let Some(mut alpha) = shrink_apart(scaled, params) else {
            return;
        };
        // Lines 5–13: grow back along the ray until δ apart.
        let (xa, xb) = scaled(alpha);
        let (mut pa, mut pb, _) = closest_points(&xa, &xb);
        let mut tau = 1.0 - 1.0 / alpha;
        for _ in 0..params.growth_iterations {
            let s = pb - pa;
            if s.length() <= delta {
                break;
            }
            let step = -BETA * s.dot(v) / (alpha * v.length_squared());
            if step <= 0.0 {
                break; // no progress along the ray is possible
            }
            tau = (tau + step).min(0.0);
            alpha = 1.0 / (1.0 - tau);
            let (xa, xb) = scaled(alpha);
            (pa, pb, _) = closest_points(&xa, &xb);
        }
        let s = pb - pa;
        if s.length() == 0.0 {
            return;
        }
        // Lines 14–16, with the normals oriented from A to B.
        let (xa, xb) = scaled(alpha);
        let feature_tol = params.parallel_sin * a.diameter().max(b.diameter()) + params.touch_tol;
        let (dim_a, n_a) = best_normal(a, &xa, s, feature_tol);
        let (dim_b, n_b) = best_normal(b, &xb, -s, feature_tol);
        // Line 16 returns B's normal whenever the dimensions tie, which
        // would make the result depend on which body is called A; we take
        // the normal better aligned with the separation direction instead
        // (the two agree when one feature is a face and the other is not).
        let direction = s.normalize();
        let normal = match dim_a.cmp(&dim_b) {
            std::cmp::Ordering::Greater => n_a,
            std::cmp::Ordering::Less => -n_b,
            std::cmp::Ordering::Equal => {
                let (along_a, along_b) = (n_a.dot(direction), (-n_b).dot(direction));
                if (along_a - along_b).abs() <= COS_TIE {
                    // Equally good and opposite (a vertex normal of each that
                    // cancel): fall back to the growth ray, from A's centroid
                    // to B's. The separation direction itself would depend on
                    // the iterate the loop stopped at.
                    {
                        let mean = n_a - n_b;
                        // Cancelling to round-off leaves a tiny vector of
                        // arbitrary direction: not a mean at all.
                        if mean.length() > CANCELLED_UNIT_SUM {
                            mean.normalize()
                        } else {
                            -v.normalize()
                        }
                    }
                } else if along_a > along_b {
                    n_a
                } else {
                    -n_b
                }
            }
        };
        contacts_of(&sa, &sb, normal, (dim_a, dim_b), params.touch_tol, out);
    }
}

/// Lines 1–4 of algorithm 2: the scale α = 0.9ᵏ at which the tetrahedra
/// `scaled(α)` stop overlapping (within the touching tolerance), or `None`
/// after [`MAX_SHRINK_STEPS`] shrinks.
fn shrink_apart(
    scaled: impl Fn(f64) -> (TetShape, TetShape),
    params: &MethodParams,
) -> Option<f64> {
    let mut alpha = 1.0;
    for _ in 0..=MAX_SHRINK_STEPS {
        let (xa, xb) = scaled(alpha);
        if !overlaps(&xa, &xb, params.touch_tol, params.parallel_sin) {
            return Some(alpha);
        }
        alpha *= BETA;
    }
    None
}

/// The contacts: the intersection points of the full-size tetrahedra, with
/// their extent along `normal` as depth, labelled by the dimensions of the
/// features that gave the normal.
fn contacts_of(
    sa: &TetShape,
    sb: &TetShape,
    normal: DVec3,
    (dim_a, dim_b): (u8, u8),
    tol: f64,
    out: &mut Vec<RawContact>,
) {
    let points = intersection_points(sa, sb, tol);
    if points.is_empty() {
        return;
    }
    let (lo, hi) = crate::geometry::extent_along(&points, normal);
    let features = features_from_dimensions(dim_a, dim_b);
    out.extend(points.iter().map(|&position| RawContact {
        position,
        normal,
        depth: -(hi - lo),
        features,
    }));
}

/// The paper's code's face cones: a direction within this angle of a face
/// normal finds the face.
const PAPER_CODE_FACE_CONE_DEG: f64 = 4.0;
/// The paper's code's cap on the growing loop.
const PAPER_CODE_ITERATIONS: usize = 20;

/// The paper's code's feature in `direction` on `shape`: the first face in
/// face order (any of the four, surface or not) whose widened face cone
/// holds it; otherwise an edge or vertex, whose normal is the direction
/// itself. Returns (is a face, normal).
fn paper_code_feature(shape: &TetShape, direction: DVec3) -> (bool, DVec3) {
    let d = direction.normalize_or_zero();
    let cone = PAPER_CODE_FACE_CONE_DEG.to_radians().cos();
    match (0..4)
        .map(|f| shape.normals[f])
        .find(|n| *n != DVec3::ZERO && n.dot(d) >= cone)
    {
        Some(n) => (true, n),
        None => (false, d),
    }
}

impl ContactMethod for GrowthPaperCode {
    fn rules(&self) -> Rules {
        Rules::PaperCode
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        // The code's overlap test gates the pair and ends the shrinking.
        if !code_overlaps(&sa, &sb) {
            return;
        }
        let (ca, cb) = (sa.centroid(), sb.centroid());
        let dc = cb - ca;
        if dc == DVec3::ZERO {
            return; // coincident centroids: growth has no direction
        }
        let scaled = |alpha: f64| (sa.scaled(alpha, ca), sb.scaled(alpha, cb));
        let mut last_shrink = BETA;
        let apart = |alpha: f64| {
            let (xa, xb) = scaled(alpha);
            !code_overlaps(&xa, &xb)
        };
        while !apart(last_shrink) {
            last_shrink *= BETA;
            if last_shrink < BETA.powi(MAX_SHRINK_STEPS as i32) {
                return;
            }
        }
        // The closest points are those at the last scale the shrinking
        // tested (where the tetrahedra are apart), while the growth's scale
        // starts one shrink step below it.
        let (xa, xb) = scaled(last_shrink);
        let (mut pa, mut pb, first_distance) = closest_points(&xa, &xb);
        let mut scale = BETA * last_shrink;
        // The stopping distance: twice the smaller of that first distance
        // and 1 % of the smaller tetrahedron's size (twice its largest
        // corner distance from its centroid). With a first distance below
        // 1 %, the loop does not run at all.
        let size = code_size(&sa).min(code_size(&sb));
        let stop = 2.0 * first_distance.min(0.01 * size);
        let mut distance = first_distance;
        for _ in 0..PAPER_CODE_ITERATIONS {
            if distance <= stop {
                break;
            }
            // The step sets the scale to 1 − s·dc/‖dc‖², the fraction of
            // the centroid distance not bridged by the gap; it ends when
            // that would not grow the tetrahedra.
            let factor = 1.0 - (pb - pa).dot(dc) / dc.dot(dc);
            if scale >= factor {
                break;
            }
            scale = factor;
            let (xa, xb) = scaled(scale);
            (pa, pb, distance) = closest_points(&xa, &xb);
        }
        let s = pb - pa;
        if s == DVec3::ZERO {
            return;
        }
        // The features are looked up on the full-size tetrahedra.
        let (face_a, n_a) = paper_code_feature(&sa, s);
        let (face_b, n_b) = paper_code_feature(&sb, -s);
        // Edge or vertex: the support feature's corners.
        let feature_tol = params.parallel_sin * a.diameter().max(b.diameter());
        let dimension = |face: bool, tet: &Tet, shape: &TetShape, d: DVec3| {
            if face {
                2
            } else {
                best_normal(tet, shape, d, feature_tol).0.min(1)
            }
        };
        let dims = (dimension(face_a, a, &sa, s), dimension(face_b, b, &sb, -s));
        // The feature with more points (dimension + 1) gives the normal; on
        // a tie A's.
        let normal = if dims.1 > dims.0 { -n_b } else { n_a };
        // The code's intersection points, merged as found and not
        // projected, with their extent along the normal as depth.
        let mut points = code_intersection_points(&sa, &sb);
        merge_with_kept(&mut points);
        if points.is_empty() {
            return;
        }
        let (lo, hi) = crate::geometry::extent_along(&points, normal);
        let features = features_from_dimensions(dims.0, dims.1);
        out.extend(points.iter().map(|&position| RawContact {
            position,
            normal,
            depth: lo - hi,
            features,
        }));
    }
}

/// The code's size of a tetrahedron: twice the largest distance of a
/// corner from the centroid.
fn code_size(shape: &TetShape) -> f64 {
    let c = shape.centroid();
    let largest = shape
        .corners
        .iter()
        .map(|&p| (p - c).dot(p - c))
        .fold(0.0, f64::max);
    2.0 * largest.sqrt()
}
