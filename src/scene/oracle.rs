//! The oracle of a scene: which contact normals are right, and how few
//! contacts an ideal method needs (design `scenes.md`, "Oracles"; paper
//! sections 5 and 5.1). It lives in the scene file, so a rotated scene file
//! carries a rotated oracle.

use super::file::Scene;
use super::reader::ObjectReader;
use glam::DVec3;
use serde_json::Value;

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

fn body_by_name(
    o: &mut ObjectReader<'_>,
    key: &'static str,
    scene: &Scene,
) -> Result<usize, String> {
    let name = o.string(key)?;
    scene
        .body_index(&name)
        .ok_or_else(|| format!("{}: no body is named \"{name}\"", o.key_path(key)))
}

pub(crate) fn parse_oracle(value: &Value, scene: &Scene) -> Result<Oracle, String> {
    let mut o = ObjectReader::new("oracle", value)?;
    let kind = o.string("type")?;
    let oracle = match kind.as_str() {
        "up" => Oracle::Up {
            axis: o.direction("axis")?,
            min_contacts: o.whole_number("min_contacts", 0, u32::MAX as u64)?,
        },
        "wall" => {
            let up = o.direction("up")?;
            let along = o.direction("along")?;
            if up.dot(along).abs() > 1e-9 {
                return Err("oracle.along: must be orthogonal to oracle.up".to_string());
            }
            let layer = layers_along(scene, up);
            Oracle::Wall {
                up,
                along,
                min_contacts: o.whole_number("min_contacts", 0, u32::MAX as u64)?,
                expected_area: o.positive("expected_area")?,
                layer,
            }
        }
        "arch" => Oracle::Arch {
            up: o.direction("up")?,
            ground: body_by_name(&mut o, "ground", scene)?,
            min_contacts: o.whole_number("min_contacts", 0, u32::MAX as u64)?,
            expected_area: o.positive("expected_area")?,
        },
        "pairs" => {
            let items = o.array("pairs")?;
            if items.is_empty() {
                return Err("oracle.pairs: lists no pairs".to_string());
            }
            let mut pairs = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let mut p = ObjectReader::new(format!("oracle.pairs[{i}]"), item)?;
                let a = body_by_name(&mut p, "a", scene)?;
                let b = body_by_name(&mut p, "b", scene)?;
                if a == b {
                    return Err(format!("oracle.pairs[{i}]: a and b name the same body"));
                }
                let normal_values = p.array("normals")?;
                if normal_values.is_empty() {
                    return Err(format!("oracle.pairs[{i}].normals: lists no normals"));
                }
                let normals = normal_values
                    .iter()
                    .enumerate()
                    .map(|(k, v)| p.direction_value(&format!("normals[{k}]"), v))
                    .collect::<Result<Vec<_>, _>>()?;
                let min_contacts = p.whole_number("min_contacts", 0, u32::MAX as u64)?;
                p.finish()?;
                pairs.push(OraclePair {
                    a,
                    b,
                    normals,
                    min_contacts,
                });
            }
            Oracle::Pairs { pairs }
        }
        other => {
            return Err(format!(
            "oracle.type: unknown oracle type \"{other}\" (expected one of: up, wall, arch, pairs)"
        ))
        }
    };
    o.finish()?;
    Ok(oracle)
}

/// Layer index of every body: bodies whose initial centres lie at the same
/// height along `up` (within a millionth of the scene size) share a layer;
/// layers are numbered from the bottom.
fn layers_along(scene: &Scene, up: DVec3) -> Vec<usize> {
    let tol = 1e-6 * scene.size();
    let heights: Vec<f64> = scene.bodies.iter().map(|b| b.position.dot(up)).collect();
    let mut sorted = heights.clone();
    sorted.sort_by(f64::total_cmp);
    let mut levels: Vec<f64> = Vec::new();
    for h in sorted {
        if levels.last().is_none_or(|&l| h - l > tol) {
            levels.push(h);
        }
    }
    heights
        .iter()
        .map(|h| {
            levels
                .iter()
                .position(|l| (h - l).abs() <= tol)
                .unwrap_or(0)
        })
        .collect()
}
