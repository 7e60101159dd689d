//! The `reference` contacts: the exact contact regions of the initial pose
//! (`docs/design/methods.md`, "Exact contact regions"), carried with the
//! bodies — each hull vertex as a point in A's and in B's body frame, its
//! normal in A's frame. It is what an ideal method would give a resting
//! scene, so the solver can be tested apart from the methods
//! (`docs/design/solver.md`, issue 4).
//!
//! Planar regions take their plane normal. A point or segment region has no
//! normal of its own; it takes the scene oracle's feasible normals for the
//! pair (one contact per normal and hull vertex, which is how the paper's
//! table 4 counts them), and without an oracle normal it gives nothing.
//!
//! It lives with the measures, not with the contact methods, because it
//! reads the oracle: it is the answer the methods are judged against. The
//! method registry lists it only as a marker
//! (`contact::methods::Algorithm::ExactReference`) so that it can be picked
//! and compared like a method; `sim` builds it.

use crate::contact::exact_regions::exact_contacts;
use crate::contact::{BodyAtPose, Contact, FeatureKind, RELATIVE_TOUCH_TOL};
use crate::scene::{Oracle, Scene};
use glam::DVec3;

#[derive(Clone, Debug)]
struct Carried {
    a: usize,
    b: usize,
    point_a: DVec3,
    point_b: DVec3,
    normal_a: DVec3,
    features: FeatureKind,
}

#[derive(Clone, Debug, Default)]
pub struct ReferenceContacts {
    carried: Vec<Carried>,
}

impl ReferenceContacts {
    /// The exact contacts of `scene` at its current (initial) pose.
    pub fn from_scene(scene: &Scene) -> ReferenceContacts {
        let exact = exact_contacts(scene, RELATIVE_TOUCH_TOL);
        let mut carried = Vec::new();
        for pair in &exact.pairs {
            let (body_a, body_b) = (&scene.bodies[pair.a], &scene.bodies[pair.b]);
            let to_a = |p: DVec3| body_a.rotation.inverse() * (p - body_a.position);
            let to_b = |p: DVec3| body_b.rotation.inverse() * (p - body_b.position);
            for region in &pair.regions {
                let normals: Vec<DVec3> = match region.normal {
                    Some(n) => vec![n],
                    None => oracle_normals(&scene.oracle, pair.a, pair.b),
                };
                let features = if region.dimension == 2 {
                    FeatureKind::FaceFace
                } else {
                    FeatureKind::VertexVertex
                };
                for &p in &region.hull {
                    for &n in &normals {
                        carried.push(Carried {
                            a: pair.a,
                            b: pair.b,
                            point_a: to_a(p),
                            point_b: to_b(p),
                            normal_a: body_a.rotation.inverse() * n,
                            features,
                        });
                    }
                }
            }
        }
        ReferenceContacts { carried }
    }

    /// The contacts at the bodies' current poses: the midpoint of the two
    /// carried points, A's normal, and the gap along it as depth.
    pub fn at_pose(&self, bodies: &[BodyAtPose]) -> Vec<Contact> {
        self.carried
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let (a, b) = (&bodies[c.a], &bodies[c.b]);
                let (pa, pb) = (
                    a.position + a.rotation * c.point_a,
                    b.position + b.rotation * c.point_b,
                );
                let normal = (a.rotation * c.normal_a).normalize();
                // Reference contacts have no source tetrahedra; both ids hold
                // the contact's own index, so that warm starting (which keys
                // impulses by them) tells the contacts of a pair apart.
                let id = i as u32;
                Contact {
                    a: c.a,
                    b: c.b,
                    position: (pa + pb) * 0.5,
                    normal,
                    depth: (pb - pa).dot(normal),
                    features: c.features,
                    source_a: id,
                    source_b: id,
                    region: None,
                    kept_normal: false,
                }
            })
            .collect()
    }

    pub fn len(&self) -> usize {
        self.carried.len()
    }

    pub fn is_empty(&self) -> bool {
        self.carried.is_empty()
    }
}

/// The oracle's feasible normals for the pair (a, b), oriented from a to b.
/// Only the `pairs` oracle has oriented normals (the others' are signless).
fn oracle_normals(oracle: &Oracle, a: usize, b: usize) -> Vec<DVec3> {
    let mut distinct: Vec<DVec3> = Vec::new();
    // A normal listed twice is one normal: without this, a scene file that
    // repeats one (a fuzzed file had 5000 copies) multiplies every point's
    // contacts and the solver's work by the repeats.
    for n in declared_normals(oracle, a, b) {
        if !distinct.iter().any(|d| d.dot(n) >= 1.0 - 1e-12) {
            distinct.push(n);
        }
    }
    distinct
}

/// The normals the oracle declares for the pair, from A to B, as listed.
fn declared_normals(oracle: &Oracle, a: usize, b: usize) -> Vec<DVec3> {
    match oracle {
        Oracle::Pairs { pairs } => pairs
            .iter()
            .find_map(|p| {
                if (p.a, p.b) == (a, b) {
                    Some(p.normals.clone())
                } else if (p.b, p.a) == (a, b) {
                    Some(p.normals.iter().map(|n| -*n).collect())
                } else {
                    None
                }
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}
