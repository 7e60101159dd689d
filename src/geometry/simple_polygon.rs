//! Whether a closed polygon is simple: no two of its edges meet except
//! adjacent edges at their shared corner. Ear clipping assumes it; a
//! self-intersecting profile (a pentagram) would otherwise be triangulated
//! into caps that cover part of the polygon twice.
//!
//! Every pair of edges is tested (O(n²)): profiles are hand-written and
//! small, and the test is a few multiplications per pair. Two segments meet
//! when they cross or come closer than the caller's tolerance (orientation
//! tests as in O'Rourke, "Computational Geometry in C", 1.5); two adjacent
//! segments overlap beyond their corner exactly when they are collinear and
//! run back along each other.

use glam::DVec2;

/// The first pair of edges (i, j), i < j, that break simplicity, where edge
/// k runs from `polygon[k]` to `polygon[(k + 1) % n]`; `None` for a simple
/// polygon. `tol` is a length: corners closer than it to a non-adjacent
/// edge, and edges closer than it, count as touching.
pub fn first_bad_edge_pair(polygon: &[DVec2], tol: f64) -> Option<(usize, usize)> {
    let n = polygon.len();
    let edge = |k: usize| (polygon[k], polygon[(k + 1) % n]);
    for i in 0..n {
        let (a, b) = edge(i);
        if (b - a).length() <= tol {
            // A repeated point: edges i − 1 and i + 1 meet at it.
            let next = (i + 1) % n;
            return Some((i.min(next), i.max(next)));
        }
        for j in i + 1..n {
            let (c, d) = edge(j);
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            let bad = if adjacent {
                // The corner they share: b when j = i + 1, a when (i, j) =
                // (0, n − 1). Each runs away from it along its own edge.
                let (corner, u, v) = if j == i + 1 { (b, a, d) } else { (a, b, c) };
                folds_back(corner, u, v, tol)
            } else {
                segment_distance(a, b, c, d) <= tol
            };
            if bad {
                return Some((i, j));
            }
        }
    }
    None
}

/// Whether the edges corner → u and corner → v overlap beyond the corner:
/// v lies (within `tol`) on the line of corner → u, on the same side.
fn folds_back(corner: DVec2, u: DVec2, v: DVec2, tol: f64) -> bool {
    let (du, dv) = (u - corner, v - corner);
    let off_line = du.perp_dot(dv).abs() / du.length();
    off_line <= tol && du.dot(dv) > 0.0
}

/// Distance between segments a–b and c–d in the plane: zero when they
/// cross, otherwise attained at one of the four end points.
fn segment_distance(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    let side = |p: DVec2, q: DVec2, r: DVec2| (q - p).perp_dot(r - p);
    let (s1, s2) = (side(a, b, c), side(a, b, d));
    let (s3, s4) = (side(c, d, a), side(c, d, b));
    if s1 * s2 < 0.0 && s3 * s4 < 0.0 {
        return 0.0;
    }
    let to_segment = |p: DVec2, u: DVec2, v: DVec2| {
        let uv = v - u;
        let t = ((p - u).dot(uv) / uv.length_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
        (u + uv * t - p).length()
    };
    to_segment(a, c, d)
        .min(to_segment(b, c, d))
        .min(to_segment(c, a, b))
        .min(to_segment(d, a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn polygon(points: &[(f64, f64)]) -> Vec<DVec2> {
        points.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
    }

    #[test]
    fn square_and_crack_profile_are_simple() {
        let square = polygon(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
        assert_eq!(first_bad_edge_pair(&square, 1e-9), None);
        let crack = polygon(&[
            (-1.0, -0.5),
            (1.0, -0.5),
            (1.0, 0.5),
            (0.5, 0.5),
            (0.0, 0.0),
            (-0.5, 0.5),
            (-1.0, 0.5),
        ]);
        assert_eq!(first_bad_edge_pair(&crack, 1e-9), None);
    }

    #[test]
    fn pentagram_bow_tie_spike_and_repeat_are_not() {
        let star: Vec<DVec2> = (0..5)
            .map(|k| {
                let angle = std::f64::consts::TAU * (2 * k) as f64 / 5.0;
                DVec2::new(angle.cos(), angle.sin())
            })
            .collect();
        // Edge 0 (point 0 → 1) crosses edges 2 and 3 of the star.
        assert_eq!(first_bad_edge_pair(&star, 1e-9), Some((0, 2)));
        let bow_tie = polygon(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]);
        assert_eq!(first_bad_edge_pair(&bow_tie, 1e-9), Some((0, 2)));
        // A spike that runs back along itself: edges 1 and 2 overlap.
        let spike = polygon(&[(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (2.0, 0.5)]);
        assert_eq!(first_bad_edge_pair(&spike, 1e-9), Some((1, 2)));
        // A repeated point: edge 2 starts where edge 0 ends.
        let repeat = polygon(&[(0.0, 0.0), (1.0, 0.0), (1.0, 0.0), (0.0, 1.0)]);
        assert_eq!(first_bad_edge_pair(&repeat, 1e-9), Some((0, 2)));
        // A corner touching a non-adjacent edge.
        let touching = polygon(&[(0.0, 0.0), (2.0, 0.0), (1.0, 0.5), (1.0, 1e-12), (0.5, 1.0)]);
        assert_eq!(first_bad_edge_pair(&touching, 1e-9), Some((0, 2)));
    }
}
