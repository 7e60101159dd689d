//! The rows of a contact or poses file, CSV or JSON Lines, with every
//! field's line and column kept so that each problem is reported where it
//! is. Comment lines start with `#`; `# key: value` comments are kept as
//! directives (`# poses: poses.csv`).

use super::FileError;
use glam::DVec3;
use std::collections::BTreeMap;

/// One field of a row: its 1-based character column and its value.
#[derive(Clone, Debug)]
enum Value {
    Text(String),
    Json(serde_json::Value),
}

#[derive(Clone, Debug)]
struct Field {
    column: usize,
    value: Value,
}

/// One data row.
pub struct Row<'a> {
    file: &'a str,
    pub line: usize,
    fields: BTreeMap<&'static str, Field>,
}

impl Row<'_> {
    /// An error about the field of `key` (at the line when it is absent).
    pub fn error(&self, key: &str, message: String) -> FileError {
        FileError {
            file: self.file.to_string(),
            line: self.line,
            column: self.fields.get(key).map_or(0, |f| f.column),
            message: format!("{key}: {message}"),
        }
    }

    pub fn error_at_line(&self, message: String) -> FileError {
        FileError {
            file: self.file.to_string(),
            line: self.line,
            column: 0,
            message,
        }
    }

    fn field(&self, key: &str) -> Result<&Field, FileError> {
        self.fields
            .get(key)
            .ok_or_else(|| self.error_at_line(format!("missing value for \"{key}\"")))
    }

    /// The text of an optional column (`None` when the file has no such
    /// column or key).
    pub fn text(&self, key: &str) -> Option<&str> {
        match &self.fields.get(key)?.value {
            Value::Text(t) => Some(t.as_str()),
            Value::Json(serde_json::Value::String(t)) => Some(t.as_str()),
            Value::Json(serde_json::Value::Null) => Some(""),
            // Reported by `string`; here only what is text counts.
            Value::Json(_) => None,
        }
    }

    /// The text of a required column.
    pub fn string(&self, key: &str) -> Result<&str, FileError> {
        let field = self.field(key)?;
        match &field.value {
            Value::Text(t) => Ok(t.as_str()),
            Value::Json(serde_json::Value::String(t)) => Ok(t.as_str()),
            Value::Json(other) => Err(self.error(key, format!("expected a string, got {other}"))),
        }
    }

    /// A finite number.
    pub fn number(&self, key: &str) -> Result<f64, FileError> {
        let field = self.field(key)?;
        let value = match &field.value {
            Value::Text(t) => t
                .trim()
                .parse::<f64>()
                .map_err(|_| self.error(key, format!("expected a number, got \"{}\"", t.trim())))?,
            Value::Json(serde_json::Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
            Value::Json(other) => {
                return Err(self.error(key, format!("expected a number, got {other}")))
            }
        };
        if value.is_finite() {
            Ok(value)
        } else {
            Err(self.error(key, format!("not a finite number: {value}")))
        }
    }

    pub fn vector(&self, keys: [&str; 3]) -> Result<DVec3, FileError> {
        Ok(DVec3::new(
            self.number(keys[0])?,
            self.number(keys[1])?,
            self.number(keys[2])?,
        ))
    }

    /// A step: a whole number from 0 to `max`.
    pub fn step(&self, key: &str, max: u64) -> Result<u64, FileError> {
        let field = self.field(key)?;
        let parsed = match &field.value {
            Value::Text(t) => t.trim().parse::<u64>().ok(),
            Value::Json(serde_json::Value::Number(n)) => n.as_u64(),
            Value::Json(_) => None,
        };
        match parsed {
            Some(step) if step <= max => Ok(step),
            _ => {
                let shown = match &field.value {
                    Value::Text(t) => format!("\"{}\"", t.trim()),
                    Value::Json(v) => v.to_string(),
                };
                Err(self.error(
                    key,
                    format!("expected a whole number from 0 to {max}, got {shown}"),
                ))
            }
        }
    }

    /// A body of `names`, by name.
    pub fn body(&self, key: &str, names: &[&str]) -> Result<usize, FileError> {
        let name = self.string(key)?;
        names.iter().position(|n| *n == name).ok_or_else(|| {
            const LISTED: usize = 8;
            let mut known: Vec<String> = names
                .iter()
                .take(LISTED)
                .map(|n| format!("\"{n}\""))
                .collect();
            if names.len() > LISTED {
                known.push(format!("… {} more", names.len() - LISTED));
            }
            self.error(
                key,
                format!(
                    "unknown body \"{name}\" (the scene's bodies: {})",
                    known.join(", ")
                ),
            )
        })
    }
}

