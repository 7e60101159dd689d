//! The eight local contact point methods of the paper (seed 000, section 6
//! and appendices A and B), one file each, behind one trait. A method sees
//! one pair of tetrahedra at a time; the dispatcher in `contact` runs the
//! broad phase, applies the surface-only rule and the post-filter.

mod closest_points;
mod consistent_vertex;
mod growth;
mod intersection;
mod opposing;
mod surface_sat;
mod vertex_only;
mod volume_sat;

pub use closest_points::ClosestPoints;
pub use consistent_vertex::ConsistentVertex;
pub use growth::Growth;
pub use intersection::Intersection;
pub use opposing::Opposing;
pub use surface_sat::SurfaceSat;
pub use vertex_only::VertexOnly;
pub use volume_sat::VolumeSat;

use super::features::FeatureKind;
use super::world_mesh::Tet;
use glam::DVec3;

/// Every tolerance a method uses, in one place (design: "never hard-code
/// bare epsilons inside methods").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MethodParams {
    /// Distance below which surfaces count as touching (default 1e-6 × the
    /// scene's size).
    pub touch_tol: f64,
    /// Sine of the angle below which directions count as parallel.
    pub parallel_sin: f64,
    /// Erosion ε of the Closest points method (default 0.01 m); contacts
    /// are found up to 2ε apart.
    pub epsilon: f64,
    /// Cap on Growth's ray-marching loop (appendix B, lines 8–13).
    pub growth_iterations: usize,
}

impl Default for MethodParams {
    /// Defaults for a scene of size 1 m; use [`MethodParams::for_scene`].
    fn default() -> Self {
        MethodParams {
            touch_tol: 1e-6,
            parallel_sin: 1e-6,
            epsilon: Self::DEFAULT_EPSILON,
            growth_iterations: 50,
        }
    }
}

impl MethodParams {
    pub const DEFAULT_EPSILON: f64 = 0.01;

    /// Defaults for a scene: the touching tolerance scales with its size.
    pub fn for_scene(scene: &crate::scene::Scene) -> MethodParams {
        MethodParams {
            touch_tol: 1e-6 * scene.size(),
            ..MethodParams::default()
        }
    }
}

/// A contact as a method emits it; the dispatcher adds bodies and tets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RawContact {
    pub position: DVec3,
    /// Unit normal from A towards B.
    pub normal: DVec3,
    pub depth: f64,
    pub features: FeatureKind,
}

pub trait ContactMethod: Sync {
    /// Stable id, used by the CLI, URLs and tables.
    fn id(&self) -> &'static str;
    /// The paper's name.
    fn name(&self) -> &'static str;
    /// One line for pickers and `contactlab methods`.
    fn description(&self) -> &'static str;
    /// How far apart two tetrahedra may be and still produce contacts.
    fn margin(&self, params: &MethodParams) -> f64 {
        params.touch_tol
    }
    /// Erosion the bodies need at load (only Closest points has one).
    fn erosion(&self, _params: &MethodParams) -> Option<f64> {
        None
    }
    /// Appends the contacts of tetrahedron `a` (of body A) and `b` (of body
    /// B), normals pointing from A to B.
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>);
}

/// The paper's eight methods, in the order of its tables.
pub static METHODS: [&dyn ContactMethod; 8] = [
    &ClosestPoints,
    &Intersection,
    &VertexOnly,
    &ConsistentVertex,
    &VolumeSat,
    &SurfaceSat,
    &Opposing,
    &Growth,
];

pub fn method_by_id(id: &str) -> Option<&'static dyn ContactMethod> {
    METHODS.iter().copied().find(|m| m.id() == id)
}

pub fn method_ids() -> Vec<&'static str> {
    METHODS.iter().map(|m| m.id()).collect()
}

/// Emits one contact per point, each projected onto the plane through
/// `plane_point` with normal `normal` (the SAT and Opposing contact plane).
fn contacts_on_plane(
    points: &[DVec3],
    normal: DVec3,
    plane_point: DVec3,
    depth: f64,
    features: FeatureKind,
    out: &mut Vec<RawContact>,
) {
    for &p in points {
        out.push(RawContact {
            position: p - normal * (p - plane_point).dot(normal),
            normal,
            depth,
            features,
        });
    }
}

/// Feature label from the dimensions of A's and B's generating features
/// (0 vertex, 1 edge, 2 face).
fn features_from_dimensions(a: u8, b: u8) -> FeatureKind {
    match (a.min(2), b.min(2)) {
        (0, 0) => FeatureKind::VertexVertex,
        (0, 1) => FeatureKind::VertexEdge,
        (1, 0) => FeatureKind::EdgeVertex,
        (0, 2) => FeatureKind::VertexFace,
        (2, 0) => FeatureKind::FaceVertex,
        (1, 1) => FeatureKind::EdgeEdge,
        (1, 2) => FeatureKind::EdgeFace,
        (2, 1) => FeatureKind::FaceEdge,
        _ => FeatureKind::FaceFace,
    }
}
