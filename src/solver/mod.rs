//! The contact solvers (`docs/design/solver.md`): the proximal-map
//! formulation of Coulomb friction (Erleben 2018 §6, after Erleben, "Rigid
//! body contact problems using proximal operators", SCA 2017) solved by
//! projected Gauss-Seidel as the paper prints it or as its reference code
//! runs it (`pgs`), or by an accelerated projected gradient on the same
//! proximal maps (`apgd`, Mazhar et al. 2015), the default. What they share,
//! the contact rows and the impulse-to-velocity map, is `rows`.

pub mod apgd;
pub mod pgs;
pub mod rows;

use crate::contact::Contact;
use crate::dynamics::RigidBody;
use crate::geometry::Pose;
use glam::{DMat3, DVec3};
use rows::{apply, Row};

/// Which solver: the accelerated projected gradient (`apgd`), the printed
/// proximal Gauss-Seidel (`docs/design/solver.md`), or the paper's reference
/// code's Gauss-Seidel (the `solver` setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolverRules {
    Accelerated,
    Printed,
    PaperCode,
}

impl SolverRules {
    /// The ids of the `solver` setting, in the schema's order.
    pub const IDS: [&'static str; 3] = ["accelerated", "printed", "paper-code"];

    /// The solver a link that names none ran: every link made before the
    /// accelerated solver existed (release 0.5.0 and older) ran the printed
    /// one, so it still does; links made since always name theirs
    /// (`SimSettings::from_url_pairs`).
    pub const UNNAMED_IN_LINKS: SolverRules = SolverRules::Printed;

    pub fn id(self) -> &'static str {
        match self {
            SolverRules::Accelerated => Self::IDS[0],
            SolverRules::Printed => Self::IDS[1],
            SolverRules::PaperCode => Self::IDS[2],
        }
    }

    pub fn from_id(id: &str) -> Option<SolverRules> {
        [
            SolverRules::Accelerated,
            SolverRules::Printed,
            SolverRules::PaperCode,
        ]
        .into_iter()
        .find(|r| r.id() == id)
    }
}

/// The `solver` setting's field.
impl crate::settings::Choice for SolverRules {
    fn id(self) -> &'static str {
        SolverRules::id(self)
    }

    fn from_id(id: &str) -> Option<Self> {
        SolverRules::from_id(id)
    }
}

/// What the solve needs of the run's settings (declared, with their ranges,
/// in `crate::settings`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverSettings {
    /// Gauss-Seidel's sweeps per step (the paper forces 1000), or the
    /// accelerated solver's ceiling on its iterations.
    pub iterations: u32,
    /// Gauss-Seidel: stop early when the residual falls below this (0: run
    /// every sweep). Accelerated: the relative residual to reach (never
    /// below [`apgd::RELATIVE_FLOOR`]).
    pub tolerance: f64,
    /// Baumgarte factor β (0: no stabilisation, the paper's setting).
    pub baumgarte: f64,
    pub rules: SolverRules,
}

impl Default for SolverSettings {
    /// The schema's defaults.
    fn default() -> Self {
        use crate::settings::default_of;
        SolverSettings {
            iterations: default_of("iterations"),
            tolerance: default_of("tolerance"),
            baumgarte: default_of("baumgarte"),
            rules: default_of("solver"),
        }
    }
}

/// What one solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct SolverStats {
    pub iterations: u32,
    pub residual: f64,
    /// Gauss-Seidel's rolled-back sweeps; the accelerated solver's
    /// doublings of L (`apgd`, "The step length").
    pub rollbacks: u32,
}

/// Solves for the impulses of `contacts` (at the bodies' midpoint poses
/// `poses`) and updates `bodies`' velocities in place, starting from the
/// free velocities they hold. `mu` is each contact's friction coefficient
/// (its body pair's). `initial` are warm-start impulses (one per contact)
/// or empty. Returns the impulses (normal, t₁, t₂ per contact).
pub fn solve(
    bodies: &mut [RigidBody],
    poses: &[Pose],
    contacts: &[Contact],
    mu: &[f64],
    settings: &SolverSettings,
    h: f64,
    initial: &[DVec3],
) -> (Vec<DVec3>, SolverStats) {
    assert_eq!(
        mu.len(),
        contacts.len(),
        "one friction coefficient per contact"
    );
    if contacts.is_empty() {
        return (Vec::new(), SolverStats::default());
    }
    let inverse_inertia: Vec<DMat3> = bodies
        .iter()
        .zip(poses)
        .map(|(b, p)| b.inverse_inertia_world(p.rotation))
        .collect();
    let mut rows: Vec<Row> = contacts
        .iter()
        .zip(mu)
        .map(|(c, &mu)| Row::new(c, mu, bodies, poses, &inverse_inertia, settings, h))
        .collect();
    let mut v: Vec<DVec3> = bodies.iter().map(|b| b.velocity).collect();
    let mut w: Vec<DVec3> = bodies.iter().map(|b| b.angular_velocity).collect();
    // Warm start: the velocities begin with the initial impulses applied.
    let mut lambda: Vec<DVec3> = if initial.len() == contacts.len() {
        initial.to_vec()
    } else {
        vec![DVec3::ZERO; contacts.len()]
    };
    for (row, l) in rows.iter().zip(&lambda) {
        apply(row, l.to_array(), &mut v, &mut w);
    }
    let stats = match settings.rules {
        SolverRules::Accelerated => {
            apgd::iterate(&rows, bodies, poses, &mut lambda, &mut v, &mut w, settings)
        }
        SolverRules::Printed | SolverRules::PaperCode => {
            pgs::iterate(&mut rows, &mut lambda, &mut v, &mut w, settings)
        }
    };
    for (body, (vi, wi)) in bodies.iter_mut().zip(v.into_iter().zip(w)) {
        if !body.fixed {
            body.velocity = vi;
            body.angular_velocity = wi;
        }
    }
    (lambda, stats)
}
