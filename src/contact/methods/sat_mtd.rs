//! SAT-MTD, the contact manifold of two convex polyhedra by the separating
//! axis theorem (Cheng Yi & Drumwright, §III-B and §IV-C to E,
//! algorithms 1 and 2; `docs/design/other-methods.md`, "SAT-MTD contact
//! manifold for convex bodies").
//!
//! 1. **Convex only.** A body is convex when every B-rep edge of its surface
//!    is ([`crate::mesh::Brep::is_convex`]). A pair with a non-convex body
//!    gets no contacts and says which body is at fault
//!    ([`super::NotApplicable`]).
//! 2. **Axes** (§IV-C): the B-rep face normals of both bodies and the cross
//!    products of every B-rep edge of A with every B-rep edge of B (only an
//!    exactly zero product, parallel edges, is dropped). These are the facet
//!    normals of the Minkowski difference A − B, so the largest separation
//!    over them is the signed distance of the origin to that polytope's
//!    facet planes. Each axis is tested by projecting both bodies' corners
//!    (algorithm 1): `o₁ = max_A − min_B` is the overlap removed by moving B
//!    along +u, `o₂ = max_B − min_A` along −u; the axis gives separation
//!    −min(o₁, o₂) with the normal (from A to B) of the smaller one. Any
//!    axis, noisy or not, has an overlap at least the minimum translational
//!    distance (MTD), so a nearly parallel edge pair's imprecise product can
//!    never undercut the true answer.
//! 3. **Penetrating** (every axis overlaps): the axis of minimum overlap is
//!    the normal and the overlap the MTD; the signed distance is −MTD.
//!    **Disjoint** (some axis separates): the normal runs between the closest
//!    points of the two bodies (Cheng Yi & Drumwright's V-CLIP, §IV-B; here
//!    every corner against every surface triangle of the other and every
//!    B-rep edge pair, which for convex polyhedra finds the closest pair) and
//!    the distance is theirs. Only pairs within the `envelope` get contacts.
//! 4. **Indeterminate normals** (§III-B): for kissing or penetrating bodies,
//!    candidate axes within the touching tolerance of the best one that point
//!    in a different direction (more than the tolerance's angle across the
//!    bodies' size apart, or opposite) mean vertex–vertex, vertex–edge or
//!    parallel edge–edge contact. Cheng Yi & Drumwright return no contact
//!    there; so do we, and count it ([`PairOutput::indeterminate`]).
//! 5. **Manifold** (§IV-D, E): B moved along the normal by minus the signed
//!    distance kisses A. The corners of A near its supporting plane and those
//!    of B near its own (each body's own extreme, which is Cheng Yi &
//!    Drumwright's fix for "no vertex lies on the contact plane") are
//!    projected into the contact plane; their convex hulls are a point, a
//!    segment or a polygon, and are intersected (polygon clipping, a segment
//!    clipped by a polygon, two segments crossing or overlapping, a point in
//!    the other). Should round-off leave the intersection empty, the point
//!    halfway between the two hulls' closest points is taken (their second
//!    numerical fix). Every vertex of the result is a contact with the
//!    normal, placed halfway between the two bodies' surfaces (algorithm 2,
//!    line 30).
//!
//!    **One deviation from Cheng Yi & Drumwright**, for stacks: "near" is the
//!    `envelope` (default 1 cm), not the touching tolerance, and each
//!    contact's depth is the gap between the two features along the normal at
//!    its point (the features' heights fitted linearly to their corners),
//!    which is −MTD (or the distance) where they kiss and more where a face
//!    is tilted away. With their rule (the touching tolerance, one depth for
//!    all) the Pillar's stones, rocking by 10⁻⁵ rad (5 µm over half a metre,
//!    the size of the tolerance), flipped between face, edge and corner
//!    contact from step to step and the stack blew up within 20 steps; with
//!    this rule a resting face stays one face.
//!
//! Ties are decided by the touching tolerance on separations computed in
//! floating point: the separation of one axis is a difference of two dot
//! products of magnitudes up to the bodies' size, exact to a few ulps of it,
//! far below any tolerance (the sat-unit table measures it: at most a few
//! 1e-15 on 2 m boxes). No exact predicate is needed to keep answers
//! consistent; the only exact decision, dropping parallel edge pairs, uses
//! an exactly zero cross product.

