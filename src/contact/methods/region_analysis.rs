//! Region analysis with temporal coherence (Bouma & Vaněček,
//! §3 "Modeling Contact" and §4; design `methods-seeds.md`, "Region
//! analysis with temporal coherence").
//!
//! For one pair of bodies:
//!
//! 1. **Intersection set** (§3, Lemma 1): every pair of open B-rep
//!    entities (x of A, y of B) within the envelope of each other, with its
//!    piece Π, grouped into connected regions
//!    ([`crate::contact::regions::touching`]; the envelope is the
//!    tolerance).
//! 2. **Sufficient set** (§3, Definition 2, equations 3–4): in each region
//!    every 2D entity pair is kept; a 1D pair only if the local solids of
//!    A and B around it are not already inside the approximating spaces
//!    H(r′) of the kept adjacent 2D pairs (Definition 1: a face's support
//!    halfspace, a convex edge's two halfspaces intersected, a reflex
//!    edge's united); a 0D pair likewise against the kept adjacent 1D and
//!    2D pairs. Two pairs are adjacent when each one's entity equals or
//!    borders the other's (a vertex borders its edges and faces, an edge
//!    its faces). "Inside" is decided exactly on the cones of directions at
//!    the point: the local solid is a union of convex cones (a face's
//!    halfspace, a convex edge's wedge, a convex corner's cone, a reflex
//!    edge's two halfspaces, a non-convex corner's tetrahedra), and a
//!    convex cone lies in a union of convex cones unless some open
//!    direction of it lies outside every one of them, which is a small
//!    linear feasibility problem ([`open_direction_exists`]). So figures
//!    5–6 (whether α ≤ β) come out of the cones, not out of a rule per case.
//! 3. **Normals by dimension** (§3, "Contact Normals", figure 7): a 2D
//!    pair, the faces' support-plane normal (the bisector of A's face
//!    normal and minus B's, which is both at a touching pose and does not
//!    depend on which body is A); a pair with a reflex edge, the normals
//!    of its two faces; with a non-convex corner (touching anything but a
//!    face), at most three of its faces' normals, the most transversal
//!    (largest |det|), among those that separate the other entity; a
//!    pair with a face, that face's normal; two convex edges crossing,
//!    their cross product, oriented from A to B; the rest (vertex–vertex,
//!    vertex–edge, collinear edges, all convex) are indeterminate: any
//!    normal of the cone of planes that separate the two entities' local
//!    solids will do. There the local geometry's choice is the separating
//!    normal nearest the difference of A's and B's mean face normals at
//!    the entities, and the n · v rule (§3, figure 8) prefers, for the
//!    relative velocity v at the region, a separating normal with
//!    n · v ≥ 0 (the nearest such to the local choice), or, when every
//!    separating normal has n · v < 0, the one with the largest n · v.
//! 4. **Temporal coherence** (§3, equations 6–8): the method keeps, per
//!    body pair, the sufficient entity pairs of the last detection with
//!    their normals (in the body frame of the body whose face gave each
//!    normal, A's otherwise, so that they move with it). A pair found again
//!    keeps its normals; a pair that shrank to an adjacent lower-
//!    dimensional pair of entities (x bordering the old x, and/or y the old
//!    y) keeps them when both old entities had convex neighbourhoods and
//!    the kept normals still separate the new entities' local solids
//!    (within [`COHERENCE_SIN`]): that is "without colliding". Such
//!    contacts carry `kept_normal`.
//! 5. **Contacts**: in each region, the kept entity pairs with the same
//!    normals are taken together; every vertex of the convex hull of
//!    their pieces (in the plane across the first normal; of corners
//!    closer than the envelope only the outermost, [`hull_corners`]) gives
//!    one contact per normal, with the feature pair and B-rep entities of
//!    the piece it came from. Depth: the signed distance between the two
//!    entities along the normal at that point (≤ 0 penetrating).
//!
//! **Penetrating pairs.** Bouma & Vaněček analyses exactly touching bodies; a
//! simulation never has them. Two rules map a pair to its touching
//! configuration:
//!
//! - Features closer than the envelope count as touching whether they are
//!   apart or sunk into each other: a face sunk a few micrometres into
//!   another is still within the envelope of its plane, and its piece is
//!   the overlap midway between the two. No translation is needed, the
//!   analysis sees the very entities it would see at the touching pose,
//!   and a resting stack keeps its regions, normals and hulls from the
//!   first step to the last; the depth carries the penetration.
//! - Deeper than the envelope (an edge crossing an open face of the other
//!   body with its ends beyond the envelope on both sides, which a fast
//!   impact gives in one step), B is first translated apart along the
//!   minimum direction, as the design suggests ([`push_apart`]): the
//!   crossed face normal that clears its crossings with the shortest push,
//!   repeated while crossings remain (at most [`MAX_PUSHES`] times). The
//!   analysis runs on that configuration, and the contacts are moved back:
//!   positions by half the push, depths by its part along each normal.
//!   The push is the separating-axis answer for locally convex contact;
//!   where a body has sunk into a pocket of the other (a spike toppling
//!   over the rim of the pit, its tip deep behind the pit's wall) the
//!   shortest push can leave a deeper feature unresolved, and that
//!   feature then has no contact.
//!
//! The envelope is also the resolution of the analysis: features closer
//! than it merge into the lowest-dimensional one, and hull corners closer
//! than it merge. It must exceed the penetration of resting contact (the
//! default 1 cm against micrometres in the paper's scenes) and stay below
//! the bodies' features; for a scene scaled by s, scale it by s.
//!
//! Back-face culling (§4.1) is not done: it only saves time, and the
//! bodies here have few entities near each other.

