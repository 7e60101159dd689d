//! The geometric oracle's own primitives (`docs/design/oracle.md`,
//! "Independence"): angles between directions and convex cones of
//! directions, closest points between points and segments, distances to
//! triangles, and clipping a segment or a triangle in a plane. Written here
//! on purpose, not taken from `geometry::closest` or `geometry::clip2d`,
//! which the contact methods use: a judge sharing a primitive with the
//! methods would share its bugs (Erleben 2018, §5: the oracle is the
//! measure's ground truth).
//!
//! The closest-point formulas follow the textbook case analysis (Ericson,
//! "Real-Time Collision Detection", 2005, §5.1.2, §5.1.5, §5.1.9); the
//! polygon clip is Sutherland & Hodgman's (1974).

use glam::{DVec2, DVec3};

/// The angle between two non-zero directions, accurate near 0 and π.
pub fn angle(u: DVec3, v: DVec3) -> f64 {
    u.cross(v).length().atan2(u.dot(v))
}

/// The angle from unit `d` to the arc of great circle from unit `g1` to unit
/// `g2` (the shorter one; `g1` and `g2` are never opposite here: they are
/// the face normals of one convex edge or one convex corner).
pub fn angle_to_arc(d: DVec3, g1: DVec3, g2: DVec3) -> f64 {
    let to_ends = angle(d, g1).min(angle(d, g2));
    let Some(m) = g1.cross(g2).try_normalize() else {
        return to_ends;
    };
    let in_plane = d - m * d.dot(m);
    if in_plane.length_squared() < 1e-24 {
        return to_ends;
    }
    let between = g1.cross(in_plane).dot(m) >= 0.0 && in_plane.cross(g2).dot(m) >= 0.0;
    if between {
        angle(d, in_plane)
    } else {
        to_ends
    }
}

/// Whether unit `d` is a non-negative combination of three of `gens` (the
/// cone they span, by Carathéodory's theorem in three dimensions).
fn inside_some_triple(d: DVec3, gens: &[DVec3]) -> bool {
    let n = gens.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (a, b, c) = (gens[i], gens[j], gens[k]);
                let det = a.dot(b.cross(c));
                if det.abs() < 1e-12 {
                    continue;
                }
                let x = d.dot(b.cross(c)) / det;
                let y = d.dot(c.cross(a)) / det;
                let z = d.dot(a.cross(b)) / det;
                if x >= -1e-12 && y >= -1e-12 && z >= -1e-12 {
                    return true;
                }
            }
        }
    }
    false
}

/// The angle from unit `d` to the convex cone spanned by the unit
/// directions `gens` (pointed, non-empty): 0 inside, else the angle to its
/// boundary, which lies on the arcs between pairs of generators (every such
/// arc lies in the cone, so the least angle to them is the angle to the
/// cone).
pub fn angle_to_cone(d: DVec3, gens: &[DVec3]) -> f64 {
    match gens.len() {
        0 => std::f64::consts::PI,
        1 => angle(d, gens[0]),
        _ => {
            if gens.len() >= 3 && inside_some_triple(d, gens) {
                return 0.0;
            }
            let mut best = std::f64::consts::PI;
            for i in 0..gens.len() {
                for j in i + 1..gens.len() {
                    best = best.min(angle_to_arc(d, gens[i], gens[j]));
                }
            }
            best
        }
    }
}

/// Whether unit `d` lies within the angle whose cosine and sine are
/// `cos_slack` and `sin_slack` of the cone spanned by the unit directions
/// `gens`: [`angle_to_cone`] `<= slack`, without the arc tangents, which
/// dominate the oracle's cost when it intersects the cones of every
/// touching pair (the angle to an arc's great circle is the arc sine of
/// the component along its pole).
pub fn within_cone(d: DVec3, gens: &[DVec3], cos_slack: f64, sin_slack: f64) -> bool {
    if gens.iter().any(|g| d.dot(*g) >= cos_slack) {
        return true;
    }
    if gens.len() >= 3 && inside_some_triple(d, gens) {
        return true;
    }
    for i in 0..gens.len() {
        for j in i + 1..gens.len() {
            let (g1, g2) = (gens[i], gens[j]);
            let Some(m) = g1.cross(g2).try_normalize() else {
                continue;
            };
            let in_plane = d - m * d.dot(m);
            if in_plane.length_squared() < 1e-24 {
                continue;
            }
            let between = g1.cross(in_plane).dot(m) >= 0.0 && in_plane.cross(g2).dot(m) >= 0.0;
            if between && d.dot(m).abs() <= sin_slack {
                return true;
            }
        }
    }
    false
}

/// The parameter in [0, 1] of the point of segment `a`–`b` nearest `p`.
pub fn segment_param(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        return 0.0;
    }
    ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// The distance from `p` to segment `a`–`b`.
pub fn point_segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    p.distance(a + (b - a) * segment_param(p, a, b))
}

