//! Point queries on a posed body: is a point inside it (through its
//! tetrahedra), and which point of its whole surface is nearest, on which
//! triangle and B-rep face, with every equally near face reported. The
//! region methods of the ArtiSynth manual (§7.4.1: a penetrating vertex's
//! normal points to the nearest point of the other surface) and the
//! penetrating vertices of the contact regions
//! (`docs/design/other-methods.md`, "Shared machinery: contact regions of two
//! surface meshes", step 3: point-in-mesh through B's tetrahedra) read them.
//!
//! Both queries work in the body frame, where the mesh's bounding-volume
//! hierarchies ([`TetMesh::tet_tree`], [`TetMesh::surface_tree`]) are built
//! once per mesh: a query point is taken into the body frame, answers are
//! taken back to the world. A world point's body coordinates carry the
//! round-off of one rotation; everything after that is exact (containment)
//! or a few float operations (distances).
//!
//! - **Containment** ([`containing_tet`]): the first tetrahedron whose
//!   closed volume holds the point, decided by Shewchuk's exact orientation
//!   predicate on the body-frame coordinates, so a point on a face shared
//!   by two tetrahedra is never lost between them. The tetrahedra cover the
//!   body exactly once (`mesh::self_intersection`), so "in some
//!   tetrahedron" is "in the body".
//! - **Nearest surface point** ([`nearest_on_surface`]): over all surface
//!   triangles, with the part of the triangle (corner, edge, interior) the
//!   point lies on, so a caller can name the B-rep entity it is on
//!   ([`SurfaceHit::entity`]). Ties are per B-rep face: every face whose
//!   nearest point is within `tie_tol` of the nearest distance is reported
//!   (once, by its nearest triangle), so a caller can apply its own tie
//!   rule. Triangles of one face that tie (the point is nearest to a flat
//!   internal edge or vertex) are one face, not a tie.
//! - **Location** ([`locate`]): inside, on the surface within a tolerance
//!   (either side), or outside, combining the two. A point exactly on the
//!   surface is in a closed tetrahedron and at distance 0, so it is on the
//!   surface for every tolerance ≥ 0.

use super::brep_entity::Entity;
use super::world_mesh::WorldMesh;
use crate::geometry::{closest_point_on_triangle_part, Aabb, TrianglePart};
use crate::mesh::tetmesh::TET_FACES;
use crate::mesh::{Brep, TetMesh};
use glam::DVec3;
use robust::{orient3d, Coord3D};

/// Where a point is relative to a body's volume and surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointLocation {
    /// In the body and farther than the tolerance from its surface; `tet`
    /// is a tetrahedron that holds it.
    Inside { tet: u32 },
    /// Within the tolerance of the surface, inside or outside.
    OnSurface,
    /// Outside the body and farther than the tolerance from its surface.
    Outside,
}

/// The nearest point of one B-rep face to a query point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceHit {
    /// The B-rep face (index into `Brep::faces`).
    pub face: u32,
    /// The surface triangle of that face the point lies on (index into
    /// `TetMesh::surface_faces`); the lowest-numbered one when the point is
    /// on several (a shared edge or vertex).
    pub triangle: u32,
    /// Which part of that triangle the point is on.
    pub part: TrianglePart,
    /// The nearest point, world frame.
    pub point: DVec3,
    /// Its distance from the query point.
    pub distance: f64,
}

/// The nearest points of a body's surface to a query point: one hit per
/// B-rep face within the tie tolerance of the nearest, nearest first (then
/// by face index). Never empty.
#[derive(Clone, Debug, PartialEq)]
pub struct NearestSurface {
    pub hits: Vec<SurfaceHit>,
}

impl NearestSurface {
    /// The nearest hit (the lowest face among exact ties).
    pub fn nearest(&self) -> &SurfaceHit {
        &self.hits[0]
    }

    /// Distance from the query point to the surface.
    pub fn distance(&self) -> f64 {
        self.hits[0].distance
    }

