//! The shape types of the scene format (`docs/design/scenes.md`, "Shape types"),
//! one file each, and their registry.
//!
//! A shape type's file holds everything about it: its parameters as the
//! scene file gives them (read with messages that name the key, and written
//! back), its surface as planar polygonal faces ([`Surface`]) and its
//! tetrahedra. From that surface come both meshes a body can have: the
//! cone mesh, by "cone to kernel" (every surface triangle plus one kernel
//! point is a tetrahedron), and TetGen's input ([`super::plc::Plc`]: the
//! faces themselves are its facets). Coning keeps the authored surface
//! triangulation exactly (its internal edges and vertices are what several
//! fundamental cases test) and is exact for shapes that are star-shaped
//! with respect to the kernel.
//!
//! The registry is the one list of shape types: the scene parser, the
//! committed-mesh lookup, the error messages and the tests all go through
//! [`Shape`], which the `registry!` line below makes. Adding a shape type
//! is its file, with a `TYPE` (its `type` in scene files), a struct of its
//! parameters and an `impl ShapeType` for it, plus its line in the
//! registry; nothing else.

pub mod reader;
pub mod surface;

use super::tetmesh::{MeshError, TetMesh};
use reader::ObjectReader;
use serde_json::{json, Map, Value};
use std::fmt;
pub use surface::{Face, Facing, Surface, Triangulation};

/// Most points of one shape: the vertices of a `mesh` or `tetmesh`, the
/// surface vertices of a `sphere`.
pub const MAX_SHAPE_VERTICES: usize = 20_000;

/// One shape type of the scene format, implemented in its own file.
pub trait ShapeType {
    /// Reads the type's own keys of a shape object (its `type` is read).
    fn read(shape: &mut ObjectReader<'_>) -> Result<Self, String>
    where
        Self: Sized;

    /// Writes those keys back, in their shortest round-trip form, so that
    /// reading the text back gives the very same shape, bit for bit.
    fn write(&self, shape: &mut Map<String, Value>);

    /// The whole numbers and the real numbers its surface depends on (not
    /// a kernel, which only matters to cones, so that a TetGen mesh serves
    /// the shape with any kernel).
    fn parameters(&self) -> (Vec<u32>, Vec<f64>);

    /// Its surface in its model frame, as planar polygonal faces: what
    /// TetGen meshes. `None` for a shape given as tetrahedra.
    fn surface(&self) -> Option<Surface>;

    /// Its cone mesh in its model frame. The default fans every face of
    /// [`ShapeType::surface`]; a type whose cone mesh triangulates a face
    /// otherwise (a frustum's caps, a prism's) or that has no surface of
    /// faces says so here.
    fn build(&self, flat_angle: f64) -> Result<TetMesh, ShapeError> {
        self.surface()
            .expect("a shape type without a surface defines its own build")
            .fans()
            .cone(flat_angle)
    }

    /// Whether it narrows to a tip or a smaller cap (frusta, pyramids):
    /// TetGen's paper-fine meshes bound its tetrahedra's volume tighter.
    fn is_conical(&self) -> bool {
        false
    }

    /// One shape of the type, for the tests that check every registered
    /// type.
    #[cfg(test)]
    fn example() -> Self
    where
        Self: Sized;
}

/// Declares the shape type modules and makes [`Shape`], one variant per
/// type in this order, with what dispatches to the types and [`TYPES`].
macro_rules! registry {
    ($($module:ident::$name:ident),* $(,)?) => {
        $(pub mod $module; pub use $module::$name;)*

        /// A shape in its model frame: one of the registered types.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Shape {
            $($name($name),)*
        }

        $(impl From<$name> for Shape {
            fn from(shape: $name) -> Shape {
                Shape::$name(shape)
            }
        })*

        /// The `type` of every shape type, in registry order.
        pub const TYPES: &[&str] = &[$($module::TYPE,)*];

        impl Shape {
            fn of_type(&self) -> &dyn ShapeType {
                match self {
                    $(Shape::$name(shape) => shape,)*
                }
            }

            /// Its `type` in scene files.
            pub fn type_name(&self) -> &'static str {
                match self {
                    $(Shape::$name(_) => $module::TYPE,)*
                }
            }

            fn read_type(
                type_name: &str,
                shape: &mut ObjectReader<'_>,
            ) -> Option<Result<Shape, String>> {
                $(if type_name == $module::TYPE {
                    return Some($name::read(shape).map(Shape::$name));
                })*
                None
            }

            /// One shape of every registered type.
            #[cfg(test)]
            pub(crate) fn examples() -> Vec<Shape> {
                vec![$(Shape::$name($name::example()),)*]
            }
        }
    };
}

registry!(
    cuboid::Cuboid,
    frustum::Frustum,
    pyramid::Pyramid,
    wedge::Wedge,
    sphere::Sphere,
    prism::Prism,
    triangle_mesh::TriangleMesh,
    tetrahedra::Tetrahedra,
);

