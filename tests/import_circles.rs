//! No import circle between files (issue 39; `docs/design/layers.md`):
//! tests/layers.rs orders the top-level modules, this test looks one level
//! finer, at files. It builds the graph "file A imports file B" for every
//! `.rs` file under `src/` and every `.js` file under `www/`, and fails on
//! every group of files that reach each other (a strongly connected
//! component of more than one file), naming the files and one import line
//! per edge inside the group.
//!
//! Rust: every `crate::`, `super::`, `self::` path, and every path that
//! starts with a child module's name, in `use` lines and in code alike
//! (comments and literals skipped), names the file of the deepest module
//! it reaches (`x/y.rs` or `x/y/mod.rs`); an item that file re-exports
//! (`pub use z::Item`) is followed to the file it comes from, so the edge
//! points at the file that defines it. `mod x;` declares, it does not
//! import; paths inside an inline `mod tests { … }` start from that module.
//! A file's use of what its own folder's `mod.rs` defines (an item of its
//! parent, or of the crate root) is no edge: the parent dispatches down to
//! its files, they share its vocabulary; every other edge counts, test
//! modules' included.
//! Paths into another crate (`contactlab::` from `src/bin`) cannot close a
//! circle, since the library never names the binary, and are not read.
//!
//! JavaScript: `import … from './x.js'`, `export … from './x.js'`,
//! `import './x.js'` and `import('./x.js')` with a literal string, relative
//! or from the page's root (`/x.js`); comments, other strings, template
//! literals and regular expressions are skipped.

#[path = "support/rust_tokens.rs"]
mod rust_tokens;

use rust_tokens::{is_identifier, tokens, Token};
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// One import: `from` names `to`, at `line`, whose text is `text`.
#[derive(Debug, Clone, PartialEq)]
struct Edge {
    from: String,
    to: String,
    line: usize,
    text: String,
}

#[test]
fn no_file_imports_itself_through_other_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rust = files_ending(&root.join("src"), ".rs");
    let js = files_ending(&root.join("www"), ".js");
    assert!(
        !rust.is_empty(),
        "found no .rs file under src/: nothing was checked"
    );
    assert!(
        !js.is_empty(),
        "found no .js file under www/: nothing was checked"
    );

    let read = |files: &[PathBuf]| -> Vec<(String, String)> {
        files
            .iter()
            .map(|f| {
                let shown = f
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                (shown, std::fs::read_to_string(f).unwrap())
            })
            .collect()
    };
    let mut edges = rust_edges(&read(&rust));
    edges.extend(js_edges(&read(&js)));
    assert!(
        !edges.is_empty(),
        "read {} .rs and {} .js files but found no import at all: the reader is broken",
        rust.len(),
        js.len()
    );
    let circles = circles(&edges);
    assert!(
        circles.is_empty(),
        "{} import circle(s) between files; move what both sides need into a file below them:\n{}",
        circles.len(),
        circles.join("\n")
    );
}

/// Every file below `dir` whose name ends in `suffix`, sorted.
fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// One group of files that import each other, as a paragraph: the files,
/// then every edge inside the group with its line.
fn circles(edges: &[Edge]) -> Vec<String> {
    let mut nodes: Vec<&str> = edges
        .iter()
        .flat_map(|e| [e.from.as_str(), e.to.as_str()])
        .collect();
    nodes.sort();
    nodes.dedup();
    let index: HashMap<&str, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut next = vec![Vec::new(); nodes.len()];
    for e in edges {
        next[index[e.from.as_str()]].push(index[e.to.as_str()]);
    }
    let mut paragraphs = Vec::new();
    for group in components(&next) {
        if group.len() < 2 {
            continue;
        }
        let inside = |name: &str| group.iter().any(|&g| nodes[g] == name);
        let mut names: Vec<&str> = group.iter().map(|&g| nodes[g]).collect();
        names.sort();
        let lines: Vec<String> = edges
            .iter()
            .filter(|e| inside(&e.from) && inside(&e.to))
            .map(|e| format!("  {}:{} → {}: {}", e.from, e.line, e.to, e.text))
            .collect();
        paragraphs.push(format!(
            "circle among {}:\n{}",
            names.join(", "),
            lines.join("\n")
        ));
    }
    paragraphs.sort();
    paragraphs
}

