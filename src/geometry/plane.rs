//! A plane with an in-plane orthonormal frame, for projecting 3D points to 2D
//! (contact regions, area coverage) and back.

use glam::{DVec2, DVec3};

/// Two unit vectors that complete `n` (unit) to a right-handed orthonormal
/// basis `(t1, t2, n)`. Deterministic and continuous away from the pole
/// `n = -z`, which is all that tangent frames and projections need
/// (Duff et al., "Building an Orthonormal Basis, Revisited", JCGT 2017).
pub fn orthonormal_basis(n: DVec3) -> (DVec3, DVec3) {
    let sign = 1.0_f64.copysign(n.z);
    let a = -1.0 / (sign + n.z);
    let b = n.x * n.y * a;
    let t1 = DVec3::new(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x);
    let t2 = DVec3::new(b, sign + n.y * n.y * a, -n.y);
    (t1, t2)
}

/// A plane through `origin` with unit `normal` and in-plane axes `u`, `v`
/// such that `(u, v, normal)` is right-handed: a counter-clockwise polygon
/// seen from the side `normal` points to stays counter-clockwise in 2D.
#[derive(Clone, Copy, Debug)]
pub struct PlaneFrame {
    pub origin: DVec3,
    pub normal: DVec3,
    pub u: DVec3,
    pub v: DVec3,
}

impl PlaneFrame {
    pub fn new(origin: DVec3, normal: DVec3) -> Self {
        let (u, v) = orthonormal_basis(normal);
        PlaneFrame {
            origin,
            normal,
            u,
            v,
        }
    }

    /// Signed distance of `p` from the plane along `normal`.
    pub fn distance(&self, p: DVec3) -> f64 {
        (p - self.origin).dot(self.normal)
    }

    pub fn to_2d(&self, p: DVec3) -> DVec2 {
        let d = p - self.origin;
        DVec2::new(d.dot(self.u), d.dot(self.v))
    }

    pub fn to_3d(&self, q: DVec2) -> DVec3 {
        self.origin + self.u * q.x + self.v * q.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basis_is_orthonormal_and_right_handed_for_many_normals() {
        let normals = [
            DVec3::X,
            DVec3::Y,
            DVec3::Z,
            -DVec3::X,
            -DVec3::Y,
            -DVec3::Z,
            DVec3::new(1.0, 2.0, -3.0).normalize(),
            DVec3::new(-1e-9, 1e-9, -1.0).normalize(),
        ];
        for n in normals {
            let (t1, t2) = orthonormal_basis(n);
            assert!((t1.length() - 1.0).abs() < 1e-12, "{n}");
            assert!((t2.length() - 1.0).abs() < 1e-12, "{n}");
            assert!(t1.dot(t2).abs() < 1e-12 && t1.dot(n).abs() < 1e-12, "{n}");
            assert!((t1.cross(t2) - n).length() < 1e-12, "{n}");
        }
    }

    #[test]
    fn plane_projection_round_trips() {
        let f = PlaneFrame::new(DVec3::new(1.0, 2.0, 3.0), DVec3::new(0.0, 0.6, 0.8));
        let p = f.to_3d(DVec2::new(0.3, -0.7));
        assert!(f.distance(p).abs() < 1e-12);
        assert!((f.to_2d(p) - DVec2::new(0.3, -0.7)).length() < 1e-12);
    }
}
