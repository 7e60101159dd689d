//! Why the printed Gauss-Seidel stalls on a resting stack, and what the
//! accelerated solver does instead (`docs/design/solver.md`, "The
//! accelerated solver"). One solve of the Pillar's first step with
//! Semi-local's contacts (the bodies at rest, the free velocities after
//! gravity), cold-started:
//!
//! - the printed solver after 1 to 10 000 sweeps: its residual (the largest
//!   impulse change of the last sweep), its roll-backs, and how far its
//!   velocities are from a converged solve's;
//! - the same with the contacts in reverse order, and without friction;
//! - the accelerated solver: its iterations, relative residual and
//!   velocity error.
//!
//! - each solver's cost per contact visit (one contact's rows in one sweep
//!   or iteration), the median of 15 timed solves.
//!
//! Run `cargo run --release --example solver_residuals [scene] [method]`;
//! a study, never a test assertion (`cargo xtask bench` reports the costs
//! inside real runs).

use contactlab::contact::Contact;
use contactlab::dynamics::RigidBody;
use contactlab::geometry::Pose;
use contactlab::scene::builtin::builtin_text;
use contactlab::sim::{SimSettings, Simulation};
use contactlab::solver::{solve, SolverRules, SolverSettings, SolverStats};
use glam::DVec3;
use std::time::Instant;

/// One solve's input: the bodies with their free velocities, their poses,
/// the contacts and their friction coefficients, the time step.
struct Problem {
    bodies: Vec<RigidBody>,
    poses: Vec<Pose>,
    contacts: Vec<Contact>,
    mu: Vec<f64>,
    h: f64,
}

impl Problem {
    /// The bodies' velocities after solving with `settings`.
    fn solve(&self, settings: SolverSettings) -> (Vec<(DVec3, DVec3)>, SolverStats) {
        let mut bodies = self.bodies.clone();
        let (_, stats) = solve(
            &mut bodies,
            &self.poses,
            &self.contacts,
            &self.mu,
            &settings,
            self.h,
            &[],
        );
        let velocities = bodies
            .iter()
            .map(|b| (b.velocity, b.angular_velocity))
            .collect();
        (velocities, stats)
    }
}

/// The largest difference of a linear or angular velocity component.
fn velocity_error(a: &[(DVec3, DVec3)], b: &[(DVec3, DVec3)]) -> f64 {
    a.iter()
        .zip(b)
        .map(|((va, wa), (vb, wb))| {
            (*va - *vb)
                .abs()
                .max_element()
                .max((*wa - *wb).abs().max_element())
        })
        .fold(0.0, f64::max)
}

fn settings(rules: SolverRules, iterations: u32, tolerance: f64) -> SolverSettings {
    SolverSettings {
        iterations,
        tolerance,
        baumgarte: 0.0,
        rules,
    }
}

/// Prints the printed solver's residual and velocity error after growing
/// numbers of sweeps, against the converged velocities `converged`.
fn sweeps(label: &str, problem: &Problem, converged: &[(DVec3, DVec3)]) {
    println!("\n{label}: printed Gauss-Seidel, cold");
    println!("| sweeps | residual (N s) | roll-backs | velocity error (m/s, rad/s) |");
    println!("| ---: | ---: | ---: | ---: |");
    for n in [1, 10, 50, 100, 250, 500, 1000, 2000, 5000, 10_000] {
        let (velocities, stats) = problem.solve(settings(SolverRules::Printed, n, 0.0));
        println!(
            "| {n} | {:.2e} | {} | {:.2e} |",
            stats.residual,
            stats.rollbacks,
            velocity_error(&velocities, converged)
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "pillar".into());
    let method = args.next().unwrap_or_else(|| "semi-local".into());
    let Some(text) = builtin_text(&id) else {
        eprintln!("solver_residuals: no built-in scene \"{id}\"");
        std::process::exit(2);
    };
    let run_settings = SimSettings {
        method: method.clone(),
        ..SimSettings::default()
    };
    let mut sim = match Simulation::new(&format!("builtin:{id}"), text, run_settings) {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("solver_residuals: {e}");
            std::process::exit(2);
        }
    };
    let bodies_at_rest = sim.bodies().to_vec();
    if let Err(e) = sim.step() {
        eprintln!("solver_residuals: {e}");
        std::process::exit(2);
    }
    let h = sim.dt();
    let gravity = sim.scene().gravity;
    let mut bodies = bodies_at_rest;
    for body in bodies.iter_mut().filter(|b| !b.fixed) {
        body.velocity += gravity * h;
    }
    let poses = bodies
        .iter()
        .map(|b| Pose::new(b.position, b.rotation))
        .collect();
    let contacts = sim.contacts().to_vec();
    let mu = contacts.iter().map(|c| sim.mu_between(c.a, c.b)).collect();
    let problem = Problem {
        bodies,
        poses,
        contacts,
        mu,
        h,
    };
    println!(
        "{id} with {method}: {} contacts, one cold solve of step 1",
        problem.contacts.len()
    );
    let converged = |p: &Problem| p.solve(settings(SolverRules::Accelerated, 100_000, 0.0)).0;

    let reference = converged(&problem);
    sweeps("As found", &problem, &reference);

    let reversed = Problem {
        contacts: problem.contacts.iter().rev().cloned().collect(),
        mu: problem.mu.clone(),
        bodies: problem.bodies.clone(),
        poses: problem.poses.clone(),
        h,
    };
    sweeps("Contacts in reverse order", &reversed, &reference);

    let frictionless = Problem {
        mu: vec![0.0; problem.contacts.len()],
        contacts: problem.contacts.clone(),
        bodies: problem.bodies.clone(),
        poses: problem.poses.clone(),
        h,
    };
    sweeps("Without friction", &frictionless, &converged(&frictionless));

    println!("\nAccelerated (the default), cold");
    println!("| tolerance | iterations | doublings of L | relative residual | velocity error (m/s, rad/s) |");
    println!("| ---: | ---: | ---: | ---: | ---: |");
    for tolerance in [1e-3, 1e-6, 0.0] {
        let (velocities, stats) =
            problem.solve(settings(SolverRules::Accelerated, 1000, tolerance));
        println!(
            "| {tolerance:e} | {} | {} | {:.2e} | {:.2e} |",
            stats.iterations,
            stats.rollbacks,
            stats.residual,
            velocity_error(&velocities, &reference)
        );
    }

    println!("\nCost per contact visit, cold solve, median of 15");
    println!("| solver | iterations | ns per contact visit |");
    println!("| --- | ---: | ---: |");
    for rules in [SolverRules::Accelerated, SolverRules::Printed] {
        let mut times = Vec::new();
        let mut iterations = 0;
        for _ in 0..15 {
            let start = Instant::now();
            let (_, stats) = problem.solve(settings(rules, 1000, 0.0));
            times.push(start.elapsed().as_secs_f64());
            iterations = stats.iterations;
        }
        times.sort_by(f64::total_cmp);
        let visits = f64::from(iterations) * problem.contacts.len() as f64;
        println!(
            "| {} | {iterations} | {:.1} |",
            rules.id(),
            times[times.len() / 2] * 1e9 / visits
        );
    }
}
