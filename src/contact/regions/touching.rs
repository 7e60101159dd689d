//! The touching part of the contact regions: Bouma & Vaněček's intersection set
//! (Bouma & Vaněček, §3, Lemma 1) with a tolerance. Every pair of open
//! B-rep entities (x of A, y of B; vertex, edge or face, design
//! `docs/design/other-methods.md`) that come within `tol` of each other, with the piece
//! Π where they do: a point, a segment or a convex polygon.
//!
//! **Open sets with a tolerance.** Bouma & Vaněček treats a face without its edges
//! and an edge without its end vertices. With a tolerance a point belongs
//! to the lowest-dimensional entity within `tol` of it: a vertex of B within
//! `tol` of a corner of A's face is (vertex, vertex), not (vertex, face); an
//! edge pair whose closest points lie within `tol` of an end vertex is left
//! to the vertex pairs there. This decides *which* pairs touch. *Where* they
//! touch, Π, is the closure: an edge lying on a face gives the whole stretch
//! of the edge over the face, up to the face's boundary and the edge's ends,
//! so the regions' hulls do not shrink by the tolerance (the wedge's ridge
//! on the ground is one segment from end to end).
//!
//! **Snapping, not thickening.** As in `exact_regions`, a straight piece
//! touches a plane when both its ends are within `tol` of it (it is then
//! taken to lie on it), not wherever it passes within `tol`: a spike's
//! slanted edges, which leave the ground at its tip, touch only at the tip,
//! not along the first `tol / sin θ` of their length. A piece that crosses
//! the plane beyond `tol` on both sides is an interpenetration (the
//! penetrating part's intersection contours), not a touching pair.
//!
//! **The pairs and their pieces** (each Π midway between the two bodies'
//! surfaces, so that it does not depend on which body is A):
//!
//! - vertex–vertex: closer than `tol`; Π the midpoint.
//! - vertex–edge: the vertex within `tol` of the edge and farther than `tol`
//!   from its end vertices.
//! - vertex–face: within `tol` of the face's plane, inside the face and
//!   farther than `tol` from its boundary.
//! - edge–edge: *collinear*, when they run within `tol` of each other over
//!   their overlap, Π the overlap (a segment) if some of it is farther than
//!   `tol` from the four end vertices; otherwise *crossing*, when their
//!   closest points are within `tol` and farther than `tol` from every end
//!   vertex, Π the point.
//! - edge–face: the stretches of the edge over the closed face whose ends
//!   are both within `tol` of the face's plane, each a segment if some of
//!   it is farther than `tol` from the face's boundary and from the edge's
//!   end vertices.
//! - face–face: opposing faces (normals pointing at each other) whose
//!   overlap in A's plane has area (wider than `tol` and more area than a
//!   `tol`-wide strip, as `exact_regions` requires) and lies within `tol` of
//!   B's plane. When both faces are convex Π is their overlap, one convex
//!   polygon; when one is not (a face with a notch or a hole), its
//!   triangles are used instead and the pair gives one convex Π per
//!   overlapping pair of pieces, which together tile the overlap (which
//!   may be non-convex or have several components).
//!
//! **Round-off.** Every decision compares a distance with `tol`, which is
//! far above round-off, so only configurations exactly at the tolerance
//! could go either way (the tie rules of `contact::touching`); the inside
//! test of a point in a face runs only for points farther than `tol` from
//! its boundary and uses the exact orientation predicate (`robust`) on the
//! projected coordinates. Edges are straight chains for planar faces (one
//! segment, end to end); a bent chain (a non-planar face merged by a large
//! flat angle) is taken segment by segment. Faces are taken as planar
//! (`BrepFace::flatness` says how far they are from it).
//!
//! Cost: every entity of one body near the other's bounding box against
//! every such entity of the other, with bounding-box rejection; the bodies
//! of the built-in scenes have at most a few dozen B-rep entities there.

