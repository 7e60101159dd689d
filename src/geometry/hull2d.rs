//! Convex hull and area of planar point sets (Andrew's monotone chain),
//! for contact-region hulls and the area coverage P of the paper's eq. 3.

use glam::DVec2;

/// Strictly convex hull, counter-clockwise, without repeated or collinear
/// points: a point is dropped when it lies within `tol` of the line through
/// its hull neighbours. Fewer than three distinct points give the distinct
/// extreme points (one point, or the two ends of a segment).
pub fn convex_hull_2d(points: &[DVec2], tol: f64) -> Vec<DVec2> {
    let mut pts: Vec<DVec2> = points.to_vec();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup_by(|a, b| (*a - *b).length() <= tol);
    if pts.len() < 3 {
        return pts;
    }
    // Walking along the chain, `middle` stays between `from` and `to` only
    // when it lies more than `tol` to the right of the line from → to (a
    // counter-clockwise turn): perp_dot / |to − from| is that distance.
    let keeps = |from: DVec2, middle: DVec2, to: DVec2| {
        let chord = to - from;
        let len = chord.length();
        len > 0.0 && chord.perp_dot(middle - from) < -tol * len
    };
    let mut hull: Vec<DVec2> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &DVec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2 && !keeps(hull[hull.len() - 2], hull[hull.len() - 1], p) {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    // Nearly collinear input can leave fewer than three points.
    if hull.len() < 3 {
        let first = pts[0];
        let last = pts[pts.len() - 1];
        return vec![first, last];
    }
    hull
}

/// Signed area of a simple polygon (positive when counter-clockwise).
pub fn polygon_area_2d(polygon: &[DVec2]) -> f64 {
    let n = polygon.len();
    (0..n)
        .map(|i| polygon[i].perp_dot(polygon[(i + 1) % n]))
        .sum::<f64>()
        * 0.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_with_interior_and_edge_points_has_four_corners() {
        let pts = [
            DVec2::new(0.0, 0.0),
            DVec2::new(1.0, 0.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(0.0, 1.0),
            DVec2::new(0.5, 0.0),
            DVec2::new(0.5, 0.5),
            DVec2::new(1.0, 0.5 + 1e-12),
            DVec2::new(0.0, 0.0),
        ];
        let hull = convex_hull_2d(&pts, 1e-9);
        assert_eq!(hull.len(), 4);
        assert!((polygon_area_2d(&hull) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn degenerate_sets() {
        assert_eq!(convex_hull_2d(&[DVec2::ONE, DVec2::ONE], 1e-9).len(), 1);
        let line = [DVec2::ZERO, DVec2::new(0.5, 0.5), DVec2::ONE];
        let hull = convex_hull_2d(&line, 1e-9);
        assert_eq!(hull, vec![DVec2::ZERO, DVec2::ONE]);
    }
}
