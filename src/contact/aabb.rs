//! Axis-aligned bounding boxes for the broad phase and for skipping features
//! far from the other body (the type lives in `geometry`, where the
//! bounding-volume hierarchy of the meshes uses it too).

pub use crate::geometry::aabb::Aabb;
