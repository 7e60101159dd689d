//! The state of one rigid body (`docs/design/solver.md`, "Body state"):
//! centre of mass x, unit quaternion q, linear velocity v and angular
//! velocity ω in the world frame, mass and body-frame inertia. Fixed bodies
//! have zero inverse mass and inverse inertia and never move.

use crate::geometry::symmetric3::symmetric_pseudo_inverse;
use crate::geometry::Pose;
use glam::{DMat3, DQuat, DVec3};

#[derive(Clone, Debug, PartialEq)]
pub struct RigidBody {
    pub position: DVec3,
    pub rotation: DQuat,
    pub velocity: DVec3,
    pub angular_velocity: DVec3,
    pub mass: f64,
    pub inverse_mass: f64,
    /// Inertia and its inverse about the centre of mass, body frame.
    pub inertia_body: DMat3,
    pub inverse_inertia_body: DMat3,
    pub fixed: bool,
}

impl RigidBody {
    /// A body at pose (`position`, `rotation`) with the given velocities,
    /// mass and body-frame inertia about its centre of mass. A fixed body
    /// gets zero velocities and zero inverse mass and inertia, so the solver
    /// never moves it.
    pub fn new(
        Pose { position, rotation }: Pose,
        (velocity, angular_velocity): (DVec3, DVec3),
        mass: f64,
        inertia_body: DMat3,
        fixed: bool,
    ) -> RigidBody {
        RigidBody {
            position,
            rotation,
            velocity: if fixed { DVec3::ZERO } else { velocity },
            angular_velocity: if fixed { DVec3::ZERO } else { angular_velocity },
            mass,
            inverse_mass: if fixed { 0.0 } else { 1.0 / mass },
            inertia_body,
            inverse_inertia_body: if fixed {
                DMat3::ZERO
            } else {
                symmetric_pseudo_inverse(inertia_body, 1e-14)
            },
            fixed,
        }
    }

    /// World inverse inertia R I_b⁻¹ Rᵀ at orientation `rotation`.
    pub fn inverse_inertia_world(&self, rotation: DQuat) -> DMat3 {
        let r = DMat3::from_quat(rotation);
        r * self.inverse_inertia_body * r.transpose()
    }

    /// ½ m |v|² + ½ ωᵀ I ω (zero for fixed bodies).
    pub fn kinetic_energy(&self) -> f64 {
        if self.fixed {
            return 0.0;
        }
        let w_body = self.rotation.inverse() * self.angular_velocity;
        0.5 * self.mass * self.velocity.length_squared()
            + 0.5 * w_body.dot(self.inertia_body * w_body)
    }

    /// Linear momentum m v.
    pub fn linear_momentum(&self) -> DVec3 {
        if self.fixed {
            DVec3::ZERO
        } else {
            self.velocity * self.mass
        }
    }

    /// Angular momentum about the origin: x × m v + R I_b Rᵀ ω.
    pub fn angular_momentum(&self) -> DVec3 {
        if self.fixed {
            return DVec3::ZERO;
        }
        let r = DMat3::from_quat(self.rotation);
        self.position.cross(self.linear_momentum())
            + r * self.inertia_body * r.transpose() * self.angular_velocity
    }

    /// Whether the state is usable: finite, and with a finite kinetic energy
    /// (a velocity of 1e200 m/s is a number, but not a simulation).
    pub fn is_finite(&self) -> bool {
        self.position.is_finite()
            && self.rotation.is_finite()
            && self.velocity.is_finite()
            && self.angular_velocity.is_finite()
            && self.kinetic_energy().is_finite()
    }
}