enum Form {
    /// CSV, with the header's columns in file order.
    Csv(Vec<&'static str>),
    JsonLines,
}

/// Reads a file's rows one by one.
pub struct RowReader<'a> {
    file: &'a str,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    form: Form,
    known: Vec<&'static str>,
    required: &'static [&'static str],
    /// `# key: value` comments: the line and the value of each key's first.
    directives: BTreeMap<String, (usize, String)>,
    skipped: usize,
}

/// The fields of a CSV line: (1-based column, text), quotes removed.
fn split_csv(line: &str) -> Result<Vec<(usize, String)>, usize> {
    let chars: Vec<char> = line.chars().collect();
    let mut fields = Vec::new();
    let mut i = 0;
    loop {
        let start = i;
        let mut text = String::new();
        // Spaces before a quote are allowed; the quote then opens the field.
        let mut j = i;
        while j < chars.len() && chars[j] == ' ' {
            j += 1;
        }
        if j < chars.len() && chars[j] == '"' {
            j += 1;
            loop {
                match chars.get(j) {
                    None => return Err(start + 1),
                    Some('"') if chars.get(j + 1) == Some(&'"') => {
                        text.push('"');
                        j += 2;
                    }
                    Some('"') => {
                        j += 1;
                        break;
                    }
                    Some(&c) => {
                        text.push(c);
                        j += 1;
                    }
                }
            }
            while j < chars.len() && chars[j] == ' ' {
                j += 1;
            }
            if j < chars.len() && chars[j] != ',' {
                return Err(j + 1);
            }
            i = j;
        } else {
            while i < chars.len() && chars[i] != ',' {
                text.push(chars[i]);
                i += 1;
            }
            text = text.trim().to_string();
        }
        fields.push((start + 1, text));
        if i >= chars.len() {
            return Ok(fields);
        }
        i += 1; // the comma
    }
}

