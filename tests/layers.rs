//! The layering rule (`docs/design/layers.md`, "What each layer may use"): each
//! top-level module of the crate uses only the modules listed before it in
//! [`LAYERS`]; `bin` and `web` may use everything and nothing may use them.
//!
//! The test reads every `src/**/*.rs` outside `src/bin` and `src/web`,
//! finds its references to top-level modules (`use crate::x…`, `use
//! crate::{x, y::z}` and `crate::x::…` paths anywhere in the code, comments
//! and string literals excluded) and fails on every reference to a module
//! listed later (an upward edge) and on every cycle, naming file and line.
//!
//! `super::` paths are not followed: below the top level they stay inside
//! the module, and no top-level file reaches the crate root through them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The crate's top-level modules, lowest first; each may use only those
/// before it. To move a module, move its line.
#[rustfmt::skip]
const LAYERS: &[&str] = &[
    "clock",    // wall-clock helper for timing readouts: usable by every layer
    "geometry", // predicates, closest points, SAT, clipping, hulls: nothing of ours
    "settings", // the settings schema: plain data and validation, so scene files can use it
    "mesh",     // tetrahedral meshes, surface features, shapes, mass properties
    "scene",    // scene types, the file parser, oracles: built from meshes
    "contact",  // contacts, broad phase, exact regions, the method registry
    "dynamics", // rigid bodies and the stepper
    "solver",   // may use the bodies of dynamics, never the other way round
    "measures", // quality, coverage, excess, P of a scene's contacts; used by sim
    "sim",      // Simulation: scene + method + settings → step records
    "report",   // the paper's tables and numbers, built on sim
];

/// Entries that may use everything and that nothing else may use. They are
/// not read.
const TOP: &[&str] = &["bin", "web"];

/// A reference to a top-level module: line (1-based) and module name.
type Reference = (usize, String);

#[test]
fn every_module_uses_only_modules_listed_before_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();

    let mut problems = Vec::new();
    // (from, to) → first place it happens, for the cycle report.
    let mut edges: BTreeMap<(String, String), String> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let shown = Path::new("src").join(relative).display().to_string();
        let Some(module) = top_level_module(relative) else {
            continue; // lib.rs: the crate root declares the modules.
        };
        if TOP.contains(&module.as_str()) {
            continue;
        }
        let Some(rank) = LAYERS.iter().position(|m| *m == module) else {
            problems.push(format!(
                "{shown}: module `{module}` is not in LAYERS; add it where it belongs"
            ));
            continue;
        };
        let source = std::fs::read_to_string(file).unwrap();
        for (line, target) in crate_references(&source) {
            if target == module {
                continue;
            }
            let target_rank = LAYERS.iter().position(|m| *m == target);
            match target_rank {
                Some(t) if t < rank => {}
                Some(_) => problems.push(format!(
                    "{shown}:{line}: `{module}` uses `{target}`, which is listed after it in LAYERS"
                )),
                None if TOP.contains(&target.as_str()) => problems.push(format!(
                    "{shown}:{line}: `{module}` uses `{target}`, which only the crate's users may use"
                )),
                None => problems.push(format!(
                    "{shown}:{line}: `{module}` uses `crate::{target}`, which is not in LAYERS"
                )),
            }
            edges
                .entry((module.clone(), target))
                .or_insert_with(|| format!("{shown}:{line}"));
        }
    }
    problems.extend(cycles(&edges));
    assert!(
        problems.is_empty(),
        "{} layering problem(s) (order, lowest first: {}):\n{}",
        problems.len(),
        LAYERS.join(" → "),
        problems.join("\n")
    );
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `sim.rs` → sim, `contact/methods/growth.rs` → contact, `lib.rs` → none.
fn top_level_module(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    if relative.components().count() > 1 {
        return Some(first.to_string());
    }
    let name = first.strip_suffix(".rs")?;
    (name != "lib").then(|| name.to_string())
}

