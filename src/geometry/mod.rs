//! Geometric building blocks shared by meshes, contact methods and measures.
//!
//! Conventions (`docs/design/conventions.md`): f64 everywhere, `glam::DVec3`; a
//! tolerance is always passed in by the caller, never hidden in a function.

pub mod aabb;
pub mod bvh;
pub mod clip2d;
pub mod closest;
pub mod expansion;
pub mod hull2d;
pub mod perturbed;
pub mod plane;
pub mod pose;
pub mod simple_polygon;
pub mod symmetric3;

pub use aabb::Aabb;
pub use bvh::Bvh;
pub use clip2d::{clip_convex_polygon, line_in_convex_polygon, line_near_segment};
pub use closest::{
    closest_point_on_segment, closest_point_on_triangle, closest_point_on_triangle_part,
    closest_points_segments, segment_triangle_distance, TrianglePart,
};
pub use hull2d::{convex_hull_2d, polygon_area_2d};
pub use plane::{orthonormal_basis, PlaneFrame};
pub use pose::Pose;

use glam::DVec3;

/// The interval [min, max] of the points' projections onto `axis`.
pub fn extent_along(points: &[DVec3], axis: DVec3) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let x = p.dot(axis);
            (lo.min(x), hi.max(x))
        })
}
