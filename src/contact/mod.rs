//! Contacts between bodies. For now: the exact contact regions of bodies in
//! touching contact (design `methods.md`, last section), the reference that
//! the oracles' minimal counts and the tests stand on.

pub mod exact_regions;
pub mod features;
pub mod touching;

pub use exact_regions::{exact_contacts, ExactContacts, ExactPair, Region};
pub use features::{FeatureKind, FeaturePair};
