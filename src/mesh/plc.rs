//! A shape's surface as a piecewise linear complex (PLC): its vertices and
//! its planar polygonal facets, the input TetGen meshes (`docs/design/meshing.md`;
//! the `.poly` format follows TetGen 1.5's manual, section 5.2.2).
//!
//! The facets are the faces of the shape's own surface
//! ([`super::shapes::Surface`]), not our triangles, so that TetGen chooses
//! the surface triangulation as it did for the paper: a box face is one
//! 4-gon, a frustum cap one n-gon (no cap-centre vertex), a prism cap the
//! whole profile. A `mesh` shape is the exception: its authored triangles
//! are its faces, because that triangulation (the internal edges of the
//! tessellated block, the hole block's grid) is what its cases test.

use super::shapes::{Shape, Surface};
use glam::DVec3;
use std::fmt::Write;

/// Vertices and polygonal facets (vertex loops, counter-clockwise seen from
/// outside) of a closed surface.
#[derive(Clone, Debug, PartialEq)]
pub struct Plc {
    pub vertices: Vec<DVec3>,
    pub facets: Vec<Vec<u32>>,
}

impl Plc {
    /// The PLC of a shape, or `None` for a `tetmesh` shape (it is already
    /// tetrahedralised).
    pub fn of_shape(shape: &Shape) -> Option<Plc> {
        shape.surface().map(|surface| Plc::of_surface(&surface))
    }

    /// A surface's vertices and its faces as facets.
    pub fn of_surface(surface: &Surface) -> Plc {
        Plc {
            vertices: surface.vertices.clone(),
            facets: surface.facets(),
        }
    }

    /// The PLC as a TetGen `.poly` file: nodes numbered from 0, one polygon
    /// per facet, no holes, no regions. Coordinates are written in Rust's
    /// shortest round-trip form, so TetGen reads the exact values.
    pub fn to_poly(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "# part 1: nodes\n{} 3 0 0", self.vertices.len());
        for (i, v) in self.vertices.iter().enumerate() {
            let _ = writeln!(text, "{i} {:?} {:?} {:?}", v.x, v.y, v.z);
        }
        let _ = writeln!(text, "# part 2: facets\n{} 0", self.facets.len());
        for facet in &self.facets {
            let corners: Vec<String> = facet.iter().map(u32::to_string).collect();
            let _ = writeln!(text, "1\n{} {}", facet.len(), corners.join(" "));
        }
        text.push_str("# part 3: holes\n0\n# part 4: regions\n0\n");
        text
    }

    /// Volume enclosed by the facets (divergence theorem over a fan of each
    /// facet); positive when the facets face outwards.
    pub fn enclosed_volume(&self) -> f64 {
        self.facets
            .iter()
            .map(|f| {
                let a = self.vertices[f[0] as usize];
                (1..f.len() - 1)
                    .map(|k| {
                        let b = self.vertices[f[k] as usize];
                        let c = self.vertices[f[k + 1] as usize];
                        a.dot(b.cross(c)) / 6.0
                    })
                    .sum::<f64>()
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facets_face_outwards_and_enclose_the_shape() {
        let shapes = Shape::examples();
        for shape in shapes.iter().filter(|s| s.surface().is_some()) {
            let plc = Plc::of_shape(shape).unwrap();
            let cones = shape.build(1e-6).unwrap();
            let volume = plc.enclosed_volume();
            assert!(
                (volume - cones.volume()).abs() < 1e-12 * cones.volume(),
                "{shape:?}: {volume} vs {}",
                cones.volume()
            );
            // A flipped facet would change the enclosed volume above; each
            // facet must also be planar (Newell's normal, right for
            // non-convex facets too).
            for f in &plc.facets {
                let corner = |k: usize| plc.vertices[f[k % f.len()] as usize];
                let normal = (0..f.len())
                    .map(|k| corner(k).cross(corner(k + 1)))
                    .sum::<DVec3>()
                    .normalize();
                for k in 0..f.len() {
                    let d = normal.dot(corner(k) - corner(0));
                    assert!(d.abs() < 1e-12, "{shape:?} facet {f:?} is not planar");
                }
            }
        }
    }
}
