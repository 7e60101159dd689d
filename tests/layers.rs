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
//!
//! Inside `contact` one more rule holds, which does follow `super::`: no
//! contact method file uses another method file, and nothing below the
//! methods (`contact/regions/`, the machinery the methods share) uses
//! `contact/methods/`, the registry included.

#[path = "support/rust_tokens.rs"]
mod rust_tokens;

use rust_tokens::{is_identifier, tokens, Token};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The crate's top-level modules, lowest first; each may use only those
/// before it. To move a module, move its line.
#[rustfmt::skip]
const LAYERS: &[&str] = &[
    "clock",    // wall-clock helper for timing readouts: usable by every layer
    "number_text", // numbers as messages print them: usable by every layer
    "geometry", // predicates, closest points, SAT, clipping, hulls: nothing of ours
    "settings", // the settings schema: plain data and validation, so scene files can use it
    "mesh",     // tetrahedral meshes, surface features, shapes, mass properties
    "scene",    // scene types, the file parser, oracles: built from meshes
    "export",   // the scene at a pose in other simulators' formats: reads scenes
    "contact",  // contacts, broad phase, exact regions, the method registry
    "contact_file", // contacts from outside: the contact and poses files, read and written
    "dynamics", // rigid bodies and the stepper
    "engines",  // the engines' registry and the contacts their adapters hand in
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

/// Inside `contact`, the rule for the methods (design: "no contact method
/// file imports another method file"): a file of `contact/methods/` other
/// than the registry (`mod.rs`) names no sibling method module, and no file
/// of `contact` below the methods (everything but `contact/mod.rs`, the
/// dispatcher, and `contact/methods/` itself, so `contact/regions/` and the
/// machinery the methods share) names `contact::methods` at all. What
/// methods share lives below them.
#[test]
fn method_files_use_no_other_method_and_the_machinery_below_uses_none() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("contact"), &mut files);
    files.sort();
    let sources: Vec<(PathBuf, String)> = files
        .iter()
        .map(|f| {
            let relative = f.strip_prefix(&src).unwrap().to_path_buf();
            (relative, std::fs::read_to_string(f).unwrap())
        })
        .collect();
    let problems = method_import_problems(&sources);
    assert!(
        problems.is_empty(),
        "{} method import problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The method modules: the files (and folders) of `contact/methods/` but
/// the registry.
fn method_modules(files: &[(PathBuf, String)]) -> Vec<String> {
    let mut names: Vec<String> = files
        .iter()
        .filter_map(|(relative, _)| {
            let module = module_of(relative);
            (module.len() >= 3 && module[0] == "contact" && module[1] == "methods")
                .then(|| module[2].clone())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The problems [`method_files_use_no_other_method_and_the_machinery_below_uses_none`]
/// reports, for files given by their path below `src/` and their source.
fn method_import_problems(files: &[(PathBuf, String)]) -> Vec<String> {
    let methods = method_modules(files);
    let mut problems = Vec::new();
    for (relative, source) in files {
        let module = module_of(relative);
        if module.first().map(String::as_str) != Some("contact") || module.len() < 2 {
            continue; // not in contact, or contact/mod.rs: the dispatcher
        }
        let shown = Path::new("src").join(relative).display().to_string();
        let in_methods = module[1] == "methods";
        for (line, path) in module_paths(source) {
            let target = resolve(&module, &path);
            if target.len() < 2 || target[0] != "contact" || target[1] != "methods" {
                continue;
            }
            if !in_methods {
                problems.push(format!(
                    "{shown}:{line}: `{}` uses `{}`: the methods' registry and files are above it",
                    module.join("::"),
                    target.join("::")
                ));
            } else if module.len() >= 3 {
                let own = &module[2];
                if let Some(other) = target.get(2).filter(|t| methods.contains(t) && *t != own) {
                    problems.push(format!(
                        "{shown}:{line}: method file `{own}` uses method file `{other}` \
                         (`{}`); move what they share below the methods",
                        target.join("::")
                    ));
                }
            }
        }
    }
    problems
}

/// The module a file below `src/` defines, as path segments:
/// `contact/methods/growth.rs` → contact, methods, growth;
/// `contact/regions/mod.rs` → contact, regions; `lib.rs` → none.
fn module_of(relative: &Path) -> Vec<String> {
    let mut segments: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = segments.pop() {
        let stem = last.strip_suffix(".rs").unwrap_or(&last).to_string();
        if stem != "mod" && stem != "lib" {
            segments.push(stem);
        }
    }
    segments
}

/// Every path a source names from `crate::`, `super::` or `self::`, one per
/// leaf of its `{…}` groups (`use super::{a::b, c}` gives `super::a::b`
/// and `super::c`), with the line where it starts. Comments and literals
/// are skipped.
fn module_paths(source: &str) -> Vec<(usize, Vec<String>)> {
    let tokens = tokens(source);
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let starts = matches!(tokens[i].text.as_str(), "crate" | "super" | "self")
            && tokens.get(i + 1).is_some_and(|t| t.text == "::")
            && (i == 0 || tokens[i - 1].text != "::");
        if !starts {
            i += 1;
            continue;
        }
        let line = tokens[i].line;
        let mut leaves = Vec::new();
        i = path_tree(&tokens, i, Vec::new(), &mut leaves).max(i + 1);
        found.extend(leaves.into_iter().map(|p| (line, p)));
    }
    found
}

/// Reads the path tree starting at `tokens[i]` (`a::b::{c, d::e as f}`),
/// appending each leaf, after `prefix`, to `out`; returns the index after it.
fn path_tree(
    tokens: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        match tokens.get(i).map(|t| t.text.as_str()) {
            Some("{") => {
                i += 1;
                while let Some(t) = tokens.get(i) {
                    match t.text.as_str() {
                        "}" => return i + 1,
                        "," => i += 1,
                        "as" => i += 2,
                        _ => i = path_tree(tokens, i, prefix.clone(), out).max(i + 1),
                    }
                }
                return i;
            }
            Some(name) if is_identifier(name) => {
                prefix.push(name.to_string());
                i += 1;
                if tokens.get(i).is_some_and(|t| t.text == "::") {
                    i += 1;
                    continue;
                }
                out.push(prefix);
                return i;
            }
            _ => {
                out.push(prefix);
                return i;
            }
        }
    }
}

/// The module a path names, from the module it is written in.
fn resolve(module: &[String], path: &[String]) -> Vec<String> {
    let mut at: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        _ => module.to_vec(),
    };
    for (k, segment) in path.iter().enumerate() {
        match segment.as_str() {
            "crate" if k == 0 => {}
            "self" => {}
            "super" => {
                at.pop();
            }
            name => at.push(name.to_string()),
        }
    }
    at
}

#[test]
fn paths_are_read_through_groups_and_resolved_from_their_module() {
    let leaves = |s: &str| -> Vec<String> {
        module_paths(s)
            .into_iter()
            .map(|(_, p)| p.join("::"))
            .collect()
    };
    assert_eq!(
        leaves("use super::{a::{b, c as d}, e, self};\nlet x = crate::f::g(1);"),
        [
            "super::a::b",
            "super::a::c",
            "super::e",
            "super::self",
            "crate::f::g"
        ]
    );
    // A path in a comment or a string is no import.
    assert!(leaves("// use super::a;\nlet s = \"super::a\";").is_empty());
    let module = |s: &str| -> Vec<String> { s.split("::").map(String::from).collect() };
    assert_eq!(
        resolve(
            &module("contact::methods::growth"),
            &module("super::volume_sat::x")
        ),
        module("contact::methods::volume_sat::x")
    );
    assert_eq!(
        resolve(
            &module("contact::regions::touching"),
            &module("super::super::methods")
        ),
        module("contact::methods")
    );
    assert_eq!(
        module_of(Path::new("contact/regions/mod.rs")),
        module("contact::regions")
    );
}

#[test]
fn a_method_using_another_and_regions_using_the_methods_are_reported() {
    let file = |path: &str, source: &str| (PathBuf::from(path), source.to_string());
    let files = [
        file(
            "contact/mod.rs",
            "pub use methods::REGISTRY; use crate::contact::methods::x;",
        ),
        file(
            "contact/methods/mod.rs",
            "mod a; mod b; pub use self::a::A;",
        ),
        file(
            "contact/methods/a.rs",
            "use super::{b::helper, BodyPair};\nuse crate::contact::regions::Entity;",
        ),
        file(
            "contact/methods/b.rs",
            "use super::BodyPair; // super::a::x\n",
        ),
        file(
            "contact/regions/touching.rs",
            "use crate::contact::body_pair::BodyPair;\nfn f() { crate::contact::methods::g(); }",
        ),
        file("contact/regions/mod.rs", "use super::methods::BodyPair;"),
    ];
    let problems = method_import_problems(&files);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(
        problems[0].starts_with("src/contact/methods/a.rs:1: method file `a` uses method file `b`")
    );
    assert!(problems[1].starts_with("src/contact/regions/touching.rs:2: `contact::regions::touching` uses `contact::methods::g`"));
    assert!(problems[2].starts_with(
        "src/contact/regions/mod.rs:1: `contact::regions` uses `contact::methods::BodyPair`"
    ));
}

/// The judge shares no code with the contestants (`docs/design/oracle.md`,
/// "Independence"): the geometric oracle, `src/measures/oracle/`, reaches
/// the rest of the crate only through the paths below: the mesh's data, the
/// plane frames and 2D hulls of `geometry`, the scene, and the contact and
/// the pose as data types. Closest points, clipping, bounding-volume trees, the B-rep
/// analysis and the exact regions that the contact methods use are all out
/// (the oracle has its own), and so are these names anywhere in its code.
#[test]
fn the_geometric_oracle_shares_no_code_with_contact_finding() {
    const ALLOWED: &[&str] = &[
        "crate::geometry::PlaneFrame",
        "crate::geometry::orthonormal_basis",
        "crate::geometry::convex_hull_2d",
        "crate::geometry::polygon_area_2d",
        "crate::geometry::extent_along",
        "crate::geometry::Pose",
        "crate::mesh::TetMesh",
        "crate::mesh::EdgeKind",
        "crate::mesh::SurfaceFace",
        "crate::mesh::SurfaceEdge",
        "crate::contact::Contact",
        "crate::scene",
    ];
    const FORBIDDEN: &[&str] = &[
        "brep",
        "Brep",
        "Bvh",
        "Aabb",
        "surface_tree",
        "tet_tree",
        "closest",
        "clip2d",
        "perturbed",
        "expansion",
        "exact_regions",
        "touching_feature_pairs",
        "RELATIVE_TOUCH_TOL",
        "pair_touch_tol",
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/measures/oracle");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "src/measures/oracle/ is gone");
    let mut problems = Vec::new();
    for file in &files {
        let shown = file.display().to_string();
        let source = std::fs::read_to_string(file).unwrap();
        for (line, path) in module_paths(&source) {
            if path.first().map(String::as_str) != Some("crate") {
                continue;
            }
            let joined = path.join("::");
            if !ALLOWED
                .iter()
                .any(|a| joined == *a || joined.starts_with(&format!("{a}::")))
            {
                problems.push(format!("{shown}:{line}: uses `{joined}`"));
            }
        }
        for token in tokens(&source) {
            if FORBIDDEN.contains(&token.text.as_str()) {
                problems.push(format!("{shown}:{}: names `{}`", token.line, token.text));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the geometric oracle must not share code with contact finding:\n{}",
        problems.join("\n")
    );
}
