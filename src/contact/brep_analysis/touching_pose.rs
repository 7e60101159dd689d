//! A penetrating pair mapped to a touching configuration (Bouma &
//! Vaněček 1993 analyse exactly touching bodies): B translated by a shift,
//! and the shortest push apart along a crossed face normal, the
//! separating-axis answer for locally convex contact.

use crate::contact::body_pair::{BodyPair, PairSide};
use crate::contact::regions::touching::deep_crossings;
use crate::contact::world_mesh::WorldMesh;
use glam::DVec3;

/// How many times [`push_apart`] translates B at most: each push clears
/// the crossings of the faces along one normal; a pair sunk into a groove
/// may need one per wall.
const MAX_PUSHES: usize = 4;

/// The translation of B that takes a pair sunk deeper than the envelope
/// back to touching, translated apart along the minimum direction first
/// (`docs/design/other-methods.md`, "Region analysis with temporal
/// coherence"): while some edge crosses an open face of the other body
/// beyond the envelope ([`deep_crossings`]), push B along the normal
/// of the crossed faces (A's face normal, or minus B's) that needs the
/// shortest push to bring every crossing edge's inner end of those faces
/// back to the plane, as the separating-axis test takes the axis of least
/// overlap. Zero for a pair within the envelope, so resting contact is
/// analysed as it is.
pub fn push_apart(pair: &BodyPair, tol: f64, parallel: f64) -> DVec3 {
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
pub fn moved_mesh<'a>(pair: &BodyPair<'a>, shift: DVec3) -> WorldMesh<'a> {
    WorldMesh::new(pair.b.world.mesh, pair.b.position + shift, pair.b.rotation)
}

/// The pair with B translated by `shift` (`moved` its translated mesh).
pub fn with_b_moved<'a>(
    pair: &BodyPair<'a>,
    moved: &'a WorldMesh<'a>,
    shift: DVec3,
) -> BodyPair<'a> {
    BodyPair {
        a: pair.a,
        b: PairSide {
            world: moved,
            position: pair.b.position + shift,
            ..pair.b
        },
    }
}
