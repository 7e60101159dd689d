//! Proximal Gauss-Seidel with the local r-factor strategy and the ν = 0.9
//! roll-back (`docs/design/solver.md`, "Proximal Gauss-Seidel").
//!
//! Contact rows. For contact k between A and B with unit normal n (A → B),
//! point p, r_A = p − x_A, r_B = p − x_B and tangents t₁, t₂ completing an
//! orthonormal basis, write d₀ = n, d₁ = t₁, d₂ = t₂. The relative velocity
//! of B with respect to A at p is
//!     u = (v_B + ω_B × r_B) − (v_A + ω_A × r_A),
//! and since d · (ω × r) = ω · (r × d),
//!     u_i = d_i · (v_B − v_A) + (r_B × d_i) · ω_B − (r_A × d_i) · ω_A.
//! The impulse λ = (λ_n, λ_t1, λ_t2) acts on B with P = Σ λ_i d_i at p and on
//! A with −P, so
//!     Δv_B = m_B⁻¹ P,  Δω_B = I_B⁻¹ (r_B × P),  Δv_A = −m_A⁻¹ P,  Δω_A = −I_A⁻¹ (r_A × P).
//! The Delassus block W = J M⁻¹ Jᵀ has the diagonal
//!     W_ii = m_A⁻¹ + m_B⁻¹ + (r_A × d_i) · I_A⁻¹ (r_A × d_i) + (r_B × d_i) · I_B⁻¹ (r_B × d_i).
//!
//! Proximal maps. With R = 1 / diag(W) (row-wise, "local"), one visit of
//! contact k first solves the normal row, z_n = λ_n − R_n (u_n + b_n),
//! λ_n = max(0, z_n) (the proximal map of the indicator of ℝ≥0), applies the
//! change to the velocities, then solves the friction rows with the updated
//! velocities, z_t = λ_t − R_t ∘ u_t, λ_t = z_t scaled onto the disk
//! ‖λ_t‖ ≤ μ λ_n (the proximal map of the disk), and applies that change.
//! b = 0 unless Baumgarte stabilisation is on: b_n = (β/h) min(depth, 0).
//!
//! The proximal map is often written with one z for all three rows of a
//! contact. Visiting the normal row first (Gauss-Seidel row by row, as in the
//! factorised normal and friction sub-solvers of the paper's reference code)
//! converges markedly better on tall frictional stacks: with warm starting,
//! the ideal Pillar (`reference` contacts) stays within 0.1 mm over 500 steps
//! this way and drifts 2 cm with one z per contact.
//!
//! Convergence. After each sweep the residual is max_k ‖λ_k − λ_k,before‖∞.
//! If it grew, every R is scaled by ν = 0.9 and λ and the velocities are
//! rolled back to the start of the sweep (which still counts as an
//! iteration).
//!
//! The paper's reference code differs in two places
//! ([`SolverRules::PaperCode`], `docs/design/reference-code.md`, "The
//! solver's paper-code roll-back"). Its roll-back restores λ but not the
//! velocities: writing v = v_free + M⁻¹ Jᵀ λ for the velocities that belong
//! to the impulses, after a rolled-back sweep the code holds
//!     λ = λ_before,  v = v_free + M⁻¹ Jᵀ λ_after,
//! so the next sweep starts from velocities that include the rejected
//! update Δλ = λ_after − λ_before, and the final velocities answer
//! impulses that are not the ones returned (and warm-started from). And it
//! stops when the residual changes little rather than when it is small:
//!     |r_k − r_(k−1)| < tolerance · r_(k−1),
//! so a residual that stalls at any level ends the solve.

use crate::contact::Contact;
use crate::dynamics::RigidBody;
use crate::geometry::orthonormal_basis;
use glam::{DMat3, DQuat, DVec3};

/// Which solver: the printed one (`docs/design/solver.md`), or the paper's
/// reference code's (the `solver` setting; module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolverRules {
    #[default]
    Printed,
    PaperCode,
}

impl SolverRules {
    /// The ids of the `solver` setting, in the schema's order.
    pub const IDS: [&'static str; 2] = ["printed", "paper-code"];

    pub fn id(self) -> &'static str {
        match self {
            SolverRules::Printed => Self::IDS[0],
            SolverRules::PaperCode => Self::IDS[1],
        }
    }

    pub fn from_id(id: &str) -> Option<SolverRules> {
        [SolverRules::Printed, SolverRules::PaperCode]
            .into_iter()
            .find(|r| r.id() == id)
    }

