//! The B-rep entities of one body as the analysis needs them (Bouma &
//! Vaněček 1993, §3: open faces, edges and vertices): where they are, the
//! faces around each, which borders which (their adjacency), whether a
//! body is convex around one, and the point of one nearest a given point.

use crate::contact::body_pair::PairSide;
use crate::contact::regions::Entity;
use crate::geometry::closest_point_on_segment;
use crate::mesh::EdgeKind;
use glam::DVec3;

pub(super) fn vertex_point(side: &PairSide, v: u32) -> DVec3 {
    side.world.vertices[side.brep.vertices[v as usize].mesh_vertex as usize]
}

pub(super) fn edge_path(side: &PairSide, e: u32) -> Vec<DVec3> {
    side.brep.edges[e as usize]
        .path
        .iter()
        .map(|&m| side.world.vertices[m as usize])
        .collect()
}

pub(super) fn face_normal(side: &PairSide, f: u32) -> DVec3 {
    side.to_world(side.brep.faces[f as usize].normal)
}

/// A point of face `f`'s plane (world).
pub(super) fn face_origin(side: &PairSide, f: u32) -> DVec3 {
    let face = &side.brep.faces[f as usize];
    side.position + side.rotation * (face.normal * face.offset)
}

/// The faces whose closure holds the entity.
pub(super) fn faces_at(side: &PairSide, entity: Entity) -> Vec<u32> {
    let brep = side.brep;
    match entity {
        Entity::Face(f) => vec![f],
        Entity::Edge(e) => {
            let [f, g] = brep.edges[e as usize].faces;
            if f == g {
                vec![f]
            } else {
                vec![f, g]
            }
        }
        Entity::Vertex(v) => brep.vertices[v as usize].faces.clone(),
    }
}

/// Whether `low` lies in the closure of `high` (Bouma & Vaněček's adjacency).
pub(super) fn borders(side: &PairSide, low: Entity, high: Entity) -> bool {
    let brep = side.brep;
    match (low, high) {
        (Entity::Vertex(v), Entity::Edge(e)) => brep.edges[e as usize].ends.contains(&v),
        (Entity::Vertex(v), Entity::Face(f)) => brep.faces[f as usize].vertices.contains(&v),
        (Entity::Edge(e), Entity::Face(f)) => brep.edges[e as usize].faces.contains(&f),
        _ => false,
    }
}

/// Adjacent in either order (Bouma & Vaněček's symmetric definition).
pub(super) fn adjacent(side: &PairSide, x: Entity, y: Entity) -> bool {
    borders(side, x, y) || borders(side, y, x)
}

/// Whether the body's neighbourhood of the entity is convex: a face, a
/// convex edge, a corner whose edges are all convex.
pub(super) fn is_convex(side: &PairSide, entity: Entity) -> bool {
    let brep = side.brep;
    match entity {
        Entity::Face(_) => true,
        Entity::Edge(e) => brep.edges[e as usize].kind != EdgeKind::Concave,
        Entity::Vertex(v) => brep.vertices[v as usize]
            .edges
            .iter()
            .all(|&e| brep.edges[e as usize].kind != EdgeKind::Concave),
    }
}

/// The closest point of the entity to `p`; a face's is the projection on
/// its plane.
pub(super) fn closest_on(side: &PairSide, entity: Entity, p: DVec3) -> DVec3 {
    match entity {
        Entity::Vertex(v) => vertex_point(side, v),
        Entity::Edge(e) => nearest_on_path(&edge_path(side, e), p).0,
        Entity::Face(f) => {
            let n = face_normal(side, f);
            p - n * n.dot(p - face_origin(side, f))
        }
    }
}

/// The closest point to `p` on a polyline and the direction of the segment
/// it lies on.
pub(super) fn nearest_on_path(path: &[DVec3], p: DVec3) -> (DVec3, DVec3) {
    let mut best = (path[0], DVec3::ZERO, f64::INFINITY);
    for w in path.windows(2) {
        let (q, _) = closest_point_on_segment(p, w[0], w[1]);
        let d = (q - p).length_squared();
        if d < best.2 {
            best = (q, (w[1] - w[0]).normalize_or_zero(), d);
        }
    }
    (best.0, best.1)
}

/// Unit direction of an edge: its chord (edges of planar faces are
/// straight), or for a bent chain the segment nearest `p`.
pub(super) fn edge_direction(side: &PairSide, e: u32, p: DVec3) -> DVec3 {
    let path = edge_path(side, e);
    let chord = path[path.len() - 1] - path[0];
    let straight = path.iter().all(|&q| {
        (q - path[0]).cross(chord).length()
            <= crate::mesh::brep::COLLINEAR_SINE * chord.length_squared()
    });
    if straight && chord.length() > 0.0 {
        chord.normalize()
    } else {
        nearest_on_path(&path, p).1
    }
}
