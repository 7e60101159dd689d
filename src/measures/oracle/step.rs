//! The geometric oracle over a whole step (`docs/design/oracle.md`): every
//! body pair whose contacts or surfaces meet gets its [`PairOracle`] at the
//! poses the contacts were found at, each contact its [`Judgement`], and the
//! step the paper's measures against it (Erleben 2018, §5: quality, the
//! coverage of §5.1, the area coverage of eq. 3, the excess over the
//! minimal count).
//!
//! The body pairs that touch are found here with bounding spheres inflated
//! by ε, not with the contact layer's broad phase: the judge shares no code
//! with the contestants.

use super::{BodyFeatures, Judgement, PairOracle, Posed, Tolerances, Verdict};
use crate::contact::Contact;
use crate::geometry::Pose;
use crate::geometry::{convex_hull_2d, polygon_area_2d, PlaneFrame};
use crate::mesh::TetMesh;
use crate::scene::Scene;
use glam::DVec3;

/// The oracle of one scene: each body's features, built once from its
/// un-eroded mesh, and its bounding sphere about the body origin.
#[derive(Clone, Debug)]
pub struct GeometricOracle {
    features: Vec<BodyFeatures>,
    /// Radius of the body's bounding sphere about its origin (the centre of
    /// mass), body frame.
    radii: Vec<f64>,
    /// Each body's diagonal: the relative envelope's and the touching
    /// tolerance's length, computed once.
    diagonals: Vec<f64>,
    fixed: Vec<bool>,
}

/// The geometric oracle's measures of one step (the `geo_*` keys of a step
/// record).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeoMeasures {
    pub right: usize,
    pub indeterminate_right: usize,
    pub wrong: usize,
    /// 100 × (right + indeterminate-right) / count; `None` without contacts.
    pub quality: Option<f64>,
    /// 100 × matched / required directions over all touching regions;
    /// `None` when no region requires one.
    pub coverage: Option<f64>,
    /// Σ over planar regions of the hull area of their right contacts on
    /// the region's plane ÷ Σ of their areas (eq. 3); `None` without a
    /// planar region.
    pub area_coverage: Option<f64>,
    /// Σ over regions of the minimal contact count.
    pub min_contacts: usize,
    /// count / min_contacts; `None` when the minimum is 0.
    pub excess: Option<f64>,
}

/// The judgements of one step's contacts (in their order) and the step's
/// measures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeoStep {
    pub judgements: Vec<Judgement>,
    pub measures: GeoMeasures,
}

/// The envelope the oracle judges with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Envelope {
    /// The same for every pair of bodies, metres.
    Metres(f64),
    /// This fraction of the smaller body's diagonal, for each pair (the
    /// `envelope` setting's size-relative default).
    OfSmallerBody(f64),
}

impl GeometricOracle {
    /// The oracle of `scene`'s bodies: judged on the bodies as they are, not
    /// as a method eroded them (`SceneBody::solid`).
    pub fn new(scene: &Scene) -> GeometricOracle {
        let meshes: Vec<&TetMesh> = scene.bodies.iter().map(|b| b.solid()).collect();
        GeometricOracle {
            features: meshes.iter().map(|m| BodyFeatures::of(m)).collect(),
            radii: meshes
                .iter()
                .map(|m| m.vertices.iter().map(|v| v.length()).fold(0.0, f64::max))
                .collect(),
            diagonals: meshes.iter().map(|m| m.diagonal()).collect(),
            fixed: scene.bodies.iter().map(|b| b.fixed).collect(),
        }
    }

    /// Judges `contacts`, found with the bodies at `poses` (world position
    /// of the body origin, rotation), with envelope `envelope` and angle
    /// tolerance `tol_deg` (°).
    pub fn judge_step(
        &self,
        contacts: &[Contact],
        poses: &[Pose],
        envelope: Envelope,
        tol_deg: f64,
    ) -> GeoStep {
        let n = self.features.len();
        let pairs = self.pairs_to_judge(contacts, poses, envelope);
        let mut judgements = vec![
            Judgement {
                verdict: Verdict::Wrong(super::Why::Far),
                q: 0.0,
            };
            contacts.len()
        ];
        let mut tally = Tally::default();
        let mut by_pair: Vec<Vec<usize>> = vec![Vec::new(); pairs.len()];
        for (i, c) in contacts.iter().enumerate() {
            if let Ok(k) = pairs.binary_search(&(c.a.min(c.b), c.a.max(c.b))) {
                by_pair[k].push(i);
            }
        }
        // Each body in a judged pair is posed once, not once per pair.
        let mut involved = vec![false; n];
        for &(a, b) in &pairs {
            involved[a] = true;
            involved[b] = true;
        }
        let posed: Vec<Option<Posed>> = (0..n)
            .map(|i| involved[i].then(|| Posed::new(&self.features[i], poses[i])))
            .collect();
        for (&(a, b), members) in pairs.iter().zip(&by_pair) {
            let (Some(pa), Some(pb)) = (&posed[a], &posed[b]) else {
                continue;
            };
            let tol = Tolerances::for_diagonals(
                self.diagonals[a],
                self.diagonals[b],
                self.pair_envelope(envelope, a, b),
                tol_deg,
            );
            let oracle = PairOracle::of_posed(pa, pb, tol);
            let pair = JudgedPair {
                oracle: &oracle,
                a,
                members,
                tol,
            };
            pair.judge(contacts, &mut judgements, &mut tally);
        }
        let measures = tally.measures(&judgements);
        GeoStep {
            judgements,
            measures,
        }
    }

