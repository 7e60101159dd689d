//! Other engines' contacts in the tables: the contact files that
//! `cargo xtask engines` records with MuJoCo and PyBullet
//! (`tools/engine_contacts.py`, `docs/design/export.md`) on every built-in
//! scene — their contacts at the initial pose (step 0) and after 3 of their
//! own steps, with their poses — scored as `contactlab score` scores them,
//! as rows beside the methods'.

use crate::contact_file::{read_contacts, read_poses, Warnings};
use crate::measures::StepMeasures;
use crate::scene::builtin::load_builtin;
use crate::sim::{SimError, SimSettings, Simulation};
use std::path::{Path, PathBuf};

/// One engine's recorded contacts: `DIR/<engine>/<scene>.csv` and the
/// poses file each names.
#[derive(Clone, Debug)]
pub struct EngineContacts {
    /// The engine and its version, as the files say ("MuJoCo 4.0.0").
    pub label: String,
    dir: PathBuf,
}

/// The engines recorded under `dir` (one folder each, in name order); none
/// when `dir` does not exist.
pub fn recorded_engines(dir: &Path) -> Result<Vec<EngineContacts>, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut folders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut engines = Vec::new();
    for folder in folders {
        // The label from the first file's `# engine:` comment.
        let first = std::fs::read_dir(&folder)
            .map_err(|e| format!("{}: {e}", folder.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|x| x == "csv")
                    && !p.to_string_lossy().ends_with("-poses.csv")
            })
            .min();
        let Some(first) = first else { continue };
        let text =
            std::fs::read_to_string(&first).map_err(|e| format!("{}: {e}", first.display()))?;
        let label = text
            .lines()
            .find_map(|l| l.strip_prefix("# engine:"))
            .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
            .filter(|l| !l.is_empty())
            .ok_or_else(|| {
                format!(
                    "{}: no \"# engine:\" comment naming the engine",
                    first.display()
                )
            })?;
        engines.push(EngineContacts { label, dir: folder });
    }
    Ok(engines)
}

impl EngineContacts {
    /// The engine's contacts on `scene` at `step` (0 or 3), measured at its
    /// own poses with `base`'s measure settings: `None` when it recorded
    /// nothing for that scene or step.
    pub fn measures(
        &self,
        scene: &str,
        step: u64,
        base: &SimSettings,
    ) -> Result<Option<StepMeasures>, String> {
        let path = self.dir.join(format!("{scene}.csv"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(None);
        };
        let shown = path.display().to_string();
        let options = base.load_options().map_err(|e| e.to_string())?;
        let loaded = load_builtin(scene, &options).map_err(|e| e.to_string())?;
        let mut file = read_contacts(&shown, &text, &loaded).map_err(|e| e.to_string())?;
        if let Some(poses_name) = file.poses_file.clone() {
            let poses_path = self.dir.join(&poses_name);
            let poses_text = std::fs::read_to_string(&poses_path)
                .map_err(|e| format!("{}: {e}", poses_path.display()))?;
            let poses = read_poses(
                &poses_path.display().to_string(),
                &poses_text,
                &loaded,
                &mut Warnings::default(),
            )
            .map_err(|e| e.to_string())?;
            file.attach_poses(poses, &poses_name)
                .map_err(|e| e.to_string())?;
        }
        let mut sim =
            Simulation::with_contact_file(loaded, base.clone(), file).map_err(|e| e.to_string())?;
        if step == 0 {
            return Ok(sim.start_record().map(|r| r.measures.clone()));
        }
        loop {
            match sim.step() {
                Ok(r) if r.step == step => return Ok(Some(r.measures)),
                Ok(r) if r.step > step => return Ok(None),
                Ok(_) => {}
                // The file ends before `step`.
                Err(SimError::FileEnded { .. }) => return Ok(None),
                Err(e) => return Err(e.to_string()),
            }
        }
    }
}
