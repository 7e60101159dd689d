//! The feasible normals of a pair of convex local pieces
//! (`docs/design/oracle.md`, "Feasible normals"): the unit n, from A to B,
//! in A's outward normal cone and with −n in B's — the normal cone of the
//! Minkowski difference P − Q at the contact (Erleben 2018, §5.1 and
//! table 4; Bouma & Vaněček 1993, §3, for normal cones of features).
//!
//! The intersection of the two cones is computed as cones, never by a rule
//! per kind of feature pair: its extreme rays are among the generators of
//! one cone that lie in the other and the lines where the planes spanned by
//! two generators of each meet. When all those rays lie within the angle
//! tolerance of one another the set is one direction (a face on anything,
//! two crossing edges, the aligned edges and corners of the Wall's bricks);
//! otherwise it is a cone, and a normal inside it is right but
//! indeterminate.

use super::prims::{angle, angle_to_cone, within_cone};
use glam::DVec3;

/// The feasible normals of a piece pair.
#[derive(Clone, Debug, PartialEq)]
pub enum Feasible {
    /// No normal separates the two pieces here.
    Empty,
    /// One direction, from A to B.
    Ray(DVec3),
    /// A cone of directions (its extreme rays), from A to B.
    Cone(Vec<DVec3>),
}

impl Feasible {
    /// The angle from unit `n` to the set (π when empty).
    pub fn angle_to(&self, n: DVec3) -> f64 {
        match self {
            Feasible::Empty => std::f64::consts::PI,
            Feasible::Ray(r) => angle(n, *r),
            Feasible::Cone(rays) => angle_to_cone(n, rays),
        }
    }

    /// Whether the set contains unit `n` within `tol` radians.
    pub fn contains(&self, n: DVec3, tol: f64) -> bool {
        self.angle_to(n) <= tol
    }
}

/// The feasible set of `a` (A's outward cone, unit generators) and `b`
/// (B's): a ∩ −b, with rays that miss a cone by at most `tol` counted in
/// (poses are never exact), and one direction, their mean, when every ray
/// lies within `tol` of every other.
///
/// The slack is the angle tolerance itself, the same θ within which two
/// faces count as antiparallel (`touching::face_face`): two faces θ/2 off
/// antiparallel touch, so their normals must meet, here in the mean of the
/// two. A smaller slack dropped such face pairs as having no feasible
/// normal.
pub fn feasible(a: &[DVec3], b: &[DVec3], tol: f64) -> Feasible {
    let minus_b: Vec<DVec3> = b.iter().map(|g| -*g).collect();
    let slack = tol;
    let (sin_slack, cos_slack) = slack.sin_cos();
    let in_both = |d: DVec3| {
        within_cone(d, a, cos_slack, sin_slack) && within_cone(d, &minus_b, cos_slack, sin_slack)
    };
    let mut rays: Vec<DVec3> = Vec::new();
    let add = |d: DVec3, rays: &mut Vec<DVec3>| {
        // Unit vectors: the chord equals the angle to first order.
        if !rays.iter().any(|r| (*r - d).length() <= 1e-9) {
            rays.push(d);
        }
    };
    for &g in a.iter().chain(&minus_b) {
        if in_both(g) {
            add(g, &mut rays);
        }
    }
    let planes = |gens: &[DVec3]| -> Vec<DVec3> {
        let mut out = Vec::new();
        for i in 0..gens.len() {
            for j in i + 1..gens.len() {
                if let Some(m) = gens[i].cross(gens[j]).try_normalize() {
                    out.push(m);
                }
            }
        }
        out
    };
    for pa in planes(a) {
        for pb in planes(&minus_b) {
            if let Some(line) = pa.cross(pb).try_normalize() {
                for d in [line, -line] {
                    if in_both(d) {
                        add(d, &mut rays);
                    }
                }
            }
        }
    }
    if rays.is_empty() {
        return Feasible::Empty;
    }
    // One direction when every two rays lie within θ: compared by cosines,
    // stopping at the first pair apart (a corner of a finely tessellated
    // body gives hundreds of rays).
    let cos_tol = tol.cos();
    let within_tol = rays
        .iter()
        .enumerate()
        .all(|(i, r)| rays[i + 1..].iter().all(|s| r.dot(*s) >= cos_tol));
    if within_tol {
        let mean: DVec3 = rays.iter().copied().sum();
        Feasible::Ray(mean.normalize())
    } else {
        Feasible::Cone(rays)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOL: f64 = 1.0_f64 * std::f64::consts::PI / 180.0;

    #[test]
    fn a_face_on_a_face_is_its_normal_and_a_wrong_side_is_empty() {
        // A's bottom face (outward −z) on B's top face (outward +z).
        assert_eq!(
            feasible(&[-DVec3::Z], &[DVec3::Z], TOL),
            Feasible::Ray(-DVec3::Z)
        );
        assert_eq!(feasible(&[-DVec3::Z], &[-DVec3::Z], TOL), Feasible::Empty);
    }

    #[test]
    fn crossing_edges_give_their_cross_product() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        // A's edge along x (faces below it), B's along y (faces above it).
        let a = [DVec3::new(0.0, s, -s), DVec3::new(0.0, -s, -s)];
        let b = [DVec3::new(s, 0.0, s), DVec3::new(-s, 0.0, s)];
        match feasible(&a, &b, TOL) {
            Feasible::Ray(n) => assert!(angle(n, -DVec3::Z) < 1e-12),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parallel_edges_give_a_cone_and_aligned_brick_edges_a_ray() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let a = [DVec3::new(0.0, s, -s), DVec3::new(0.0, -s, -s)];
        let b = [DVec3::new(0.0, s, s), DVec3::new(0.0, -s, s)];
        assert!(matches!(feasible(&a, &b, TOL), Feasible::Cone(_)));
        // A brick's bottom-front edge on the top-front edge of the one below.
        let a = [-DVec3::Z, DVec3::X];
        let b = [DVec3::Z, DVec3::X];
        assert_eq!(feasible(&a, &b, TOL), Feasible::Ray(-DVec3::Z));
        // Four bricks' corners meeting: the octants meet in one ray too.
        let a = [-DVec3::Z, DVec3::X, DVec3::Y];
        let b = [DVec3::Z, DVec3::X, DVec3::Y];
        assert_eq!(feasible(&a, &b, TOL), Feasible::Ray(-DVec3::Z));
    }

    #[test]
    fn faces_within_the_angle_of_antiparallel_meet_in_their_mean() {
        // 0.6° apart: past the old θ/4 slack, within θ.
        let tilt = 0.6_f64.to_radians();
        let b = DVec3::new(tilt.sin(), 0.0, tilt.cos());
        match feasible(&[-DVec3::Z], &[b], TOL) {
            Feasible::Ray(n) => assert!(angle(n, (-DVec3::Z - b).normalize()) < 1e-12),
            other => panic!("{other:?}"),
        }
        // 1.5° apart: not antiparallel, no common normal.
        let tilt = 1.5_f64.to_radians();
        let b = DVec3::new(tilt.sin(), 0.0, tilt.cos());
        assert_eq!(feasible(&[-DVec3::Z], &[b], TOL), Feasible::Empty);
    }
}
