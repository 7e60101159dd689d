//! Contour region, ArtiSynth's default contact method between rigid bodies
//! (the ArtiSynth manual, §7.4.1, figure 7.8; `docs/design/other-methods.md`,
//! "Contour region"): per contact region, fit a plane to the region, keep the
//! points whose projections form the convex hull of the region in that plane,
//! and give every kept point the plane's normal and the region's deepest
//! penetration as depth. "The contact points do not necessarily lie on the
//! plane, but they all have the same normal and penetration distance."
//!
//! The regions come from [`crate::contact::regions::contact_regions`]: the
//! intersection contours with the vertices of each body inside the other,
//! and the touching pieces where the surfaces meet without crossing.
//!
//! Per region:
//!
//! 1. **Plane.** Least squares through the centroid of the region's
//!    boundary: its contour points and the points of its touching pieces
//!    (the smallest-eigenvalue direction of their scatter matrix). The
//!    manual fits "a plane to the region" without saying which points; the
//!    region's points include the penetrating vertices too. We fit the
//!    boundary only: the contour lies where the two surfaces meet, while a
//!    penetrating vertex lies as deep inside as the motion carried it, so a
//!    sharp spike's tip would tip the plane over (a tetrahedral spike of
//!    half-angle 30° sunk into a block: its triangular contour has a
//!    horizontal scatter of 1.5 r² per axis against 0.75 d² vertically for
//!    the three contour points and the tip at depth d, r = d tan 30°, so the
//!    fit through all four would be vertical). The penetrating vertices
//!    still count for the hull, the depth and the side the normal points to.
//!    Only a region with no boundary point (a body wholly inside the other)
//!    is fitted to its vertices.
//! 2. **Normal orientation, from A to B.** By the penetrating vertices: A's
//!    vertices inside B lie on B's side of the plane and B's inside A on
//!    A's side, so n is chosen with Σ_A n·(x − c) − Σ_B n·(x − c) > 0. With
//!    none, by the normals of the region's touching face pairs (each from A
//!    to B); with none of those either (two edges crossing), by the surface
//!    normals at the region: n · (N_A − N_B) > 0, where N_X is the
//!    area-weighted sum of the normals of the B-rep faces of X that the
//!    region's points lie on or next to (the faces of their entities); then
//!    by the line of centres, B's minus A's.
//! 3. **Degenerate regions**, a point or a segment (the boundary spreads no
//!    more than the touching tolerance across its principal direction), have
//!    no plane, and the manual gives them no normal. Ours: the
//!    normal of the face one body touches with, if every point of the region
//!    lies on one face of A (A's outward normal) or of B (minus B's);
//!    otherwise the normalised N_A − N_B of step 2; otherwise the line of
//!    centres. The contacts are then the ends of the segment (or the point).
//! 4. **Contacts.** Boundary points within the tolerance of each other are
//!    one point, named by its lowest-dimensional entity pair (a cube's
//!    corner resting on a face is (face, vertex), not the corner of the
//!    (face, face) overlap at the same place). They are projected into the
//!    plane and their convex hull taken (strict: collinear and coincident points
//!    within the touching tolerance dropped). A penetrating vertex joins the
//!    candidates only if its projection lies outside that hull by more than
//!    the tolerance (a tilted body's deep corner), so a vertex straight below
//!    a contour corner never displaces it. Every point on the final hull is
//!    one contact, at its own position, with the plane normal and the
//!    region's depth (≤ 0). Its features and sources are the B-rep entities
//!    it lies on: a contour point's pair, or for a penetrating vertex its
//!    entity and the entity of the other body's nearest surface point.
//!
//! Each region's outline (`PairOutput::regions`, drawn by the page) is its
//! longest intersection contour when it is purely penetrating, otherwise
//! the convex hull of its contacts (the touching polygon, segment or point).

