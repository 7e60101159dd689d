//! Whole-scene transforms for invariance tests: nothing in ContactLab may
//! assume that y is up or that the scene has a particular size, so a rigid
//! transform or a uniform scaling of a scene (bodies, gravity and oracle
//! together) must give the same measurements.

use super::oracle::Oracle;
use super::types::Scene;
use crate::mesh::MassProperties;
use glam::{DQuat, DVec3};

impl Scene {
    /// Applies x ↦ R x + t to the whole scene: body poses and velocities,
    /// gravity, the up and horizontal directions, and the oracle.
    pub fn transform_rigid(&mut self, rotation: DQuat, translation: DVec3) {
        for body in &mut self.bodies {
            body.position = rotation * body.position + translation;
            body.rotation = (rotation * body.rotation).normalize();
            body.velocity = rotation * body.velocity;
            body.angular_velocity = rotation * body.angular_velocity;
        }
        self.gravity = rotation * self.gravity;
        self.up = rotation * self.up;
        self.horizontal = rotation * self.horizontal;
        self.oracle.rotate(|d| rotation * d);
    }

    /// Scales every length by `factor` > 0 (about the world origin): meshes,
    /// positions, velocities, gravity and the oracle's expected areas. Mass
    /// properties are recomputed at the same density.
    pub fn scale(&mut self, factor: f64) {
        for body in &mut self.bodies {
            body.mesh = body.mesh.map_vertices(|v| v * factor);
            body.solid_mesh = body
                .solid_mesh
                .take()
                .map(|m| m.map_vertices(|v| v * factor));
            body.mass = MassProperties {
                centre: DVec3::ZERO,
                ..MassProperties::of_mesh(&body.mesh, body.density)
            };
            body.position *= factor;
            body.velocity *= factor;
        }
        self.gravity *= factor;
        self.erosion = self.erosion.map(|e| e * factor);
        match &mut self.oracle {
            Oracle::Wall { expected_area, .. } | Oracle::Arch { expected_area, .. } => {
                *expected_area *= factor * factor
            }
            _ => {}
        }
    }
}
