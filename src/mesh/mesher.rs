//! How a body's tetrahedra are made (`docs/design/meshing.md`): coning the
//! surface to a kernel point, or TetGen with the paper's switches, at the
//! default level (`-pq2.0Y`) or the finer level of the paper's section 8.6.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mesher {
    /// Every surface triangle coned to the kernel point (`docs/design/scenes.md`).
    Cones,
    /// The committed TetGen mesh made with the paper's default switches.
    #[serde(rename = "tetgen")]
    TetGen,
    /// The committed TetGen mesh made with the section 8.6 refinement
    /// switches (a TetGen mesh level, so it has no cones counterpart).
    PaperFine,
}

impl Mesher {
    pub const ALL: [Mesher; 3] = [Mesher::TetGen, Mesher::Cones, Mesher::PaperFine];

    /// The id in scene files, on the command line and in links.
    pub fn id(self) -> &'static str {
        match self {
            Mesher::Cones => "cones",
            Mesher::TetGen => "tetgen",
            Mesher::PaperFine => "paper-fine",
        }
    }

    /// The meshes it makes, in words for titles: "cone meshes".
    pub fn meshes(self) -> &'static str {
        match self {
            Mesher::Cones => "cone meshes",
            Mesher::TetGen => "TetGen meshes",
            Mesher::PaperFine => "paper-fine TetGen meshes",
        }
    }

    pub fn from_id(id: &str) -> Option<Mesher> {
        Mesher::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The ids, for messages and the settings schema.
    pub const IDS: [&'static str; 3] = ["tetgen", "cones", "paper-fine"];
}

/// The `mesher` setting's field is an `Option<Mesher>`.
impl crate::settings::Choice for Mesher {
    fn id(self) -> &'static str {
        Mesher::id(self)
    }

    fn from_id(id: &str) -> Option<Self> {
        Mesher::from_id(id)
    }
}

impl fmt::Display for Mesher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_match_the_list() {
        for (m, id) in Mesher::ALL.into_iter().zip(Mesher::IDS) {
            assert_eq!(m.id(), id);
            assert_eq!(Mesher::from_id(id), Some(m));
        }
        assert_eq!(Mesher::from_id("delaunay"), None);
    }

    #[test]
    fn the_settings_schema_offers_exactly_these() {
        let spec = crate::settings::spec("mesher").unwrap();
        assert_eq!(spec.choices, Mesher::IDS);
    }
}
