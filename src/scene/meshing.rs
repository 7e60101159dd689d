//! Which tetrahedra a body gets (`docs/design/meshing.md`): cones made here, or
//! the committed TetGen mesh of its shape. A body asking for TetGen whose
//! shape has no committed mesh falls back (paper-fine → TetGen default →
//! cones) and says so: the fallback becomes a notice the person sees, never
//! a silent change of what is measured.

use super::committed::committed;
use crate::mesh::shapes::Shape;
use crate::mesh::{Mesher, TetMesh};

/// A body's mesh and how it was made.
pub struct BodyMesh {
    pub mesh: TetMesh,
    /// The mesher used; `None` for a `tetmesh` shape, used as given.
    pub mesher: Option<Mesher>,
    /// Why the requested mesher was not used, if it was not.
    pub fallback: Option<String>,
}

/// Meshes `shape` with `requested`, falling back where no committed mesh
/// exists. Errors are the shape's own (for the loader to prefix with the
/// shape's path).
pub fn mesh_shape(shape: &Shape, requested: Mesher, flat_angle: f64) -> Result<BodyMesh, String> {
    // A shape given as tetrahedra has no surface to mesh: its own
    // tetrahedra are used, whatever the mesher.
    if shape.surface().is_none() {
        let mesh = shape.build(flat_angle).map_err(|e| e.to_string())?;
        return Ok(BodyMesh {
            mesh,
            mesher: None,
            fallback: None,
        });
    }
    let mut reasons = Vec::new();
    let mut level = requested;
    while level != Mesher::Cones {
        match committed(level)? {
            None => reasons.push(format!("this build has no {level} meshes")),
            Some(table) => match table.find(shape) {
                None => reasons.push(format!("no {level} mesh is committed for this shape")),
                Some(found) => {
                    let mesh = TetMesh::new(found.vertices.clone(), found.tets.clone(), flat_angle)
                        .map_err(|e| format!("the committed {level} mesh is invalid: {e}"))?;
                    return Ok(BodyMesh {
                        mesh,
                        mesher: Some(level),
                        fallback: fallback_text(requested, level, &reasons),
                    });
                }
            },
        }
        level = match level {
            Mesher::PaperFine => Mesher::TetGen,
            _ => Mesher::Cones,
        };
    }
    let mesh = shape.build(flat_angle).map_err(|e| e.to_string())?;
    Ok(BodyMesh {
        mesh,
        mesher: Some(Mesher::Cones),
        fallback: fallback_text(requested, Mesher::Cones, &reasons),
    })
}

fn fallback_text(requested: Mesher, used: Mesher, reasons: &[String]) -> Option<String> {
    (requested != used).then(|| {
        format!(
            "meshed with {used} instead of {requested}: {}",
            reasons.join(", and ")
        )
    })
}
