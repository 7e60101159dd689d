//! Contacts of one pair of tetrahedra placed on a contact plane, shared by
//! the paper's local methods (Erleben 2018, §6): a set of points projected
//! onto a plane ([`contacts_on_plane`]) or onto the plane through the middle
//! of their extent along the normal ([`contacts_at_extent`], Opposing's
//! algorithm 1 caption), and the contacts of a separating axis test that
//! Volume-SAT and Surface-SAT share, as printed ([`sat_contacts`]) and as
//! the paper's reference code has them ([`paper_code_contacts`], design
//! `docs/design/reference-code.md`), and the code's projection of points at
//! their extent with its merge of coinciding points
//! ([`code_contacts_at_extent`], the SAT methods' and Opposing's).

use super::code_arithmetic::{
    code_intersection_points, code_overlaps, code_sat_normal, merge_after_projection,
};
use super::features::FeatureKind;
use super::method_output::RawContact;
use super::tet_geometry::{intersection_points, AxisSource, SatResult, TetShape};
use glam::DVec3;

/// Emits one contact per point, each projected onto the plane through
/// `plane_point` with normal `normal` (the SAT and Opposing contact plane).
pub fn contacts_on_plane(
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

/// Emits `points` with normal `n` as Opposing does (algorithm 1's
/// caption; the paper's code does the same for the SAT methods): their
/// extent along `n` is the depth, and they are projected onto the plane
/// through the middle of the extremes.
pub fn contacts_at_extent(
    points: &[DVec3],
    n: DVec3,
    features: FeatureKind,
    out: &mut Vec<RawContact>,
) {
    if points.is_empty() {
        return;
    }
    let (lo, hi) = crate::geometry::extent_along(points, n);
    let middle = n * ((lo + hi) * 0.5);
    contacts_on_plane(points, n, middle, -(hi - lo), features, out);
}

/// The feature pair a SAT axis stands for: a face of A against a vertex of
/// B, the reverse, or two edges.
pub fn axis_features(source: AxisSource) -> FeatureKind {
    match source {
        AxisSource::FaceA(_) => FeatureKind::FaceVertex,
        AxisSource::FaceB(_) => FeatureKind::VertexFace,
        AxisSource::Edges(..) => FeatureKind::EdgeEdge,
    }
}

/// Volume-SAT's and Surface-SAT's contacts of a SAT result: the
/// intersection points projected onto the plane through their mean.
pub fn sat_contacts(
    a: &TetShape,
    b: &TetShape,
    sat: SatResult,
    touch_tol: f64,
    out: &mut Vec<RawContact>,
) {
    let points = intersection_points(a, b, touch_tol);
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

/// [`contacts_at_extent`] as the paper's code does it: the extent along
/// `n` is taken over the points as found, then each point is projected onto
/// the middle plane and the projected points that coincide to round-off are
/// merged (`code_arithmetic::merge_after_projection`). Points found twice (a
/// corner of one tetrahedron on a face of the other is both a corner inside
/// and, nearly, a crossing) are one contact, not two.
pub fn code_contacts_at_extent(
    points: &[DVec3],
    n: DVec3,
    features: FeatureKind,
    out: &mut Vec<RawContact>,
) {
    if points.is_empty() {
        return;
    }
    let (lo, hi) = crate::geometry::extent_along(points, n);
    let middle = (lo + hi) * 0.5;
    let mut projected: Vec<DVec3> = points
        .iter()
        .map(|&p| p - n * (p.dot(n) - middle))
        .collect();
    merge_after_projection(&mut projected);
    for position in projected {
        out.push(RawContact {
            position,
            normal: n,
            depth: -(hi - lo),
            features,
        });
    }
}

/// The paper's code's SAT contacts with the axes `allowed` accepts: for a
/// pair that passes the code's overlap test (`code_arithmetic`), the
/// code's intersection points at their extent along the code's SAT normal
/// (`code_arithmetic::code_sat_normal`), merged after projection.
pub fn paper_code_contacts(
    a: &TetShape,
    b: &TetShape,
    allowed: impl Fn(AxisSource) -> bool,
    out: &mut Vec<RawContact>,
) {
    // The code's overlap test gates the pair (touching counts as overlap).
    if !code_overlaps(a, b) {
        return;
    }
    if let Some((normal, source)) = code_sat_normal(a, b, allowed) {
        let points = code_intersection_points(a, b);
        code_contacts_at_extent(&points, normal, axis_features(source), out);
    }
}
