//! A rigid body's pose: where its centre of mass is and how it is turned.

use glam::{DQuat, DVec3};

/// A rigid body's pose: `position` is the world position of its centre of
/// mass (the body frame's origin) and `rotation` turns the body frame into
/// the world frame, so a body point `x` is at `position + rotation * x`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub position: DVec3,
    pub rotation: DQuat,
}

impl Pose {
    /// At the world origin, unturned.
    pub const IDENTITY: Pose = Pose {
        position: DVec3::ZERO,
        rotation: DQuat::IDENTITY,
    };

    pub const fn new(position: DVec3, rotation: DQuat) -> Pose {
        Pose { position, rotation }
    }
}