/// The strongly connected components of a graph given by each node's
/// successors (Tarjan's algorithm, iterative so deep graphs cannot
/// overflow the stack).
fn components(next: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = next.len();
    let mut order = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut found = Vec::new();
    let mut counter = 0;
    for start in 0..n {
        if order[start] != usize::MAX {
            continue;
        }
        // (node, index of the next successor to visit)
        let mut path = vec![(start, 0)];
        order[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut k)) = path.last_mut() {
            if let Some(&w) = next[v].get(*k) {
                *k += 1;
                if order[w] == usize::MAX {
                    order[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    path.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            path.pop();
            if let Some(&(parent, _)) = path.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut group = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group.push(w);
                    if w == v {
                        break;
                    }
                }
                found.push(group);
            }
        }
    }
    found
}

// ---- Rust ----

/// A module: its crate (`lib`, or `bin/NAME` for a binary) and its path
/// inside that crate.
type Module = (String, Vec<String>);

/// A path read from Rust code, with the inline modules it sits in, its
/// name when it is re-exported (`pub use a::b as c` → c), and its line.
#[derive(Debug, PartialEq)]
struct RustPath {
    line: usize,
    inline: Vec<String>,
    segments: Vec<String>,
    exported_as: Option<String>,
}

/// The import edges between the given Rust files (path as shown, source).
fn rust_edges(files: &[(String, String)]) -> Vec<Edge> {
    let modules: HashMap<Module, usize> = files
        .iter()
        .enumerate()
        .map(|(k, (shown, _))| (module_of_file(shown), k))
        .collect();
    let read: Vec<Vec<RustPath>> = files.iter().map(|(_, s)| rust_paths(s)).collect();

    // What each file re-exports: name → the absolute path it stands for.
    let mut exports: Vec<HashMap<String, Vec<String>>> = vec![HashMap::new(); files.len()];
    for (k, paths) in read.iter().enumerate() {
        let (_, here) = module_of_file(&files[k].0);
        for path in paths.iter().filter(|p| p.inline.is_empty()) {
            if let Some(name) = &path.exported_as {
                let absolute = absolute(&here, &path.segments);
                exports[k].insert(name.clone(), absolute);
            }
        }
    }

    let mut edges = Vec::new();
    for (k, paths) in read.iter().enumerate() {
        let (krate, here) = module_of_file(&files[k].0);
        let lines: Vec<&str> = files[k].1.lines().collect();
        for path in paths {
            let context: Vec<String> = here.iter().chain(&path.inline).cloned().collect();
            let first = path.segments[0].as_str();
            let is_module_path = matches!(first, "crate" | "super" | "self")
                || modules.contains_key(&(
                    krate.clone(),
                    [context.clone(), vec![first.into()]].concat(),
                ));
            if !is_module_path {
                continue;
            }
            let target = defining_file(
                &krate,
                absolute(&context, &path.segments),
                &modules,
                &exports,
            );
            // A file may use what an enclosing folder's `mod.rs` (or the
            // crate root) defines: the compiler makes that file the parent
            // of every file in the folder, and its items are the folder's
            // shared vocabulary. The edge down, parent to child, counts.
            let is_own_parent = |t: usize| {
                let (_, above) = module_of_file(&files[t].0);
                above.len() < here.len() && here.starts_with(&above)
            };
            if let Some(to) = target.filter(|&t| t != k && !is_own_parent(t)) {
                edges.push(Edge {
                    from: files[k].0.clone(),
                    to: files[to].0.clone(),
                    line: path.line,
                    text: lines.get(path.line - 1).unwrap_or(&"").trim().to_string(),
                });
            }
        }
    }
    // One line per edge: the first.
    let mut seen = HashSet::new();
    edges.retain(|e| seen.insert((e.from.clone(), e.to.clone())));
    edges
}

/// The crate and module a file under `src/` defines: `src/contact/regions/mod.rs`
/// → (lib, contact::regions); `src/bin/contactlab/score.rs` → (bin/contactlab, score).
fn module_of_file(shown: &str) -> Module {
    let parts: Vec<&str> = shown.split('/').skip(1).collect(); // past "src"
    let (krate, inside) = match parts.as_slice() {
        ["bin", file] => return (format!("bin/{}", file.trim_end_matches(".rs")), Vec::new()),
        ["bin", name, inside @ ..] => (format!("bin/{name}"), inside),
        inside => ("lib".to_string(), inside),
    };
    let mut segments: Vec<String> = inside.iter().map(|s| s.to_string()).collect();
    let last = segments.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    let is_root = segments.is_empty() && matches!(stem, "lib" | "main");
    if stem != "mod" && !is_root {
        segments.push(stem.to_string());
    }
    (krate, segments)
}

