//! How a run advances and where its contacts come from: one
//! implementation of [`RunMode`] per mode, each in a file of its own, so a
//! new mode is one file. A mode either supplies contacts to a dynamics
//! step (a method, the reference, a contact file without poses, an engine
//! at our poses) or plays back frames it was given (a contact file with
//! its own poses, an engine's own run).

mod contact_file;
mod engine;
mod method;
mod reference;

pub(super) use contact_file::ContactFileRun;
pub(super) use engine::EngineRun;
pub use engine::EngineRunner;
pub(super) use method::MethodRun;
pub(super) use reference::ReferenceRun;

use super::SimError;
use crate::contact::{BodyAtPose, Contact, ContactSet, MethodParams};
use crate::contact_file::ContactFile;
use crate::dynamics::stepper::Pose;
use crate::dynamics::RigidBody;
use crate::engines::{EngineInfo, EngineMode};

/// A step measured where it was given, with no dynamics step taken.
pub(super) struct Frame {
    /// The step it is recorded as.
    pub step: u64,
    /// Where the bodies are put, at rest; `None`: measured where the bodies
    /// are, which stay as they are.
    pub poses: Option<Vec<Pose>>,
    pub contacts: Vec<Contact>,
}

/// What the next step of a run is.
pub(super) enum Next {
    /// A dynamics step, with the contacts of [`RunMode::detect`].
    Dynamics,
    /// A frame played back.
    Frame(Frame),
}

/// What a mode's detection is handed: the bodies at the step's midpoint.
pub(super) struct Detection<'a> {
    /// The step being taken.
    pub step: u64,
    /// The bodies at the midpoint poses, moving at the velocities the step
    /// starts with (what the region methods read).
    pub bodies: &'a [BodyAtPose<'a>],
    pub poses: &'a [Pose],
    pub params: &'a MethodParams,
}

/// A mode of a run: what its next step is, and its contacts at a dynamics
/// step's midpoint.
pub(super) trait RunMode {
    /// The frame of step 0, when the mode measures one at the start.
    fn start(&mut self, _bodies: &[RigidBody]) -> Result<Option<Frame>, SimError> {
        Ok(None)
    }

    /// What the step after step `taken` is, with the bodies where they are
    /// now; an error ends the run there.
    fn next(&mut self, _taken: u64, _bodies: &[RigidBody]) -> Result<Next, SimError> {
        Ok(Next::Dynamics)
    }

    /// The contacts of a dynamics step. A detection past its budget comes
    /// back as an empty set that says so, and the step is refused.
    fn detect(&mut self, at: &Detection) -> ContactSet;

    /// Whether a detection can fail in a way [`Self::take_failure`]
    /// reports (the step then keeps a copy of what it must restore).
    fn may_fail(&self) -> bool {
        false
    }

    /// The first failure of the last detection, if any; the step is then
    /// undone.
    fn take_failure(&mut self) -> Option<String> {
        None
    }

    /// The engine whose contacts these are, and its mode.
    fn engine(&self) -> Option<(&'static EngineInfo, EngineMode)> {
        None
    }

    /// The contact file these contacts come from.
    fn contact_file(&self) -> Option<&ContactFile> {
        None
    }
}

/// The poses of `bodies` now.
pub(super) fn poses_of(bodies: &[RigidBody]) -> Vec<Pose> {
    bodies
        .iter()
        .map(|b| Pose::new(b.position, b.rotation))
        .collect()
}
