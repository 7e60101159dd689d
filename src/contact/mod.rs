//! Contacts between bodies: the contact data, the broad phase, the contact
//! point methods and their registry (one file each in `methods/`), the
//! machinery the methods share below them (`tet_geometry`, `tet_contacts`,
//! `code_arithmetic`,
//! `regions`, `brep_analysis`), the post-filter, and the exact contact
//! regions used as the reference.
//!
//! Convention (`docs/design/conventions.md`): a contact between bodies `a`
//! and `b` has its unit normal pointing from A towards B (the direction B
//! must move to separate) and a signed depth: 0 touching, > 0 separated, < 0
//! penetrating.

pub mod body_pair;
pub mod brep_analysis;
pub mod brep_entity;
pub mod broad_phase;
pub mod budget;
pub mod code_arithmetic;
pub mod exact_regions;
pub mod features;
pub mod method_output;
pub mod methods;
pub mod point_queries;
pub mod post_filter;
pub mod regions;
pub mod tet_contacts;
pub mod tet_geometry;
pub mod touching;
pub mod world_mesh;

pub use exact_regions::{exact_contacts, ExactContacts, ExactPair, Region};
pub use features::{FeatureKind, FeaturePair};
/// The touching tolerance as a fraction of the larger body of a pair: 10 µm
/// per metre, far above f64 round-off on coordinates of that size and far
/// below any gap a scene means. Chosen over 10⁻⁶, which leaves a sub-micron
/// band between two Wall bricks that the solver's jitter opens at step 3
/// (docs/results.md, "The touching tolerance is a property of each pair").
pub const RELATIVE_TOUCH_TOL: f64 = 1e-5;

/// The touching tolerance of a pair of bodies: [`RELATIVE_TOUCH_TOL`] of
/// the larger one's size. It depends on the two bodies only, so a far-away
/// body or a huge ground never changes another pair's contacts.
pub fn pair_touch_tol(a: &TetMesh, b: &TetMesh) -> f64 {
    RELATIVE_TOUCH_TOL * a.diagonal().max(b.diagonal())
}

pub use body_pair::{BodyPair, PairSide};
pub use method_output::{NotApplicable, PairContact, PairOutput, RawContact, RegionOutline};
pub use methods::{
    every_method, method_by_id, methods_and_variants, methods_under_test, Algorithm,
    BodyPairMethod, ContactMethod, MethodInfo, MethodParams, MissingAlgorithm, PairMemory, Rules,
    PAPER_CODE_SUFFIX, REGISTRY,
};
pub use methods::{sat_signed_distance, SatDistance};

use crate::mesh::TetMesh;
use budget::{Budget, OverBudget, Tally};
use glam::{DQuat, DVec3};
use serde::Serialize;
use std::collections::BTreeMap;
use world_mesh::WorldMesh;

/// Serialised, a contact gives its own fields but not its bodies, which a
/// front end names from the scene (`measures::ContactRecord`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Contact {
    /// Body indices; the pair is stored as generated (A < B is not required).
    #[serde(skip)]
    pub a: usize,
    #[serde(skip)]
    pub b: usize,
    /// World position.
    pub position: DVec3,
    /// Unit normal from A towards B.
    pub normal: DVec3,
    /// 0 touching, > 0 separated, < 0 penetrating.
    pub depth: f64,
    pub features: FeatureKind,
    /// What generated the contact in A and B: the tetrahedra for a local
    /// method, the B-rep entities (of the kinds `features` names) for a
    /// region method.
    pub source_a: u32,
    pub source_b: u32,
    /// Region methods: the index of the contact's region among its body
    /// pair's (`ContactSet::regions`, in order).
    pub region: Option<u32>,
    /// Region methods: the normal was kept from the previous step (Bouma
    /// & Vaněček's temporal coherence), not taken from the current geometry.
    pub kept_normal: bool,
}

impl Contact {
    /// The same contact seen with A and B swapped.
    pub fn swapped(&self) -> Contact {
        Contact {
            a: self.b,
            b: self.a,
            normal: -self.normal,
            features: self.features.swapped(),
            source_a: self.source_b,
            source_b: self.source_a,
            ..*self
        }
    }
}

/// A body as the contact methods see it: its mesh (body frame), pose and
/// velocities (which only the region methods read).
#[derive(Clone, Copy)]
pub struct BodyAtPose<'a> {
    pub mesh: &'a TetMesh,
    pub position: DVec3,
    pub rotation: DQuat,
    pub fixed: bool,
    pub velocity: DVec3,
    pub angular_velocity: DVec3,
}