use super::{group_touching, ContactRegions, Entity, EntityContact};
use crate::contact::body_pair::{BodyPair, PairSide};
use crate::contact::exact_regions::has_area;
use crate::geometry::{
    clip_convex_polygon, closest_point_on_segment, closest_points_segments, line_in_convex_polygon,
    line_near_segment, polygon_area_2d, Aabb, PlaneFrame,
};
use crate::mesh::brep::COLLINEAR_SINE;
use glam::{DVec2, DVec3};

/// Two segments count as running side by side (the collinear test) only
/// when the angle between them is below 60° (|cos| ≥ 0.5); steeper pairs
/// can only cross, and the overlap along one would be ill-conditioned.
const SIDE_BY_SIDE_COS: f64 = 0.5;

/// The touching regions of a body pair: [`touching_entity_contacts`]
/// grouped into connected regions ([`group_touching`]), each with depth 0.
pub fn touching_regions(pair: &BodyPair, tol: f64) -> ContactRegions {
    group_touching(touching_entity_contacts(pair, tol), tol)
}

/// Every pair of open B-rep entities of A and B within `tol` of each other,
/// with its piece (the module's rules). In a fixed order: vertex–vertex,
/// vertex–edge, edge–vertex, vertex–face, face–vertex, edge–edge,
/// edge–face, face–edge, face–face, each by A's entity and then B's.
pub fn touching_entity_contacts(pair: &BodyPair, tol: f64) -> Vec<EntityContact> {
    let (a, b) = sides(pair, tol);
    let mut out = Vec::new();
    vertex_vertex(&a, &b, tol, &mut out);
    vertex_edge(&a, &b, false, tol, &mut out);
    vertex_edge(&b, &a, true, tol, &mut out);
    vertex_face(&a, &b, false, tol, &mut out);
    vertex_face(&b, &a, true, tol, &mut out);
    edge_edge(&a, &b, tol, &mut out);
    edge_face(&a, &b, false, tol, &mut out);
    edge_face(&b, &a, true, tol, &mut out);
    face_face(&a, &b, tol, &mut out);
    out
}

/// An edge of one body crossing the open face of the other with its ends
/// beyond the tolerance on both sides: an interpenetration deeper than
/// the tolerance, which the touching pairs leave out (the regions'
/// penetrating part describes it; this is only what a method needs to
/// push the bodies back to touching).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepCrossing {
    /// Whether the face is A's (the edge B's) or B's.
    pub face_of_a: bool,
    pub face: u32,
    /// The face's outward unit normal (world).
    pub normal: DVec3,
    /// How far behind the face's plane the edge's stretch inside the
    /// face's body reaches: the stretch runs from the crossing inwards to
    /// the edge's next crossing of that body's surface, or to its end.
    pub depth: f64,
}

/// Every edge of one body that crosses an open face of the other (farther
/// than `tol` from its boundary) with its ends beyond `tol` on both sides
/// of the plane; A's faces first, then B's, each edge by edge.
pub fn deep_crossings(pair: &BodyPair, tol: f64) -> Vec<DeepCrossing> {
    let (a, b) = sides(pair, tol);
    let mut out = Vec::new();
    for (faces, edges, face_of_a) in [(&a, &b, true), (&b, &a, false)] {
        for e in &edges.edges {
            for &[s, t] in &e.segments {
                // Where the segment crosses the closed faces: (parameter,
                // face, whether it goes inwards with t, open face).
                let mut crossings: Vec<(f64, &FaceAt, bool, bool)> = Vec::new();
                for f in faces.faces.iter().filter(|f| e.aabb.overlaps(&f.aabb)) {
                    let (hs, ht) = (f.height(s), f.height(t));
                    if !((hs > tol && ht < -tol) || (hs < -tol && ht > tol)) {
                        continue;
                    }
                    let x = hs / (hs - ht);
                    let q = f.frame.to_2d(s.lerp(t, x));
                    let clear = f.boundary_distance(q) > tol;
                    if !clear || f.contains(q) {
                        crossings.push((x, f, hs > 0.0, clear));
                    }
                }
                crossings.sort_by(|x, y| x.0.total_cmp(&y.0));
                for (k, &(_, f, inwards, clear)) in crossings.iter().enumerate() {
                    if !clear {
                        continue;
                    }
                    // The stretch inside runs to the neighbouring crossing
                    // on the inner side, or to the segment's end.
                    let end = if inwards {
                        crossings.get(k + 1).map_or(1.0, |c| c.0)
                    } else {
                        k.checked_sub(1).map_or(0.0, |j| crossings[j].0)
                    };
                    out.push(DeepCrossing {
                        face_of_a,
                        face: f.index,
                        normal: f.frame.normal,
                        depth: -f.height(s.lerp(t, end)).min(0.0),
                    });
                }
            }
        }
    }
    out
}