impl<'a> RowReader<'a> {
    /// Reads up to the first data line: the header of a CSV file, or the
    /// first object of a JSON Lines file.
    pub fn new(
        file: &'a str,
        text: &'a str,
        required: &'static [&'static str],
        optional: &'static [&'static str],
    ) -> Result<RowReader<'a>, FileError> {
        let known: Vec<&'static str> = required.iter().chain(optional).copied().collect();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut reader = RowReader {
            file,
            lines: text.lines().enumerate(),
            form: Form::JsonLines,
            known,
            required,
            directives: BTreeMap::new(),
            skipped: 0,
        };
        let error = |line: usize, column: usize, message: String| FileError {
            file: file.to_string(),
            line,
            column,
            message,
        };
        // Find the first data line without consuming it when it is JSON.
        let mut peek = reader.lines.clone();
        loop {
            let Some((index, line)) = peek.next() else {
                return Err(error(
                    0,
                    0,
                    format!(
                        "no header line (expected \"{}\" or JSON Lines)",
                        required.join(",")
                    ),
                ));
            };
            if reader.comment(index + 1, line) {
                reader.lines.next();
                continue;
            }
            if line.trim_start().starts_with('{') {
                return Ok(reader);
            }
            reader.lines.next();
            let fields =
                split_csv(line).map_err(|c| error(index + 1, c, "unbalanced quote".to_string()))?;
            let mut columns = Vec::new();
            for (column, name) in fields {
                let Some(&known) = reader.known.iter().find(|k| **k == name) else {
                    return Err(error(
                        index + 1,
                        column,
                        format!(
                            "unknown column \"{name}\" (the columns are {}, and optionally {})",
                            required.join(","),
                            optional.join(", ")
                        ),
                    ));
                };
                if columns.contains(&known) {
                    return Err(error(
                        index + 1,
                        column,
                        format!("column \"{name}\" appears twice"),
                    ));
                }
                columns.push(known);
            }
            if let Some(missing) = required.iter().find(|r| !columns.contains(r)) {
                return Err(error(
                    index + 1,
                    0,
                    format!(
                        "the header has no column \"{missing}\" (expected \"{}\")",
                        required.join(",")
                    ),
                ));
            }
            reader.form = Form::Csv(columns);
            return Ok(reader);
        }
    }

    /// Whether `line` is a comment or blank line; counts it, and keeps a
    /// `# key: value` comment's value.
    fn comment(&mut self, number: usize, line: &str) -> bool {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            self.skipped += 1;
            return true;
        }
        let Some(comment) = trimmed.strip_prefix('#') else {
            return false;
        };
        self.skipped += 1;
        if let Some((key, value)) = comment.split_once(':') {
            let key = key.trim();
            if !key.is_empty() && !key.contains(' ') {
                self.directives
                    .entry(key.to_string())
                    .or_insert_with(|| (number, value.trim().to_string()));
            }
        }
        true
    }

    /// The line and value of a `# key: value` comment (the first, if
    /// repeated).
    pub fn directive(&self, key: &str) -> Option<(usize, &str)> {
        self.directives
            .get(key)
            .map(|(line, value)| (*line, value.as_str()))
    }

    pub fn skipped_lines(&self) -> usize {
        self.skipped
    }

    /// The next data row, or `None` at the end.
    pub fn next_row(&mut self) -> Result<Option<Row<'a>>, FileError> {
        loop {
            let Some((index, line)) = self.lines.next() else {
                return Ok(None);
            };
            let number = index + 1;
            if self.comment(number, line) {
                continue;
            }
            let error = |column: usize, message: String| FileError {
                file: self.file.to_string(),
                line: number,
                column,
                message,
            };
            let mut fields = BTreeMap::new();
            match &self.form {
                Form::Csv(columns) => {
                    let values =
                        split_csv(line).map_err(|c| error(c, "unbalanced quote".to_string()))?;
                    if values.len() != columns.len() {
                        return Err(error(
                            0,
                            format!(
                                "{} fields, but the header has {} columns",
                                values.len(),
                                columns.len()
                            ),
                        ));
                    }
                    for (key, (column, text)) in columns.iter().zip(values) {
                        fields.insert(
                            *key,
                            Field {
                                column,
                                value: Value::Text(text),
                            },
                        );
                    }
                }
                Form::JsonLines => {
                    let object: serde_json::Map<String, serde_json::Value> =
                        serde_json::from_str(line)
                            .map_err(|e| error(e.column(), format!("not a JSON object: {e}")))?;
                    for (key, value) in object {
                        let column = line
                            .find(&format!("\"{key}\""))
                            .map_or(0, |byte| line[..byte].chars().count() + 1);
                        let Some(&known) = self.known.iter().find(|k| **k == key) else {
                            return Err(error(
                                column,
                                format!(
                                    "unknown key \"{key}\" (the keys are {})",
                                    self.known.join(", ")
                                ),
                            ));
                        };
                        fields.insert(
                            known,
                            Field {
                                column,
                                value: Value::Json(value),
                            },
                        );
                    }
                    if let Some(missing) = self.required.iter().find(|r| !fields.contains_key(*r)) {
                        return Err(error(0, format!("missing key \"{missing}\"")));
                    }
                }
            }
            return Ok(Some(Row {
                file: self.file,
                line: number,
                fields,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_csv;

    #[test]
    fn csv_fields_keep_their_columns_and_unquote() {
        let fields = split_csv(r#"0, "a, b" ,"say ""hi""",x"#).unwrap();
        let texts: Vec<&str> = fields.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(texts, ["0", "a, b", "say \"hi\"", "x"]);
        let columns: Vec<usize> = fields.iter().map(|(c, _)| *c).collect();
        assert_eq!(columns, [1, 3, 12, 25]);
        assert_eq!(split_csv(r#"0,"open"#), Err(3));
        assert_eq!(split_csv("").unwrap().len(), 1);
    }
}
