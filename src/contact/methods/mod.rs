//! The contact point methods, one file each, and their registry.
//!
//! The registry is the one list of methods: the CLI (`contactlab methods`,
//! option checks, `--help`), the page (picker, help, compare table, through
//! the wasm facade), the tables, the benchmarks and the tests all iterate
//! [`REGISTRY`]. Adding a method is its file, which defines the algorithm
//! and a `pub static METHOD: MethodInfo`, plus its module name in the
//! `registry!` line below; nothing else. A method that needs an optional
//! dependency (parry, behind the cargo feature `parry`) puts only its
//! algorithm behind the feature, inside its file: its entry stays in every
//! build, with [`Algorithm::NotInThisBuild`] when the feature is off, so
//! the page's lean wasm module lists it like the full one.
//!
//! The paper's eight methods (Erleben 2018, section 6 and appendices A and B)
//! are local: each sees one pair of tetrahedra at a time
//! ([`Algorithm::TetPair`]), and the dispatcher in `contact` runs the broad
//! phase, applies the surface-only rule and the post-filter. The region
//! methods of the other sources (`docs/design/other-methods.md`) see one
//! pair of whole bodies at a time ([`Algorithm::BodyPair`]): both surfaces with
//! their B-rep features, both bodies' velocities, and what the method itself
//! kept of that pair at the last step ([`PairMemory`]). A method sees
//! geometry, velocities, its settings and its own history, nothing else:
//! not which normals the scene calls right, a scene id or a body name.
//!
//! A method file imports no other method file: what methods share lives
//! below them in `contact` (`tet_geometry` and `tet_contacts` for the local
//! methods; `regions` and `brep_analysis` for the region methods), and
//! `tests/layers.rs` fails otherwise.

use super::world_mesh::Tet;
use serde::Serialize;
use std::any::Any;

/// What a method sees of a pair of bodies and what it returns, defined
/// below the methods (the machinery they share uses them too) and named
/// here with the rest of a method's interface.
pub use super::body_pair::{BodyPair, PairSide};
pub use super::method_output::{NotApplicable, PairContact, PairOutput, RawContact, RegionOutline};

/// Every tolerance a method uses, in one place, so that no method hides a
/// bare epsilon (`docs/design/conventions.md`, "Named tolerances").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MethodParams {
    /// Distance below which surfaces count as touching, for the pair of
    /// bodies at hand.
    pub touch_tol: f64,
    /// When set, `find_contacts` replaces `touch_tol` for each pair of bodies
    /// by this fraction of the larger body's size
    /// ([`crate::contact::pair_touch_tol`]), so a body far away or a huge
    /// ground never changes another pair's tolerance. `None` keeps
    /// `touch_tol` as given (hand-built cases).
    pub relative_touch_tol: Option<f64>,
    /// Sine of the angle below which directions count as parallel.
    pub parallel_sin: f64,
    /// Erosion ε of the Closest points method (the `epsilon` setting); contacts
    /// are found up to 2ε apart.
    pub epsilon: f64,
    /// Cap on Growth's ray-marching loop (appendix B, lines 8–13).
    pub growth_iterations: usize,
    /// Vertex penetration: also B's vertices inside A (the `two_way`
    /// setting).
    pub two_way: bool,
    /// Region analysis: features closer than this count as touching (the
    /// `envelope` setting), metres.
    pub envelope: f64,
    /// When set, `find_contacts` replaces `envelope` for each pair of bodies
    /// by this fraction of the smaller body's diagonal (the `envelope`
    /// setting's size-relative default), so a uniformly scaled scene gets
    /// the same contacts, scaled. The smaller body, not the larger as for
    /// `touch_tol`: a huge ground would otherwise give every block on it a
    /// reach of centimetres per metre of ground. `None` keeps `envelope`.
    pub relative_envelope: Option<f64>,
}

impl Default for MethodParams {
    /// Fixed lengths for bodies of size about 1 m (hand-built cases): a
    /// touching tolerance of 1 µm and the paper's ε = 1 cm as erosion and
    /// envelope ([`MethodParams::PAPER_EPSILON`]); simulations use
    /// [`MethodParams::per_pair`].
    fn default() -> Self {
        MethodParams {
            touch_tol: 1e-6,
            relative_touch_tol: None,
            parallel_sin: 1e-6,
            epsilon: Self::PAPER_EPSILON,
            growth_iterations: 50,
            two_way: crate::settings::default_bool("two_way"),
            envelope: Self::PAPER_EPSILON,
            relative_envelope: None,
        }
    }
}

impl MethodParams {
    /// The paper's envelope and erosion ε, 1 cm for bodies of about 1 m
    /// (Erleben 2018 §6 and §8): the absolute value the paper's tables are
    /// computed with.
    pub const PAPER_EPSILON: f64 = crate::settings::PAPER_EPSILON;

