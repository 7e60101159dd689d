//! Clipping in the plane: a polygon by a convex polygon (Sutherland–Hodgman),
//! a line by a convex polygon, and the stretch of a line that comes within
//! a distance of a segment (a capsule). The contact regions use them for
//! the overlap of two faces and the part of an edge that lies on a face.

use glam::DVec2;

/// `subject` clipped by the convex polygon `clip`, both counter-clockwise
/// (Sutherland–Hodgman: one pass per edge of `clip`, keeping the points on
/// its left or on it). Empty when they do not overlap; a shared edge or
/// corner gives a degenerate polygon, which the caller judges by its area.
pub fn clip_convex_polygon(subject: &[DVec2], clip: &[DVec2]) -> Vec<DVec2> {
    let mut poly: Vec<DVec2> = subject.to_vec();
    let m = clip.len();
    for k in 0..m {
        let (s, e) = (clip[k], clip[(k + 1) % m]);
        let side = |p: DVec2| (e - s).perp_dot(p - s);
        let mut out = Vec::with_capacity(poly.len() + 1);
        for i in 0..poly.len() {
            let (cur, next) = (poly[i], poly[(i + 1) % poly.len()]);
            let (fc, fn_) = (side(cur), side(next));
            let (ci, ni) = (fc >= 0.0, fn_ >= 0.0);
            if ci {
                out.push(cur);
            }
            if ci != ni {
                out.push(cur.lerp(next, fc / (fc - fn_)));
            }
        }
        poly = out;
        if poly.is_empty() {
            break;
        }
    }
    poly
}

/// The parameters t of the line `p + t d` that lie in the convex polygon
/// `clip` (counter-clockwise, boundary included), as an interval, or `None`.
/// Unbounded ends are ±∞.
pub fn line_in_convex_polygon(p: DVec2, d: DVec2, clip: &[DVec2]) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    let m = clip.len();
    for k in 0..m {
        let (s, e) = (clip[k], clip[(k + 1) % m]);
        // Keep (e − s) ⊥ · (x − s) ≥ 0: f0 + t f1 ≥ 0.
        let (f0, f1) = ((e - s).perp_dot(p - s), (e - s).perp_dot(d));
        if f1 == 0.0 {
            if f0 < 0.0 {
                return None;
            }
        } else if f1 > 0.0 {
            lo = lo.max(-f0 / f1);
        } else {
            hi = hi.min(-f0 / f1);
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// The parameters t of the line `p + t d` whose points are within `radius`
/// of the segment `s`–`e` (the line's intersection with the capsule around
/// the segment, a convex set, so one interval), or `None`.
pub fn line_near_segment(
    p: DVec2,
    d: DVec2,
    s: DVec2,
    e: DVec2,
    radius: f64,
) -> Option<(f64, f64)> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    let mut take = |interval: Option<(f64, f64)>| {
        if let Some((a, b)) = interval {
            lo = lo.min(a);
            hi = hi.max(b);
        }
    };
    // The discs at both ends: |p + t d − c|² ≤ r².
    for c in [s, e] {
        take(quadratic_below(
            d.length_squared(),
            2.0 * d.dot(p - c),
            (p - c).length_squared() - radius * radius,
        ));
    }
    // The rectangle along the segment: |off-line distance| ≤ r and the
    // projection onto the segment within its length.
    let axis = e - s;
    let length = axis.length();
    if length > 0.0 {
        let (u, normal) = (axis / length, axis.perp() / length);
        let across = linear_between(normal.dot(p - s), normal.dot(d), -radius, radius);
        let along = linear_between(u.dot(p - s), u.dot(d), 0.0, length);
        if let (Some(a), Some(b)) = (across, along) {
            let (x, y) = (a.0.max(b.0), a.1.min(b.1));
            take((x <= y).then_some((x, y)));
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// The t with a t² + b t + c ≤ 0 (a ≥ 0), as an interval.
fn quadratic_below(a: f64, b: f64, c: f64) -> Option<(f64, f64)> {
    if a == 0.0 {
        return linear_between(c, b, f64::NEG_INFINITY, 0.0);
    }
    let discriminant = b * b - 4.0 * a * c;
    if discriminant < 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    Some(((-b - root) / (2.0 * a), (-b + root) / (2.0 * a)))
}

/// The t with lo ≤ f0 + t f1 ≤ hi, as an interval (unbounded: ±∞).
fn linear_between(f0: f64, f1: f64, lo: f64, hi: f64) -> Option<(f64, f64)> {
    if f1 == 0.0 {
        return (lo <= f0 && f0 <= hi).then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let (a, b) = ((lo - f0) / f1, (hi - f0) / f1);
    Some((a.min(b), a.max(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Vec<DVec2> {
        vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(1.0, 0.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(0.0, 1.0),
        ]
    }

    #[test]
    fn clipping_a_shifted_square_leaves_the_overlap() {
        let shifted: Vec<DVec2> = square()
            .iter()
            .map(|p| *p + DVec2::new(0.5, 0.25))
            .collect();
        let overlap = clip_convex_polygon(&shifted, &square());
        let area = crate::geometry::polygon_area_2d(&overlap);
        assert!((area - 0.5 * 0.75).abs() < 1e-12, "{area}");
        let apart: Vec<DVec2> = square().iter().map(|p| *p + DVec2::new(2.0, 0.0)).collect();
        assert!(clip_convex_polygon(&apart, &square()).is_empty());
    }

    #[test]
    fn a_line_through_the_square() {
        let (lo, hi) =
            line_in_convex_polygon(DVec2::new(-1.0, 0.5), DVec2::new(1.0, 0.0), &square()).unwrap();
        assert!((lo - 1.0).abs() < 1e-12 && (hi - 2.0).abs() < 1e-12);
        assert!(
            line_in_convex_polygon(DVec2::new(-1.0, 2.0), DVec2::new(1.0, 0.0), &square())
                .is_none()
        );
    }

    #[test]
    fn the_stretch_of_a_line_near_a_segment() {
        // A line along the x axis, a segment from (1, 0.5) to (3, 0.5),
        // radius 1: the rectangle gives [1, 3], the discs widen it by √0.75.
        let (lo, hi) = line_near_segment(
            DVec2::ZERO,
            DVec2::X,
            DVec2::new(1.0, 0.5),
            DVec2::new(3.0, 0.5),
            1.0,
        )
        .unwrap();
        let w = 0.75_f64.sqrt();
        assert!((lo - (1.0 - w)).abs() < 1e-12 && (hi - (3.0 + w)).abs() < 1e-12);
        // Parallel and too far.
        assert!(line_near_segment(
            DVec2::ZERO,
            DVec2::X,
            DVec2::new(1.0, 2.0),
            DVec2::new(3.0, 2.0),
            1.0
        )
        .is_none());
        // Crossing at right angles: the band is 2 r wide.
        let (lo, hi) = line_near_segment(
            DVec2::new(2.0, -5.0),
            DVec2::Y,
            DVec2::new(0.0, 0.0),
            DVec2::new(4.0, 0.0),
            0.5,
        )
        .unwrap();
        assert!((lo - 4.5).abs() < 1e-12 && (hi - 5.5).abs() < 1e-12);
    }
}