/// One sentence per group of modules that use each other (directly or
/// through others), with the first place of each edge inside the group.
fn cycles(edges: &BTreeMap<(String, String), String>) -> Vec<String> {
    let mut modules: Vec<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    modules.sort();
    modules.dedup();
    let n = modules.len();
    let index = |m: &String| modules.iter().position(|x| *x == m).unwrap();
    let mut reaches = vec![vec![false; n]; n];
    for (a, b) in edges.keys() {
        reaches[index(a)][index(b)] = true;
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                reaches[i][j] |= reaches[i][k] && reaches[k][j];
            }
        }
    }
    let mut reported = vec![false; n];
    let mut sentences = Vec::new();
    for i in 0..n {
        if reported[i] || !reaches[i][i] {
            continue;
        }
        let group: Vec<usize> = (0..n).filter(|&j| reaches[i][j] && reaches[j][i]).collect();
        for &j in &group {
            reported[j] = true;
        }
        let inside: Vec<String> = edges
            .iter()
            .filter(|((a, b), _)| group.contains(&index(a)) && group.contains(&index(b)))
            .map(|((a, b), place)| format!("{a} → {b} ({place})"))
            .collect();
        let names: Vec<&str> = group.iter().map(|&j| modules[j].as_str()).collect();
        sentences.push(format!(
            "cycle among {}: {}",
            names.join(", "),
            inside.join(", ")
        ));
    }
    sentences
}

/// The top-level modules a Rust source names through `crate::`, with the
/// line of each mention: `crate::x…` anywhere, and each item of a `use
/// crate::{x, y::z}` group. Comments, string and character literals are
/// skipped. `$crate::x` counts too.
fn crate_references(source: &str) -> Vec<Reference> {
    let tokens = tokens(source);
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let is_crate_path =
            tokens[i].text == "crate" && tokens.get(i + 1).is_some_and(|t| t.text == "::");
        if !is_crate_path {
            i += 1;
            continue;
        }
        i += 2;
        match tokens.get(i) {
            Some(t) if t.text == "{" => {
                // A group: the first name of each item at depth 1.
                let mut depth = 0;
                let mut item_start = true;
                while let Some(t) = tokens.get(i) {
                    match t.text.as_str() {
                        "{" => {
                            depth += 1;
                            item_start = depth == 1;
                        }
                        "}" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        "," => item_start = depth == 1,
                        name if item_start && is_identifier(name) => {
                            if name != "self" {
                                found.push((t.line, name.to_string()));
                            }
                            item_start = false;
                        }
                        _ => item_start = false,
                    }
                    i += 1;
                }
            }
            Some(t) if is_identifier(&t.text) => found.push((t.line, t.text.clone())),
            _ => {}
        }
        i += 1;
    }
    found
}