use super::{
    Algorithm, BodyPair, BodyPairMethod, MethodInfo, MethodParams, PairContact, PairMemory,
    PairOutput, PairSide, RawContact, RegionOutline,
};
use crate::contact::features::features_from_dimensions;
use crate::contact::point_queries::{entity_of_mesh_vertex, nearest_on_surface};
use crate::contact::regions::{contact_regions, ContactRegion, Entity};
use crate::geometry::symmetric3::symmetric_eigen;
use crate::geometry::{convex_hull_2d, extent_along, PlaneFrame};
use glam::{DMat3, DVec2, DVec3};

pub struct ContourRegion;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "contour-region",
    name: "Contour region",
    source: help_text!("the ArtiSynth manual, §7.4.1, contour region: its default between rigid bodies"),
    summary: "Fits a plane to each contact region and puts a contact at every corner of the region's convex hull, all with the plane's normal and the region's deepest penetration.",
    help: help_text!("Looks at whole contact regions, not at pairs of tetrahedra: where the two surfaces cross it follows the closed intersection contour, and where they only touch it takes the touching polygon. It fits a plane to each region (least squares), projects the region into it and keeps the corners of its convex hull; each corner is a contact with the plane's normal and the depth of the region's deepest penetrating vertex. Internal edges and vertices play no part, and a flat joint gets the exact face normal, but every contact of a region shares one normal, so a region that wraps around an edge (a wedge in a crack) is flattened into one plane."),
    reads: &[],
    algorithm: Algorithm::BodyPair(&ContourRegion),
    paper_code: None,
};

impl BodyPairMethod for ContourRegion {
    fn body_pair(
        &self,
        pair: &BodyPair,
        params: &MethodParams,
        _memory: &mut PairMemory,
        out: &mut PairOutput,
    ) {
        let tol = params.touch_tol;
        for region in contact_regions(pair, tol).regions {
            let index = out.regions.len() as u32;
            if let Some(outline) = region_contacts(pair, &region, tol, index, &mut out.contacts) {
                out.regions.push(outline);
            }
        }
    }
}

/// A point of a region that may become a contact.
#[derive(Clone, Copy)]
enum Candidate {
    /// A contour point or a corner of a touching piece, with the entities
    /// of A and B it lies on.
    Boundary {
        position: DVec3,
        a: Entity,
        b: Entity,
    },
    /// A mesh vertex of A inside B (`of_a`) or of B inside A.
    Vertex { vertex: u32, of_a: bool },
}

/// Emits the contacts of one region (region index `index`) and returns its
/// outline, or nothing for a region without points.
fn region_contacts(
    pair: &BodyPair,
    region: &ContactRegion,
    tol: f64,
    index: u32,
    out: &mut Vec<PairContact>,
) -> Option<RegionOutline> {
    let position = |c: &Candidate| candidate_position(pair, c);
    let vertices = vertex_candidates(region);
    let mut boundary = without_repeats(boundary_candidates(region), tol);
    let mut extra = vertices.clone();
    if boundary.is_empty() {
        // A body wholly inside the other: its vertices are the region.
        boundary = std::mem::take(&mut extra);
    }
    let points: Vec<DVec3> = boundary.iter().map(position).collect();
    let centre = points.iter().copied().sum::<DVec3>() / points.len().max(1) as f64;
    let (normal, planar) = fit_plane(&points, centre, tol)?;
    let normal = if planar {
        orient(pair, region, normal, centre, &vertices, &position)
    } else {
        degenerate_normal(pair, region)?
    };

    let frame = PlaneFrame::new(centre, normal);
    let flat: Vec<DVec2> = points.iter().map(|&p| frame.to_2d(p)).collect();
    let (candidates, candidate_2d) =
        with_outlying_vertices(pair, &frame, boundary, flat, extra, tol);
    let hull = convex_hull_2d(&candidate_2d, tol);
    let kept: Vec<usize> = hull
        .iter()
        .filter_map(|h| candidate_2d.iter().position(|q| q == h))
        .collect();
    push_contacts(pair, region, index, normal, &candidates, &kept, out);
    Some(region_outline(pair, region, &candidates, &kept))
}