use super::{
    Algorithm, BodyPair, BodyPairMethod, MethodInfo, MethodParams, NotApplicable, PairContact,
    PairMemory, PairOutput, PairSide, RawContact, RegionOutline,
};
use crate::contact::features::features_from_dimensions;
use crate::geometry::symmetric3::symmetric_pseudo_inverse;
use crate::geometry::{
    clip_convex_polygon, closest_point_on_segment, closest_point_on_triangle,
    closest_points_segments, convex_hull_2d, extent_along, line_in_convex_polygon, PlaneFrame,
};
use glam::{DVec2, DVec3};

pub struct SatMtd;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "sat-mtd",
    name: "SAT-MTD",
    source: help_text!("Cheng Yi & Drumwright, §III-B and §IV-C to E: minimum translational distance by the separating axis theorem, manifold in the kissing configuration"),
    summary: "For two convex bodies: the separating axis of minimum overlap gives one normal and depth; the bodies' touching features in the kissing pose, clipped against each other, give the contacts.",
    help: help_text!("Only for convex bodies (every B-rep edge convex); on a pair with a non-convex body it emits nothing and says so. It tests every face normal of both bodies and every cross product of an edge of one with an edge of the other as a separating axis: the axis with the smallest overlap is the contact normal and the overlap the penetration depth (for disjoint bodies within the envelope, the closest points give normal and distance). B is then moved back along that normal until the bodies just touch, the corners of each lying near the contact plane (within the envelope) are taken (a point, an edge or a face), clipped against each other, and every corner of the result is a contact with the one normal and the gap between the two features there (minus the overlap where they touch). Where several axes tie with different directions (corner on corner, corner on edge, parallel edges) the normal is indeterminate: it returns no contact there, as Cheng Yi & Drumwright do, and counts it. A box on a box gets exactly its four corners and the face normal; a tessellated sphere gets one contact per facet it touches."),
    reads: &["envelope"],
    algorithm: Algorithm::BodyPair(&SatMtd),
    paper_code: None,
};

/// What a non-convex body lacks, as the front ends say it after its name.
const NOT_CONVEX: &str = "is not convex";

impl BodyPairMethod for SatMtd {
    fn margin(&self, params: &MethodParams) -> f64 {
        params.envelope.max(params.touch_tol)
    }

    fn body_pair(
        &self,
        pair: &BodyPair,
        params: &MethodParams,
        _memory: &mut PairMemory,
        out: &mut PairOutput,
    ) {
        let convex = [pair.a.brep.is_convex(), pair.b.brep.is_convex()];
        if convex != [true, true] {
            out.not_applicable = Some(NotApplicable {
                sides: convex.map(|c| !c),
                because: NOT_CONVEX,
            });
            return;
        }
        let (a, b) = (Convex::of(&pair.a), Convex::of(&pair.b));
        let reach = params.envelope.max(params.touch_tol);
        let Some(found) = signed_distance(&a, &b, params, Some(reach)) else {
            return;
        };
        if found.distance > reach {
            return;
        }
        if found.indeterminate {
            out.indeterminate += 1;
            return;
        }
        manifold(&a, &b, &found, params, out);
    }
}

/// The signed distance of two convex bodies as SAT-MTD finds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatDistance {
    /// Euclidean distance when disjoint, minus the minimum translational
    /// distance when they overlap.
    pub distance: f64,
    /// Unit normal from A to B: the direction to move B to separate them
    /// (or from A's closest point to B's).
    pub normal: DVec3,
    /// Whether another candidate axis within the touching tolerance points
    /// elsewhere (no contact is made then).
    pub indeterminate: bool,
}

/// SAT-MTD's signed distance of the two bodies of `pair` (both must be
/// convex: `None` otherwise), for the sat-unit table.
pub fn sat_signed_distance(pair: &BodyPair, params: &MethodParams) -> Option<SatDistance> {
    if !(pair.a.brep.is_convex() && pair.b.brep.is_convex()) {
        return None;
    }
    signed_distance(&Convex::of(&pair.a), &Convex::of(&pair.b), params, None)
}

