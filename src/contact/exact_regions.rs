//! Exact contact regions of bodies in touching contact
//! (`docs/design/methods.md`, "Exact contact regions"; the analysis behind
//! the paper's figure 6).
//!
//! The touching set of two closed triangle surfaces is the union, over pairs
//! of surface triangles, of their intersections: a polygon where two faces
//! lie in one plane facing each other, otherwise a segment or a point. Pieces
//! are grouped into connected regions: planar pieces by plane and adjacency,
//! and lower-dimensional pieces that do not lie on a planar region by
//! adjacency. A region's convex hull vertices are the contacts a minimal
//! exact method needs (the paper's "40 for the Pillar"); its area is the sum
//! of its planar pieces, which tile it without overlap.

use super::features::{FeatureKind, FeaturePair};
use super::touching::touching_feature_pairs;
use super::world_mesh::WorldMesh;
use crate::geometry::{clip_convex_polygon, convex_hull_2d, polygon_area_2d, Aabb, PlaneFrame};
use crate::scene::Scene;
use glam::{DVec2, DVec3};

/// Angle (as its sine) below which faces count as parallel and edges as
/// collinear. Authored geometry is exact to round-off; this leaves margin for
/// rotated scenes.
const PARALLEL_SIN: f64 = 1e-6;

/// A connected touching region of one body pair.
#[derive(Clone, Debug)]
pub struct Region {
    /// 0 for a point, 1 for a segment, 2 for a planar polygon.
    pub dimension: u8,
    /// For planar regions, the plane normal pointing from A to B.
    pub normal: Option<DVec3>,
    /// Strict convex hull vertices in world coordinates (counter-clockwise
    /// about `normal` for planar regions).
    pub hull: Vec<DVec3>,
    /// Touching area (0 for points and segments).
    pub area: f64,
    pub hull_area: f64,
}

#[derive(Clone, Debug)]
pub struct ExactPair {
    pub a: usize,
    pub b: usize,
    /// The pair's touching tolerance, metres.
    pub touch_tol: f64,
    pub regions: Vec<Region>,
    pub features: Vec<FeaturePair>,
}

impl ExactPair {
    pub fn hull_vertices(&self) -> usize {
        self.regions.iter().map(|r| r.hull.len()).sum()
    }

    pub fn area(&self) -> f64 {
        self.regions.iter().map(|r| r.area).sum::<f64>() + 0.0
    }

    pub fn count_features(&self, kind: FeatureKind) -> usize {
        self.features.iter().filter(|f| f.kind == kind).count()
    }
}

#[derive(Clone, Debug)]
pub struct ExactContacts {
    /// The touching tolerance as a fraction of each pair's larger body.
    pub relative_touch_tol: f64,
    pub pairs: Vec<ExactPair>,
}

impl ExactContacts {
    /// Σ hull vertices: the contact count of a minimal exact method.
    pub fn min_contacts(&self) -> usize {
        self.pairs.iter().map(ExactPair::hull_vertices).sum()
    }

    /// Unique touching-feature contacts: the most an exact method that emits
    /// one contact per touching feature pair would give.
    pub fn max_feature_contacts(&self) -> usize {
        self.pairs.iter().map(|p| p.features.len()).sum()
    }

    /// The sum of the pairs' areas; 0 (not the empty sum's −0) for none.
    pub fn total_area(&self) -> f64 {
        self.pairs.iter().map(ExactPair::area).sum::<f64>() + 0.0
    }

    pub fn region_count(&self) -> usize {
        self.pairs.iter().map(|p| p.regions.len()).sum()
    }
}

