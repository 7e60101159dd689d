//! Warm starting the solver (`solver`, its `initial` impulses): each
//! contact starts from the impulse of the same contact at the last step,
//! matched across steps by a [`WarmKey`].

use crate::contact::{Contact, FeatureKind};
use glam::DVec3;
use std::collections::BTreeMap;

/// A contact's identity across steps: its bodies, their source
/// tetrahedra, its feature kind, and its ordinal among the contacts that
/// share those (a tetrahedron pair can give several contacts of one kind:
/// Opposing gives all its intersection points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct WarmKey {
    pub a: usize,
    pub b: usize,
    pub source_a: u32,
    pub source_b: u32,
    pub features: FeatureKind,
    /// The contact's place among those sharing the fields above, in the
    /// (deterministic) order the method gave them.
    pub ordinal: u32,
}

impl WarmKey {
    /// The keys of `contacts`, in their order.
    pub(super) fn of(contacts: &[Contact]) -> Vec<WarmKey> {
        let mut seen: BTreeMap<WarmKey, u32> = BTreeMap::new();
        contacts
            .iter()
            .map(|c| {
                let group = WarmKey {
                    a: c.a,
                    b: c.b,
                    source_a: c.source_a,
                    source_b: c.source_b,
                    features: c.features,
                    ordinal: 0,
                };
                let ordinal = seen.entry(group).or_insert(0);
                *ordinal += 1;
                WarmKey {
                    ordinal: *ordinal - 1,
                    ..group
                }
            })
            .collect()
    }
}

/// The last step's impulses by contact (a sorted map: its order never
/// matters, lookups only).
#[derive(Clone, Debug, Default)]
pub(super) struct WarmStarts(BTreeMap<WarmKey, DVec3>);

impl WarmStarts {
    /// The starting impulse of each contact of `keys`: the last step's
    /// impulse of the same contact, else zero.
    pub(super) fn initial(&self, keys: &[WarmKey]) -> Vec<DVec3> {
        keys.iter()
            .map(|k| self.0.get(k).copied().unwrap_or(DVec3::ZERO))
            .collect()
    }

    /// Keeps this step's `impulses` of the contacts of `keys` (and forgets
    /// the last step's).
    pub(super) fn store(&mut self, keys: Vec<WarmKey>, impulses: &[DVec3]) {
        self.0 = keys.into_iter().zip(impulses.iter().copied()).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_keys_tell_apart_contacts_of_one_tetrahedron_pair() {
        let contact = |source_a, features| Contact {
            a: 0,
            b: 1,
            position: DVec3::ZERO,
            normal: DVec3::Y,
            depth: 0.0,
            features,
            source_a,
            source_b: 3,
            region: None,
            kept_normal: false,
        };
        let contacts = [
            contact(7, FeatureKind::FaceFace),
            contact(7, FeatureKind::FaceFace),
            contact(8, FeatureKind::FaceFace),
            contact(7, FeatureKind::FaceFace),
            contact(7, FeatureKind::EdgeEdge),
        ];
        let keys = WarmKey::of(&contacts);
        let ordinals: Vec<u32> = keys.iter().map(|k| k.ordinal).collect();
        assert_eq!(ordinals, [0, 1, 0, 2, 0]);
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), keys.len());
    }
}
