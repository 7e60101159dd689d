//! A B-rep entity of one body, vertex, edge or face, as the open point set
//! Bouma & Vaněček §3 work with: what the contact regions pair up and the
//! point queries name. Below both, so each can use it.

/// A B-rep entity of one body, as an open point set (Bouma & Vaněček, §3: a face
/// without its edges, an edge without its end vertices). Indices into
/// `Brep::vertices`, `Brep::edges`, `Brep::faces`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Entity {
    Vertex(u32),
    Edge(u32),
    Face(u32),
}

impl Entity {
    /// 0 vertex, 1 edge, 2 face.
    pub fn dimension(self) -> u8 {
        match self {
            Entity::Vertex(_) => 0,
            Entity::Edge(_) => 1,
            Entity::Face(_) => 2,
        }
    }

    /// Its index among the entities of its dimension.
    pub fn index(self) -> u32 {
        match self {
            Entity::Vertex(i) | Entity::Edge(i) | Entity::Face(i) => i,
        }
    }
}