impl<'a> BodyAtPose<'a> {
    /// A body at rest at this pose (hand-built cases).
    pub fn at_rest(mesh: &'a TetMesh, position: DVec3, rotation: DQuat, fixed: bool) -> Self {
        BodyAtPose {
            mesh,
            position,
            rotation,
            fixed,
            velocity: DVec3::ZERO,
            angular_velocity: DVec3::ZERO,
        }
    }
}

impl crate::scene::Scene {
    /// The bodies at their current (initial) poses.
    pub fn poses(&self) -> Vec<BodyAtPose<'_>> {
        self.bodies
            .iter()
            .map(|b| BodyAtPose {
                mesh: &b.mesh,
                position: b.position,
                rotation: b.rotation,
                fixed: b.fixed,
                velocity: b.velocity,
                angular_velocity: b.angular_velocity,
            })
            .collect()
    }
}

/// The contacts of one detection pass and what it cost.
#[derive(Clone, Debug, Default)]
pub struct ContactSet {
    pub contacts: Vec<Contact>,
    /// Tetrahedron pairs reported by the broad phase.
    pub candidate_pairs: usize,
    /// Contacts before the post-filter.
    pub unfiltered: usize,
    pub ms_broad: f64,
    pub ms_method: f64,
    /// Region methods: the regions of every body pair, for drawing; a
    /// contact's `region` indexes its pair's regions in this order.
    pub regions: Vec<PairRegion>,
    /// Region methods: the pairs the method could not judge (it emitted
    /// nothing for them), in pair order.
    pub not_applicable: Vec<PairNotApplicable>,
    /// Region methods: contacts refused for an indeterminate normal, summed
    /// over the pairs.
    pub indeterminate: usize,
    /// The detection stopped at a budget ([`budget`]): `contacts` is then
    /// empty, and [`detect`] refuses the set.
    pub over_budget: Option<OverBudget>,
}

/// A body pair a region method could not judge, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairNotApplicable {
    pub a: usize,
    pub b: usize,
    pub reason: NotApplicable,
}

impl ContactSet {
    /// One message per body at fault, "not applicable: <body> is not
    /// convex", each once and in body order, naming bodies with `name`.
    pub fn not_applicable_messages(&self, name: impl Fn(usize) -> String) -> Vec<String> {
        let mut faults: Vec<(usize, &'static str)> = self
            .not_applicable
            .iter()
            .flat_map(|p| {
                [p.a, p.b]
                    .into_iter()
                    .zip(p.reason.sides)
                    .filter(|&(_, at_fault)| at_fault)
                    .map(move |(body, _)| (body, p.reason.because))
            })
            .collect();
        faults.sort_unstable();
        faults.dedup();
        faults
            .into_iter()
            .map(|(body, because)| format!("not applicable: {} {because}", name(body)))
            .collect()
    }
}

/// One region of a body pair, as a region method found it.
#[derive(Clone, Debug, PartialEq)]
pub struct PairRegion {
    pub a: usize,
    pub b: usize,
    pub outline: RegionOutline,
}

/// What a region method remembers between detections, per pair of bodies
/// (Bouma & Vaněček, §4). A simulation keeps one for its whole run; a one-off
/// detection starts from an empty one.
#[derive(Default)]
pub struct MethodHistory {
    pairs: BTreeMap<(usize, usize), PairMemory>,
}

/// Why [`detect`] gives no contacts for an entry of the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undetectable {
    /// The exact reference, which is not a method and needs the scene's
    /// answer (`measures::reference`).
    Reference,
    /// A method whose algorithm this build was compiled without.
    NotInThisBuild(MissingAlgorithm),
    /// The detection passed a budget ([`budget`]); the message names the
    /// bodies once the caller knows their names.
    OverBudget(OverBudget),
}

impl std::fmt::Display for Undetectable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undetectable::Reference => {
                f.write_str("the exact reference is not a method: it carries the contacts of a simulation's first step")
            }
            Undetectable::NotInThisBuild(missing) => missing.fmt(f),
            Undetectable::OverBudget(over) => f.write_str(&over.message(|i| format!("#{i}"))),
        }
    }
}

impl std::error::Error for Undetectable {}

/// The contacts of `method` at these poses, whatever kind of method it is;
/// an error for the exact reference, for a method not in this build and
/// for a detection that passed its budget.
pub fn detect(
    bodies: &[BodyAtPose],
    method: &MethodInfo,
    params: &MethodParams,
    history: &mut MethodHistory,
) -> Result<ContactSet, Undetectable> {
    let set = match method.algorithm {
        Algorithm::TetPair(m) => find_contacts(bodies, m, params),
        Algorithm::BodyPair(m) => find_pair_contacts(bodies, m, params, history),
        Algorithm::ExactReference => return Err(Undetectable::Reference),
        Algorithm::NotInThisBuild { feature, .. } => {
            return Err(Undetectable::NotInThisBuild(MissingAlgorithm {
                method: method.id,
                feature,
            }))
        }
    };
    match set.over_budget {
        Some(over) => Err(Undetectable::OverBudget(over)),
        None => Ok(set),
    }
}

