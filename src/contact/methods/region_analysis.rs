//! Region analysis with temporal coherence (Bouma & Vaněček,
//! §3 "Modeling Contact" and §4; `docs/design/other-methods.md`, "Region
//! analysis with temporal coherence"), as the paper writes it.
//!
//! The analysis is the one `semi-local` shares,
//! [`crate::contact::brep_analysis`]: the touching entity pairs within the
//! envelope grouped into regions, the sufficient set, normals by the
//! dimension of the entities with n · v for the indeterminate ones,
//! temporal coherence, and contacts at the corners of each region's hull.
//! This file holds what is this method's own: the paper's answer at the
//! points the analysis leaves to the method ([`Choices`]),
//!
//! - a reflex edge or non-convex corner gives at most three of its faces'
//!   normals, the most transversal (largest |det|), among those that
//!   separate the other entity (figure 7);
//! - two convex edges crossing give their cross product, oriented from A
//!   to B, whether or not it separates their local solids (§3, "Contact
//!   Normals");
//! - a pair found again keeps its last normals unchecked (equation 6;
//!   equation 7's check is for a pair that shrank);
//! - every corner of a group's hull is one contact per normal (§3);
//!
//! and, for a pair sunk deeper than the envelope, the shortest push apart
//! along a crossed face normal ([`push_apart`]; the deep case is ours: Bouma & Vaněček
//! analyse touching bodies only, see `docs/design/other-methods.md`, "Region analysis with temporal coherence").

use super::{
    Algorithm, BodyPair, BodyPairMethod, MethodInfo, MethodParams, PairMemory, PairOutput,
};
use crate::contact::brep_analysis::{analyse, push_apart, Choices, Coherence, Normal, Tolerances};
use crate::contact::regions::Entity;
use glam::DVec2;

pub struct RegionAnalysis;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "region-analysis",
    name: "Region analysis",
    source: help_text!("Bouma & Vaněček 1993, §3 (contact regions, sufficient set, normals) and §4"),
    summary: "Touching B-rep entity pairs grouped into regions; only the sufficient ones, with normals by dimension, kept from step to step.",
    help: help_text!("Works on whole bodies and their B-rep features (flat faces, sharp edges, corners), not on triangles, so internal edges do not exist for it. It finds every pair of a vertex, edge or face of one body within the envelope of one of the other, keeps only the pairs that the neighbouring larger contacts do not already hold (a cliff edge lying on a face is held by the face), and gives each the normal its shape decides: a face's normal, both faces of a groove, the cross product of crossing edges. Where the shape leaves the normal open (two corners, two parallel edges) it prefers a normal along which the bodies are not moving into each other, and a contact that persists keeps its normal from the last step. Bodies sunk deeper than the envelope are first pushed apart the shortest way out along a face normal, which can go wrong where one body has sunk into a pocket of the other; and its ideal contacts leave a tall stack to friction alone, on which 1000 cold-started solver sweeps do not converge (the Pillar and the Arch creep as with the exact reference, and stand with warm starting)."),
    reads: &["envelope"],
    algorithm: Algorithm::BodyPair(&RegionAnalysis),
    paper_code: None,
};

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
        let tolerances = Tolerances {
            envelope: params.envelope,
            touch_tol: params.touch_tol,
            parallel_sin: params.parallel_sin,
        };
        analyse(pair, &tolerances, shift, coherence, self, out);
    }
}

impl Choices for RegionAnalysis {
    /// Figure 7 gives a non-convex corner three normals: at most three, the
    /// most transversal.
    fn reflex_normals(&self, distinct: Vec<Normal>, margin: f64) -> Vec<Normal> {
        most_transversal(distinct, margin)
    }

    /// The paper's rule for two convex edges crossing is their cross
    /// product, with no condition; for two end edges lying in one plane
    /// that is the plane's normal.
    fn crossing_must_separate(&self) -> bool {
        false
    }

    /// Equation 6: a pair found again keeps its normals as they were.
    fn keeps_normals(&self, _pair: &BodyPair, _x: Entity, _y: Entity, _kept: &[Normal]) -> bool {
        true
    }

    /// A region's contacts are the corners of its hull, each one.
    fn clusters(
        &self,
        _flat: &[DVec2],
        _corners: &[usize],
        _envelope: f64,
    ) -> Option<Vec<Vec<usize>>> {
        None
    }
}

/// At most three of the distinct normals, the most transversal: the
/// triple with the largest |det|, else the pair with the largest |cross|;
/// ties go to the first in order.
fn most_transversal(distinct: Vec<Normal>, margin: f64) -> Vec<Normal> {
    if distinct.len() <= 3 {
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
