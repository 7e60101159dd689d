//! The `sphere` shape (`docs/design/scenes.md`, "Shape types"): the tessellated
//! sphere of Cheng Yi & Drumwright §V-B, the spinning-sphere and
//! rolling-spheres benchmarks, centred on its model origin: a latitude–longitude
//! polyhedron inscribed in a sphere of the given radius, with a pole vertex
//! at the bottom (0, −r, 0) and at the top (0, r, 0) and `rings` circles of
//! `segments` vertices between them.
//!
//! Ring k (1 … rings) lies at the polar angle φ_k = πk / (rings + 1) from the
//! bottom pole: y = −r cos φ_k, radius r sin φ_k; its vertex j at the angle
//! 2πj / segments in the x–z plane (vertex 0 towards +x), as the frustum's
//! rim. Every vertex is on the sphere, so the polyhedron is convex and is
//! the convex hull of its vertices: each band between two rings is made of
//! isosceles trapezoids (planar: two parallel chords of equal half-angle),
//! each polar cap a fan of triangles.
//!
//! Vertex count. The surface has 2 + rings · segments vertices. A scene asks
//! for a number N; the grid chosen is the one whose count is nearest to N
//! among the grids with roughly square cells (segments between rings + 1
//! and 4 (rings + 1); a square cell has segments = 2 (rings + 1), since a
//! meridian spans π over rings + 1 bands and a parallel 2π over segments),
//! ties going to the squarer cell. N = 50 → 4 × 12, 100 → 7 × 14, 200 →
//! 9 × 22, 1000 → 27 × 37 (1001 vertices: 998 = 2 · 499 has no square-ish
//! grid), 2000 → 27 × 74.
//!
//! A pole at the bottom is what makes the spinning benchmark meaningful: the
//! ideal sphere touches the box in one point on its spin axis, and so does
//! this polyhedron, so an exact method loses no energy to friction there.

use super::reader::ObjectReader;
use super::{Face, Facing, ShapeType, Surface, MAX_SHAPE_VERTICES};
use glam::DVec3;
use serde_json::{json, Map, Value};
use std::f64::consts::{PI, TAU};

pub const TYPE: &str = "sphere";

#[derive(Clone, Debug, PartialEq)]
pub struct Sphere {
    pub radius: f64,
    /// The requested surface vertex count; the grid nearest to it is used.
    pub vertices: u32,
}

impl ShapeType for Sphere {
    fn read(shape: &mut ObjectReader<'_>) -> Result<Self, String> {
        let radius = shape.positive("radius")?;
        let vertices = shape.whole_number(
            "vertices",
            u64::from(MIN_SPHERE_VERTICES),
            MAX_SHAPE_VERTICES as u64,
        )? as u32;
        Ok(Sphere { radius, vertices })
    }

    fn write(&self, shape: &mut Map<String, Value>) {
        shape.insert("radius".into(), json!(self.radius));
        shape.insert("vertices".into(), json!(self.vertices));
    }

    fn parameters(&self) -> (Vec<u32>, Vec<f64>) {
        (vec![self.vertices], vec![self.radius])
    }

    /// Its planar faces (trapezoids and polar triangles) are its faces, as
    /// a box's squares are.
    fn surface(&self) -> Option<Surface> {
        let (vertices, faces) = sphere_polyhedron(self.radius, self.vertices);
        Some(Surface {
            vertices,
            faces: faces.into_iter().map(Face::new).collect(),
            facing: Facing::EitherWay,
            kernel: None,
        })
    }

    #[cfg(test)]
    fn example() -> Self {
        Sphere {
            radius: 0.5,
            vertices: 50,
        }
    }
}

/// Fewest surface vertices of a sphere: one ring of three between the poles.
pub const MIN_SPHERE_VERTICES: u32 = 5;

/// Rings and segments of the latitude–longitude grid for `requested`
/// surface vertices (see the module doc for the rule).
pub fn sphere_grid(requested: u32) -> (u32, u32) {
    let target = i64::from(requested.max(MIN_SPHERE_VERTICES));
    // (distance to the request, how far from square, rings, segments):
    // the smallest in that order wins.
    let mut best: Option<(i64, f64, u32, u32)> = None;
    // A grid with rings ≥ 1 has at least rings (rings + 1) + 2 vertices;
    // past twice the request none can be nearest.
    let mut rings = 0u32;
    loop {
        rings += 1;
        let (low, high) = (rings + 1, 4 * (rings + 1));
        if rings > 1 && 2 + i64::from(rings) * i64::from(low) > 2 * target {
            break;
        }
        let ideal = (target - 2) as f64 / f64::from(rings);
        for segments in [ideal.floor() as u32, ideal.ceil() as u32] {
            let segments = segments.clamp(low.max(3), high);
            let count = 2 + i64::from(rings) * i64::from(segments);
            let squareness = (f64::from(segments) / (2.0 * f64::from(rings + 1)))
                .ln()
                .abs();
            let candidate = ((count - target).abs(), squareness, rings, segments);
            let better = best.is_none_or(|b| {
                (candidate.0, candidate.1, candidate.2).partial_cmp(&(b.0, b.1, b.2))
                    == Some(std::cmp::Ordering::Less)
            });
            if better {
                best = Some(candidate);
            }
        }
    }
    best.map_or((1, 3), |b| (b.2, b.3))
}

