//! Rigid-body dynamics: body state and the Moreau
//! midpoint time stepper (`docs/design/solver.md`).

pub mod body;
pub mod stepper;

pub use body::RigidBody;
