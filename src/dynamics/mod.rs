//! Rigid-body dynamics: body state, exact mass properties, and the Moreau
//! midpoint time stepper (design `solver.md`).

pub mod body;
pub mod mass;
pub mod stepper;

pub use body::RigidBody;
pub use mass::MassProperties;
