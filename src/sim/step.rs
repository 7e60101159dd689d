//! One step of a run, as named stages over a [`StepContext`] (the shape of
//! Box2D v3's solver stages): snapshot, detect, warm start, solve, commit
//! or roll back, measure. The dynamics is the Moreau midpoint step
//! (`dynamics::stepper::moreau_step`): contacts at the midpoint, then the
//! proximal Gauss-Seidel solve (`solver`); a mode that plays back frames
//! takes no dynamics step.

use super::divergence::{likely_causes, RunNumbers};
use super::modes::{poses_of, Detection, Next, RunMode};
use super::simulation::Shown;
use super::warm_start::{WarmKey, WarmStarts};
use super::{SimError, Simulation, StepRecord};
use crate::clock::now_ms;
use crate::contact::{BodyAtPose, ContactSet, MethodParams};
use crate::dynamics::stepper::{moreau_step, Pose};
use crate::dynamics::RigidBody;
use crate::scene::Scene;
use crate::solver::{solve, SolverSettings, SolverStats};
use glam::DVec3;

/// What a dynamics step carries from stage to stage.
struct StepContext {
    /// The state before the step, put back if the step is refused. The
    /// bodies are few and copied every step; the warm-start map only when
    /// the mode's detection can fail (a detection past its budget skips
    /// the solve, which leaves the map as it was).
    bodies_before: Vec<RigidBody>,
    warm_before: Option<WarmStarts>,
    /// The midpoint poses, where the contacts were found.
    poses: Vec<Pose>,
    detected: ContactSet,
    stats: SolverStats,
    ms_solver: f64,
}

/// What the solve stage reads: the solver's settings, the time step and μ
/// of every body pair.
struct SolveInputs {
    solver: SolverSettings,
    h: f64,
    warm_start: bool,
    /// μ of body pair (a, b) at `a * bodies + b`, looked up once per step
    /// rather than per contact.
    mu_of_pair: Vec<f64>,
    bodies: usize,
}

impl Simulation {
    /// One step: a dynamics step with the mode's contacts, or the mode's
    /// next frame played back. A refused step leaves the run as it was.
    pub fn step(&mut self) -> Result<StepRecord, SimError> {
        self.refuse_if_diverged()?;
        if let Next::Frame(frame) = self.mode.next(self.step, &self.bodies)? {
            return Ok(self.play_back(frame));
        }
        let context = self.snapshot();
        let context = self.integrate(context);
        let context = self.commit_or_roll_back(context)?;
        Ok(self.measure_step(context))
    }

