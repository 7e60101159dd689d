//! An engine's contacts as a run's mode (`engines`), from its adapter: at
//! our poses, our solver stepping with them (`engine=ours`); or, in the
//! engine's own run (`engine=own`), each step played back at the poses the
//! engine stepped to.

use super::{Detection, Frame, Next, RunMode};
use crate::clock::now_ms;
use crate::contact::ContactSet;
use crate::dynamics::RigidBody;
use crate::engines::{ContactSource, EngineInfo, EngineMode};
use crate::scene::Scene;
use crate::sim::{SimError, SimSettings};

/// Starts engines' adapters, for library code that needs an engine's
/// contacts but runs no process itself (the tables, `crate::report`): the
/// front end that can run adapters (the CLI, in Node) implements it and
/// hands it in.
pub trait EngineRunner {
    /// `engine`'s adapter on `scene` at its initial pose, with the time
    /// step and friction of `settings`, in `mode`.
    fn start(
        &self,
        engine: &'static EngineInfo,
        mode: EngineMode,
        scene: &Scene,
        settings: &SimSettings,
    ) -> Result<Box<dyn ContactSource>, String>;
}

/// An engine's run, through its adapter.
pub(in crate::sim) struct EngineRun {
    info: &'static EngineInfo,
    mode: EngineMode,
    source: Box<dyn ContactSource>,
    /// The first failure of the adapter during a step's detection,
    /// reported once the step is undone.
    failure: Option<String>,
}

impl EngineRun {
    pub(in crate::sim) fn new(
        info: &'static EngineInfo,
        mode: EngineMode,
        source: Box<dyn ContactSource>,
    ) -> EngineRun {
        EngineRun {
            info,
            mode,
            source,
            failure: None,
        }
    }

    /// One step of the engine's own run, at the poses it started from,
    /// recorded as step `step`.
    fn own_step(&mut self, step: u64, bodies: usize) -> Result<Frame, SimError> {
        let name = self.info.name;
        let (poses, contacts) = self
            .source
            .own_step()
            .map_err(|e| SimError::Engine(format!("{name}: {e}")))?;
        if poses.len() != bodies {
            return Err(SimError::Engine(format!(
                "{name} gave {} poses for {bodies} bodies",
                poses.len(),
            )));
        }
        Ok(Frame {
            step,
            poses: Some(poses),
            contacts,
        })
    }
}

impl RunMode for EngineRun {
    /// In the engine's own run its first step is taken at once: its
    /// contacts at the initial pose.
    fn start(&mut self, bodies: &[RigidBody]) -> Result<Option<Frame>, SimError> {
        match self.mode {
            EngineMode::Own => self.own_step(0, bodies.len()).map(Some),
            EngineMode::Ours => Ok(None),
        }
    }

    fn next(&mut self, taken: u64, bodies: &[RigidBody]) -> Result<Next, SimError> {
        match self.mode {
            EngineMode::Own => self.own_step(taken + 1, bodies.len()).map(Next::Frame),
            EngineMode::Ours => Ok(Next::Dynamics),
        }
    }

    fn detect(&mut self, at: &Detection) -> ContactSet {
        let start = now_ms();
        let contacts = self.source.contacts_at(at.poses).unwrap_or_else(|e| {
            self.failure
                .get_or_insert(format!("{}: {e}", self.info.name));
            Vec::new()
        });
        ContactSet {
            contacts,
            ms_method: now_ms() - start,
            ..ContactSet::default()
        }
    }

    fn may_fail(&self) -> bool {
        true
    }

    fn take_failure(&mut self) -> Option<String> {
        self.failure.take()
    }

    fn engine(&self) -> Option<(&'static EngineInfo, EngineMode)> {
        Some((self.info, self.mode))
    }
}
