//! The notices a run gives when its bodies overlap at the start: the scene
//! loads as written, and the person learns which bodies overlap and by how
//! much (measured by the judges' `measures::overlap`).

use crate::dynamics::stepper::Pose;
use crate::measures::overlap::{BodyOverlap, OverlapMeter};
use crate::scene::Scene;

/// Bodies that overlap at the start by more than this fraction of the
/// scene's length get a notice: a millionth of a millionth of it, above
/// rounding in the positions of bodies that merely touch, below any overlap
/// someone typed (a micrometre in a 5 m scene).
const START_OVERLAP_RELATIVE: f64 = 1e-9;

/// The notices of the bodies of `scene` that overlap at `poses`, for a
/// scene of length `length` (`DivergenceBounds::length`).
pub(super) fn start_overlap_notices(
    scene: &Scene,
    meter: &OverlapMeter,
    poses: &[Pose],
    length: f64,
) -> Vec<String> {
    let overlaps = meter.overlaps(scene, poses, length * START_OVERLAP_RELATIVE);
    overlap_notices(scene, &overlaps)
}

/// The notices of bodies that overlap at the start, deepest first: the first
/// three pairs by name and depth, then how many more.
fn overlap_notices(scene: &Scene, overlaps: &[BodyOverlap]) -> Vec<String> {
    const NAMED: usize = 3;
    let name = |i: usize| scene.bodies[i].name.as_str();
    let mut notices: Vec<String> = overlaps
        .iter()
        .take(NAMED)
        .map(|o| {
            format!(
                "bodies \"{}\" and \"{}\" overlap by {}{} at the start; the scene loads as written, and the solver will push them apart",
                name(o.a),
                name(o.b),
                if o.exact { "" } else { "at least " },
                human_length(o.depth)
            )
        })
        .collect();
    if overlaps.len() > NAMED {
        notices.push(format!(
            "{} more pairs of bodies overlap at the start, the deepest by {}",
            overlaps.len() - NAMED,
            human_length(overlaps[NAMED].depth)
        ));
    }
    notices
}

/// A length for a person: three significant figures in m, mm or µm.
fn human_length(metres: f64) -> String {
    let (value, unit) = if metres >= 0.01 {
        (metres, "m")
    } else if metres >= 1e-5 {
        (metres * 1e3, "mm")
    } else {
        (metres * 1e6, "µm")
    };
    let decimals = (2 - value.log10().floor() as i32).max(0) as usize;
    format!("{value:.decimals$} {unit}")
}