    /// Defaults with the touching tolerance and the envelope of each pair of
    /// bodies scaled with their size ([`crate::contact::RELATIVE_TOUCH_TOL`],
    /// the `envelope` setting's default fraction).
    pub fn per_pair() -> MethodParams {
        MethodParams {
            relative_touch_tol: Some(super::RELATIVE_TOUCH_TOL),
            relative_envelope: Some(crate::settings::default_fraction("envelope")),
            ..MethodParams::default()
        }
    }

    /// These parameters for one pair of bodies.
    pub fn for_pair(&self, a: &crate::mesh::TetMesh, b: &crate::mesh::TetMesh) -> MethodParams {
        self.for_sizes(a.diagonal(), b.diagonal())
    }

    /// These parameters for one pair of bodies of these diagonals.
    pub fn for_sizes(&self, a: f64, b: f64) -> MethodParams {
        let mut params = *self;
        if let Some(relative) = self.relative_touch_tol {
            params.touch_tol = relative * a.max(b);
        }
        if let Some(relative) = self.relative_envelope {
            params.envelope = relative * a.min(b);
        }
        params
    }
}

/// How a method computes its contacts.
pub enum Algorithm {
    /// A local method: one pair of tetrahedra at a time, no state.
    TetPair(&'static dyn ContactMethod),
    /// A region method: one pair of bodies at a time, whole surfaces, with
    /// its own memory of the pair from the previous detection.
    BodyPair(&'static dyn BodyPairMethod),
    /// Not a method under test but the answer the methods are judged
    /// against: the exact contact regions of the initial pose carried with
    /// the bodies. Only a marker here; `sim` builds it from
    /// `measures::reference`, which is allowed to read the scene's answer.
    ExactReference,
    /// A method whose algorithm sits behind a cargo feature this build was
    /// compiled without (the page's lean wasm module leaves out parry3d to
    /// load faster). The method is still listed with everything else of its
    /// entry, so pickers, help and tables are the same in every build;
    /// detecting with it or simulating it is refused with
    /// [`MissingAlgorithm`]'s message.
    NotInThisBuild {
        /// The cargo feature that holds the algorithm.
        feature: &'static str,
        /// What [`MethodInfo::kind`] says of the method in a build that has
        /// it ("local" or "region"), so front ends group it the same way.
        /// Such a method reports the printed [`Rules`]: none behind a
        /// feature has a `@paper-code` variant.
        kind: &'static str,
    },
}

/// Why a method of the registry cannot run in this build: its algorithm
/// sits behind a cargo feature the build was compiled without.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissingAlgorithm {
    /// The method's id.
    pub method: &'static str,
    /// The cargo feature that holds it.
    pub feature: &'static str,
}

impl std::fmt::Display for MissingAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} method is not in this build of ContactLab: it was compiled without the cargo feature `{}`",
            self.method, self.feature
        )
    }
}

impl std::error::Error for MissingAlgorithm {}

/// Which text a local method's algorithm follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// The paper's printed algorithms, with the tie rules and touching
    /// tolerance of `docs/design/methods.md` ("Shared machinery", "The
    /// touching tolerance").
    Printed,
    /// What the paper's reference code does (`docs/design/reference-code.md`,
    /// "What every variant shares"):
    /// no touching tolerance (exact comparisons with 0) and a post-filter
    /// that sorts the contacts and removes a contact equal to its neighbour
    /// to round-off (`post_filter::sorted_neighbours`).
    PaperCode,
}

/// The suffix of a paper-code variant's id: `opposing@paper-code`.
pub const PAPER_CODE_SUFFIX: &str = "@paper-code";

/// A method's registry entry: everything the front ends show about it.
/// Serialised, it gives its text; [`MethodDescription`] adds what follows
/// from its algorithm.
#[derive(Serialize)]
pub struct MethodInfo {
    /// Stable id, used by the CLI, URLs and tables.
    pub id: &'static str,
    /// The name its source uses.
    pub name: &'static str,
    /// The paper (by author) and section it follows.
    pub source: &'static str,
    /// One line for pickers and `contactlab methods`.
    pub summary: &'static str,
    /// One paragraph for a student: how it works and where it fails.
    pub help: &'static str,
    /// Ids of the settings (`crate::settings`) that only this method reads.
    pub reads: &'static [&'static str],
    #[serde(skip)]
    pub algorithm: Algorithm,
    /// The variant following the paper's reference code, declared in the
    /// method's own file (`None` for a method without one and for the
    /// variants themselves). Not serialised: a description says whether an
    /// entry is a variant ([`MethodDescription::paper_code`]).
    #[serde(skip)]
    pub paper_code: Option<&'static MethodInfo>,
}

