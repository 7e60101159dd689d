//! Proximal Gauss-Seidel with the local r-factor strategy and the ν = 0.9
//! roll-back (Erleben 2018 §6; `docs/design/solver.md`, "Proximal
//! Gauss-Seidel"): the printed solver and the paper's code's. Its
//! arithmetic is pinned bit for bit (`tests/common/pinned.rs`): old links
//! and the paper's tables run it.
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

use super::rows::{onto_disc, Row};
use super::{SolverRules, SolverSettings, SolverStats};
use glam::DVec3;

/// The roll-back factor ν (`docs/design/solver.md`, "Proximal
/// Gauss-Seidel").
const NU: f64 = 0.9;

/// Whether a sweep with `residual`, after one with `previous`, ends the
/// solve: the design stops when the residual is small, the paper's code
/// when it changes little (module doc).
fn stops(rules: SolverRules, residual: f64, previous: f64, tolerance: f64) -> bool {
    match rules {
        SolverRules::PaperCode => (residual - previous).abs() < tolerance * previous,
        _ => residual < tolerance,
    }
}

/// Sweeps until the rules stop or the budget is spent, rolling back every
/// sweep whose residual grew (module doc, "Convergence").
pub fn iterate(
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
            stats.rollbacks += 1;
            for row in rows.iter_mut() {
                row.r = row.r.map(|r| r * NU);
            }
            lambda.copy_from_slice(&saved_lambda);
            // The paper's code keeps the sweep's velocity update.
            if settings.rules != SolverRules::PaperCode {
                v.copy_from_slice(&saved_v);
                w.copy_from_slice(&saved_w);
            }
            continue;
        }
        let done = stops(
            settings.rules,
            residual,
            previous_residual,
            settings.tolerance,
        );
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
    let tangent = onto_disc(tangent, row.mu * normal);
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
