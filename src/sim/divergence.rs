//! When a run has gone wrong: scene-relative bounds on its kinetic energy
//! and on how far a body strays ([`DivergenceBounds`]), and the likely
//! causes, from the settings and the scene's own numbers, as a sentence for
//! the person who must fix it.

use crate::scene::Scene;

/// Scene-relative bounds of a run that has gone wrong: kinetic energy far
/// beyond anything gravity and the initial velocities can supply over the
/// scene's height, or a body gone far out of the scene.
#[derive(Clone, Copy, Debug)]
pub(super) struct DivergenceBounds {
    /// The scene's length: the diagonal of its free bodies and what they
    /// rest on (`Scene::focus_bounds`).
    pub length: f64,
    /// Σ over free bodies of m (|g| L + |v₀|² + |ω₀|² L² + L²/s²): the energy
    /// a body can gain by falling the scene's height, plus what it starts
    /// with, plus a floor for a scene without gravity or motion.
    pub energy: f64,
}

/// How many times the energy scale, and the length, a run may reach.
const DIVERGED_ENERGY_FACTOR: f64 = 100.0;
const DIVERGED_LENGTH_FACTOR: f64 = 100.0;

impl DivergenceBounds {
    pub(super) fn of(scene: &Scene) -> DivergenceBounds {
        let (lo, hi) = scene.focus_bounds();
        let length = (hi - lo).length().max(f64::MIN_POSITIVE);
        let g = scene.gravity.length();
        let energy = scene
            .bodies
            .iter()
            .filter(|b| !b.fixed)
            .map(|b| {
                b.mass.mass
                    * (g * length
                        + b.velocity.length_squared()
                        + b.angular_velocity.length_squared() * length * length
                        + length * length)
            })
            .sum();
        DivergenceBounds { length, energy }
    }

    /// The divergence message of step `step`, whose end state has
    /// `kinetic_energy` and a body `max_displacement` from its start, if it
    /// passed a bound; `causes` words the likely causes.
    pub(super) fn check(
        &self,
        step: u64,
        kinetic_energy: f64,
        max_displacement: f64,
        causes: impl FnOnce() -> String,
    ) -> Option<String> {
        let what = if kinetic_energy > DIVERGED_ENERGY_FACTOR * self.energy {
            format!(
                "the kinetic energy {kinetic_energy:.3e} J is over {DIVERGED_ENERGY_FACTOR} times the scene's energy scale ({:.3e} J)",
                self.energy
            )
        } else if max_displacement > DIVERGED_LENGTH_FACTOR * self.length {
            format!(
                "a body is {max_displacement:.3e} m from where it started, over {DIVERGED_LENGTH_FACTOR} times the scene's size ({:.3e} m)",
                self.length
            )
        } else {
            return None;
        };
        Some(format!(
            "the simulation diverged at step {step}: {what}. {} The run is paused; restore the scene's settings to go on.",
            causes()
        ))
    }
}

/// The numbers of a run that can make it go wrong, besides the scene's.
pub(super) struct RunNumbers {
    /// The time step, s.
    pub dt: f64,
    /// Solver sweeps per step.
    pub iterations: u32,
    /// The `mu` setting, when given.
    pub mu: Option<f64>,
}

/// The likely causes of a run going wrong, from `run` and the scene's own
/// numbers, as one sentence; `length` is the scene's
/// ([`DivergenceBounds::length`]).
pub(super) fn likely_causes(scene: &Scene, run: &RunNumbers, length: f64) -> String {
    let mut causes = Vec::new();
    let scene_dt = scene.settings.dt;
    if run.dt > 2.0 * scene_dt || run.dt >= 0.05 {
        causes.push(format!(
            "the time step {} s is large (the scene's own is {scene_dt} s)",
            run.dt
        ));
    }
    if run.iterations < 100 {
        let n = run.iterations;
        let plural = if n == 1 { "" } else { "s" };
        causes.push(format!(
            "only {n} solver iteration{plural} per step (the paper uses 1000)"
        ));
    }
    if run.mu == Some(0.0) && scene.settings.friction > 0.0 {
        causes.push(format!(
            "no friction (μ = 0; the scene's own is {})",
            scene.settings.friction
        ));
    }
    causes.extend(scene_causes(scene, length));
    if causes.is_empty() {
        "Likely cause: the contact method's contacts push the bodies apart, or the scene's own numbers; try a smaller time step or more iterations.".to_string()
    } else {
        format!("Likely cause: {}.", causes.join("; "))
    }
}

/// The scene file's own numbers that can make a run go wrong.
fn scene_causes(scene: &Scene, length: f64) -> Vec<String> {
    let mut causes = Vec::new();
    let scene_dt = scene.settings.dt;
    // The thresholds follow the scene's size L and its own time step,
    // so a uniformly scaled scene (lengths, velocities and gravity × s)
    // gets the same message; for L = 1 m and h = 0.01 s they are the
    // former absolute ones (100 m/s, 100 m/s², a radian per step).
    let g = scene.gravity.length();
    // The speed of a fall through the scene's size, or of moving 1 % of
    // it per step, whichever is larger.
    let speed_scale = (g * length).sqrt().max(0.01 * length / scene_dt);
    let fast = scene.bodies.iter().any(|b| {
        !b.fixed
            && (b.velocity.length() > 100.0 * speed_scale
                || b.angular_velocity.length() * scene_dt > 1.0)
    });
    // Gravity that moves a body from rest by more than 1 % of the
    // scene's size in one step.
    if g * scene_dt * scene_dt > 0.01 * length {
        causes.push(format!("the scene's gravity of {g:.3e} m/s²"));
    }
    if fast {
        causes.push("the scene's initial velocities".to_string());
    }
    let light = scene
        .bodies
        .iter()
        .any(|b| !b.fixed && (b.density < 1.0 || b.density > 1e5));
    if light {
        causes.push("a density far from that of real materials in the scene file".to_string());
    }
    causes
}