use super::{
    Algorithm, BodyPair, BodyPairMethod, MethodInfo, MethodParams, PairContact, PairMemory,
    PairOutput, PairSide, RawContact, RegionOutline,
};
use crate::contact::features::features_from_dimensions;
use crate::contact::regions::touching::{deep_crossings, touching_regions};
use crate::contact::world_mesh::WorldMesh;
use crate::contact::regions::{Entity, EntityContact};
use crate::geometry::{closest_point_on_segment, convex_hull_2d, orthonormal_basis, PlaneFrame};
use crate::mesh::EdgeKind;
use glam::{DVec2, DVec3};

pub struct RegionAnalysis;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "region-analysis",
    name: "Region analysis",
    source: "Bouma & Vaněček 1993, §3 (contact regions, sufficient set, normals) and §4",
    summary: "Touching B-rep entity pairs grouped into regions; only the sufficient ones, with normals by dimension, kept from step to step.",
    help: "Works on whole bodies and their B-rep features (flat faces, sharp edges, corners), not on triangles, so internal edges do not exist for it. It finds every pair of a vertex, edge or face of one body within the envelope of one of the other, keeps only the pairs that the neighbouring larger contacts do not already hold (a cliff edge lying on a face is held by the face), and gives each the normal its shape decides: a face's normal, both faces of a groove, the cross product of crossing edges. Where the shape leaves the normal open (two corners, two parallel edges) it prefers a normal along which the bodies are not moving into each other, and a contact that persists keeps its normal from the last step. Bodies sunk deeper than the envelope are first pushed apart the shortest way out along a face normal, which can go wrong where one body has sunk into a pocket of the other; and its ideal contacts leave a tall stack to friction alone, on which 1000 cold-started solver sweeps do not converge (the Pillar and the Arch creep as with the exact reference, and stand with warm starting).",
    reads: &["envelope"],
    algorithm: Algorithm::BodyPair(&RegionAnalysis),
    paper_code: None,
};

/// How far (as the sine of an angle) a kept normal may be from separating
/// the new entity pair's local solids and still count as "not colliding"
/// (Bouma & Vaněček, equation 7). About 1°: a resting or sliding body turns far
/// less than that between two steps, while meeting a new face at a corner
/// turns the separating planes by far more.
const COHERENCE_SIN: f64 = 0.0175;

/// Which body's frame a normal is kept in.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Frame {
    A,
    B,
}

/// A normal in world coordinates (from A to B) and the body it belongs to.
#[derive(Clone, Copy, Debug)]
struct Normal {
    world: DVec3,
    frame: Frame,
}

/// A sufficient entity pair of the last detection and its normals, each
/// in the body frame of its [`Frame`].
#[derive(Clone, Debug)]
struct KeptPair {
    a: Entity,
    b: Entity,
    normals: Vec<(Frame, DVec3)>,
    /// Both entities have convex neighbourhoods (equation 7's condition).
    convex: bool,
}

/// What the method keeps of a body pair between detections.
#[derive(Default)]
pub(super) struct Coherence {
    /// Sorted by (a, b).
    pairs: Vec<KeptPair>,
}

impl BodyPairMethod for RegionAnalysis {
    fn margin(&self, params: &MethodParams) -> f64 {
        params.envelope
    }

    fn body_pair(
        &self,
        pair: &BodyPair,
        params: &MethodParams,
        memory: &mut PairMemory,
        out: &mut PairOutput,
    ) {
        // Deeper than the envelope: analyse B pushed back to touching.
        let shift = push_apart(pair, params.envelope, params.parallel_sin);
        let coherence = memory.get_or_default::<Coherence>();
        analyse(pair, params, shift, coherence, &SEED, out);
    }
}