/// Where a candidate is, in world coordinates.
fn candidate_position(pair: &BodyPair, c: &Candidate) -> DVec3 {
    match *c {
        Candidate::Boundary { position, .. } => position,
        Candidate::Vertex { vertex, of_a } => side(pair, of_a).world.vertices[vertex as usize],
    }
}

/// The region's boundary: its contour points, then its touching pieces'
/// corners, each with the entity pair it lies on.
fn boundary_candidates(region: &ContactRegion) -> Vec<Candidate> {
    region
        .contours
        .iter()
        .flat_map(|c| &c.points)
        .map(|p| Candidate::Boundary {
            position: p.position,
            a: p.a,
            b: p.b,
        })
        .chain(region.touching.iter().flat_map(|piece| {
            piece.points.iter().map(|&position| Candidate::Boundary {
                position,
                a: piece.a,
                b: piece.b,
            })
        }))
        .collect()
}

/// The region's penetrating vertices, A's then B's.
fn vertex_candidates(region: &ContactRegion) -> Vec<Candidate> {
    region
        .penetrating_a
        .iter()
        .map(|&vertex| Candidate::Vertex { vertex, of_a: true })
        .chain(
            region
                .penetrating_b
                .iter()
                .map(|&vertex| Candidate::Vertex {
                    vertex,
                    of_a: false,
                }),
        )
        .collect()
}

/// The boundary candidates (and their projections `flat`) joined by the
/// `extra` vertices whose projection lies outside the boundary's hull by
/// more than `tol`, so a vertex straight below a contour corner never
/// displaces it.
fn with_outlying_vertices(
    pair: &BodyPair,
    frame: &PlaneFrame,
    boundary: Vec<Candidate>,
    flat: Vec<DVec2>,
    extra: Vec<Candidate>,
    tol: f64,
) -> (Vec<Candidate>, Vec<DVec2>) {
    let boundary_hull = convex_hull_2d(&flat, tol);
    let mut candidates = boundary;
    let mut candidate_2d = flat;
    for v in extra {
        let q = frame.to_2d(candidate_position(pair, &v));
        if distance_outside(&boundary_hull, q) > tol {
            candidates.push(v);
            candidate_2d.push(q);
        }
    }
    (candidates, candidate_2d)
}

/// One contact per kept candidate, all with the plane's normal and the
/// region's depth; a candidate with no B-rep entities gives none.
fn push_contacts(
    pair: &BodyPair,
    region: &ContactRegion,
    index: u32,
    normal: DVec3,
    candidates: &[Candidate],
    kept: &[usize],
    out: &mut Vec<PairContact>,
) {
    for &k in kept {
        let Some((a, b)) = entities(pair, &candidates[k]) else {
            continue;
        };
        out.push(PairContact {
            raw: RawContact {
                position: candidate_position(pair, &candidates[k]),
                normal,
                depth: region.depth,
                features: features_from_dimensions(a.dimension(), b.dimension()),
            },
            sources: [a.index(), b.index()],
            region: index,
            kept_normal: false,
        });
    }
}

/// What the page draws: a purely penetrating region's intersection contour
/// (its longest), otherwise the hull of the contacts.
fn region_outline(
    pair: &BodyPair,
    region: &ContactRegion,
    candidates: &[Candidate],
    kept: &[usize],
) -> RegionOutline {
    let dimension = match kept.len() {
        0 | 1 => 0,
        2 => 1,
        _ => 2,
    };
    let outline = match region.contours.iter().max_by_key(|c| c.points.len()) {
        Some(contour) if dimension == 2 && region.touching.is_empty() => {
            contour.points.iter().map(|p| p.position).collect()
        }
        _ => kept
            .iter()
            .map(|&k| candidate_position(pair, &candidates[k]))
            .collect(),
    };
    RegionOutline {
        dimension,
        points: outline,
    }
}