/// Exact contact regions and touching feature pairs of every body pair of the
/// scene at its current pose (pairs of two fixed bodies are skipped). Each
/// pair's touching tolerance is `relative_tol` of its larger body's size
/// ([`super::RELATIVE_TOUCH_TOL`] normally).
pub fn exact_contacts(scene: &Scene, relative_tol: f64) -> ExactContacts {
    let sizes: Vec<f64> = scene.bodies.iter().map(|b| b.mesh.diagonal()).collect();
    let widest = relative_tol * sizes.iter().copied().fold(0.0, f64::max);
    let surfaces: Vec<WorldMesh> = scene
        .bodies
        .iter()
        .map(|b| WorldMesh::new(&b.mesh, b.position, b.rotation))
        .collect();
    let boxes: Vec<Aabb> = surfaces
        .iter()
        .map(|s| Aabb::of(&s.vertices).inflated(widest))
        .collect();
    let mut pairs = Vec::new();
    for a in 0..surfaces.len() {
        for b in a + 1..surfaces.len() {
            if (scene.bodies[a].fixed && scene.bodies[b].fixed) || !boxes[a].overlaps(&boxes[b]) {
                continue;
            }
            let touch_tol = relative_tol * sizes[a].max(sizes[b]);
            let regions = touching_regions(&surfaces[a], &surfaces[b], touch_tol);
            if regions.is_empty() {
                continue;
            }
            let features =
                touching_feature_pairs(&surfaces[a], &surfaces[b], touch_tol, PARALLEL_SIN);
            pairs.push(ExactPair {
                a,
                b,
                touch_tol,
                regions,
                features,
            });
        }
    }
    ExactContacts {
        relative_touch_tol: relative_tol,
        pairs,
    }
}

/// The intersection of two surface triangles, or (for `regions`) the piece
/// Π of two touching B-rep entities.
#[derive(Clone, Debug)]
pub(crate) enum Piece {
    Point(DVec3),
    Segment(DVec3, DVec3),
    /// A convex polygon in the plane of A's face, whose normal it keeps.
    Polygon {
        normal: DVec3,
        points: Vec<DVec3>,
        area: f64,
    },
}

impl Piece {
    pub(crate) fn points(&self) -> Vec<DVec3> {
        match self {
            Piece::Point(p) => vec![*p],
            Piece::Segment(p, q) => vec![*p, *q],
            Piece::Polygon { points, .. } => points.clone(),
        }
    }
}

fn touching_regions(a: &WorldMesh, b: &WorldMesh, tol: f64) -> Vec<Region> {
    let overlap = Aabb::of(&a.vertices)
        .intersection(&Aabb::of(&b.vertices))
        .inflated(tol);
    let faces_near = |s: &WorldMesh| -> Vec<(usize, Aabb)> {
        (0..s.mesh.surface_faces.len())
            .map(|f| (f, Aabb::of(&s.face(f)).inflated(tol)))
            .filter(|(_, bb)| bb.overlaps(&overlap))
            .collect()
    };
    let (fa, fb) = (faces_near(a), faces_near(b));
    let mut pieces = Vec::new();
    for &(i, box_a) in &fa {
        for &(j, box_b) in &fb {
            if box_a.overlaps(&box_b) {
                if let Some(piece) =
                    triangle_intersection(a.face(i), a.face_normals[i], b.face(j), tol)
                {
                    pieces.push(piece);
                }
            }
        }
    }
    assemble_regions(pieces, tol)
}

/// Intersection of triangle `ta` (outward normal `na`) with triangle `tb`
/// within `tol`: Tb is cut by Ta's plane, and the cut is clipped to Ta.
fn triangle_intersection(ta: [DVec3; 3], na: DVec3, tb: [DVec3; 3], tol: f64) -> Option<Piece> {
    let plane = PlaneFrame::new(ta[0], na);
    let d = tb.map(|p| plane.distance(p));
    if d.iter().all(|&x| x > tol) || d.iter().all(|&x| x < -tol) {
        return None;
    }
    if d.iter().all(|x| x.abs() <= tol) {
        return coplanar_overlap(&plane, ta, tb, tol);
    }
    // Points of Tb on A's plane: its vertices on the plane and its edges'
    // crossings of the plane.
    let mut cut: Vec<DVec3> = Vec::with_capacity(3);
    for k in 0..3 {
        if d[k].abs() <= tol {
            cut.push(tb[k] - na * d[k]);
        }
        let l = (k + 1) % 3;
        if (d[k] > tol && d[l] < -tol) || (d[k] < -tol && d[l] > tol) {
            let t = d[k] / (d[k] - d[l]);
            cut.push(tb[k].lerp(tb[l], t));
        }
    }
    let (start, end) = farthest_pair(&cut)?;
    clip_segment_to_triangle(start, end, ta, na, tol)
}

fn farthest_pair(points: &[DVec3]) -> Option<(DVec3, DVec3)> {
    let mut best: Option<(DVec3, DVec3, f64)> = None;
    for (i, &p) in points.iter().enumerate() {
        for &q in &points[i..] {
            let d = (p - q).length_squared();
            if best.is_none_or(|(_, _, bd)| d > bd) {
                best = Some((p, q, d));
            }
        }
    }
    best.map(|(p, q, _)| (p, q))
}