impl MethodInfo {
    /// Whether this entry is the exact reference rather than a method.
    pub fn is_reference(&self) -> bool {
        matches!(self.algorithm, Algorithm::ExactReference)
    }

    /// What kind of entry this is, for front ends: "local" (one pair of
    /// tetrahedra at a time, the paper's), "region" (one pair of whole
    /// bodies, with memory) or "reference". The same in every build.
    pub fn kind(&self) -> &'static str {
        match self.algorithm {
            Algorithm::TetPair(_) => "local",
            Algorithm::BodyPair(_) => "region",
            Algorithm::ExactReference => "reference",
            Algorithm::NotInThisBuild { kind, .. } => kind,
        }
    }

    /// Whether this build holds the method's algorithm (see
    /// [`Algorithm::NotInThisBuild`]).
    pub fn in_this_build(&self) -> bool {
        self.missing_algorithm().is_none()
    }

    /// Why this build cannot run the method, if it cannot.
    pub fn missing_algorithm(&self) -> Option<MissingAlgorithm> {
        match self.algorithm {
            Algorithm::NotInThisBuild { feature, .. } => Some(MissingAlgorithm {
                method: self.id,
                feature,
            }),
            Algorithm::TetPair(_) | Algorithm::BodyPair(_) | Algorithm::ExactReference => None,
        }
    }

    /// The local algorithm, if this is a local method in this build.
    pub fn tet_pair(&self) -> Option<&'static dyn ContactMethod> {
        match self.algorithm {
            Algorithm::TetPair(m) => Some(m),
            Algorithm::BodyPair(_)
            | Algorithm::ExactReference
            | Algorithm::NotInThisBuild { .. } => None,
        }
    }

    /// The rules the algorithm follows: the paper's text or its code.
    pub fn rules(&self) -> Rules {
        match self.algorithm {
            Algorithm::TetPair(m) => m.rules(),
            Algorithm::BodyPair(_)
            | Algorithm::ExactReference
            | Algorithm::NotInThisBuild { .. } => Rules::Printed,
        }
    }

    /// Whether this entry is a `@paper-code` variant.
    pub fn is_paper_code(&self) -> bool {
        self.rules() == Rules::PaperCode
    }

    /// The printed method this entry is a variant of (itself for a printed
    /// method).
    pub fn printed(&'static self) -> &'static MethodInfo {
        REGISTRY
            .iter()
            .copied()
            .find(|m| m.paper_code.is_some_and(|v| std::ptr::eq(v, self)))
            .unwrap_or(self)
    }

    /// Erosion the bodies need at load for this method, if any.
    pub fn erosion(&self, params: &MethodParams) -> Option<f64> {
        match self.algorithm {
            Algorithm::TetPair(m) => m.erosion(params),
            Algorithm::BodyPair(_)
            | Algorithm::ExactReference
            | Algorithm::NotInThisBuild { .. } => None,
        }
    }

    /// What the front ends say about this entry.
    pub fn description(&'static self) -> MethodDescription {
        MethodDescription {
            entry: self,
            reference: self.is_reference(),
            kind: self.kind(),
            paper_code: self.is_paper_code(),
            printed: self.printed().id,
        }
    }
}

/// A registry entry as the front ends describe it (`contactlab methods
/// --json` and the page's `methods()`): the same in every build.
#[derive(Clone, Copy, Serialize)]
pub struct MethodDescription {
    /// Id, name, source, summary, help and the settings it reads.
    #[serde(flatten)]
    pub entry: &'static MethodInfo,
    /// Whether this is the exact reference rather than a method.
    pub reference: bool,
    /// [`MethodInfo::kind`]: "local", "region" or "reference".
    pub kind: &'static str,
    /// Whether this entry is a `@paper-code` variant.
    pub paper_code: bool,
    /// The id of the printed method this entry is (its own id) or is the
    /// `@paper-code` variant of.
    pub printed: &'static str,
}

/// Declares the method modules and lists them, in that order, in the
/// registry, followed by the exact reference. Every module is compiled in
/// every build: a method behind a cargo feature keeps its entry and, without
/// the feature, has [`Algorithm::NotInThisBuild`] for its algorithm.
macro_rules! registry {
    ($($module:ident),* $(,)?) => {
        $(mod $module;)*
        /// Every method: ContactLab's own first, the paper's in the order
        /// of its tables, the other sources', then the exact reference.
        pub static REGISTRY: &[&MethodInfo] = &[$(&$module::METHOD,)* &REFERENCE];
    };
}

