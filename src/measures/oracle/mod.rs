//! The geometric oracle (`docs/design/oracle.md`): which contact normals are
//! right, derived from two bodies' surfaces at the current pose instead of
//! a scene's hand-written answer (Erleben 2018, §5 and §5.1, whose measures
//! it serves; table 4 for the crack and hole answers it reproduces).
//!
//! For one body pair at one pose, [`PairOracle::new`] finds the touching
//! feature pairs within the envelope ([`touching`]), the feasible normals
//! of each pair of convex local pieces ([`cones`]) and the connected
//! regions they form. [`PairOracle::judge`] then gives a contact (p, n) its
//! verdict: right, indeterminate-right (n inside a cone of directions none
//! of which the shapes single out) or wrong, because p is far from every
//! touching region or n is outside every feasible set near p.
//! [`PairOracle::coverage`] counts the required directions a set of
//! contacts matches, [`PairOracle::min_contacts`] the minimal count.
//!
//! The module shares no code with contact finding (`tests/layers.rs`,
//! `the_geometric_oracle_shares_no_code_with_contact_finding`): it reads the
//! mesh's surface triangles and edge kinds and uses only the plane frames
//! and 2D hulls of `geometry`, with its own closest points, clipping and
//! cones ([`prims`]). [`step`] judges a whole step with it.

pub mod cones;
pub mod features;
pub mod prims;
pub mod step;
pub mod touching;

pub use cones::Feasible;
pub use features::{BodyFeatures, Feature};
pub use step::{Envelope, GeoMeasures, GeoStep, GeometricOracle};
pub use touching::{Posed, Touch};

use crate::geometry::Pose;
use crate::geometry::{convex_hull_2d, PlaneFrame};
use crate::mesh::TetMesh;
use glam::DVec3;

/// The touching tolerance relative to the larger body's diagonal; the
/// same ratio as the contact finding's, defined here again on purpose.
pub const RELATIVE_TOUCH: f64 = 1e-5;

/// The lengths and the angle an oracle judges with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    /// ε: features this close touch, overlaps up to it included (m).
    pub envelope: f64,
    /// τ: points this close are one point (m).
    pub touch: f64,
    /// θ: normals this close are one direction (radians).
    pub angle: f64,
}

impl Tolerances {
    /// ε = `envelope`, τ = [`RELATIVE_TOUCH`] × the larger diagonal, θ =
    /// `tol_deg` degrees.
    pub fn for_bodies(a: &TetMesh, b: &TetMesh, envelope: f64, tol_deg: f64) -> Tolerances {
        Tolerances::for_diagonals(a.diagonal(), b.diagonal(), envelope, tol_deg)
    }

    /// [`Tolerances::for_bodies`] from the two bodies' diagonals, known
    /// beforehand (a step judges many pairs of the same bodies).
    pub fn for_diagonals(a: f64, b: f64, envelope: f64, tol_deg: f64) -> Tolerances {
        Tolerances {
            envelope,
            touch: RELATIVE_TOUCH * a.max(b),
            angle: tol_deg.to_radians(),
        }
    }
}

/// Why a contact is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Its point is farther than ε from every touching region of its pair.
    Far,
    /// Its normal is outside every feasible set near its point.
    Normal,
}

/// A contact's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within θ of a single feasible direction.
    Right,
    /// Within θ of a cone of feasible directions, none singled out.
    IndeterminateRight,
    Wrong(Why),
}

impl Verdict {
    pub fn is_right(self) -> bool {
        !matches!(self, Verdict::Wrong(_))
    }
}

/// A verdict and the contact's quality: the cosine of the angle from its
/// normal to the nearest candidate feasible set (0 when far).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    pub verdict: Verdict,
    pub q: f64,
}

/// A connected set of touching pairs.
#[derive(Clone, Debug)]
pub struct Region {
    /// Indices into [`PairOracle::touches`].
    pub touches: Vec<usize>,
    /// The sum of its face–face areas (0 for an edge or point region).
    pub area: f64,
    /// Its minimal contact count: strict hull vertices for a planar region,
    /// 2 for a segment, 1 for a point.
    pub min_contacts: usize,
    /// The directions a complete set of contacts covers: each distinct
    /// single direction, and each cone that holds none of them.
    pub required: Vec<Feasible>,
}

/// The geometric oracle of one body pair (A, B) at one pose.
#[derive(Clone, Debug)]
pub struct PairOracle {
    pub tol: Tolerances,
    pub touches: Vec<Touch>,
    pub regions: Vec<Region>,
    /// Per touching pair and feasible set: the touching pairs that can
    /// supersede the set (nearer by more than τ, their features containing
    /// its pieces on both sides; see [`PairOracle::judge`]).
    containers: Vec<Vec<Vec<usize>>>,
}

