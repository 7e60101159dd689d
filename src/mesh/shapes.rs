//! The shape types of the scene format (design `scenes.md`, "Shape types")
//! and their tetrahedralisation by "cone to kernel": every surface triangle
//! plus one kernel point is a tetrahedron. This keeps the authored surface
//! triangulation exactly (its internal edges and vertices are what several
//! fundamental cases test) and is exact for shapes that are star-shaped with
//! respect to the kernel.

use super::self_intersection::RELATIVE_TOLERANCE;
use super::tetmesh::{tet_volume, MeshError, TetMesh};
use super::triangulate::ear_clip;
use crate::geometry::simple_polygon::first_bad_edge_pair;
use glam::{DVec2, DVec3};
use std::f64::consts::TAU;
use std::fmt;

/// A shape in its model frame. Parameters are validated by the scene loader
/// (which can name the offending key); [`Shape::build`] checks the geometry.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Box {
        size: DVec3,
    },
    Frustum {
        sides: u32,
        bottom_radius: f64,
        top_radius: f64,
        height: f64,
    },
    Pyramid {
        half_width: f64,
        height: f64,
    },
    Wedge {
        half_width: f64,
        height: f64,
        half_length: f64,
    },
    /// A latitude–longitude polyhedron inscribed in a sphere centred at
    /// the origin ([`super::sphere`]); `vertices` is the requested surface
    /// vertex count, the grid nearest to it is used.
    Sphere {
        radius: f64,
        vertices: u32,
    },
    Prism {
        profile: Vec<DVec2>,
        depth: f64,
        kernel: Option<DVec3>,
    },
    Mesh {
        vertices: Vec<DVec3>,
        triangles: Vec<[u32; 3]>,
        kernel: Option<DVec3>,
    },
    TetMesh {
        vertices: Vec<DVec3>,
        tets: Vec<[u32; 4]>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum ShapeError {
    /// The (simple) prism profile is clockwise or degenerate.
    BadProfile,
    /// Edges i and j of the prism profile (edge k runs from point k to
    /// point k + 1) cross, touch or run back along each other.
    ProfileNotSimple {
        edges: (usize, usize),
    },
    TriangleVertexOutOfRange {
        triangle: usize,
        vertex: u32,
    },
    /// An edge of the authored surface is not used exactly once in each
    /// direction.
    SurfaceNotClosed {
        edge: [u32; 2],
        uses: usize,
    },
    SurfaceNotOriented {
        edge: [u32; 2],
    },
    /// The kernel point is not strictly behind this surface triangle.
    KernelDoesNotSeeTriangle {
        triangle: usize,
        kernel: DVec3,
    },
    Mesh(MeshError),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::BadProfile => write!(f, "the profile is not a counter-clockwise polygon (list its points counter-clockwise, seen from +z) or is degenerate"),
            ShapeError::ProfileNotSimple { edges: (i, j) } => write!(f, "the profile is not a simple polygon: its edges {i} and {j} (edge k runs from point k to the next) cross or touch, so the prism would intersect itself"),
            ShapeError::TriangleVertexOutOfRange { triangle, vertex } => write!(f, "triangle {triangle} uses vertex {vertex}, which does not exist"),
            ShapeError::SurfaceNotClosed { edge, uses } => write!(f, "the surface is not closed: edge {edge:?} is used by {uses} triangle(s) instead of 2"),
            ShapeError::SurfaceNotOriented { edge } => write!(f, "the triangles are not consistently oriented at edge {edge:?} (they must all be counter-clockwise seen from outside)"),
            ShapeError::KernelDoesNotSeeTriangle { triangle, kernel } => {
                write!(f, "the kernel point [{}, {}, {}] does not see triangle {triangle} from inside (the shape is not star-shaped about it, or the triangle faces inwards)", kernel.x, kernel.y, kernel.z)
            }
            ShapeError::Mesh(e) => e.fmt(f),
        }
    }
}

/// A closed triangulated surface and the point every triangle is coned to.
struct Surface {
    vertices: Vec<DVec3>,
    triangles: Vec<[u32; 3]>,
    kernel: DVec3,
}