/// Runs a region method on every pair of bodies whose bounding boxes come
/// within the method's margin (pairs of fixed bodies excluded), in
/// ascending pair order, handing each pair its memory from `history`.
pub fn find_pair_contacts(
    bodies: &[BodyAtPose],
    method: &dyn BodyPairMethod,
    params: &MethodParams,
    history: &mut MethodHistory,
) -> ContactSet {
    let start = crate::clock::now_ms();
    let world: Vec<WorldMesh> = bodies
        .iter()
        .map(|b| WorldMesh::new(b.mesh, b.position, b.rotation))
        .collect();
    let boxes: Vec<crate::geometry::Aabb> = world.iter().map(WorldMesh::aabb).collect();
    let mut pairs = Vec::new();
    for a in 0..bodies.len() {
        for b in a + 1..bodies.len() {
            if bodies[a].fixed && bodies[b].fixed {
                continue;
            }
            let pair_params = params.for_pair(bodies[a].mesh, bodies[b].mesh);
            let margin = method.margin(&pair_params);
            if boxes[a].inflated(margin).overlaps(&boxes[b]) {
                pairs.push((a, b, pair_params));
            }
        }
    }
    let after_broad = crate::clock::now_ms();
    let side = |i: usize| PairSide {
        world: &world[i],
        brep: bodies[i].mesh.brep(),
        position: bodies[i].position,
        rotation: bodies[i].rotation,
        velocity: bodies[i].velocity,
        angular_velocity: bodies[i].angular_velocity,
    };
    let mut set = ContactSet {
        candidate_pairs: pairs.len(),
        ..ContactSet::default()
    };
    let mut out = PairOutput::default();
    let mut tally = Tally::new(Budget::Contacts);
    for (a, b, pair_params) in pairs {
        out.contacts.clear();
        out.regions.clear();
        out.not_applicable = None;
        out.indeterminate = 0;
        let pair = BodyPair {
            a: side(a),
            b: side(b),
        };
        let memory = history.pairs.entry((a, b)).or_default();
        method.body_pair(&pair, &pair_params, memory, &mut out);
        if let Err(over) = tally.add(a, b, out.contacts.len()) {
            return over_budget(over, start);
        }
        set.contacts.extend(
            out.contacts
                .iter()
                .filter(|c| usable(&c.raw))
                .map(|c| Contact {
                    a,
                    b,
                    position: c.raw.position,
                    normal: c.raw.normal,
                    depth: c.raw.depth,
                    features: c.raw.features,
                    source_a: c.sources[0],
                    source_b: c.sources[1],
                    region: Some(c.region),
                    kept_normal: c.kept_normal,
                }),
        );
        set.regions.extend(
            out.regions
                .drain(..)
                .map(|outline| PairRegion { a, b, outline }),
        );
        if let Some(reason) = out.not_applicable {
            set.not_applicable.push(PairNotApplicable { a, b, reason });
        }
        set.indeterminate += out.indeterminate;
    }
    set.unfiltered = set.contacts.len();
    set.ms_broad = after_broad - start;
    set.ms_method = crate::clock::now_ms() - after_broad;
    set
}

/// The empty set of a detection stopped at a budget.
fn over_budget(over: OverBudget, start: f64) -> ContactSet {
    ContactSet {
        over_budget: Some(over),
        ms_method: crate::clock::now_ms() - start,
        ..ContactSet::default()
    }
}

/// Last line of defence: a contact without a finite unit normal (only
/// degenerate geometry can produce one) would poison the solver.
fn usable(r: &RawContact) -> bool {
    r.position.is_finite() && r.depth.is_finite() && (r.normal.length() - 1.0).abs() < 1e-9
}

