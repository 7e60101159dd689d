//! How a surface edge of a tetrahedral mesh bends (`docs/design/scenes.md`,
//! "Surface classification"): the mesh classifies its edges, the B-rep
//! features and the contact methods read the kind.

/// How a surface edge bends: flat edges lie inside a planar piece of the
/// surface (the internal edges of the paper's section 4.4), convex edges are
/// ridges, concave edges are valleys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    Flat,
    Convex,
    Concave,
}
