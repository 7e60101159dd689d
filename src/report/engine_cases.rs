//! `contactlab table engines`: every engine of the registry on every
//! built-in scene at its initial pose (`docs/engines.md`). One collision
//! pass with every body where the scene puts it — the contacts our
//! simulation's first step would get at our pose — judged by the
//! geometric oracle, with the paper's envelope, as the initial-pose tables
//! judge the methods; and a link that shows the case in the page.

use super::contestants::{initial_pose_row, Contestant, Contestants};
use super::text_table::{Progress, Table};
use crate::engines::ENGINES;
use crate::scene::builtin::BUILTIN_SCENES;
use crate::settings::SettingError;
use crate::sim::{SimError, SimSettings};
use std::collections::BTreeSet;

/// The table; an error when the engines cannot run here (no runner).
pub fn engine_cases_table(
    base: &SimSettings,
    contestants: &Contestants,
    progress: Progress,
) -> Result<Table, SimError> {
    let Some(runner) = contestants.runner else {
        return Err(SimError::Setting(SettingError {
            id: "table",
            message: "the engines table runs the engines' adapters, which this run leaves out (--no-engines)".to_string(),
        }));
    };
    let total = BUILTIN_SCENES.len() * ENGINES.len();
    let mut rows = Vec::with_capacity(total);
    for builtin in BUILTIN_SCENES {
        for engine in ENGINES {
            progress(
                &format!("{} / {}", builtin.id, engine.id),
                rows.len(),
                total,
            );
            let row = initial_pose_row(builtin.id, Contestant::Engine(engine), base, Some(runner))
                .map_err(|e| SimError::Scene(e.to_string()))?;
            let pairs: BTreeSet<(usize, usize)> = row
                .contacts
                .iter()
                .map(|c| (c.a.min(c.b), c.a.max(c.b)))
                .collect();
            let deepest = row.contacts.iter().map(|c| c.depth).reduce(f64::min);
            let m = &row.measures;
            rows.push(vec![
                format!("`{}`", builtin.id),
                engine.name.to_string(),
                m.count.to_string(),
                pairs.len().to_string(),
                (m.geo_right + m.geo_indeterminate_right).to_string(),
                m.geo_wrong.to_string(),
                m.geo_quality.map_or("—".to_string(), |q| format!("{q:.1}")),
                deepest.map_or("—".to_string(), |d| format!("{:.3}", d * 1e3)),
                format!("`#scene={}&method={}&step=1`", builtin.id, engine.id),
            ]);
        }
    }
    progress("done", total, total);
    Ok(Table {
        title: "Every engine on every scene at the initial pose".to_string(),
        notes: vec![
            "One collision pass of each engine with every body at the scene's pose, judged by the geometric oracle: right normals (those it rules right, and those within the feasible cone where it cannot rule on one normal), wrong normals (a contact between bodies it finds apart is neither), quality % of the judged ones, the deepest depth the engine reports in millimetres (negative: overlap), and the link that shows the case.".to_string(),
            format!(
                "Engines: {}.",
                ENGINES.iter().map(|e| e.label()).collect::<Vec<_>>().join(", ")
            ),
        ],
        headers: [
            "scene", "engine", "contacts", "body pairs", "right", "wrong", "quality %",
            "deepest mm", "link",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    })
}
