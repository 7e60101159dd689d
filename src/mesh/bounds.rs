//! The axis-aligned bounds of a point set and their diagonal: a body's
//! size, and the box the self-intersection test and the scene checks start
//! from.

use crate::geometry::Aabb;
use glam::DVec3;

/// The diagonal of the points' bounding box.
pub fn bounding_diagonal(points: &[DVec3]) -> f64 {
    let (lo, hi) = bounds(points);
    (hi - lo).length()
}

/// The corners (smallest, largest) of the points' bounding box.
pub fn bounds(points: &[DVec3]) -> (DVec3, DVec3) {
    let b = Aabb::of(points);
    (b.lo, b.hi)
}
