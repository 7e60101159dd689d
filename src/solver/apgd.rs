//! The accelerated solver, the default: Nesterov-accelerated projected
//! gradient descent (APGD, Mazhar, Heyn, Negrut and Tasora, "Using
//! Nesterov's method to accelerate multibody dynamics with friction and
//! contact", ACM TOG 2015) with O'Donoghue and Candès's gradient restart
//! ("Adaptive restart for accelerated gradient schemes", 2015), on the same
//! proximal maps as the printed Gauss-Seidel (Erleben 2018 §6;
//! `docs/design/solver.md`, "The accelerated solver").
//!
//! Why Gauss-Seidel stalls. On a resting stack the contact problem is
//! singular and badly conditioned: a stone rests on several contacts, so
//! the Delassus matrix N = J M⁻¹ Jᵀ has a null space (many impulse
//! distributions carry one weight), and the sticking friction rows of
//! neighbouring joints couple through the tilting of tall stones. Recorded
//! on the Pillar with Semi-local's 40 right contacts (the `solver_residuals`
//! example prints it), the printed solver's largest impulse change per sweep
//! falls fast for a few hundred sweeps and then by a fraction of a percent a
//! sweep; after 1000 cold sweeps the velocities are still off by millimetres
//! per second, and the stack creeps. Neither the roll-backs (a handful per
//! solve), nor the contact order, nor a full friction disc is the cause:
//! without friction the same sweeps converge to rounding. Gauss-Seidel's
//! error on such a problem falls by about 1 − c/κ a sweep (κ the condition
//! number of the sticking block); Nesterov's extrapolation makes that about
//! 1 − c/√κ, which is what the stacks need.
//!
//! The problem. With v(λ) = v* + M⁻¹ Jᵀ λ the velocities that belong to the
//! impulses λ (v* the free velocities), the contact velocities are
//! u(λ) = J v(λ) + b = N λ + J v* + b, the gradient of
//! f(λ) = ½ λᵀ N λ + λᵀ (J v* + b). The Coulomb conditions say that λ is a
//! fixed point of
//!     λ = P(λ − S u(λ) / L),
//! where P is the printed solver's proximal map contact by contact (the
//! normal impulse onto ℝ≥0, then the friction impulse onto the disc of
//! radius μ times the new normal impulse), S = diag(s_k) a positive scaling
//! that is one number per contact (so that P stays the projection in the
//! scaled metric: an isotropic scaling keeps the disc a disc), and L > 0.
//! We take s_k = 3 / (W_00 + W_11 + W_22), the inverse of the mean of the
//! contact's Delassus diagonal, which makes the problem's units and mass
//! ratios drop out, and L ≥ the largest eigenvalue of S^½ N S^½, so that
//! the step 1/L is safe for the quadratic.
//!
//! The iteration (k from 0; λ₀ = y₀ = the warm start, θ₀ = 1):
//!     λ_{k+1} = P(y_k − S u(y_k) / L)
//!     restart if u(y_k)ᵀ (λ_{k+1} − λ_k) > 0:  θ = 1,  y_{k+1} = λ_{k+1}
//!     otherwise  θ_{k+1} = (θ_k √(θ_k² + 4) − θ_k²) / 2,
//!                β = θ_k (1 − θ_k) / (θ_k² + θ_{k+1}),
//!                y_{k+1} = λ_{k+1} + β (λ_{k+1} − λ_k).
//! The restart drops the momentum whenever it points uphill, which keeps
//! the accelerated rate on a problem whose strong convexity is unknown (and,
//! in the null space, absent).
//!
//! The step length. L starts at 1.1 times a power-iteration estimate of the
//! largest eigenvalue. Because f is quadratic, a step Δ = λ_{k+1} − y_k
//! decreases f as the bound promises exactly when
//!     Δᵀ N Δ ≤ L Δᵀ S⁻¹ Δ,
//! and Δᵀ N Δ = Σ_bodies m |Δv|² + Δωᵀ I Δω is the kinetic energy of the
//! velocity change the step makes (twice it), which the scatter computes
//! anyway. Where the estimate was short, L doubles and the step is taken
//! again from the same y (it counts as an iteration).
//!
//! Velocities, not N. N is never formed: u(y) is gathered from the
//! velocities v(y), and since v(·) is affine, the velocities of
//! y_{k+1} = λ_{k+1} + β (λ_{k+1} − λ_k) are the same combination of the
//! velocities of λ_{k+1} and λ_k. Each iteration is thus one gather (u at y
//! and the proximal step), one scatter (Δ onto the bodies) and work per
//! body. The returned velocities are recomputed from v* and the returned
//! impulses, so that they answer exactly those impulses.
//!
//! Stopping. The residual is the relative length of the gradient-mapping
//! step, r_k = L ‖λ_{k+1} − y_k‖∞ / ‖λ_{k+1}‖∞: how much the fixed point
//! moves the impulses per unit step, relative to their size, so it is the
//! same for a scene scaled in size or mass (where the new impulses are all
//! zero it is L, or 0 if y_k was zero too). (Gauss-Seidel's largest impulse
//! change is not: with a tiny r-factor it reads small while nothing
//! converges.) The solve stops when r_k is below the tolerance (never below
//! [`RELATIVE_FLOOR`]), and otherwise returns, at its ceiling of
//! iterations, the iterate with the smallest residual it met.