/// Both bodies' entities near the other body (their bounding boxes'
/// overlap widened by `tol`).
fn sides(pair: &BodyPair, tol: f64) -> (Side, Side) {
    let near = pair
        .a
        .world
        .aabb()
        .intersection(&pair.b.world.aabb())
        .inflated(tol);
    (
        Side::new(&pair.a, &near, tol),
        Side::new(&pair.b, &near, tol),
    )
}

/// A B-rep vertex at its world position.
struct VertexAt {
    index: u32,
    point: DVec3,
}

/// A B-rep edge in world coordinates: its segments (one for a straight
/// chain) and its two end points.
struct EdgeAt {
    index: u32,
    segments: Vec<[DVec3; 2]>,
    ends: [DVec3; 2],
    aabb: Aabb,
}

impl EdgeAt {
    /// Whether segment `k`'s start (`end` 0) or end (`end` 1) is an end
    /// vertex of the edge rather than a point inside it.
    fn is_end(&self, k: usize, end: usize) -> bool {
        if end == 0 {
            k == 0
        } else {
            k + 1 == self.segments.len()
        }
    }
}

/// A B-rep face in world coordinates.
struct FaceAt {
    index: u32,
    /// Its plane, origin on it, `normal` the outward face normal.
    frame: PlaneFrame,
    /// Boundary loops in the frame (counter-clockwise seen from outside).
    loops: Vec<Vec<DVec2>>,
    /// Convex pieces covering the face, counter-clockwise in the frame: the
    /// one loop of a convex face, otherwise its triangles.
    pieces: Vec<Vec<DVec2>>,
    /// The same pieces in world coordinates.
    pieces_3d: Vec<Vec<DVec3>>,
    aabb: Aabb,
}

impl FaceAt {
    /// Signed distance from the face's plane.
    fn height(&self, p: DVec3) -> f64 {
        self.frame.distance(p)
    }

    /// Boundary segments in the frame.
    fn boundary(&self) -> impl Iterator<Item = (DVec2, DVec2)> + '_ {
        self.loops
            .iter()
            .flat_map(|l| (0..l.len()).map(move |i| (l[i], l[(i + 1) % l.len()])))
    }

    /// Distance in the plane from `q` to the face's boundary.
    fn boundary_distance(&self, q: DVec2) -> f64 {
        self.boundary()
            .map(|(s, e)| distance_to_segment_2d(q, s, e))
            .fold(f64::INFINITY, f64::min)
    }

    /// Whether `q` is inside the face (even–odd rule over its loops, so
    /// holes are outside). Meant for points away from the boundary.
    fn contains(&self, q: DVec2) -> bool {
        let c = |p: DVec2| robust::Coord { x: p.x, y: p.y };
        let mut inside = false;
        for (s, e) in self.boundary() {
            if (s.y > q.y) != (e.y > q.y) {
                // The boundary crosses the horizontal line through q; it
                // does so right of q when q is left of an upward segment
                // or right of a downward one.
                let left = robust::orient2d(c(s), c(e), c(q)) > 0.0;
                if left == (e.y > s.y) {
                    inside = !inside;
                }
            }
        }
        inside
    }
}

/// One body's entities near the other body, in world coordinates.
struct Side {
    vertices: Vec<VertexAt>,
    edges: Vec<EdgeAt>,
    faces: Vec<FaceAt>,
}

