//! Closest points between points, segments and triangles.
//!
//! Follows Ericson, "Real-Time Collision Detection", 5.1.2 (point–segment),
//! 5.1.5 (point–triangle, Voronoi regions) and 5.1.9 (segment–segment);
//! the segment–triangle distance combines them as Ericson 5.1.10 does for
//! two triangles.

use glam::DVec3;

/// Closest point to `p` on segment `a`–`b`, and its parameter t ∈ [0, 1]
/// (the point is a + t (b − a)).
pub fn closest_point_on_segment(p: DVec3, a: DVec3, b: DVec3) -> (DVec3, f64) {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        return (a, 0.0);
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    (a + ab * t, t)
}

/// Below this sine of the angle between them, segments count as parallel
/// (sin² compared with |d₁ × d₂|² / (|d₁|² |d₂|²)): there Ericson's
/// solution is ill-conditioned.
const PARALLEL_SIN_SQUARED: f64 = 1e-12;

/// Closest points of segments `p1`–`q1` and `p2`–`q2`: returns (c1, c2, s, t)
/// with c1 = p1 + s (q1 − p1) and c2 = p2 + t (q2 − p2), s, t ∈ [0, 1].
///
/// Parallel segments have a whole interval of closest pairs; we return the
/// pair in the middle of their overlap, so that the answer does not depend
/// on which segment is passed first or on round-off (Ericson picks s = 0).
pub fn closest_points_segments(
    p1: DVec3,
    q1: DVec3,
    p2: DVec3,
    q2: DVec3,
) -> (DVec3, DVec3, f64, f64) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    if a == 0.0 && e == 0.0 {
        return (p1, p2, 0.0, 0.0);
    }
    let (s, t);
    if a == 0.0 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else if e == 0.0 {
        t = 0.0;
        s = (-d1.dot(r) / a).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        let b = d1.dot(d2);
        let denom = a * e - b * b;
        if denom <= PARALLEL_SIN_SQUARED * a * e {
            // Segment 2's end points along segment 1, as parameters of 1.
            let (u0, u1) = ((p2 - p1).dot(d1) / a, (q2 - p1).dot(d1) / a);
            let (lo, hi) = (u0.min(u1).max(0.0), u0.max(u1).min(1.0));
            let middle = if lo <= hi {
                0.5 * (lo + hi)
            } else if u0.max(u1) < 0.0 {
                0.0
            } else {
                1.0
            };
            t = ((p1 + d1 * middle - p2).dot(d2) / e).clamp(0.0, 1.0);
            s = if lo <= hi {
                middle
            } else {
                ((p2 + d2 * t - p1).dot(d1) / a).clamp(0.0, 1.0)
            };
        } else {
            let s0 = ((b * f - c * e) / denom).clamp(0.0, 1.0);
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (p1 + d1 * s, p2 + d2 * t, s, t)
}

/// Which part of a triangle (a, b, c) a closest point lies on: a corner
/// (0 a, 1 b, 2 c), an edge (0 ab, 1 bc, 2 ca) or the open interior.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrianglePart {
    Corner(u8),
    Edge(u8),
    Interior,
}

/// Closest point to `p` on triangle `a`, `b`, `c` (Voronoi-region walk).
pub fn closest_point_on_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    closest_point_on_triangle_part(p, a, b, c).0
}

/// Closest point to `p` on triangle `a`, `b`, `c` and the part of the
/// triangle it lies on, as the Voronoi-region walk decides it (a point on a
/// region's border is given to the lower-dimensional part).
pub fn closest_point_on_triangle_part(
    p: DVec3,
    a: DVec3,
    b: DVec3,
    c: DVec3,
) -> (DVec3, TrianglePart) {
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, TrianglePart::Corner(0));
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return (b, TrianglePart::Corner(1));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (a + ab * (d1 / (d1 - d3)), TrianglePart::Edge(0));
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return (c, TrianglePart::Corner(2));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return (a + ac * (d2 / (d2 - d6)), TrianglePart::Edge(2));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return (
            b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))),
            TrianglePart::Edge(1),
        );
    }
    let denom = va + vb + vc;
    if denom <= 0.0 {
        // Degenerate (zero-area) triangle: fall back to its nearest edge.
        let candidates = [
            (closest_point_on_segment(p, a, b).0, TrianglePart::Edge(0)),
            (closest_point_on_segment(p, b, c).0, TrianglePart::Edge(1)),
            (closest_point_on_segment(p, c, a).0, TrianglePart::Edge(2)),
        ];
        return candidates
            .into_iter()
            .min_by(|x, y| {
                (x.0 - p)
                    .length_squared()
                    .total_cmp(&(y.0 - p).length_squared())
            })
            .unwrap_or((a, TrianglePart::Corner(0)));
    }
    let v = vb / denom;
    let w = vc / denom;
    (a + ab * v + ac * w, TrianglePart::Interior)
}

