//! A body's surface, and a body cut into convex pieces, for the formats
//! whose simulators collide convex shapes only (MuJoCo collides the convex
//! hull of every mesh; Bullet makes a free body's mesh a convex hull).
//!
//! The decomposition is exact: it groups the body's own tetrahedra, so the
//! pieces cover the body exactly once and add nothing. Greedily, in
//! tetrahedron order, a piece starts at the first tetrahedron not yet used
//! and takes in face neighbours (lowest index first) as long as the union
//! stays convex, until no neighbour fits. A union of face-connected
//! tetrahedra is convex when every vertex of it lies behind (or on) the
//! plane of every one of its surface faces; "behind" allows 10⁻⁹ of the
//! body's size, far above round-off of its coordinates. The result is not
//! the fewest pieces (that problem is NP-hard), but usually far fewer than
//! the tetrahedra: the committed TetGen meshes of the built-in scenes' holes
//! and cracks have 15 to 127 tetrahedra.

use crate::mesh::TetMesh;
use glam::DVec3;
use std::collections::HashMap;

/// How far in front of a face plane a vertex may be, as a fraction of the
/// body's bounding-box diagonal, for the union to still count as convex.
const CONVEX_TOL: f64 = 1e-9;

/// A closed triangle surface in the body frame: triangles counter-clockwise
/// seen from outside.
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    pub vertices: Vec<DVec3>,
    pub triangles: Vec<[u32; 3]>,
}

impl Surface {
    /// The volume the surface encloses (divergence theorem): positive for
    /// an outward surface.
    pub fn enclosed_volume(&self) -> f64 {
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| self.vertices[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }
}

/// The body's surface triangles, with only the vertices they use.
pub fn body_surface(mesh: &TetMesh) -> Surface {
    let faces: Vec<[u32; 3]> = mesh.surface_faces.iter().map(|f| f.vertices).collect();
    compact(&mesh.vertices, &faces)
}

/// The body as convex pieces: its surface alone when it is convex (every
/// B-rep edge convex, as `contactlab mesh` decides), else groups of its
/// tetrahedra (see the module comment), each as its own closed surface.
pub fn convex_pieces(mesh: &TetMesh) -> Vec<Surface> {
    if mesh.brep().is_convex() {
        return vec![body_surface(mesh)];
    }
    let tol = CONVEX_TOL * mesh.diagonal();
    let n = mesh.tets.len();
    // Lookups only: which tetrahedra have a face.
    let mut by_face: HashMap<[u32; 3], Vec<usize>> = HashMap::new();
    for (t, tet) in mesh.tets.iter().enumerate() {
        for face in tet_faces(tet) {
            by_face.entry(sorted(face)).or_default().push(t);
        }
    }
    let neighbours: Vec<Vec<usize>> = mesh
        .tets
        .iter()
        .enumerate()
        .map(|(t, tet)| {
            let mut list: Vec<usize> = tet_faces(tet)
                .iter()
                .flat_map(|f| by_face[&sorted(*f)].iter().copied())
                .filter(|&u| u != t)
                .collect();
            list.sort_unstable();
            list.dedup();
            list
        })
        .collect();
    let mut used = vec![false; n];
    let mut pieces = Vec::new();
    for seed in 0..n {
        if used[seed] {
            continue;
        }
        used[seed] = true;
        let mut piece = vec![seed];
        loop {
            let mut candidates: Vec<usize> = piece
                .iter()
                .flat_map(|&t| neighbours[t].iter().copied())
                .filter(|&u| !used[u])
                .collect();
            candidates.sort_unstable();
            candidates.dedup();
            let mut grew = false;
            for c in candidates {
                piece.push(c);
                if is_convex(mesh, &piece, tol) {
                    used[c] = true;
                    grew = true;
                } else {
                    piece.pop();
                }
            }
            if !grew {
                break;
            }
        }
        piece.sort_unstable();
        pieces.push(compact(&mesh.vertices, &outer_faces(mesh, &piece)));
    }
    pieces
}

/// The four faces of a tetrahedron, each counter-clockwise seen from
/// outside a positively oriented tetrahedron.
fn tet_faces(t: &[u32; 4]) -> [[u32; 3]; 4] {
    let [a, b, c, d] = *t;
    [[b, c, d], [a, d, c], [a, b, d], [a, c, b]]
}

fn sorted(mut f: [u32; 3]) -> [u32; 3] {
    f.sort_unstable();
    f
}

/// The faces of a set of tetrahedra that no other tetrahedron of the set
/// has: the set's surface, outward.
fn outer_faces(mesh: &TetMesh, tets: &[usize]) -> Vec<[u32; 3]> {
    let mut count: HashMap<[u32; 3], usize> = HashMap::new();
    for &t in tets {
        for f in tet_faces(&mesh.tets[t]) {
            *count.entry(sorted(f)).or_default() += 1;
        }
    }
    tets.iter()
        .flat_map(|&t| tet_faces(&mesh.tets[t]))
        .filter(|f| count[&sorted(*f)] == 1)
        .collect()
}

/// Whether the union of these face-connected tetrahedra is convex: every
/// vertex behind every surface face's plane, within `tol`.
fn is_convex(mesh: &TetMesh, tets: &[usize], tol: f64) -> bool {
    let faces = outer_faces(mesh, tets);
    let mut vertices: Vec<u32> = tets.iter().flat_map(|&t| mesh.tets[t]).collect();
    vertices.sort_unstable();
    vertices.dedup();
    faces.iter().all(|f| {
        let [a, b, c] = f.map(|i| mesh.vertices[i as usize]);
        let Some(normal) = (b - a).cross(c - a).try_normalize() else {
            return false;
        };
        vertices
            .iter()
            .all(|&v| normal.dot(mesh.vertices[v as usize] - a) <= tol)
    })
}

/// Triangles over a subset of `vertices`, renumbered to use only those.
fn compact(vertices: &[DVec3], triangles: &[[u32; 3]]) -> Surface {
    let mut new_index: Vec<Option<u32>> = vec![None; vertices.len()];
    let mut kept = Vec::new();
    let triangles = triangles
        .iter()
        .map(|t| {
            t.map(|v| {
                *new_index[v as usize].get_or_insert_with(|| {
                    kept.push(vertices[v as usize]);
                    (kept.len() - 1) as u32
                })
            })
        })
        .collect();
    Surface {
        vertices: kept,
        triangles,
    }
}