/// A convex body at its pose as SAT sees it (world frame).
struct Convex<'a> {
    side: &'a PairSide<'a>,
    /// Positions of the B-rep vertices, indexed like `Brep::vertices`.
    corners: Vec<DVec3>,
    /// Outward normals of the B-rep faces, indexed like `Brep::faces`.
    face_normals: Vec<DVec3>,
    /// End points of the B-rep edges (straight on a convex polyhedron),
    /// indexed like `Brep::edges`.
    edges: Vec<[DVec3; 2]>,
}

impl<'a> Convex<'a> {
    fn of(side: &'a PairSide<'a>) -> Self {
        let corners: Vec<DVec3> = side
            .brep
            .vertices
            .iter()
            .map(|v| side.world.vertices[v.mesh_vertex as usize])
            .collect();
        let face_normals = side
            .brep
            .faces
            .iter()
            .map(|f| side.to_world(f.normal))
            .collect();
        let edges = side
            .brep
            .edges
            .iter()
            .map(|e| e.ends.map(|v| corners[v as usize]))
            .collect();
        Convex {
            side,
            corners,
            face_normals,
            edges,
        }
    }

    fn size(&self) -> f64 {
        self.side.world.mesh.diagonal()
    }
}

/// One candidate axis: its separation (negative: overlap) and the normal
/// from A to B that goes with it.
#[derive(Clone, Copy)]
struct Axis {
    separation: f64,
    normal: DVec3,
}

/// Algorithms 1 and 2 for one unit axis `u`.
fn test_axis(a: &Convex, b: &Convex, u: DVec3) -> Axis {
    let (min_a, max_a) = extent_along(&a.corners, u);
    let (min_b, max_b) = extent_along(&b.corners, u);
    let (o1, o2) = (max_a - min_b, max_b - min_a);
    if o1 <= o2 {
        Axis {
            separation: -o1,
            normal: u,
        }
    } else {
        Axis {
            separation: -o2,
            normal: -u,
        }
    }
}

/// The SAT over all axes with the closest points for disjoint bodies.
/// With `reach`, gives up (`None`) as soon as an axis separates the bodies
/// by more than it (their distance is at least that).
fn signed_distance(
    a: &Convex,
    b: &Convex,
    params: &MethodParams,
    reach: Option<f64>,
) -> Option<SatDistance> {
    let tol = params.touch_tol;
    let mut best = Axis {
        separation: f64::NEG_INFINITY,
        normal: DVec3::ZERO,
    };
    // The axes within `tol` of the best so far (the best among them).
    let mut near: Vec<Axis> = Vec::new();
    let mut consider = |u: DVec3| -> bool {
        let axis = test_axis(a, b, u);
        if axis.separation > best.separation {
            best = axis;
            near.retain(|x| x.separation >= best.separation - tol);
        }
        if axis.separation >= best.separation - tol {
            near.push(axis);
        }
        reach.is_none_or(|r| best.separation <= r)
    };
    for &u in a.face_normals.iter().chain(&b.face_normals) {
        if !consider(u) {
            return None;
        }
    }
    for ea in &a.edges {
        for eb in &b.edges {
            let c = (ea[1] - ea[0]).cross(eb[1] - eb[0]);
            // Parallel edges: their product is no axis (algorithm 2, line 3).
            if c == DVec3::ZERO {
                continue;
            }
            if !consider(c.normalize()) {
                return None;
            }
        }
    }
    if !best.separation.is_finite() {
        return None;
    }
    let kissing_or_overlapping = |distance: f64| {
        // When do two tying axes point "in different directions"? An axis
        // tilted by θ from the best one sees the best axis' facet of the
        // Minkowski difference (extent w) shifted by about w θ, so it can
        // tie within `tol` only if w θ ≤ tol. Noisy cross products of
        // nearly parallel edges tilt by θ up to about tol / w across a facet
        // as large as the bodies (w ≈ size): the same normal. A real
        // corner–corner or corner–edge tie puts the origin within tol of a
        // facet's rim, w ≈ 0, with any θ. The geometric mean θ ≤ √(tol /
        // size) separates the two: it counts as a different direction only
        // where the origin lies within √(tol · size) of the facet's rim.
        let size = a.size().max(b.size());
        let same_sin = params.parallel_sin.max((tol / size).sqrt());
        let indeterminate = near.iter().any(|x| {
            x.separation >= best.separation - tol
                && (x.normal.dot(best.normal) <= 0.0
                    || x.normal.cross(best.normal).length() > same_sin)
        });
        SatDistance {
            distance,
            normal: best.normal,
            indeterminate,
        }
    };
    if best.separation <= 0.0 {
        return Some(kissing_or_overlapping(best.separation));
    }
    let (on_a, on_b) = closest_points(a, b);
    let gap = on_b - on_a;
    let distance = gap.length();
    if distance <= tol {
        return Some(kissing_or_overlapping(distance));
    }
    Some(SatDistance {
        distance,
        normal: gap / distance,
        indeterminate: false,
    })
}

