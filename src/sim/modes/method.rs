//! A method of the registry (`contact::methods`) as a run's mode: its
//! contacts found at each step's midpoint, with what it remembers across
//! steps.

use super::{Detection, RunMode};
use crate::contact::{detect, ContactSet, MethodHistory, MethodInfo, Undetectable};

/// A registry method's run.
pub(in crate::sim) struct MethodRun {
    info: &'static MethodInfo,
    history: MethodHistory,
}

impl MethodRun {
    /// A run of `info`, whose algorithm is in this build.
    pub(in crate::sim) fn new(info: &'static MethodInfo) -> MethodRun {
        MethodRun {
            info,
            history: MethodHistory::default(),
        }
    }
}

impl RunMode for MethodRun {
    fn detect(&mut self, at: &Detection) -> ContactSet {
        // `new` is called only for an algorithm of this build.
        match detect(at.bodies, self.info, at.params, &mut self.history) {
            Ok(set) => set,
            Err(Undetectable::OverBudget(over)) => ContactSet {
                over_budget: Some(over),
                ..ContactSet::default()
            },
            Err(other) => {
                unreachable!("from_scene admits only this build's methods: {other}")
            }
        }
    }
}
