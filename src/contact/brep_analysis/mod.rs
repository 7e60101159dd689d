//! The analysis of touching B-rep entity pairs that region analysis with
//! temporal coherence is made of (Bouma & Vaněček 1993, §3 "Modeling
//! Contact" and §4), below the methods built on it: `region-analysis`
//! (Bouma & Vaněček as written) and `semi-local` (ContactLab's own). At the
//! four points where the two differ, the analysis asks the method
//! ([`Choices`]); each method file states its choices and why. Everything
//! else is here, and no method file imports another.
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
//!    linear feasibility problem (`local_solids`). So figures 5–6
//!    (whether α ≤ β) come out of the cones, not out of a rule per case.
//! 3. **Normals by dimension** (§3, "Contact Normals", figure 7): a 2D
//!    pair, the faces' support-plane normal (the bisector of A's face
//!    normal and minus B's, which is both at a touching pose and does not
//!    depend on which body is A); a pair with a reflex edge, the normals
//!    of its two faces; with a non-convex corner (touching anything but a
//!    face), its faces' normals, among those that separate the other
//!    entity, of which the method keeps some or all
//!    ([`Choices::reflex_normals`]); a pair with a face, that face's
//!    normal; two convex edges crossing, their cross product, oriented
//!    from A to B (where it does not separate their local solids, as the
//!    method chooses, [`Choices::crossing_must_separate`]); the rest
//!    (vertex–vertex, vertex–edge, collinear edges, all convex) are
//!    indeterminate: any normal of the cone of planes that separate the two
//!    entities' local solids will do. There the local geometry's choice is the separating
//!    normal nearest the difference of A's and B's mean face normals at
//!    the entities, and the n · v rule (§3, figure 8) prefers, for the
//!    relative velocity v at the region, a separating normal with
//!    n · v ≥ 0 (the nearest such to the local choice), or, when every
//!    separating normal has n · v < 0, the one with the largest n · v.
//! 4. **Temporal coherence** (§3, equations 6–8): the method keeps, per
//!    body pair, the sufficient entity pairs of the last detection with
//!    their normals (in the body frame of the body whose face gave each
//!    normal, A's otherwise, so that they move with it). A pair found again
//!    keeps its normals, as far as the method keeps them
//!    ([`Choices::keeps_normals`]); a pair that shrank to an adjacent lower-
//!    dimensional pair of entities (x bordering the old x, and/or y the old
//!    y) keeps them when both old entities had convex neighbourhoods and
//!    the kept normals still separate the new entities' local solids
//!    (within [`COHERENCE_SIN`]): that is "without colliding". Such
//!    contacts carry `kept_normal`.
//! 5. **Contacts**: in each region, the kept entity pairs with the same
//!    normals are taken together; every vertex of the convex hull of
//!    their pieces (in the plane across the first normal; of corners
//!    closer than the envelope only the outermost) gives one contact per
//!    normal (or each cluster of them, where the method makes clusters,
//!    [`Choices::clusters`]), with the feature pair and B-rep entities of
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
//!   impact gives in one step), B is first translated to a touching
//!   configuration by a shift the method decides and [`analyse`] takes.
//!   Region analysis' is along the minimum direction ([`push_apart`];
//!   `docs/design/other-methods.md`, "Region analysis with temporal
//!   coherence"): the crossed face normal that clears its crossings with
//!   the shortest push, repeated while crossings remain (at
//!   most `MAX_PUSHES` times). The analysis runs on that configuration,
//!   and the contacts are moved back:
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
//!
//! The parts, one step each: `entities` (a body's B-rep entities),
//! `local_solids` (cones of directions), `sufficient_set`, `normals`,
//! `coherence`, `contacts` and `touching_pose` (B translated, the push
//! apart); this module runs them in order ([`analyse`]).

mod coherence;
mod contacts;
mod entities;
mod local_solids;
mod normals;
mod sufficient_set;
mod touching_pose;

pub use coherence::{still_separate, Coherence, COHERENCE_SIN};
pub use normals::Normal;
pub use touching_pose::{moved_mesh, push_apart, with_b_moved};

use crate::contact::body_pair::BodyPair;
use crate::contact::method_output::{PairOutput, RegionOutline};
use crate::contact::regions::touching::touching_regions;
use crate::contact::regions::{Entity, EntityContact};
use coherence::{coherent_normals, to_body, KeptPair};
use contacts::emit_contacts;
use entities::is_convex;
use glam::{DVec2, DVec3};
use normals::local_normals;
use sufficient_set::sufficient_set;

/// The tolerances of the analysis, from the method's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    /// Features closer than this touch (the `envelope` setting): the
    /// analysis' resolution.
    pub envelope: f64,
    /// The pair's touching tolerance: collinear and repeated hull corners
    /// within it are dropped.
    pub touch_tol: f64,
    /// Sine of the angle below which directions count as parallel (and
    /// normals as equal).
    pub parallel_sin: f64,
}

/// What a method built on the analysis decides for itself: the four
/// points where `region-analysis` (Bouma & Vaněček as written) and
/// `semi-local` part. Each method file implements them with its reasons;
/// everything else is the analysis'.
pub trait Choices: Sync {
    /// The normals of a pair with a reflex edge or a non-convex corner
    /// (figure 7), chosen from `distinct`: the normals of that entity's
    /// faces (B's negated, so that all point from A to B) that separate the
    /// other entity, or all of them when none does, repeats (within
    /// `margin`) dropped, in the order of the faces.
    fn reflex_normals(&self, distinct: Vec<Normal>, margin: f64) -> Vec<Normal>;

    /// Whether two convex edges crossing give their cross product as the
    /// normal only where it separates their local solids; where it does
    /// not (two end edges in one plane), they are then indeterminate.
    fn crossing_must_separate(&self) -> bool;

    /// Whether an entity pair found again (A's `x`, B's `y`) keeps
    /// `kept`, its normals of the last detection, now in world
    /// coordinates (equation 6). If not, its normals are taken anew from
    /// the geometry.
    fn keeps_normals(&self, pair: &BodyPair, x: Entity, y: Entity, kept: &[Normal]) -> bool;

    /// How the hull corners of a group of pieces with the same normals
    /// become contacts: `None`, one per corner and normal; `Some`, one per
    /// cluster of corners and normal, at the cluster's centre with its
    /// deepest gap. `flat` holds the group's points in the plane across
    /// its first normal, `corners` the hull corners' indices into it.
    fn clusters(&self, flat: &[DVec2], corners: &[usize], envelope: f64)
        -> Option<Vec<Vec<usize>>>;
}

/// The region analysis of one body pair, with B translated by `shift`
/// (the touching configuration a penetrating pair is mapped to; zero for
/// a pair within the envelope): steps 1–5 of the module doc, with the
/// method's `choices`, then the contacts and outlines moved back to the
/// real poses. `coherence` is this pair's memory of the last detection,
/// which this updates.
pub fn analyse(
    pair: &BodyPair,
    tolerances: &Tolerances,
    shift: DVec3,
    coherence: &mut Coherence,
    choices: &dyn Choices,
    out: &mut PairOutput,
) {
    let tol = tolerances.envelope;
    let margin = tolerances.parallel_sin;
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
        let hull = region.touching_hull(tolerances.touch_tol);
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
        let (normals, was_kept) = match coherent_normals(pair, piece, &previous, choices) {
            Some(normals) => (normals, true),
            None => (local_normals(pair, piece, margin, choices), false),
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
    for (region, chosen) in chosen.iter().enumerate() {
        emit_contacts(
            pair,
            &pieces,
            chosen,
            region as u32,
            tolerances,
            choices,
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
