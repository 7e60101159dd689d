//! Volume-SAT (paper sections 6 and 7.4): the separating axis test between
//! the two tetrahedra over their 4 + 4 face normals and edge–edge cross
//! products. Separated (beyond the touching tolerance): nothing. Otherwise
//! the axis of minimum overlap, face axes preferred on ties, is the normal
//! (A→B) and minus the overlap the depth; the mean of the intersection
//! points defines the contact plane, and every intersection point projected
//! onto it is a contact.

use super::{contacts_on_plane, Algorithm, ContactMethod, MethodInfo, MethodParams, RawContact};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::{
    intersection_points, separating_axis_test, AxisSource, SatResult, TetShape,
};
use crate::contact::world_mesh::Tet;
use glam::DVec3;

pub struct VolumeSat;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "volume-sat",
    name: "Volume-SAT",
    source: "Erleben 2018, section 6 and section 7.4",
    summary: "The tetrahedra's axis of minimum overlap (faces and edge pairs) is the normal for all their intersection points.",
    help: "For each pair of overlapping tetrahedra, the separating axis test finds the axis along which they overlap least (face normals and edge cross products). That axis is the normal for all the points where the two tetrahedra intersect. Because interior faces of the meshes count too, an axis from inside a body can win.",
    reads: &[],
    algorithm: Algorithm::TetPair(&VolumeSat),
    paper_code: None,
};

pub(super) fn axis_features(source: AxisSource) -> FeatureKind {
    match source {
        AxisSource::FaceA(_) => FeatureKind::FaceVertex,
        AxisSource::FaceB(_) => FeatureKind::VertexFace,
        AxisSource::Edges(..) => FeatureKind::EdgeEdge,
    }
}

/// Contacts of a SAT result: intersection points projected onto the plane
/// through their mean.
pub(super) fn sat_contacts(
    a: &TetShape,
    b: &TetShape,
    sat: SatResult,
    params: &MethodParams,
    out: &mut Vec<RawContact>,
) {
    let points = intersection_points(a, b, params.touch_tol);
    if points.is_empty() {
        return;
    }
    let mean = points.iter().copied().sum::<DVec3>() / points.len() as f64;
    contacts_on_plane(
        &points,
        sat.axis,
        mean,
        -sat.overlap,
        axis_features(sat.source),
        out,
    );
}

impl ContactMethod for VolumeSat {
    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        if let Some(sat) =
            separating_axis_test(&sa, &sb, params.touch_tol, params.parallel_sin, |_| true)
        {
            sat_contacts(&sa, &sb, sat, params, out);
        }
    }
}