/// What a method built on this analysis may change (ContactLab's
/// `semi-local` does; design `methods-seeds.md`). [`SEED`] is the seed's
/// own reading.
pub(super) struct Options {
    /// At most this many face normals at a non-convex corner (the seed's
    /// figure 7 shows three; a pyramid pit's bottom needs four).
    pub corner_normals: usize,
    /// When set: a group of pieces whose hull is no wider than this many
    /// envelopes is a point (one contact per normal) or, if longer, a
    /// segment (one at each end), at the envelope's resolution.
    /// Envelope-thick pieces of a point or line contact (a sunk apex's
    /// edges, a sunk ridge's strip) otherwise give a corner per piece.
    pub point_group_envelopes: Option<f64>,
    /// Whether a pair found again keeps its last normals only while they
    /// still separate its entities' local solids (within [`COHERENCE_SIN`],
    /// as a pair that shrank must). The seed keeps them unchecked, so a
    /// normal taken from one body's face stays where it was while that
    /// body turns (a toppling spike's face on a rim sinks into it).
    pub recheck_kept: bool,
    /// Whether two convex edges crossing take their cross product only
    /// when it separates their local solids (else the pair is treated as
    /// indeterminate). The seed's rule takes it regardless, which for two
    /// end edges lying in one plane is that plane's normal.
    pub crossing_must_separate: bool,
}

/// Bouma & Vaněček as written.
const SEED: Options = Options {
    corner_normals: 3,
    point_group_envelopes: None,
    recheck_kept: false,
    crossing_must_separate: false,
};

/// The region analysis of one body pair, with B translated by `shift`
/// (the touching configuration a penetrating pair is mapped to; zero for
/// a pair within the envelope): steps 1–5 of the module doc, then the
/// contacts and outlines moved back to the real poses. `coherence` is this
/// pair's memory of the last detection, which this updates.
pub(super) fn analyse(
    pair: &BodyPair,
    params: &MethodParams,
    shift: DVec3,
    coherence: &mut Coherence,
    options: &Options,
    out: &mut PairOutput,
) {
    let tol = params.envelope;
    let margin = params.parallel_sin;
    let moved = (shift != DVec3::ZERO).then(|| moved_mesh(pair, shift));
    let pair = &match &moved {
        Some(world) => with_b_moved(pair, world, shift),
        None => *pair,
    };
    let (first_contact, first_region) = (out.contacts.len(), out.regions.len());
    let regions = touching_regions(pair, tol);
    // Every entity pair of the body pair with its region: adjacency
    // (and so the sufficient set) is between entity pairs, whichever
    // region they are in (a box in a corner touches floor and wall in
    // two regions, which together hold the corner edge).
    let pieces: Vec<EntityContact> = regions
        .regions
        .iter()
        .flat_map(|r| r.touching.iter().cloned())
        .collect();
    let region_of: Vec<u32> = regions
        .regions
        .iter()
        .enumerate()
        .flat_map(|(r, region)| std::iter::repeat_n(r as u32, region.touching.len()))
        .collect();
    for region in &regions.regions {
        let hull = region.touching_hull(params.touch_tol);
        let points = hull.map(|h| h.hull).unwrap_or_default();
        out.regions.push(RegionOutline {
            dimension: points.len().clamp(1, 3) as u8 - 1,
            points,
        });
    }
    let kept = sufficient_set(pair, &pieces, margin);
    let previous = std::mem::take(&mut coherence.pairs);
    let mut now: Vec<KeptPair> = Vec::new();
    // Per region: (piece, normals, whether they were kept from the last
    // step).
    let mut chosen: Vec<Vec<(usize, Vec<Normal>, bool)>> = vec![Vec::new(); regions.regions.len()];
    for (i, piece) in pieces.iter().enumerate().filter(|(i, _)| kept[*i]) {
        let (normals, was_kept) = match coherent_normals(pair, piece, &previous, options.recheck_kept) {
            Some(normals) => (normals, true),
            None => (local_normals(pair, piece, margin, options), false),
        };
        if !now.iter().any(|k| (k.a, k.b) == (piece.a, piece.b)) {
            now.push(KeptPair {
                a: piece.a,
                b: piece.b,
                normals: normals.iter().map(|n| to_body(pair, n)).collect(),
                convex: is_convex(&pair.a, piece.a) && is_convex(&pair.b, piece.b),
            });
        }
        chosen[region_of[i] as usize].push((i, normals, was_kept));
    }
    let point_group = options.point_group_envelopes.map(|k| k * tol);
    for (region, chosen) in chosen.iter().enumerate() {
        emit_contacts(
            pair,
            &pieces,
            chosen,
            region as u32,
            (params.touch_tol, tol, point_group),
            margin,
            out,
        );
    }
    now.sort_by_key(|k| (k.a, k.b));
    coherence.pairs = now;
    // Back to the real poses: B's surface moves back by the shift, the
    // midway points by half of it, every gap by its part along the
    // normal.
    for c in &mut out.contacts[first_contact..] {
        c.raw.position -= shift * 0.5;
        c.raw.depth -= c.raw.normal.dot(shift);
    }
    for r in &mut out.regions[first_region..] {
        for p in &mut r.points {
            *p -= shift * 0.5;
        }
    }
}

/// How many times [`push_apart`] translates B at most: each push clears
/// the crossings of the faces along one normal; a pair sunk into a groove
/// may need one per wall.
const MAX_PUSHES: usize = 4;

