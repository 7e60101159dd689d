//! Erosion: move every surface vertex inwards so that each incident face
//! plane moves in by ε (`docs/design/scenes.md`, "Erosion for the Closest
//! points method"; the paper's section 6 erodes bodies so that they start 2ε
//! apart).
//!
//! The displacement d of a vertex is the minimum-norm solution of n_f · d = −ε
//! for every distinct incident plane f, in the least-squares sense when more
//! than three planes meet (a pyramid apex). Interior vertices stay.
//!
//! Erosion past half the body's thickness does not flatten it, it inverts
//! it: the offset planes cross over and bound a body turned inside out in
//! that direction. A wedge eroded past its inradius comes out as a smaller
//! wedge upside down, every tetrahedron still positive, and every contact
//! on it wrong. Such an erosion is refused by two checks:
//! - no surface face turns over: its new area vector must still point
//!   along its old normal (by more than round-off of the body's size). A
//!   face between two offset planes that cross over runs the other way
//!   round; this is what catches the wedge, whose faces all reverse while
//!   its cone of tetrahedra stays positive;
//! - the result is a valid body (`TetMesh::new`): positive tetrahedra and
//!   an embedded surface. A vertex pushed past the opposite side either
//!   inverts the tetrahedra between them or makes the surface cross itself
//!   (see `self_intersection`), so this catches it.
//!
//! Together they refuse exactly the bodies thinner than 2ε somewhere a
//! vertex moves: for a slab of thickness t the top and bottom move to
//! ±(t/2 − ε), its side faces reverse and the tetrahedra coned from its
//! centre invert when t < 2ε, and it collapses to nothing at t = 2ε.

use super::tetmesh::{bounding_diagonal, MeshError, TetMesh};
use crate::geometry::symmetric3::symmetric_pseudo_inverse;
use glam::{DMat3, DVec3};
use std::fmt;

/// Why a body cannot be eroded by ε.
#[derive(Clone, Debug, PartialEq)]
pub enum ErosionError {
    /// This surface face (vertex indices) would face the other way.
    FaceTurnsOver { face: [u32; 3] },
    /// The moved vertices do not form a valid body.
    Mesh(MeshError),
}

impl fmt::Display for ErosionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErosionError::FaceTurnsOver { face } => write!(f, "surface face {face:?} would turn over or collapse: the offset planes around it cross, the body is thinner than 2ε there"),
            ErosionError::Mesh(e) => e.fmt(f),
        }
    }
}

pub fn erode(mesh: &TetMesh, epsilon: f64, flat_angle: f64) -> Result<TetMesh, ErosionError> {
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
    // Same relative threshold as `TetMesh::new` uses for volumes, squared
    // for areas: a face whose area is round-off has collapsed.
    let scale = bounding_diagonal(&mesh.vertices);
    let min_area = 1e-12 * scale * scale;
    for face in &mesh.surface_faces {
        let [a, b, c] = face.vertices.map(|v| vertices[v as usize]);
        let area_along_old_normal = 0.5 * (b - a).cross(c - a).dot(face.normal);
        if area_along_old_normal.is_nan() || area_along_old_normal <= min_area {
            return Err(ErosionError::FaceTurnsOver {
                face: face.vertices,
            });
        }
    }
    TetMesh::new(vertices, mesh.tets.clone(), flat_angle).map_err(ErosionError::Mesh)
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
    use crate::mesh::shapes::{Cuboid, Pyramid, Shape, Wedge};

    #[test]
    fn eroded_box_is_smaller_by_epsilon_on_every_face() {
        let mesh = Shape::from(Cuboid {
            size: DVec3::new(1.0, 2.0, 3.0),
        })
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
        let mesh = Shape::from(Pyramid {
            half_width: 0.8,
            height: 2.4,
        })
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

    /// A 1 × t × 1 box eroded by ε = 0.1: refused for t ≤ 2ε, accepted
    /// above, however little (see the module doc for the derivation).
    #[test]
    fn slab_is_refused_at_twice_epsilon_and_accepted_just_above() {
        let epsilon = 0.1;
        let eroded = |t: f64| {
            let mesh = Shape::from(Cuboid {
                size: DVec3::new(1.0, t, 1.0),
            })
            .build(1e-6)
            .unwrap();
            erode(&mesh, epsilon, 1e-6)
        };
        for t in [2.0 * epsilon * (1.0 - 1e-6), 2.0 * epsilon, 0.5 * epsilon] {
            assert!(eroded(t).is_err(), "t = {t}");
        }
        for t in [2.0 * epsilon * (1.0 + 1e-6), 2.0 * epsilon * 1.1] {
            let mesh = eroded(t).unwrap_or_else(|e| panic!("t = {t}: {e}"));
            let expected = (t - 2.0 * epsilon) * 0.8 * 0.8;
            assert!((mesh.volume() - expected).abs() < 1e-12, "t = {t}");
        }
    }

    /// The wedge of the Wedges scene has inradius 2A/P = 3.84 / 6.66 =
    /// 0.577 m in cross-section: eroding by 1.5 m would turn it upside
    /// down with every tetrahedron positive; the face check refuses it.
    #[test]
    fn wedge_eroded_past_its_inradius_is_refused_by_its_faces() {
        let mesh = Shape::from(Wedge {
            half_width: 0.8,
            height: 2.4,
            half_length: 1.6,
        })
        .build(1e-6)
        .unwrap();
        assert!(erode(&mesh, 0.5, 1e-6).is_ok());
        assert!(matches!(
            erode(&mesh, 1.5, 1e-6),
            Err(ErosionError::FaceTurnsOver { .. })
        ));
    }
}
