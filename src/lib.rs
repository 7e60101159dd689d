//! ContactLab: assess mesh-based contact point methods, after Erleben,
//! "Methodology for Assessing Mesh-Based Contact Point Methods" (ACM TOG
//! 37(3), 2018).
//!
//! The core is plain Rust on f64 (`glam::DVec3`). The same code runs in the
//! `contactlab` CLI and, compiled to WebAssembly, in the browser playground.
//!
//! Conventions, used everywhere (`docs/design/conventions.md`): SI units; y
//! is up in the scene files only, code takes "up" from the scene; a contact
//! between A and B has its normal pointing from A towards B and a signed
//! depth (0 touching, > 0 separated, < 0 penetrating).
//!
//! Module map, lowest layer first; each uses only those above it (a test,
//! `tests/layers.rs`, keeps it so):
//! - [`clock`]: a millisecond clock that works natively and in wasm.
//! - [`geometry`]: closest points, planar hulls, small linear algebra.
//! - [`settings`]: the settings schema (ids, ranges, defaults, flags, URL keys).
//! - [`mesh`]: `TetMesh`, surface classification, shapes, refinement,
//!   erosion, mass properties.
//! - [`scene`]: the scene types, the file parser, perturbation, oracles.
//! - [`export`]: the scene at a pose written for other simulators (OBJ,
//!   MuJoCo's MJCF, URDF for PyBullet) and as our own scene file.
//! - [`contact`]: contacts, the broad phase, the method registry and the
//!   methods, the exact contact regions. Nothing here reads the oracle.
//! - [`contact_file`]: contacts from outside (`contactlab-contacts/1`),
//!   read and written, and the poses files that go with them.
//! - [`dynamics`]: rigid-body state and the Moreau stepper.
//! - [`engines`]: the engines people ship (Jolt, PhysX, MuJoCo, Rapier,
//!   Bullet): their registry and the contacts their adapters hand in.
//! - [`solver`]: the proximal Gauss-Seidel contact solver.
//! - [`measures`]: the paper's quality measures of one step, and the
//!   `reference` contacts (the exact regions carried with the bodies, with
//!   the oracle's normals where a region has none).
//! - [`sim`]: `Simulation`, the one API the CLI and the page share.
//! - [`report`]: the paper's tables and numbers, beside ours.
//! - `web` (wasm32 only) and the `contactlab` binary: translation only.

/// A text of a registry entry that only its help shows (a method's or an
/// engine's paragraph, its sources): the text in builds with the cargo
/// feature `help-texts` (the CLI, the tests, the page's full module); empty
/// in the page's lean module, whose help dialog reads the same texts from
/// `pkg/help.json`, which the build writes from the registries
/// (`xtask/src/wasm.rs`), so that the default page does not carry them
/// (docs/design/page.md, the size budget).
macro_rules! help_text {
    ($text:literal) => {
        if cfg!(feature = "help-texts") {
            $text
        } else {
            ""
        }
    };
}

pub mod clock;
pub mod contact;
pub mod contact_file;
pub mod dynamics;
pub mod engines;
pub mod export;
pub mod geometry;
pub mod measures;
pub mod mesh;
pub mod number_text;
pub mod report;
pub mod scene;
pub mod settings;
pub mod sim;
pub mod solver;

#[cfg(target_arch = "wasm32")]
pub mod web;