/// Runs the broad phase, the method on every candidate pair whose two
/// tetrahedra both have a surface face (the surface-only rule), and the
/// post-filter. A method following the paper's code ([`Rules::PaperCode`])
/// gets no touching tolerance (its comparisons are exact, `≤ 0`) and the
/// code's post-filter, which sorts the contacts and removes only neighbours
/// equal to round-off (`docs/design/reference-code.md`, "What every variant shares").
pub fn find_contacts(
    bodies: &[BodyAtPose],
    method: &dyn ContactMethod,
    params: &MethodParams,
) -> ContactSet {
    let start = crate::clock::now_ms();
    let world: Vec<WorldMesh> = bodies
        .iter()
        .map(|b| WorldMesh::new(b.mesh, b.position, b.rotation))
        .collect();
    let fixed: Vec<bool> = bodies.iter().map(|b| b.fixed).collect();
    // Each pair of bodies gets its own touching tolerance and envelope; the
    // broad phase takes the widest of both (the largest body paired with
    // itself: the larger diagonal sets the tolerance, the smaller the
    // envelope), so it never misses a pair.
    let sizes: Vec<f64> = bodies.iter().map(|b| b.mesh.diagonal()).collect();
    let rules = method.rules();
    let pair_params = |a: usize, b: usize| match rules {
        Rules::PaperCode => MethodParams {
            touch_tol: 0.0,
            ..params.for_sizes(sizes[a], sizes[b])
        },
        Rules::Printed => params.for_sizes(sizes[a], sizes[b]),
    };
    let largest = sizes
        .iter()
        .enumerate()
        .max_by(|x, y| x.1.total_cmp(y.1))
        .map_or(0, |(i, _)| i);
    let candidates = match broad_phase::broad_phase(
        &world,
        &fixed,
        method.margin(&pair_params(largest, largest)),
    ) {
        Ok(candidates) => candidates,
        Err(over) => return over_budget(over, start),
    };
    let after_broad = crate::clock::now_ms();
    let mut contacts = Vec::new();
    let mut raw = Vec::new();
    let mut tally = Tally::new(Budget::Contacts);
    for c in &candidates {
        let (ta, tb) = (
            world[c.body_a as usize].tet(c.tet_a as usize),
            world[c.body_b as usize].tet(c.tet_b as usize),
        );
        if !ta.has_surface() || !tb.has_surface() {
            continue;
        }
        raw.clear();
        let params = pair_params(c.body_a as usize, c.body_b as usize);
        method.tet_pair(&ta, &tb, &params, &mut raw);
        if let Err(over) = tally.add(c.body_a as usize, c.body_b as usize, raw.len()) {
            return over_budget(over, start);
        }
        for r in raw.iter().filter(|r| usable(r)) {
            contacts.push(Contact {
                a: c.body_a as usize,
                b: c.body_b as usize,
                position: r.position,
                normal: r.normal,
                depth: r.depth,
                features: r.features,
                source_a: c.tet_a,
                source_b: c.tet_b,
                region: None,
                kept_normal: false,
            });
        }
    }
    let unfiltered = contacts.len();
    match rules {
        Rules::Printed => {
            post_filter::post_filter(&mut contacts, |a, b| pair_params(a, b).touch_tol)
        }
        Rules::PaperCode => post_filter::sorted_neighbours(&mut contacts),
    }
    ContactSet {
        contacts,
        candidate_pairs: candidates.len(),
        unfiltered,
        ms_broad: after_broad - start,
        ms_method: crate::clock::now_ms() - after_broad,
        ..ContactSet::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry as a method behind a cargo feature looks in a build without
    /// that feature (the page's lean module), built by hand so that the
    /// default build tests the refusal too.
    static ABSENT: MethodInfo = MethodInfo {
        id: "absent",
        name: "A method compiled out",
        source: "",
        summary: "",
        help: "",
        reads: &[],
        algorithm: Algorithm::NotInThisBuild {
            feature: "absent-feature",
            kind: "region",
        },
        paper_code: None,
    };

    #[test]
    fn a_method_not_in_this_build_is_listed_as_its_kind_and_refused_by_detect() {
        assert_eq!(ABSENT.kind(), "region");
        assert!(!ABSENT.in_this_build());
        assert!(!ABSENT.is_reference());
        assert!(ABSENT.tet_pair().is_none());
        assert_eq!(ABSENT.erosion(&MethodParams::default()), None);
        let missing = MissingAlgorithm {
            method: "absent",
            feature: "absent-feature",
        };
        assert_eq!(ABSENT.missing_algorithm(), Some(missing));
        let refused = detect(
            &[],
            &ABSENT,
            &MethodParams::default(),
            &mut MethodHistory::default(),
        )
        .err();
        assert_eq!(refused, Some(Undetectable::NotInThisBuild(missing)));
        assert_eq!(
            refused.map(|e| e.to_string()).as_deref(),
            Some(
                "the absent method is not in this build of ContactLab: it was compiled without the cargo feature `absent-feature`"
            )
        );
        // Every entry of this build's registry is in it, parry included
        // when the feature is on.
        assert_eq!(
            every_method().all(|m| m.in_this_build()),
            cfg!(feature = "parry")
        );
    }
}