/// Closest points of two disjoint convex polyhedra: the closest pair of
/// two disjoint convex polyhedra is attained at a corner against a face or
/// at two edges, so every corner against every surface triangle of the
/// other body and every pair of B-rep edges covers it.
fn closest_points(a: &Convex, b: &Convex) -> (DVec3, DVec3) {
    let mut best = (f64::INFINITY, DVec3::ZERO, DVec3::ZERO);
    let mut take = |p: DVec3, q: DVec3| {
        let d = (q - p).length_squared();
        if d < best.0 {
            best = (d, p, q);
        }
    };
    let triangles = |c: &Convex| -> Vec<[DVec3; 3]> {
        (0..c.side.world.mesh.surface_faces.len())
            .map(|f| c.side.world.face(f))
            .collect()
    };
    let (triangles_a, triangles_b) = (triangles(a), triangles(b));
    for &p in &a.corners {
        for t in &triangles_b {
            take(p, closest_point_on_triangle(p, t[0], t[1], t[2]));
        }
    }
    for &q in &b.corners {
        for t in &triangles_a {
            take(closest_point_on_triangle(q, t[0], t[1], t[2]), q);
        }
    }
    for ea in &a.edges {
        for eb in &b.edges {
            let (p, q, _, _) = closest_points_segments(ea[0], ea[1], eb[0], eb[1]);
            take(p, q);
        }
    }
    (best.1, best.2)
}

/// Step 5: the contacts of the kissing configuration.
fn manifold(
    a: &Convex,
    b: &Convex,
    found: &SatDistance,
    params: &MethodParams,
    out: &mut PairOutput,
) {
    let (n, tol) = (found.normal, params.touch_tol);
    // Each body's corners near its own supporting plane (A's facing B, B's
    // facing A): within the envelope, not only the touching tolerance, so
    // that a face tilted by round-off or by a microscopic rocking of a
    // stack (10⁻⁵ rad over half a metre is 5 µm, the Pillar's tolerance)
    // stays a face; each contact then gets its own gap (below). Moving B
    // along n does not change the projections.
    let near = params.envelope.max(tol);
    let (_, top_a) = extent_along(&a.corners, n);
    let (bottom_b, _) = extent_along(&b.corners, n);
    let touching_a: Vec<u32> = (0..a.corners.len() as u32)
        .filter(|&i| a.corners[i as usize].dot(n) >= top_a - near)
        .collect();
    let touching_b: Vec<u32> = (0..b.corners.len() as u32)
        .filter(|&i| b.corners[i as usize].dot(n) <= bottom_b + near)
        .collect();
    let plane = PlaneFrame::new(n * top_a, n);
    let hull = |c: &Convex, ids: &[u32]| {
        let flat: Vec<DVec2> = ids
            .iter()
            .map(|&i| plane.to_2d(c.corners[i as usize]))
            .collect();
        convex_hull_2d(&flat, tol)
    };
    let (hull_a, hull_b) = (hull(a, &touching_a), hull(b, &touching_b));
    if hull_a.is_empty() || hull_b.is_empty() {
        return;
    }
    let mut shared = intersect(&hull_a, &hull_b, tol);
    if shared.is_empty() {
        let (p, q) = closest_in_plane(&hull_a, &hull_b);
        shared = vec![(p + q) * 0.5];
    }
    let dimension = |h: &[DVec2]| (h.len().min(3) - 1) as u8;
    let (dim_a, dim_b) = (dimension(&hull_a), dimension(&hull_b));
    let sources = [
        source(a, &touching_a, dim_a, n),
        source(b, &touching_b, dim_b, -n),
    ];
    let features = features_from_dimensions(dim_a, dim_b);
    let heights = |c: &Convex, ids: &[u32]| {
        Heights::fit(ids.iter().map(|&i| c.corners[i as usize]), &plane, tol)
    };
    let (height_a, height_b) = (heights(a, &touching_a), heights(b, &touching_b));
    let mut points = Vec::with_capacity(shared.len());
    for &q in &shared {
        // The gap along n between the two features at this point: the signed
        // distance where they kiss, more where a feature is tilted away.
        let (ha, hb) = (height_a.at(q), height_b.at(q));
        let depth = if touching_a.len() == 1 && touching_b.len() == 1 {
            found.distance
        } else {
            (hb - ha).max(found.distance)
        };
        // Halfway between the two bodies' surfaces.
        let position = plane.to_3d(q) + n * (0.5 * (ha + hb) - top_a);
        points.push(position);
        out.contacts.push(PairContact {
            raw: RawContact {
                position,
                normal: n,
                depth,
                features,
            },
            sources,
            region: out.regions.len() as u32,
            kept_normal: false,
        });
    }
    out.regions.push(RegionOutline {
        dimension: dimension(&shared),
        points,
    });
}

