//! Tetrahedral meshes: the representation every body and every contact
//! method works on (paper section 6: "Tetrahedral meshes are a convenient
//! representation").
//!
//! - [`tetmesh`]: `TetMesh` and its surface classification; [`edge_kind`]
//!   (how a surface edge bends) and [`bounds`] (a point set's box) below it.
//! - [`brep_features`]: a body's B-rep features (planar faces, edges,
//!   corners) as data, and [`brep`], which finds them on a mesh.
//! - [`shapes`]: the shape types of the scene format, one file each, and
//!   their registry: each type's parameters, its surface of planar faces,
//!   and its tetrahedra by coning that surface to a kernel point.
//! - [`refine`]: 1 → 8 refinement by edge midpoints.
//! - [`erode`]: the inward offset used by the Closest points method.
//! - [`mass`]: exact mass, centre and inertia of a constant-density mesh.
//! - [`mesher`]: the choice between cones and TetGen meshes.
//! - `parry_shape`: the body as a parry3d shape (hull or triangle mesh),
//!   with the `parry` cargo feature, and `parry_build`, which builds it.
//! - [`plc`]: a shape's surface as TetGen's input (its faces as polygonal
//!   facets).
//! - [`tetgen_files`]: reading TetGen's `.node`/`.ele` output.
//! - [`stats`]: tetrahedra by surface faces, radius-edge ratios.
//! - [`self_intersection`]: the check that a body's surface is embedded
//!   (and why that makes its tetrahedra cover it once).

pub mod bounds;
pub mod brep;
pub mod brep_features;
pub mod edge_kind;
pub mod erode;
pub mod mass;
pub mod mesher;
#[cfg(feature = "parry")]
mod parry_build;
#[cfg(feature = "parry")]
pub mod parry_shape;
pub mod plc;
pub mod refine;
pub mod self_intersection;
pub mod shapes;
pub mod stats;
pub mod tetgen_files;
pub mod tetmesh;
pub mod triangulate;

pub use brep_features::{Brep, BrepEdge, BrepFace, BrepVertex};
pub use mass::MassProperties;
pub use mesher::Mesher;
pub use tetmesh::{EdgeKind, MeshError, SurfaceEdge, SurfaceFace, TetMesh};