impl Side {
    fn new(side: &PairSide, near: &Aabb, tol: f64) -> Side {
        let brep = side.brep;
        let world = &side.world.vertices;
        let mesh = side.world.mesh;
        let vertices = brep
            .vertices
            .iter()
            .enumerate()
            .map(|(i, v)| VertexAt {
                index: i as u32,
                point: world[v.mesh_vertex as usize],
            })
            .filter(|v| near.contains(v.point))
            .collect();
        let mut edges = Vec::new();
        for (i, edge) in brep.edges.iter().enumerate() {
            let path: Vec<DVec3> = edge.path.iter().map(|&m| world[m as usize]).collect();
            let aabb = Aabb::of(&path).inflated(tol);
            if !aabb.overlaps(near) || path.len() < 2 {
                continue;
            }
            let (first, last) = (path[0], path[path.len() - 1]);
            let chord = last - first;
            let straight = path.iter().all(|&p| {
                (p - first).cross(chord).length() <= COLLINEAR_SINE * chord.length_squared()
            });
            let segments = if straight && chord.length() > 0.0 {
                vec![[first, last]]
            } else {
                path.windows(2).map(|w| [w[0], w[1]]).collect()
            };
            edges.push(EdgeAt {
                index: i as u32,
                segments,
                ends: [first, last],
                aabb,
            });
        }
        let mut faces = Vec::new();
        for (i, face) in brep.faces.iter().enumerate() {
            let corners: Vec<DVec3> = face
                .boundary
                .iter()
                .flatten()
                .map(|&m| world[m as usize])
                .collect();
            if corners.is_empty() {
                continue;
            }
            let aabb = Aabb::of(&corners).inflated(tol);
            if !aabb.overlaps(near) {
                continue;
            }
            let normal = side.to_world(face.normal);
            let origin = side.position + side.rotation * (face.normal * face.offset);
            let frame = PlaneFrame::new(origin, normal);
            let loops: Vec<Vec<DVec2>> = face
                .boundary
                .iter()
                .map(|l| l.iter().map(|&m| frame.to_2d(world[m as usize])).collect())
                .collect();
            let (pieces, pieces_3d) = if loops.len() == 1 && is_convex(&loops[0]) {
                let loop_3d = face.boundary[0]
                    .iter()
                    .map(|&m| world[m as usize])
                    .collect();
                (vec![loops[0].clone()], vec![loop_3d])
            } else {
                let triangles: Vec<Vec<DVec3>> = face
                    .triangles
                    .iter()
                    .map(|&t| {
                        mesh.surface_faces[t as usize]
                            .vertices
                            .iter()
                            .map(|&m| world[m as usize])
                            .collect()
                    })
                    .collect();
                let flat = triangles
                    .iter()
                    .map(|t| t.iter().map(|&p| frame.to_2d(p)).collect())
                    .collect();
                (flat, triangles)
            };
            faces.push(FaceAt {
                index: i as u32,
                frame,
                loops,
                pieces,
                pieces_3d,
                aabb,
            });
        }
        Side {
            vertices,
            edges,
            faces,
        }
    }
}

/// Whether a closed polygon turns left (or goes straight) at every corner,
/// straight meaning within [`COLLINEAR_SINE`].
fn is_convex(polygon: &[DVec2]) -> bool {
    let n = polygon.len();
    n >= 3
        && polygon_area_2d(polygon) > 0.0
        && (0..n).all(|i| {
            let (a, b, c) = (polygon[i], polygon[(i + 1) % n], polygon[(i + 2) % n]);
            let (u, v) = (b - a, c - b);
            u.perp_dot(v) >= -COLLINEAR_SINE * u.length() * v.length()
        })
}