impl Shape {
    /// Tetrahedralises the shape in its model frame.
    pub fn build(&self, flat_angle: f64) -> Result<TetMesh, ShapeError> {
        let surface = match self {
            Shape::TetMesh { vertices, tets } => {
                return TetMesh::new(vertices.clone(), tets.clone(), flat_angle)
                    .map_err(ShapeError::Mesh)
            }
            Shape::Box { size } => convex_surface(box_corners(*size), &BOX_QUADS),
            Shape::Frustum {
                sides,
                bottom_radius,
                top_radius,
                height,
            } => frustum_surface(*sides as usize, *bottom_radius, *top_radius, *height),
            Shape::Pyramid {
                half_width: b,
                height: h,
            } => {
                let v = vec![
                    DVec3::new(-b, 0.0, -b),
                    DVec3::new(*b, 0.0, -b),
                    DVec3::new(*b, 0.0, *b),
                    DVec3::new(-b, 0.0, *b),
                    DVec3::new(0.0, *h, 0.0),
                ];
                convex_surface(
                    v,
                    &[
                        vec![0, 1, 2, 3],
                        vec![0, 1, 4],
                        vec![1, 2, 4],
                        vec![2, 3, 4],
                        vec![3, 0, 4],
                    ],
                )
            }
            Shape::Wedge {
                half_width: b,
                height: h,
                half_length: l,
            } => {
                let v = vec![
                    DVec3::new(-b, 0.0, -l),
                    DVec3::new(*b, 0.0, -l),
                    DVec3::new(*b, 0.0, *l),
                    DVec3::new(-b, 0.0, *l),
                    DVec3::new(0.0, *h, -l),
                    DVec3::new(0.0, *h, *l),
                ];
                convex_surface(
                    v,
                    &[
                        vec![0, 1, 2, 3],
                        vec![0, 1, 4],
                        vec![3, 2, 5],
                        vec![1, 2, 5, 4],
                        vec![0, 3, 5, 4],
                    ],
                )
            }
            Shape::Sphere { radius, vertices } => {
                let (points, faces) = super::sphere::sphere_polyhedron(*radius, *vertices);
                convex_surface(points, &faces)
            }
            Shape::Prism {
                profile,
                depth,
                kernel,
            } => prism_surface(profile, *depth, *kernel)?,
            Shape::Mesh {
                vertices,
                triangles,
                kernel,
            } => Surface {
                kernel: kernel.unwrap_or_else(|| vertex_centroid(vertices)),
                vertices: vertices.clone(),
                triangles: triangles.clone(),
            },
        };
        cone_to_kernel(surface, flat_angle)
    }
}

const BOX_QUADS: [[u32; 4]; 6] = [
    [0, 1, 3, 2],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 3, 7, 6],
    [0, 2, 6, 4],
    [1, 3, 7, 5],
];

fn box_corners(size: DVec3) -> Vec<DVec3> {
    let h = size * 0.5;
    (0..8)
        .map(|i| {
            DVec3::new(
                if i & 1 == 0 { -h.x } else { h.x },
                if i & 2 == 0 { -h.y } else { h.y },
                if i & 4 == 0 { -h.z } else { h.z },
            )
        })
        .collect()
}

fn vertex_centroid(vertices: &[DVec3]) -> DVec3 {
    vertices.iter().copied().sum::<DVec3>() / vertices.len().max(1) as f64
}

/// A convex polyhedron from its planar faces (listed as vertex loops in either
/// direction): each face is fanned from its first vertex into triangles and
/// every triangle is turned to face away from the vertex centroid, which is
/// inside a convex shape. Quads therefore become the two triangles the
/// design asks for.
fn convex_surface(vertices: Vec<DVec3>, faces: &[impl AsRef<[u32]>]) -> Surface {
    let kernel = vertex_centroid(&vertices);
    let mut triangles = Vec::new();
    for face in faces {
        let face = face.as_ref();
        for k in 1..face.len() - 1 {
            let mut t = [face[0], face[k], face[k + 1]];
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            if (b - a).cross(c - a).dot(a - kernel) < 0.0 {
                t.swap(1, 2);
            }
            triangles.push(t);
        }
    }
    Surface {
        vertices,
        triangles,
        kernel,
    }
}

