//! The reference as a run's mode (`measures::reference`): the exact
//! contact regions carried with the bodies, run as if they were a method's
//! contacts.

use super::{Detection, RunMode};
use crate::clock::now_ms;
use crate::contact::ContactSet;
use crate::measures::reference::ReferenceContacts;
use crate::scene::Scene;

/// The reference's run.
pub(in crate::sim) struct ReferenceRun(ReferenceContacts);

impl ReferenceRun {
    pub(in crate::sim) fn new(scene: &Scene) -> ReferenceRun {
        ReferenceRun(ReferenceContacts::from_scene(scene))
    }
}

impl RunMode for ReferenceRun {
    fn detect(&mut self, at: &Detection) -> ContactSet {
        let start = now_ms();
        let contacts = self.0.at_pose(at.bodies);
        ContactSet {
            contacts,
            ms_method: now_ms() - start,
            ..ContactSet::default()
        }
    }
}