/// Parameter interval of segment p–q (in Ta's plane) inside Ta widened by
/// `margin`.
fn clip_interval(p: DVec3, q: DVec3, ta: [DVec3; 3], na: DVec3, margin: f64) -> Option<(f64, f64)> {
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for k in 0..3 {
        let (s, e) = (ta[k], ta[(k + 1) % 3]);
        let inward = na.cross(e - s).normalize_or_zero();
        // Keep points x with inward·(x − s) ≥ −margin.
        let (fp, fq) = (inward.dot(p - s) + margin, inward.dot(q - s) + margin);
        if fp < 0.0 && fq < 0.0 {
            return None;
        }
        if fp < 0.0 {
            t0 = t0.max(fp / (fp - fq));
        } else if fq < 0.0 {
            t1 = t1.min(fp / (fp - fq));
        }
    }
    (t0 <= t1).then_some((t0, t1))
}

/// Segment p–q (in Ta's plane) clipped to Ta. Whether they touch is decided
/// with Ta widened by `tol`; where, by the exact triangle: widening would
/// stretch a cut that grazes a corner by tol / sin(angle), out of the plane
/// of the region it borders. A cut that touches only within the tolerance
/// is the one point of it nearest to Ta. The "exact" triangle keeps a
/// margin of a millionth of `tol`, far above round-off, so that a cut lying
/// on one of Ta's edges is not lost to the last bit.
fn clip_segment_to_triangle(
    p: DVec3,
    q: DVec3,
    ta: [DVec3; 3],
    na: DVec3,
    tol: f64,
) -> Option<Piece> {
    let (w0, w1) = clip_interval(p, q, ta, na, tol)?;
    let (x, y) = match clip_interval(p, q, ta, na, 1e-6 * tol) {
        Some((t0, t1)) => (p.lerp(q, t0), p.lerp(q, t1)),
        None => {
            let (x, y) = (p.lerp(q, w0), p.lerp(q, w1));
            let gap = |c: DVec3| {
                (c - crate::geometry::closest_point_on_triangle(c, ta[0], ta[1], ta[2])).length()
            };
            let nearest = if gap(x) <= gap(y) { x } else { y };
            (nearest, nearest)
        }
    };
    Some(if (x - y).length() <= tol {
        Piece::Point((x + y) * 0.5)
    } else {
        Piece::Segment(x, y)
    })
}

/// Overlap of two triangles in one plane (Sutherland–Hodgman clipping of Tb
/// by Ta). Only an overlap with area counts: triangles that merely share an
/// edge or a corner in the plane are found by their non-coplanar neighbours.
fn coplanar_overlap(plane: &PlaneFrame, ta: [DVec3; 3], tb: [DVec3; 3], tol: f64) -> Option<Piece> {
    let clip: Vec<DVec2> = ta.iter().map(|&p| plane.to_2d(p)).collect();
    let mut poly: Vec<DVec2> = tb.iter().map(|&p| plane.to_2d(p)).collect();
    if polygon_area_2d(&poly) < 0.0 {
        poly.reverse();
    }
    let poly = clip_convex_polygon(&poly, &clip);
    let area = polygon_area_2d(&poly);
    if !has_area(&poly, area, tol) {
        return None;
    }
    Some(Piece::Polygon {
        normal: plane.normal,
        points: poly.iter().map(|&p| plane.to_3d(p)).collect(),
        area,
    })
}

/// Whether a clipped polygon (counter-clockwise, signed area `area`) is a
/// planar piece rather than an edge or a corner that two faces merely share:
/// wider than `tol` and with more area than a `tol`-wide strip along its
/// diameter.
pub(crate) fn has_area(polygon: &[DVec2], area: f64, tol: f64) -> bool {
    let diameter = polygon
        .iter()
        .flat_map(|p| polygon.iter().map(move |q| (*p - *q).length()))
        .fold(0.0, f64::max);
    diameter > tol && area > tol * diameter
}

