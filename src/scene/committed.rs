//! The committed TetGen meshes (`docs/design/meshing.md`): `meshes/tetgen.json`
//! (the paper's default switches, compiled in everywhere, about 34 KB) and
//! `meshes/paper-fine.json` (the section 8.6 switches, 0.9 MB, compiled
//! into native builds only, to keep the page's wasm small; the
//! page would fetch that file and register it, see [`register_table`]).
//!
//! A body finds its mesh by its shape's parameters, so a user's scene file
//! with the same shape gets the same mesh. Both files are written by
//! `cargo xtask meshes`, which runs TetGen; nothing here runs it.
//!
//! File format `contactlab-meshes/1`: one JSON object, one mesh per line:
//! `{"format", "level", "tetgen", "meshes": [{"shape", "used_by",
//! "switches", "why", "vertices": "x0 y0 z0 x1 …", "tets": [a0, b0, c0, d0,
//! …]}, …]}`. Flat lists keep the files small; the coordinates are one
//! string of shortest round-trip numbers because serde_json's default float
//! parser may miss the last bit, and the surface must be the shape's
//! exactly. Tetrahedra are positively oriented.
//!
//! Shapes match when every parameter agrees to 1e-12 of the shape's
//! largest one ([`Shape::same_surface`]): a scene file's decimal literal
//! and the committed file's shortest form of it may parse an ulp apart.

use crate::mesh::shapes::{parse_shape_value, Shape};
use crate::mesh::Mesher;
use glam::DVec3;
use serde_json::{json, Value};
use std::sync::OnceLock;

pub const FORMAT_TAG: &str = "contactlab-meshes/1";

/// One TetGen mesh and the shape it was made for.
#[derive(Clone, Debug, PartialEq)]
pub struct CommittedMesh {
    pub shape: Shape,
    /// The built-in bodies with this shape, as `scene/body` (the first few).
    pub used_by: Vec<String>,
    /// The TetGen switches the mesh was made with.
    pub switches: String,
    /// Why these switches (the ratio used when the paper's did not finish).
    pub why: String,
    pub vertices: Vec<DVec3>,
    pub tets: Vec<[u32; 4]>,
}

/// Every committed mesh of one level.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshTable {
    pub level: Mesher,
    /// The TetGen version that made them (`tetgen -v`'s first line).
    pub tetgen: String,
    pub meshes: Vec<CommittedMesh>,
}

impl MeshTable {
    /// The mesh made for this shape, if there is one.
    pub fn find(&self, shape: &Shape) -> Option<&CommittedMesh> {
        self.meshes.iter().find(|m| m.shape.same_surface(shape))
    }

