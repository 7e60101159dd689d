//! Broad phase: the pairs of tetrahedra of different bodies whose world
//! AABBs, inflated by the method's margin, overlap (`docs/design/methods.md`).
//! Per body pair (not both fixed, body boxes overlapping) a sort-and-sweep
//! along x (Baraff's thesis, 1992, "sweep and prune") finds the candidate
//! tetrahedron pairs; the result is sorted by (body A, body B, tet A, tet B)
//! so that every method sees the pairs in one deterministic order.

use super::budget::{Budget, OverBudget, Tally};
use super::world_mesh::WorldMesh;
use crate::geometry::Aabb;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TetPairCandidate {
    pub body_a: u32,
    pub body_b: u32,
    pub tet_a: u32,
    pub tet_b: u32,
}

/// Candidate tetrahedron pairs. `fixed[i]` says whether body i is fixed;
/// `margin` inflates every box. Stops with [`OverBudget`] once the pairs
/// pass [`MAX_CANDIDATE_PAIRS`](super::budget::MAX_CANDIDATE_PAIRS), before
/// they outgrow memory.
pub fn broad_phase(
    bodies: &[WorldMesh],
    fixed: &[bool],
    margin: f64,
) -> Result<Vec<TetPairCandidate>, OverBudget> {
    let boxes: Vec<Vec<Aabb>> = bodies
        .iter()
        .map(|b| {
            (0..b.mesh.tets.len())
                .map(|t| b.tet(t).aabb().inflated(margin))
                .collect()
        })
        .collect();
    let body_boxes: Vec<Aabb> = bodies.iter().map(|b| b.aabb().inflated(margin)).collect();
    let mut pairs = Vec::new();
    let mut tally = Tally::new(Budget::CandidatePairs);
    let mut over = None;
    for a in 0..bodies.len() {
        for b in a + 1..bodies.len() {
            if (fixed[a] && fixed[b]) || !body_boxes[a].overlaps(&body_boxes[b]) {
                continue;
            }
            sweep(
                &boxes[a],
                &boxes[b],
                |ta, tb| {
                    if let Err(e) = tally.add(a, b, 1) {
                        over = Some(e);
                        return false;
                    }
                    pairs.push(TetPairCandidate {
                        body_a: a as u32,
                        body_b: b as u32,
                        tet_a: ta,
                        tet_b: tb,
                    });
                    true
                },
                &body_boxes[a].intersection(&body_boxes[b]),
            );
            if let Some(e) = over {
                return Err(e);
            }
        }
    }
    pairs.sort_unstable();
    Ok(pairs)
}

/// Reports every (i, j) with `a[i]` overlapping `b[j]`, considering only
/// boxes that reach into `region` (the overlap of the two bodies' boxes);
/// stops as soon as `report` returns false.
pub(crate) fn sweep(
    a: &[Aabb],
    b: &[Aabb],
    mut report: impl FnMut(u32, u32) -> bool,
    region: &Aabb,
) {
    let sorted = |boxes: &[Aabb]| -> Vec<u32> {
        let mut ids: Vec<u32> = (0..boxes.len() as u32)
            .filter(|&i| boxes[i as usize].overlaps(region))
            .collect();
        ids.sort_by(|&i, &j| {
            boxes[i as usize]
                .lo
                .x
                .total_cmp(&boxes[j as usize].lo.x)
                .then(i.cmp(&j))
        });
        ids
    };
    let (sa, sb) = (sorted(a), sorted(b));
    // Standard two-list sweep: advance whichever box starts first and test it
    // against the other list's boxes that start before it ends.
    let (mut i, mut j) = (0, 0);
    while i < sa.len() && j < sb.len() {
        let (ba, bb) = (&a[sa[i] as usize], &b[sb[j] as usize]);
        if ba.lo.x <= bb.lo.x {
            for &k in &sb[j..] {
                if b[k as usize].lo.x > ba.hi.x {
                    break;
                }
                if ba.overlaps(&b[k as usize]) && !report(sa[i], k) {
                    return;
                }
            }
            i += 1;
        } else {
            for &k in &sa[i..] {
                if a[k as usize].lo.x > bb.hi.x {
                    break;
                }
                if a[k as usize].overlaps(bb) && !report(k, sb[j]) {
                    return;
                }
            }
            j += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    #[test]
    fn sweep_finds_exactly_the_overlapping_pairs() {
        let boxes = |centres: &[f64]| -> Vec<Aabb> {
            centres
                .iter()
                .map(|&x| Aabb {
                    lo: DVec3::new(x - 0.5, 0.0, 0.0),
                    hi: DVec3::new(x + 0.5, 1.0, 1.0),
                })
                .collect()
        };
        let a = boxes(&[0.0, 3.0, 1.2, 7.0]);
        let b = boxes(&[0.9, 5.0, 3.9, -2.0]);
        let mut found = Vec::new();
        let everything = Aabb {
            lo: DVec3::splat(-100.0),
            hi: DVec3::splat(100.0),
        };
        sweep(
            &a,
            &b,
            |i, j| {
                found.push((i, j));
                true
            },
            &everything,
        );
        found.sort();
        let mut brute = Vec::new();
        for (i, box_a) in a.iter().enumerate() {
            for (j, box_b) in b.iter().enumerate() {
                if box_a.overlaps(box_b) {
                    brute.push((i as u32, j as u32));
                }
            }
        }
        assert_eq!(found, brute);
        assert_eq!(found, vec![(0, 0), (1, 2), (2, 0)]);
    }
}
