//! Seeded randomness: the only source of randomness in ContactLab, so the
//! same seed gives bit-identical results on the same build. SplitMix64
//! (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
//! OOPSLA 2014) is small, fast and statistically sound for this use.

use super::types::Scene;
use glam::{DQuat, DVec3};

#[derive(Clone, Debug)]
pub struct SeededRng {
    state: u64,
}

impl SeededRng {
    pub fn new(seed: u64) -> Self {
        SeededRng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniformly distributed rotation (Shoemake, "Uniform random
    /// rotations", Graphics Gems III).
    pub fn rotation(&mut self) -> DQuat {
        let (u1, u2, u3) = (
            self.next_f64(),
            self.next_f64() * std::f64::consts::TAU,
            self.next_f64() * std::f64::consts::TAU,
        );
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        DQuat::from_xyzw(a * u2.sin(), a * u2.cos(), b * u3.sin(), b * u3.cos()).normalize()
    }

    /// A point in the cube [−half, half]³.
    pub fn in_cube(&mut self, half: f64) -> DVec3 {
        DVec3::new(self.next_f64(), self.next_f64(), self.next_f64()) * (2.0 * half)
            - DVec3::splat(half)
    }
}

/// Displaces every free body by `magnitude` in a seeded random horizontal
/// direction, body by body in file order (`docs/design/scenes.md`,
/// "Perturbation"; paper section 8.5). With y up this is
/// magnitude · (cos φ, 0, sin φ).
pub fn perturb(scene: &mut Scene, magnitude: f64, seed: u64) {
    let mut rng = SeededRng::new(seed);
    let first = scene.horizontal;
    let second = first.cross(scene.up);
    for body in scene.bodies.iter_mut().filter(|b| !b.fixed) {
        let phi = rng.next_f64() * std::f64::consts::TAU;
        body.position += (first * phi.cos() + second * phi.sin()) * magnitude;
    }
}
