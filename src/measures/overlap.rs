//! How far the bodies really overlap: the judges' own geometric measure of
//! penetration (`docs/design/measures.md`, "Penetration"), which the step
//! record reports as `penetration` beside the method's own depth estimate
//! (`min_depth`).
//!
//! For two bodies A and B, the overlap depth is the largest distance, to
//! B's surface, of a probe point of A that lies inside B, and the same with
//! A and B swapped. A body's probe points are its vertices, the midpoints
//! of its surface edges and the centroids of its surface triangles. Any
//! point p inside both bodies bounds the translation that separates them
//! from below: moving A by t carries p to p + t, which must leave B, so
//! |t| ≥ dist(p, ∂B). The measure is therefore a lower bound of the
//! minimal separating translation, exact when the deepest point of the
//! intersection is a probe point: a corner pushed into a face, a box sunk
//! into the ground, and (through the midpoint of the diagonal that splits
//! a box's face into two triangles, the face's centre) two equal boxes
//! pushed sideways into each other.
//!
//! A pair of convex bodies gets the exact depth instead: the minimal
//! separating translation by the separating-axis theorem, the least overlap
//! of the two bodies' projections over the candidate axes (the normals of
//! both surfaces and the cross products of their edge directions; flat
//! edges inside a face are no edges of the solid). The vertex bound stays
//! for non-convex bodies, and for curved ones with too many axes to try.
//!
//! It shares no code with the contact methods, on purpose: a measure that
//! judges the methods must not make their mistakes. It reads only the
//! tetrahedra, the surface triangles and the poses, and does its own
//! culling (bounding spheres per body pair, a body-frame box per
//! tetrahedron and per surface triangle), point-in-tetrahedron test and
//! point–triangle distance.

// The judges share their primitives; the contact layer's are not used.
use super::oracle::prims::nearest_on_triangle;
use crate::geometry::Pose;
use crate::mesh::tetmesh::TetMesh;
use crate::scene::Scene;
use glam::DVec3;

/// One body pair's overlap, `depth` metres: exact (the minimal separating
/// translation) for two convex bodies, else a lower bound (a probe point
/// of one lies that deep inside the other).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyOverlap {
    pub a: usize,
    pub b: usize,
    pub depth: f64,
    pub exact: bool,
}

/// More candidate axes than this for one pair (two finely tessellated
/// spheres) and the pair gets the vertex bound instead of the exact depth.
const MAX_AXES: usize = 4096;

/// Directions closer than this (1 − |cos|) count as one axis; a surface
/// edge whose dihedral angle is within this of π is flat.
const SAME_DIRECTION: f64 = 1e-9;

/// An axis-aligned box in a body's frame.
#[derive(Clone, Copy, Debug)]
struct LocalBox {
    lo: DVec3,
    hi: DVec3,
}

impl LocalBox {
    fn of(points: impl IntoIterator<Item = DVec3>) -> LocalBox {
        points.into_iter().fold(
            LocalBox {
                lo: DVec3::splat(f64::INFINITY),
                hi: DVec3::splat(f64::NEG_INFINITY),
            },
            |b, p| LocalBox {
                lo: b.lo.min(p),
                hi: b.hi.max(p),
            },
        )
    }

    fn contains(&self, p: DVec3) -> bool {
        p.cmpge(self.lo).all() && p.cmple(self.hi).all()
    }

    /// The distance from `p` to the box (0 inside).
    fn distance(&self, p: DVec3) -> f64 {
        (self.lo - p).max(p - self.hi).max(DVec3::ZERO).length()
    }
}

/// What the measure keeps of one body: its bounding sphere and box in the
/// body frame, and a box per tetrahedron and per surface triangle.
#[derive(Clone, Debug)]
struct BodyExtent {
    /// Vertices, surface-edge midpoints and surface-triangle centroids.
    probes: Vec<DVec3>,
    /// For a convex body, its distinct face normals and edge directions
    /// and its surface vertices (body frame); `None` when not convex.
    convex: Option<ConvexHull>,
    centre: DVec3,
    radius: f64,
    bounds: LocalBox,
    tet_boxes: Vec<LocalBox>,
    face_boxes: Vec<LocalBox>,
}

impl BodyExtent {
    fn of(mesh: &TetMesh) -> BodyExtent {
        let bounds = LocalBox::of(mesh.vertices.iter().copied());
        let centre = (bounds.lo + bounds.hi) * 0.5;
        let radius = mesh
            .vertices
            .iter()
            .map(|v| (*v - centre).length())
            .fold(0.0, f64::max);
        let probes = mesh
            .vertices
            .iter()
            .copied()
            .chain(mesh.surface_edges.iter().map(|e| {
                (mesh.vertices[e.vertices[0] as usize] + mesh.vertices[e.vertices[1] as usize])
                    * 0.5
            }))
            .chain((0..mesh.surface_faces.len()).map(|f| {
                let [a, b, c] = mesh.face_corners(f);
                (a + b + c) / 3.0
            }))
            .collect();
        BodyExtent {
            convex: ConvexHull::of(mesh),
            probes,
            centre,
            radius,
            bounds,
            tet_boxes: (0..mesh.tets.len())
                .map(|t| LocalBox::of(mesh.tet_corners(t)))
                .collect(),
            face_boxes: (0..mesh.surface_faces.len())
                .map(|f| LocalBox::of(mesh.face_corners(f)))
                .collect(),
        }
    }
}

