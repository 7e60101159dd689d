//! Semi-local: ContactLab's own method (issue 13; `docs/method.md` is its
//! write-up).
//!
//! **The idea.** The paper (Erleben 2018, §9) ends by saying that no local
//! method is right on all of its cases and that future methods should look
//! beyond one pair of tetrahedra. Bouma & Vaněček's region analysis does: it sees
//! the B-rep entities (flat faces, sharp edges, corners) of two whole
//! bodies, keeps only the touching entity pairs that their larger
//! neighbours do not already hold, gives each the normal its dimension
//! decides, and keeps a persisting pair's normal from the last step. That
//! is right wherever a contact's normal is decided by the two bodies'
//! shapes near it, which is every case of the paper but five
//! situations, and this method is region analysis with those five
//! repaired, each by a rule that looks at a little more than one pair of
//! features (hence "semi-local"):
//!
//! 1. **A corner in a pit.** A spike's apex in the bottom of a pyramid
//!    hole touches four walls; Bouma & Vaněček's figure 7 gives a non-convex
//!    corner at most three normals, so one wall is never held (coverage
//!    75 %). Here a non-convex corner gives every face normal that
//!    separates the other body's entity.
//! 2. **A point or line contact made of several pieces.** A sunk apex
//!    comes within the envelope of the other body along short stretches
//!    of several edges, a sunk ridge along a strip, and Bouma & Vaněček's hull of
//!    those pieces has a corner per piece: two or three contacts where one
//!    point is touching, four where a segment's two ends are (the spikes
//!    cases' and the wedges' excess 2–3). Here a group of pieces with the
//!    same normals whose hull is no wider than [`POINT_GROUP_ENVELOPES`]
//!    envelopes is a point (one contact, at its centre with its deepest
//!    gap) or, if longer, a segment (one at each end).
//! 3. **A kept normal that no longer fits.** Temporal coherence keeps
//!    a persisting entity pair's normals from the last step. Bouma & Vaněček
//!    keep them unchecked, so a normal taken from a face stays where it
//!    was while that face's body turns: a spike toppling onto the rim of
//!    its groove sank 25 cm into it (3.5 mm with the repair). Here a
//!    kept normal must still separate the pair's local solids (within 1°,
//!    the test Bouma & Vaněček apply to a pair that shrank), or the normal is
//!    taken anew from the geometry.
//! 4. **Edges crossing in one plane.** Two convex edges whose cross
//!    product does not separate the bodies there (the end edges of two
//!    wedges of equal length, lying in one end plane) are not a crossing
//!    contact; Bouma & Vaněček's rule still gives them the plane's normal,
//!    sideways. Here such a pair is treated as indeterminate: the
//!    separating normal nearest the difference of the bodies' face
//!    normals, or by n · v.
//!
//! 5. **The way in.** A body that sinks deeper than the envelope in one
//!    step (a spike falling onto a ridge) has to be mapped back to a
//!    touching configuration before the analysis. Bouma & Vaněček's answer is the
//!    shortest push out along a face normal, which can be the wrong way
//!    out: on the spike-on-wedge case the spike went through the wedge
//!    (1.03 m deep at step 38). Here the method remembers the pair's last
//!    relative position at which nothing was sunk deeper than the envelope
//!    (its own history, as temporal coherence already is) and moves B back
//!    along the way it came, the translation of its origin since then in
//!    A's frame, to the first point on that path where nothing is deeper
//!    than the envelope: the configuration of first contact, whose
//!    entities and normals the impact needs (41 mm at worst on that case).
//!    Only when that path does not clear the pair (it turned in, or there
//!    is no history) does it fall back to the shortest push.
//!
//! Everything else is the analysis it shares with `region-analysis`
//! ([`crate::contact::brep_analysis`]): envelope, sufficient set, normals
//! by dimension, temporal coherence, n · v for indeterminate normals.
//! Repairs 1–4 are this method's answers where that analysis asks
//! ([`Choices`], below); repair 5 is how it maps a sunk pair to touching
//! before the analysis runs ([`SemiLocal::body_pair`]). The method sees
//! geometry, velocities, its settings (`envelope`) and its own history,
//! never the scene's answer.

use super::{
    Algorithm, BodyPair, BodyPairMethod, MethodInfo, MethodParams, PairMemory, PairOutput,
};
use crate::contact::brep_analysis::{
    analyse, moved_mesh, push_apart, still_separate, with_b_moved, Choices, Coherence, Normal,
    Tolerances,
};
use crate::contact::regions::touching::deep_crossings;
use crate::contact::regions::Entity;
use glam::{DVec2, DVec3};

pub struct SemiLocal;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "semi-local",
    name: "Semi-local",
    source: help_text!("ContactLab (docs/method.md): region analysis (Bouma & Vaněček 1993, §3–4) with five repairs"),
    summary: "ContactLab's own: whole-body contact regions and normals by shape (region analysis), with every wall of a pit, one contact per point, and kept normals that follow a turning body.",
    help: help_text!("ContactLab's own method, built on Bouma & Vaněček's region analysis: it looks at the two bodies' flat faces, sharp edges and corners rather than at pairs of tetrahedra, keeps only the touching pairs that larger neighbouring contacts do not already hold, and gives each the normal its shape decides (a face's normal; both walls of a groove; the cross product of two crossing edges), keeping a contact's normal from the last step while it persists and, where the shape leaves it open, preferring a normal along which the bodies are not moving into each other. Five repairs make it semi-local: a corner in the bottom of a pit gets every wall's normal (not at most three); the pieces of one point or line contact become one contact per point or segment end; a normal kept from the last step is dropped once the body whose face gave it has turned away (it used to let a toppling spike sink into a rim); two edges crossing in one plane, which do not separate the bodies there, are not given that plane's sideways normal; and a body that sank deeper than the envelope in one step is traced back along the way it came to where it first touched, instead of being pushed out the shortest way (which let a spike pass through a wedge). The rules of the paper's fundamental cases hold only at their first contact, so over a whole run its score falls where the bodies end up somewhere else (a spike toppling out of its groove). Like region analysis it gives a tall stack only its ideal contacts, which need warm starting to converge in 1000 solver sweeps. docs/method.md explains each case and where it can still fail."),
    reads: &["envelope"],
    algorithm: Algorithm::BodyPair(&SemiLocal),
    paper_code: None,
};

