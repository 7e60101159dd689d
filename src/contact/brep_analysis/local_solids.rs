//! Local solids as unions of convex cones of directions (Bouma & Vaněček
//! 1993, §3, Definition 1 and figures 5–6): the directions into a body
//! from a point of one of its entities, and the two questions the analysis
//! asks of them, exactly rather than by a rule per case: whether one local
//! solid lies inside a union of others ([`covered`], the sufficient set's
//! test) and whether a plane separates two ([`separates`], the normals'
//! and temporal coherence's).

use super::entities::{edge_direction, edge_path, face_normal, faces_at, is_convex, vertex_point};
use crate::contact::body_pair::{BodyPair, PairSide};
use crate::contact::regions::Entity;
use crate::geometry::orthonormal_basis;
use crate::mesh::EdgeKind;
use glam::DVec3;

/// A convex cone of directions {d : m · d ≤ 0 for every facet normal m},
/// with rays that generate it. All unit vectors.
#[derive(Clone, Debug)]
pub(super) struct ConvexCone {
    pub(super) facets: Vec<DVec3>,
    pub(super) rays: Vec<DVec3>,
}

/// The halfspace below a plane with unit normal `n`.
fn halfspace(n: DVec3) -> ConvexCone {
    let (u, v) = orthonormal_basis(n);
    ConvexCone {
        facets: vec![n],
        rays: vec![u, -u, v, -v, -n],
    }
}

/// The directions into the body from a point of the entity: a face's
/// halfspace; a convex edge's wedge (Bouma & Vaněček's h₁ ∩ h₂); a reflex edge's
/// two halfspaces (h₁ ∪ h₂); a convex corner's cone; a non-convex corner's
/// tetrahedra at that corner, whose union is the body there.
pub(super) fn local_cone(side: &PairSide, entity: Entity) -> Vec<ConvexCone> {
    let brep = side.brep;
    match entity {
        Entity::Face(f) => vec![halfspace(face_normal(side, f))],
        Entity::Edge(e) => {
            let edge = &brep.edges[e as usize];
            let faces = faces_at(side, entity);
            if faces.len() == 1 {
                return vec![halfspace(face_normal(side, faces[0]))];
            }
            let path = edge_path(side, e);
            let t = edge_direction(side, e, path[0]);
            let (n0, n1) = (face_normal(side, faces[0]), face_normal(side, faces[1]));
            if edge.kind == EdgeKind::Concave {
                vec![halfspace(n0), halfspace(n1)]
            } else {
                // faces[0]'s boundary runs along t, faces[1]'s against it;
                // a face lies left of its boundary seen from outside.
                vec![ConvexCone {
                    facets: vec![n0, n1],
                    rays: vec![t, -t, n0.cross(t), t.cross(n1)],
                }]
            }
        }
        Entity::Vertex(v) => {
            if is_convex(side, entity) {
                let at = vertex_point(side, v);
                let rays = brep.vertices[v as usize]
                    .edges
                    .iter()
                    .flat_map(|&e| {
                        let path = edge_path(side, e);
                        let n = path.len();
                        let ends = brep.edges[e as usize].ends;
                        let mut out = Vec::new();
                        if ends[0] == v {
                            out.push(path[1] - at);
                        }
                        if ends[1] == v {
                            out.push(path[n - 2] - at);
                        }
                        out
                    })
                    .filter_map(|d| d.try_normalize())
                    .collect();
                let facets = faces_at(side, entity)
                    .iter()
                    .map(|&f| face_normal(side, f))
                    .collect();
                vec![ConvexCone { facets, rays }]
            } else {
                corner_tetrahedra(side, brep.vertices[v as usize].mesh_vertex)
            }
        }
    }
}