/// The boundary points with every point within `tol` of an earlier kept
/// one dropped, lower-dimensional entity pairs kept first: where a corner
/// of the cube rests on a face, the touching pair (face, vertex) and the
/// corner of the (face, face) overlap are one point, and it is the vertex
/// that is there (the open sets of Bouma & Vaněček: a point belongs to the
/// lowest-dimensional entity it lies on). Ties keep the region's order, so
/// the choice never depends on round-off.
fn without_repeats(mut boundary: Vec<Candidate>, tol: f64) -> Vec<Candidate> {
    let rank = |c: &Candidate| match *c {
        Candidate::Boundary { a, b, .. } => a.dimension() + b.dimension(),
        Candidate::Vertex { .. } => u8::MAX,
    };
    boundary.sort_by_key(rank);
    let mut kept: Vec<Candidate> = Vec::with_capacity(boundary.len());
    for c in boundary {
        let Candidate::Boundary { position, .. } = c else {
            kept.push(c);
            continue;
        };
        let repeated = kept.iter().any(|k| match *k {
            Candidate::Boundary { position: p, .. } => (p - position).length() <= tol,
            Candidate::Vertex { .. } => false,
        });
        if !repeated {
            kept.push(c);
        }
    }
    kept
}

fn side<'a>(pair: &'a BodyPair<'a>, of_a: bool) -> &'a PairSide<'a> {
    if of_a {
        &pair.a
    } else {
        &pair.b
    }
}

/// The least-squares plane normal through `centre` (unit, unoriented) and
/// whether the points span a plane: they spread more than `tol` along the
/// second principal direction. `None` without points.
fn fit_plane(points: &[DVec3], centre: DVec3, tol: f64) -> Option<(DVec3, bool)> {
    if points.is_empty() {
        return None;
    }
    let scatter = points.iter().fold(DMat3::ZERO, |m, &p| {
        let d = p - centre;
        m + DMat3::from_cols(d * d.x, d * d.y, d * d.z)
    });
    let (_, axes) = symmetric_eigen(scatter);
    let (normal, middle) = (axes.col(0), axes.col(1));
    let (lo, hi) = extent_along(points, middle);
    Some((normal, hi - lo > tol))
}

/// Orients a plane normal from A to B (module doc, step 2).
fn orient(
    pair: &BodyPair,
    region: &ContactRegion,
    normal: DVec3,
    centre: DVec3,
    vertices: &[Candidate],
    position: &dyn Fn(&Candidate) -> DVec3,
) -> DVec3 {
    let by_vertices: f64 = vertices
        .iter()
        .map(|v| {
            let along = normal.dot(position(v) - centre);
            match v {
                Candidate::Vertex { of_a: true, .. } => along,
                _ => -along,
            }
        })
        .sum();
    let by_touching_faces: f64 = region
        .touching
        .iter()
        .filter_map(|piece| piece.normal)
        .map(|n| normal.dot(n))
        .sum();
    let deciders = [
        by_vertices,
        by_touching_faces,
        normal.dot(surface_normal_difference(pair, &entity_pairs(region))),
        normal.dot(pair.b.position - pair.a.position),
    ];
    match deciders.iter().find(|&&s| s != 0.0) {
        Some(&s) if s < 0.0 => -normal,
        _ => normal,
    }
}

/// The (A, B) entity pairs of a region's contour points and touching
/// pieces.
fn entity_pairs(region: &ContactRegion) -> Vec<(Entity, Entity)> {
    region
        .contours
        .iter()
        .flat_map(|c| &c.points)
        .map(|p| (p.a, p.b))
        .chain(region.touching.iter().map(|piece| (piece.a, piece.b)))
        .collect()
}

