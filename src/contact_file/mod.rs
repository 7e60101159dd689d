//! Contacts from outside: the `contactlab-contacts/1` file format, read and
//! written (`docs/design/contact-files.md`). Another engine's contacts, or a
//! method's own written out, come in as rows of world positions, normals
//! and signed depths between named bodies, per step, and are measured by the
//! same rules as every method (`contactlab score`, the page's imported
//! entry).
//!
//! The format, in short (the README has it for users):
//!
//! ```text
//! # contactlab-contacts/1
//! # steps: 0                    (optional: the steps it covers, "0" or "1-500")
//! # poses: poses.csv            (optional: the contacts' own poses)
//! step,body_a,body_b,x,y,z,nx,ny,nz,depth[,feature][,engine][,note]
//! 0,ground,block,0.5,0,0.5,0,1,0,-0.0001,F-F,,
//! ```
//!
//! The normal points from A to B and the depth is negative when the bodies
//! overlap (`docs/design/conventions.md`). JSON Lines with the same keys
//! is read too. Every problem is one [`FileError`] naming the file, line,
//! column and what is wrong; nothing is skipped silently: comment and blank
//! lines, and normals made unit length, are counted in [`Warnings`].

pub mod poses;
mod rows;

use crate::contact::{Contact, FeatureKind};
use crate::scene::Scene;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

pub use crate::geometry::Pose;

pub use poses::read_poses;
use rows::{Row, RowReader};

/// The format's name, as its first comment line says.
pub const FORMAT: &str = "contactlab-contacts/1";

/// The columns every file has: the writers put them first, in this order;
/// the reader takes them in any order.
pub const REQUIRED_COLUMNS: [&str; 10] = [
    "step", "body_a", "body_b", "x", "y", "z", "nx", "ny", "nz", "depth",
];

/// Columns a file may add; kept, and shown with the contacts.
pub const OPTIONAL_COLUMNS: [&str; 3] = ["feature", "engine", "note"];

/// A normal whose length is this far from 1 is made unit length (and
/// counted); closer, it is used exactly as written.
pub const UNIT_TOLERANCE: f64 = 1e-6;

/// The most rows a file may have: a 500-step run of the Wall with 3000
/// contacts a step is 1.5 million.
pub const MAX_ROWS: usize = 2_000_000;
/// Largest contacts or poses file, bytes: room for [`MAX_ROWS`] rows of
/// about 150 characters and comments; a larger one is refused before it is
/// read (a device such as /dev/zero never ends).
pub const MAX_CONTACT_FILE_BYTES: u64 = 400_000_000;

/// The largest step a file may name: a run of a million steps is far past
/// any scene's.
pub const MAX_STEP: u64 = 1_000_000;

/// A problem in a file: where, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct FileError {
    pub file: String,
    /// 1-based; 0 for the file as a whole.
    pub line: usize,
    /// 1-based character column of the offending field; 0 for the whole line.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}: {}", self.file, self.message),
            (line, 0) => write!(f, "{}:{line}: {}", self.file, self.message),
            (line, column) => write!(f, "{}:{line}:{column}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for FileError {}

/// What was read but not used as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Warnings {
    /// Comment lines (`#`) and blank lines.
    pub skipped_lines: usize,
    /// Normals made unit length.
    pub normalised_normals: usize,
    /// Pose quaternions made unit length (poses files).
    pub normalised_rotations: usize,
}

impl Warnings {
    /// One sentence per kind of warning that happened, for the notice strip
    /// and stderr.
    pub fn messages(&self, file: &str) -> Vec<String> {
        let mut out = Vec::new();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        if self.normalised_normals > 0 {
            let n = self.normalised_normals;
            out.push(format!(
                "{file}: {n} normal{} not of unit length (within {UNIT_TOLERANCE:e}) made unit length",
                plural(n)
            ));
        }
        if self.normalised_rotations > 0 {
            let n = self.normalised_rotations;
            out.push(format!(
                "{file}: {n} rotation{} not of unit length made unit length",
                plural(n)
            ));
        }
        if self.skipped_lines > 0 {
            let n = self.skipped_lines;
            out.push(format!(
                "{file}: {n} comment or blank line{} skipped",
                plural(n)
            ));
        }
        out
    }
}

