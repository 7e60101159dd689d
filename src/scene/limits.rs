//! What a scene file may hold: sizes, coordinates and counts beyond which a
//! scene is refused up front with a message that names the limit, rather
//! than loaded into a run that takes minutes, allocates gigabytes or
//! overflows. The README's "Scene files" section lists them; a test keeps
//! the two in step.
//!
//! The lengths here stay absolute although the defaults that decide
//! contacts follow the bodies' size: a limit refuses a scene, it never
//! changes the contacts of one it accepts (the shipped scenes scaled by 0.1
//! and 10 stay within them: `tests/scale_invariance.rs`).

/// Largest |coordinate| of any vertex of any body, metres (100 km): far
/// beyond any scene of stones, far below where f64 loses the millimetre.
pub const MAX_COORDINATE: f64 = 1e5;
/// Smallest and largest size of a body (its bounding-box diagonal), metres.
pub const MIN_BODY_SIZE: f64 = 1e-3;
pub const MAX_BODY_SIZE: f64 = 1e5;
/// Largest scene file, bytes (500 bodies of 2 000-vertex meshes fit many
/// times over); a larger one is refused before it is read.
pub const MAX_SCENE_FILE_BYTES: u64 = 64_000_000;
/// Most bodies in a scene.
pub const MAX_BODIES: usize = 500;
/// Most points of one shape: the vertices of a `mesh`, `tetmesh` or
/// `sphere`, the points of a `prism` profile (its triangulation costs their
/// square). Declared with the shape types, which read them.
pub use crate::mesh::shapes::{prism::MAX_PROFILE_POINTS, MAX_SHAPE_VERTICES};
/// Most tetrahedra in the whole scene after refinement.
pub const MAX_TETRAHEDRA: usize = 1_000_000;
/// Density range, kg/m³ (air is 1.2, osmium 22 590).
pub const MIN_DENSITY: f64 = 1e-3;
pub const MAX_DENSITY: f64 = 1e6;
/// Largest gravity, m/s² (a hundred times Jupiter's).
pub const MAX_GRAVITY: f64 = 2.5e3;
/// Largest initial speed (m/s) and spin (rad/s).
pub const MAX_SPEED: f64 = 1e4;
pub const MAX_SPIN: f64 = 1e4;
/// Largest friction coefficient of a body pair (`friction_pairs`): far
/// beyond any real material, enough for "no slip" (Cheng Yi & Drumwright's benchmarks).
pub const MAX_PAIR_FRICTION: f64 = 100.0;
/// Smallest `oracle.expected_area`, m².
pub const MIN_EXPECTED_AREA: f64 = 1e-8;

/// The limits as "name: value" lines, for documentation and its test.
pub fn described() -> Vec<String> {
    vec![
        format!(
            "scene file: at most {} MB",
            MAX_SCENE_FILE_BYTES / 1_000_000
        ),
        format!("coordinates: within ±{MAX_COORDINATE} m"),
        format!("body size (bounding-box diagonal): {MIN_BODY_SIZE} m to {MAX_BODY_SIZE} m"),
        format!("bodies: at most {MAX_BODIES}"),
        format!("vertices of one mesh, tetmesh or sphere: at most {MAX_SHAPE_VERTICES}"),
        format!("points of one prism profile: at most {MAX_PROFILE_POINTS}"),
        format!("tetrahedra in the scene after refinement: at most {MAX_TETRAHEDRA}"),
        format!("density: {MIN_DENSITY} to {MAX_DENSITY} kg/m³"),
        format!("gravity: at most {MAX_GRAVITY} m/s²"),
        format!("initial speed: at most {MAX_SPEED} m/s; spin: at most {MAX_SPIN} rad/s"),
        format!("friction_pairs friction: 0 to {MAX_PAIR_FRICTION}"),
        format!("oracle.expected_area: at least {MIN_EXPECTED_AREA} m²"),
    ]
}
