//! Orientation of points of two bodies when one body is moved by an
//! infinitesimal translation: a symbolic perturbation (in the spirit of
//! Edelsbrunner and Mücke's "Simulation of Simplicity", ACM TOG 9, 1990)
//! that removes every coincidence between the two bodies' surfaces that a
//! translation can remove, while leaving each body's own geometry exact.
//!
//! The intersection of two closed triangle surfaces is a set of closed
//! curves only in general position. Real poses are not: stacked blocks
//! have coplanar faces, a corner sits exactly on a face, an edge runs
//! exactly through an internal triangle edge of the other body. Deciding
//! such ties independently in each test gives curves that do not close.
//! Here every test is instead answered for one configuration, the second
//! body moved by
//!
//! δ(ε) = ε d + ε² (d × x̂) + ε³ (d × ŷ) + ε⁴ (d × ẑ) + ε⁵ x̂ + ε⁶ ŷ + ε⁷ ẑ
//!
//! for an arbitrarily small ε > 0, so the answers are consistent with each
//! other (they describe one real arrangement of the surfaces).
//!
//! Why exactly this δ:
//!
//! - orient3d of four points is multilinear, and a translation moves the
//!   points of one body together, so with that body moved by δ the
//!   determinant is `base + L · δ` exactly (every term with δ twice is a
//!   determinant with two equal columns), with `L` built from the
//!   unperturbed points. Its sign for small ε is the sign of `base`, or if
//!   that is zero, of the first non-zero `L · w` along the directions of δ.
//! - `d` is the direction from the first body to the second (their
//!   centres): coincident surfaces move apart where they face each other
//!   across the line of centres, so an exactly touching pair reads as
//!   touching, not crossing. Swapping the bodies negates `d` and moves the
//!   other body, which is the same relative motion, so the answers do not
//!   depend on the order of the pair; they turn with the pair under a
//!   rotation.
//! - When `L ⊥ d`, the three vectors `d × x̂`, `d × ŷ`, `d × ẑ` span the
//!   plane normal to `d`, so one of them meets any non-zero `L`; they are
//!   odd in `d` too. They are exact in floating point (each coordinate is
//!   one of ±d's). The axes alone remain only for `d = 0`.
//! - `L = 0` only when the moved points' part of the configuration cannot
//!   change under any translation (e.g. a segment parallel to an edge of
//!   the other body); the answer there is 0, and the callers never need
//!   another one (see `contact::regions::penetrating`).
//!
//! `base` is Shewchuk's exact orient3d (the `robust` crate); the `L · w`
//! signs are exact expansion arithmetic ([`super::expansion`]), evaluated
//! only when `base` is exactly zero.

use super::expansion::{add_determinant, Column, ExactSum};
use glam::DVec3;
use robust::Coord3D;

/// An infinitesimal translation of the second of two point sets, along
/// `direction` first (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Perturbation {
    /// The directions of δ in order of decreasing weight (ε, ε², …).
    directions: [DVec3; 7],
}

impl Perturbation {
    /// The perturbation that moves the second set along `direction`
    /// (usually its centre minus the first set's).
    pub fn new(direction: DVec3) -> Self {
        let d = direction;
        Perturbation {
            directions: [
                d,
                DVec3::new(0.0, d.z, -d.y),
                DVec3::new(-d.z, 0.0, d.x),
                DVec3::new(d.y, -d.x, 0.0),
                DVec3::X,
                DVec3::Y,
                DVec3::Z,
            ],
        }
    }

