//! Rigid-body dynamics. For now: exact mass properties of tetrahedral bodies.

pub mod mass;

pub use mass::MassProperties;
