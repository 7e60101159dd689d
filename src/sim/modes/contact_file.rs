//! A contact file (`contact_file`) as a run's mode. Without poses its step
//! k's contacts are the contacts of the run's step k, found (by someone
//! else) at the step's midpoint poses, and the solver steps with them: the
//! file is the method. With poses, no step is taken: each step of the file
//! is played back, measured at its own poses.

use super::{poses_of, Detection, Frame, Next, RunMode};
use crate::contact::ContactSet;
use crate::contact_file::ContactFile;
use crate::dynamics::RigidBody;
use crate::sim::SimError;

/// A contact file's run.
pub(in crate::sim) struct ContactFileRun(Box<ContactFile>);

impl ContactFileRun {
    pub(in crate::sim) fn new(file: ContactFile) -> ContactFileRun {
        ContactFileRun(Box::new(file))
    }

    /// The end of the file, as the error that stops the run.
    fn ended(&self) -> SimError {
        SimError::FileEnded {
            file: self.0.name.clone(),
            last_step: self.0.last_step(),
        }
    }
}

impl RunMode for ContactFileRun {
    /// The file's step 0, if it has one: at the file's poses for it, or
    /// where the scene puts the bodies.
    fn start(&mut self, _bodies: &[RigidBody]) -> Result<Option<Frame>, SimError> {
        let file = &self.0;
        let poses = file.poses.as_ref().and_then(|p| p.get(&0)).cloned();
        if !file.covers(0) && poses.is_none() {
            return Ok(None);
        }
        Ok(Some(Frame {
            step: 0,
            poses,
            contacts: file.contacts_at(0).to_vec(),
        }))
    }

    /// With poses, the file's next measured step; without, a dynamics step
    /// while the file has contacts for it.
    fn next(&mut self, taken: u64, bodies: &[RigidBody]) -> Result<Next, SimError> {
        let file = &self.0;
        let Some(poses) = &file.poses else {
            return match taken >= file.last_step() {
                true => Err(self.ended()),
                false => Ok(Next::Dynamics),
            };
        };
        let Some(next) = file.measured_steps().into_iter().find(|s| *s > taken) else {
            return Err(self.ended());
        };
        // `attach_poses` refuses a step with contacts and no poses; a
        // step measured has poses.
        let at = poses
            .get(&next)
            .cloned()
            .unwrap_or_else(|| poses_of(bodies));
        Ok(Next::Frame(Frame {
            step: next,
            poses: Some(at),
            contacts: file.contacts_at(next).to_vec(),
        }))
    }

    fn detect(&mut self, at: &Detection) -> ContactSet {
        ContactSet {
            contacts: self.0.contacts_at(at.step).to_vec(),
            ..ContactSet::default()
        }
    }

    fn contact_file(&self) -> Option<&ContactFile> {
        Some(&self.0)
    }
}
