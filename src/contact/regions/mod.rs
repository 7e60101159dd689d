//! Contact regions of two bodies' surfaces, touching and penetrating, as one
//! data structure (`docs/design/other-methods.md`, "Shared machinery: contact
//! regions of two surface meshes"). The region methods of the ArtiSynth manual
//! (§7.4.1: contour region, vertex penetration) and Bouma & Vaněček
//! (Bouma & Vaněček §3: the intersection set of open B-rep entities) read
//! it.
//!
//! A region is one connected piece of where the two surfaces meet:
//!
//! - at a touching pose (surfaces within the touching tolerance, nowhere
//!   crossing), the touching polygon, segment or point, made of the pairs
//!   of open B-rep entities (x of A, y of B) that touch, each with its
//!   piece Π (Bouma & Vaněček's triples (x, y, Π));
//! - where the bodies interpenetrate, the closed (or, cut by the touching
//!   part, open) intersection contours of the two surfaces plus the
//!   vertices of each body inside the other that the contours enclose.
//!
//! Both kinds can occur in one region (a box sunk into a box on one side
//! and touching on another is one connected region); the data structure
//! holds both.
//!
//! The parts: [`touching`] (entity pairs within a tolerance and their
//! pieces), [`penetrating`] (intersection contours and penetrating
//! vertices), and this module, which joins them into regions.

pub mod penetrating;
pub mod touching;

use super::body_pair::BodyPair;
pub use super::brep_entity::Entity;
use crate::contact::exact_regions::{group_pieces, region_of_pieces, Piece, Region};
use crate::geometry::{
    closest_point_on_segment, closest_points_segments, polygon_area_2d, segment_triangle_distance,
    PlaneFrame,
};
use glam::DVec3;

/// Two touching open entities and where they touch: Bouma & Vaněček's (x, y, Π).
///
/// Π is a closed point set midway between the two surfaces. An entity pair
/// can touch in several pieces (Bouma & Vaněček's connected components); each is
/// its own `EntityContact` with the same `a` and `b`. For two faces Π is
/// always convex: their overlap when both faces are convex, otherwise one
/// piece per overlapping pair of convex parts (triangles) of the faces, the
/// pieces of a pair together tiling its overlap, which may then be
/// non-convex or have several components ([`touching`]).
#[derive(Clone, Debug, PartialEq)]
pub struct EntityContact {
    /// The entity of A.
    pub a: Entity,
    /// The entity of B.
    pub b: Entity,
    /// Π in world coordinates: one point (0D), the two ends of a segment
    /// (1D), or a convex polygon counter-clockwise about `normal` (2D).
    pub points: Vec<DVec3>,
    /// For a 2D piece, its plane's unit normal from A to B (A's face's
    /// outward normal).
    pub normal: Option<DVec3>,
}

impl EntityContact {
    /// 0, 1 or 2, from Π (Bouma & Vaněček's dim(r)).
    pub fn dimension(&self) -> u8 {
        match self.points.len() {
            0 | 1 => 0,
            2 => 1,
            _ => 2,
        }
    }

    /// Π as a piece of the exact-region machinery (whose grouping and hulls
    /// the regions share).
    fn piece(&self) -> Piece {
        match self.points.as_slice() {
            [] => Piece::Point(DVec3::ZERO),
            [p] => Piece::Point(*p),
            [p, q] => Piece::Segment(*p, *q),
            points => {
                let normal = self.normal.unwrap_or_else(|| {
                    (points[1] - points[0])
                        .cross(points[2] - points[0])
                        .normalize_or_zero()
                });
                let plane = PlaneFrame::new(points[0], normal);
                let flat: Vec<_> = points.iter().map(|&p| plane.to_2d(p)).collect();
                Piece::Polygon {
                    normal,
                    points: points.to_vec(),
                    area: polygon_area_2d(&flat).abs(),
                }
            }
        }
    }
}

/// A point of an intersection contour: where an edge of one surface
/// crosses a triangle of the other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContourPoint {
    pub position: DVec3,
    /// The B-rep entities of A and B the point lies on (open sets: an
    /// edge's point inside a face of the other body is (Edge, Face)).
    pub a: Entity,
    pub b: Entity,
}

/// One connected contact region of a body pair.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ContactRegion {
    /// Touching entity pairs in this region, with their pieces.
    pub touching: Vec<EntityContact>,
    /// Intersection contours, each an ordered chain of points; `closed`
    /// says whether the last joins the first.
    pub contours: Vec<Contour>,
    /// Mesh vertices of A strictly inside B, and of B strictly inside A,
    /// that this region's contours enclose, ascending.
    pub penetrating_a: Vec<u32>,
    pub penetrating_b: Vec<u32>,
    /// Deepest penetration of the region as a signed depth (≤ 0; 0 for a
    /// touching region): minus the largest distance of a penetrating
    /// vertex from the other body's surface.
    pub depth: f64,
}

impl ContactRegion {
    /// The dimension, plane normal (planar regions), convex hull and area of
    /// the region's touching part, as `exact_regions` gives them for the
    /// same touching set: the hull of its planar pieces if it has any,
    /// otherwise of its points and segments. `None` without touching part.
    pub fn touching_hull(&self, tol: f64) -> Option<Region> {
        let pieces: Vec<Piece> = self.touching.iter().map(EntityContact::piece).collect();
        let planar: Vec<usize> = (0..pieces.len())
            .filter(|&i| matches!(pieces[i], Piece::Polygon { .. }))
            .collect();
        let members: Vec<usize> = if planar.is_empty() {
            (0..pieces.len()).collect()
        } else {
            planar
        };
        (!members.is_empty()).then(|| region_of_pieces(&pieces, &members, tol))
    }
}

