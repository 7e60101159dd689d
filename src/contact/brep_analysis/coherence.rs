//! Temporal coherence (Bouma & Vaněček 1993, §3, equations 6–8): per
//! body pair, the sufficient entity pairs of the last detection with their
//! normals, kept in the body frame of the body whose face gave each normal
//! (A's otherwise) so that they move with it; a pair found again, or one
//! that shrank to a bordering lower-dimensional pair without colliding,
//! takes them over.

use super::entities::borders;
use super::local_solids::separates;
use super::normals::{Frame, Normal};
use super::Choices;
use crate::contact::body_pair::BodyPair;
use crate::contact::regions::{Entity, EntityContact};
use glam::DVec3;

/// How far (as the sine of an angle) a kept normal may be from separating
/// the new entity pair's local solids and still count as "not colliding"
/// (Bouma & Vaněček, equation 7). About 1°: a resting or sliding body turns far
/// less than that between two steps, while meeting a new face at a corner
/// turns the separating planes by far more.
pub const COHERENCE_SIN: f64 = 0.0175;

/// A sufficient entity pair of the last detection and its normals, each
/// in the body frame of its [`Frame`].
#[derive(Clone, Debug)]
pub(super) struct KeptPair {
    pub(super) a: Entity,
    pub(super) b: Entity,
    pub(super) normals: Vec<(Frame, DVec3)>,
    /// Both entities have convex neighbourhoods (equation 7's condition).
    pub(super) convex: bool,
}

/// What the analysis keeps of a body pair between detections; a method
/// built on it keeps one per body pair in its memory of that pair.
#[derive(Default)]
pub struct Coherence {
    /// Sorted by (a, b).
    pub(super) pairs: Vec<KeptPair>,
}

/// A normal as it is kept: in the frame of its body.
pub(super) fn to_body(pair: &BodyPair, n: &Normal) -> (Frame, DVec3) {
    let rotation = match n.frame {
        Frame::A => pair.a.rotation,
        Frame::B => pair.b.rotation,
    };
    (n.frame, rotation.inverse() * n.world)
}

/// A kept normal back in world coordinates, at the bodies' current poses.
pub(super) fn to_world(pair: &BodyPair, (frame, body): (Frame, DVec3)) -> Normal {
    let rotation = match frame {
        Frame::A => pair.a.rotation,
        Frame::B => pair.b.rotation,
    };
    Normal {
        world: (rotation * body).normalize_or_zero(),
        frame,
    }
}

/// Temporal coherence (equations 6 and 7): the normals the piece's entity
/// pair had at the last detection (as long as the method's
/// [`Choices::keeps_normals`] keeps them), or those of a pair it shrank
/// from without colliding ([`still_separate`]); `None` for a new region.
pub(super) fn coherent_normals(
    pair: &BodyPair,
    piece: &EntityContact,
    previous: &[KeptPair],
    choices: &dyn Choices,
) -> Option<Vec<Normal>> {
    let (x, y) = (piece.a, piece.b);
    if let Ok(k) = previous.binary_search_by_key(&(x, y), |k| (k.a, k.b)) {
        let normals: Vec<Normal> = previous[k]
            .normals
            .iter()
            .map(|&n| to_world(pair, n))
            .collect();
        return choices
            .keeps_normals(pair, x, y, &normals)
            .then_some(normals);
    }
    let shrank = |old: &KeptPair| {
        let (x_in, y_in) = (borders(&pair.a, x, old.a), borders(&pair.b, y, old.b));
        old.convex && ((x_in && y == old.b) || (x == old.a && y_in) || (x_in && y_in))
    };
    previous
        .iter()
        .filter(|old| shrank(old))
        .map(|old| {
            old.normals
                .iter()
                .map(|&n| to_world(pair, n))
                .collect::<Vec<_>>()
        })
        .filter(|normals| !normals.is_empty() && still_separate(pair, x, y, normals))
        .max_by_key(|normals| normals.len())
}

/// Whether kept normals still separate the local solids of A at `x` and B
/// at `y`, each within [`COHERENCE_SIN`]: equation 7's "without
/// colliding", which a pair that shrank must pass to keep its normals.
pub fn still_separate(pair: &BodyPair, x: Entity, y: Entity, normals: &[Normal]) -> bool {
    normals
        .iter()
        .all(|n| separates(pair, x, y, n.world, COHERENCE_SIN))
}