/// What the separating-axis test needs of a convex body, in its frame.
#[derive(Clone, Debug)]
struct ConvexHull {
    normals: Vec<DVec3>,
    edges: Vec<DVec3>,
    vertices: Vec<DVec3>,
}

impl ConvexHull {
    /// The hull data, when every surface vertex lies behind every surface
    /// face's plane (to a millionth of the body's size).
    fn of(mesh: &TetMesh) -> Option<ConvexHull> {
        let vertices: Vec<DVec3> = (0..mesh.vertices.len())
            .filter(|&v| !mesh.vertex_faces[v].is_empty())
            .map(|v| mesh.vertices[v])
            .collect();
        let size = LocalBox::of(vertices.iter().copied());
        let tolerance = 1e-6 * (size.hi - size.lo).length();
        let convex = mesh.surface_faces.iter().all(|face| {
            let on = mesh.vertices[face.vertices[0] as usize];
            vertices
                .iter()
                .all(|v| (*v - on).dot(face.normal) <= tolerance)
        });
        if !convex {
            return None;
        }
        let normals = distinct(mesh.surface_faces.iter().map(|f| f.normal));
        let edges = distinct(
            mesh.surface_edges
                .iter()
                .filter(|e| e.dihedral < std::f64::consts::PI - SAME_DIRECTION)
                .filter_map(|e| {
                    (mesh.vertices[e.vertices[1] as usize] - mesh.vertices[e.vertices[0] as usize])
                        .try_normalize()
                }),
        );
        Some(ConvexHull {
            normals,
            edges,
            vertices,
        })
    }
}

/// The directions of `units`, each once up to sign.
fn distinct(units: impl Iterator<Item = DVec3>) -> Vec<DVec3> {
    let mut kept: Vec<DVec3> = Vec::new();
    for u in units {
        if !kept.iter().any(|k| 1.0 - k.dot(u).abs() < SAME_DIRECTION) {
            kept.push(u);
        }
    }
    kept
}

/// The minimal translation that separates two convex bodies (0 when they
/// do not overlap), from their hulls and poses: the least overlap of their
/// projections over the candidate axes. `None` when there are too many
/// axes to try.
fn convex_depth(a: &ConvexHull, pose_a: Pose, b: &ConvexHull, pose_b: Pose) -> Option<f64> {
    if a.normals.len() + b.normals.len() + a.edges.len() * b.edges.len() > MAX_AXES {
        return None;
    }
    let world = |hull: &ConvexHull, pose: Pose| -> Vec<DVec3> {
        let (p, q) = (pose.position, pose.rotation);
        hull.vertices.iter().map(|v| p + q * *v).collect()
    };
    let (points_a, points_b) = (world(a, pose_a), world(b, pose_b));
    let span = |points: &[DVec3], axis: DVec3| {
        points
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                let x = p.dot(axis);
                (lo.min(x), hi.max(x))
            })
    };
    let normals = a
        .normals
        .iter()
        .map(|n| pose_a.rotation * *n)
        .chain(b.normals.iter().map(|n| pose_b.rotation * *n));
    let crosses = a.edges.iter().flat_map(|ea| {
        b.edges.iter().filter_map(move |eb| {
            (pose_a.rotation * *ea)
                .cross(pose_b.rotation * *eb)
                .try_normalize()
        })
    });
    let mut least = f64::INFINITY;
    for axis in normals.chain(crosses) {
        let (lo_a, hi_a) = span(&points_a, axis);
        let (lo_b, hi_b) = span(&points_b, axis);
        least = least.min((hi_a - lo_b).min(hi_b - lo_a));
        if least <= 0.0 {
            return Some(0.0);
        }
    }
    Some(least)
}

/// The penetration measure of one scene: built once from its meshes, then
/// asked at any pose of its bodies.
#[derive(Clone, Debug)]
pub struct OverlapMeter {
    bodies: Vec<BodyExtent>,
}

impl OverlapMeter {
    pub fn new(scene: &Scene) -> OverlapMeter {
        OverlapMeter {
            bodies: scene
                .bodies
                .iter()
                .map(|b| BodyExtent::of(&b.mesh))
                .collect(),
        }
    }

