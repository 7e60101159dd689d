//! Fixtures shared by several test files (each test file is its own crate,
//! so not every file uses every fixture).
#![allow(dead_code)]

use contactlab::mesh::{Mesher, TetMesh};
use contactlab::scene::builtin::load_builtin;
use contactlab::scene::{LoadOptions, Scene};
use glam::DVec3;

/// A built-in scene meshed by `mesher`.
pub fn load_meshed_by(id: &str, mesher: Mesher) -> Scene {
    load_builtin(
        id,
        &LoadOptions {
            mesher: Some(mesher),
            ..LoadOptions::default()
        },
    )
    .unwrap()
}

/// A body made of one tetrahedron, however degenerate (no validation).
pub fn raw_body(corners: [DVec3; 4]) -> TetMesh {
    TetMesh::without_validation(corners.to_vec(), vec![[0, 1, 2, 3]], 1e-6).unwrap()
}

/// The unit tetrahedron, a well-formed partner for the degenerate ones.
pub const UNIT_TET: [DVec3; 4] = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];

/// Tetrahedra no valid mesh contains, which a method must survive without
/// panicking or hanging: flat, a needle, a point, inverted, coincident with
/// the unit one.
pub fn degenerate_tetrahedra() -> Vec<(&'static str, [DVec3; 4])> {
    vec![
        (
            "flat",
            [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0)],
        ),
        (
            "needle",
            [
                DVec3::ZERO,
                DVec3::new(1e-12, 0.0, 0.0),
                DVec3::new(0.0, 1e-12, 0.0),
                DVec3::new(0.0, 0.0, 2.0),
            ],
        ),
        ("point", [DVec3::splat(0.2); 4]),
        ("inverted", [DVec3::ZERO, DVec3::Y, DVec3::X, DVec3::Z]),
        ("coincident", UNIT_TET),
    ]
}
