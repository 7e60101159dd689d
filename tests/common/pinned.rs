//! The pinned determinism hashes, declared once: `tests/solver.rs` asserts
//! that 50 Pillar steps still hash to them, and `tests/release.rs` puts
//! them into the release fingerprint that `CHANGELOG.md` records, so a
//! change of the physics is also a change of the release's numbers.
//!
//! A change of these numbers means the physics changed. Update them
//! deliberately, with a sentence in the commit saying why, and make a new
//! release (`tests/release.rs` prints what to do).

/// FNV-1a of 50 Pillar steps with every pinned method and the printed
/// solver, on cone meshes.
pub const PILLAR_HASH_CONES: u64 = 782094997673522543;
/// FNV-1a of 50 Pillar steps with every pinned method and the printed
/// solver, on TetGen meshes.
pub const PILLAR_HASH_TETGEN: u64 = 16768041197483593621;
/// The same with the accelerated solver, the default since 0.6.0.
pub const PILLAR_HASH_TETGEN_ACCELERATED: u64 = 627080772592003100;

/// Every pinned hash with its name, in a fixed order: what the release
/// fingerprint reads.
pub const ALL: [(&str, u64); 3] = [
    ("PILLAR_HASH_CONES", PILLAR_HASH_CONES),
    ("PILLAR_HASH_TETGEN", PILLAR_HASH_TETGEN),
    (
        "PILLAR_HASH_TETGEN_ACCELERATED",
        PILLAR_HASH_TETGEN_ACCELERATED,
    ),
];
