//! The sufficient set (Bouma & Vaněček 1993, §3, Definition 2, equations
//! 3–4): of the touching entity pairs, those that the kept adjacent
//! higher-dimensional pairs do not already hold.

use super::entities::adjacent;
use super::local_solids::{covered, local_cone, ConvexCone};
use crate::contact::body_pair::{BodyPair, PairSide};
use crate::contact::regions::{Entity, EntityContact};

/// Which entity pairs are in the sufficient set: all 2D ones, then
/// the 1D ones whose local solids (of A and of B) are not both inside the
/// H of the kept adjacent 2D pieces, then the 0D ones against the kept
/// adjacent 1D and 2D pieces.
pub(super) fn sufficient_set(pair: &BodyPair, pieces: &[EntityContact], margin: f64) -> Vec<bool> {
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