/// A path written in module `context`, made absolute within its crate.
fn absolute(context: &[String], segments: &[String]) -> Vec<String> {
    let mut at = match segments.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        _ => context.to_vec(),
    };
    for (k, segment) in segments.iter().enumerate() {
        match segment.as_str() {
            "crate" if k == 0 => {}
            "self" | "*" => {}
            "super" => {
                at.pop();
            }
            name => at.push(name.to_string()),
        }
    }
    at
}

/// The file that defines what an absolute path names: the deepest module
/// file on it, and, when the rest of the path is an item that file
/// re-exports, the file the re-export comes from.
fn defining_file(
    krate: &str,
    mut path: Vec<String>,
    modules: &HashMap<Module, usize>,
    exports: &[HashMap<String, Vec<String>>],
) -> Option<usize> {
    let mut file = None;
    for _ in 0..16 {
        let depth = (0..=path.len())
            .rev()
            .find(|&d| modules.contains_key(&(krate.to_string(), path[..d].to_vec())))?;
        let k = modules[&(krate.to_string(), path[..depth].to_vec())];
        file = Some(k);
        match path.get(depth).and_then(|item| exports[k].get(item)) {
            Some(source) if *source != path[..=depth] => {
                path = [source.clone(), path[depth + 1..].to_vec()].concat();
            }
            _ => break,
        }
    }
    file
}