    /// The sign of n · δ for the normal n = (p1 − p0) × (p2 − p0) of a
    /// triangle: for a point exactly in the triangle's plane, the sign of
    /// orient3d(p0, p1, p2, point) with the triangle moved (with the point
    /// moved instead it is the opposite). orient3d(p0, p1, p2, x) is
    /// −n · (x − p0), so moving the triangle by δ adds n · δ whatever the
    /// point: one answer for every point of the plane, which callers can
    /// keep per triangle.
    pub fn plane_shift_sign(&self, triangle: [DVec3; 3]) -> i8 {
        let [p0, p1, p2] = triangle;
        for w in self.directions {
            if w == DVec3::ZERO {
                continue;
            }
            let mut sum = ExactSum::new();
            add_determinant(
                &mut sum,
                1.0,
                [
                    Column::Difference(p1, p0),
                    Column::Difference(p2, p0),
                    Column::Vector(w),
                ],
            );
            let s = sum.sign();
            if s != 0 {
                return s;
            }
        }
        0
    }

    /// The sign (−1, 0, 1) of Shewchuk's orient3d(p0, p1, p2, p3) =
    /// det[p0 − p3, p1 − p3, p2 − p3] (positive when p3 lies below the
    /// plane of p0, p1, p2, which turn counter-clockwise seen from above)
    /// with every point whose `moved` flag is set translated by δ.
    pub fn orient3d(&self, points: [DVec3; 4], moved: [bool; 4]) -> i8 {
        self.resolve(exact_orient3d(points), points, moved)
    }

    /// The perturbed sign of orient3d(points) given its unperturbed value
    /// `base` ([`exact_orient3d`]), for callers that also need to know
    /// whether the unperturbed points were degenerate.
    pub fn resolve(&self, base: f64, points: [DVec3; 4], moved: [bool; 4]) -> i8 {
        if base != 0.0 || moved.iter().all(|&m| m == moved[0]) {
            return sign(base);
        }
        // det[r0 + t0 δ, r1 + t1 δ, r2 + t2 δ] with r_i = p_i − p3 and
        // t_i = moved_i − moved_3: the part linear in δ is
        // t0 det[δ, r1, r2] + t1 det[r0, δ, r2] + t2 det[r0, r1, δ].
        let shift = |i: usize| moved[i] as i8 - moved[3] as i8;
        let r = [0, 1, 2].map(|i| Column::Difference(points[i], points[3]));
        for w in self.directions {
            if w == DVec3::ZERO {
                continue;
            }
            let mut sum = ExactSum::new();
            for slot in 0..3 {
                let t = shift(slot);
                if t != 0 {
                    let mut columns = r;
                    columns[slot] = Column::Vector(w);
                    add_determinant(&mut sum, t as f64, columns);
                }
            }
            let s = sum.sign();
            if s != 0 {
                return s;
            }
        }
        0
    }
}

/// Shewchuk's orient3d of the unperturbed points: exact in sign, zero
/// exactly when the four points are coplanar.
pub fn exact_orient3d(points: [DVec3; 4]) -> f64 {
    robust::orient3d(
        coord(points[0]),
        coord(points[1]),
        coord(points[2]),
        coord(points[3]),
    )
}