    /// Whether more than one B-rep face is (within the tolerance) nearest.
    pub fn is_tie(&self) -> bool {
        self.hits.len() > 1
    }
}

/// A point's nearest surface points and on which side of the surface it is
/// ([`probe`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// A tetrahedron holding the point, if it is in the body (closed).
    pub tet: Option<u32>,
    pub nearest: NearestSurface,
}

impl Probe {
    /// Distance to the surface, negative inside the body.
    pub fn signed_distance(&self) -> f64 {
        match self.tet {
            Some(_) => -self.nearest.distance(),
            None => self.nearest.distance(),
        }
    }
}

fn coord(p: DVec3) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// Whether body-frame point `p` lies in the closed tetrahedron `t` of
/// `mesh`: on the inner side of (or on) each of its four faces, exactly.
fn tet_holds(mesh: &TetMesh, t: usize, p: DVec3) -> bool {
    let corners = mesh.tet_corners(t);
    // TET_FACES are counter-clockwise seen from outside; Shewchuk's
    // orient3d(a, b, c, d) is positive when d is below (a, b, c), i.e. on
    // the side opposite the face's outward normal: inside.
    TET_FACES.iter().all(|&[i, j, k]| {
        orient3d(
            coord(corners[i]),
            coord(corners[j]),
            coord(corners[k]),
            coord(p),
        ) >= 0.0
    })
}

/// A tetrahedron of `body` whose closed volume holds the world point `p`
/// (the first in tree order), or `None` when `p` is outside the body.
pub fn containing_tet(body: &WorldMesh, p: DVec3) -> Option<u32> {
    let q = body.to_body(p);
    let mesh = body.mesh;
    mesh.tet_tree()
        .find_overlapping(&Aabb { lo: q, hi: q }, |t| tet_holds(mesh, t as usize, q))
}

/// The nearest points of `body`'s surface to the world point `p`, if the
/// surface comes within `max_distance` of it (pass `f64::INFINITY` for an
/// unbounded search). See the module doc for the ties.
pub fn nearest_on_surface(
    body: &WorldMesh,
    p: DVec3,
    max_distance: f64,
    tie_tol: f64,
) -> Option<NearestSurface> {
    let mesh = body.mesh;
    let brep = mesh.brep();
    let q = body.to_body(p);
    // Every triangle within the current best distance plus the tie slack,
    // as (distance, triangle, part, body-frame point).
    let mut candidates: Vec<(f64, u32, TrianglePart, DVec3)> = Vec::new();
    let mut best = max_distance;
    let limit = |best: f64| {
        let r = best + tie_tol;
        r * r
    };
    mesh.surface_tree().for_each_near(q, limit(best), |f| {
        let [a, b, c] = mesh.face_corners(f as usize);
        let (point, part) = closest_point_on_triangle_part(q, a, b, c);
        let distance = (point - q).length();
        if distance <= best + tie_tol {
            candidates.push((distance, f, part, point));
            best = best.min(distance);
        }
        limit(best)
    });
    if candidates.is_empty() || best > max_distance {
        return None;
    }
    // One hit per B-rep face: its nearest triangle (the lowest-numbered
    // among equals), kept if the face ties with the overall nearest.
    candidates.retain(|c| c.0 <= best + tie_tol);
    candidates.sort_by(|x, y| {
        let (fx, fy) = (
            brep.face_of_triangle[x.1 as usize],
            brep.face_of_triangle[y.1 as usize],
        );
        fx.cmp(&fy).then(x.0.total_cmp(&y.0)).then(x.1.cmp(&y.1))
    });
    candidates.dedup_by_key(|c| brep.face_of_triangle[c.1 as usize]);
    let mut hits: Vec<SurfaceHit> = candidates
        .into_iter()
        .map(|(distance, triangle, part, point)| SurfaceHit {
            face: brep.face_of_triangle[triangle as usize],
            triangle,
            part,
            point: body.to_world(point),
            distance,
        })
        .collect();
    hits.sort_by(|x, y| x.distance.total_cmp(&y.distance).then(x.face.cmp(&y.face)));
    Some(NearestSurface { hits })
}

