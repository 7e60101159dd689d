//! Feature-pair labels: which kinds of mesh features (vertex, edge, face) of
//! bodies A and B generated a contact (paper section 2, "Mesh Feature
//! Pairs"). The order is (A's feature, B's feature).

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum FeatureKind {
    #[serde(rename = "V-V")]
    VertexVertex,
    #[serde(rename = "V-E")]
    VertexEdge,
    #[serde(rename = "E-V")]
    EdgeVertex,
    #[serde(rename = "V-F")]
    VertexFace,
    #[serde(rename = "F-V")]
    FaceVertex,
    #[serde(rename = "E-E")]
    EdgeEdge,
    #[serde(rename = "E-F")]
    EdgeFace,
    #[serde(rename = "F-E")]
    FaceEdge,
    #[serde(rename = "F-F")]
    FaceFace,
    /// Not said: a contact read from a contact file without a `feature`
    /// column (another engine's). Not in [`FeatureKind::ALL`], the kinds
    /// a method of ours gives.
    #[serde(rename = "?")]
    Unstated,
}

impl FeatureKind {
    pub const ALL: [FeatureKind; 9] = [
        FeatureKind::VertexVertex,
        FeatureKind::VertexEdge,
        FeatureKind::EdgeVertex,
        FeatureKind::VertexFace,
        FeatureKind::FaceVertex,
        FeatureKind::EdgeEdge,
        FeatureKind::EdgeFace,
        FeatureKind::FaceEdge,
        FeatureKind::FaceFace,
    ];

    /// The paper's notation, e.g. "(V,F)".
    pub fn label(self) -> &'static str {
        match self {
            FeatureKind::VertexVertex => "(V,V)",
            FeatureKind::VertexEdge => "(V,E)",
            FeatureKind::EdgeVertex => "(E,V)",
            FeatureKind::VertexFace => "(V,F)",
            FeatureKind::FaceVertex => "(F,V)",
            FeatureKind::EdgeEdge => "(E,E)",
            FeatureKind::EdgeFace => "(E,F)",
            FeatureKind::FaceEdge => "(F,E)",
            FeatureKind::FaceFace => "(F,F)",
            FeatureKind::Unstated => "(?)",
        }
    }

    /// The kind whose file id (its JSON name, e.g. "V-F") is `id`; "?"
    /// is [`FeatureKind::Unstated`].
    pub fn from_id(id: &str) -> Option<FeatureKind> {
        FeatureKind::ALL
            .into_iter()
            .chain([FeatureKind::Unstated])
            .find(|kind| kind.id() == id)
    }

    /// The file id: "V-F" for (V,F), "?" for unstated.
    pub fn id(self) -> &'static str {
        match self {
            FeatureKind::VertexVertex => "V-V",
            FeatureKind::VertexEdge => "V-E",
            FeatureKind::EdgeVertex => "E-V",
            FeatureKind::VertexFace => "V-F",
            FeatureKind::FaceVertex => "F-V",
            FeatureKind::EdgeEdge => "E-E",
            FeatureKind::EdgeFace => "E-F",
            FeatureKind::FaceEdge => "F-E",
            FeatureKind::FaceFace => "F-F",
            FeatureKind::Unstated => "?",
        }
    }

    /// The same pair seen from the other body (A and B swapped).
    pub fn swapped(self) -> FeatureKind {
        match self {
            FeatureKind::VertexEdge => FeatureKind::EdgeVertex,
            FeatureKind::EdgeVertex => FeatureKind::VertexEdge,
            FeatureKind::VertexFace => FeatureKind::FaceVertex,
            FeatureKind::FaceVertex => FeatureKind::VertexFace,
            FeatureKind::EdgeFace => FeatureKind::FaceEdge,
            FeatureKind::FaceEdge => FeatureKind::EdgeFace,
            same => same,
        }
    }
}

/// A touching pair of surface features: indices into A's and B's surface
/// vertices (mesh vertex index), surface edges or surface faces, by `kind`,
/// and the world point where they touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeaturePair {
    pub kind: FeatureKind,
    pub feature_a: u32,
    pub feature_b: u32,
    pub point: glam::DVec3,
}

/// Feature label from the dimensions of A's and B's generating features
/// (0 vertex, 1 edge, 2 face).
pub fn features_from_dimensions(a: u8, b: u8) -> FeatureKind {
    match (a.min(2), b.min(2)) {
        (0, 0) => FeatureKind::VertexVertex,
        (0, 1) => FeatureKind::VertexEdge,
        (1, 0) => FeatureKind::EdgeVertex,
        (0, 2) => FeatureKind::VertexFace,
        (2, 0) => FeatureKind::FaceVertex,
        (1, 1) => FeatureKind::EdgeEdge,
        (1, 2) => FeatureKind::EdgeFace,
        (2, 1) => FeatureKind::FaceEdge,
        _ => FeatureKind::FaceFace,
    }
}

#[cfg(test)]
mod tests {
    use super::FeatureKind;

    #[test]
    fn file_ids_are_the_json_names_and_read_back() {
        for kind in FeatureKind::ALL.into_iter().chain([FeatureKind::Unstated]) {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json.as_str(), Some(kind.id()), "{kind:?}");
            assert_eq!(FeatureKind::from_id(kind.id()), Some(kind));
        }
        assert_eq!(FeatureKind::from_id("(V,F)"), None);
    }
}
