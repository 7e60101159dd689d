//! Contact regions of two bodies' surfaces, touching and penetrating, as one
//! data structure (design `methods-seeds.md`, "Shared machinery: contact
//! regions of two surface meshes"). The region methods of seed 004
//! (ArtiSynth §7.4.1: contour region, vertex penetration) and seed 001
//! (Bouma & Vaněček §3: the intersection set of open B-rep entities) read
//! it.
//!
//! A region is one connected piece of where the two surfaces meet:
//!
//! - at a touching pose (surfaces within the touching tolerance, nowhere
//!   crossing), the touching polygon, segment or point, made of the pairs
//!   of open B-rep entities (x of A, y of B) that touch, each with its
//!   piece Π (seed 001's triples (x, y, Π));
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

use super::methods::BodyPair;
use crate::contact::exact_regions::{group_pieces, region_of_pieces, Piece, Region};
use crate::geometry::{polygon_area_2d, PlaneFrame};
use glam::DVec3;

/// A B-rep entity of one body, as an open point set (seed 001, §3: a face
/// without its edges, an edge without its end vertices). Indices into
/// `Brep::vertices`, `Brep::edges`, `Brep::faces`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Entity {
    Vertex(u32),
    Edge(u32),
    Face(u32),
}

impl Entity {
    /// 0 vertex, 1 edge, 2 face.
    pub fn dimension(self) -> u8 {
        match self {
            Entity::Vertex(_) => 0,
            Entity::Edge(_) => 1,
            Entity::Face(_) => 2,
        }
    }

    /// Its index among the entities of its dimension.
    pub fn index(self) -> u32 {
        match self {
            Entity::Vertex(i) | Entity::Edge(i) | Entity::Face(i) => i,
        }
    }
}

/// Two touching open entities and where they touch: seed 001's (x, y, Π).
///
/// Π is a closed point set midway between the two surfaces. An entity pair
/// can touch in several pieces (the seed's connected components); each is
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
    /// 0, 1 or 2, from Π (seed 001's dim(r)).
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

/// The contact regions of `pair` with touching tolerance `tol`: today the
/// penetrating regions ([`penetrating::penetrating_regions`]); the touching
/// pieces join them here, a touching piece and a penetrating region that
/// meet forming one region.
pub fn contact_regions(pair: &BodyPair, tol: f64) -> ContactRegions {
    ContactRegions {
        regions: penetrating::penetrating_regions(pair, tol),
    }
}