use super::rows::{apply, onto_disc, Row};
use super::{SolverSettings, SolverStats};
use crate::dynamics::RigidBody;
use crate::geometry::Pose;
use glam::{DMat3, DVec2, DVec3};

/// The smallest relative residual the solve asks for, whatever the
/// tolerance setting: below it rounding in the velocities' sums is the
/// residual.
pub const RELATIVE_FLOOR: f64 = 1e-9;

/// How many power iterations estimate L, and the margin on the estimate
/// (a Rayleigh quotient never exceeds the largest eigenvalue).
const POWER_ITERATIONS: usize = 12;
const L_MARGIN: f64 = 1.1;

/// Runs the accelerated iteration on `rows` from the impulses `lambda`,
/// whose velocities `v`, `w` (linear, angular; one per body) already hold
/// them applied, until the residual is below the tolerance or the ceiling
/// `settings.iterations` is reached. On return `lambda` holds the solution
/// and `v`, `w` its velocities.
pub fn iterate(
    rows: &[Row],
    bodies: &[RigidBody],
    poses: &[Pose],
    lambda: &mut [DVec3],
    v: &mut [DVec3],
    w: &mut [DVec3],
    settings: &SolverSettings,
) -> SolverStats {
    let tolerance = settings.tolerance.max(RELATIVE_FLOOR);
    let scale = contact_scales(rows);
    let inertia = world_inertia(bodies, poses);
    let mut buffers = Buffers::new(bodies.len());
    let mut lipschitz = L_MARGIN * largest_eigenvalue(rows, &scale, &mut buffers);
    if !(lipschitz > 0.0 && lipschitz.is_finite()) {
        // Every contact is between fixed bodies: nothing can move.
        return SolverStats::default();
    }

    let (start_lambda, start_v, start_w) = (lambda.to_vec(), v.to_vec(), w.to_vec());
    let mut velocities = IterateVelocities::new(v, w);
    // y_k and λ_{k+1} (λ_k is `lambda` itself).
    let mut y = lambda.to_vec();
    let mut next = vec![DVec3::ZERO; rows.len()];
    let mut best = (f64::INFINITY, lambda.to_vec());
    let mut theta: f64 = 1.0;
    let mut stats = SolverStats::default();
    let mut steps = step_lengths(&scale, lipschitz);
    while stats.iterations < settings.iterations {
        stats.iterations += 1;
        // λ_{k+1} from y_k, and Δ = λ_{k+1} − y_k scattered onto the
        // bodies: the velocity change of the step.
        buffers.clear();
        let step = proximal_step(
            rows,
            &steps,
            &y,
            lambda,
            (&velocities.v_y, &velocities.w_y),
            &mut next,
            &mut buffers,
        );
        let curvature = buffers.twice_kinetic_energy(bodies, &inertia);
        if curvature > lipschitz * step.scaled_length_squared * (1.0 + 1e-9) {
            lipschitz *= 2.0;
            steps = step_lengths(&scale, lipschitz);
            stats.rollbacks += 1;
            continue;
        }
        let residual = relative_residual(&step, lipschitz);
        let next = keep_best(&mut best, &mut next, residual);
        if residual < tolerance {
            break;
        }
        let beta = momentum(&mut theta, step.uphill);
        extrapolate(&mut y, lambda, next, beta);
        velocities.extrapolate(&buffers, beta);
    }
    // Infinite only if every iteration had to lengthen L (never seen): no
    // step was accepted, and the impulses are the start's.
    stats.residual = if best.0.is_finite() { best.0 } else { f64::MAX };
    lambda.copy_from_slice(&best.1);
    velocities_of_impulses(rows, lambda, (&start_lambda, &start_v, &start_w), v, w);
    stats
}

/// Each contact's scaling s_k = 3 / trace of its Delassus block (module
/// doc, "The problem"); 0 for a contact that cannot move.
fn contact_scales(rows: &[Row]) -> Vec<f64> {
    rows.iter()
        .map(|row| match row.delassus_trace() {
            t if t > 0.0 => 3.0 / t,
            _ => 0.0,
        })
        .collect()
}

