//! The contact solver: projected Gauss-Seidel on the proximal-map
//! formulation of Coulomb friction (`docs/design/solver.md`; paper section 6,
//! after Erleben, "Rigid body contact problems using proximal operators",
//! SCA 2017).

pub mod pgs;

pub use pgs::{solve, SolverRules, SolverSettings, SolverStats};
