//! Axis-aligned bounding boxes: the broad phase, skipping features far from
//! the other body, and the nodes of [`super::bvh::Bvh`].

use glam::DVec3;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub lo: DVec3,
    pub hi: DVec3,
}

impl Aabb {
    /// The smallest box holding `points` (an inverted, empty box for none).
    pub fn of(points: &[DVec3]) -> Aabb {
        points.iter().fold(Aabb::EMPTY, |b, &p| Aabb {
            lo: b.lo.min(p),
            hi: b.hi.max(p),
        })
    }

    /// The box that holds nothing: the neutral element of [`Aabb::union`].
    pub const EMPTY: Aabb = Aabb {
        lo: DVec3::splat(f64::INFINITY),
        hi: DVec3::splat(f64::NEG_INFINITY),
    };

    pub fn inflated(self, by: f64) -> Aabb {
        Aabb {
            lo: self.lo - DVec3::splat(by),
            hi: self.hi + DVec3::splat(by),
        }
    }

    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.lo.cmple(other.hi).all() && other.lo.cmple(self.hi).all()
    }

    pub fn contains(&self, p: DVec3) -> bool {
        self.lo.cmple(p).all() && p.cmple(self.hi).all()
    }

    pub fn intersection(&self, other: &Aabb) -> Aabb {
        Aabb {
            lo: self.lo.max(other.lo),
            hi: self.hi.min(other.hi),
        }
    }

    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    pub fn center(&self) -> DVec3 {
        (self.lo + self.hi) * 0.5
    }

    /// Squared distance from `p` to the box (0 inside): a lower bound on
    /// the squared distance from `p` to anything the box holds.
    pub fn distance_squared_to(&self, p: DVec3) -> f64 {
        let outside = (self.lo - p).max(p - self.hi).max(DVec3::ZERO);
        outside.length_squared()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_to_a_box_is_zero_inside_and_euclidean_outside() {
        let b = Aabb::of(&[DVec3::ZERO, DVec3::ONE]);
        assert_eq!(b.distance_squared_to(DVec3::splat(0.5)), 0.0);
        assert_eq!(b.distance_squared_to(DVec3::new(2.0, 0.5, 0.5)), 1.0);
        assert_eq!(b.distance_squared_to(DVec3::new(-1.0, 2.0, 0.5)), 2.0);
        assert!(!Aabb::of(&[]).contains(DVec3::ZERO));
    }
}