/// The height along the contact normal of a body's touching feature (a
/// face, an edge or a corner: its corners lie on one plane, line or point)
/// as a linear function of the position in the contact plane, fitted by
/// least squares to its corners (exact for the corners of one face).
struct Heights {
    centre: DVec2,
    height: f64,
    slope: DVec2,
}

impl Heights {
    fn fit(corners: impl Iterator<Item = DVec3>, plane: &PlaneFrame, tol: f64) -> Heights {
        let samples: Vec<(DVec2, f64)> = corners
            .map(|p| (plane.to_2d(p), p.dot(plane.normal)))
            .collect();
        let count = samples.len().max(1) as f64;
        let centre = samples.iter().map(|s| s.0).sum::<DVec2>() / count;
        let height = samples.iter().map(|s| s.1).sum::<f64>() / count;
        let (mut m, mut rhs) = (glam::DMat3::ZERO, DVec3::ZERO);
        for (q, h) in &samples {
            let d = DVec3::new(q.x - centre.x, q.y - centre.y, 0.0);
            m += glam::DMat3::from_cols(d * d.x, d * d.y, DVec3::ZERO);
            rhs += d * (h - height);
        }
        // Directions in which the corners spread less than `tol` (an edge's
        // width, a corner's extent) carry no slope: eigenvalues below
        // count · tol² are dropped, relative to the largest.
        let largest = m.col(0).x + m.col(1).y;
        let slope = if largest > 0.0 {
            let relative = count * tol * tol / largest;
            (symmetric_pseudo_inverse(m, relative) * rhs).truncate()
        } else {
            DVec2::ZERO
        };
        Heights {
            centre,
            height,
            slope,
        }
    }

    fn at(&self, q: DVec2) -> f64 {
        self.height + self.slope.dot(q - self.centre)
    }
}

/// The B-rep entity a body touches with: its corner, the edge joining two
/// touching corners, or the face whose outward normal is closest to
/// `outward`.
fn source(c: &Convex, touching: &[u32], dimension: u8, outward: DVec3) -> u32 {
    let brep = c.side.brep;
    match dimension {
        0 => touching[0],
        1 => brep
            .edges
            .iter()
            .position(|e| e.ends.iter().all(|v| touching.contains(v)))
            .map_or(touching[0], |e| e as u32),
        _ => c
            .face_normals
            .iter()
            .enumerate()
            .max_by(|x, y| x.1.dot(outward).total_cmp(&y.1.dot(outward)))
            .map_or(0, |(f, _)| f as u32),
    }
}

