//! Ear-clipping triangulation of a simple counter-clockwise polygon
//! (Eberly, "Triangulation by Ear Clipping", 2002), for the caps of `prism`
//! shapes, whose profiles may be non-convex (the crack block).

use glam::DVec2;

/// Triangles (indices into `polygon`, counter-clockwise) covering a simple
/// counter-clockwise polygon, or `None` when no ear can be found (the
/// polygon is clockwise, self-intersecting or degenerate).
pub fn ear_clip(polygon: &[DVec2]) -> Option<Vec<[usize; 3]>> {
    let mut remaining: Vec<usize> = (0..polygon.len()).collect();
    let mut triangles = Vec::with_capacity(polygon.len().saturating_sub(2));
    while remaining.len() > 3 {
        let n = remaining.len();
        let ear = (0..n).find(|&i| {
            let (a, b, c) = (
                remaining[(i + n - 1) % n],
                remaining[i],
                remaining[(i + 1) % n],
            );
            let (pa, pb, pc) = (polygon[a], polygon[b], polygon[c]);
            if (pb - pa).perp_dot(pc - pb) <= 0.0 {
                return false; // reflex or straight corner
            }
            remaining
                .iter()
                .all(|&k| k == a || k == b || k == c || !inside_triangle(polygon[k], pa, pb, pc))
        })?;
        let (a, b, c) = (
            remaining[(ear + n - 1) % n],
            remaining[ear],
            remaining[(ear + 1) % n],
        );
        triangles.push([a, b, c]);
        remaining.remove(ear);
    }
    if remaining.len() == 3 {
        let [a, b, c] = [remaining[0], remaining[1], remaining[2]];
        if (polygon[b] - polygon[a]).perp_dot(polygon[c] - polygon[b]) <= 0.0 {
            return None;
        }
        triangles.push([a, b, c]);
    }
    Some(triangles)
}

/// Closed triangle test: points on the boundary count as inside, so a
/// vertex touching a candidate ear blocks it.
fn inside_triangle(p: DVec2, a: DVec2, b: DVec2, c: DVec2) -> bool {
    (b - a).perp_dot(p - a) >= 0.0
        && (c - b).perp_dot(p - b) >= 0.0
        && (a - c).perp_dot(p - c) >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_polygon_is_refused() {
        let cw = [DVec2::ZERO, DVec2::Y, DVec2::ONE, DVec2::X];
        assert!(ear_clip(&cw).is_none());
    }
}