    /// A run that diverged is paused: every step is refused.
    fn refuse_if_diverged(&self) -> Result<(), SimError> {
        match &self.diverged {
            Some(message) => Err(SimError::Diverged {
                step: self.step,
                message: message.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Snapshot: what a refused step puts back.
    fn snapshot(&self) -> StepContext {
        StepContext {
            bodies_before: self.bodies.clone(),
            warm_before: self.mode.may_fail().then(|| self.warm.clone()),
            poses: Vec::new(),
            detected: ContactSet::default(),
            stats: SolverStats::default(),
            ms_solver: 0.0,
        }
    }

    /// The Moreau step of the bodies, with the detect stage at the
    /// midpoint and the warm-start and solve stages after it.
    fn integrate(&mut self, context: StepContext) -> StepContext {
        let n = self.scene.bodies.len();
        let inputs = SolveInputs {
            solver: SolverSettings {
                iterations: self.settings.iterations,
                tolerance: self.settings.tolerance,
                baumgarte: self.settings.baumgarte,
                rules: self.settings.solver,
            },
            h: self.dt,
            warm_start: self.settings.warm_start,
            mu_of_pair: (0..n * n).map(|k| self.mu_between(k / n, k % n)).collect(),
            bodies: n,
        };
        // Detection sees the velocities the step starts with.
        let velocities: Vec<(DVec3, DVec3)> = self
            .bodies
            .iter()
            .map(|b| (b.velocity, b.angular_velocity))
            .collect();
        let (scene, params, step) = (&self.scene, &self.params, self.step + 1);
        let mode = &mut *self.mode;
        let warm = &mut self.warm;
        let (poses, detected, (stats, ms_solver)) = moreau_step(
            &mut self.bodies,
            scene.gravity,
            inputs.h,
            self.settings.gyroscopic,
            |poses| detect(mode, scene, params, step, poses, &velocities),
            |set, poses, bodies| solve_stage(warm, &inputs, set, poses, bodies),
        );
        StepContext {
            poses,
            detected,
            stats,
            ms_solver,
            ..context
        }
    }

    /// Commit or roll back: a failed adapter or a detection past its budget
    /// undoes the step (the run keeps its state); a body gone non-finite
    /// ends the run.
    fn commit_or_roll_back(&mut self, mut context: StepContext) -> Result<StepContext, SimError> {
        if let Some(message) = self.mode.take_failure() {
            self.bodies = std::mem::take(&mut context.bodies_before);
            self.warm = context.warm_before.take().unwrap_or_default();
            return Err(SimError::Engine(message));
        }
        if let Some(over) = &context.detected.over_budget {
            self.bodies = std::mem::take(&mut context.bodies_before);
            return Err(SimError::OverBudget(
                over.message(|i| self.scene.bodies[i].name.clone()),
            ));
        }
        self.step += 1;
        let blown = self
            .bodies
            .iter()
            .zip(&self.scene.bodies)
            .find(|(b, _)| !b.is_finite());
        if let Some((_, body)) = blown {
            return Err(SimError::BlewUp {
                step: self.step,
                body: body.name.clone(),
                causes: self.likely_causes(),
            });
        }
        Ok(context)
    }

    /// Measure: the step's contacts judged at the midpoint poses, where
    /// they were found (the arch oracle's centres, the geometric oracle's
    /// bodies); the bodies' overlap, displacement and energy at its end.
    fn measure_step(&mut self, context: StepContext) -> StepRecord {
        let StepContext {
            poses,
            detected,
            stats,
            ms_solver,
            ..
        } = context;
        let not_applicable =
            detected.not_applicable_messages(|i| self.scene.bodies[i].name.clone());
        let measured = self.measure(&detected.contacts, &poses);
        let end_poses = poses_of(&self.bodies);
        let (max_displacement, moved_most) = self.max_displacement(&end_poses);
        let kinetic_energy = self.bodies.iter().map(RigidBody::kinetic_energy).sum();
        let diverged = self
            .bounds
            .check(self.step, kinetic_energy, max_displacement, || {
                self.likely_causes()
            });
        let record = StepRecord {
            step: self.step,
            time: self.step as f64 * self.dt,
            measures: measured.measures,
            min_depth: detected.contacts.iter().map(|c| c.depth).reduce(f64::min),
            penetration: self.overlap.deepest(&self.scene, &end_poses),
            kinetic_energy,
            max_displacement,
            moved_most,
            standing: self.standing(max_displacement),
            iterations: stats.iterations,
            residual: stats.residual,
            ms_broad: detected.ms_broad,
            ms_method: detected.ms_method,
            ms_solver,
            ms_oracle: measured.ms_oracle,
            diverged: diverged.clone(),
            not_applicable,
            indeterminate: detected.indeterminate,
            dynamics: true,
        };
        self.diverged = diverged;
        self.show(Shown {
            step: self.step,
            contacts: detected.contacts,
            regions: detected.regions,
            qualities: measured.qualities,
            poses,
        });
        record
    }

    /// The likely causes of this run going wrong, as one sentence.
    fn likely_causes(&self) -> String {
        let run = RunNumbers {
            dt: self.dt,
            iterations: self.settings.iterations,
            mu: self.mu,
        };
        likely_causes(&self.scene, &run, self.bounds.length)
    }
}

/// Detect: the mode's contacts at the midpoint `poses`, with the bodies
/// moving at `velocities` (linear, angular: what the region methods read).
fn detect(
    mode: &mut dyn RunMode,
    scene: &Scene,
    params: &MethodParams,
    step: u64,
    poses: &[Pose],
    velocities: &[(DVec3, DVec3)],
) -> ContactSet {
    let bodies: Vec<BodyAtPose> = scene
        .bodies
        .iter()
        .zip(poses.iter().zip(velocities))
        .map(|(b, (p, v))| BodyAtPose {
            mesh: &b.mesh,
            position: p.position,
            rotation: p.rotation,
            fixed: b.fixed,
            velocity: v.0,
            angular_velocity: v.1,
        })
        .collect();
    mode.detect(&Detection {
        step,
        bodies: &bodies,
        poses,
        params,
    })
}

/// Warm start, then solve: each contact starts from its impulse of the
/// last step, and this step's impulses are kept for the next. A detection
/// past its budget is not solved (the step will be refused).
fn solve_stage(
    warm: &mut WarmStarts,
    inputs: &SolveInputs,
    set: &ContactSet,
    poses: &[Pose],
    bodies: &mut [RigidBody],
) -> (SolverStats, f64) {
    if set.over_budget.is_some() {
        return (SolverStats::default(), 0.0);
    }
    let solver_start = now_ms();
    let contacts = &set.contacts;
    let keys = match inputs.warm_start {
        true => WarmKey::of(contacts),
        false => Vec::new(),
    };
    let initial = warm.initial(&keys);
    let n = inputs.bodies;
    let mu: Vec<f64> = contacts
        .iter()
        .map(|c| inputs.mu_of_pair[c.a * n + c.b])
        .collect();
    let (impulses, stats) = solve(
        bodies,
        poses,
        contacts,
        &mu,
        &inputs.solver,
        inputs.h,
        &initial,
    );
    if inputs.warm_start {
        warm.store(keys, &impulses);
    }
    (stats, now_ms() - solver_start)
}
