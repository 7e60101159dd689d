//! Comparison tables: one row per method with the step measures, in the
//! shape of the paper's tables 7 and 8. Shared by the CLI (`contactlab
//! table`) and, later, the page's compare mode.

use super::{step_measures, StepMeasures};
use crate::contact::{find_contacts, ContactMethod, MethodParams};
use crate::scene::builtin::load_builtin;
use crate::scene::{LoadOptions, SceneError};
use glam::DVec3;

/// The measures of one method on one scene at its initial pose.
#[derive(Clone, Debug)]
pub struct InitialPoseRow {
    pub method: &'static str,
    pub measures: StepMeasures,
}

/// Loads `scene_id` as `method` needs it (eroded for Closest points) and
/// measures the method's contacts at the initial pose.
pub fn initial_pose_row(
    scene_id: &str,
    method: &dyn ContactMethod,
    epsilon: f64,
    angle_tolerance_deg: f64,
) -> Result<InitialPoseRow, SceneError> {
    let erosion = method.erosion(&MethodParams {
        epsilon,
        ..MethodParams::default()
    });
    let scene = load_builtin(
        scene_id,
        &LoadOptions {
            erosion,
            ..Default::default()
        },
    )?;
    let params = MethodParams {
        epsilon,
        ..MethodParams::for_scene(&scene)
    };
    let set = find_contacts(&scene.poses(), method, &params);
    let centres: Vec<DVec3> = scene.bodies.iter().map(|b| b.position).collect();
    let (_, measures) = step_measures(&scene, &set.contacts, &centres, angle_tolerance_deg);
    Ok(InitialPoseRow {
        method: method.id(),
        measures,
    })
}
