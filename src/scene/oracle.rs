//! The oracle of a scene: which contact normals are right, and how few
//! contacts an ideal method needs (`docs/design/scenes.md`, "Oracles"; paper
//! sections 5 and 5.1). It lives in the scene file, so a rotated scene file
//! carries a rotated oracle.

use glam::DVec3;

#[derive(Clone, Debug, PartialEq)]
pub enum Oracle {
    /// No oracle: quality measures do not apply.
    None,
    /// Every correct normal is ±axis (the Pillar).
    Up { axis: DVec3, min_contacts: u64 },
    /// Same layer → ±along, otherwise ±up (paper eq. 1). `layer` holds each
    /// body's layer, decided from the initial centres along `up`.
    Wall {
        up: DVec3,
        along: DVec3,
        min_contacts: u64,
        expected_area: f64,
        layer: Vec<usize>,
    },
    /// Pairs with the ground → ±up, otherwise the direction between the two
    /// current centres of mass (paper eq. 6).
    Arch {
        up: DVec3,
        ground: usize,
        min_contacts: u64,
        expected_area: f64,
    },
    /// The fundamental cases: per listed body pair, the feasible normals from
    /// body `a` to body `b`.
    Pairs { pairs: Vec<OraclePair> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct OraclePair {
    pub a: usize,
    pub b: usize,
    pub normals: Vec<DVec3>,
    pub min_contacts: u64,
}

impl Oracle {
    /// The minimal contact count of an ideal method, if the oracle knows it.
    pub fn min_contacts(&self) -> Option<u64> {
        match self {
            Oracle::None => None,
            Oracle::Up { min_contacts, .. }
            | Oracle::Wall { min_contacts, .. }
            | Oracle::Arch { min_contacts, .. } => Some(*min_contacts),
            Oracle::Pairs { pairs } => Some(pairs.iter().map(|p| p.min_contacts).sum()),
        }
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Oracle::None => "none",
            Oracle::Up { .. } => "up",
            Oracle::Wall { .. } => "wall",
            Oracle::Arch { .. } => "arch",
            Oracle::Pairs { .. } => "pairs",
        }
    }

    /// The oracle's directions, rotated with a rigid transform of the scene.
    pub fn rotate(&mut self, rotate: impl Fn(DVec3) -> DVec3) {
        match self {
            Oracle::None => {}
            Oracle::Up { axis, .. } => *axis = rotate(*axis),
            Oracle::Wall { up, along, .. } => {
                *up = rotate(*up);
                *along = rotate(*along);
            }
            Oracle::Arch { up, .. } => *up = rotate(*up),
            Oracle::Pairs { pairs } => {
                for pair in pairs {
                    for n in &mut pair.normals {
                        *n = rotate(*n);
                    }
                }
            }
        }
    }
}
