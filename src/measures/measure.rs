//! The one way a step's contacts are measured: judged by the geometric
//! oracle (`oracle`, `docs/design/oracle.md`), then measured against both
//! oracles ([`measures_of_step`], Erleben 2018 §5, §5.1 and §8). The simulation, the CLI and the tables all
//! call it, so a number is the same number wherever it is printed.

use super::oracle::GeometricOracle;
use super::{measures_of_step, oracle_envelope, ContactQuality, MeasureSettings, StepMeasures};
use crate::clock::now_ms;
use crate::contact::Contact;
use crate::geometry::Pose;
use crate::scene::Scene;

/// The measures of one step's contacts and what judging them cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Each contact's quality, in the contacts' order.
    pub qualities: Vec<ContactQuality>,
    pub measures: StepMeasures,
    /// The geometric oracle's time on the contacts (a judge's cost, not
    /// the method's).
    pub ms_oracle: f64,
}

/// Judges `contacts`, found with the bodies at `poses` (world position of
/// the centre of mass, rotation), with `oracle` (the geometric oracle of
/// `scene`'s bodies, built once per scene), then measures them with
/// `settings`.
pub fn measure(
    scene: &Scene,
    oracle: &GeometricOracle,
    contacts: &[Contact],
    poses: &[Pose],
    settings: &MeasureSettings,
) -> Measured {
    let oracle_start = now_ms();
    let geo = oracle.judge_step(
        contacts,
        poses,
        oracle_envelope(settings.envelope),
        settings.tol_deg,
    );
    let ms_oracle = now_ms() - oracle_start;
    let (qualities, measures) = measures_of_step(scene, contacts, poses, &geo, settings);
    Measured {
        qualities,
        measures,
        ms_oracle,
    }
}