/// The parameters (s, t) of the nearest points of segments p0–p1 and
/// q0–q1, both clamped to [0, 1]. Parallel segments get s at the middle of
/// their overlap (or the nearer end), so the answer is unique.
pub fn segments_params(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> (f64, f64) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    if a == 0.0 && e == 0.0 {
        return (0.0, 0.0);
    }
    if a == 0.0 {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e == 0.0 {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let s = if denom > 1e-12 * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        // Parallel: the middle of the part of p0–p1 facing q0–q1.
        let s0 = (-c / a).clamp(0.0, 1.0);
        let s1 = ((b - c) / a).clamp(0.0, 1.0);
        0.5 * (s0 + s1)
    };
    let t = (b * s + f) / e;
    if t < 0.0 {
        ((-c / a).clamp(0.0, 1.0), 0.0)
    } else if t > 1.0 {
        (((b - c) / a).clamp(0.0, 1.0), 1.0)
    } else {
        (s, t)
    }
}

/// The point of triangle `abc` nearest `p` (Ericson §5.1.5, by Voronoi
/// regions of the vertices, edges and face).
pub fn nearest_on_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// The parameter interval of the part of the 2D segment `p`–`q` inside the
/// counter-clockwise or clockwise triangle `tri` (Cyrus–Beck), if any.
pub fn clip_segment_to_triangle(p: DVec2, q: DVec2, tri: [DVec2; 3]) -> Option<(f64, f64)> {
    let orientation = (tri[1] - tri[0]).perp_dot(tri[2] - tri[0]).signum();
    if orientation == 0.0 {
        return None;
    }
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    let d = q - p;
    for i in 0..3 {
        let (a, b) = (tri[i], tri[(i + 1) % 3]);
        // Inside: orientation * (b - a) × (x - a) ≥ 0.
        let edge = b - a;
        let at_p = orientation * edge.perp_dot(p - a);
        let rate = orientation * edge.perp_dot(d);
        if rate.abs() < 1e-300 {
            if at_p < 0.0 {
                return None;
            }
            continue;
        }
        let t = -at_p / rate;
        if rate > 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}

/// The intersection of two convex 2D polygons (Sutherland–Hodgman), both
/// counter-clockwise; empty when they do not overlap.
pub fn clip_convex(subject: &[DVec2], clip: &[DVec2]) -> Vec<DVec2> {
    let mut out = subject.to_vec();
    for i in 0..clip.len() {
        if out.is_empty() {
            break;
        }
        let (a, b) = (clip[i], clip[(i + 1) % clip.len()]);
        let side = |x: DVec2| (b - a).perp_dot(x - a);
        let input = std::mem::take(&mut out);
        for j in 0..input.len() {
            let (p, q) = (input[j], input[(j + 1) % input.len()]);
            let (sp, sq) = (side(p), side(q));
            if sp >= 0.0 {
                out.push(p);
            }
            if (sp >= 0.0) != (sq >= 0.0) {
                out.push(p + (q - p) * (sp / (sp - sq)));
            }
        }
    }
    out
}

/// The part of the convex polygon `subject` where the affine function
/// `value` is ≤ 0 (one Sutherland–Hodgman step against a line).
pub fn clip_half_plane(subject: &[DVec2], value: impl Fn(DVec2) -> f64) -> Vec<DVec2> {
    let mut out = Vec::with_capacity(subject.len() + 1);
    for j in 0..subject.len() {
        let (p, q) = (subject[j], subject[(j + 1) % subject.len()]);
        let (vp, vq) = (value(p), value(q));
        if vp <= 0.0 {
            out.push(p);
        }
        if (vp <= 0.0) != (vq <= 0.0) {
            out.push(p + (q - p) * (vp / (vp - vq)));
        }
    }
    out
}

/// A counter-clockwise copy of a 2D triangle.
pub fn counter_clockwise(tri: [DVec2; 3]) -> [DVec2; 3] {
    if (tri[1] - tri[0]).perp_dot(tri[2] - tri[0]) < 0.0 {
        [tri[0], tri[2], tri[1]]
    } else {
        tri
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_4;

    #[test]
    fn angles_to_rays_arcs_and_cones() {
        let (x, y, z) = (DVec3::X, DVec3::Y, DVec3::Z);
        assert!((angle(x, y) - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        // Inside the arc from x to y: 0; beyond its end: the angle to x.
        let mid = (x + y).normalize();
        assert!(angle_to_arc(mid, x, y) < 1e-15);
        assert!((angle_to_arc(-y, x, y) - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        // Above the arc's plane: the elevation.
        let up = (mid + z).normalize();
        assert!((angle_to_arc(up, x, y) - FRAC_PI_4).abs() < 1e-12);
        // The octant cone: inside, and the angle from its axis' opposite.
        let octant = [x, y, z];
        assert_eq!(angle_to_cone((x + y + z).normalize(), &octant), 0.0);
        assert!((angle_to_cone(-x, &octant) - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    }

    #[test]
    fn closest_points_and_clips() {
        let (s, t) = segments_params(
            DVec3::new(-1.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.5, -1.0, 1.0),
            DVec3::new(0.5, 1.0, 1.0),
        );
        assert!((s - 0.75).abs() < 1e-12 && (t - 0.5).abs() < 1e-12);
        let q = nearest_on_triangle(DVec3::new(0.2, 0.2, 3.0), DVec3::ZERO, DVec3::X, DVec3::Y);
        assert!(q.distance(DVec3::new(0.2, 0.2, 0.0)) < 1e-15);
        let tri = [DVec2::ZERO, DVec2::X, DVec2::Y];
        let (t0, t1) =
            clip_segment_to_triangle(DVec2::new(-1.0, 0.25), DVec2::new(2.0, 0.25), tri).unwrap();
        assert!((t0 - 1.0 / 3.0).abs() < 1e-12 && (t1 - 1.75 / 3.0).abs() < 1e-12);
        let square = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
        let shifted: Vec<DVec2> = square.iter().map(|p| *p + DVec2::splat(0.5)).collect();
        let overlap = clip_convex(&square, &shifted);
        assert!((crate::geometry::polygon_area_2d(&overlap) - 0.25).abs() < 1e-12);
    }
}
