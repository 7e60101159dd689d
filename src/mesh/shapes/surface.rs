//! A shape's surface, declared once by its type: vertices and planar
//! polygonal faces. Both meshes of a body come from it (design
//! `docs/design/meshing.md`): its triangles coned to a kernel point ([`Triangulation`],
//! the cone mesher) and its faces as TetGen's facets ([`Surface::facets`],
//! the piecewise linear complex TetGen meshes).

use super::super::tetmesh::{bounding_diagonal, tet_volume, TetMesh};
use super::ShapeError;
use glam::DVec3;

/// A closed surface of planar polygonal faces.
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    pub vertices: Vec<DVec3>,
    pub faces: Vec<Face>,
    /// Which way the faces' corners run.
    pub facing: Facing,
    /// The point its triangles are coned to; `None`: the vertex centroid
    /// (design default), inside a convex shape.
    pub kernel: Option<DVec3>,
}

/// Which way the faces of a [`Surface`] run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    /// Counter-clockwise seen from outside, every one.
    Outward,
    /// Either way: the shape is convex, and each face (each of its
    /// triangles for the cone mesher) is turned to face away from the
    /// kernel, which is inside.
    EitherWay,
}

/// One planar face: its corners in order around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Face {
    /// The cone mesher fans the face from its first corner, in this order.
    pub corners: Vec<u32>,
    /// The corner (an index into `corners`) TetGen's facet begins at. Where
    /// a facet begins changes TetGen's output, and the committed meshes
    /// were made from facets that begin where these say.
    pub facet_start: usize,
}

impl Face {
    /// A face whose TetGen facet begins at its first corner.
    pub fn new(corners: Vec<u32>) -> Face {
        Face {
            corners,
            facet_start: 0,
        }
    }

    /// The same face, its TetGen facet beginning at corner `start`.
    pub fn facet_from(self, start: usize) -> Face {
        Face {
            facet_start: start,
            ..self
        }
    }

    /// The n quads that join a loop of vertices 0 … n − 1 to the loop
    /// n … 2n − 1 beside it, vertex k to vertex n + k: quad k runs k,
    /// k + 1, n + k + 1, n + k (the sides of a prism or a frustum).
    pub fn band(n: u32) -> impl Iterator<Item = Face> {
        (0..n).map(move |k| {
            let next = (k + 1) % n;
            Face::new(vec![k, next, n + next, n + k])
        })
    }

    /// Its fan from the first corner: triangles in the corners' order.
    pub fn fan(&self) -> impl Iterator<Item = [u32; 3]> + '_ {
        let c = &self.corners;
        (1..c.len().saturating_sub(1)).map(move |k| [c[0], c[k], c[k + 1]])
    }
}

impl Surface {
    /// The point its triangles are coned to.
    pub fn kernel(&self) -> DVec3 {
        self.kernel
            .unwrap_or_else(|| vertex_centroid(&self.vertices))
    }

    /// Whether the triangle is to be turned: it runs clockwise seen from
    /// outside, judged by the kernel, on a surface whose faces run either
    /// way. Outward faces are never turned (nor their corners looked at:
    /// an authored mesh may name a vertex it lacks, which
    /// [`Triangulation::cone`] reports).
    fn faces_kernel(&self, triangle: [u32; 3], kernel: DVec3) -> bool {
        if self.facing == Facing::Outward {
            return false;
        }
        let [a, b, c] = triangle.map(|i| self.vertices[i as usize]);
        (b - a).cross(c - a).dot(a - kernel) < 0.0
    }

    /// Its triangles: every face fanned from its first corner, each
    /// triangle turned outward where the faces run either way. Quads
    /// therefore become the two triangles the design asks for.
    pub fn fans(self) -> Triangulation {
        let kernel = self.kernel();
        let mut triangles = Vec::new();
        for face in &self.faces {
            for mut t in face.fan() {
                if self.faces_kernel(t, kernel) {
                    t.swap(1, 2);
                }
                triangles.push(t);
            }
        }
        Triangulation {
            vertices: self.vertices,
            triangles,
            kernel,
        }
    }

    /// Its faces as TetGen's facets: each counter-clockwise seen from
    /// outside (a face that runs the other way is reversed), beginning at
    /// its `facet_start` corner.
    pub fn facets(&self) -> Vec<Vec<u32>> {
        let kernel = self.kernel();
        self.faces
            .iter()
            .map(|face| {
                let c = &face.corners;
                let mut facet = c.clone();
                if self.faces_kernel([c[0], c[1], c[2]], kernel) {
                    facet.reverse();
                }
                let start = facet.iter().position(|&v| v == c[face.facet_start]);
                facet.rotate_left(start.unwrap_or(0));
                facet
            })
            .collect()
    }
}

/// A closed triangulated surface and the point every triangle is coned to.
#[derive(Clone, Debug, PartialEq)]
pub struct Triangulation {
    pub vertices: Vec<DVec3>,
    pub triangles: Vec<[u32; 3]>,
    pub kernel: DVec3,
}

impl Triangulation {
    /// Its cone mesh: one tetrahedron per triangle, the kernel its first
    /// vertex. The surface must be closed and consistently oriented, and
    /// the kernel must see every triangle from inside.
    pub fn cone(self, flat_angle: f64) -> Result<TetMesh, ShapeError> {
        self.check_closed_oriented()?;
        let Triangulation {
            mut vertices,
            triangles,
            kernel,
        } = self;
        let scale = bounding_diagonal(&vertices);
        let k = vertices.len() as u32;
        for (t, tri) in triangles.iter().enumerate() {
            let [a, b, c] = tri.map(|i| vertices[i as usize]);
            // The kernel's height above the triangle's plane, against the
            // shape's size: a slender shape (a 10 km × 1 mm × 1 mm rod) has
            // tiny cone volumes that are still well posed.
            let volume = tet_volume(kernel, a, b, c);
            // (A triangle of zero area gives a NaN height: flat.)
            let height = || 6.0 * volume / (b - a).cross(c - a).length();
            let flat = volume <= 1e-12 * scale * scale * scale
                && height().partial_cmp(&(1e-9 * scale)) != Some(std::cmp::Ordering::Greater);
            if volume.is_nan() || volume <= 0.0 || flat {
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

    fn check_closed_oriented(&self) -> Result<(), ShapeError> {
        let mut half_edges: Vec<([u32; 2], bool)> = Vec::with_capacity(self.triangles.len() * 3);
        for (t, tri) in self.triangles.iter().enumerate() {
            if let Some(&v) = tri.iter().find(|&&v| v as usize >= self.vertices.len()) {
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
}

/// The mean of the vertices: the default kernel.
pub(super) fn vertex_centroid(vertices: &[DVec3]) -> DVec3 {
    vertices.iter().copied().sum::<DVec3>() / vertices.len().max(1) as f64
}
