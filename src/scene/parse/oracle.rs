//! The `oracle` object of a scene file (`docs/design/scenes.md`, "Oracles"),
//! parsed against the bodies already read, so that it can name them.

use crate::mesh::shapes::reader::ObjectReader;
use crate::scene::limits;
use crate::scene::oracle::{Oracle, OraclePair};
use crate::scene::types::Scene;
use glam::DVec3;
use serde_json::Value;

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
                expected_area: expected_area(&mut o)?,
                layer,
            }
        }
        "arch" => Oracle::Arch {
            up: o.direction("up")?,
            ground: body_by_name(&mut o, "ground", scene)?,
            min_contacts: o.whole_number("min_contacts", 0, u32::MAX as u64)?,
            expected_area: expected_area(&mut o)?,
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

/// `expected_area`, at least [`limits::MIN_EXPECTED_AREA`]: P divides by it.
fn expected_area(o: &mut ObjectReader<'_>) -> Result<f64, String> {
    let area = o.positive("expected_area")?;
    if area < limits::MIN_EXPECTED_AREA {
        return Err(format!(
            "{}: must be at least {} m², got {area:e}",
            o.key_path("expected_area"),
            limits::MIN_EXPECTED_AREA
        ));
    }
    Ok(area)
}
