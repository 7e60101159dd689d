//! ContactLab: assess mesh-based contact point methods, after Erleben,
//! "Methodology for Assessing Mesh-Based Contact Point Methods" (ACM TOG
//! 37(3), 2018).
//!
//! The core is plain Rust on f64 (`glam::DVec3`). The same code runs in the
//! `contactlab` CLI and, compiled to WebAssembly, in the browser playground.
//!
//! Conventions, used everywhere (design `README.md`): SI units; y is up in
//! the scene files only, code takes "up" from the scene; a contact between A
//! and B has its normal pointing from A towards B and a signed depth (0
//! touching, > 0 separated, < 0 penetrating).
//!
//! Module map:
//! - [`geometry`]: closest points, planar hulls, small linear algebra.
//! - [`mesh`]: `TetMesh`, surface classification, shapes, refinement, erosion.
//! - [`dynamics`]: rigid-body state, mass properties, the Moreau stepper.
//! - [`solver`]: the proximal Gauss-Seidel contact solver.
//! - [`measures`]: the paper's quality measures and tables.
//! - [`sim`]: `Simulation`, the one API the CLI and the page share.
//! - [`scene`]: the scene file format, validation, perturbation, oracles.
//! - [`contact`]: contacts, the broad phase, the eight methods, the exact
//!   contact regions and the reference contacts built on them.
//! - `web` (wasm32 only): the thin wasm-bindgen facade used by the page.

pub mod clock;
pub mod contact;
pub mod dynamics;
pub mod geometry;
pub mod measures;
pub mod mesh;
pub mod scene;
pub mod sim;
pub mod solver;

#[cfg(target_arch = "wasm32")]
pub mod web;
