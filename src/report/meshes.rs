//! `contactlab table meshes`: the tetrahedra of every built-in scene's
//! bodies on the paper's TetGen meshes and on cone meshes, from the scene
//! registry and the meshes as loaded (no number is copied).

use super::text_table::{Progress, Table};
use crate::mesh::stats::MeshStats;
use crate::mesh::Mesher;
use crate::scene::builtin::{builtin_ids, load_builtin};
use crate::scene::{LoadOptions, Scene, SceneError};

/// A body's name without its trailing index parts ("brick-3-7" → "brick",
/// "pier-left-0" → "pier-left"): bodies of one family share a row.
fn family(name: &str) -> &str {
    let mut rest = name;
    while let Some((head, tail)) = rest.rsplit_once('-') {
        if tail.is_empty() || !tail.chars().all(|c| c.is_ascii_digit()) {
            break;
        }
        rest = head;
    }
    rest
}

/// Scenes with more bodies than this are summarised by family.
const SUMMARISE_ABOVE: usize = 20;

/// "6" when every value is 6, "6–7" when they range.
fn span(values: &[usize]) -> String {
    let lo = values.iter().min().copied().unwrap_or(0);
    let hi = values.iter().max().copied().unwrap_or(0);
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    }
}

fn load(id: &str, mesher: Mesher) -> Result<Scene, SceneError> {
    load_builtin(
        id,
        &LoadOptions {
            mesher: Some(mesher),
            ..LoadOptions::default()
        },
    )
}

/// One row per body (per family of bodies in the Wall) of each built-in scene: how many bodies,
/// the tetrahedra of one body on TetGen meshes (and how many of them have
/// 1, 2 and 3 surface faces, summed over the family) and on cone meshes.
pub fn meshes_table(progress: Progress) -> Result<Table, SceneError> {
    let ids: Vec<&str> = builtin_ids().collect();
    let mut rows = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        progress(id, i, ids.len());
        let tetgen = load(id, Mesher::TetGen)?;
        let cones = load(id, Mesher::Cones)?;
        // A scene of many bodies (the Wall) gets one row per family, in
        // the order their first body appears in the file; the others one
        // row per body.
        let summarise = tetgen.bodies.len() > SUMMARISE_ABOVE;
        let key = |name: &str| -> String {
            if summarise {
                family(name).to_string()
            } else {
                name.to_string()
            }
        };
        let mut families: Vec<String> = Vec::new();
        for body in &tetgen.bodies {
            let f = key(&body.name);
            if !families.contains(&f) {
                families.push(f);
            }
        }
        for f in families {
            let members: Vec<usize> = (0..tetgen.bodies.len())
                .filter(|&b| key(&tetgen.bodies[b].name) == f)
                .collect();
            let stats: Vec<MeshStats> = members
                .iter()
                .map(|&b| MeshStats::of(&tetgen.bodies[b].mesh))
                .collect();
            let used: Vec<&str> = members
                .iter()
                .map(|&b| tetgen.bodies[b].mesher.map_or("given", Mesher::id))
                .collect();
            let tets: Vec<usize> = stats.iter().map(|s| s.tetrahedra).collect();
            let mut by_faces = [0; 3];
            for s in &stats {
                for (sum, n) in by_faces.iter_mut().zip(s.tets_by_surface_faces) {
                    *sum += n;
                }
            }
            let interior = tets.iter().sum::<usize>() - by_faces.iter().sum::<usize>();
            let cone_tets: Vec<usize> = members
                .iter()
                .map(|&b| cones.bodies[b].mesh.tets.len())
                .collect();
            let name = if members.len() == 1 {
                f.clone()
            } else {
                format!("{f} ×{}", members.len())
            };
            let mesher = if used.iter().all(|&m| m == "tetgen") {
                String::new()
            } else {
                format!(" ({})", used.join(", "))
            };
            rows.push(vec![
                format!("`{id}`"),
                name,
                format!("{}{mesher}", span(&tets)),
                format!(
                    "{} / {} / {} / {}",
                    interior, by_faces[0], by_faces[1], by_faces[2]
                ),
                span(&cone_tets),
            ]);
        }
    }
    progress("", ids.len(), ids.len());
    Ok(Table {
        title: "Tetrahedra per body".to_string(),
        notes: vec![
            "Per body (in a scene of more than 20 bodies, the Wall, a family of bodies shares a row, ×n): \
             the tetrahedra of the committed TetGen mesh (`-pq2.0Y`, the default), how many \
             tetrahedra of the family have 0, 1, 2 and 3 surface faces, and the tetrahedra \
             of the cone mesh (one per surface triangle, each with one surface face). \
             `contactlab mesh <scene> [--mesher M]` prints one body at a time."
                .to_string(),
        ],
        headers: vec![
            "scene".into(),
            "body".into(),
            "TetGen tetrahedra".into(),
            "with 0 / 1 / 2 / 3 surface faces".into(),
            "cone tetrahedra".into(),
        ],
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_drop_trailing_indices() {
        assert_eq!(family("brick-3-7"), "brick");
        assert_eq!(family("pier-left-0"), "pier-left");
        assert_eq!(family("shaft-1"), "shaft");
        assert_eq!(family("flipped-spike"), "flipped-spike");
        assert_eq!(family("ground"), "ground");
    }
}