/// Each body's inertia tensor in the world frame at its pose.
fn world_inertia(bodies: &[RigidBody], poses: &[Pose]) -> Vec<DMat3> {
    bodies
        .iter()
        .zip(poses)
        .map(|(b, p)| {
            let r = DMat3::from_quat(p.rotation);
            r * b.inertia_body * r.transpose()
        })
        .collect()
}

/// The step's residual relative to the new impulses; where they are all
/// zero, to the extrapolated ones they came from (so the residual is L, not
/// an infinity), and zero where both are.
#[inline]
fn relative_residual(step: &Step, lipschitz: f64) -> f64 {
    let size = if step.largest_impulse > 0.0 {
        step.largest_impulse
    } else {
        step.largest_change
    };
    if size > 0.0 {
        lipschitz * step.largest_change / size
    } else {
        0.0
    }
}

/// Keeps λ_{k+1} as the best iterate when its residual is the smallest yet,
/// and returns λ_{k+1}. It swaps buffers, not copying: after a swap
/// `best.1` holds λ_{k+1}, and `next` (overwritten by the next step) the
/// former best.
#[inline]
fn keep_best<'a>(
    best: &'a mut (f64, Vec<DVec3>),
    next: &'a mut Vec<DVec3>,
    residual: f64,
) -> &'a [DVec3] {
    if residual < best.0 {
        best.0 = residual;
        std::mem::swap(&mut best.1, next);
        &best.1
    } else {
        next
    }
}

/// The extrapolation weight β of the next step, advancing θ; 0 with θ
/// reset when the momentum points uphill (the gradient restart).
#[inline]
fn momentum(theta: &mut f64, uphill: bool) -> f64 {
    if uphill {
        *theta = 1.0;
        return 0.0;
    }
    let t = *theta;
    let theta_next = (t * (t * t + 4.0).sqrt() - t * t) / 2.0;
    let beta = t * (1.0 - t) / (t * t + theta_next);
    *theta = theta_next;
    beta
}

/// y_{k+1} = λ_{k+1} + β (λ_{k+1} − λ_k), and λ_k becomes λ_{k+1}.
#[inline]
fn extrapolate(y: &mut [DVec3], lambda: &mut [DVec3], next: &[DVec3], beta: f64) {
    for ((yk, lk), nk) in y.iter_mut().zip(lambda.iter_mut()).zip(next) {
        *yk = *nk + (*nk - *lk) * beta;
        *lk = *nk;
    }
}

/// The velocities of λ_k and of y_k (linear, angular), carried along with
/// the iterates so that N is never formed (module doc, "Velocities, not N").
struct IterateVelocities {
    v_lambda: Vec<DVec3>,
    w_lambda: Vec<DVec3>,
    v_y: Vec<DVec3>,
    w_y: Vec<DVec3>,
}

impl IterateVelocities {
    /// λ₀ = y₀, both with the velocities `v`, `w`.
    fn new(v: &[DVec3], w: &[DVec3]) -> IterateVelocities {
        IterateVelocities {
            v_lambda: v.to_vec(),
            w_lambda: w.to_vec(),
            v_y: v.to_vec(),
            w_y: w.to_vec(),
        }
    }

    /// The velocities of λ_{k+1} are those of y_k plus the step's `change`;
    /// those of y_{k+1} the same combination as y_{k+1}'s.
    #[inline]
    fn extrapolate(&mut self, change: &Buffers, beta: f64) {
        for i in 0..self.v_y.len() {
            let (v_next, w_next) = (self.v_y[i] + change.v[i], self.w_y[i] + change.w[i]);
            self.v_y[i] = v_next + (v_next - self.v_lambda[i]) * beta;
            self.w_y[i] = w_next + (w_next - self.w_lambda[i]) * beta;
            self.v_lambda[i] = v_next;
            self.w_lambda[i] = w_next;
        }
    }
}

/// Recomputes `v`, `w` as the start's velocities plus the change the
/// returned impulses `lambda` make, so that they answer exactly those
/// impulses.
fn velocities_of_impulses(
    rows: &[Row],
    lambda: &[DVec3],
    (start_lambda, start_v, start_w): (&[DVec3], &[DVec3], &[DVec3]),
    v: &mut [DVec3],
    w: &mut [DVec3],
) {
    v.copy_from_slice(start_v);
    w.copy_from_slice(start_w);
    for ((row, l), l0) in rows.iter().zip(lambda).zip(start_lambda) {
        apply(row, (*l - *l0).to_array(), v, w);
    }
}

/// What a proximal step reports besides λ_{k+1}.
struct Step {
    /// ‖λ_{k+1} − y_k‖∞ and ‖λ_{k+1}‖∞.
    largest_change: f64,
    largest_impulse: f64,
    /// Δᵀ S⁻¹ Δ for Δ = λ_{k+1} − y_k.
    scaled_length_squared: f64,
    /// Whether u(y_k)ᵀ (λ_{k+1} − λ_k) > 0: the momentum points uphill.
    uphill: bool,
}

