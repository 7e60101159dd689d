//! What a mesh is made of, as `contactlab mesh` reports it: tetrahedra by
//! how many of their faces lie on the surface (on a cone mesh every one has
//! exactly one; on a TetGen mesh corner tetrahedra have two or three, which
//! is where Vertex only and Consistent vertex differ), and the largest
//! radius-edge ratio, the quality measure TetGen's `-q` bounds (Shewchuk;
//! TetGen manual, section 4.2.3: circumradius over shortest edge).

use super::tetmesh::{TetMesh, TET_EDGES};
use glam::{DMat3, DVec3};

#[derive(Clone, Debug, PartialEq)]
pub struct MeshStats {
    pub tetrahedra: usize,
    pub surface_triangles: usize,
    /// Tetrahedra with exactly 1, 2 and 3 surface faces; index 2 also counts
    /// a body that is a single tetrahedron (4 surface faces).
    pub tets_by_surface_faces: [usize; 3],
    pub volume: f64,
    pub max_radius_edge_ratio: f64,
}

/// Circumradius of the tetrahedron over its shortest edge.
pub fn radius_edge_ratio(corners: [DVec3; 4]) -> f64 {
    let [a, b, c, d] = corners;
    let (u, v, w) = (b - a, c - a, d - a);
    // The circumcentre x − a solves 2 (u, v, w)ᵀ (x − a) = (|u|², |v|², |w|²).
    let m = DMat3::from_cols(u, v, w).transpose();
    let rhs = DVec3::new(u.length_squared(), v.length_squared(), w.length_squared()) * 0.5;
    let radius = (m.inverse() * rhs).length();
    let shortest = TET_EDGES
        .iter()
        .map(|&[i, j]| (corners[i] - corners[j]).length())
        .fold(f64::INFINITY, f64::min);
    radius / shortest
}

impl MeshStats {
    pub fn of(mesh: &TetMesh) -> MeshStats {
        let mut by_faces = [0; 3];
        for faces in &mesh.tet_surface_faces {
            let n = faces.iter().filter(|f| f.is_some()).count();
            if n > 0 {
                by_faces[n.min(3) - 1] += 1;
            }
        }
        MeshStats {
            tetrahedra: mesh.tets.len(),
            surface_triangles: mesh.surface_faces.len(),
            tets_by_surface_faces: by_faces,
            volume: mesh.volume(),
            max_radius_edge_ratio: (0..mesh.tets.len())
                .map(|t| radius_edge_ratio(mesh.tet_corners(t)))
                .fold(0.0, f64::max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_regular_tetrahedron_has_the_smallest_ratio() {
        let s = 1.0 / 2f64.sqrt();
        let regular = [
            DVec3::new(1.0, 0.0, -s),
            DVec3::new(-1.0, 0.0, -s),
            DVec3::new(0.0, 1.0, s),
            DVec3::new(0.0, -1.0, s),
        ];
        // √6/4 ≈ 0.612 for the regular tetrahedron.
        assert!((radius_edge_ratio(regular) - 6f64.sqrt() / 4.0).abs() < 1e-12);
        let right = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
        // Circumcentre (½, ½, ½), radius √3/2, shortest edge 1.
        assert!((radius_edge_ratio(right) - 3f64.sqrt() / 2.0).abs() < 1e-12);
    }
}