/// n-sided frustum: rim vertex k at angle 2πk/n in the x–z plane (vertex 0 on
/// +x), caps fanned around a cap-centre vertex as the paper's Pillar does.
fn frustum_surface(n: usize, bottom_radius: f64, top_radius: f64, height: f64) -> Surface {
    let mut vertices = Vec::with_capacity(2 * n + 2);
    for (radius, y) in [(bottom_radius, 0.0), (top_radius, height)] {
        for k in 0..n {
            let angle = TAU * k as f64 / n as f64;
            vertices.push(DVec3::new(radius * angle.cos(), y, radius * angle.sin()));
        }
    }
    let (bottom_centre, top_centre) = (2 * n as u32, 2 * n as u32 + 1);
    vertices.push(DVec3::ZERO);
    vertices.push(DVec3::new(0.0, height, 0.0));
    let mut faces: Vec<Vec<u32>> = Vec::new();
    for k in 0..n as u32 {
        let next = (k + 1) % n as u32;
        faces.push(vec![bottom_centre, k, next]);
        faces.push(vec![top_centre, n as u32 + k, n as u32 + next]);
        faces.push(vec![k, next, n as u32 + next, n as u32 + k]);
    }
    // The kernel is the vertex centroid (design default), on the axis and
    // strictly inside.
    convex_surface(vertices, &faces)
}

fn prism_surface(
    profile: &[DVec2],
    depth: f64,
    kernel: Option<DVec3>,
) -> Result<Surface, ShapeError> {
    let n = profile.len();
    let (lo, hi) = profile.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    // Ear clipping assumes a simple polygon; a self-crossing one would
    // give caps that cover part of the profile twice.
    let tol = RELATIVE_TOLERANCE * (hi - lo).length();
    if let Some(edges) = first_bad_edge_pair(profile, tol) {
        return Err(ShapeError::ProfileNotSimple { edges });
    }
    let caps = ear_clip(profile).ok_or(ShapeError::BadProfile)?;
    let half = depth * 0.5;
    let mut vertices: Vec<DVec3> = profile
        .iter()
        .map(|p| DVec3::new(p.x, p.y, -half))
        .collect();
    vertices.extend(profile.iter().map(|p| DVec3::new(p.x, p.y, half)));
    let mut triangles = Vec::new();
    for [a, b, c] in caps {
        let [a, b, c] = [a as u32, b as u32, c as u32];
        // Front cap (z = +d/2) keeps the profile's counter-clockwise order,
        // the back cap is reversed so it faces −z.
        triangles.push([a + n as u32, b + n as u32, c + n as u32]);
        triangles.push([a, c, b]);
    }
    for i in 0..n as u32 {
        let j = (i + 1) % n as u32;
        // For a counter-clockwise profile the outside is to the right of
        // i → j; this quad order makes the normal point there.
        triangles.push([i, j, j + n as u32]);
        triangles.push([i, j + n as u32, i + n as u32]);
    }
    let kernel = kernel.unwrap_or_else(|| vertex_centroid(&vertices));
    Ok(Surface {
        vertices,
        triangles,
        kernel,
    })
}

fn check_closed_oriented(surface: &Surface) -> Result<(), ShapeError> {
    let mut half_edges: Vec<([u32; 2], bool)> = Vec::with_capacity(surface.triangles.len() * 3);
    for (t, tri) in surface.triangles.iter().enumerate() {
        if let Some(&v) = tri.iter().find(|&&v| v as usize >= surface.vertices.len()) {
            return Err(ShapeError::TriangleVertexOutOfRange {
                triangle: t,
                vertex: v,
            });
        }
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            half_edges.push(([a.min(b), a.max(b)], a < b));
        }
    }
    half_edges.sort_unstable();
    let mut i = 0;
    while i < half_edges.len() {
        let mut j = i + 1;
        while j < half_edges.len() && half_edges[j].0 == half_edges[i].0 {
            j += 1;
        }
        if j - i != 2 {
            return Err(ShapeError::SurfaceNotClosed {
                edge: half_edges[i].0,
                uses: j - i,
            });
        }
        if half_edges[i].1 == half_edges[i + 1].1 {
            return Err(ShapeError::SurfaceNotOriented {
                edge: half_edges[i].0,
            });
        }
        i = j;
    }
    Ok(())
}

