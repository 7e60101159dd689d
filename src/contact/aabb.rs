//! Axis-aligned bounding boxes for the broad phase and for skipping features
//! far from the other body.

use glam::DVec3;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub lo: DVec3,
    pub hi: DVec3,
}

impl Aabb {
    pub fn of(points: &[DVec3]) -> Aabb {
        let (lo, hi) = crate::mesh::tetmesh::bounds(points);
        Aabb { lo, hi }
    }

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
}