/// Distance between segment `p`–`q` and triangle `a`, `b`, `c`: zero when
/// the segment crosses the triangle, otherwise attained with one point on a
/// boundary (an end point of the segment or an edge of the triangle), since
/// two interior points can only be closest when the pieces are parallel, and
/// then sliding along them reaches a boundary at the same distance.
pub fn segment_triangle_distance(p: DVec3, q: DVec3, a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let normal = (b - a).cross(c - a);
    let (sp, sq) = (normal.dot(p - a), normal.dot(q - a));
    if (sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0) {
        let crossing = p + (q - p) * (sp / (sp - sq));
        let inside = [(a, b), (b, c), (c, a)]
            .iter()
            .all(|&(u, v)| (v - u).cross(crossing - u).dot(normal) >= 0.0);
        if inside {
            return 0.0;
        }
    }
    let to_ends = [p, q]
        .map(|x| (closest_point_on_triangle(x, a, b, c) - x).length())
        .into_iter();
    let to_edges = [(a, b), (b, c), (c, a)].map(|(u, v)| {
        let (on_segment, on_edge, _, _) = closest_points_segments(p, q, u, v);
        (on_segment - on_edge).length()
    });
    to_ends.chain(to_edges).fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force_segments(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> f64 {
        let n = 400;
        let mut best = f64::INFINITY;
        for i in 0..=n {
            let a = p1.lerp(q1, i as f64 / n as f64);
            let (c, _) = closest_point_on_segment(a, p2, q2);
            best = best.min((a - c).length());
        }
        best
    }

    #[test]
    fn crossing_segments_meet_in_the_middle() {
        let (c1, c2, s, t) = closest_points_segments(
            DVec3::new(-1.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.0, 1.0, -1.0),
            DVec3::new(0.0, 1.0, 1.0),
        );
        assert!((c1 - DVec3::ZERO).length() < 1e-15 && (c2 - DVec3::Y).length() < 1e-15);
        assert!((s - 0.5).abs() < 1e-15 && (t - 0.5).abs() < 1e-15);
    }

    #[test]
    fn segment_distance_matches_brute_force_including_parallel_and_clamped() {
        let cases = [
            (
                DVec3::ZERO,
                DVec3::X,
                DVec3::new(2.0, 1.0, 0.0),
                DVec3::new(3.0, 1.0, 0.0),
            ),
            (
                DVec3::ZERO,
                DVec3::X,
                DVec3::new(0.5, 1.0, 0.0),
                DVec3::new(1.5, 1.0, 0.0),
            ),
            (
                DVec3::ZERO,
                DVec3::X,
                DVec3::new(0.3, 0.2, -1.0),
                DVec3::new(0.7, 0.4, 2.0),
            ),
            (
                DVec3::ZERO,
                DVec3::ZERO,
                DVec3::new(0.3, 0.2, -1.0),
                DVec3::new(0.7, 0.4, 2.0),
            ),
        ];
        for (p1, q1, p2, q2) in cases {
            let (c1, c2, _, _) = closest_points_segments(p1, q1, p2, q2);
            let d = (c1 - c2).length();
            assert!(
                (d - brute_force_segments(p1, q1, p2, q2)).abs() < 1e-4,
                "{p1} {q1} {p2} {q2}: {d}"
            );
        }
    }

    #[test]
    fn parallel_segments_meet_in_the_middle_of_their_overlap_either_way_round() {
        let (p1, q1) = (DVec3::ZERO, DVec3::new(2.0, 0.0, 0.0));
        let (p2, q2) = (DVec3::new(1.0, 1.0, 0.0), DVec3::new(3.0, 1.0, 0.0));
        let (c1, c2, _, _) = closest_points_segments(p1, q1, p2, q2);
        let (d2, d1, _, _) = closest_points_segments(q2, p2, q1, p1);
        assert!(
            (c1 - DVec3::new(1.5, 0.0, 0.0)).length() < 1e-15
                && (c2 - DVec3::new(1.5, 1.0, 0.0)).length() < 1e-15
        );
        assert!((c1 - d1).length() < 1e-15 && (c2 - d2).length() < 1e-15);
        // Disjoint along the line: the nearest end points.
        let (c1, c2, _, _) =
            closest_points_segments(p1, q1, DVec3::new(3.0, 1.0, 0.0), DVec3::new(4.0, 1.0, 0.0));
        assert!((c1 - q1).length() < 1e-15 && (c2 - DVec3::new(3.0, 1.0, 0.0)).length() < 1e-15);
    }

    #[test]
    fn point_triangle_regions() {
        let (a, b, c) = (DVec3::ZERO, DVec3::X, DVec3::Y);
        let cases = [
            (DVec3::new(0.2, 0.2, 5.0), DVec3::new(0.2, 0.2, 0.0)), // face
            (DVec3::new(-1.0, -1.0, 0.0), a),                       // vertex a
            (DVec3::new(2.0, -0.5, 0.0), b),                        // vertex b
            (DVec3::new(0.5, -1.0, 1.0), DVec3::new(0.5, 0.0, 0.0)), // edge ab
            (DVec3::new(1.0, 1.0, 0.0), DVec3::new(0.5, 0.5, 0.0)), // edge bc
            (DVec3::new(-3.0, 0.25, 0.0), DVec3::new(0.0, 0.25, 0.0)), // edge ca
        ];
        for (p, expected) in cases {
            let q = closest_point_on_triangle(p, a, b, c);
            assert!((q - expected).length() < 1e-15, "{p}: {q} != {expected}");
        }
    }

    #[test]
    fn segment_triangle_distance_crossing_beside_and_parallel() {
        let (a, b, c) = (DVec3::ZERO, DVec3::X, DVec3::Y);
        let through = segment_triangle_distance(
            DVec3::new(0.2, 0.2, -1.0),
            DVec3::new(0.2, 0.2, 1.0),
            a,
            b,
            c,
        );
        assert_eq!(through, 0.0);
        // Crosses the plane outside the triangle, beyond the hypotenuse:
        // nearest to the edge b–c.
        let beside = segment_triangle_distance(
            DVec3::new(1.0, 1.0, -1.0),
            DVec3::new(1.0, 1.0, 1.0),
            a,
            b,
            c,
        );
        assert!((beside - 0.5f64.sqrt()).abs() < 1e-15, "{beside}");
        // Parallel above the interior: the end points decide.
        let above = segment_triangle_distance(
            DVec3::new(0.1, 0.1, 0.3),
            DVec3::new(0.3, 0.1, 0.3),
            a,
            b,
            c,
        );
        assert!((above - 0.3).abs() < 1e-15, "{above}");
    }
}