/// The cones of the tetrahedra at mesh vertex `m`: their union is the body
/// around it.
fn corner_tetrahedra(side: &PairSide, m: u32) -> Vec<ConvexCone> {
    let world = &side.world.vertices;
    let mut cones = Vec::new();
    for tet in side.world.mesh.tets.iter().filter(|t| t.contains(&m)) {
        let corners = tet.map(|i| world[i as usize]);
        let Some(i) = tet.iter().position(|&x| x == m) else {
            continue;
        };
        let rays = (0..4)
            .filter(|&j| j != i)
            .filter_map(|j| (corners[j] - corners[i]).try_normalize())
            .collect();
        // The faces through the corner are those opposite the other three
        // corners; each facet normal points away from its opposite corner.
        let facets = (0..4)
            .filter(|&j| j != i)
            .filter_map(|j| {
                let [a, b] = [0, 1, 2, 3]
                    .into_iter()
                    .filter(|&k| k != i && k != j)
                    .collect::<Vec<_>>()
                    .try_into()
                    .ok()?;
                let n = (corners[a] - corners[i])
                    .cross(corners[b] - corners[i])
                    .try_normalize()?;
                Some(if n.dot(corners[j] - corners[i]) > 0.0 {
                    -n
                } else {
                    n
                })
            })
            .collect();
        cones.push(ConvexCone { facets, rays });
    }
    cones
}

/// Whether some direction d has q̂ · d > margin for every q: the centre of
/// the smallest spherical cap holding the q̂ is the best d, and it is one
/// q̂, the midpoint of two or the circumcentre of three of them.
fn open_direction_exists(qs: &[DVec3], margin: f64) -> bool {
    let unit: Vec<DVec3> = qs.iter().filter_map(|q| q.try_normalize()).collect();
    if unit.is_empty() {
        return true;
    }
    let clears = |d: DVec3| unit.iter().all(|q| q.dot(d) > margin);
    let n = unit.len();
    for i in 0..n {
        if clears(unit[i]) {
            return true;
        }
        for j in i + 1..n {
            if (unit[i] + unit[j]).try_normalize().is_some_and(clears) {
                return true;
            }
            for k in j + 1..n {
                if let Some(d) = (unit[j] - unit[i]).cross(unit[k] - unit[i]).try_normalize() {
                    if clears(d) || clears(-d) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Whether the union of convex cones `cone` lies inside the union `by`
/// (up to `margin`): each of its pieces must, and a piece does unless an
/// open direction of it lies outside every cone of `by`, that is beyond
/// one facet of each (tried for every choice of facets).
pub(super) fn covered(cone: &[ConvexCone], by: &[ConvexCone], margin: f64) -> bool {
    if by.iter().any(|u| u.facets.is_empty()) {
        return true;
    }
    cone.iter().all(|piece| {
        let inside_one = by.iter().any(|u| {
            u.facets
                .iter()
                .all(|m| piece.rays.iter().all(|g| g.dot(*m) <= margin))
        });
        if inside_one || by.is_empty() {
            return inside_one;
        }
        let mut choice = vec![0usize; by.len()];
        loop {
            let mut qs: Vec<DVec3> = piece.facets.iter().map(|f| -*f).collect();
            qs.extend(by.iter().zip(&choice).map(|(u, &c)| u.facets[c]));
            if open_direction_exists(&qs, margin) {
                return false;
            }
            // The next choice of facets.
            let mut k = 0;
            loop {
                if k == by.len() {
                    return true;
                }
                choice[k] += 1;
                if choice[k] < by[k].facets.len() {
                    break;
                }
                choice[k] = 0;
                k += 1;
            }
        }
    })
}

/// Whether normal `n` (from A to B) separates the local solids of A at `x`
/// and B at `y` to within `slack` (a sine): every direction into A has
/// n · d ≤ slack, every direction into B n · d ≥ −slack.
pub fn separates(pair: &BodyPair, x: Entity, y: Entity, n: DVec3, slack: f64) -> bool {
    local_cone(&pair.a, x)
        .iter()
        .all(|c| c.rays.iter().all(|g| g.dot(n) <= slack))
        && local_cone(&pair.b, y)
            .iter()
            .all(|c| c.rays.iter().all(|g| g.dot(n) >= -slack))
}
