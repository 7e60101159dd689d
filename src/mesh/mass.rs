//! Exact mass, centre of mass and inertia tensor of a constant-density
//! tetrahedral mesh, summed over its tetrahedra (Tonon, "Explicit exact
//! formulas for the 3-D tetrahedron inertia tensor", J. Math. Stat. 2004,
//! in its covariance form).
//!
//! For a tetrahedron with corners v₀…v₃ and volume V, the second moment
//! ∫ x xᵀ dV = V/20 · (Σᵢ vᵢ vᵢᵀ + s sᵀ) with s = Σᵢ vᵢ. The inertia about a
//! point is I = tr(C) 𝟙 − C for the covariance C about that point.

use super::TetMesh;
use glam::{DMat3, DVec3};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    pub mass: f64,
    /// Centre of mass in the mesh's frame.
    pub centre: DVec3,
    /// Inertia tensor about the centre of mass, in the mesh's frame.
    pub inertia: DMat3,
}

fn outer(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

impl MassProperties {
    pub fn of_mesh(mesh: &TetMesh, density: f64) -> MassProperties {
        // Work about the vertex centroid, not the frame origin, so that a body
        // far from its origin keeps full relative precision.
        let reference = mesh.vertices.iter().copied().sum::<DVec3>() / mesh.vertices.len() as f64;
        let mut volume = 0.0;
        let mut first_moment = DVec3::ZERO;
        let mut second_moment = DMat3::ZERO;
        for t in 0..mesh.tets.len() {
            let v = mesh.tet_corners(t).map(|p| p - reference);
            let vol = crate::mesh::tetmesh::tet_volume(v[0], v[1], v[2], v[3]);
            let s = v[0] + v[1] + v[2] + v[3];
            volume += vol;
            first_moment += s * (vol / 4.0);
            let sum_outer = v.iter().fold(DMat3::ZERO, |m, p| m + outer(*p, *p));
            second_moment += (sum_outer + outer(s, s)) * (vol / 20.0);
        }
        let centre_rel = first_moment / volume;
        let covariance = (second_moment - outer(centre_rel, centre_rel) * volume) * density;
        let trace = covariance.x_axis.x + covariance.y_axis.y + covariance.z_axis.z;
        MassProperties {
            mass: volume * density,
            centre: reference + centre_rel,
            inertia: DMat3::from_diagonal(DVec3::splat(trace)) - covariance,
        }
    }
}
