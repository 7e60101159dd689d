//! Volume-SAT (paper sections 6 and 7.4): the separating axis test between
//! the two tetrahedra over their 4 + 4 face normals and edge–edge cross
//! products. Separated (beyond the touching tolerance): nothing. Otherwise
//! the axis of minimum overlap, face axes preferred on ties, is the normal
//! (A→B) and minus the overlap the depth; the mean of the intersection
//! points defines the contact plane, and every intersection point projected
//! onto it is a contact.

use super::{contacts_on_plane, ContactMethod, MethodParams, RawContact};
use crate::contact::features::FeatureKind;
use crate::contact::tet_geometry::{
    intersection_points, separating_axis_test, AxisSource, SatResult, TetShape,
};
use crate::contact::world_mesh::Tet;
use glam::DVec3;

pub struct VolumeSat;

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
    fn id(&self) -> &'static str {
        "volume-sat"
    }
    fn name(&self) -> &'static str {
        "Volume-SAT"
    }
    fn description(&self) -> &'static str {
        "The tetrahedra's axis of minimum overlap (faces and edge pairs) is the normal for all their intersection points."
    }

    fn tet_pair(&self, a: &Tet, b: &Tet, params: &MethodParams, out: &mut Vec<RawContact>) {
        let (sa, sb) = (TetShape::of(a), TetShape::of(b));
        if let Some(sat) =
            separating_axis_test(&sa, &sb, params.touch_tol, params.parallel_sin, |_| true)
        {
            sat_contacts(&sa, &sb, sat, params, out);
        }
    }
}