/// The normal of a region without a plane (module doc, step 3).
fn degenerate_normal(pair: &BodyPair, region: &ContactRegion) -> Option<DVec3> {
    let pairs = entity_pairs(region);
    let common_face = |of_a: bool| -> Option<u32> {
        let mut faces = pairs.iter().map(|&(a, b)| if of_a { a } else { b });
        let Some(Entity::Face(first)) = faces.next() else {
            return None;
        };
        faces.all(|e| e == Entity::Face(first)).then_some(first)
    };
    if let Some(f) = common_face(true) {
        return Some(pair.a.to_world(pair.a.brep.faces[f as usize].normal));
    }
    if let Some(f) = common_face(false) {
        return Some(-pair.b.to_world(pair.b.brep.faces[f as usize].normal));
    }
    [
        surface_normal_difference(pair, &pairs),
        pair.b.position - pair.a.position,
    ]
    .into_iter()
    .find(|d| d.length() > 0.0)
    .map(DVec3::normalize)
}

/// N_A − N_B: the area-weighted normals (world) of the B-rep faces the
/// region's entities lie on or bound, each face once.
fn surface_normal_difference(pair: &BodyPair, pairs: &[(Entity, Entity)]) -> DVec3 {
    let weighted = |s: &PairSide, mut faces: Vec<u32>| -> DVec3 {
        faces.sort_unstable();
        faces.dedup();
        faces
            .iter()
            .map(|&f| {
                let face = &s.brep.faces[f as usize];
                let area: f64 = face
                    .triangles
                    .iter()
                    .map(|&t| {
                        let [p, q, r] = s.world.mesh.face_corners(t as usize);
                        (q - p).cross(r - p).length() * 0.5
                    })
                    .sum();
                s.to_world(face.normal) * area
            })
            .sum()
    };
    let faces_a = pairs
        .iter()
        .flat_map(|&(a, _)| faces_of(pair.a.brep, a))
        .collect();
    let faces_b = pairs
        .iter()
        .flat_map(|&(_, b)| faces_of(pair.b.brep, b))
        .collect();
    weighted(&pair.a, faces_a) - weighted(&pair.b, faces_b)
}

/// The B-rep faces an entity lies on (a face) or bounds (an edge's two
/// faces, a vertex's faces).
fn faces_of(brep: &crate::mesh::Brep, entity: Entity) -> Vec<u32> {
    match entity {
        Entity::Face(f) => vec![f],
        Entity::Edge(e) => brep.edges[e as usize].faces.to_vec(),
        Entity::Vertex(v) => brep.vertices[v as usize].faces.clone(),
    }
}

/// How far `q` lies outside the convex polygon `hull` (counter-clockwise;
/// a point or a segment when it has fewer than three corners); ≤ 0 inside.
fn distance_outside(hull: &[DVec2], q: DVec2) -> f64 {
    match hull {
        [] => f64::INFINITY,
        [p] => (q - *p).length(),
        [p, r] => {
            let d = *r - *p;
            let t = ((q - *p).dot(d) / d.length_squared()).clamp(0.0, 1.0);
            (q - (*p + d * t)).length()
        }
        _ => (0..hull.len())
            .map(|i| {
                let (p, r) = (hull[i], hull[(i + 1) % hull.len()]);
                let edge = r - p;
                // Outward normal of a counter-clockwise edge: (e.y, −e.x).
                DVec2::new(edge.y, -edge.x).normalize().dot(q - p)
            })
            .fold(f64::NEG_INFINITY, f64::max),
    }
}

/// The entities of A and B a contact candidate lies on (`None` only for a
/// vertex that is not on its surface, which the regions never hold).
fn entities(pair: &BodyPair, candidate: &Candidate) -> Option<(Entity, Entity)> {
    match *candidate {
        Candidate::Boundary { a, b, .. } => Some((a, b)),
        Candidate::Vertex { vertex, of_a } => {
            let (mine, other) = if of_a {
                (&pair.a, &pair.b)
            } else {
                (&pair.b, &pair.a)
            };
            let own = entity_of_mesh_vertex(mine.world.mesh, mine.brep, vertex)?;
            let p = mine.world.vertices[vertex as usize];
            let nearest = nearest_on_surface(other.world, p, f64::INFINITY, 0.0)?;
            let theirs = nearest.nearest().entity(other.world.mesh, other.brep);
            Some(if of_a { (own, theirs) } else { (theirs, own) })
        }
    }
}
