//! A table as text cells, written as Markdown or CSV, and the progress
//! callback the table builders report through: what every table file of
//! the report hands back, below all of them.

/// A table as text cells, ready for Markdown or CSV.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub title: String,
    /// Sentences printed under the title (Markdown only).
    pub notes: Vec<String>,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn to_markdown(&self) -> String {
        let mut out = format!("### {}\n\n", self.title);
        for note in &self.notes {
            out.push_str(note);
            out.push_str("\n\n");
        }
        out.push_str(&format!("| {} |\n", self.headers.join(" | ")));
        let rule: Vec<&str> = self
            .headers
            .iter()
            .enumerate()
            .map(|(i, _)| if i == 0 { "---" } else { "---:" })
            .collect();
        out.push_str(&format!("| {} |\n", rule.join(" | ")));
        for row in &self.rows {
            out.push_str(&format!("| {} |\n", row.join(" | ")));
        }
        out
    }

    pub fn to_csv(&self) -> String {
        let quote = |cell: &str| {
            if cell.contains([',', '"', '\n']) {
                format!("\"{}\"", cell.replace('"', "\"\""))
            } else {
                cell.to_string()
            }
        };
        let mut out = String::new();
        for line in std::iter::once(&self.headers).chain(&self.rows) {
            out.push_str(&line.iter().map(|c| quote(c)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        out
    }
}

/// A progress report: (what is running, runs done, runs in all).
pub type Progress<'a> = &'a mut dyn FnMut(&str, usize, usize);