/// For a world point inside `body` or within `tol` of its surface: which
/// tetrahedron holds it and its nearest surface points (ties within
/// `tie_tol`); `None` for a point outside and farther than `tol`. One
/// containment query, then one nearest-point search (bounded by `tol` for
/// a point outside, so far points cost little).
pub fn probe(body: &WorldMesh, p: DVec3, tol: f64, tie_tol: f64) -> Option<Probe> {
    let tet = containing_tet(body, p);
    let max_distance = if tet.is_some() { f64::INFINITY } else { tol };
    let nearest = nearest_on_surface(body, p, max_distance, tie_tol)?;
    Some(Probe { tet, nearest })
}

/// Where the world point `p` is relative to `body`, with surface tolerance
/// `tol` (see [`PointLocation`]).
pub fn locate(body: &WorldMesh, p: DVec3, tol: f64) -> PointLocation {
    match containing_tet(body, p) {
        Some(tet) => match nearest_on_surface(body, p, tol, 0.0) {
            Some(_) => PointLocation::OnSurface,
            None => PointLocation::Inside { tet },
        },
        None => match nearest_on_surface(body, p, tol, 0.0) {
            Some(_) => PointLocation::OnSurface,
            None => PointLocation::Outside,
        },
    }
}

impl SurfaceHit {
    /// The open B-rep entity the hit point lies on: the face, or the B-rep
    /// edge or vertex its triangle part is on (a flat triangle edge or a
    /// vertex inside the face is still the face).
    pub fn entity(&self, mesh: &TetMesh, brep: &Brep) -> Entity {
        let corners = mesh.surface_faces[self.triangle as usize].vertices;
        match self.part {
            TrianglePart::Interior => Entity::Face(self.face),
            TrianglePart::Corner(k) => entity_of_mesh_vertex(mesh, brep, corners[k as usize])
                .unwrap_or(Entity::Face(self.face)),
            TrianglePart::Edge(k) => {
                let (u, v) = (corners[k as usize], corners[(k as usize + 1) % 3]);
                mesh.surface_edge_between(u, v)
                    .and_then(|e| brep.edge_of_surface_edge[e as usize])
                    .map_or(Entity::Face(self.face), Entity::Edge)
            }
        }
    }
}