/// The translation of B that takes a pair sunk deeper than the envelope
/// back to touching (the design's "translate apart along the minimum
/// direction first"): while some edge crosses an open face of the other
/// body beyond the envelope ([`deep_crossings`]), push B along the normal
/// of the crossed faces (A's face normal, or minus B's) that needs the
/// shortest push to bring every crossing edge's inner end of those faces
/// back to the plane, as the separating-axis test takes the axis of least
/// overlap. Zero for a pair within the envelope, so resting contact is
/// analysed as it is.
pub(super) fn push_apart(pair: &BodyPair, tol: f64, parallel: f64) -> DVec3 {
    let mut shift = DVec3::ZERO;
    for _ in 0..MAX_PUSHES {
        let moved = moved_mesh(pair, shift);
        let at = with_b_moved(pair, &moved, shift);
        // (direction B must move, how far one crossing needs)
        let needs: Vec<(DVec3, f64)> = deep_crossings(&at, tol)
            .iter()
            .map(|c| (if c.face_of_a { c.normal } else { -c.normal }, c.depth))
            .collect();
        let push_along = |d: DVec3| {
            needs
                .iter()
                .filter(|(e, _)| (*e - d).length() <= parallel)
                .map(|(_, s)| *s)
                .fold(0.0, f64::max)
        };
        let Some((d, s)) = needs
            .iter()
            .map(|(d, _)| (*d, push_along(*d)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
        else {
            break;
        };
        shift += d * s;
    }
    shift
}

/// B's mesh translated by `shift`.
pub(super) fn moved_mesh<'a>(pair: &BodyPair<'a>, shift: DVec3) -> WorldMesh<'a> {
    WorldMesh::new(pair.b.world.mesh, pair.b.position + shift, pair.b.rotation)
}

/// The pair with B translated by `shift` (`moved` its translated mesh).
pub(super) fn with_b_moved<'a>(pair: &BodyPair<'a>, moved: &'a WorldMesh<'a>, shift: DVec3) -> BodyPair<'a> {
    BodyPair {
        a: pair.a,
        b: PairSide {
            world: moved,
            position: pair.b.position + shift,
            ..pair.b
        },
    }
}

/// The contacts of one region: kept pieces with the same normals together,
/// one contact per normal at every vertex of the convex hull of their
/// points.
fn emit_contacts(
    pair: &BodyPair,
    pieces: &[EntityContact],
    chosen: &[(usize, Vec<Normal>, bool)],
    region: u32,
    (fine, tol, point_group): (f64, f64, Option<f64>),
    margin: f64,
    out: &mut PairOutput,
) {
    let same = |x: &[Normal], y: &[Normal]| {
        x.len() == y.len()
            && x
                .iter()
                .zip(y)
                .all(|(p, q)| (p.world - q.world).length() <= margin)
    };
    let mut done = vec![false; chosen.len()];
    for g in 0..chosen.len() {
        if done[g] {
            continue;
        }
        let normals = &chosen[g].1;
        let Some(first) = normals.first() else {
            continue;
        };
        // The group: every chosen piece with these normals; (point, piece).
        let mut points: Vec<(DVec3, usize, bool)> = Vec::new();
        for (h, (piece, other, kept)) in chosen.iter().enumerate().skip(g) {
            if !done[h] && same(normals, other) {
                done[h] = true;
                points.extend(pieces[*piece].points.iter().map(|&p| (p, *piece, *kept)));
            }
        }
        let plane = PlaneFrame::new(points[0].0, first.world);
        let flat: Vec<DVec2> = points.iter().map(|(p, _, _)| plane.to_2d(*p)).collect();
        let corners: Vec<usize> = hull_corners(&flat, fine, tol)
            .iter()
            .filter_map(|corner| flat.iter().position(|q| q == corner))
            .collect();
        let contact = |k: usize, n: &Normal| {
            let (p, piece, kept) = points[k];
            let piece = &pieces[piece];
            let depth =
                (closest_on(&pair.b, piece.b, p) - closest_on(&pair.a, piece.a, p)).dot(n.world);
            PairContact {
                raw: RawContact {
                    position: p,
                    normal: n.world,
                    depth,
                    features: features_from_dimensions(piece.a.dimension(), piece.b.dimension()),
                },
                sources: [piece.a.index(), piece.b.index()],
                region,
                kept_normal: kept,
            }
        };
        if let Some(clusters) = point_group.and_then(|d| thin_hull_clusters(&flat, &corners, d)) {
            // A point or a segment at the envelope's resolution: one contact
            // per cluster of corners (a point's, a segment's two ends), at
            // the cluster's centre with its deepest corner's gap and
            // features (its identity for warm starting).
            for cluster in clusters {
                let centre = cluster.iter().map(|&k| points[k].0).sum::<DVec3>() / cluster.len() as f64;
                for n in normals {
                    let deepest = cluster
                        .iter()
                        .map(|&k| contact(k, n))
                        .min_by(|x, y| x.raw.depth.total_cmp(&y.raw.depth));
                    if let Some(mut c) = deepest {
                        c.raw.position = centre;
                        out.contacts.push(c);
                    }
                }
            }
            continue;
        }
        for &k in &corners {
            for n in normals {
                out.contacts.push(contact(k, n));
            }
        }
    }
}