/// Repair 2's width, in envelopes: pieces of one point contact lie within
/// a few envelopes of the point (an edge within the envelope of a face it
/// crosses at a shallow angle runs up to envelope / sin(angle) along it;
/// the spikes' 18° faces give about three), while the corners of a real
/// face or edge contact in the paper's scenes are tens of envelopes apart.
const POINT_GROUP_ENVELOPES: f64 = 4.0;

impl Choices for SemiLocal {
    /// Repair 1: every wall's normal. A corner in the bottom of a pyramid
    /// pit touches four walls, and each holds it.
    fn reflex_normals(&self, distinct: Vec<Normal>, _margin: f64) -> Vec<Normal> {
        distinct
    }

    /// Repair 4: edges whose cross product does not separate the bodies
    /// there (two end edges in one plane) are not a crossing contact; the
    /// plane's normal would be sideways.
    fn crossing_must_separate(&self) -> bool {
        true
    }

    /// Repair 3: a kept normal must still separate the pair's local solids,
    /// the test (equation 7) a pair that shrank already passes; a normal
    /// from a face of a body that has turned away is taken anew.
    fn keeps_normals(&self, pair: &BodyPair, x: Entity, y: Entity, kept: &[Normal]) -> bool {
        still_separate(pair, x, y, kept)
    }

    /// Repair 2: a group no wider than [`POINT_GROUP_ENVELOPES`] envelopes
    /// is a point (one cluster) or a segment (two, its ends).
    fn clusters(
        &self,
        flat: &[DVec2],
        corners: &[usize],
        envelope: f64,
    ) -> Option<Vec<Vec<usize>>> {
        thin_hull_clusters(flat, corners, POINT_GROUP_ENVELOPES * envelope)
    }
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

/// Bisection steps along the way in (repair 5): the first clear point is
/// found to 2⁻¹⁶ of the motion since the pair was last clear.
const WAY_IN_BISECTIONS: usize = 16;

/// What the method keeps of a body pair between detections.
#[derive(Default)]
struct Memory {
    /// The analysis' temporal coherence.
    coherence: Coherence,
    /// B's origin in A's frame the last time no feature was sunk deeper
    /// than the envelope. (Only the translation: the way back is a
    /// straight line, and a turn that sinks a feature falls back to the
    /// shortest push.)
    last_clear: Option<DVec3>,
}

/// B's origin in A's frame.
fn relative_position(pair: &BodyPair) -> DVec3 {
    pair.a.rotation.inverse() * (pair.b.position - pair.a.position)
}

/// Whether, with B translated by `shift`, some feature is sunk deeper than
/// the envelope.
fn sunk(pair: &BodyPair, shift: DVec3, tol: f64) -> bool {
    if shift == DVec3::ZERO {
        // Every detection asks this first: no need to pose B's mesh again.
        return !deep_crossings(pair, tol).is_empty();
    }
    let moved = moved_mesh(pair, shift);
    !deep_crossings(&with_b_moved(pair, &moved, shift), tol).is_empty()
}

/// Repair 5: the translation of B to the first configuration on its way
/// in (from `from`, B's origin in A's frame when last clear) at which
/// nothing is sunk deeper than the envelope; `None` when even the start of
/// the way is not clear (B turned in rather than moved in).
fn way_in(pair: &BodyPair, from: DVec3, tol: f64) -> Option<DVec3> {
    let back = pair.a.position + pair.a.rotation * from - pair.b.position;
    if sunk(pair, back, tol) {
        return None;
    }
    // Clear at t = 1 (all the way back), sunk at t = 0 (now).
    let (mut sunk_at, mut clear_at) = (0.0_f64, 1.0_f64);
    for _ in 0..WAY_IN_BISECTIONS {
        let t = 0.5 * (sunk_at + clear_at);
        if sunk(pair, back * t, tol) {
            sunk_at = t;
        } else {
            clear_at = t;
        }
    }
    Some(back * clear_at)
}

impl BodyPairMethod for SemiLocal {
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
        let tol = params.envelope;
        let memory = memory.get_or_default::<Memory>();
        let shift = if !sunk(pair, DVec3::ZERO, tol) {
            memory.last_clear = Some(relative_position(pair));
            DVec3::ZERO
        } else {
            memory
                .last_clear
                .and_then(|from| way_in(pair, from, tol))
                .unwrap_or_else(|| push_apart(pair, tol, params.parallel_sin))
        };
        let tolerances = Tolerances {
            envelope: params.envelope,
            touch_tol: params.touch_tol,
            parallel_sin: params.parallel_sin,
        };
        analyse(pair, &tolerances, shift, &mut memory.coherence, self, out);
    }
}
