//! A shape's surface as a piecewise linear complex (PLC): its vertices and
//! its planar polygonal facets, the input TetGen meshes (design `meshes.md`;
//! the `.poly` format follows TetGen 1.5's manual, section 5.2.2).
//!
//! Facets are the shape's planar faces, not our triangles, so that TetGen
//! chooses the surface triangulation as it did for the paper: a box face is
//! one 4-gon, a frustum cap one n-gon (no cap-centre vertex), a prism cap
//! the whole profile. A `mesh` shape is the exception: its authored
//! triangles are its facets, because that triangulation (the internal
//! edges of the tessellated block, the hole block's grid) is what its cases
//! test.

use super::shapes::Shape;
use glam::DVec3;
use std::f64::consts::TAU;
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
        Some(match shape {
            Shape::TetMesh { .. } => return None,
            Shape::Box { size } => {
                let h = *size * 0.5;
                let vertices = (0..8)
                    .map(|i| {
                        DVec3::new(
                            if i & 1 == 0 { -h.x } else { h.x },
                            if i & 2 == 0 { -h.y } else { h.y },
                            if i & 4 == 0 { -h.z } else { h.z },
                        )
                    })
                    .collect();
                let facets = [
                    [0, 2, 3, 1],
                    [4, 5, 7, 6],
                    [0, 1, 5, 4],
                    [2, 6, 7, 3],
                    [0, 4, 6, 2],
                    [1, 3, 7, 5],
                ];
                Plc {
                    vertices,
                    facets: facets.iter().map(|f| f.to_vec()).collect(),
                }
            }
            Shape::Frustum {
                sides,
                bottom_radius,
                top_radius,
                height,
            } => {
                let n = *sides;
                let mut vertices = Vec::with_capacity(2 * n as usize);
                for (radius, y) in [(*bottom_radius, 0.0), (*top_radius, *height)] {
                    for k in 0..n {
                        let angle = TAU * f64::from(k) / f64::from(n);
                        vertices.push(DVec3::new(radius * angle.cos(), y, radius * angle.sin()));
                    }
                }
                // Vertex k runs from +x towards +z, clockwise seen from +y
                // (x × z = −y): the bottom cap keeps that order and the top
                // reverses it.
                let mut facets = vec![(0..n).collect::<Vec<u32>>(), (n..2 * n).rev().collect()];
                for k in 0..n {
                    let next = (k + 1) % n;
                    facets.push(vec![k, n + k, n + next, next]);
                }
                Plc { vertices, facets }
            }
            Shape::Pyramid {
                half_width: b,
                height: h,
            } => Plc {
                vertices: vec![
                    DVec3::new(-b, 0.0, -b),
                    DVec3::new(*b, 0.0, -b),
                    DVec3::new(*b, 0.0, *b),
                    DVec3::new(-b, 0.0, *b),
                    DVec3::new(0.0, *h, 0.0),
                ],
                facets: vec![
                    vec![0, 1, 2, 3],
                    vec![1, 0, 4],
                    vec![2, 1, 4],
                    vec![3, 2, 4],
                    vec![0, 3, 4],
                ],
            },
            Shape::Wedge {
                half_width: b,
                height: h,
                half_length: l,
            } => Plc {
                vertices: vec![
                    DVec3::new(-b, 0.0, -l),
                    DVec3::new(*b, 0.0, -l),
                    DVec3::new(*b, 0.0, *l),
                    DVec3::new(-b, 0.0, *l),
                    DVec3::new(0.0, *h, -l),
                    DVec3::new(0.0, *h, *l),
                ],
                facets: vec![
                    vec![0, 1, 2, 3],
                    vec![1, 0, 4],
                    vec![3, 2, 5],
                    vec![2, 1, 4, 5],
                    vec![0, 3, 5, 4],
                ],
            },
            Shape::Sphere { radius, vertices } => {
                // Its planar faces (trapezoids and polar triangles) are the
                // facets, as a box's squares are.
                let (vertices, facets) = super::sphere::sphere_polyhedron(*radius, *vertices);
                Plc { vertices, facets }
            }
            Shape::Prism { profile, depth, .. } => {
                let n = profile.len() as u32;
                let half = depth * 0.5;
                let mut vertices: Vec<DVec3> = profile
                    .iter()
                    .map(|p| DVec3::new(p.x, p.y, -half))
                    .collect();
                vertices.extend(profile.iter().map(|p| DVec3::new(p.x, p.y, half)));
                // The front cap (z = +d/2) keeps the profile's
                // counter-clockwise order; the back cap faces −z.
                let mut facets = vec![(n..2 * n).collect::<Vec<u32>>(), (0..n).rev().collect()];
                for i in 0..n {
                    let j = (i + 1) % n;
                    facets.push(vec![i, j, j + n, i + n]);
                }
                Plc { vertices, facets }
            }
            Shape::Mesh {
                vertices,
                triangles,
                ..
            } => Plc {
                vertices: vertices.clone(),
                facets: triangles.iter().map(|t| t.to_vec()).collect(),
            },
        })
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
        let shapes = crate::mesh::shapes::tests::all_shapes();
        for shape in shapes {
            let plc = Plc::of_shape(&shape).unwrap();
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