/// Joins touching entity pairs into connected regions, by the rules of the
/// exact regions (`exact_regions`, which this shares): planar pieces join
/// when they share a plane and touch; a point or segment lying in a planar
/// piece's plane and touching it belongs to that piece's region; the other
/// points and segments join each other where they touch (within `tol`).
/// Each region lists its entity pairs in the order given; regions come in
/// a fixed order (that of their smallest planar piece, or point or segment
/// for a region without one). Touching regions have depth 0.
pub fn group_touching(touching: Vec<EntityContact>, tol: f64) -> ContactRegions {
    let pieces: Vec<Piece> = touching.iter().map(EntityContact::piece).collect();
    let regions = group_pieces(&pieces, tol)
        .into_iter()
        .map(|group| {
            let mut members = group.members;
            members.extend(group.absorbed);
            members.sort_unstable();
            ContactRegion {
                touching: members.iter().map(|&i| touching[i].clone()).collect(),
                ..ContactRegion::default()
            }
        })
        .collect();
    ContactRegions { regions }
}

/// An intersection contour.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Contour {
    pub points: Vec<ContourPoint>,
    pub closed: bool,
}

/// All contact regions of one body pair.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ContactRegions {
    pub regions: Vec<ContactRegion>,
}

/// How near (in touching tolerances) a touching piece must come to an
/// intersection contour for the two to be one region. A piece lies midway
/// between the two surfaces, within `tol / 2` of each, and a contour lies
/// on both, so where the crossing turns into touching the two come within
/// about `tol`; twice that leaves room for the pieces' snapping to the
/// plane they touch (`touching`, "Snapping, not thickening").
const JOIN_REACH: f64 = 2.0;

/// The contact regions of `pair` with touching tolerance `tol`: the
/// touching regions ([`touching::touching_regions`]) and the penetrating
/// ones ([`penetrating::penetrating_regions`]), joined where a touching
/// piece meets an intersection contour (within [`JOIN_REACH`] `tol`): a
/// body sunk into another on one side and resting on it on the other is
/// one region. A joined region keeps every touching pair, contour and
/// penetrating vertex of its parts and the deepest depth. Regions come in
/// the order of their first part (touching regions first, then
/// penetrating ones, each in its own order).
pub fn contact_regions(pair: &BodyPair, tol: f64) -> ContactRegions {
    let touching = touching::touching_regions(pair, tol).regions;
    let penetrating = penetrating::penetrating_regions(pair, tol);
    join_regions(touching, penetrating, JOIN_REACH * tol)
}

/// Joins touching and penetrating regions that come within `reach`.
fn join_regions(
    touching: Vec<ContactRegion>,
    penetrating: Vec<ContactRegion>,
    reach: f64,
) -> ContactRegions {
    let first_penetrating = touching.len();
    let parts: Vec<ContactRegion> = touching.into_iter().chain(penetrating).collect();
    let mut parent: Vec<usize> = (0..parts.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for t in 0..first_penetrating {
        for p in first_penetrating..parts.len() {
            if meets(&parts[t], &parts[p], reach) {
                let (r1, r2) = (root(&mut parent, t), root(&mut parent, p));
                parent[r1.max(r2)] = r1.min(r2);
            }
        }
    }
    let mut joined: Vec<ContactRegion> = Vec::new();
    let mut slot_of_root = vec![usize::MAX; parts.len()];
    for (i, part) in parts.into_iter().enumerate() {
        let r = root(&mut parent, i);
        if slot_of_root[r] == usize::MAX {
            slot_of_root[r] = joined.len();
            joined.push(part);
            continue;
        }
        let region = &mut joined[slot_of_root[r]];
        region.touching.extend(part.touching);
        region.contours.extend(part.contours);
        region.penetrating_a.extend(part.penetrating_a);
        region.penetrating_b.extend(part.penetrating_b);
        region.depth = region.depth.min(part.depth);
    }
    for region in &mut joined {
        region.penetrating_a.sort_unstable();
        region.penetrating_a.dedup();
        region.penetrating_b.sort_unstable();
        region.penetrating_b.dedup();
    }
    ContactRegions { regions: joined }
}

/// Whether a touching piece of `touching` comes within `reach` of an
/// intersection contour of `penetrating`.
fn meets(touching: &ContactRegion, penetrating: &ContactRegion, reach: f64) -> bool {
    let segments: Vec<[DVec3; 2]> = penetrating
        .contours
        .iter()
        .flat_map(|c| {
            let n = c.points.len();
            let count = if c.closed {
                n
            } else {
                n.saturating_sub(1).max(n.min(1))
            };
            (0..count).map(move |i| [c.points[i].position, c.points[(i + 1) % n].position])
        })
        .collect();
    touching.touching.iter().any(|piece| {
        segments
            .iter()
            .any(|&[s, t]| piece_distance(&piece.points, s, t) <= reach)
    })
}

/// Distance from a touching piece (a point, a segment or a convex polygon)
/// to the segment `s`–`t`.
fn piece_distance(piece: &[DVec3], s: DVec3, t: DVec3) -> f64 {
    match *piece {
        [] => f64::INFINITY,
        [p] => (closest_point_on_segment(p, s, t).0 - p).length(),
        [p, q] => {
            let (c1, c2, _, _) = closest_points_segments(p, q, s, t);
            (c1 - c2).length()
        }
        _ => (1..piece.len() - 1)
            .map(|k| segment_triangle_distance(s, t, piece[0], piece[k], piece[k + 1]))
            .fold(f64::INFINITY, f64::min),
    }
}