/// The corners of the convex hull of `points` at the analysis' resolution:
/// the strict hull (collinear and repeated points within `fine`, the
/// touching tolerance, dropped), then, of corners closer than `coarse`
/// (the envelope) to each other, only the one farthest from the hull's
/// centre. Two faces a few micrometres out of line give a pair of corners
/// where one is meant; which of them stays depends on the geometry alone,
/// not on the order of the points, so not on the frame.
fn hull_corners(points: &[DVec2], fine: f64, coarse: f64) -> Vec<DVec2> {
    let hull = convex_hull_2d(points, fine);
    if hull.len() < 2 {
        return hull;
    }
    let centre = hull.iter().sum::<DVec2>() / hull.len() as f64;
    let mut order: Vec<usize> = (0..hull.len()).collect();
    order.sort_by(|&i, &j| {
        (hull[j] - centre)
            .length_squared()
            .total_cmp(&(hull[i] - centre).length_squared())
    });
    let mut keep = vec![false; hull.len()];
    for &i in &order {
        if !(0..hull.len()).any(|j| keep[j] && (hull[j] - hull[i]).length() <= coarse) {
            keep[i] = true;
        }
    }
    (0..hull.len()).filter(|&i| keep[i]).map(|i| hull[i]).collect()
}

/// For a hull (its corner indices into `flat`) no wider than `width`: its
/// corners in clusters, one cluster when it is also no longer than
/// `width` (a point), else two, the corners nearer each end of its longest
/// chord (a segment). `None` for a hull wider than that (a polygon).
fn thin_hull_clusters(flat: &[DVec2], corners: &[usize], width: f64) -> Option<Vec<Vec<usize>>> {
    let mut chord = (0.0, 0, 0);
    for (x, &i) in corners.iter().enumerate() {
        for &j in &corners[x + 1..] {
            let length = (flat[i] - flat[j]).length();
            if length > chord.0 {
                chord = (length, i, j);
            }
        }
    }
    let (length, i, j) = chord;
    if length <= width {
        return Some(vec![corners.to_vec()]);
    }
    let along = (flat[j] - flat[i]) / length;
    let across = |k: usize| (flat[k] - flat[i]).perp_dot(along).abs();
    if corners.iter().any(|&k| across(k) > width) {
        return None;
    }
    let (near_i, near_j): (Vec<usize>, Vec<usize>) = corners
        .iter()
        .partition(|&&k| (flat[k] - flat[i]).dot(along) <= 0.5 * length);
    Some(vec![near_i, near_j])
}

// ---------------------------------------------------------------------------
// Entities of one body.

fn vertex_point(side: &PairSide, v: u32) -> DVec3 {
    side.world.vertices[side.brep.vertices[v as usize].mesh_vertex as usize]
}

fn edge_path(side: &PairSide, e: u32) -> Vec<DVec3> {
    side.brep.edges[e as usize]
        .path
        .iter()
        .map(|&m| side.world.vertices[m as usize])
        .collect()
}

fn face_normal(side: &PairSide, f: u32) -> DVec3 {
    side.to_world(side.brep.faces[f as usize].normal)
}

/// A point of face `f`'s plane (world).
fn face_origin(side: &PairSide, f: u32) -> DVec3 {
    let face = &side.brep.faces[f as usize];
    side.position + side.rotation * (face.normal * face.offset)
}