/// Number of surface vertices the sphere asked to have `requested` gets.
pub fn sphere_vertex_count(requested: u32) -> u32 {
    let (rings, segments) = sphere_grid(requested);
    2 + rings * segments
}

/// Vertices and planar faces (vertex loops, counter-clockwise seen from
/// outside) of the tessellated sphere, centred at the origin.
pub fn sphere_polyhedron(radius: f64, requested: u32) -> (Vec<DVec3>, Vec<Vec<u32>>) {
    let (rings, segments) = sphere_grid(requested);
    let mut vertices = Vec::with_capacity(2 + (rings * segments) as usize);
    vertices.push(DVec3::new(0.0, -radius, 0.0));
    for k in 1..=rings {
        let polar = PI * f64::from(k) / f64::from(rings + 1);
        let (y, rho) = (-radius * polar.cos(), radius * polar.sin());
        for j in 0..segments {
            let angle = TAU * f64::from(j) / f64::from(segments);
            vertices.push(DVec3::new(rho * angle.cos(), y, rho * angle.sin()));
        }
    }
    let top = vertices.len() as u32;
    vertices.push(DVec3::new(0.0, radius, 0.0));
    let ring = |k: u32, j: u32| 1 + (k - 1) * segments + j % segments;
    // Angles grow from +x towards +z, which is clockwise seen from +y
    // (x × z = −y): so a loop j → j + 1 on a ring runs counter-clockwise
    // seen from below, and a face's loop goes up the meridian j + 1 before
    // coming back down meridian j.
    let mut faces = Vec::with_capacity((segments * (rings + 1)) as usize);
    for j in 0..segments {
        faces.push(vec![0, ring(1, j), ring(1, j + 1)]);
        for k in 1..rings {
            faces.push(vec![
                ring(k, j),
                ring(k + 1, j),
                ring(k + 1, j + 1),
                ring(k, j + 1),
            ]);
        }
        faces.push(vec![top, ring(rings, j + 1), ring(rings, j)]);
    }
    (vertices, faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_rule_gives_the_documented_counts() {
        assert_eq!(sphere_grid(50), (4, 12));
        assert_eq!(sphere_grid(100), (7, 14));
        assert_eq!(sphere_grid(200), (9, 22));
        assert_eq!(sphere_grid(1000), (27, 37));
        assert_eq!(sphere_grid(2000), (27, 74));
        assert_eq!(sphere_vertex_count(5), 5);
        for n in 5..400 {
            let (rings, segments) = sphere_grid(n);
            assert!(segments >= 3 && segments > rings && segments <= 4 * (rings + 1));
            // Never far from the request: a grid with one ring fewer or more
            // is always within reach.
            let count = sphere_vertex_count(n) as i64;
            assert!(
                (count - i64::from(n)).abs() <= (i64::from(n)).max(16) / 8,
                "{n} → {count}"
            );
        }
    }

    #[test]
    fn faces_are_planar_outward_and_convex() {
        for n in [5, 50, 100, 333] {
            let (vertices, faces) = sphere_polyhedron(0.7, n);
            assert_eq!(vertices.len() as u32, sphere_vertex_count(n));
            for face in &faces {
                let p: Vec<DVec3> = face.iter().map(|&i| vertices[i as usize]).collect();
                let normal = (p[1] - p[0]).cross(p[2] - p[0]).normalize();
                assert!(normal.dot(p[0]) > 0.0, "face {face:?} faces inwards");
                let offset = normal.dot(p[0]);
                for q in &p {
                    assert!(
                        (normal.dot(*q) - offset).abs() < 1e-14,
                        "face {face:?} is not planar"
                    );
                }
                for v in &vertices {
                    assert!(normal.dot(*v) <= offset + 1e-14, "not convex at {face:?}");
                }
            }
        }
    }
}
