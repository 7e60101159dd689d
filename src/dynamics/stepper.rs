//! The Moreau midpoint time stepper (`docs/design/solver.md`, "Time stepper"):
//!
//! 1. half-step positions with the current velocities:
//!    x_m = x + (h/2) v,  q_m = normalise(q + (h/4) [ω, 0] ⊗ q);
//! 2. detect contacts at (x_m, q_m) — the contact set measured and drawn;
//! 3. free velocities v* = v + h g (and, when the gyroscopic setting is on,
//!    ω* from Euler's equations);
//! 4. solve for the contact impulses, giving v⁺, ω⁺;
//! 5. second half-step x = x_m + (h/2) v⁺, q = normalise(q_m + (h/4) [ω⁺, 0] ⊗ q_m).
//!
//! The quaternion update (1 + (h/4) ω) ⊗ q, normalised, is an exact rotation
//! about ω, so ω keeps its body-frame coordinates across a half-step; the
//! gyroscopic update therefore converts through the midpoint orientation.

use super::RigidBody;
pub use crate::geometry::Pose;
use glam::{DMat3, DQuat, DVec3};

/// q rotated by angular velocity `w` over time `dt`: normalise(q + (dt/2) [w, 0] ⊗ q).
pub fn advance_rotation(q: DQuat, w: DVec3, dt: f64) -> DQuat {
    let spin = DQuat::from_xyzw(w.x, w.y, w.z, 0.0) * q;
    (q + spin * (0.5 * dt)).normalize()
}

/// Step 1 (and, with v⁺, step 5): the pose half a step on.
pub fn half_step(body: &RigidBody, h: f64) -> Pose {
    Pose::new(
        body.position + body.velocity * (0.5 * h),
        advance_rotation(body.rotation, body.angular_velocity, 0.5 * h),
    )
}

/// Step 3 for the rotation: Euler's equations I ω̇ + ω × I ω = 0 in the body
/// frame, integrated over `h` with the implicit midpoint rule, which
/// conserves the quadratic invariants |L| and ½ ωᵀ I ω exactly (up to the
/// fixed-point tolerance). `rotation` is the midpoint orientation.
pub fn gyroscopic_update(
    angular_velocity: DVec3,
    rotation: DQuat,
    inertia_body: DMat3,
    inverse_inertia_body: DMat3,
    h: f64,
) -> DVec3 {
    let l0 = inertia_body * (rotation.inverse() * angular_velocity);
    // L̇ = L × ω with ω = I⁻¹ L; L₁ = L₀ + h (L_m × I⁻¹ L_m), L_m = (L₀ + L₁)/2.
    // Fixed-point iteration converges for h |ω| < 1; 100 sweeps bound it.
    let mut l1 = l0;
    for _ in 0..100 {
        let lm = (l0 + l1) * 0.5;
        let next = l0 + lm.cross(inverse_inertia_body * lm) * h;
        let change = (next - l1).length();
        l1 = next;
        if change <= 1e-15 * l0.length().max(f64::MIN_POSITIVE) {
            break;
        }
    }
    rotation * (inverse_inertia_body * l1)
}

/// One Moreau midpoint step of `bodies` under `gravity` over `h`, steps 1–5
/// of the module comment. Steps 1, 3 and 5 are here; the caller supplies
/// step 2 (`detect`: contacts at the midpoint poses) and step 4 (`solve`:
/// given what `detect` found, the midpoint poses and the bodies with their
/// free velocities, apply the contact impulses to the velocities). Returns
/// the midpoint poses and what the two closures returned.
pub fn moreau_step<D, S>(
    bodies: &mut [RigidBody],
    gravity: DVec3,
    h: f64,
    gyroscopic: bool,
    detect: impl FnOnce(&[Pose]) -> D,
    solve: impl FnOnce(&D, &[Pose], &mut [RigidBody]) -> S,
) -> (Vec<Pose>, D, S) {
    // 1. Half-step positions (fixed bodies never move).
    let midpoint: Vec<Pose> = bodies
        .iter()
        .map(|b| {
            if b.fixed {
                Pose::new(b.position, b.rotation)
            } else {
                half_step(b, h)
            }
        })
        .collect();
    // 2. Contacts at the midpoint.
    let detected = detect(&midpoint);
    // 3. Free velocities.
    for (body, pose) in bodies.iter_mut().zip(&midpoint) {
        if body.fixed {
            continue;
        }
        body.velocity += gravity * h;
        if gyroscopic {
            body.angular_velocity = gyroscopic_update(
                body.angular_velocity,
                pose.rotation,
                body.inertia_body,
                body.inverse_inertia_body,
                h,
            );
        }
    }
    // 4. Contact impulses.
    let solved = solve(&detected, &midpoint, bodies);
    // 5. Second half-step with the new velocities.
    for (body, pose) in bodies.iter_mut().zip(&midpoint) {
        if body.fixed {
            continue;
        }
        body.position = pose.position + body.velocity * (0.5 * h);
        body.rotation = advance_rotation(pose.rotation, body.angular_velocity, 0.5 * h);
    }
    (midpoint, detected, solved)
}
