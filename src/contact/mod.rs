//! Contacts between bodies: the contact data, the broad phase, the contact
//! point methods and their registry (one file each in `methods/`),
//! the post-filter, and the exact contact regions used as the reference.
//!
//! Convention (design `README.md`): a contact between bodies `a` and `b`
//! has its unit normal pointing from A towards B (the direction B must move
//! to separate) and a signed depth: 0 touching, > 0 separated, < 0
//! penetrating.

pub mod aabb;
pub mod broad_phase;
pub mod exact_regions;
pub mod features;
pub mod methods;
pub mod post_filter;
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

pub use methods::{
    method_by_id, methods_under_test, Algorithm, ContactMethod, MethodInfo, MethodParams,
    RawContact, REGISTRY,
};

use crate::mesh::TetMesh;
use glam::{DQuat, DVec3};
use world_mesh::WorldMesh;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Body indices; the pair is stored as generated (A < B is not required).
    pub a: usize,
    pub b: usize,
    /// World position.
    pub position: DVec3,
    /// Unit normal from A towards B.
    pub normal: DVec3,
    /// 0 touching, > 0 separated, < 0 penetrating.
    pub depth: f64,
    pub features: FeatureKind,
    /// The tetrahedra of A and B that generated the contact.
    pub tet_a: u32,
    pub tet_b: u32,
}

impl Contact {
    /// The same contact seen with A and B swapped.
    pub fn swapped(&self) -> Contact {
        Contact {
            a: self.b,
            b: self.a,
            normal: -self.normal,
            features: self.features.swapped(),
            tet_a: self.tet_b,
            tet_b: self.tet_a,
            ..*self
        }
    }
}

/// A body as the contact methods see it: its mesh (body frame) and pose.
#[derive(Clone, Copy)]
pub struct BodyAtPose<'a> {
    pub mesh: &'a TetMesh,
    pub position: DVec3,
    pub rotation: DQuat,
    pub fixed: bool,
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
}

/// Runs the broad phase, the method on every candidate pair whose two
/// tetrahedra both have a surface face (the surface-only rule), and the
/// post-filter.
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
    // Each pair of bodies gets its own touching tolerance; the broad phase
    // takes the widest, so it never misses a pair.
    let sizes: Vec<f64> = bodies.iter().map(|b| b.mesh.diagonal()).collect();
    let pair_params = |a: usize, b: usize| match params.relative_touch_tol {
        Some(relative) => MethodParams {
            touch_tol: relative * sizes[a].max(sizes[b]),
            ..*params
        },
        None => *params,
    };
    let largest = sizes
        .iter()
        .enumerate()
        .max_by(|x, y| x.1.total_cmp(y.1))
        .map_or(0, |(i, _)| i);
    let candidates = broad_phase::broad_phase(
        &world,
        &fixed,
        method.margin(&pair_params(largest, largest)),
    );
    let after_broad = crate::clock::now_ms();
    let mut contacts = Vec::new();
    let mut raw = Vec::new();
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
        // Last line of defence: a contact without a finite unit normal (only
        // degenerate tetrahedra can produce one) would poison the solver.
        let usable = |r: &&RawContact| {
            r.position.is_finite() && r.depth.is_finite() && (r.normal.length() - 1.0).abs() < 1e-9
        };
        for r in raw.iter().filter(usable) {
            contacts.push(Contact {
                a: c.body_a as usize,
                b: c.body_b as usize,
                position: r.position,
                normal: r.normal,
                depth: r.depth,
                features: r.features,
                tet_a: c.tet_a,
                tet_b: c.tet_b,
            });
        }
    }
    let unfiltered = contacts.len();
    post_filter::post_filter(&mut contacts, |a, b| pair_params(a, b).touch_tol);
    ContactSet {
        contacts,
        candidate_pairs: candidates.len(),
        unfiltered,
        ms_broad: after_broad - start,
        ms_method: crate::clock::now_ms() - after_broad,
    }
}
