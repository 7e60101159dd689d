//! Erosion: move every surface vertex inwards so that each incident face
//! plane moves in by ε (design `scenes.md`, "Erosion for the Closest points
//! method"; the paper's section 6 erodes bodies so that they start 2ε apart).
//!
//! The displacement d of a vertex is the minimum-norm solution of n_f · d = −ε
//! for every distinct incident plane f, in the least-squares sense when more
//! than three planes meet (a pyramid apex). Interior vertices stay.

use super::tetmesh::{MeshError, TetMesh};
use crate::geometry::symmetric3::symmetric_pseudo_inverse;
use glam::{DMat3, DVec3};

pub fn erode(mesh: &TetMesh, epsilon: f64, flat_angle: f64) -> Result<TetMesh, MeshError> {
    let mut vertices = mesh.vertices.clone();
    for (v, faces) in mesh.vertex_faces.iter().enumerate() {
        if faces.is_empty() {
            continue;
        }
        let planes = distinct_normals(
            faces.iter().map(|&f| mesh.surface_faces[f as usize].normal),
            flat_angle,
        );
        vertices[v] += min_norm_displacement(&planes, epsilon);
    }
    TetMesh::new(vertices, mesh.tets.clone(), flat_angle)
}

fn distinct_normals(normals: impl Iterator<Item = DVec3>, flat_angle: f64) -> Vec<DVec3> {
    let mut distinct: Vec<DVec3> = Vec::new();
    for n in normals {
        if !distinct
            .iter()
            .any(|d| d.cross(n).length() <= flat_angle.sin() && d.dot(n) > 0.0)
        {
            distinct.push(n);
        }
    }
    distinct
}

/// Least-squares, minimum-norm d with n_i · d = −ε: d = −ε (NᵀN)⁺ Nᵀ 1.
fn min_norm_displacement(normals: &[DVec3], epsilon: f64) -> DVec3 {
    let gram = normals.iter().fold(DMat3::ZERO, |m, n| {
        m + DMat3::from_cols(*n * n.x, *n * n.y, *n * n.z)
    });
    let rhs: DVec3 = normals.iter().copied().sum::<DVec3>() * -epsilon;
    symmetric_pseudo_inverse(gram, 1e-10) * rhs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::shapes::Shape;

    #[test]
    fn eroded_box_is_smaller_by_epsilon_on_every_face() {
        let mesh = Shape::Box {
            size: DVec3::new(1.0, 2.0, 3.0),
        }
        .build(1e-6)
        .unwrap();
        let eroded = erode(&mesh, 0.01, 1e-6).unwrap();
        let (lo, hi) = crate::mesh::tetmesh::bounds(&eroded.vertices[..8]);
        assert!(
            (lo - DVec3::new(-0.49, -0.99, -1.49)).length() < 1e-14,
            "{lo}"
        );
        assert!((hi - DVec3::new(0.49, 0.99, 1.49)).length() < 1e-14, "{hi}");
        assert!((eroded.volume() - 0.98 * 1.98 * 2.98).abs() < 1e-12);
    }

    #[test]
    fn pyramid_apex_moves_down_the_axis() {
        let mesh = Shape::Pyramid {
            half_width: 0.8,
            height: 2.4,
        }
        .build(1e-6)
        .unwrap();
        let eroded = erode(&mesh, 0.01, 1e-6).unwrap();
        let apex = eroded.vertices[4];
        // Four planes with normals (±3, 1, 0)/√10, (0, 1, ±3)/√10: the least
        // squares solution is straight down by ε·√10.
        assert!(apex.x.abs() < 1e-14 && apex.z.abs() < 1e-14);
        assert!(
            (apex.y - (2.4 - 0.01 * 10f64.sqrt())).abs() < 1e-12,
            "{apex}"
        );
    }
}