/// Every path in Rust code that may name a module: it starts with an
/// identifier followed by `::` (and is not the tail of a longer path);
/// each leaf of a `{…}` group is a path of its own.
fn rust_paths(source: &str) -> Vec<RustPath> {
    let tokens = tokens(source);
    let text = |i: usize| tokens.get(i).map_or("", |t: &Token| t.text.as_str());
    let mut found = Vec::new();
    let mut inline: Vec<(String, i32)> = Vec::new(); // name, depth of its body
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        match text(i) {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d > depth) {
                    inline.pop();
                }
            }
            "mod" if is_identifier(text(i + 1)) && text(i + 2) == "{" => {
                depth += 1;
                inline.push((text(i + 1).to_string(), depth));
                i += 3;
                continue;
            }
            word if is_identifier(word)
                && text(i + 1) == "::"
                && (i == 0 || text(i - 1) != "::") =>
            {
                let line = tokens[i].line;
                let exported = is_pub_use(&tokens, i);
                let mut leaves = Vec::new();
                i = use_tree(&tokens, i, Vec::new(), &mut leaves);
                for (segments, alias) in leaves {
                    let exported_as = exported
                        .then(|| alias.or_else(|| item_name(&segments)))
                        .flatten();
                    found.push(RustPath {
                        line,
                        inline: inline.iter().map(|(n, _)| n.clone()).collect(),
                        segments,
                        exported_as,
                    });
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// Whether the path at `tokens[i]` follows `pub use` or `pub(…) use`.
fn is_pub_use(tokens: &[Token], i: usize) -> bool {
    let text = |k: usize| tokens.get(k).map_or("", |t| t.text.as_str());
    if i < 2 || text(i - 1) != "use" {
        return false;
    }
    let mut k = i - 2;
    if text(k) == ")" {
        while k > 0 && text(k) != "(" {
            k -= 1;
        }
        k = k.saturating_sub(1);
    }
    text(k) == "pub"
}

/// The name a re-exported leaf is known by: its last segment, or the one
/// before a trailing `self`; a glob has none.
fn item_name(segments: &[String]) -> Option<String> {
    let last = segments.iter().rev().find(|s| s.as_str() != "self")?;
    (last != "*" && last != "super" && last != "crate").then(|| last.clone())
}

/// Reads the path tree starting at `tokens[i]` (`a::b::{c, d::e as f, *}`),
/// appending each leaf after `prefix`, with its `as` name, to `out`;
/// returns the index after the tree.
fn use_tree(
    tokens: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    let text = |k: usize| tokens.get(k).map_or("", |t| t.text.as_str());
    let start = i;
    loop {
        match text(i) {
            "{" => {
                i += 1;
                while i < tokens.len() && text(i) != "}" {
                    if text(i) == "," {
                        i += 1;
                    } else {
                        i = use_tree(tokens, i, prefix.clone(), out).max(i + 1);
                    }
                }
                return i + 1;
            }
            "*" => {
                prefix.push("*".into());
                out.push((prefix, None));
                return i + 1;
            }
            name if is_identifier(name) => {
                prefix.push(name.to_string());
                i += 1;
                if text(i) == "::" {
                    i += 1;
                    continue;
                }
                let alias = (text(i) == "as").then(|| text(i + 1).to_string());
                if alias.is_some() {
                    i += 2;
                }
                if !prefix.is_empty() {
                    out.push((prefix, alias));
                }
                return i;
            }
            _ => {
                if !prefix.is_empty() {
                    out.push((prefix, None));
                }
                return i.max(start + 1);
            }
        }
    }
}

// ---- JavaScript ----

/// A token of JavaScript that matters here: a word, a string literal's
/// contents (marked by `quoted`), or one punctuation character.
#[derive(Debug)]
struct JsToken {
    text: String,
    quoted: bool,
    line: usize,
}

/// The import edges between the given JavaScript files (path as shown,
/// source); only imports of files in the list become edges.
fn js_edges(files: &[(String, String)]) -> Vec<Edge> {
    let known: HashSet<&str> = files.iter().map(|(f, _)| f.as_str()).collect();
    let mut edges = Vec::new();
    for (shown, source) in files {
        let lines: Vec<&str> = source.lines().collect();
        for (line, specifier) in js_imports(source) {
            let Some(to) = js_target(shown, &specifier) else {
                continue;
            };
            if known.contains(to.as_str()) && to != *shown {
                edges.push(Edge {
                    from: shown.clone(),
                    to,
                    line,
                    text: lines.get(line - 1).unwrap_or(&"").trim().to_string(),
                });
            }
        }
    }
    let mut seen = HashSet::new();
    edges.retain(|e| seen.insert((e.from.clone(), e.to.clone())));
    edges
}

/// The file a specifier names from the file `from` (both as shown, under
/// `www/`): relative (`./x.js`, `../y/x.js`) or from the page's root
/// (`/x.js`); a package name or an address names no file of ours.
fn js_target(from: &str, specifier: &str) -> Option<String> {
    let base: PathBuf = if let Some(rooted) = specifier.strip_prefix('/') {
        Path::new("www").join(rooted)
    } else if specifier.starts_with("./") || specifier.starts_with("../") {
        Path::new(from).parent()?.join(specifier)
    } else {
        return None;
    };
    let mut parts: Vec<String> = Vec::new();
    for component in base.components() {
        match component {
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    Some(parts.join("/"))
}

/// The specifiers a JavaScript source imports, with their lines: `from
/// '…'` (import and export), `import '…'` and `import('…')`.
fn js_imports(source: &str) -> Vec<(usize, String)> {
    let tokens = js_tokens(source);
    let mut found = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let after_dot = i > 0 && tokens[i - 1].text == "." && !tokens[i - 1].quoted;
        if t.quoted || after_dot {
            continue;
        }
        let next = |k: usize| tokens.get(i + k);
        let literal = match t.text.as_str() {
            "from" | "import" => next(1).filter(|n| n.quoted),
            _ => None,
        };
        let dynamic = (t.text == "import" && next(1).is_some_and(|n| n.text == "(" && !n.quoted))
            .then(|| {
                next(2)
                    .filter(|n| n.quoted && next(3).is_some_and(|c| c.text == ")" || c.text == ","))
            })
            .flatten();
        if let Some(s) = literal.or(dynamic) {
            found.push((s.line, s.text.clone()));
        }
    }
    found
}

/// Splits JavaScript into words, string literals and punctuation, dropping
/// whitespace, comments, template literals and regular expressions.
fn js_tokens(source: &str) -> Vec<JsToken> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens: Vec<JsToken> = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let lines_in = |from: usize, to: usize| {
        chars[from..to.min(chars.len())]
            .iter()
            .filter(|&&c| c == '\n')
            .count()
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let end = if c == '/' && next == Some('/') {
            (i..chars.len())
                .find(|&j| chars[j] == '\n')
                .unwrap_or(chars.len())
        } else if c == '/' && next == Some('*') {
            (i + 2..chars.len())
                .find(|&j| chars[j] == '*' && chars.get(j + 1) == Some(&'/'))
                .map_or(chars.len(), |j| j + 2)
        } else if c == '\'' || c == '"' {
            let close = js_quoted_end(&chars, i + 1, c);
            let text: String = chars[i + 1..close.saturating_sub(1).max(i + 1)]
                .iter()
                .collect();
            tokens.push(JsToken {
                text,
                quoted: true,
                line,
            });
            close
        } else if c == '`' {
            js_template_end(&chars, i + 1)
        } else if c == '/' && regex_may_start(tokens.last()) {
            js_regex_end(&chars, i + 1)
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let end = (i..chars.len())
                .find(|&j| !(chars[j].is_alphanumeric() || chars[j] == '_' || chars[j] == '$'))
                .unwrap_or(chars.len());
            tokens.push(JsToken {
                text: chars[i..end].iter().collect(),
                quoted: false,
                line,
            });
            end
        } else {
            if !c.is_whitespace() {
                tokens.push(JsToken {
                    text: c.to_string(),
                    quoted: false,
                    line,
                });
            }
            i + 1
        };
        line += lines_in(i, end);
        i = end;
    }
    tokens
}

/// Whether a `/` after `previous` starts a regular expression rather than
/// dividing: at the start, after punctuation other than a closing bracket,
/// or after a keyword that takes an expression.
fn regex_may_start(previous: Option<&JsToken>) -> bool {
    let Some(p) = previous else {
        return true;
    };
    if p.quoted {
        return false;
    }
    let first = p.text.chars().next().unwrap_or(' ');
    if first.is_alphanumeric() || first == '_' || first == '$' {
        return matches!(
            p.text.as_str(),
            "return" | "typeof" | "case" | "do" | "else" | "in" | "of" | "void" | "yield" | "await"
        );
    }
    !matches!(p.text.as_str(), ")" | "]" | "}")
}

/// The index past the quote closing a string that starts at `start`.
fn js_quoted_end(chars: &[char], start: usize, quote: char) -> usize {
    let mut j = start;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            c if c == quote || c == '\n' => return j + 1,
            _ => j += 1,
        }
    }
    chars.len()
}