/// The intersection of two convex hulls (a point, a segment or a
/// counter-clockwise polygon each) within `tol`: its vertices.
fn intersect(p: &[DVec2], q: &[DVec2], tol: f64) -> Vec<DVec2> {
    match (p.len(), q.len()) {
        (1, _) => keep_if_near(p[0], q, tol),
        (_, 1) => keep_if_near(q[0], p, tol),
        (2, 2) => segments(p, q, tol),
        (2, _) => segment_in_polygon(p, q, tol),
        (_, 2) => segment_in_polygon(q, p, tol),
        _ => convex_hull_2d(&clip_convex_polygon(p, q), tol),
    }
}

fn flat(p: DVec2) -> DVec3 {
    DVec3::new(p.x, p.y, 0.0)
}

/// The closest points of two hulls (as segments: their edges, or the one
/// point), first on `p`, then on `q`.
fn closest_in_plane(p: &[DVec2], q: &[DVec2]) -> (DVec2, DVec2) {
    let edges = |h: &[DVec2]| -> Vec<(DVec3, DVec3)> {
        (0..h.len())
            .map(|i| (flat(h[i]), flat(h[(i + 1) % h.len()])))
            .collect()
    };
    let mut best = (f64::INFINITY, p[0], q[0]);
    for (s0, s1) in edges(p) {
        for &(t0, t1) in &edges(q) {
            let (x, y, _, _) = closest_points_segments(s0, s1, t0, t1);
            let d = (x - y).length_squared();
            if d < best.0 {
                best = (d, x.truncate(), y.truncate());
            }
        }
    }
    (best.1, best.2)
}

/// Whether `x` lies in the hull `h` or within `tol` of it.
fn keep_if_near(x: DVec2, h: &[DVec2], tol: f64) -> Vec<DVec2> {
    let inside = h.len() >= 3
        && (0..h.len()).all(|i| (h[(i + 1) % h.len()] - h[i]).perp_dot(x - h[i]) >= 0.0);
    let near = inside
        || (0..h.len()).any(|i| {
            let (c, _) = closest_point_on_segment(flat(x), flat(h[i]), flat(h[(i + 1) % h.len()]));
            (c.truncate() - x).length() <= tol
        });
    if near {
        vec![x]
    } else {
        Vec::new()
    }
}

/// The part of segment `s` inside polygon `h`: its ends (one if they
/// coincide within `tol`).
fn segment_in_polygon(s: &[DVec2], h: &[DVec2], tol: f64) -> Vec<DVec2> {
    let d = s[1] - s[0];
    match line_in_convex_polygon(s[0], d, h) {
        Some((lo, hi)) if lo.max(0.0) <= hi.min(1.0) => {
            ends(s[0] + d * lo.max(0.0), s[0] + d * hi.min(1.0), tol)
        }
        _ => Vec::new(),
    }
}

fn ends(x: DVec2, y: DVec2, tol: f64) -> Vec<DVec2> {
    if (x - y).length() <= tol {
        vec![(x + y) * 0.5]
    } else {
        vec![x, y]
    }
}

/// Two segments: their overlap when they lie on one line within `tol`,
/// otherwise their crossing point if they pass within `tol`.
fn segments(p: &[DVec2], q: &[DVec2], tol: f64) -> Vec<DVec2> {
    let dp = p[1] - p[0];
    let length = dp.length();
    let off_line = |x: DVec2| dp.perp_dot(x - p[0]).abs() / length;
    if off_line(q[0]) <= tol && off_line(q[1]) <= tol {
        // Collinear: q's ends as parameters along p, clipped to [0, 1].
        let (u0, u1) = (
            (q[0] - p[0]).dot(dp) / (length * length),
            (q[1] - p[0]).dot(dp) / (length * length),
        );
        let (lo, hi) = (u0.min(u1).max(0.0), u0.max(u1).min(1.0));
        if lo * length > hi * length + tol {
            return Vec::new();
        }
        return ends(p[0] + dp * lo.min(hi), p[0] + dp * hi.max(lo), tol);
    }
    let (x, y, _, _) = closest_points_segments(flat(p[0]), flat(p[1]), flat(q[0]), flat(q[1]));
    if (x - y).length() <= tol {
        vec![((x + y) * 0.5).truncate()]
    } else {
        Vec::new()
    }
}
