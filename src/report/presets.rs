//! Presets: one click on the page sets the scene, the settings and the step
//! of one of the paper's tables 6–8 or figures 30–34 (issue 9), and the
//! compare table then shows the paper's numbers beside ours wherever the
//! paper printed them. Each preset is a scene id, settings as link pairs
//! (the schema's URL keys), a step, and the paper's columns per method id.

use super::paper;
use crate::contact::methods_under_test;
use crate::settings;
use crate::sim::SimSettings;
use serde::Serialize;

/// The paper's values for one preset: column names and, per method id, one
/// value per column (`None` where the paper gives no number).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PaperColumns {
    pub columns: Vec<&'static str>,
    pub rows: Vec<(&'static str, Vec<Option<f64>>)>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Preset {
    pub id: String,
    pub title: String,
    /// Where in the paper, and what to look for.
    pub source: String,
    pub scene: &'static str,
    /// Settings as `[url key, text]` pairs; the others keep their defaults.
    pub settings: Vec<(&'static str, String)>,
    pub step: u64,
    /// Empty where the paper shows a figure but prints no numbers.
    pub paper: Option<PaperColumns>,
}

/// The paper's columns of `table` for every method it has, in registry
/// order.
fn columns<T>(
    names: Vec<&'static str>,
    table: &[(&'static str, T)],
    values: impl Fn(&T) -> Vec<Option<f64>>,
) -> PaperColumns {
    PaperColumns {
        columns: names,
        rows: methods_under_test()
            .filter_map(|m| paper::row(table, m.id).map(|r| (m.id, values(r))))
            .collect(),
    }
}

/// What the paper says of Closest points and Opposing on the Wall and the
/// Arch (sections 8.2 and 8.3, in words: "about 80 %").
fn wall_or_arch(cp: (f64, f64), opposing: (f64, f64)) -> PaperColumns {
    PaperColumns {
        columns: vec!["paper quality % (about)", "paper P"],
        rows: vec![
            ("closest-points", vec![Some(cp.0), Some(cp.1)]),
            ("opposing", vec![Some(opposing.0), Some(opposing.1)]),
        ],
    }
}

/// The paper's absolute envelope and erosion ε as link pairs
/// ([`SimSettings::paper`]), then `own`: every preset reproduces one of the
/// paper's tables or figures, computed with the paper's lengths.
fn paper_settings(own: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    let mut pairs: Vec<(&'static str, String)> = SimSettings::paper()
        .to_url_pairs()
        .into_iter()
        .filter(|(key, _)| settings::spec_by_url_key(key).is_some_and(|s| s.id != "method"))
        .collect();
    pairs.extend(own.iter().map(|&(key, value)| (key, value.to_string())));
    pairs
}

/// Every preset, in the picker's order: the structures, table 8's
/// fundamental cases, then the figures' variations of the Pillar.
pub fn presets() -> Vec<Preset> {
    let mut all = structure_presets();
    all.extend(table_8_presets());
    all.extend(figure_presets());
    all
}

/// The Pillar's tables 6 and 7, the Wall and the Arch.
fn structure_presets() -> Vec<Preset> {
    vec![
        Preset {
            id: "table-7".into(),
            title: "Table 7: the Pillar at step 3".into(),
            source: "Erleben 2018, table 7: quality, contacts and excess of every method".into(),
            scene: "pillar",
            settings: paper_settings(&[]),
            step: 3,
            paper: Some(columns(
                vec!["paper quality %", "paper contacts", "paper excess"],
                &paper::TABLE_7,
                |&(q, c, e)| vec![Some(q), Some(f64::from(c)), Some(e)],
            )),
        },
        Preset {
            id: "table-6".into(),
            title: "Table 6: the Pillar over 500 steps".into(),
            source: "Erleben 2018, table 6: contact counts over the first 500 steps (the paper's mean, min, max)".into(),
            scene: "pillar",
            settings: paper_settings(&[]),
            step: 500,
            paper: Some(columns(
                vec!["paper mean count", "paper min", "paper max"],
                &paper::TABLE_6,
                |&(mean, min, max, _)| vec![Some(mean), Some(f64::from(min)), Some(f64::from(max))],
            )),
        },
        Preset {
            id: "wall".into(),
            title: "Section 8.2: the Wall at step 3".into(),
            source: "Erleben 2018, section 8.2 and figures 23–25".into(),
            scene: "wall",
            settings: paper_settings(&[]),
            step: 3,
            paper: Some(wall_or_arch((80.0, 0.89), (100.0, 0.93))),
        },
        Preset {
            id: "arch".into(),
            title: "Section 8.3: the Arch at step 3".into(),
            source: "Erleben 2018, section 8.3 and figures 26–28".into(),
            scene: "arch",
            settings: paper_settings(&[]),
            step: 3,
            paper: Some(wall_or_arch((70.0, 0.64), (50.0, 0.90))),
        },
    ]
}

/// One preset per fundamental case of table 8, with the paper's column.
fn table_8_presets() -> Vec<Preset> {
    let mut all = Vec::new();
    for (c, case) in paper::TABLE_8_CASES.iter().enumerate() {
        let cell = |grid: &[(&'static str, [f64; 10])], id: &str| {
            paper::row(grid, id).map(|r| r[c]).filter(|x| !x.is_nan())
        };
        all.push(Preset {
            id: format!("table-8-{case}"),
            title: format!("Table 8: {case}"),
            source: format!("Erleben 2018, table 8, column {case}: the paper's values match our first step with contacts"),
            scene: case,
            settings: paper_settings(&[]),
            step: 1,
            paper: Some(PaperColumns {
                columns: vec!["paper coverage %", "paper quality %", "paper excess"],
                rows: methods_under_test()
                    .filter(|m| paper::row(&paper::TABLE_8_QUALITY, m.id).is_some())
                    .map(|m| {
                        (
                            m.id,
                            vec![
                                cell(&paper::TABLE_8_COVERAGE, m.id),
                                cell(&paper::TABLE_8_QUALITY, m.id),
                                cell(&paper::TABLE_8_EXCESS, m.id),
                            ],
                        )
                    })
                    .collect(),
            }),
        });
    }
    all
}

/// Figures 30–34: the Pillar perturbed, refined and at other time steps
/// (the paper prints no numbers for them).
fn figure_presets() -> Vec<Preset> {
    let mut all = Vec::new();
    for p in ["0.01", "0.02", "0.03"] {
        all.push(Preset {
            id: format!("figure-30-{p}"),
            title: format!("Figure 30: the Pillar perturbed by {p} m"),
            source: "Erleben 2018, section 8.5 and figure 30 (sorted quality under perturbation; no numbers printed)".into(),
            scene: "pillar",
            settings: paper_settings(&[("perturb", p), ("seed", "1")]),
            step: 3,
            paper: None,
        });
    }
    for r in ["1", "2"] {
        all.push(Preset {
            id: format!("figures-31-32-refine-{r}"),
            title: format!("Figures 31–32: the Pillar refined {r}×"),
            source:
                "Erleben 2018, section 8.6 and figures 31–32 (refined meshes; no numbers printed)"
                    .into(),
            scene: "pillar",
            settings: paper_settings(&[("refine", r)]),
            step: 3,
            paper: None,
        });
    }
    for h in ["0.001", "0.1"] {
        all.push(Preset {
            id: format!("figure-34-dt-{h}"),
            title: format!("Figure 34: the Pillar with h = {h} s"),
            source: "Erleben 2018, section 8.7 and figure 34 (quality at step 4 for three time steps; no numbers printed)".into(),
            scene: "pillar",
            settings: paper_settings(&[("dt", h)]),
            step: 4,
            paper: None,
        });
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::builtin::builtin_text;

    #[test]
    fn every_preset_names_a_built_in_scene_and_valid_settings() {
        let all = presets();
        assert!(all.len() >= 20);
        for p in &all {
            assert!(builtin_text(p.scene).is_some(), "{}", p.id);
            let pairs: Vec<(String, String)> = p
                .settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
            let (_, problems) = SimSettings::from_url_pairs(&pairs);
            assert!(problems.is_empty(), "{}: {problems:?}", p.id);
            if let Some(paper) = &p.paper {
                for (_, values) in &paper.rows {
                    assert_eq!(values.len(), paper.columns.len(), "{}", p.id);
                }
            }
        }
        let ids: std::collections::BTreeSet<&str> = all.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids.len(), all.len(), "preset ids are unique");
    }

    #[test]
    fn table_7_carries_the_paper_s_opposing_row() {
        let table_7 = presets().into_iter().find(|p| p.id == "table-7").unwrap();
        let paper = table_7.paper.unwrap();
        let opposing = paper.rows.iter().find(|(id, _)| *id == "opposing").unwrap();
        assert_eq!(opposing.1, vec![Some(91.6), Some(214.0), Some(5.3)]);
    }
}
