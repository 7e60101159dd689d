//! The contact rows both solvers work on (`docs/design/solver.md`,
//! "Contact rows"; the derivation is in `pgs`' opening comment): each
//! contact's directions, Jacobian rows, inverse masses and the diagonal of
//! its Delassus block, precomputed once per step, and the map from an
//! impulse change to the bodies' velocity changes.

use crate::contact::Contact;
use crate::dynamics::RigidBody;
use crate::geometry::orthonormal_basis;
use crate::geometry::Pose;
use glam::{DMat3, DVec3};

use super::SolverSettings;

/// One contact's precomputed rows.
pub struct Row {
    pub a: usize,
    pub b: usize,
    pub d: [DVec3; 3],
    /// r_A × d_i and r_B × d_i.
    pub ja: [DVec3; 3],
    pub jb: [DVec3; 3],
    /// I_A⁻¹ (r_A × d_i) and I_B⁻¹ (r_B × d_i).
    pub ma: [DVec3; 3],
    pub mb: [DVec3; 3],
    pub inv_mass_a: f64,
    pub inv_mass_b: f64,
    /// Gauss-Seidel's r-factors, R = 1 / W_ii (0 where W_ii is 0), which
    /// its roll-backs scale; the accelerated solver reads them unscaled.
    pub r: [f64; 3],
    /// b_n, the Baumgarte term of the normal row.
    pub bias: f64,
    /// The contact's friction coefficient.
    pub mu: f64,
}

impl Row {
    /// The rows of contact `c` with friction coefficient `mu`: directions,
    /// Jacobian rows and R = 1 / W_ii (`pgs`' opening comment), and the
    /// Baumgarte bias b_n.
    pub fn new(
        c: &Contact,
        mu: f64,
        bodies: &[RigidBody],
        poses: &[Pose],
        inverse_inertia: &[DMat3],
        settings: &SolverSettings,
        h: f64,
    ) -> Row {
        let (t1, t2) = orthonormal_basis(c.normal);
        let d = [c.normal, t1, t2];
        let (ra, rb) = (
            c.position - poses[c.a].position,
            c.position - poses[c.b].position,
        );
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

    /// The relative velocity of B with respect to A at the contact, along
    /// n, t₁ and t₂: u_i = d_i · (v_B − v_A) + (r_B × d_i) · ω_B − (r_A × d_i) · ω_A.
    /// The accelerated solver's inner loop: forced inline natively, where
    /// LTO left it a call and it ran about 25 % slower; not in the page's
    /// module, where forcing it (and `apply`) costs 0.9 kB of the default
    /// page's 600 kB budget.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn relative_velocity(&self, v: &[DVec3], w: &[DVec3]) -> DVec3 {
        let rel_v = v[self.b] - v[self.a];
        let (wa, wb) = (w[self.a], w[self.b]);
        DVec3::new(
            self.d[0].dot(rel_v) + self.jb[0].dot(wb) - self.ja[0].dot(wa),
            self.d[1].dot(rel_v) + self.jb[1].dot(wb) - self.ja[1].dot(wa),
            self.d[2].dot(rel_v) + self.jb[2].dot(wb) - self.ja[2].dot(wa),
        )
    }

    /// The sum of the contact's Delassus diagonal, W_00 + W_11 + W_22 (0
    /// when a row has none: a contact between two fixed bodies).
    pub fn delassus_trace(&self) -> f64 {
        if self.r.contains(&0.0) {
            0.0
        } else {
            self.r.iter().map(|r| 1.0 / r).sum()
        }
    }
}

/// Applies impulse change `delta` (along n, t₁, t₂) of one contact to its
/// bodies' velocities. Inlined as `Row::relative_velocity` is.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn apply(row: &Row, delta: [f64; 3], v: &mut [DVec3], w: &mut [DVec3]) {
    let p = row.d[0] * delta[0] + row.d[1] * delta[1] + row.d[2] * delta[2];
    v[row.b] += p * row.inv_mass_b;
    v[row.a] -= p * row.inv_mass_a;
    w[row.b] += row.mb[0] * delta[0] + row.mb[1] * delta[1] + row.mb[2] * delta[2];
    w[row.a] -= row.ma[0] * delta[0] + row.ma[1] * delta[1] + row.ma[2] * delta[2];
}

/// The proximal map of the friction disc ‖λ_t‖ ≤ `radius`: the projection
/// of `t` onto it, by scaling (`pgs`' opening comment, "Proximal maps").
#[inline]
pub fn onto_disc(t: glam::DVec2, radius: f64) -> glam::DVec2 {
    let length = t.length();
    if length > radius {
        t * (radius / length)
    } else {
        t
    }
}