/// The index past the backtick closing a template literal whose contents
/// start at `start`; `${…}` substitutions may hold strings and templates.
fn js_template_end(chars: &[char], start: usize) -> usize {
    let mut j = start;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            '`' => return j + 1,
            '$' if chars.get(j + 1) == Some(&'{') => {
                let mut depth = 0;
                j += 1;
                while j < chars.len() {
                    match chars[j] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        '\'' | '"' => j = js_quoted_end(chars, j + 1, chars[j]) - 1,
                        '`' => j = js_template_end(chars, j + 1) - 1,
                        _ => {}
                    }
                    j += 1;
                }
                j += 1;
            }
            _ => j += 1,
        }
    }
    chars.len()
}

/// The index past a regular expression literal (and its flags) whose body
/// starts at `start`; a `/` inside a `[…]` class does not close it.
fn js_regex_end(chars: &[char], start: usize) -> usize {
    let mut j = start;
    let mut in_class = false;
    while j < chars.len() && chars[j] != '\n' {
        match chars[j] {
            '\\' => j += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            '/' if !in_class => {
                j += 1;
                while j < chars.len() && chars[j].is_alphabetic() {
                    j += 1;
                }
                return j;
            }
            _ => {}
        }
        j += 1;
    }
    j
}

// ---- The readers, checked on small sources ----

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn rust_paths_are_read_through_groups_inline_modules_and_re_exports() {
    let paths = rust_paths(
        "pub use tetmesh::{TetMesh, bounds as box_of};\nuse super::*; // crate::x\n\
         mod tests {\n    use super::Brep;\n}\nfn f() { let s = \"crate::y\"; crate::scene::load(); }",
    );
    let path =
        |line: usize, inline: &[&str], segments: &[&str], exported_as: Option<&str>| RustPath {
            line,
            inline: strings(inline),
            segments: strings(segments),
            exported_as: exported_as.map(String::from),
        };
    assert_eq!(
        paths,
        [
            path(1, &[], &["tetmesh", "TetMesh"], Some("TetMesh")),
            path(1, &[], &["tetmesh", "bounds"], Some("box_of")),
            path(2, &[], &["super", "*"], None),
            path(4, &["tests"], &["super", "Brep"], None),
            path(6, &[], &["crate", "scene", "load"], None),
        ]
    );
}