/// Reads a shape in the scene format from a JSON value (the committed mesh
/// files name their shapes this way); `path` prefixes error messages.
pub fn parse_shape_value(path: &str, value: &Value) -> Result<Shape, String> {
    Shape::read(ObjectReader::new(path, value)?)
}

impl Shape {
    /// Reads a shape object of a scene file: its `type`, then that type's
    /// keys; any other key is an error.
    pub fn read(mut shape: ObjectReader<'_>) -> Result<Shape, String> {
        let type_name = shape.string("type")?;
        let read = Shape::read_type(&type_name, &mut shape).unwrap_or_else(|| {
            Err(format!(
                "{}: unknown shape type \"{type_name}\" (expected one of: {})",
                shape.key_path("type"),
                TYPES.join(", ")
            ))
        })?;
        shape.finish()?;
        Ok(read)
    }

    /// The shape written back in the scene format (`docs/design/scenes.md`, "Shape
    /// types"), the inverse of [`Shape::read`]: the committed mesh files
    /// name the shape each mesh is for this way.
    pub fn to_json(&self) -> Value {
        let mut shape = Map::new();
        shape.insert("type".into(), json!(self.type_name()));
        self.of_type().write(&mut shape);
        Value::Object(shape)
    }

    /// Tetrahedralises the shape in its model frame: its cone mesh, or the
    /// tetrahedra a `tetmesh` gives.
    pub fn build(&self, flat_angle: f64) -> Result<TetMesh, ShapeError> {
        self.of_type().build(flat_angle)
    }

    /// Its surface as planar polygonal faces, or `None` for a shape given
    /// as tetrahedra.
    pub fn surface(&self) -> Option<Surface> {
        self.of_type().surface()
    }

    /// The largest magnitude among its lengths and coordinates (every real
    /// number a shape holds is one), 0 for none.
    pub fn largest_length(&self) -> f64 {
        let (_, reals) = self.of_type().parameters();
        reals.iter().fold(0.0, |m, x| m.max(x.abs()))
    }

    /// Whether it narrows to a tip or a smaller cap (frusta, pyramids).
    pub fn is_conical(&self) -> bool {
        self.of_type().is_conical()
    }

    /// Whether two shapes have the same surface, to round-off: the same
    /// type, the same whole numbers, and real numbers that agree to 1e-12
    /// of the largest (a scene file's decimal literal and the committed
    /// file's shortest form of it may parse an ulp apart).
    pub fn same_surface(&self, other: &Shape) -> bool {
        let (ia, fa) = self.of_type().parameters();
        let (ib, fb) = other.of_type().parameters();
        let scale = fa.iter().chain(&fb).fold(0.0_f64, |m, x| m.max(x.abs()));
        self.type_name() == other.type_name()
            && ia == ib
            && fa.len() == fb.len()
            && fa
                .iter()
                .zip(&fb)
                .all(|(x, y)| (x - y).abs() <= 1e-12 * scale)
    }
}

/// A point as a JSON array.
fn xyz(v: glam::DVec3) -> Value {
    json!([v.x, v.y, v.z])
}

/// The vertex count of a `mesh` or `tetmesh` against
/// [`MAX_SHAPE_VERTICES`].
fn at_most_vertices(shape: &ObjectReader<'_>, count: usize) -> Result<(), String> {
    if count > MAX_SHAPE_VERTICES {
        return Err(format!(
            "{}: at most {} vertices are supported, got {count}",
            shape.key_path("vertices"),
            MAX_SHAPE_VERTICES
        ));
    }
    Ok(())
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
        kernel: glam::DVec3,
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

#[cfg(test)]
mod tests {
    use super::*;

    const FLAT: f64 = 1e-6;

    #[test]
    fn every_registered_shape_is_a_closed_outward_sphere() {
        for shape in Shape::examples() {
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
    fn every_registered_shape_reads_back_what_it_writes() {
        for shape in Shape::examples() {
            let json = shape.to_json();
            let read = Shape::read(ObjectReader::new("shape", &json).unwrap())
                .unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(read, shape);
            assert!(read.same_surface(&shape));
        }
    }

    #[test]
    fn the_registry_lists_every_type_once_and_the_message_names_them() {
        let mut types = TYPES.to_vec();
        types.sort_unstable();
        types.dedup();
        assert_eq!(types.len(), Shape::examples().len());
        let json = json!({ "type": "ellipsoid" });
        let error = Shape::read(ObjectReader::new("shape", &json).unwrap()).unwrap_err();
        assert_eq!(
            error,
            format!(
                "shape.type: unknown shape type \"ellipsoid\" (expected one of: {})",
                TYPES.join(", ")
            )
        );
    }
}