/// The step length of each contact, s_k / L, and 1 / s_k (0 for a contact
/// that cannot move).
fn step_lengths(scale: &[f64], lipschitz: f64) -> Vec<(f64, f64)> {
    scale
        .iter()
        .map(|&s| {
            if s > 0.0 {
                (s / lipschitz, 1.0 / s)
            } else {
                (0.0, 0.0)
            }
        })
        .collect()
}

/// λ_{k+1} = P(y − S u(y) / L) into `next`, contact by contact, from the
/// velocities `at_y` of `y` (module doc, "The iteration"), and the step
/// Δ = λ_{k+1} − y scattered onto `change` (a buffer apart from `at_y`, so
/// the one pass can do both).
fn proximal_step(
    rows: &[Row],
    steps: &[(f64, f64)],
    y: &[DVec3],
    lambda: &[DVec3],
    (v_y, w_y): (&[DVec3], &[DVec3]),
    next: &mut [DVec3],
    change: &mut Buffers,
) -> Step {
    let mut step = Step {
        largest_change: 0.0,
        largest_impulse: 0.0,
        scaled_length_squared: 0.0,
        uphill: false,
    };
    let mut slope = 0.0;
    for k in 0..rows.len() {
        let (row, (length, inverse_scale)) = (&rows[k], steps[k]);
        let mut u = row.relative_velocity(v_y, w_y);
        u.x += row.bias;
        let z = y[k] - u * length;
        let normal = z.x.max(0.0);
        let tangent = onto_disc(DVec2::new(z.y, z.z), row.mu * normal);
        let n = DVec3::new(normal, tangent.x, tangent.y);
        let delta = n - y[k];
        step.largest_change = step.largest_change.max(delta.abs().max_element());
        step.largest_impulse = step.largest_impulse.max(n.abs().max_element());
        step.scaled_length_squared += delta.length_squared() * inverse_scale;
        slope += u.dot(n - lambda[k]);
        next[k] = n;
        if delta != DVec3::ZERO {
            apply(row, delta.to_array(), &mut change.v, &mut change.w);
        }
    }
    step.uphill = slope > 0.0;
    step
}

/// Per-body velocity buffers for the scatter of an impulse change.
struct Buffers {
    v: Vec<DVec3>,
    w: Vec<DVec3>,
}

impl Buffers {
    fn new(bodies: usize) -> Buffers {
        Buffers {
            v: vec![DVec3::ZERO; bodies],
            w: vec![DVec3::ZERO; bodies],
        }
    }

    fn clear(&mut self) {
        self.v.fill(DVec3::ZERO);
        self.w.fill(DVec3::ZERO);
    }

    /// Σ m |Δv|² + Δωᵀ I Δω over the free bodies, for the velocity change
    /// the buffers hold: Δᵀ N Δ for the impulse change Δ scattered into them.
    fn twice_kinetic_energy(&self, bodies: &[RigidBody], inertia: &[DMat3]) -> f64 {
        bodies
            .iter()
            .zip(inertia)
            .zip(self.v.iter().zip(&self.w))
            .filter(|((b, _), _)| !b.fixed)
            .map(|((b, i), (dv, dw))| b.mass * dv.length_squared() + dw.dot(*i * *dw))
            .sum()
    }
}

/// A power-iteration estimate of the largest eigenvalue of S^½ N S^½
/// (module doc, "The step length"), applying N as a scatter of impulses
/// onto the bodies and a gather of the contact velocities they make.
fn largest_eigenvalue(rows: &[Row], scale: &[f64], buffers: &mut Buffers) -> f64 {
    let root: Vec<f64> = scale.iter().map(|s| s.sqrt()).collect();
    let mut x: Vec<DVec3> = root
        .iter()
        .map(|&r| if r > 0.0 { DVec3::ONE } else { DVec3::ZERO })
        .collect();
    let mut estimate = 0.0;
    for _ in 0..POWER_ITERATIONS {
        let norm = x.iter().map(|xk| xk.length_squared()).sum::<f64>().sqrt();
        if norm == 0.0 {
            return 0.0;
        }
        buffers.clear();
        for ((row, xk), r) in rows.iter().zip(&x).zip(&root) {
            apply(
                row,
                (*xk * (*r / norm)).to_array(),
                &mut buffers.v,
                &mut buffers.w,
            );
        }
        let mut rayleigh = 0.0;
        for ((row, xk), r) in rows.iter().zip(x.iter_mut()).zip(&root) {
            let nx = row.relative_velocity(&buffers.v, &buffers.w) * *r;
            rayleigh += xk.dot(nx) / norm;
            *xk = nx;
        }
        estimate = rayleigh;
    }
    estimate
}
