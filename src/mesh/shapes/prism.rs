//! The `prism` shape (`docs/design/scenes.md`, "Shape types"): a simple polygon
//! in the x–y plane (counter-clockwise seen from +z; it may be non-convex,
//! as the crack block's is) extruded along z, centred on z = 0. Its caps
//! are the whole profile; the cone mesh triangulates them by ear clipping.

use super::super::self_intersection::RELATIVE_TOLERANCE;
use super::super::triangulate::ear_clip;
use super::reader::ObjectReader;
use super::surface::Triangulation;
use super::{xyz, Face, Facing, ShapeError, ShapeType, Surface};
use crate::geometry::simple_polygon::first_bad_edge_pair;
use crate::mesh::TetMesh;
use glam::{DVec2, DVec3};
use serde_json::{json, Map, Value};

pub const TYPE: &str = "prism";

/// Most points of one prism profile (its triangulation costs their square).
pub const MAX_PROFILE_POINTS: usize = 2_000;

#[derive(Clone, Debug, PartialEq)]
pub struct Prism {
    pub profile: Vec<DVec2>,
    pub depth: f64,
    pub kernel: Option<DVec3>,
}

impl Prism {
    /// The back vertices (z = −d/2) then the front ones, each in profile
    /// order; the front cap, the back cap, then side i from profile point
    /// i to i + 1. The front cap keeps the profile's counter-clockwise
    /// order; the back cap is reversed so it faces −z. For a
    /// counter-clockwise profile the outside is to the right of i → i + 1,
    /// which the sides' order faces.
    fn caps_and_sides(&self) -> Surface {
        let n = self.profile.len() as u32;
        let half = self.depth * 0.5;
        let mut vertices: Vec<DVec3> = self
            .profile
            .iter()
            .map(|p| DVec3::new(p.x, p.y, -half))
            .collect();
        vertices.extend(self.profile.iter().map(|p| DVec3::new(p.x, p.y, half)));
        let mut faces = vec![
            Face::new((n..2 * n).collect()),
            Face::new((0..n).rev().collect()),
        ];
        faces.extend(Face::band(n));
        Surface {
            vertices,
            faces,
            facing: Facing::Outward,
            kernel: self.kernel,
        }
    }
}

impl ShapeType for Prism {
    fn read(shape: &mut ObjectReader<'_>) -> Result<Self, String> {
        let profile = shape.vec2_list("profile")?;
        if profile.len() > MAX_PROFILE_POINTS {
            return Err(format!(
                "{}: at most {} points are supported, got {}",
                shape.key_path("profile"),
                MAX_PROFILE_POINTS,
                profile.len()
            ));
        }
        if profile.len() < 3 {
            return Err(format!(
                "{}: needs at least 3 points, got {}",
                shape.key_path("profile"),
                profile.len()
            ));
        }
        Ok(Prism {
            profile,
            depth: shape.positive("depth")?,
            kernel: shape.optional_vec3("kernel")?,
        })
    }

    fn write(&self, shape: &mut Map<String, Value>) {
        let profile: Vec<Value> = self.profile.iter().map(|p| json!([p.x, p.y])).collect();
        shape.insert("profile".into(), json!(profile));
        shape.insert("depth".into(), json!(self.depth));
        if let Some(kernel) = self.kernel {
            shape.insert("kernel".into(), xyz(kernel));
        }
    }

    fn parameters(&self) -> (Vec<u32>, Vec<f64>) {
        let profile = self.profile.iter().flat_map(|p| [p.x, p.y]);
        (vec![], profile.chain([self.depth]).collect())
    }

    fn surface(&self) -> Option<Surface> {
        Some(self.caps_and_sides())
    }

    /// Cones from the caps ear-clipped (each ear's front triangle, then its
    /// back one) and the sides fanned.
    fn build(&self, flat_angle: f64) -> Result<TetMesh, ShapeError> {
        let (lo, hi) = self.profile.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        // Ear clipping assumes a simple polygon; a self-crossing one would
        // give caps that cover part of the profile twice.
        let tol = RELATIVE_TOLERANCE * (hi - lo).length();
        if let Some(edges) = first_bad_edge_pair(&self.profile, tol) {
            return Err(ShapeError::ProfileNotSimple { edges });
        }
        let ears = ear_clip(&self.profile).ok_or(ShapeError::BadProfile)?;
        let surface = self.caps_and_sides();
        let n = self.profile.len() as u32;
        let mut triangles = Vec::new();
        for [a, b, c] in ears {
            let [a, b, c] = [a as u32, b as u32, c as u32];
            triangles.push([a + n, b + n, c + n]);
            triangles.push([a, c, b]);
        }
        triangles.extend(surface.faces[2..].iter().flat_map(Face::fan));
        let kernel = surface.kernel();
        Triangulation {
            vertices: surface.vertices,
            triangles,
            kernel,
        }
        .cone(flat_angle)
    }

    #[cfg(test)]
    fn example() -> Self {
        tests::crack_prism()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::mesh::EdgeKind;

    /// The profile of the crack block: a rectangle with a V cut into its
    /// top, the non-convex polygon the mesh tests share.
    pub(crate) fn crack_profile() -> Vec<DVec2> {
        [
            (-1.0, -0.5),
            (1.0, -0.5),
            (1.0, 0.5),
            (0.5, 0.5),
            (0.0, 0.0),
            (-0.5, 0.5),
            (-1.0, 0.5),
        ]
        .iter()
        .map(|&(x, y)| DVec2::new(x, y))
        .collect()
    }

    /// The crack profile extruded 4 m, coned to a kernel below the V.
    pub(crate) fn crack_prism() -> Prism {
        Prism {
            profile: crack_profile(),
            depth: 4.0,
            kernel: Some(DVec3::new(0.0, -0.25, 0.0)),
        }
    }

    #[test]
    /// Ear clipping covers the non-convex profile exactly, with no
    /// flipped triangle.
    fn crack_profile_is_covered_exactly() {
        let profile = crack_profile();
        let tris = ear_clip(&profile).unwrap();
        assert_eq!(tris.len(), 5);
        let area: f64 = tris
            .iter()
            .map(|t| crate::geometry::polygon_area_2d(&t.map(|i| profile[i])))
            .sum();
        assert!((area - crate::geometry::polygon_area_2d(&profile)).abs() < 1e-12);
        assert!(tris
            .iter()
            .all(|t| crate::geometry::polygon_area_2d(&t.map(|i| profile[i])) > 0.0));
    }

    #[test]
    fn crack_groove_edge_is_concave() {
        let mesh = crack_prism().build(1e-6).unwrap();
        let concave: Vec<_> = mesh
            .surface_edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Concave)
            .collect();
        // The groove bottom along z is the only concave line; it is one edge.
        assert_eq!(concave.len(), 1);
        let [a, b] = concave[0].vertices.map(|v| mesh.vertices[v as usize]);
        assert!(
            a.x.abs() < 1e-15 && a.y.abs() < 1e-15 && b.x.abs() < 1e-15 && (a.z - b.z).abs() == 4.0
        );
        assert!((concave[0].dihedral - 1.5 * std::f64::consts::PI).abs() < 1e-12);
    }
}
