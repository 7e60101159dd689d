//! A JSON object reader that remembers where it is, so that every scene error
//! names the body and key (`bodies[2] "shaft-1": shape.bottom_radius`), and that
//! rejects keys it was never asked for.
//!
//! It lives with the shape types, the lowest layer that reads scene files:
//! each type reads its own keys with it, and the scene parser reads the
//! rest of the file with it.

use crate::number_text::readable;
use glam::{DVec2, DVec3};
use serde_json::{Map, Value};

pub struct ObjectReader<'a> {
    path: String,
    map: &'a Map<String, Value>,
    known: Vec<&'static str>,
}

pub type ReadResult<T> = Result<T, String>;

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl<'a> ObjectReader<'a> {
    pub fn new(path: impl Into<String>, value: &'a Value) -> ReadResult<Self> {
        let path = path.into();
        match value {
            Value::Object(map) => Ok(ObjectReader {
                path,
                map,
                known: Vec::new(),
            }),
            other => Err(format!(
                "{}: expected an object, found {}",
                display_path(&path),
                kind(other)
            )),
        }
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn err<T>(&self, key: &str, message: impl std::fmt::Display) -> ReadResult<T> {
        Err(format!("{}: {message}", self.key_path(key)))
    }

    pub fn optional(&mut self, key: &'static str) -> Option<&'a Value> {
        self.known.push(key);
        self.map.get(key)
    }

    pub fn required(&mut self, key: &'static str) -> ReadResult<&'a Value> {
        match self.optional(key) {
            Some(v) => Ok(v),
            None => self.err(key, "missing required key"),
        }
    }

    pub fn string(&mut self, key: &'static str) -> ReadResult<String> {
        let v = self.required(key)?;
        v.as_str()
            .map(str::to_string)
            .ok_or(())
            .or_else(|_| self.err(key, format!("expected a string, found {}", kind(v))))
    }

    pub fn optional_string(&mut self, key: &'static str) -> ReadResult<Option<String>> {
        match self.optional(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => self.err(key, format!("expected a string, found {}", kind(v))),
        }
    }

    pub fn bool_or(&mut self, key: &'static str, default: bool) -> ReadResult<bool> {
        match self.optional(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => self.err(key, format!("expected true or false, found {}", kind(v))),
        }
    }

    pub fn number_value(&self, key: &str, v: &Value) -> ReadResult<f64> {
        match v.as_f64() {
            Some(x) if x.is_finite() => Ok(x),
            Some(x) => self.err(key, format!("must be a finite number, got {}", readable(x))),
            None => self.err(key, format!("expected a number, found {}", kind(v))),
        }
    }

    pub fn number(&mut self, key: &'static str) -> ReadResult<f64> {
        let v = self.required(key)?;
        self.number_value(key, v)
    }

    pub fn optional_number(&mut self, key: &'static str) -> ReadResult<Option<f64>> {
        match self.optional(key) {
            None => Ok(None),
            Some(v) => self.number_value(key, v).map(Some),
        }
    }

    pub fn positive(&mut self, key: &'static str) -> ReadResult<f64> {
        let x = self.number(key)?;
        if x > 0.0 {
            Ok(x)
        } else {
            self.err(key, format!("must be positive, got {}", readable(x)))
        }
    }

    pub fn optional_positive(&mut self, key: &'static str) -> ReadResult<Option<f64>> {
        match self.optional_number(key)? {
            Some(x) if x <= 0.0 => self.err(key, format!("must be positive, got {}", readable(x))),
            other => Ok(other),
        }
    }

    pub fn whole_number(&mut self, key: &'static str, min: u64, max: u64) -> ReadResult<u64> {
        let v = self.required(key)?;
        match v.as_u64() {
            Some(n) if (min..=max).contains(&n) => Ok(n),
            _ => self.err(
                key,
                format!("must be a whole number from {min} to {max}, got {v}"),
            ),
        }
    }

    pub fn optional_whole_number(
        &mut self,
        key: &'static str,
        min: u64,
        max: u64,
    ) -> ReadResult<Option<u64>> {
        if self.map.contains_key(key) {
            self.whole_number(key, min, max).map(Some)
        } else {
            self.known.push(key);
            Ok(None)
        }
    }

    fn numbers(&self, key: &str, v: &Value, n: usize) -> ReadResult<Vec<f64>> {
        match v.as_array() {
            Some(items) if items.len() == n => items
                .iter()
                .enumerate()
                .map(|(i, x)| self.number_value(&format!("{key}[{i}]"), x))
                .collect(),
            _ => self.err(
                key,
                format!("expected an array of {n} numbers, found {}", short(v)),
            ),
        }
    }

    pub fn vec3_value(&self, key: &str, v: &Value) -> ReadResult<DVec3> {
        let x = self.numbers(key, v, 3)?;
        Ok(DVec3::new(x[0], x[1], x[2]))
    }

    pub fn vec3(&mut self, key: &'static str) -> ReadResult<DVec3> {
        let v = self.required(key)?;
        self.vec3_value(key, v)
    }

    pub fn optional_vec3(&mut self, key: &'static str) -> ReadResult<Option<DVec3>> {
        match self.optional(key) {
            None => Ok(None),
            Some(v) => self.vec3_value(key, v).map(Some),
        }
    }

    /// A non-zero direction, normalised.
    pub fn direction_value(&self, key: &str, v: &Value) -> ReadResult<DVec3> {
        let d = self.vec3_value(key, v)?;
        let len = d.length();
        if len > 1e-12 {
            Ok(d / len)
        } else {
            self.err(key, "must be a non-zero direction")
        }
    }

    pub fn direction(&mut self, key: &'static str) -> ReadResult<DVec3> {
        let v = self.required(key)?;
        self.direction_value(key, v)
    }

    pub fn array(&mut self, key: &'static str) -> ReadResult<&'a Vec<Value>> {
        let v = self.required(key)?;
        v.as_array()
            .ok_or(())
            .or_else(|_| self.err(key, format!("expected an array, found {}", kind(v))))
    }

    pub fn vec3_list(&mut self, key: &'static str) -> ReadResult<Vec<DVec3>> {
        let items = self.array(key)?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| self.vec3_value(&format!("{key}[{i}]"), v))
            .collect()
    }

    pub fn vec2_list(&mut self, key: &'static str) -> ReadResult<Vec<DVec2>> {
        let items = self.array(key)?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let x = self.numbers(&format!("{key}[{i}]"), v, 2)?;
                Ok(DVec2::new(x[0], x[1]))
            })
            .collect()
    }

    pub fn index_list<const N: usize>(&mut self, key: &'static str) -> ReadResult<Vec<[u32; N]>> {
        let items = self.array(key)?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let ok = v.as_array().filter(|a| a.len() == N).and_then(|a| {
                    a.iter()
                        .map(|x| {
                            x.as_u64()
                                .filter(|&n| n <= u32::MAX as u64)
                                .map(|n| n as u32)
                        })
                        .collect::<Option<Vec<u32>>>()
                });
                match ok {
                    Some(idx) => Ok(std::array::from_fn(|k| idx[k])),
                    None => self.err(
                        &format!("{key}[{i}]"),
                        format!("expected {N} vertex indices, found {}", short(v)),
                    ),
                }
            })
            .collect()
    }

    /// Sub-reader for an object-valued key.
    pub fn object(&mut self, key: &'static str) -> ReadResult<ObjectReader<'a>> {
        let v = self.required(key)?;
        ObjectReader::new(self.key_path(key), v)
    }

    pub fn optional_object(&mut self, key: &'static str) -> ReadResult<Option<ObjectReader<'a>>> {
        match self.optional(key) {
            None => Ok(None),
            Some(v) => ObjectReader::new(self.key_path(key), v).map(Some),
        }
    }

    /// Fails on any key that no accessor asked for.
    pub fn finish(self) -> ReadResult<()> {
        let mut unknown: Vec<&String> = self
            .map
            .keys()
            .filter(|k| !self.known.contains(&k.as_str()))
            .collect();
        unknown.sort();
        match unknown.first() {
            None => Ok(()),
            Some(k) => {
                let mut expected = self.known.clone();
                expected.sort_unstable();
                expected.dedup();
                Err(format!(
                    "{}: unknown key (expected one of: {})",
                    self.key_path(k),
                    expected.join(", ")
                ))
            }
        }
    }
}

fn display_path(path: &str) -> &str {
    if path.is_empty() {
        "the file"
    } else {
        path
    }
}

/// A value shortened for an error message.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 {
        format!(
            "{}…",
            &s[..s
                .char_indices()
                .take_while(|(i, _)| *i < 40)
                .last()
                .map(|(i, c)| i + c.len_utf8())
                .unwrap_or(0)]
        )
    } else {
        s
    }
}