    /// Whether a sweep with `residual`, after one with `previous`, ends the
    /// solve: the design stops when the residual is small, the paper's code
    /// when it changes little (module doc).
    fn stops(self, residual: f64, previous: f64, tolerance: f64) -> bool {
        match self {
            SolverRules::Printed => residual < tolerance,
            SolverRules::PaperCode => (residual - previous).abs() < tolerance * previous,
        }
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
/// in `crate::settings`); the defaults are the paper's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverSettings {
    /// Sweep budget per step (the paper forces 1000).
    pub iterations: u32,
    /// Stop early when the residual falls below this (0: run every sweep).
    pub tolerance: f64,
    /// Baumgarte factor β (0: no stabilisation, the paper's setting).
    pub baumgarte: f64,
    /// The printed roll-back and absolute stop, or the paper's code's.
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
}

/// The roll-back factor ν (`docs/design/solver.md`, "Proximal
/// Gauss-Seidel").
const NU: f64 = 0.9;

/// One contact's precomputed rows.
struct Row {
    a: usize,
    b: usize,
    d: [DVec3; 3],
    /// r_A × d_i and r_B × d_i.
    ja: [DVec3; 3],
    jb: [DVec3; 3],
    /// I_A⁻¹ (r_A × d_i) and I_B⁻¹ (r_B × d_i).
    ma: [DVec3; 3],
    mb: [DVec3; 3],
    inv_mass_a: f64,
    inv_mass_b: f64,
    r: [f64; 3],
    bias: f64,
    /// The contact's friction coefficient.
    mu: f64,
}

impl Row {
    /// The rows of contact `c` with friction coefficient `mu`: directions,
    /// Jacobian rows and R = 1 / W_ii (module doc, "Contact rows"), and the
    /// Baumgarte bias b_n.
    fn new(
        c: &Contact,
        mu: f64,
        bodies: &[RigidBody],
        poses: &[(DVec3, DQuat)],
        inverse_inertia: &[DMat3],
        settings: &SolverSettings,
        h: f64,
    ) -> Row {
        let (t1, t2) = orthonormal_basis(c.normal);
        let d = [c.normal, t1, t2];
        let (ra, rb) = (c.position - poses[c.a].0, c.position - poses[c.b].0);
        let ja = d.map(|di| ra.cross(di));
        let jb = d.map(|di| rb.cross(di));
        let ma = ja.map(|j| inverse_inertia[c.a] * j);
        let mb = jb.map(|j| inverse_inertia[c.b] * j);
        let (inv_mass_a, inv_mass_b) = (bodies[c.a].inverse_mass, bodies[c.b].inverse_mass);
        let r = std::array::from_fn(|i| {
            let w = inv_mass_a + inv_mass_b + ja[i].dot(ma[i]) + jb[i].dot(mb[i]);
            if w > 0.0 {
                1.0 / w
            } else {
                0.0
            }
        });
        let bias = if settings.baumgarte > 0.0 {
            settings.baumgarte / h * c.depth.min(0.0)
        } else {
            0.0
        };
        Row {
            a: c.a,
            b: c.b,
            d,
            ja,
            jb,
            ma,
            mb,
            inv_mass_a,
            inv_mass_b,
            r,
            bias,
            mu,
        }
    }
}

/// Solves for the impulses of `contacts` (at the bodies' midpoint poses
/// `poses`) and updates `bodies`' velocities in place, starting from the
/// free velocities they hold. `mu` is each contact's friction coefficient
/// (its body pair's). `initial` are warm-start impulses (one per contact)
/// or empty. Returns the impulses (normal, t₁, t₂ per contact).
pub fn solve(
    bodies: &mut [RigidBody],
    poses: &[(DVec3, DQuat)],
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
        .map(|(b, p)| b.inverse_inertia_world(p.1))
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
    let stats = iterate(&mut rows, &mut lambda, &mut v, &mut w, settings);
    for (body, (vi, wi)) in bodies.iter_mut().zip(v.into_iter().zip(w)) {
        if !body.fixed {
            body.velocity = vi;
            body.angular_velocity = wi;
        }
    }
    (lambda, stats)
}

/// Sweeps until the rules stop or the budget is spent, rolling back every
/// sweep whose residual grew (module doc, "Convergence").
fn iterate(
    rows: &mut [Row],
    lambda: &mut [DVec3],
    v: &mut [DVec3],
    w: &mut [DVec3],
    settings: &SolverSettings,
) -> SolverStats {
    let mut stats = SolverStats::default();
    let mut previous_residual = f64::INFINITY;
    let (mut saved_lambda, mut saved_v, mut saved_w) = (lambda.to_vec(), v.to_vec(), w.to_vec());
    for _ in 0..settings.iterations {
        stats.iterations += 1;
        saved_v.copy_from_slice(v);
        saved_w.copy_from_slice(w);
        let residual = sweep(rows, lambda, &mut saved_lambda, v, w);
        if residual > previous_residual {
            for row in rows.iter_mut() {
                row.r = row.r.map(|r| r * NU);
            }
            lambda.copy_from_slice(&saved_lambda);
            // The paper's code keeps the sweep's velocity update.
            if settings.rules == SolverRules::Printed {
                v.copy_from_slice(&saved_v);
                w.copy_from_slice(&saved_w);
            }
            continue;
        }
        let done = settings
            .rules
            .stops(residual, previous_residual, settings.tolerance);
        previous_residual = residual;
        stats.residual = residual;
        if done {
            break;
        }
    }
    stats
}

/// One Gauss-Seidel sweep over the contacts, saving each λ in
/// `saved_lambda` as it is visited; returns the residual
/// max_k ‖λ_k − λ_k,before‖∞.
fn sweep(
    rows: &[Row],
    lambda: &mut [DVec3],
    saved_lambda: &mut [DVec3],
    v: &mut [DVec3],
    w: &mut [DVec3],
) -> f64 {
    let mut residual: f64 = 0.0;
    for (k, row) in rows.iter().enumerate() {
        let old = lambda[k];
        // Saved as visited: the roll-back needs the start of the sweep,
        // and a separate copy pass costs as much as the sweep's arithmetic.
        saved_lambda[k] = old;
        let (new, change) = visit(row, old, v, w);
        lambda[k] = new;
        residual = residual.max(change);
    }
    residual
}

/// One visit of a contact whose impulse is `old` (module doc, "Proximal
/// maps"): the normal row, then the friction rows with the updated
/// velocities. Updates its bodies' velocities and returns its new impulse
/// and the largest change of a component.
#[inline]
fn visit(row: &Row, old: DVec3, v: &mut [DVec3], w: &mut [DVec3]) -> (DVec3, f64) {
    let (a, b) = (row.a, row.b);
    let (mut va, mut vb, mut wa, mut wb) = (v[a], v[b], w[a], w[b]);
    // Normal row first: z_n = λ_n − R_n (u_n + b_n), λ_n = max(0, z_n).
    let u_n = row.d[0].dot(vb - va) + row.jb[0].dot(wb) - row.ja[0].dot(wa);
    let normal = (old.x - row.r[0] * (u_n + row.bias)).max(0.0);
    let dn = normal - old.x;
    if dn != 0.0 {
        let p = row.d[0] * dn;
        vb += p * row.inv_mass_b;
        va -= p * row.inv_mass_a;
        wb += row.mb[0] * dn;
        wa -= row.ma[0] * dn;
    }
    // A contact without normal impulse and without friction impulse
    // stays without: the friction disk has radius 0, so the friction
    // rows would change nothing. Skipping them is exact, and most of
    // the contacts of a method with many wrong normals are such.
    if normal == 0.0 && old.y == 0.0 && old.z == 0.0 {
        if dn != 0.0 {
            (v[a], v[b], w[a], w[b]) = (va, vb, wa, wb);
        }
        return (DVec3::ZERO, dn.abs());
    }
    // Then the friction rows with the updated velocities and the new
    // λ_n: z_t = λ_t − R_t ∘ u_t, projected onto the disk of radius μ λ_n.
    let rel_v = vb - va;
    let u_t1 = row.d[1].dot(rel_v) + row.jb[1].dot(wb) - row.ja[1].dot(wa);
    let u_t2 = row.d[2].dot(rel_v) + row.jb[2].dot(wb) - row.ja[2].dot(wa);
    let tangent = glam::DVec2::new(old.y - row.r[1] * u_t1, old.z - row.r[2] * u_t2);
    let limit = row.mu * normal;
    let length = tangent.length();
    let tangent = if length > limit {
        tangent * (limit / length)
    } else {
        tangent
    };
    let (dt1, dt2) = (tangent.x - old.y, tangent.y - old.z);
    let p = row.d[1] * dt1 + row.d[2] * dt2;
    vb += p * row.inv_mass_b;
    va -= p * row.inv_mass_a;
    wb += row.mb[1] * dt1 + row.mb[2] * dt2;
    wa -= row.ma[1] * dt1 + row.ma[2] * dt2;
    (v[a], v[b], w[a], w[b]) = (va, vb, wa, wb);
    let change = dn.abs().max(dt1.abs()).max(dt2.abs());
    (DVec3::new(normal, tangent.x, tangent.y), change)
}

/// Applies impulse change `delta` (along n, t₁, t₂) of one row.
#[inline]
fn apply(row: &Row, delta: [f64; 3], v: &mut [DVec3], w: &mut [DVec3]) {
    let p = row.d[0] * delta[0] + row.d[1] * delta[1] + row.d[2] * delta[2];
    v[row.b] += p * row.inv_mass_b;
    v[row.a] -= p * row.inv_mass_a;
    w[row.b] += row.mb[0] * delta[0] + row.mb[1] * delta[1] + row.mb[2] * delta[2];
    w[row.a] -= row.ma[0] * delta[0] + row.ma[1] * delta[1] + row.ma[2] * delta[2];
}
