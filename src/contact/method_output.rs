//! What a contact method returns: a raw contact (any method), and for a
//! region method its contacts with their sources and regions, the regions'
//! outlines and why a pair could not be judged. It lives below the methods
//! and their registry so that the machinery they share (`brep_analysis`,
//! `tet_contacts`) can emit it.

use super::features::FeatureKind;
use glam::DVec3;

/// A contact as a method emits it; the dispatcher adds bodies and tets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RawContact {
    pub position: DVec3,
    /// Unit normal from A towards B.
    pub normal: DVec3,
    pub depth: f64,
    pub features: FeatureKind,
}

/// A contact as a region method emits it: the raw contact plus what made
/// it. `sources` are the B-rep entities of A and B (of the kinds
/// `raw.features` names: indices into `Brep::vertices`, `edges` or
/// `faces`), so a contact keeps its identity across steps (warm starting)
/// as long as its feature pair does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairContact {
    pub raw: RawContact,
    pub sources: [u32; 2],
    /// Index of its region in `PairOutput::regions`.
    pub region: u32,
    /// Whether its normal was kept from the previous step (temporal
    /// coherence) rather than taken from the current geometry.
    pub kept_normal: bool,
}

/// A region as a method shows it: its outline for drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionOutline {
    /// 0 point, 1 segment, 2 polygon.
    pub dimension: u8,
    /// World points: one for a point, two for a segment, a closed polygon
    /// (last joins first) otherwise.
    pub points: Vec<DVec3>,
}

/// What a region method returns for one pair of bodies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairOutput {
    pub contacts: Vec<PairContact>,
    pub regions: Vec<RegionOutline>,
    /// Set when the method cannot judge this pair (and so emits nothing):
    /// which body is at fault and why. Methods never see body names; the
    /// dispatcher keeps the pair's indices and front ends name the bodies.
    pub not_applicable: Option<NotApplicable>,
    /// Contacts refused because their normal is indeterminate (Cheng Yi & Drumwright,
    /// §III-B: vertex–vertex, vertex–edge, parallel edge–edge kissing).
    pub indeterminate: usize,
}

/// Why a method cannot judge a pair of bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotApplicable {
    /// Whether body A, and whether body B, is at fault.
    pub sides: [bool; 2],
    /// What is wrong with such a body, a predicate to follow its name:
    /// "is not convex".
    pub because: &'static str,
}
