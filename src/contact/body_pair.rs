//! One pair of whole bodies as the region methods and the machinery they
//! share (`regions`, `brep_analysis`) see it: each body's mesh at its
//! current pose with its B-rep features and its velocities. It lives below
//! the methods and their registry so that the shared machinery can take it
//! without reaching up into `methods`.

use super::world_mesh::WorldMesh;
use crate::mesh::Brep;
use glam::DVec3;

/// One body of a [`BodyPair`]: its mesh at the current pose, its B-rep
/// features (body frame; `world.vertices` holds the posed vertices they
/// index), and its velocities.
#[derive(Clone, Copy)]
pub struct PairSide<'a> {
    pub world: &'a WorldMesh<'a>,
    pub brep: &'a Brep,
    /// Position of the body's origin (its centre of mass), world frame.
    pub position: DVec3,
    pub rotation: glam::DQuat,
    pub velocity: DVec3,
    pub angular_velocity: DVec3,
}

impl PairSide<'_> {
    /// The velocity of the body's material point at world position `p`.
    pub fn point_velocity(&self, p: DVec3) -> DVec3 {
        self.velocity + self.angular_velocity.cross(p - self.position)
    }

    /// A body-frame direction (a B-rep face normal) in the world frame.
    pub fn to_world(&self, direction: DVec3) -> DVec3 {
        self.rotation * direction
    }
}

/// The two bodies a region method looks at: contacts go from `a` to `b`.
#[derive(Clone, Copy)]
pub struct BodyPair<'a> {
    pub a: PairSide<'a>,
    pub b: PairSide<'a>,
}

impl BodyPair<'_> {
    /// Velocity of B's material point at `p` relative to A's: with the
    /// normal from A to B, `n · v > 0` means the bodies separate there.
    pub fn relative_velocity(&self, p: DVec3) -> DVec3 {
        self.b.point_velocity(p) - self.a.point_velocity(p)
    }

    /// The same pair seen with A and B swapped.
    pub fn swapped(&self) -> Self {
        BodyPair {
            a: self.b,
            b: self.a,
        }
    }
}