    /// The envelope of bodies `a` and `b`, metres.
    fn pair_envelope(&self, envelope: Envelope, a: usize, b: usize) -> f64 {
        match envelope {
            Envelope::Metres(metres) => metres,
            Envelope::OfSmallerBody(fraction) => {
                fraction * self.diagonals[a].min(self.diagonals[b])
            }
        }
    }

    /// Body pairs (a < b) to judge, sorted: those with contacts, and those
    /// whose ε-inflated bounding spheres meet (a pair may touch with no
    /// contact: it still asks for its directions and its minimal count).
    fn pairs_to_judge(
        &self,
        contacts: &[Contact],
        poses: &[Pose],
        envelope: Envelope,
    ) -> Vec<(usize, usize)> {
        let n = self.features.len();
        let mut pairs: Vec<(usize, usize)> = contacts
            .iter()
            .filter(|c| c.a < n && c.b < n && c.a != c.b)
            .map(|c| (c.a.min(c.b), c.a.max(c.b)))
            .collect();
        for a in 0..n {
            for b in a + 1..n {
                if self.fixed[a] && self.fixed[b] {
                    continue;
                }
                let reach = self.radii[a] + self.radii[b] + self.pair_envelope(envelope, a, b);
                if poses[a].position.distance_squared(poses[b].position) <= reach * reach {
                    pairs.push((a, b));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }
}

/// The sums a step's measures come from, added pair by pair in pair order.
#[derive(Default)]
struct Tally {
    matched: usize,
    required: usize,
    hull_area: f64,
    planar_area: f64,
    min_contacts: usize,
}

impl Tally {
    /// The step's measures from its judgements and these sums.
    fn measures(&self, judgements: &[Judgement]) -> GeoMeasures {
        let count = judgements.len();
        let verdicts = || judgements.iter().map(|j| j.verdict);
        let right = verdicts().filter(|v| *v == Verdict::Right).count();
        let indeterminate_right = verdicts()
            .filter(|v| *v == Verdict::IndeterminateRight)
            .count();
        let (matched, required) = (self.matched, self.required);
        let (hull_area, planar_area) = (self.hull_area, self.planar_area);
        let min_contacts = self.min_contacts;
        GeoMeasures {
            right,
            indeterminate_right,
            wrong: count - right - indeterminate_right,
            quality: (count > 0)
                .then(|| 100.0 * (right + indeterminate_right) as f64 / count as f64),
            coverage: (required > 0).then(|| 100.0 * matched as f64 / required as f64),
            area_coverage: (planar_area > 0.0).then(|| hull_area / planar_area),
            min_contacts,
            excess: (min_contacts > 0).then(|| count as f64 / min_contacts as f64),
        }
    }
}

/// One body pair's oracle and the contacts (indices) between its bodies.
struct JudgedPair<'a> {
    oracle: &'a PairOracle,
    /// The pair's first body: contacts stored from the other are flipped.
    a: usize,
    members: &'a [usize],
    tol: Tolerances,
}

impl JudgedPair<'_> {
    /// Judges the pair's contacts into `judgements` and adds its coverage,
    /// minimal count and planar areas to `tally`.
    fn judge(&self, contacts: &[Contact], judgements: &mut [Judgement], tally: &mut Tally) {
        let (oracle, a, members) = (self.oracle, self.a, self.members);
        // (p, n from A to B): a contact stored from B to A is flipped.
        let oriented: Vec<(DVec3, DVec3)> = members
            .iter()
            .map(|&i| {
                let c = &contacts[i];
                let n = if c.a == a { c.normal } else { -c.normal };
                (c.position, n)
            })
            .collect();
        for (&i, &(p, n)) in members.iter().zip(&oriented) {
            judgements[i] = oracle.judge(p, n);
        }
        let judged: Vec<(DVec3, DVec3, bool)> = members
            .iter()
            .zip(&oriented)
            .map(|(&i, &(p, n))| (p, n, judgements[i].verdict.is_right()))
            .collect();
        let (m, r) = oracle.coverage_of_judged(&judged);
        tally.matched += m;
        tally.required += r;
        tally.min_contacts += oracle.min_contacts();
        self.add_planar_areas(&oriented, judgements, tally);
    }

    /// For each planar region of the pair: its area, and the hull area of
    /// the right contacts on it, on the region's plane (eq. 3).
    fn add_planar_areas(
        &self,
        oriented: &[(DVec3, DVec3)],
        judgements: &[Judgement],
        tally: &mut Tally,
    ) {
        let (oracle, members, tol) = (self.oracle, self.members, self.tol);
        for region in &oracle.regions {
            let Some(normal) = region.touches.iter().find_map(|&t| oracle.touches[t].plane) else {
                continue;
            };
            tally.planar_area += region.area;
            let near: Vec<DVec3> = members
                .iter()
                .zip(oriented)
                .filter(|(&i, (p, _))| {
                    judgements[i].verdict.is_right()
                        && region
                            .touches
                            .iter()
                            .any(|&t| oracle.touches[t].within(*p, tol.envelope))
                })
                .map(|(_, (p, _))| *p)
                .collect();
            let Some(&origin) = near.first() else {
                continue;
            };
            let frame = PlaneFrame::new(origin, normal);
            let flat: Vec<_> = near.iter().map(|p| frame.to_2d(*p)).collect();
            let hull = convex_hull_2d(&flat, tol.touch);
            if hull.len() >= 3 {
                tally.hull_area += polygon_area_2d(&hull);
            }
        }
    }
}

impl Verdict {
    /// The verdict's name in records: "right", "indeterminate-right",
    /// "wrong-far" or "wrong-normal".
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Right => "right",
            Verdict::IndeterminateRight => "indeterminate-right",
            Verdict::Wrong(super::Why::Far) => "wrong-far",
            Verdict::Wrong(super::Why::Normal) => "wrong-normal",
        }
    }
}