impl PairOracle {
    /// The oracle of `a` at `pose_a` and `b` at `pose_b` (world = translation
    /// + rotation × body frame).
    pub fn new(
        a: &BodyFeatures,
        pose_a: Pose,
        b: &BodyFeatures,
        pose_b: Pose,
        tol: Tolerances,
    ) -> PairOracle {
        PairOracle::of_posed(&Posed::new(a, pose_a), &Posed::new(b, pose_b), tol)
    }

    /// The oracle of two bodies already posed: a step poses each body once
    /// ([`Posed::new`]: world vertices, normals and feature boxes) and
    /// judges all of its pairs with them.
    pub fn of_posed(pa: &Posed, pb: &Posed, tol: Tolerances) -> PairOracle {
        let touches = touching::touching_pairs(pa, pb, &tol);
        let regions = regions(&touches, &tol);
        let containers = touches
            .iter()
            .map(|t| {
                t.pieces
                    .iter()
                    .map(|(piece_a, piece_b)| {
                        (0..touches.len())
                            .filter(|&j| {
                                let u = &touches[j];
                                u.gap + tol.touch < t.gap
                                    && pa.features.contains(u.features.0, t.features.0, piece_a)
                                    && pb.features.contains(u.features.1, t.features.1, piece_b)
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        PairOracle {
            tol,
            touches,
            regions,
            containers,
        }
    }

    /// The verdict on a contact at `p` with unit normal `n` from A to B
    /// (flip a normal stored from B to A first).
    ///
    /// The candidates are the feasible sets of the touching pairs whose
    /// piece lies within ε of p, except a set superseded by a nearer pair
    /// (gap smaller by more than τ) also within ε of p whose features
    /// contain the set's pieces on both sides
    /// ([`BodyFeatures::contains`]): a corner resting on a face is judged
    /// by the face, not by an edge of that face ε/2 away, but a corner slid
    /// into one wall of a crack is still judged by the other wall too (the
    /// reflex edge's piece on that wall's side is no part of the nearer
    /// wall). Right when n is within θ of a candidate's single direction,
    /// indeterminate-right when within θ of a candidate's cone, wrong
    /// otherwise.
    pub fn judge(&self, p: DVec3, n: DVec3) -> Judgement {
        let tol = &self.tol;
        let near: Vec<bool> = self
            .touches
            .iter()
            .map(|t| t.within(p, tol.envelope))
            .collect();
        if !near.contains(&true) {
            return Judgement {
                verdict: Verdict::Wrong(Why::Far),
                q: 0.0,
            };
        }
        let candidates = self
            .touches
            .iter()
            .enumerate()
            .filter(|&(i, _)| near[i])
            .flat_map(|(i, t)| {
                t.feasible
                    .iter()
                    .zip(&self.containers[i])
                    .filter(|(_, by)| !by.iter().any(|&j| near[j]))
                    .map(|(set, _)| set)
            })
            .collect::<Vec<_>>();
        let candidates = candidates.into_iter();
        let mut best = std::f64::consts::PI;
        let mut verdict = Verdict::Wrong(Why::Normal);
        for set in candidates {
            let off = set.angle_to(n);
            best = best.min(off);
            if off <= tol.angle {
                match set {
                    Feasible::Ray(_) => verdict = Verdict::Right,
                    _ if verdict != Verdict::Right => verdict = Verdict::IndeterminateRight,
                    _ => {}
                }
            }
        }
        Judgement {
            verdict,
            q: best.cos(),
        }
    }

    /// (matched, required): the required directions of all regions, and
    /// how many of them a right or indeterminate-right contact lies within
    /// θ of, the contact within ε of the region. `contacts` are (p, n from
    /// A to B).
    pub fn coverage(&self, contacts: &[(DVec3, DVec3)]) -> (usize, usize) {
        let judged: Vec<(DVec3, DVec3, bool)> = contacts
            .iter()
            .map(|&(p, n)| (p, n, self.judge(p, n).verdict.is_right()))
            .collect();
        self.coverage_of_judged(&judged)
    }

    /// [`PairOracle::coverage`] of contacts already judged: (p, n from A to
    /// B, whether the verdict is right or indeterminate-right).
    pub fn coverage_of_judged(&self, judged: &[(DVec3, DVec3, bool)]) -> (usize, usize) {
        let tol = &self.tol;
        let mut matched = 0;
        let mut required = 0;
        for region in &self.regions {
            let near = |p: DVec3| {
                region
                    .touches
                    .iter()
                    .any(|&t| self.touches[t].within(p, tol.envelope))
            };
            for direction in &region.required {
                required += 1;
                if judged
                    .iter()
                    .any(|&(p, n, right)| right && direction.contains(n, tol.angle) && near(p))
                {
                    matched += 1;
                }
            }
        }
        (matched, required)
    }

    /// The minimal contact count of the pair: the sum over its regions.
    pub fn min_contacts(&self) -> usize {
        self.regions.iter().map(|r| r.min_contacts).sum()
    }

    /// The touching area of the pair: the sum of its face–face pieces.
    pub fn area(&self) -> f64 {
        self.regions.iter().map(|r| r.area).sum()
    }
}

/// Groups touching pairs whose pieces lie within ε of each other: one
/// place at the scale the oracle judges at. Pieces lie halfway between
/// their features, so a corner sunk into one face of a crack and standing
/// off the reflex edge has its face piece and its edge piece apart by half
/// the difference of the gaps; at τ that one spot was two regions, each
/// asking again for the same wall. At ε = τ these are the exact regions.
fn regions(touches: &[Touch], tol: &Tolerances) -> Vec<Region> {
    let join = tol.envelope.max(tol.touch);
    let mut parent: Vec<usize> = (0..touches.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // Each piece's box first: pieces whose boxes are farther than τ apart
    // are farther apart themselves.
    let boxes: Vec<(DVec3, DVec3)> = touches
        .iter()
        .map(|t| {
            let lo = t.points.iter().copied().fold(DVec3::INFINITY, DVec3::min);
            let hi = t
                .points
                .iter()
                .copied()
                .fold(DVec3::NEG_INFINITY, DVec3::max);
            (lo, hi)
        })
        .collect();
    let apart = |(lo, hi): (DVec3, DVec3), (lo2, hi2): (DVec3, DVec3)| {
        (lo - hi2).max_element() > join || (lo2 - hi).max_element() > join
    };
    for i in 0..touches.len() {
        for j in i + 1..touches.len() {
            // Already joined, or too far apart: no distance needed.
            if apart(boxes[i], boxes[j]) {
                continue;
            }
            let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
            if ri != rj && touches[i].distance_to(&touches[j]) <= join {
                parent[ri] = rj;
            }
        }
    }
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for i in 0..touches.len() {
        let r = root(&mut parent, i);
        match groups.iter_mut().find(|(g, _)| *g == r) {
            Some((_, members)) => members.push(i),
            None => groups.push((r, vec![i])),
        }
    }
    groups
        .into_iter()
        .map(|(_, members)| region(touches, members, tol))
        .collect()
}

fn region(touches: &[Touch], members: Vec<usize>, tol: &Tolerances) -> Region {
    let area = members.iter().map(|&t| touches[t].area).sum();
    let points: Vec<DVec3> = members
        .iter()
        .flat_map(|&t| touches[t].points.iter().copied())
        .collect();
    let plane = members.iter().find_map(|&t| touches[t].plane);
    // Points within ε are one point at this scale, as pieces within ε are
    // one region.
    let min_contacts = minimal_count(&points, plane, tol.envelope.max(tol.touch));
    // Single directions first, deduplicated within θ; then the cones that
    // hold none of them and equal no cone kept before.
    let mut required: Vec<Feasible> = Vec::new();
    for &t in &members {
        for set in &touches[t].feasible {
            if let Feasible::Ray(r) = set {
                if !required.iter().any(|q| q.contains(*r, tol.angle)) {
                    required.push(set.clone());
                }
            }
        }
    }
    let rays = required.len();
    for &t in &members {
        for set in &touches[t].feasible {
            if let Feasible::Cone(gens) = set {
                let holds_a_ray = required[..rays].iter().any(|q| match q {
                    Feasible::Ray(r) => set.contains(*r, tol.angle),
                    _ => false,
                });
                let same = required[rays..].iter().any(|q| match q {
                    Feasible::Cone(other) => {
                        gens.iter().all(|g| q.contains(*g, tol.angle))
                            && other.iter().all(|g| set.contains(*g, tol.angle))
                    }
                    _ => false,
                });
                if !holds_a_ray && !same {
                    required.push(set.clone());
                }
            }
        }
    }
    Region {
        touches: members,
        area,
        min_contacts,
        required,
    }
}

/// Strict hull vertices on the region's plane (the face pair's, else the
/// plane of its points when they span one), 2 for a segment, 1 for a point,
/// points within `touch` of each other or of a line counting as one.
fn minimal_count(points: &[DVec3], plane: Option<DVec3>, touch: f64) -> usize {
    let Some(&first) = points.first() else {
        return 0;
    };
    let far = points
        .iter()
        .copied()
        .max_by(|p, q| p.distance(first).total_cmp(&q.distance(first)))
        .unwrap_or(first);
    if far.distance(first) <= touch {
        return 1;
    }
    let axis = (far - first).normalize();
    let off_line = points
        .iter()
        .copied()
        .max_by(|p, q| {
            let d = |x: DVec3| (x - first).cross(axis).length();
            d(*p).total_cmp(&d(*q))
        })
        .unwrap_or(first);
    let normal = match plane {
        Some(n) => n,
        None => {
            if (off_line - first).cross(axis).length() <= touch {
                return 2;
            }
            axis.cross(off_line - first).normalize()
        }
    };
    let frame = PlaneFrame::new(first, normal);
    let flat: Vec<_> = points.iter().map(|p| frame.to_2d(*p)).collect();
    convex_hull_2d(&flat, touch).len()
}