/// The optional columns of one row, as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RowNotes {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A contact file, read against a scene's bodies.
#[derive(Clone, Debug, Default)]
pub struct ContactFile {
    /// The file's name as the user gave it (for messages).
    pub name: String,
    /// The contacts of each step, in file order, with body indices of the
    /// scene it was read against. Steps without rows are absent.
    pub steps: BTreeMap<u64, Vec<Contact>>,
    /// The optional columns of each contact, parallel to `steps`.
    pub notes: BTreeMap<u64, Vec<RowNotes>>,
    /// The line of each step's first row (for messages about the step).
    pub first_line: BTreeMap<u64, usize>,
    /// The poses file a `# poses:` comment names, as written.
    pub poses_file: Option<String>,
    /// The steps a `# steps: A-B` (or `# steps: N`) comment says the file
    /// covers: a step in it without rows has no contacts, rather than being
    /// left out. Without the comment, the steps with rows.
    pub declared_steps: Option<(u64, u64)>,
    /// The poses of the steps, once a poses file is attached: each step's
    /// contacts are then measured at these poses, not at a run's.
    pub poses: Option<BTreeMap<u64, Vec<Pose>>>,
    pub rows: usize,
    pub warnings: Warnings,
}

impl ContactFile {
    /// The last step the file covers: its last with rows, or a later one
    /// its `# steps:` comment names (0 for a file with neither).
    pub fn last_step(&self) -> u64 {
        let rows = self.steps.keys().next_back().copied().unwrap_or(0);
        self.declared_steps.map_or(rows, |(_, last)| last.max(rows))
    }

    /// Whether the file says what happens at `step`: it has rows there, or
    /// its `# steps:` comment covers it.
    pub fn covers(&self, step: u64) -> bool {
        self.steps.contains_key(&step)
            || self
                .declared_steps
                .is_some_and(|(first, last)| (first..=last).contains(&step))
    }

    /// The contacts of `step` (none when the file has no rows for it).
    pub fn contacts_at(&self, step: u64) -> &[Contact] {
        self.steps.get(&step).map_or(&[], Vec::as_slice)
    }

    /// The steps of a file with poses, in order: those with rows, and
    /// those the poses file gives (a step may have no contacts).
    pub fn measured_steps(&self) -> Vec<u64> {
        let mut steps: Vec<u64> = self.steps.keys().copied().collect();
        if let Some(poses) = &self.poses {
            steps.extend(poses.keys().copied());
            steps.sort_unstable();
            steps.dedup();
        }
        steps
    }

    /// Attaches the poses read from `poses_name` (see [`read_poses`]): every
    /// step with contacts must have poses.
    pub fn attach_poses(
        &mut self,
        poses: BTreeMap<u64, Vec<Pose>>,
        poses_name: &str,
    ) -> Result<(), FileError> {
        for (step, line) in &self.first_line {
            if !poses.contains_key(step) {
                return Err(FileError {
                    file: self.name.clone(),
                    line: *line,
                    column: 1,
                    message: format!(
                        "step {step} has contacts but {poses_name} gives no poses for it"
                    ),
                });
            }
        }
        self.poses = Some(poses);
        Ok(())
    }
}