    pub fn parse(source: &str, text: &str) -> Result<MeshTable, String> {
        let fail = |m: String| format!("{source}: {m}");
        let root: Value =
            serde_json::from_str(text).map_err(|e| fail(format!("not valid JSON: {e}")))?;
        let field = |v: &Value, key: &str| -> Result<Value, String> {
            v.get(key)
                .cloned()
                .ok_or_else(|| fail(format!("missing \"{key}\"")))
        };
        if field(&root, "format")? != json!(FORMAT_TAG) {
            return Err(fail(format!("format is not \"{FORMAT_TAG}\"")));
        }
        let level = field(&root, "level")?
            .as_str()
            .and_then(Mesher::from_id)
            .filter(|&m| m != Mesher::Cones)
            .ok_or_else(|| fail("level must be \"tetgen\" or \"paper-fine\"".into()))?;
        let text_of = |v: Value| v.as_str().map(str::to_string).unwrap_or_default();
        let mut meshes = Vec::new();
        for (i, m) in field(&root, "meshes")?
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let path = format!("meshes[{i}].shape");
            let shape = parse_shape_value(&path, &field(m, "shape")?).map_err(fail)?;
            let numbers: Vec<f64> = field(m, "vertices")?
                .as_str()
                .unwrap_or("?")
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|e| fail(format!("meshes[{i}].vertices: {e}")))?;
            let indices: Vec<u32> = serde_json::from_value(field(m, "tets")?)
                .map_err(|e| fail(format!("meshes[{i}].tets: {e}")))?;
            if numbers.len() % 3 != 0 || indices.len() % 4 != 0 {
                return Err(fail(format!(
                    "meshes[{i}]: vertices must come in threes and tets in fours"
                )));
            }
            meshes.push(CommittedMesh {
                shape,
                used_by: serde_json::from_value(field(m, "used_by")?).unwrap_or_default(),
                switches: text_of(field(m, "switches")?),
                why: text_of(field(m, "why")?),
                vertices: numbers
                    .chunks_exact(3)
                    .map(|c| DVec3::new(c[0], c[1], c[2]))
                    .collect(),
                tets: indices
                    .chunks_exact(4)
                    .map(|c| [c[0], c[1], c[2], c[3]])
                    .collect(),
            });
        }
        Ok(MeshTable {
            level,
            tetgen: text_of(field(&root, "tetgen")?),
            meshes,
        })
    }

    /// The file text: deterministic (so regenerating can be compared byte
    /// for byte), one mesh per line so that a diff shows which changed.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "{{\"format\": {}, \"level\": {}, \"tetgen\": {}, \"meshes\": [\n",
            json!(FORMAT_TAG),
            json!(self.level.id()),
            json!(self.tetgen)
        );
        for (i, m) in self.meshes.iter().enumerate() {
            let flat: Vec<String> = m
                .vertices
                .iter()
                .flat_map(|v| v.to_array())
                .map(|x| format!("{x:?}"))
                .collect();
            let tets: Vec<u32> = m.tets.iter().flatten().copied().collect();
            let line = json!({
                "shape": m.shape.to_json(),
                "used_by": m.used_by,
                "switches": m.switches,
                "why": m.why,
                "vertices": flat.join(" "),
                "tets": tets,
            });
            text.push_str(&line.to_string());
            text.push_str(if i + 1 < self.meshes.len() {
                ",\n"
            } else {
                "\n"
            });
        }
        text.push_str("]}\n");
        text
    }
}

/// The compiled-in text of a level's file, where it is compiled in.
fn compiled_text(level: Mesher) -> Option<&'static str> {
    match level {
        Mesher::TetGen => Some(include_str!("../../meshes/tetgen.json")),
        #[cfg(not(target_arch = "wasm32"))]
        Mesher::PaperFine => Some(include_str!("../../meshes/paper-fine.json")),
        _ => None,
    }
}

static TETGEN: OnceLock<Result<MeshTable, String>> = OnceLock::new();
static PAPER_FINE: OnceLock<Result<MeshTable, String>> = OnceLock::new();

fn slot(level: Mesher) -> Option<&'static OnceLock<Result<MeshTable, String>>> {
    match level {
        Mesher::TetGen => Some(&TETGEN),
        Mesher::PaperFine => Some(&PAPER_FINE),
        Mesher::Cones => None,
    }
}

/// Registers a level's table from its file text (the page would fetch
/// `meshes/paper-fine.json` and pass it here). Only the first registration
/// of a level counts, and a compiled-in table cannot be replaced.
pub fn register_table(level: Mesher, text: &str) -> Result<(), String> {
    let slot = slot(level).ok_or("cones need no committed meshes")?;
    let table = MeshTable::parse(&format!("meshes/{}.json", level.id()), text)?;
    if table.level != level {
        return Err(format!("the file holds level \"{}\"", table.level));
    }
    slot.set(Ok(table))
        .map_err(|_| format!("the {level} meshes are already loaded"))
}

/// The committed meshes of a level: `Ok(None)` when this build does not
/// have them (paper-fine in the page before it is registered).
pub fn committed(level: Mesher) -> Result<Option<&'static MeshTable>, String> {
    let Some(slot) = slot(level) else {
        return Ok(None);
    };
    if slot.get().is_none() {
        let Some(text) = compiled_text(level) else {
            return Ok(None);
        };
        let _ = slot.set(MeshTable::parse(
            &format!("meshes/{}.json", level.id()),
            text,
        ));
    }
    match slot.get() {
        Some(Ok(table)) => Ok(Some(table)),
        Some(Err(e)) => Err(e.clone()),
        None => Ok(None),
    }
}
