//! The page's contact files (`docs/design/contact-files.md`): a visitor's
//! `contactlab-contacts/1` file, and the poses file it names, played in
//! place of a method. Translation only: the core reads the files
//! (`contact_file`) and runs them (`Simulation::with_contact_file`). Built
//! into the full module only (cargo feature `contact-files`): the reader
//! would weigh on every default page load, and the worker fetches the full
//! module when a contact file is opened.

use super::{plotted_record, to_js, Playground};
use crate::contact_file::{read_contacts, read_poses, ContactFile, Warnings};
use crate::scene::{load_scene, Scene};
use crate::sim::Simulation;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A contact file the page opened (and the poses file with it), as text:
/// kept to attach again, and to pack into a link.
#[derive(Clone)]
pub(super) struct ContactFileText {
    name: String,
    text: String,
    poses: Option<(String, String)>,
}

/// What the page shows of a contact file it opened.
#[derive(Serialize)]
struct ContactFileSummary<'a> {
    name: &'a str,
    rows: usize,
    /// Steps with contacts.
    steps_with_contacts: usize,
    last_step: u64,
    /// Measured at its own poses (a poses file came with it).
    posed: bool,
    poses_file: Option<&'a str>,
    warnings: Vec<String>,
}

/// Reads a contact file (and its poses file) against `scene`.
fn read_contact_file(scene: &Scene, file: &ContactFileText) -> Result<ContactFile, JsError> {
    let mut contacts =
        read_contacts(&file.name, &file.text, scene).map_err(|e| JsError::new(&e.to_string()))?;
    match (&contacts.poses_file, &file.poses) {
        (None, None) => {}
        (Some(named), None) => {
            return Err(JsError::new(&format!(
                "{}: its \"# poses: {named}\" comment names a poses file; open or drop both files together",
                file.name
            )))
        }
        (_, Some((poses_name, poses_text))) => {
            let mut warnings = Warnings::default();
            let poses = read_poses(poses_name, poses_text, scene, &mut warnings)
                .map_err(|e| JsError::new(&e.to_string()))?;
            contacts
                .attach_poses(poses, poses_name)
                .map_err(|e| JsError::new(&e.to_string()))?;
            contacts.warnings.normalised_rotations += warnings.normalised_rotations;
        }
    }
    Ok(contacts)
}

#[wasm_bindgen]
impl Playground {
    /// Makes a contact file (`contactlab-contacts/1`, CSV or JSON Lines)
    /// the loaded scene's contacts, in place of the method, from step 0,
    /// with the current settings: what `contactlab score` measures. A file
    /// with a `# poses:` comment needs that poses file too (`posesText`,
    /// `posesName`). Returns a summary (name, rows, steps, warnings); the
    /// step-0 record, when the file has one, is `record()`. On failure
    /// (the message names the file, line and column) the previous state
    /// stays. Loading a scene drops the file.
    #[wasm_bindgen(js_name = loadContactFile)]
    pub fn load_contact_file(
        &mut self,
        text: &str,
        name: &str,
        poses_text: Option<String>,
        poses_name: Option<String>,
    ) -> Result<JsValue, JsError> {
        let file = ContactFileText {
            name: name.to_string(),
            text: text.to_string(),
            poses: poses_text.map(|t| (poses_name.unwrap_or_else(|| "poses file".to_string()), t)),
        };
        let sim = self.contact_file_run(&file)?;
        self.last = sim.start_record().cloned();
        self.sim = Some(sim);
        self.contact_file = Some(file);
        self.contact_file_summary()
    }

    /// The open contact file's summary (see `loadContactFile`); null when
    /// the run's contacts are a method's.
    #[wasm_bindgen(js_name = contactFileSummary)]
    pub fn contact_file_summary(&self) -> Result<JsValue, JsError> {
        let Some(file) = self.sim()?.contact_file() else {
            return Ok(JsValue::NULL);
        };
        let mut warnings = file.warnings.messages(&file.name);
        if let Some((poses_name, _)) = self.contact_file.as_ref().and_then(|f| f.poses.as_ref()) {
            if file.warnings.normalised_rotations > 0 {
                warnings.push(format!("(rotations: {poses_name})"));
            }
        }
        to_js(&ContactFileSummary {
            name: &file.name,
            rows: file.rows,
            steps_with_contacts: file.steps.len(),
            last_step: file.last_step(),
            posed: file.poses.is_some(),
            poses_file: file.poses_file.as_deref(),
            warnings,
        })
    }
}

/// The compare table's id of the open contact file's row (not a method id:
/// those have no spaces).
pub(super) const IMPORTED: &str = "contact file";

impl Playground {
    /// A run of the loaded scene, with the current settings, whose contacts
    /// are `file`'s, from step 0.
    fn contact_file_run(&self, file: &ContactFileText) -> Result<Simulation, JsError> {
        let settings = self.sim()?.settings().clone();
        let options = settings
            .load_options()
            .map_err(|e| JsError::new(&e.to_string()))?;
        let scene = load_scene(&self.source, &self.text, &options)
            .map_err(|e| JsError::new(&e.to_string()))?;
        let contacts = read_contact_file(&scene, file)?;
        Simulation::with_contact_file(scene, settings, contacts)
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// The open contact file's compare row: its run from the start to
    /// `steps`, or to the file's last step if that is sooner (step 0's
    /// record for a file of step 0 only).
    pub(super) fn compare_contact_file(&self, steps: u32) -> Result<JsValue, JsError> {
        let file = self
            .contact_file
            .as_ref()
            .ok_or_else(|| JsError::new("no contact file is open"))?;
        let mut sim = self.contact_file_run(file)?;
        let last_step = sim.contact_file().map_or(0, |f| f.last_step());
        let mut record = sim.start_record().cloned();
        let target = u64::from(steps).min(last_step);
        while sim.step_index() < target || record.is_none() {
            let r = sim.step().map_err(|e| JsError::new(&e.to_string()))?;
            let diverged = r.diverged.is_some();
            record = Some(r);
            if diverged {
                break;
            }
        }
        match record {
            Some(r) => plotted_record(&r),
            None => Err(JsError::new("the contact file has no steps")),
        }
    }
}
