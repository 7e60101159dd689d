//! Uniform 1 → 8 refinement of a tetrahedral mesh by edge midpoints (Bey,
//! "Tetrahedral grid refinement", Computing 55, 1995): four corner tetrahedra
//! plus the inner octahedron cut along one diagonal into four. Every surface
//! triangle becomes four, so the surface gains internal vertices and edges
//! (the playground's version of the paper's section 8.6 study).

use super::tetmesh::{tet_volume, MeshError, TetMesh, TET_EDGES};
use std::collections::HashMap;

/// One level of refinement. The new mesh is classified with the same
/// `flat_angle` as any other.
pub fn refine(mesh: &TetMesh, flat_angle: f64) -> Result<TetMesh, MeshError> {
    let mut vertices = mesh.vertices.clone();
    // Lookup only, never iterated: the order of new vertices follows the
    // tetrahedra, so the result is deterministic.
    let mut midpoint_of: HashMap<[u32; 2], u32> = HashMap::new();
    let mut tets = Vec::with_capacity(mesh.tets.len() * 8);
    for tet in &mesh.tets {
        let mut m = [0u32; 6];
        for (e, &[i, j]) in TET_EDGES.iter().enumerate() {
            let key = [tet[i].min(tet[j]), tet[i].max(tet[j])];
            m[e] = *midpoint_of.entry(key).or_insert_with(|| {
                vertices
                    .push((mesh.vertices[key[0] as usize] + mesh.vertices[key[1] as usize]) * 0.5);
                (vertices.len() - 1) as u32
            });
        }
        let [v0, v1, v2, v3] = *tet;
        let [m01, m02, m03, m12, m13, m23] = m;
        let children = [
            [v0, m01, m02, m03],
            [m01, v1, m12, m13],
            [m02, m12, v2, m23],
            [m03, m13, m23, v3],
            // The octahedron, cut along the m02–m13 diagonal.
            [m01, m02, m03, m13],
            [m01, m02, m13, m12],
            [m02, m03, m13, m23],
            [m02, m13, m12, m23],
        ];
        for mut child in children {
            let [a, b, c, d] = child.map(|v| vertices[v as usize]);
            // The pattern above fixes which vertices form each child but not
            // their order; swapping two keeps the child and fixes the sign.
            if tet_volume(a, b, c, d) < 0.0 {
                child.swap(2, 3);
            }
            tets.push(child);
        }
    }
    TetMesh::new(vertices, tets, flat_angle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::shapes::{Frustum, Shape};

    #[test]
    fn refinement_keeps_volume_and_quadruples_the_surface() {
        let mesh = Shape::from(Frustum {
            sides: 6,
            bottom_radius: 0.25,
            top_radius: 0.2,
            height: 0.21,
        })
        .build(1e-6)
        .unwrap();
        let once = refine(&mesh, 1e-6).unwrap();
        let twice = refine(&once, 1e-6).unwrap();
        assert_eq!(once.tets.len(), 8 * mesh.tets.len());
        assert_eq!(twice.surface_faces.len(), 16 * mesh.surface_faces.len());
        assert!((twice.volume() - mesh.volume()).abs() < 1e-14);
        // Refinement adds no bends: the convex and concave edges are the
        // original ones, each split in two.
        let bent = |m: &TetMesh| {
            m.surface_edges
                .iter()
                .filter(|e| e.kind != crate::mesh::EdgeKind::Flat)
                .count()
        };
        assert_eq!(bent(&once), 2 * bent(&mesh));
    }
}
