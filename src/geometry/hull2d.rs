//! Convex hull and area of planar point sets (Andrew's monotone chain),
//! for contact-region hulls and the area coverage P of the paper's eq. 3.

use glam::DVec2;

/// Strictly convex hull, counter-clockwise, without repeated or collinear
/// points: a vertex is dropped when it lies within `tol` of the chord
/// between its hull neighbours. Fewer than three distinct points give the
/// distinct extreme points (one point, or the two ends of a segment).
///
/// The hull is built exactly first and simplified afterwards. Dropping
/// nearly collinear points while building would be wrong where the x-order
/// and the geometry disagree by round-off (points on a vertical edge whose x
/// differ in the last bit), which made the hull, and the paper's area
/// coverage P, depend on the orientation of the scene.
pub fn convex_hull_2d(points: &[DVec2], tol: f64) -> Vec<DVec2> {
    let mut pts: Vec<DVec2> = points.to_vec();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return merge_close(pts, tol);
    }
    // Andrew's monotone chain with the exact turn test.
    let turns_left = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o) > 0.0;
    let mut hull: Vec<DVec2> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &DVec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in ordered {
            while hull.len() >= start + 2
                && !turns_left(hull[hull.len() - 2], hull[hull.len() - 1], p)
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    simplify(hull, tol)
}

/// Merges points closer than `tol` (keeping the first).
fn merge_close(points: Vec<DVec2>, tol: f64) -> Vec<DVec2> {
    let mut out: Vec<DVec2> = Vec::with_capacity(points.len());
    for p in points {
        if !out.iter().any(|q| (*q - p).length() <= tol) {
            out.push(p);
        }
    }
    out
}

/// Removes hull vertices that are within `tol` of a neighbour or of the
/// chord between their neighbours, until none is.
fn simplify(mut hull: Vec<DVec2>, tol: f64) -> Vec<DVec2> {
    let mut changed = true;
    while changed && hull.len() >= 3 {
        changed = false;
        let n = hull.len();
        for i in 0..n {
            let (prev, here, next) = (hull[(i + n - 1) % n], hull[i], hull[(i + 1) % n]);
            let chord = next - prev;
            let len = chord.length();
            let off_chord = if len > 0.0 {
                chord.perp_dot(here - prev).abs() / len
            } else {
                0.0
            };
            if (here - prev).length() <= tol || off_chord <= tol {
                hull.remove(i);
                changed = true;
                break;
            }
        }
    }
    if hull.len() < 3 {
        if hull.is_empty() {
            return hull;
        }
        // Everything collapsed onto a segment or a point: keep its ends.
        let far = |from: DVec2| {
            hull.iter().copied().max_by(|a, b| {
                (*a - from)
                    .length_squared()
                    .total_cmp(&(*b - from).length_squared())
            })
        };
        return match (hull.first().copied(), far(hull[0])) {
            (Some(a), Some(b)) if (a - b).length() > tol => vec![a, b],
            (Some(a), _) => vec![a],
            _ => Vec::new(),
        };
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
    fn hull_area_does_not_depend_on_the_orientation_of_the_points() {
        // A rectangle with points along its edges and inside, like the
        // contacts of one brick joint, turned through many angles.
        let mut pts = Vec::new();
        for i in 0..=10 {
            for j in 0..=4 {
                if i == 0 || i == 10 || j == 0 || j == 4 || (i + j) % 3 == 0 {
                    pts.push(DVec2::new(0.3 * i as f64 / 10.0, 0.48 * j as f64 / 4.0));
                }
            }
        }
        for k in 0..360 {
            let (s, c) = (k as f64).to_radians().sin_cos();
            let turned: Vec<DVec2> = pts
                .iter()
                .map(|p| DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y) + DVec2::new(5.0, -3.0))
                .collect();
            let hull = convex_hull_2d(&turned, 1e-9);
            assert_eq!(hull.len(), 4, "{k} degrees");
            assert!(
                (polygon_area_2d(&hull) - 0.3 * 0.48).abs() < 1e-12,
                "{k} degrees: {}",
                polygon_area_2d(&hull)
            );
        }
    }

    #[test]
    fn degenerate_sets() {
        assert_eq!(convex_hull_2d(&[DVec2::ONE, DVec2::ONE], 1e-9).len(), 1);
        let line = [DVec2::ZERO, DVec2::new(0.5, 0.5), DVec2::ONE];
        let hull = convex_hull_2d(&line, 1e-9);
        assert_eq!(hull, vec![DVec2::ZERO, DVec2::ONE]);
    }
}