fn cone_to_kernel(surface: Surface, flat_angle: f64) -> Result<TetMesh, ShapeError> {
    check_closed_oriented(&surface)?;
    let Surface {
        mut vertices,
        triangles,
        kernel,
    } = surface;
    let scale = super::tetmesh::bounding_diagonal(&vertices);
    let k = vertices.len() as u32;
    for (t, tri) in triangles.iter().enumerate() {
        let [a, b, c] = tri.map(|i| vertices[i as usize]);
        let volume = tet_volume(kernel, a, b, c);
        if volume.is_nan() || volume <= 1e-12 * scale * scale * scale {
            return Err(ShapeError::KernelDoesNotSeeTriangle {
                triangle: t,
                kernel,
            });
        }
    }
    vertices.push(kernel);
    // Local vertex 0 is the kernel, so local face 0 (vertices 1, 2, 3) is the
    // authored triangle with its authored orientation.
    let tets = triangles.iter().map(|&[a, b, c]| [k, a, b, c]).collect();
    TetMesh::new(vertices, tets, flat_angle).map_err(ShapeError::Mesh)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::mesh::EdgeKind;

    const FLAT: f64 = 1e-6;

    /// One shape of every parametric kind, the prism non-convex (a crack
    /// profile): the fixture the mesh tests share.
    pub(crate) fn all_shapes() -> Vec<Shape> {
        vec![
            Shape::Box {
                size: DVec3::new(3.0, 0.3, 2.0),
            },
            Shape::Frustum {
                sides: 6,
                bottom_radius: 0.25,
                top_radius: 0.2,
                height: 0.21,
            },
            Shape::Pyramid {
                half_width: 0.8,
                height: 2.4,
            },
            Shape::Wedge {
                half_width: 0.8,
                height: 2.4,
                half_length: 1.6,
            },
            crack_prism(),
            Shape::Sphere {
                radius: 0.5,
                vertices: 50,
            },
        ]
    }

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
    pub(crate) fn crack_prism() -> Shape {
        Shape::Prism {
            profile: crack_profile(),
            depth: 4.0,
            kernel: Some(DVec3::new(0.0, -0.25, 0.0)),
        }
    }

    #[test]
    fn every_builtin_shape_is_a_closed_outward_sphere() {
        for shape in all_shapes() {
            let mesh = shape
                .build(FLAT)
                .unwrap_or_else(|e| panic!("{shape:?}: {e}"));
            assert!(
                (mesh.surface_enclosed_volume() - mesh.volume()).abs() < 1e-12 * mesh.volume(),
                "{shape:?}"
            );
        }
    }

    #[test]
    fn box_has_twelve_triangles_and_six_flat_diagonals() {
        let mesh = Shape::Box { size: DVec3::ONE }.build(FLAT).unwrap();
        assert_eq!(mesh.surface_faces.len(), 12);
        assert_eq!(
            mesh.surface_edges
                .iter()
                .filter(|e| e.kind == EdgeKind::Flat)
                .count(),
            6
        );
        assert_eq!(
            mesh.surface_edges
                .iter()
                .filter(|e| e.kind == EdgeKind::Convex)
                .count(),
            12
        );
    }

    #[test]
    fn crack_groove_edge_is_concave() {
        let mesh = all_shapes()[4].build(FLAT).unwrap();
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

    #[test]
    fn open_mesh_and_bad_kernel_are_rejected() {
        let v = vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
        let open = Shape::Mesh {
            vertices: v.clone(),
            triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2]],
            kernel: None,
        };
        assert!(matches!(
            open.build(FLAT),
            Err(ShapeError::SurfaceNotClosed { .. })
        ));
        let outside = Shape::Mesh {
            vertices: v,
            triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
            kernel: Some(DVec3::splat(2.0)),
        };
        assert!(matches!(
            outside.build(FLAT),
            Err(ShapeError::KernelDoesNotSeeTriangle { .. })
        ));
    }
}