fn distance_to_segment_2d(q: DVec2, s: DVec2, e: DVec2) -> f64 {
    let d = e - s;
    let t = ((q - s).dot(d) / d.length_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
    (q - (s + d * t)).length()
}

/// Appends (x, y, Π) with x of the first side and y of the second, in A, B
/// order (`swapped`: the first side is B).
fn push(out: &mut Vec<EntityContact>, swapped: bool, x: Entity, y: Entity, points: Vec<DVec3>) {
    let (a, b) = if swapped { (y, x) } else { (x, y) };
    out.push(EntityContact {
        a,
        b,
        points,
        normal: None,
    });
}

fn vertex_vertex(a: &Side, b: &Side, tol: f64, out: &mut Vec<EntityContact>) {
    for va in &a.vertices {
        for vb in &b.vertices {
            if (va.point - vb.point).length() <= tol {
                push(
                    out,
                    false,
                    Entity::Vertex(va.index),
                    Entity::Vertex(vb.index),
                    vec![(va.point + vb.point) * 0.5],
                );
            }
        }
    }
}

/// Vertices of `vs` on the open edges of `es`.
fn vertex_edge(vs: &Side, es: &Side, swapped: bool, tol: f64, out: &mut Vec<EntityContact>) {
    for v in &vs.vertices {
        for e in &es.edges {
            if !e.aabb.contains(v.point) || e.ends.iter().any(|&x| (v.point - x).length() <= tol) {
                continue;
            }
            let nearest = e
                .segments
                .iter()
                .map(|[s, t]| closest_point_on_segment(v.point, *s, *t).0)
                .min_by(|x, y| {
                    (*x - v.point)
                        .length_squared()
                        .total_cmp(&(*y - v.point).length_squared())
                });
            if let Some(q) = nearest.filter(|q| (*q - v.point).length() <= tol) {
                push(
                    out,
                    swapped,
                    Entity::Vertex(v.index),
                    Entity::Edge(e.index),
                    vec![(v.point + q) * 0.5],
                );
            }
        }
    }
}

/// Vertices of `vs` on the open faces of `fs`.
fn vertex_face(vs: &Side, fs: &Side, swapped: bool, tol: f64, out: &mut Vec<EntityContact>) {
    for v in &vs.vertices {
        for f in &fs.faces {
            if !f.aabb.contains(v.point) {
                continue;
            }
            let h = f.height(v.point);
            if h.abs() > tol {
                continue;
            }
            let q = f.frame.to_2d(v.point);
            if f.boundary_distance(q) > tol && f.contains(q) {
                push(
                    out,
                    swapped,
                    Entity::Vertex(v.index),
                    Entity::Face(f.index),
                    vec![v.point - f.frame.normal * (0.5 * h)],
                );
            }
        }
    }
}

fn edge_edge(a: &Side, b: &Side, tol: f64, out: &mut Vec<EntityContact>) {
    for ea in &a.edges {
        for eb in &b.edges {
            if !ea.aabb.overlaps(&eb.aabb) {
                continue;
            }
            let ends = [ea.ends[0], ea.ends[1], eb.ends[0], eb.ends[1]];
            for (i, &[p1, q1]) in ea.segments.iter().enumerate() {
                for (j, &[p2, q2]) in eb.segments.iter().enumerate() {
                    let piece = match side_by_side(
                        [p1, q1],
                        [p2, q2],
                        [ea.is_end(i, 0), ea.is_end(i, 1)],
                        [eb.is_end(j, 0), eb.is_end(j, 1)],
                        tol,
                    ) {
                        SideBySide::Overlap(points) => Some(points),
                        SideBySide::AtEnds => None,
                        SideBySide::No => crossing([p1, q1], [p2, q2], &ends, tol),
                    };
                    if let Some(points) = piece {
                        push(
                            out,
                            false,
                            Entity::Edge(ea.index),
                            Entity::Edge(eb.index),
                            points,
                        );
                    }
                }
            }
        }
    }
}

/// How two segments lie along each other.
enum SideBySide {
    /// Within `tol` of each other over an overlap that reaches beyond the
    /// end vertices' tolerance: Π, the overlap's two ends.
    Overlap(Vec<DVec3>),
    /// Side by side, but only where end vertices are (their pairs).
    AtEnds,
    No,
}

/// The collinear edge–edge test. `end1`, `end2`: whether each segment's
/// start and end are end vertices of their edges.
fn side_by_side(
    [p1, q1]: [DVec3; 2],
    [p2, q2]: [DVec3; 2],
    end1: [bool; 2],
    end2: [bool; 2],
    tol: f64,
) -> SideBySide {
    let (d1, d2) = (q1 - p1, q2 - p2);
    let (l1, l2) = (d1.length(), d2.length());
    if l1 == 0.0 || l2 == 0.0 {
        return SideBySide::No;
    }
    let u = d1 / l1;
    if u.dot(d2).abs() < SIDE_BY_SIDE_COS * l2 {
        return SideBySide::No;
    }
    // Segment 2 along segment 1's line, and their overlap [lo, hi].
    let (a2, b2) = (u.dot(p2 - p1), u.dot(q2 - p1));
    let (lo, hi) = (a2.min(b2).max(0.0), a2.max(b2).min(l1));
    if lo > hi {
        return SideBySide::No;
    }
    let on_1 = |s: f64| p1 + u * s;
    let on_2 = |s: f64| p2 + d2 * ((s - a2) / (b2 - a2));
    if (on_1(lo) - on_2(lo)).length() > tol || (on_1(hi) - on_2(hi)).length() > tol {
        return SideBySide::No;
    }
    // Some of the overlap beyond `tol` of every end vertex?
    let mut bands: Vec<(f64, f64)> = Vec::with_capacity(4);
    for (is_end, s) in [(end1[0], 0.0), (end1[1], l1), (end2[0], a2), (end2[1], b2)] {
        if is_end {
            bands.push((s - tol, s + tol));
        }
    }
    if !uncovered(lo, hi, &mut bands) {
        return SideBySide::AtEnds;
    }
    SideBySide::Overlap(vec![
        (on_1(lo) + on_2(lo)) * 0.5,
        (on_1(hi) + on_2(hi)) * 0.5,
    ])
}

/// The crossing edge–edge test: closest points within `tol`, both farther
/// than `tol` from every end vertex.
fn crossing(
    [p1, q1]: [DVec3; 2],
    [p2, q2]: [DVec3; 2],
    ends: &[DVec3; 4],
    tol: f64,
) -> Option<Vec<DVec3>> {
    let (c1, c2, _, _) = closest_points_segments(p1, q1, p2, q2);
    if (c1 - c2).length() > tol {
        return None;
    }
    let at_end = |c: DVec3| ends.iter().any(|&e| (c - e).length() <= tol);
    if at_end(c1) || at_end(c2) {
        return None;
    }
    Some(vec![(c1 + c2) * 0.5])
}

/// Whether some of [lo, hi] (of positive length) lies outside every band.
fn uncovered(lo: f64, hi: f64, bands: &mut [(f64, f64)]) -> bool {
    bands.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut reached = lo;
    for &(s, e) in bands.iter() {
        if s > reached && reached < hi {
            return true;
        }
        reached = reached.max(e);
    }
    reached < hi
}

/// Edges of `es` lying on the open faces of `fs`.
fn edge_face(es: &Side, fs: &Side, swapped: bool, tol: f64, out: &mut Vec<EntityContact>) {
    for e in &es.edges {
        for f in &fs.faces {
            if !e.aabb.overlaps(&f.aabb) {
                continue;
            }
            for (k, &[s, t]) in e.segments.iter().enumerate() {
                let (hs, ht) = (f.height(s), f.height(t));
                if (hs > tol && ht > tol) || (hs < -tol && ht < -tol) {
                    continue;
                }
                let length = (t - s).length();
                let (p, d) = (f.frame.to_2d(s), f.frame.to_2d(t) - f.frame.to_2d(s));
                if length == 0.0 || d.length() * 2.0 <= tol {
                    // Seen along the normal the segment is (almost) a point:
                    // it stands on the face, touching it at most at an end.
                    continue;
                }
                let at = |x: f64| s + (t - s) * x;
                for (t0, t1) in inside_stretches(f, p, d, tol / d.length()) {
                    let (h0, h1) = (f.height(at(t0)), f.height(at(t1)));
                    if h0.abs() > tol || h1.abs() > tol {
                        continue;
                    }
                    let mut bands: Vec<(f64, f64)> = f
                        .boundary()
                        .filter_map(|(a, b)| line_near_segment(p, d, a, b, tol))
                        .collect();
                    if e.is_end(k, 0) {
                        bands.push((f64::NEG_INFINITY, tol / length));
                    }
                    if e.is_end(k, 1) {
                        bands.push((1.0 - tol / length, f64::INFINITY));
                    }
                    if !uncovered(t0, t1, &mut bands) {
                        continue;
                    }
                    let mid = |x: f64, h: f64| at(x) - f.frame.normal * (0.5 * h);
                    push(
                        out,
                        swapped,
                        Entity::Edge(e.index),
                        Entity::Face(f.index),
                        vec![mid(t0, h0), mid(t1, h1)],
                    );
                }
            }
        }
    }
}

/// The stretches [t0, t1] ⊆ [0, 1] of the segment `p + t d` (in the face's
/// frame) inside the closed face, ascending. Stretches of neighbouring
/// triangles of a non-convex face are joined where they meet (within
/// `join`, a parameter length).
fn inside_stretches(f: &FaceAt, p: DVec2, d: DVec2, join: f64) -> Vec<(f64, f64)> {
    let mut stretches: Vec<(f64, f64)> = f
        .pieces
        .iter()
        .filter_map(|piece| line_in_convex_polygon(p, d, piece))
        .map(|(lo, hi)| (lo.max(0.0), hi.min(1.0)))
        .filter(|(lo, hi)| lo <= hi)
        .collect();
    stretches.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut joined: Vec<(f64, f64)> = Vec::with_capacity(stretches.len());
    for (lo, hi) in stretches {
        match joined.last_mut() {
            Some(last) if lo <= last.1 + join => last.1 = last.1.max(hi),
            _ => joined.push((lo, hi)),
        }
    }
    joined
}

fn face_face(a: &Side, b: &Side, tol: f64, out: &mut Vec<EntityContact>) {
    for fa in &a.faces {
        let na = fa.frame.normal;
        for fb in &b.faces {
            let nb = fb.frame.normal;
            if !fa.aabb.overlaps(&fb.aabb) || na.dot(nb) >= 0.0 {
                continue;
            }
            // B's face entirely beyond the tolerance on one side of A's plane.
            let heights = fb.pieces_3d.iter().flatten().map(|&p| fa.height(p));
            let (lo, hi) = heights.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), h| {
                (lo.min(h), hi.max(h))
            });
            if lo > tol || hi < -tol {
                continue;
            }
            // Height of B's plane above A's at a point of A's plane.
            let offset_b = nb.dot(fb.frame.origin);
            let gap = |x: DVec3| (offset_b - nb.dot(x)) / nb.dot(na);
            for piece_b in &fb.pieces_3d {
                // B's piece seen in A's plane runs clockwise: reverse it.
                let mut flat_b: Vec<DVec2> = piece_b.iter().map(|&p| fa.frame.to_2d(p)).collect();
                flat_b.reverse();
                for piece_a in &fa.pieces {
                    let overlap = clip_convex_polygon(&flat_b, piece_a);
                    if overlap.len() < 3 || !has_area(&overlap, polygon_area_2d(&overlap), tol) {
                        continue;
                    }
                    let lifted: Vec<(DVec3, f64)> = overlap
                        .iter()
                        .map(|&q| {
                            let x = fa.frame.to_3d(q);
                            (x, gap(x))
                        })
                        .collect();
                    if lifted.iter().any(|(_, g)| g.abs() > tol) {
                        continue;
                    }
                    out.push(EntityContact {
                        a: Entity::Face(fa.index),
                        b: Entity::Face(fb.index),
                        points: lifted.iter().map(|&(x, g)| x + na * (0.5 * g)).collect(),
                        normal: Some(na),
                    });
                }
            }
        }
    }
}