/// The header of the CSV form: the required columns, then `extra`.
fn csv_header(extra: &[&str]) -> String {
    REQUIRED_COLUMNS
        .iter()
        .chain(extra)
        .copied()
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads a contact file (CSV or JSON Lines, told apart by its first data
/// line) against `scene`'s body names.
pub fn read_contacts(name: &str, text: &str, scene: &Scene) -> Result<ContactFile, FileError> {
    let body_names: Vec<&str> = scene.bodies.iter().map(|b| b.name.as_str()).collect();
    let mut reader = RowReader::new(name, text, &REQUIRED_COLUMNS, &OPTIONAL_COLUMNS)?;
    let mut file = ContactFile {
        name: name.to_string(),
        ..ContactFile::default()
    };
    while let Some(row) = reader.next_row()? {
        if file.rows == MAX_ROWS {
            return Err(row.error_at_line(format!(
                "more than {MAX_ROWS} rows; split the file by steps"
            )));
        }
        let step = row.step("step", MAX_STEP)?;
        let a = row.body("body_a", &body_names)?;
        let b = row.body("body_b", &body_names)?;
        if a == b {
            return Err(row.error(
                "body_b",
                format!("body_a and body_b are both \"{}\"", body_names[a]),
            ));
        }
        let position = row.vector(["x", "y", "z"])?;
        let mut normal = row.vector(["nx", "ny", "nz"])?;
        let length = normal.length();
        if length == 0.0 || !length.is_finite() {
            return Err(row.error("nx", "the normal (nx, ny, nz) is zero".to_string()));
        }
        if (length - 1.0).abs() > UNIT_TOLERANCE {
            normal /= length;
            file.warnings.normalised_normals += 1;
        }
        let depth = row.number("depth")?;
        let features = row_feature(&row)?;
        let notes = RowNotes {
            engine: row
                .text("engine")
                .filter(|t| !t.is_empty())
                .map(String::from),
            note: row.text("note").filter(|t| !t.is_empty()).map(String::from),
        };
        file.first_line.entry(step).or_insert(row.line);
        file.steps.entry(step).or_default().push(Contact {
            a,
            b,
            position,
            normal,
            depth,
            features,
            // The file's contacts have no tetrahedra of ours behind them.
            source_a: 0,
            source_b: 0,
            region: None,
            kept_normal: false,
        });
        file.notes.entry(step).or_default().push(notes);
        file.rows += 1;
    }
    file.poses_file = reader.directive("poses").map(|(_, v)| v.to_string());
    if let Some((line, text)) = reader.directive("steps") {
        file.declared_steps = Some(declared_steps(name, line, text, &file)?);
    }
    file.warnings.skipped_lines = reader.skipped_lines();
    Ok(file)
}

/// The row's `feature` column: a feature pair's id, or nothing (unstated).
fn row_feature(row: &Row) -> Result<FeatureKind, FileError> {
    Ok(match row.text("feature") {
        None | Some("") => FeatureKind::Unstated,
        Some(id) => FeatureKind::from_id(id).ok_or_else(|| {
            row.error(
                "feature",
                format!(
                    "unknown feature pair \"{id}\" (expected one of {}, or nothing)",
                    FeatureKind::ALL.map(FeatureKind::id).join(", ")
                ),
            )
        })?,
    })
}

/// The steps a `# steps: first-last` comment on `line` declares, checked
/// against the steps of the file's rows.
fn declared_steps(
    name: &str,
    line: usize,
    text: &str,
    file: &ContactFile,
) -> Result<(u64, u64), FileError> {
    let error = |message: String| FileError {
        file: name.to_string(),
        line,
        column: 0,
        message,
    };
    let (first, last) = text.split_once('-').unwrap_or((text, text));
    let parse = |t: &str| t.trim().parse::<u64>().ok().filter(|s| *s <= MAX_STEP);
    let (Some(first), Some(last)) = (parse(first), parse(last)) else {
        return Err(error(format!(
            "\"# steps: {text}\": expected a step (\"0\") or a range (\"1-500\") of steps from 0 to {MAX_STEP}"
        )));
    };
    if first > last {
        return Err(error(format!(
            "\"# steps: {text}\": the range runs backwards"
        )));
    }
    if let Some((step, row_line)) = file
        .first_line
        .iter()
        .find(|(step, _)| !(first..=last).contains(*step))
    {
        return Err(FileError {
            file: name.to_string(),
            line: *row_line,
            column: 1,
            message: format!("step {step} is outside the steps {first}-{last} the \"# steps:\" comment on line {line} names"),
        });
    }
    Ok((first, last))
}

/// Writes contacts as a CSV contact file: [`csv_preamble`], then
/// [`csv_rows`] of every step.
pub fn write_csv<'a>(
    scene: &Scene,
    about: &str,
    covered: (u64, u64),
    steps: impl IntoIterator<Item = (u64, &'a [Contact])>,
) -> String {
    let mut out = csv_preamble(about, covered);
    for (step, contacts) in steps {
        out.push_str(&csv_rows(scene, step, contacts));
    }
    out
}

/// The start of a CSV contact file: a comment naming the format, `about`
/// (what the contacts are) as comments, the `# steps:` comment of the
/// steps `covered` (first, last: a step without rows then has none), and
/// the header.
pub fn csv_preamble(about: &str, covered: (u64, u64)) -> String {
    let mut out = format!("# {FORMAT}\n");
    for line in about.lines() {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str(&match covered {
        (first, last) if first == last => format!("# steps: {first}\n"),
        (first, last) => format!("# steps: {first}-{last}\n"),
    });
    out.push_str(&csv_header(&["feature"]));
    out.push('\n');
    out
}

/// The rows of one step's contacts, numbers in Rust's shortest exact form,
/// so that reading them back gives the same numbers bit for bit.
pub fn csv_rows(scene: &Scene, step: u64, contacts: &[Contact]) -> String {
    let mut out = String::new();
    for c in contacts {
        let [x, y, z] = c.position.to_array();
        let [nx, ny, nz] = c.normal.to_array();
        out.push_str(&format!(
            "{step},{},{},{x},{y},{z},{nx},{ny},{nz},{},{}\n",
            csv_field(&scene.bodies[c.a].name),
            csv_field(&scene.bodies[c.b].name),
            c.depth,
            match c.features {
                FeatureKind::Unstated => "",
                kind => kind.id(),
            }
        ));
    }
    out
}

/// A CSV field: quoted when it holds a comma, a quote, a line break or
/// space at either end.
pub(crate) fn csv_field(text: &str) -> String {
    let plain = !text.contains([',', '"', '\n', '\r']) && text.trim() == text;
    if plain {
        text.to_string()
    } else {
        format!("\"{}\"", text.replace('"', "\"\""))
    }
}