/// The faces whose closure holds the entity.
fn faces_at(side: &PairSide, entity: Entity) -> Vec<u32> {
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
fn borders(side: &PairSide, low: Entity, high: Entity) -> bool {
    let brep = side.brep;
    match (low, high) {
        (Entity::Vertex(v), Entity::Edge(e)) => brep.edges[e as usize].ends.contains(&v),
        (Entity::Vertex(v), Entity::Face(f)) => brep.faces[f as usize].vertices.contains(&v),
        (Entity::Edge(e), Entity::Face(f)) => brep.edges[e as usize].faces.contains(&f),
        _ => false,
    }
}

/// Adjacent in either order (the seed's symmetric definition).
fn adjacent(side: &PairSide, x: Entity, y: Entity) -> bool {
    borders(side, x, y) || borders(side, y, x)
}

/// Whether the body's neighbourhood of the entity is convex: a face, a
/// convex edge, a corner whose edges are all convex.
fn is_convex(side: &PairSide, entity: Entity) -> bool {
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
fn closest_on(side: &PairSide, entity: Entity, p: DVec3) -> DVec3 {
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
fn nearest_on_path(path: &[DVec3], p: DVec3) -> (DVec3, DVec3) {
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
fn edge_direction(side: &PairSide, e: u32, p: DVec3) -> DVec3 {
    let path = edge_path(side, e);
    let chord = path[path.len() - 1] - path[0];
    let straight = path
        .iter()
        .all(|&q| (q - path[0]).cross(chord).length() <= crate::mesh::brep::COLLINEAR_SINE * chord.length_squared());
    if straight && chord.length() > 0.0 {
        chord.normalize()
    } else {
        nearest_on_path(&path, p).1
    }
}

// ---------------------------------------------------------------------------
// Local solids as unions of convex cones of directions.

/// A convex cone of directions {d : m · d ≤ 0 for every facet normal m},
/// with rays that generate it. All unit vectors.
#[derive(Clone, Debug)]
struct ConvexCone {
    facets: Vec<DVec3>,
    rays: Vec<DVec3>,
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
fn local_cone(side: &PairSide, entity: Entity) -> Vec<ConvexCone> {
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
fn covered(cone: &[ConvexCone], by: &[ConvexCone], margin: f64) -> bool {
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

// ---------------------------------------------------------------------------
// Sufficient set (§3, Definition 2).

/// Which entity pairs are in the sufficient set: all 2D ones, then
/// the 1D ones whose local solids (of A and of B) are not both inside the
/// H of the kept adjacent 2D pieces, then the 0D ones against the kept
/// adjacent 1D and 2D pieces.
fn sufficient_set(pair: &BodyPair, pieces: &[EntityContact], margin: f64) -> Vec<bool> {
    let dims: Vec<u8> = pieces.iter().map(EntityContact::dimension).collect();
    let mut kept: Vec<bool> = dims.iter().map(|&d| d == 2).collect();
    for d in [1u8, 0] {
        for i in (0..pieces.len()).filter(|&i| dims[i] == d) {
            let (x, y) = (pieces[i].a, pieces[i].b);
            let higher: Vec<usize> = (0..pieces.len())
                .filter(|&j| kept[j] && dims[j] > d)
                .filter(|&j| {
                    let (xj, yj) = (pieces[j].a, pieces[j].b);
                    (x == xj || adjacent(&pair.a, x, xj))
                        && (y == yj || adjacent(&pair.b, y, yj))
                        && (x, y) != (xj, yj)
                })
                .collect();
            if higher.is_empty() {
                kept[i] = true;
                continue;
            }
            let h = |side: &PairSide, pick: &dyn Fn(&EntityContact) -> Entity| -> Vec<ConvexCone> {
                higher
                    .iter()
                    .flat_map(|&j| local_cone(side, pick(&pieces[j])))
                    .collect()
            };
            let covered_a = covered(&local_cone(&pair.a, x), &h(&pair.a, &|p| p.a), margin);
            let covered_b =
                covered_a && covered(&local_cone(&pair.b, y), &h(&pair.b, &|p| p.b), margin);
            kept[i] = !(covered_a && covered_b);
        }
    }
    kept
}

// ---------------------------------------------------------------------------
// Normals (§3, "Contact Normals").

fn to_body(pair: &BodyPair, n: &Normal) -> (Frame, DVec3) {
    let rotation = match n.frame {
        Frame::A => pair.a.rotation,
        Frame::B => pair.b.rotation,
    };
    (n.frame, rotation.inverse() * n.world)
}

fn to_world(pair: &BodyPair, (frame, body): (Frame, DVec3)) -> Normal {
    let rotation = match frame {
        Frame::A => pair.a.rotation,
        Frame::B => pair.b.rotation,
    };
    Normal {
        world: (rotation * body).normalize_or_zero(),
        frame,
    }
}

/// Whether normal `n` (from A to B) separates the local solids of A at `x`
/// and B at `y` to within `slack` (a sine): every direction into A has
/// n · d ≤ slack, every direction into B n · d ≥ −slack.
fn separates(pair: &BodyPair, x: Entity, y: Entity, n: DVec3, slack: f64) -> bool {
    local_cone(&pair.a, x)
        .iter()
        .all(|c| c.rays.iter().all(|g| g.dot(n) <= slack))
        && local_cone(&pair.b, y)
            .iter()
            .all(|c| c.rays.iter().all(|g| g.dot(n) >= -slack))
}

/// Temporal coherence (equations 6 and 7): the normals the piece's entity
/// pair had at the last detection (with `recheck`, only while they still
/// separate it), or those of a pair it shrank from without colliding;
/// `None` for a new region.
fn coherent_normals(
    pair: &BodyPair,
    piece: &EntityContact,
    previous: &[KeptPair],
    recheck: bool,
) -> Option<Vec<Normal>> {
    let (x, y) = (piece.a, piece.b);
    if let Ok(k) = previous.binary_search_by_key(&(x, y), |k| (k.a, k.b)) {
        let normals: Vec<Normal> = previous[k].normals.iter().map(|&n| to_world(pair, n)).collect();
        let still = |n: &Normal| separates(pair, x, y, n.world, COHERENCE_SIN);
        return (!recheck || normals.iter().all(still)).then_some(normals);
    }
    let shrank = |old: &KeptPair| {
        let (x_in, y_in) = (
            borders(&pair.a, x, old.a),
            borders(&pair.b, y, old.b),
        );
        old.convex && ((x_in && y == old.b) || (x == old.a && y_in) || (x_in && y_in))
    };
    previous
        .iter()
        .filter(|old| shrank(old))
        .map(|old| old.normals.iter().map(|&n| to_world(pair, n)).collect::<Vec<_>>())
        .filter(|normals| {
            !normals.is_empty()
                && normals
                    .iter()
                    .all(|n| separates(pair, x, y, n.world, COHERENCE_SIN))
        })
        .max_by_key(|normals| normals.len())
}

/// Normals from the local geometry, by the dimension and kind of the
/// piece's entities (the module's step 3).
fn local_normals(pair: &BodyPair, piece: &EntityContact, margin: f64, options: &Options) -> Vec<Normal> {
    let (x, y) = (piece.a, piece.b);
    let a_normals: Vec<DVec3> = faces_at(&pair.a, x).iter().map(|&f| face_normal(&pair.a, f)).collect();
    let b_normals: Vec<DVec3> = faces_at(&pair.b, y).iter().map(|&f| face_normal(&pair.b, f)).collect();
    // Face on face: the bisector of A's normal and minus B's.
    if let (Entity::Face(_), Entity::Face(_)) = (x, y) {
        let n = (a_normals[0] - b_normals[0]).normalize_or_zero();
        return vec![Normal {
            world: n,
            frame: Frame::A,
        }];
    }
    // A reflex edge gives its two faces' normals whatever it touches (a
    // face counts as convex, Bouma & Vaněček's reflex–convex case); a non-convex
    // corner resting on a face is held by that face.
    let reflex = |side: &PairSide, e: Entity, other: Entity| match e {
        Entity::Edge(_) => !is_convex(side, e),
        Entity::Vertex(_) => !is_convex(side, e) && !matches!(other, Entity::Face(_)),
        Entity::Face(_) => false,
    };
    let (reflex_a, reflex_b) = (reflex(&pair.a, x, y), reflex(&pair.b, y, x));
    if reflex_a || reflex_b {
        let mut candidates: Vec<Normal> = Vec::new();
        if reflex_a {
            candidates.extend(a_normals.iter().map(|&n| Normal {
                world: n,
                frame: Frame::A,
            }));
        }
        if reflex_b {
            candidates.extend(b_normals.iter().map(|&n| Normal {
                world: -n,
                frame: Frame::B,
            }));
        }
        // Keep those that separate the other entity where it is a convex
        // edge or corner (a face is separated by its own normal only).
        let separating: Vec<Normal> = candidates
            .iter()
            .copied()
            .filter(|n| {
                let a_ok = reflex_a
                    || matches!(x, Entity::Face(_))
                    || local_cone(&pair.a, x)
                        .iter()
                        .all(|c| c.rays.iter().all(|g| g.dot(n.world) <= margin));
                let b_ok = reflex_b
                    || matches!(y, Entity::Face(_))
                    || local_cone(&pair.b, y)
                        .iter()
                        .all(|c| c.rays.iter().all(|g| g.dot(n.world) >= -margin));
                a_ok && b_ok
            })
            .collect();
        let pool = if separating.is_empty() {
            candidates
        } else {
            separating
        };
        return most_transversal(&pool, margin, options.corner_normals);
    }
    // A face and a convex entity: the face's normal.
    if let Entity::Face(_) = x {
        return vec![Normal {
            world: a_normals[0],
            frame: Frame::A,
        }];
    }
    if let Entity::Face(_) = y {
        return vec![Normal {
            world: -b_normals[0],
            frame: Frame::B,
        }];
    }
    let at = piece.points.iter().sum::<DVec3>() / piece.points.len().max(1) as f64;
    // Convex edges crossing: their cross product, oriented from A to B.
    if let (Entity::Edge(ea), Entity::Edge(eb), 0) = (x, y, piece.dimension()) {
        let cross = edge_direction(&pair.a, ea, at).cross(edge_direction(&pair.b, eb, at));
        if cross.length() > margin {
            let n = cross.normalize();
            let toward = (mean(&a_normals) - mean(&b_normals)).dot(n);
            let (plus, minus) = (separates(pair, x, y, n, margin), separates(pair, x, y, -n, margin));
            let world = if plus {
                n
            } else if minus || toward < 0.0 {
                -n
            } else {
                n
            };
            // Edges that cross without their cross product separating the
            // bodies there (two end edges in one plane) are not a crossing
            // contact; with `options.crossing_must_separate` they are
            // treated as indeterminate below.
            if plus || minus || !options.crossing_must_separate {
                return vec![Normal {
                    world,
                    frame: Frame::A,
                }];
            }
        }
    }
    vec![Normal {
        world: indeterminate_normal(pair, x, y, at, &a_normals, &b_normals, margin),
        frame: Frame::A,
    }]
}

fn mean(v: &[DVec3]) -> DVec3 {
    v.iter().sum::<DVec3>() / v.len().max(1) as f64
}

/// At most three of the normals (or all, with `cap` above three), the most
/// transversal: the triple with the largest |det|, else the pair with the
/// largest |cross|, after dropping repeats; ties go to the first in order.
fn most_transversal(normals: &[Normal], margin: f64, cap: usize) -> Vec<Normal> {
    let mut distinct: Vec<Normal> = Vec::new();
    for n in normals {
        if !distinct.iter().any(|d| (d.world - n.world).length() <= margin) {
            distinct.push(*n);
        }
    }
    if distinct.len() <= cap.max(3) {
        return distinct;
    }
    let m = distinct.len();
    let mut best = (0.0, [0, 1, 2]);
    for i in 0..m {
        for j in i + 1..m {
            for k in j + 1..m {
                let det = distinct[i]
                    .world
                    .dot(distinct[j].world.cross(distinct[k].world))
                    .abs();
                if det > best.0 + margin {
                    best = (det, [i, j, k]);
                }
            }
        }
    }
    if best.0 > margin {
        return best.1.iter().map(|&i| distinct[i]).collect();
    }
    let mut pair = (0.0, [0, 1]);
    for i in 0..m {
        for j in i + 1..m {
            let s = distinct[i].world.cross(distinct[j].world).length();
            if s > pair.0 + margin {
                pair = (s, [i, j]);
            }
        }
    }
    pair.1.iter().map(|&i| distinct[i]).collect()
}

/// An indeterminate normal (two convex entities that are not a face and do
/// not cross transversally): among the normals that separate the two
/// local solids, the one nearest the local choice (A's mean face normal
/// minus B's), or by the n · v rule.
fn indeterminate_normal(
    pair: &BodyPair,
    x: Entity,
    y: Entity,
    at: DVec3,
    a_normals: &[DVec3],
    b_normals: &[DVec3],
    margin: f64,
) -> DVec3 {
    // Separating normals n: n · g ≤ 0 for A's rays g, n · g ≥ 0 for B's.
    let mut constraints: Vec<DVec3> = Vec::new();
    for c in local_cone(&pair.a, x) {
        constraints.extend(c.rays);
    }
    for c in local_cone(&pair.b, y) {
        constraints.extend(c.rays.iter().map(|g| -*g));
    }
    let local = (mean(a_normals) - mean(b_normals))
        .try_normalize()
        .or_else(|| a_normals.first().copied())
        .unwrap_or(DVec3::ZERO);
    let Some(chosen) = best_direction(&constraints, local, margin) else {
        // No separating plane: the local solids overlap (the bodies
        // interpenetrate there); the local choice is all there is.
        return local;
    };
    let v = pair.relative_velocity(at);
    if chosen.dot(v) >= 0.0 {
        return chosen;
    }
    // n · v ≥ 0 among the separating normals, nearest the local choice;
    // failing that, the separating normal with the largest n · v.
    constraints.push(-v);
    if let Some(n) = best_direction(&constraints, local, margin) {
        return n;
    }
    constraints.pop();
    best_direction(&constraints, v, margin).unwrap_or(chosen)
}

/// The unit n that maximises n · objective subject to ĉ · n ≤ slack for
/// every constraint c, or `None` when no unit n meets them. The maximum
/// of a linear function over a convex spherical polygon is the direction
/// of the objective itself, or its projection on one bounding great
/// circle, or a corner where two meet; all of these are tried.
fn best_direction(constraints: &[DVec3], objective: DVec3, slack: f64) -> Option<DVec3> {
    let unit: Vec<DVec3> = constraints.iter().filter_map(|c| c.try_normalize()).collect();
    let feasible = |n: DVec3| unit.iter().all(|c| c.dot(n) <= slack);
    let mut candidates: Vec<DVec3> = Vec::new();
    candidates.extend(objective.try_normalize());
    for c in &unit {
        candidates.extend((objective - *c * c.dot(objective)).try_normalize());
    }
    for i in 0..unit.len() {
        for j in i + 1..unit.len() {
            if let Some(d) = unit[i].cross(unit[j]).try_normalize() {
                candidates.push(d);
                candidates.push(-d);
            }
        }
    }
    let mut best: Option<(DVec3, f64)> = None;
    for n in candidates.into_iter().filter(|&n| feasible(n)) {
        let value = n.dot(objective);
        if best.is_none_or(|(_, b)| value > b + slack * objective.length()) {
            best = Some((n, value));
        }
    }
    best.map(|(n, _)| n)
}