#[test]
fn rust_edges_point_at_the_defining_file_and_a_circle_is_named() {
    let file = |path: &str, source: &str| (path.to_string(), source.to_string());
    let files = [
        file("src/lib.rs", "pub mod mesh;"),
        file("src/mesh/mod.rs", "pub mod brep;\npub mod tetmesh;\npub use brep::Brep;\npub use tetmesh::TetMesh;\npub struct Shared;"),
        file("src/mesh/brep.rs", "use super::{Shared, TetMesh};\npub struct Brep;"),
        file(
            "src/mesh/tetmesh.rs",
            "pub struct TetMesh;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::mesh::Brep;\n}",
        ),
    ];
    let edges = rust_edges(&files);
    let shown: Vec<(&str, &str, usize)> = edges
        .iter()
        .map(|e| (e.from.as_str(), e.to.as_str(), e.line))
        .collect();
    assert_eq!(
        shown,
        [
            ("src/mesh/mod.rs", "src/mesh/brep.rs", 3),
            ("src/mesh/mod.rs", "src/mesh/tetmesh.rs", 4),
            ("src/mesh/brep.rs", "src/mesh/tetmesh.rs", 1),
            ("src/mesh/tetmesh.rs", "src/mesh/brep.rs", 5),
        ]
    );
    assert_eq!(
        circles(&edges),
        ["circle among src/mesh/brep.rs, src/mesh/tetmesh.rs:\n  \
          src/mesh/brep.rs:1 → src/mesh/tetmesh.rs: use super::{Shared, TetMesh};\n  \
          src/mesh/tetmesh.rs:5 → src/mesh/brep.rs: use crate::mesh::Brep;"]
    );
}

#[test]
fn files_map_to_their_crate_and_module() {
    let m = |k: &str, p: &[&str]| (k.to_string(), strings(p));
    assert_eq!(module_of_file("src/lib.rs"), m("lib", &[]));
    assert_eq!(
        module_of_file("src/contact/regions/mod.rs"),
        m("lib", &["contact", "regions"])
    );
    assert_eq!(
        module_of_file("src/contact/touching.rs"),
        m("lib", &["contact", "touching"])
    );
    assert_eq!(
        module_of_file("src/bin/contactlab/main.rs"),
        m("bin/contactlab", &[])
    );
    assert_eq!(
        module_of_file("src/bin/contactlab/score.rs"),
        m("bin/contactlab", &["score"])
    );
    assert_eq!(module_of_file("src/bin/tool.rs"), m("bin/tool", &[]));
}

#[test]
fn js_imports_are_read_from_code_only() {
    let source = "import { a } from './a.js';\nexport * from \"../b.js\";\nimport './c.js';\n\
                  // import { d } from './d.js';\n/** @type {import('./e.js').E} */\n\
                  const f = await import('./f.js');\nconst g = `import './g.js'`;\n\
                  const h = /from '.\\/h.js'/; const from = 'x'; Array.from('y');";
    let found: Vec<(usize, String)> = js_imports(source);
    assert_eq!(
        found,
        [
            (1, "./a.js".to_string()),
            (2, "../b.js".to_string()),
            (3, "./c.js".to_string()),
            (6, "./f.js".to_string()),
        ]
    );
    assert_eq!(
        js_target("www/ui/tooltip.js", "../render/contacts.js").as_deref(),
        Some("www/render/contacts.js")
    );
    assert_eq!(
        js_target("www/ui/tooltip.js", "/main.js").as_deref(),
        Some("www/main.js")
    );
    assert_eq!(js_target("www/ui/tooltip.js", "three"), None);
}

#[test]
fn a_js_circle_is_named_with_its_lines() {
    let file = |path: &str, source: &str| (path.to_string(), source.to_string());
    let files = [
        file("www/a.js", "import { b } from './ui/b.js';"),
        file("www/ui/b.js", "\nimport { c } from './c.js';"),
        file("www/ui/c.js", "export { a } from '../a.js';"),
        file("www/d.js", "import { a } from './a.js';"),
    ];
    assert_eq!(
        circles(&js_edges(&files)),
        ["circle among www/a.js, www/ui/b.js, www/ui/c.js:\n  \
          www/a.js:1 → www/ui/b.js: import { b } from './ui/b.js';\n  \
          www/ui/b.js:2 → www/ui/c.js: import { c } from './c.js';\n  \
          www/ui/c.js:1 → www/a.js: export { a } from '../a.js';"]
    );
}

#[test]
fn the_component_finder_finds_every_group() {
    // 0 → 1 → 2 → 0, 3 → 4 → 3, 5 alone with an edge into the first group.
    let next = vec![vec![1], vec![2], vec![0], vec![4], vec![3], vec![0]];
    let mut groups: Vec<Vec<usize>> = components(&next)
        .into_iter()
        .map(|mut g| {
            g.sort();
            g
        })
        .collect();
    groups.sort();
    assert_eq!(groups, [vec![0, 1, 2], vec![3, 4], vec![5]]);
}