/// The registry entry of the exact reference: listed with the methods so
/// that it can be picked and compared like one, but marked as the answer.
static REFERENCE: MethodInfo = MethodInfo {
    id: "reference",
    name: "Reference (exact)",
    source: help_text!("Erleben 2018, section 5 (figure 6, the ideal contact analysis)"),
    summary: "The exact contact regions of the initial pose carried with the bodies: what an ideal method would give a resting scene.",
    help: help_text!("Not a method of the paper: the exact contact regions of the first frame, computed from the geometry and carried along with the bodies. It shows what an ideal method would give a scene at rest, for comparison. Where a region is a single point or line, it takes the normals the scene file declares right, so it is the answer, not a method under test."),
    reads: &[],
    algorithm: Algorithm::ExactReference,
    paper_code: None,
};

registry!(
    semi_local,
    closest_points,
    intersection,
    vertex_only,
    consistent_vertex,
    volume_sat,
    surface_sat,
    opposing,
    growth,
    contour_region,
    vertex_penetration,
    region_analysis,
    sat_mtd,
    parry,
);

pub use sat_mtd::{sat_signed_distance, SatDistance};

/// parry3d's GJK/EPA signed distance of two posed convex hulls (for the
/// SAT unit table).
#[cfg(feature = "parry")]
pub use self::parry::{signed_distance as gjk_epa_signed_distance, PosedHull};

/// Every entry: each method of the registry followed by its `@paper-code`
/// variant, if it has one, and the reference last.
pub fn every_method() -> impl Iterator<Item = &'static MethodInfo> {
    REGISTRY
        .iter()
        .copied()
        .flat_map(|m| std::iter::once(m).chain(m.paper_code))
}

/// The entry with this id, variants included (`opposing@paper-code`).
pub fn method_by_id(id: &str) -> Option<&'static MethodInfo> {
    every_method().find(|m| m.id == id)
}

/// The methods under test: the registry without the reference, printed
/// algorithms only.
pub fn methods_under_test() -> impl Iterator<Item = &'static MethodInfo> {
    REGISTRY.iter().copied().filter(|m| !m.is_reference())
}

/// The methods under test with each one's `@paper-code` variant after it.
pub fn methods_and_variants() -> impl Iterator<Item = &'static MethodInfo> {
    every_method().filter(|m| !m.is_reference())
}

/// Every id the resolver accepts, variants included, for messages.
pub fn method_ids() -> Vec<&'static str> {
    every_method().map(|m| m.id).collect()
}

/// A local method's algorithm: the contacts of one pair of tetrahedra.
pub trait ContactMethod: Sync {
    /// How far apart two tetrahedra may be and still produce contacts.
    fn margin(&self, params: &MethodParams) -> f64 {
        params.touch_tol
    }
    /// Erosion the bodies need at load (only Closest points has one).
    fn erosion(&self, _params: &MethodParams) -> Option<f64> {
        None
    }
    /// Which text the algorithm follows; the dispatcher applies the
    /// matching touching tolerance and post-filter.
    fn rules(&self) -> Rules {
        Rules::Printed
    }
    /// Appends the contacts of tetrahedron `a` (of body A) and `b` (of body
    /// B), normals pointing from A to B.
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>);
}

/// What a region method keeps of one body pair from one detection to the
/// next (Bouma & Vaněček, §4: temporal coherence). The dispatcher keeps one per
/// pair of bodies and hands it back at the next detection of that pair;
/// its content is the method's own type, which no other code reads. A
/// pair that stops touching keeps its memory until it touches again.
#[derive(Default)]
pub struct PairMemory(Option<Box<dyn Any + Send>>);

impl PairMemory {
    /// The method's state for this pair, created with `T::default()` the
    /// first time (or if a different method left something else here).
    pub fn get_or_default<T: Any + Send + Default>(&mut self) -> &mut T {
        if !self.0.as_ref().is_some_and(|m| m.is::<T>()) {
            self.0 = Some(Box::new(T::default()));
        }
        self.0
            .as_mut()
            .and_then(|m| m.downcast_mut::<T>())
            .expect("just stored a T")
    }
}

/// A region method's algorithm: the contacts of one pair of bodies.
pub trait BodyPairMethod: Sync {
    /// How far apart two bodies' bounding boxes may be and the method still
    /// be asked about them.
    fn margin(&self, params: &MethodParams) -> f64 {
        params.touch_tol
    }
    /// Fills `out` with the contacts and regions of `pair` (normals from A
    /// to B). `memory` is what this method left for the same pair at the
    /// previous detection (empty the first time).
    fn body_pair(
        &self,
        pair: &BodyPair,
        params: &MethodParams,
        memory: &mut PairMemory,
        out: &mut PairOutput,
    );
}