/// Distance from `p` to a convex polygon lying in a plane with `normal`.
fn distance_to_convex_polygon(p: DVec3, polygon: &[DVec3], normal: DVec3) -> f64 {
    let plane = PlaneFrame::new(polygon[0], normal);
    let off_plane = plane.distance(p).abs();
    let q = plane.to_2d(p);
    let pts: Vec<DVec2> = polygon.iter().map(|&x| plane.to_2d(x)).collect();
    let ccw = polygon_area_2d(&pts) >= 0.0;
    let n = pts.len();
    let inside = (0..n).all(|i| {
        let c = (pts[(i + 1) % n] - pts[i]).perp_dot(q - pts[i]);
        if ccw {
            c >= 0.0
        } else {
            c <= 0.0
        }
    });
    let in_plane = if inside {
        0.0
    } else {
        (0..n)
            .map(|i| {
                let (s, e) = (pts[i], pts[(i + 1) % n]);
                let t = ((q - s).dot(e - s) / (e - s).length_squared().max(f64::MIN_POSITIVE))
                    .clamp(0.0, 1.0);
                (q - s.lerp(e, t)).length()
            })
            .fold(f64::INFINITY, f64::min)
    };
    (in_plane * in_plane + off_plane * off_plane).sqrt()
}

/// Smallest distance between two pieces.
pub(crate) fn piece_distance(x: &Piece, y: &Piece) -> f64 {
    let to = |p: DVec3, piece: &Piece| match piece {
        Piece::Point(q) => (p - *q).length(),
        Piece::Segment(s, e) => {
            (p - crate::geometry::closest_point_on_segment(p, *s, *e).0).length()
        }
        Piece::Polygon { normal, points, .. } => distance_to_convex_polygon(p, points, *normal),
    };
    let mut best = f64::INFINITY;
    for p in x.points() {
        best = best.min(to(p, y));
    }
    for p in y.points() {
        best = best.min(to(p, x));
    }
    if let (Piece::Segment(p1, q1), Piece::Segment(p2, q2)) = (x, y) {
        let (c1, c2, _, _) = crate::geometry::closest_points_segments(*p1, *q1, *p2, *q2);
        best = best.min((c1 - c2).length());
    }
    best
}

/// Disjoint sets over `0..n`; the smaller index stays the root.
pub(crate) struct UnionFind(Vec<usize>);

impl UnionFind {
    pub(crate) fn new(n: usize) -> Self {
        UnionFind((0..n).collect())
    }
    pub(crate) fn find(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }
    pub(crate) fn union(&mut self, i: usize, j: usize) {
        let (ri, rj) = (self.find(i), self.find(j));
        if ri != rj {
            self.0[ri.max(rj)] = ri.min(rj);
        }
    }
}

fn assemble_regions(pieces: Vec<Piece>, tol: f64) -> Vec<Region> {
    group_pieces(&pieces, tol)
        .iter()
        .map(|group| region_of_pieces(&pieces, &group.members, tol))
        .collect()
}

/// One connected region of pieces: `members` make its hull (all planar, or
/// all points and segments), `absorbed` are points and segments that lie
/// in its plane and touch it (part of its boundary). Indices ascending.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PieceGroup {
    pub members: Vec<usize>,
    pub absorbed: Vec<usize>,
}

/// Groups pieces into connected regions: planar pieces join when they share
/// a plane and touch; a point or segment lying in a planar piece's plane and
/// touching it is absorbed into that piece's region; the remaining points
/// and segments join each other by touching. Regions come in the order of
/// their smallest member.
pub(crate) fn group_pieces(pieces: &[Piece], tol: f64) -> Vec<PieceGroup> {
    let n = pieces.len();
    let mut groups = UnionFind::new(n);
    let normal_of = |p: &Piece| {
        if let Piece::Polygon { normal, .. } = p {
            Some(*normal)
        } else {
            None
        }
    };
    // Planar pieces join when they share a plane and touch.
    for i in 0..n {
        for j in i + 1..n {
            if let (Some(ni), Some(nj)) = (normal_of(&pieces[i]), normal_of(&pieces[j])) {
                let same_plane = ni.dot(nj) > 0.0
                    && ni.cross(nj).length() <= PARALLEL_SIN
                    && pieces[j]
                        .points()
                        .iter()
                        .all(|&p| (p - pieces[i].points()[0]).dot(ni).abs() <= tol);
                if same_plane && piece_distance(&pieces[i], &pieces[j]) <= tol {
                    groups.union(i, j);
                }
            }
        }
    }
    // A point or segment lying in a planar piece's plane and touching it is
    // part of that region's boundary; the rest join each other by touching.
    let mut absorbed_by: Vec<Option<usize>> = vec![None; n];
    for i in (0..n).filter(|&i| normal_of(&pieces[i]).is_none()) {
        for j in (0..n).filter(|&j| normal_of(&pieces[j]).is_some()) {
            let nj = normal_of(&pieces[j]).unwrap_or(DVec3::Y);
            let origin = pieces[j].points()[0];
            if pieces[i]
                .points()
                .iter()
                .all(|&p| (p - origin).dot(nj).abs() <= tol)
                && piece_distance(&pieces[i], &pieces[j]) <= tol
            {
                absorbed_by[i] = Some(j);
                break;
            }
        }
    }
    let loose: Vec<usize> = (0..n)
        .filter(|&i| normal_of(&pieces[i]).is_none() && absorbed_by[i].is_none())
        .collect();
    for (k, &i) in loose.iter().enumerate() {
        for &j in &loose[k + 1..] {
            if piece_distance(&pieces[i], &pieces[j]) <= tol {
                groups.union(i, j);
            }
        }
    }
    let roots: Vec<usize> = (0..n).map(|i| groups.find(i)).collect();
    let mut result = Vec::new();
    for root in 0..n {
        let members: Vec<usize> = (0..n)
            .filter(|&i| absorbed_by[i].is_none() && roots[i] == root)
            .collect();
        if members.is_empty() {
            continue;
        }
        let absorbed = (0..n)
            .filter(|&i| absorbed_by[i].is_some_and(|j| roots[j] == root))
            .collect();
        result.push(PieceGroup { members, absorbed });
    }
    result
}