/// The open B-rep entity a surface mesh vertex belongs to: a B-rep vertex,
/// a point inside a B-rep edge (it has non-flat surface edges, all of one
/// chain), or a point inside a face; `None` for an interior vertex.
pub fn entity_of_mesh_vertex(mesh: &TetMesh, brep: &Brep, v: u32) -> Option<Entity> {
    if let Some(corner) = brep.vertex_of_mesh_vertex[v as usize] {
        return Some(Entity::Vertex(corner));
    }
    let on_edge = mesh.surface_neighbours[v as usize]
        .iter()
        .filter_map(|&u| mesh.surface_edge_between(u, v))
        .filter_map(|e| brep.edge_of_surface_edge[e as usize])
        .min();
    if let Some(edge) = on_edge {
        return Some(Entity::Edge(edge));
    }
    mesh.vertex_faces[v as usize]
        .iter()
        .map(|&t| brep.face_of_triangle[t as usize])
        .min()
        .map(Entity::Face)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Pose;
    use crate::mesh::refine::refine;
    use crate::mesh::shapes::{Cuboid, Shape};
    use glam::DQuat;

    const FLAT: f64 = 1e-6;

    /// A 2 × 1 × 2 box (x, y, z), centred at the origin, refined `levels`
    /// times so its faces have internal vertices and edges.
    fn box_mesh(levels: usize) -> TetMesh {
        let mut mesh = Shape::from(Cuboid {
            size: DVec3::new(2.0, 1.0, 2.0),
        })
        .build(FLAT)
        .unwrap();
        for _ in 0..levels {
            mesh = refine(&mesh, FLAT).unwrap();
        }
        mesh
    }

    fn pose() -> Pose {
        Pose::new(
            DVec3::new(0.3, -1.2, 2.5),
            DQuat::from_axis_angle(DVec3::new(1.0, 2.0, -0.5).normalize(), 0.7),
        )
    }

    /// Brute force: the nearest distance over every surface triangle.
    fn brute_distance(mesh: &TetMesh, q: DVec3) -> f64 {
        (0..mesh.surface_faces.len())
            .map(|f| {
                let [a, b, c] = mesh.face_corners(f);
                (closest_point_on_triangle_part(q, a, b, c).0 - q).length()
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn containment_agrees_with_the_box_and_keeps_points_on_faces() {
        let mesh = box_mesh(1);
        let body = WorldMesh::new(&mesh, DVec3::ZERO, DQuat::IDENTITY);
        assert!(containing_tet(&body, DVec3::new(0.9, 0.4, -0.9)).is_some());
        assert!(containing_tet(&body, DVec3::new(1.1, 0.0, 0.0)).is_none());
        assert!(containing_tet(&body, DVec3::new(0.0, 0.5000001, 0.0)).is_none());
        // On the surface, on internal faces, at a corner: closed tetrahedra.
        assert!(containing_tet(&body, DVec3::new(0.0, 0.5, 0.0)).is_some());
        assert!(containing_tet(&body, DVec3::ZERO).is_some());
        assert!(containing_tet(&body, DVec3::new(1.0, 0.5, 1.0)).is_some());
        // A tetrahedron's centroid is interior to it and to no other.
        for t in 0..mesh.tets.len() {
            let c = mesh.tet_corners(t).iter().sum::<DVec3>() * 0.25;
            assert_eq!(containing_tet(&body, c), Some(t as u32));
        }
    }

    #[test]
    fn containment_is_the_same_at_any_pose() {
        let mesh = box_mesh(1);
        let Pose { position, rotation } = pose();
        let body = WorldMesh::new(&mesh, position, rotation);
        for (q, inside) in [
            (DVec3::new(0.99, 0.49, 0.99), true),
            (DVec3::new(-0.2, -0.3, 0.7), true),
            (DVec3::new(1.01, 0.0, 0.0), false),
            (DVec3::new(0.0, -0.51, 0.0), false),
        ] {
            assert_eq!(
                containing_tet(&body, position + rotation * q).is_some(),
                inside,
                "{q}"
            );
        }
    }

    #[test]
    fn nearest_point_of_a_point_inside_is_on_the_nearest_face() {
        let mesh = box_mesh(2);
        let Pose { position, rotation } = pose();
        let body = WorldMesh::new(&mesh, position, rotation);
        let brep = mesh.brep();
        // 0.1 below the top face (y = 0.5), far from the sides.
        let q = DVec3::new(0.2, 0.4, -0.3);
        let nearest = nearest_on_surface(&body, position + rotation * q, f64::INFINITY, 1e-9)
            .expect("an unbounded search always finds the surface");
        assert!(!nearest.is_tie());
        let hit = nearest.nearest();
        assert!((hit.distance - 0.1).abs() < 1e-12);
        assert!((brep.faces[hit.face as usize].normal - DVec3::Y).length() < 1e-12);
        let expected = position + rotation * DVec3::new(0.2, 0.5, -0.3);
        assert!((hit.point - expected).length() < 1e-12);
        assert_eq!(hit.entity(&mesh, brep), Entity::Face(hit.face));
    }

    #[test]
    fn a_point_equally_near_two_faces_reports_both_and_the_edge_between() {
        let mesh = box_mesh(1);
        let body = WorldMesh::new(&mesh, DVec3::ZERO, DQuat::IDENTITY);
        let brep = mesh.brep();
        // 0.1 from the top (y = 0.5) and from the side x = 1: a tie.
        let nearest =
            nearest_on_surface(&body, DVec3::new(0.9, 0.4, 0.3), f64::INFINITY, 1e-9).unwrap();
        assert_eq!(nearest.hits.len(), 2);
        let normals: Vec<DVec3> = nearest
            .hits
            .iter()
            .map(|h| brep.faces[h.face as usize].normal)
            .collect();
        assert!(normals.iter().any(|n| (*n - DVec3::Y).length() < 1e-12));
        assert!(normals.iter().any(|n| (*n - DVec3::X).length() < 1e-12));
        // Off the bisector by more than the tie tolerance: no tie.
        let single =
            nearest_on_surface(&body, DVec3::new(0.9, 0.41, 0.3), f64::INFINITY, 1e-9).unwrap();
        assert!(!single.is_tie());
        assert!((brep.faces[single.nearest().face as usize].normal - DVec3::Y).length() < 1e-12);
        // Outside, beyond the edge: both faces are nearest at the edge
        // itself, which the hits name.
        let beyond =
            nearest_on_surface(&body, DVec3::new(1.1, 0.6, 0.3), f64::INFINITY, 1e-9).unwrap();
        assert_eq!(beyond.hits.len(), 2);
        for hit in &beyond.hits {
            assert!((hit.point - DVec3::new(1.0, 0.5, 0.3)).length() < 1e-12);
            assert!(matches!(hit.entity(&mesh, brep), Entity::Edge(_)));
        }
    }

    #[test]
    fn the_nearest_distance_matches_brute_force() {
        let mesh = box_mesh(2);
        let Pose { position, rotation } = pose();
        let body = WorldMesh::new(&mesh, position, rotation);
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut uniform = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 3.0 - 1.5
        };
        for _ in 0..200 {
            let q = DVec3::new(uniform(), uniform(), uniform());
            let p = position + rotation * q;
            let nearest = nearest_on_surface(&body, p, f64::INFINITY, 0.0).unwrap();
            assert!((nearest.distance() - brute_distance(&mesh, q)).abs() < 1e-12);
            let inside = q.abs().cmplt(DVec3::new(1.0, 0.5, 1.0)).all();
            let probe = probe(&body, p, 0.0, 0.0).map(|pr| pr.signed_distance() < 0.0);
            assert_eq!(probe.unwrap_or(false), inside, "{q}");
        }
    }

    #[test]
    fn location_tells_inside_surface_and_outside_apart() {
        let mesh = box_mesh(0);
        let body = WorldMesh::new(&mesh, DVec3::ZERO, DQuat::IDENTITY);
        let tol = 1e-5;
        assert!(matches!(
            locate(&body, DVec3::new(0.0, 0.4, 0.0), tol),
            PointLocation::Inside { .. }
        ));
        for y in [0.5 - 0.5e-5, 0.5, 0.5 + 0.5e-5] {
            assert_eq!(
                locate(&body, DVec3::new(0.3, y, 0.1), tol),
                PointLocation::OnSurface
            );
        }
        assert_eq!(
            locate(&body, DVec3::new(0.3, 0.5 + 2e-5, 0.1), tol),
            PointLocation::Outside
        );
        assert!(probe(&body, DVec3::new(0.3, 0.5 + 2e-5, 0.1), tol, 0.0).is_none());
        let just_out = probe(&body, DVec3::new(0.3, 0.5 + 0.5e-5, 0.1), tol, 0.0).unwrap();
        assert!(just_out.tet.is_none() && just_out.signed_distance() > 0.0);
    }

    #[test]
    fn mesh_vertices_map_to_the_brep_entity_they_lie_in() {
        let mesh = box_mesh(1);
        let brep = mesh.brep();
        let mut counts = [0usize; 3];
        for v in 0..mesh.vertices.len() as u32 {
            if let Some(e) = entity_of_mesh_vertex(&mesh, brep, v) {
                counts[e.dimension() as usize] += 1;
            }
        }
        // One refinement of the cone-meshed box (two triangles a face): 8
        // corners, the midpoints of the 12 edges inside B-rep edges, and
        // the midpoint of each face's diagonal inside the face.
        assert_eq!(counts, [8, 12, 6]);
    }
}