    /// Every pair of bodies, at least one of them free, that overlaps by
    /// more than `at_least` metres at `poses` (world position of the centre
    /// of mass and rotation, by body), deepest first, one entry per pair.
    pub fn overlaps(&self, scene: &Scene, poses: &[Pose], at_least: f64) -> Vec<BodyOverlap> {
        let n = self.bodies.len();
        let mut found = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if scene.bodies[a].fixed && scene.bodies[b].fixed {
                    continue;
                }
                let centre =
                    |i: usize| poses[i].position + poses[i].rotation * self.bodies[i].centre;
                if (centre(a) - centre(b)).length() > self.bodies[a].radius + self.bodies[b].radius
                {
                    continue;
                }
                let exact = match (&self.bodies[a].convex, &self.bodies[b].convex) {
                    (Some(hull_a), Some(hull_b)) => {
                        convex_depth(hull_a, poses[a], hull_b, poses[b])
                    }
                    _ => None,
                };
                let depth = exact.unwrap_or_else(|| {
                    self.vertex_depth(scene, poses, a, b)
                        .max(self.vertex_depth(scene, poses, b, a))
                });
                if depth > at_least {
                    found.push(BodyOverlap {
                        a,
                        b,
                        depth,
                        exact: exact.is_some(),
                    });
                }
            }
        }
        found.sort_by(|x, y| y.depth.total_cmp(&x.depth));
        found
    }

    /// The deepest overlap of the scene at `poses`: 0 when no bodies
    /// overlap.
    pub fn deepest(&self, scene: &Scene, poses: &[Pose]) -> f64 {
        self.overlaps(scene, poses, 0.0)
            .first()
            .map_or(0.0, |o| o.depth)
    }

    /// The largest distance to `outer`'s surface of a probe point of
    /// `inner` that lies inside `outer` (0 when none does).
    fn vertex_depth(&self, scene: &Scene, poses: &[Pose], inner: usize, outer: usize) -> f64 {
        let (p_in, q_in) = (poses[inner].position, poses[inner].rotation);
        let (p_out, q_out) = (poses[outer].position, poses[outer].rotation);
        let to_outer = q_out.inverse();
        let mesh = &scene.bodies[outer].mesh;
        let extent = &self.bodies[outer];
        let mut deepest = 0.0_f64;
        for v in &self.bodies[inner].probes {
            let p = to_outer * (p_in + q_in * *v - p_out);
            if !extent.bounds.contains(p) || !inside(mesh, extent, p) {
                continue;
            }
            deepest = deepest.max(surface_distance(mesh, extent, p, deepest));
        }
        deepest
    }
}

/// Whether body-frame point `p` lies in one of the mesh's tetrahedra
/// (boundary included).
fn inside(mesh: &TetMesh, extent: &BodyExtent, p: DVec3) -> bool {
    (0..mesh.tets.len())
        .any(|t| extent.tet_boxes[t].contains(p) && in_tetrahedron(mesh.tet_corners(t), p))
}

/// Whether `p` is in the tetrahedron `[a, b, c, d]` of either orientation:
/// each of the four tetrahedra with `p` in place of a corner has the whole
/// one's orientation, or none.
fn in_tetrahedron([a, b, c, d]: [DVec3; 4], p: DVec3) -> bool {
    let volume = |a: DVec3, b: DVec3, c: DVec3, d: DVec3| (b - a).cross(c - a).dot(d - a);
    let whole = volume(a, b, c, d);
    [
        volume(p, b, c, d),
        volume(a, p, c, d),
        volume(a, b, p, d),
        volume(a, b, c, p),
    ]
    .iter()
    .all(|part| part * whole >= 0.0)
}

/// The distance from `p` to the mesh's surface, given that the answer
/// matters only when it exceeds `floor` (the triangles whose box is no
/// nearer than the best found so far are skipped).
fn surface_distance(mesh: &TetMesh, extent: &BodyExtent, p: DVec3, floor: f64) -> f64 {
    let mut best = f64::INFINITY;
    for (f, face_box) in extent.face_boxes.iter().enumerate() {
        if face_box.distance(p) >= best {
            continue;
        }
        let [a, b, c] = mesh.face_corners(f);
        best = best.min((nearest_on_triangle(p, a, b, c) - p).length());
        if best <= floor {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_point_on_a_triangle_by_region() {
        let (a, b, c) = (DVec3::ZERO, DVec3::X, DVec3::Y);
        let over_face = nearest_on_triangle(DVec3::new(0.2, 0.2, 5.0), a, b, c);
        assert!((over_face - DVec3::new(0.2, 0.2, 0.0)).length() < 1e-15);
        assert_eq!(nearest_on_triangle(DVec3::new(-1.0, -1.0, 0.0), a, b, c), a);
        assert_eq!(
            nearest_on_triangle(DVec3::new(0.5, -2.0, 1.0), a, b, c),
            DVec3::new(0.5, 0.0, 0.0)
        );
        let on_hypotenuse = nearest_on_triangle(DVec3::new(1.0, 1.0, 0.0), a, b, c);
        assert!((on_hypotenuse - DVec3::new(0.5, 0.5, 0.0)).length() < 1e-15);
    }

    #[test]
    fn points_in_a_tetrahedron_of_either_orientation() {
        let corners = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
        let flipped = [DVec3::ZERO, DVec3::Y, DVec3::X, DVec3::Z];
        for tet in [corners, flipped] {
            assert!(in_tetrahedron(tet, DVec3::splat(0.1)));
            assert!(in_tetrahedron(tet, DVec3::new(0.5, 0.5, 0.0)));
            assert!(!in_tetrahedron(tet, DVec3::splat(0.5)));
            assert!(!in_tetrahedron(tet, DVec3::new(-0.01, 0.1, 0.1)));
        }
    }
}
