//! Poses files: where every body is at each step of another engine's own
//! run, so that its contacts are measured where it found them
//! (`docs/design/contact-files.md`). CSV (or JSON Lines) with the columns
//! `step,body,x,y,z,qw,qx,qy,qz`: the world position of the body's centre
//! of mass and the orientation of its frame, a unit quaternion.

use super::rows::RowReader;
use super::{FileError, Pose, Warnings, MAX_ROWS, MAX_STEP, UNIT_TOLERANCE};
use crate::scene::Scene;
use glam::{DQuat, DVec3};
use std::collections::BTreeMap;

pub const POSE_COLUMNS: [&str; 9] = ["step", "body", "x", "y", "z", "qw", "qx", "qy", "qz"];

/// Reads a poses file against `scene`: each step's poses, one per body. A
/// fixed body left out keeps the scene's pose; a free body left out of a
/// step is an error, as is a body given twice in one step.
pub fn read_poses(
    name: &str,
    text: &str,
    scene: &Scene,
    warnings: &mut Warnings,
) -> Result<BTreeMap<u64, Vec<Pose>>, FileError> {
    let body_names: Vec<&str> = scene.bodies.iter().map(|b| b.name.as_str()).collect();
    let mut reader = RowReader::new(name, text, &POSE_COLUMNS, &[])?;
    // Per step: the poses given so far and the line of the step's first row.
    let mut given: BTreeMap<u64, (Vec<Option<Pose>>, usize)> = BTreeMap::new();
    let mut rows = 0;
    while let Some(row) = reader.next_row()? {
        rows += 1;
        if rows > MAX_ROWS {
            return Err(row.error_at_line(format!("more than {MAX_ROWS} rows")));
        }
        let step = row.step("step", MAX_STEP)?;
        let body = row.body("body", &body_names)?;
        let position = row.vector(["x", "y", "z"])?;
        let q = [
            row.number("qw")?,
            row.number("qx")?,
            row.number("qy")?,
            row.number("qz")?,
        ];
        let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        if length == 0.0 || !length.is_finite() {
            return Err(row.error("qw", "the quaternion (qw, qx, qy, qz) is zero".to_string()));
        }
        let mut rotation = DQuat::from_xyzw(q[1], q[2], q[3], q[0]);
        if (length - 1.0).abs() > UNIT_TOLERANCE {
            rotation /= length;
            warnings.normalised_rotations += 1;
        }
        let (poses, _) = given
            .entry(step)
            .or_insert_with(|| (vec![None; body_names.len()], row.line));
        if poses[body].is_some() {
            return Err(row.error(
                "body",
                format!("body \"{}\" has two poses at step {step}", body_names[body]),
            ));
        }
        poses[body] = Some(Pose::new(position, rotation));
    }
    warnings.skipped_lines += reader.skipped_lines();
    let mut out = BTreeMap::new();
    for (step, (poses, line)) in given {
        let mut complete = Vec::with_capacity(poses.len());
        for (body, pose) in scene.bodies.iter().zip(poses) {
            match pose {
                Some(p) => complete.push(p),
                None if body.fixed => complete.push(Pose::new(body.position, body.rotation)),
                None => {
                    return Err(FileError {
                        file: name.to_string(),
                        line,
                        column: 0,
                        message: format!(
                            "step {step} gives no pose for the free body \"{}\"",
                            body.name
                        ),
                    })
                }
            }
        }
        out.insert(step, complete);
    }
    Ok(out)
}

/// Writes poses as a poses file, numbers in Rust's shortest exact form.
pub fn write_poses<'a>(
    scene: &Scene,
    about: &str,
    steps: impl IntoIterator<Item = (u64, &'a [Pose])>,
) -> String {
    let mut out = String::new();
    for line in about.lines() {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str(&POSE_COLUMNS.join(","));
    out.push('\n');
    for (step, poses) in steps {
        for (body, pose) in scene.bodies.iter().zip(poses) {
            let (p, q) = (pose.position, pose.rotation);
            let DVec3 { x, y, z } = p;
            out.push_str(&format!(
                "{step},{},{x},{y},{z},{},{},{},{}\n",
                super::csv_field(&body.name),
                q.w,
                q.x,
                q.y,
                q.z
            ));
        }
    }
    out
}