fn is_identifier(text: &str) -> bool {
    text.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// A token of Rust code that matters here: an identifier, `::`, or one
/// other punctuation character.
#[derive(Debug)]
struct Token {
    text: String,
    line: usize,
}

/// Splits code into tokens, dropping whitespace, comments (nested block
/// comments included), string literals (raw, byte and C strings included)
/// and character literals, so that text about `crate::x` is not code.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Advances past chars[i..end], counting newlines.
    let skip = |i: &mut usize, end: usize, line: &mut usize| {
        let end = end.min(chars.len());
        *line += chars[*i..end].iter().filter(|&&c| c == '\n').count();
        *i = end;
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let end = (i..chars.len())
                .find(|&j| chars[j] == '\n')
                .unwrap_or(chars.len());
            skip(&mut i, end, &mut line);
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            let mut j = i;
            while j < chars.len() {
                if chars[j] == '/' && chars.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if chars[j] == '*' && chars.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            skip(&mut i, j, &mut line);
        } else if c == '"' {
            let end = quoted_end(&chars, i + 1, '"');
            skip(&mut i, end, &mut line);
        } else if c == '\'' {
            // A character literal ('x', '\n', '"') or a lifetime ('a).
            if next == Some('\\') {
                let end = quoted_end(&chars, i + 1, '\'');
                skip(&mut i, end, &mut line);
            } else if chars.get(i + 2) == Some(&'\'') {
                let end = i + 3;
                skip(&mut i, end, &mut line);
            } else {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let end = (i..chars.len())
                .find(|&j| !(chars[j].is_alphanumeric() || chars[j] == '_'))
                .unwrap_or(chars.len());
            let word: String = chars[i..end].iter().collect();
            let after = chars.get(end).copied();
            if matches!(word.as_str(), "r" | "br" | "cr") && matches!(after, Some('"' | '#')) {
                // Raw string: r#…#"…"#…#, ended by a quote and as many #.
                let hashes = (end..chars.len()).take_while(|&j| chars[j] == '#').count();
                let open = end + hashes;
                if chars.get(open) == Some(&'"') {
                    let close = (open + 1..chars.len())
                        .find(|&j| {
                            chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#'))
                        })
                        .map_or(chars.len(), |j| j + 1 + hashes);
                    skip(&mut i, close, &mut line);
                    continue;
                }
            }
            if matches!(word.as_str(), "b" | "c") && after == Some('"') {
                let close = quoted_end(&chars, end + 1, '"');
                skip(&mut i, close, &mut line);
                continue;
            }
            if word == "b" && after == Some('\'') {
                let close = quoted_end(&chars, end + 1, '\'');
                skip(&mut i, close, &mut line);
                continue;
            }
            tokens.push(Token { text: word, line });
            i = end;
        } else if c == ':' && next == Some(':') {
            tokens.push(Token {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            if c == '\n' {
                line += 1;
            } else if !c.is_whitespace() {
                tokens.push(Token {
                    text: c.to_string(),
                    line,
                });
            }
            i += 1;
        }
    }
    tokens
}

/// The index just past the `quote` that closes a literal whose contents
/// start at `start`, honouring backslash escapes.
fn quoted_end(chars: &[char], start: usize, quote: char) -> usize {
    let mut j = start;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    chars.len()
}

#[test]
fn the_parser_finds_crate_paths_in_code_only() {
    let refs = |s: &str| crate_references(s);
    let r = |pairs: &[(usize, &str)]| -> Vec<Reference> {
        pairs.iter().map(|&(l, m)| (l, m.to_string())).collect()
    };

    // A use group, nested groups and `self` inside one.
    assert_eq!(
        refs("use crate::{geometry, mesh::TetMesh};"),
        r(&[(1, "geometry"), (1, "mesh")])
    );
    assert_eq!(
        refs("use crate::{\n    contact::{Contact, FeatureKind},\n    self,\n    dynamics::Body,\n};"),
        r(&[(2, "contact"), (4, "dynamics")])
    );
    // A path in an expression and in a type, `$crate` in a macro.
    assert_eq!(
        refs("fn f() {\n    let n = 1 + crate::scene::count(&x);\n}\nstruct S(crate::sim::Step);"),
        r(&[(2, "scene"), (4, "sim")])
    );
    assert_eq!(
        refs("macro_rules! m { () => { $crate::clock::now_ms() } }"),
        r(&[(1, "clock")])
    );

    // Comments, doc comments and literals are not code.
    let not_code = r###"
        // crate::sim in a line comment
        /// [`crate::sim::Simulation`] in a doc comment
        /* crate::sim /* nested */ crate::sim */
        let a = "crate::sim::x";
        let b = "escaped \" crate::sim";
        let c = r#"raw "crate::sim" string"#;
        let d = b"crate::sim";
        let e = '"'; let f = '\''; fn g<'a>(x: &'a str) {}
        pub(crate) fn h() {}
    "###;
    assert_eq!(refs(not_code), r(&[]));
    // ...and the tokenizer is back in code after each of them.
    assert_eq!(
        refs(&format!("{not_code}crate::report::x();")),
        r(&[(11, "report")])
    );
}

#[test]
fn files_map_to_their_top_level_module() {
    assert_eq!(
        top_level_module(Path::new("sim.rs")).as_deref(),
        Some("sim")
    );
    assert_eq!(
        top_level_module(Path::new("contact/methods/growth.rs")).as_deref(),
        Some("contact")
    );
    assert_eq!(top_level_module(Path::new("lib.rs")), None);
}

#[test]
fn a_cycle_is_reported_with_its_edges() {
    let edge = |a: &str, b: &str, at: &str| ((a.to_string(), b.to_string()), at.to_string());
    let edges: BTreeMap<_, _> = [
        edge("measures", "sim", "src/measures/tables.rs:9"),
        edge("sim", "measures", "src/sim.rs:4"),
        edge("sim", "scene", "src/sim.rs:5"),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        cycles(&edges),
        [
            "cycle among measures, sim: measures → sim (src/measures/tables.rs:9), \
          sim → measures (src/sim.rs:4)"
        ]
    );
}