/// The hull, dimension and area of the region made of `members` (indices
/// into `pieces`, as [`group_pieces`] gives them).
pub(crate) fn region_of_pieces(pieces: &[Piece], members: &[usize], tol: f64) -> Region {
    let points: Vec<DVec3> = members.iter().flat_map(|&i| pieces[i].points()).collect();
    match &pieces[members[0]] {
        Piece::Polygon { normal, .. } => {
            let normal = *normal;
            let plane = PlaneFrame::new(points[0], normal);
            let flat: Vec<DVec2> = points.iter().map(|&p| plane.to_2d(p)).collect();
            let hull = convex_hull_2d(&flat, tol);
            let area = members
                .iter()
                .map(|&i| {
                    if let Piece::Polygon { area, .. } = pieces[i] {
                        area
                    } else {
                        0.0
                    }
                })
                .sum();
            Region {
                dimension: 2,
                normal: Some(normal),
                hull_area: polygon_area_2d(&hull),
                hull: hull.iter().map(|&q| plane.to_3d(q)).collect(),
                area,
            }
        }
        _ => lower_dimensional_region(&points, tol),
    }
}

/// Hull of a touching set without planar pieces: a point, a segment, or (for
/// a set of crossing curves) a planar hull through its three extreme points.
fn lower_dimensional_region(points: &[DVec3], tol: f64) -> Region {
    let p0 = points[0];
    let far = |from: DVec3| {
        points
            .iter()
            .copied()
            .max_by(|x, y| {
                (*x - from)
                    .length_squared()
                    .total_cmp(&(*y - from).length_squared())
            })
            .unwrap_or(from)
    };
    let p1 = far(p0);
    if (p1 - p0).length() <= tol {
        let centre = points.iter().copied().sum::<DVec3>() / points.len() as f64;
        return Region {
            dimension: 0,
            normal: None,
            hull: vec![centre],
            area: 0.0,
            hull_area: 0.0,
        };
    }
    // Extreme points along the line, found from the far end.
    let p2 = far(p1);
    let axis = (p2 - p1).normalize();
    let off_line = points
        .iter()
        .map(|&p| ((p - p1) - axis * (p - p1).dot(axis)).length())
        .fold(0.0, f64::max);
    if off_line <= tol {
        return Region {
            dimension: 1,
            normal: None,
            hull: vec![p1, p2],
            area: 0.0,
            hull_area: 0.0,
        };
    }
    let p3 = points
        .iter()
        .copied()
        .max_by(|x, y| {
            ((*x - p1).cross(axis))
                .length()
                .total_cmp(&((*y - p1).cross(axis)).length())
        })
        .unwrap_or(p1);
    let normal = (p2 - p1).cross(p3 - p1).normalize();
    let plane = PlaneFrame::new(p1, normal);
    let hull = convex_hull_2d(
        &points.iter().map(|&p| plane.to_2d(p)).collect::<Vec<_>>(),
        tol,
    );
    Region {
        dimension: 1,
        normal: None,
        hull_area: 0.0,
        hull: hull.iter().map(|&q| plane.to_3d(q)).collect(),
        area: 0.0,
    }
}