fn coord(p: DVec3) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orient(points: [DVec3; 4]) -> i8 {
        sign(exact_orient3d(points))
    }

    /// Small integer points, moved by a power-of-two multiple of one
    /// direction at a time, stay exact; the sign of the determinant of the
    /// moved points is then the sign of `L · w` for that direction (the
    /// base is zero and the determinant is linear in the shift).
    #[test]
    fn degenerate_signs_are_those_of_the_first_direction_that_decides() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as f64
        };
        let step = 2f64.powi(-20);
        let mut decided_late = 0;
        for round in 0..3000 {
            let mut p = [DVec3::ZERO; 4];
            for q in &mut p {
                *q = DVec3::new(next(9) - 4.0, next(9) - 4.0, next(9) - 4.0);
            }
            // Coplanar by construction in most rounds; every third keeps
            // the four points on one line or with a repeated point.
            let (u, v) = (p[1] - p[0], p[2] - p[0]);
            let (a, b) = (next(5) - 2.0, next(5) - 2.0);
            p[3] = p[0] + u * a + v * b;
            if round % 3 == 0 {
                p[2] = p[0] + u * (next(3) - 1.0);
            }
            let moved = [0, 1, 2, 3].map(|_| next(2) == 1.0);
            let d = match round % 4 {
                0 => DVec3::ZERO,
                1 => DVec3::new(0.0, next(3) + 1.0, 0.0),
                _ => DVec3::new(next(7) - 3.0, next(7) - 3.0, next(7) - 3.0),
            };
            let perturbation = Perturbation::new(d);
            let expected = perturbation
                .directions
                .iter()
                .enumerate()
                .map(|(k, &w)| {
                    let shifted =
                        [0, 1, 2, 3].map(|i| if moved[i] { p[i] + w * step } else { p[i] });
                    (k, orient(shifted))
                })
                .find(|&(_, s)| s != 0);
            assert_eq!(orient(p), 0);
            let got = perturbation.orient3d(p, moved);
            assert_eq!(
                got,
                expected.map_or(0, |(_, s)| s),
                "round {round}: {p:?} {moved:?} {d}"
            );
            if expected.is_some_and(|(k, _)| k > 0) {
                decided_late += 1;
            }
        }
        // The later directions were exercised, not only d.
        assert!(decided_late > 100, "{decided_late}");
    }

    #[test]
    fn a_point_in_a_plane_moves_as_the_plane_shift_sign_says() {
        let perturbation = Perturbation::new(DVec3::new(0.0, 2.0, 0.0));
        // Vertical planes (n ⊥ d), so the later directions decide.
        let planes = [
            [DVec3::ZERO, DVec3::Y, DVec3::Z],
            [DVec3::ZERO, DVec3::Z, DVec3::Y],
            [
                DVec3::new(1.0, 0.0, 1.0),
                DVec3::new(1.0, 3.0, 1.0),
                DVec3::new(-2.0, 0.0, -2.0),
            ],
            [DVec3::ZERO, DVec3::X, DVec3::Z],
        ];
        for plane in planes {
            let n = (plane[1] - plane[0]).cross(plane[2] - plane[0]);
            for x in [plane[0] + plane[1] - plane[2], (plane[1] + plane[2]) * 0.5] {
                assert_eq!(n.dot(x - plane[0]), 0.0);
                let points = [plane[0], plane[1], plane[2], x];
                let with_plane = perturbation.orient3d(points, [true, true, true, false]);
                let with_point = perturbation.orient3d(points, [false, false, false, true]);
                assert_eq!(
                    with_plane,
                    perturbation.plane_shift_sign(plane),
                    "{plane:?}"
                );
                assert_eq!(with_point, -with_plane, "{plane:?}");
                assert_ne!(with_plane, 0);
            }
        }
    }

    #[test]
    fn swapping_the_sets_and_negating_the_direction_changes_nothing() {
        // A point exactly on a plane; the plane's points moved, or the point
        // moved the opposite way.
        let plane = [DVec3::ZERO, DVec3::X, DVec3::Z];
        let p = DVec3::new(0.3, 0.0, 0.2);
        for d in [DVec3::Y, -DVec3::Y, DVec3::new(1.0, 0.0, 0.0), DVec3::ZERO] {
            let points = [plane[0], plane[1], plane[2], p];
            let one = Perturbation::new(d).orient3d(points, [true, true, true, false]);
            let other = Perturbation::new(-d).orient3d(points, [false, false, false, true]);
            if d != DVec3::ZERO {
                assert_eq!(one, other, "{d}");
            }
            assert_ne!(one, 0, "{d}");
        }
        // Moving the plane up (d = +y) leaves the point below it: orient3d
        // of (0, x, z) is counter-clockwise seen from −y, so "below" is +y.
        assert_eq!(
            Perturbation::new(DVec3::Y)
                .orient3d([plane[0], plane[1], plane[2], p], [true, true, true, false]),
            -1
        );
    }
}
