//! The repository explains itself: its code and documents cite papers by
//! author and section (Erleben 2018 §5.1, Bouma & Vaněček §3) and its own
//! documents by their path in the repository (`docs/design/solver.md`,
//! "Proximal Gauss-Seidel"). A reader of a fresh clone has nothing else, so
//! this test reads every text file git tracks and fails, naming file and
//! line, on
//!
//! - a source cited by the number it had in a folder outside the
//!   repository (the word "seed" and a number 00N) or that folder itself
//!   (see [`OUTSIDE`]);
//! - a source paper called "the seed" ("the seed's figure 7", "the seed
//!   gives"), our private name for it, where its authors belong ("Bouma &
//!   Vaněček's figure 7"). A random-number seed (`--seed`, "the seed of the
//!   perturbation", "seeds 1–5") is not caught: the patterns are the
//!   possessive and "the seed" doing what only a paper does;
//! - a mention of a Markdown document (`something.md`) that is not in the
//!   repository, as a path from its root or relative to the mentioning
//!   file, and a design note named bare ("design `solver.md`") rather than
//!   by its path under `docs/design/`.
//!
//! Lines are read with their comment markers removed and joined, so a
//! phrase broken across two comment lines is still found.

use std::path::Path;
use std::process::Command;

/// What the repository may not point at.
/// Written in two pieces so that this file does not itself hold what it
/// forbids (a plain search of the repository finds nothing).
const OUTSIDE: [&str; 2] = [concat!("seed ", "00"), concat!("shared", "/design")];

/// Source-paper phrasings of "seed" (matched lower-case; "seed 00" is in
/// [`OUTSIDE`]). A random-number seed is never possessive.
const SEED_AS_PAPER: [&str; 5] = [
    "seed's",
    "seeds'",
    "seed document",
    "other seeds",
    "seeds 00",
];

/// What "the seed" does when it means a paper: "the seed gives", "the seed
/// returns", … (the word after "the seed", lower-case). A random-number
/// seed never gives or returns anything.
#[rustfmt::skip]
const PAPER_VERBS: [&str; 22] = [
    "gives", "does", "returns", "fits", "directs", "uses", "keeps", "allows",
    "stops", "checks", "took", "takes", "prescribes", "says", "applies", "treats", "shows",
    "calls", "computes", "writes", "prints", "reports",
];

/// Every text file git tracks, as paths from the repository root: code,
/// tests, the page, the build tool, the tools, the examples, CI, the data,
/// the documents and the scene files, whose descriptions the page shows.
/// Binary files (not UTF-8, or holding a NUL byte) are left out; what the
/// build writes (`www/pkg/`) is not tracked. Without git this test fails.
fn tracked_text_files(root: &Path) -> Vec<(String, String)> {
    let listed = Command::new("git")
        .current_dir(root)
        .args(["ls-files", "-z"])
        .output()
        .expect("`git ls-files` runs (this test reads the files git tracks)");
    assert!(
        listed.status.success(),
        "`git ls-files` failed in {}: {}",
        root.display(),
        String::from_utf8_lossy(&listed.stderr)
    );
    let names = String::from_utf8(listed.stdout).expect("git lists UTF-8 paths");
    names
        .split('\0')
        .filter(|name| !name.is_empty())
        .filter_map(|name| {
            // A tracked file deleted in the work tree is not read.
            let text = std::fs::read_to_string(root.join(name)).ok()?;
            (!text.contains('\0')).then(|| (name.to_string(), text))
        })
        .collect()
}

/// A text's lines without their comment markers (`//!`, `///`, `//`, `*`,
/// `#`), joined by spaces, with the byte offset where each line starts.
fn joined(text: &str) -> (String, Vec<usize>) {
    let mut out = String::new();
    let mut starts = Vec::new();
    for line in text.lines() {
        let mut rest = line.trim_start();
        for marker in ["//!", "///", "//", "/**", "*/", "*", "#"] {
            if let Some(after) = rest.strip_prefix(marker) {
                rest = after.trim_start_matches('#').trim_start();
                break;
            }
        }
        starts.push(out.len());
        out.push_str(rest);
        out.push(' ');
    }
    (out, starts)
}

/// The 1-based line of byte `offset` of the joined text.
fn line_of(starts: &[usize], offset: usize) -> usize {
    starts.partition_point(|&s| s <= offset)
}

/// Every `something.md` the text mentions, with its byte offset: the
/// longest run of path characters ending in `.md` (not `.md5`), not part
/// of a web address.
fn markdown_mentions(text: &str) -> Vec<(usize, &str)> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let mut found = Vec::new();
    let mut search = 0;
    while let Some(at) = text[search..].find(".md").map(|i| search + i) {
        search = at + 3;
        let after = text[search..].chars().next();
        if after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let start = text[..at]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_path(c))
            .last()
            .map_or(at, |(i, _)| i);
        let name = &text[start..search];
        let word_start = text[..start]
            .rfind(char::is_whitespace)
            .map_or(0, |i| i + 1);
        if name.len() > 3 && !text[word_start..search].contains("://") {
            found.push((start, name));
        }
    }
    found
}

/// Every problem of `text` (the file `name`, a path from the repository
/// root), as `name:line: what: the line`. `exists` says whether a path
/// from the repository root names a file.
fn problems(name: &str, text: &str, exists: &dyn Fn(&str) -> bool) -> Vec<String> {
    let (flat, starts) = joined(text);
    let lower = flat.to_lowercase();
    let lines: Vec<&str> = text.lines().collect();
    let mut found: Vec<(usize, String)> = Vec::new();
    let mut report = |offset: usize, what: String| found.push((line_of(&starts, offset), what));

    for pattern in OUTSIDE {
        for (offset, _) in lower.match_indices(pattern) {
            report(
                offset,
                format!("points outside the repository (\"{pattern}\")"),
            );
        }
    }
    let mut seed_phrases: Vec<(usize, String)> = SEED_AS_PAPER
        .iter()
        .flat_map(|p| {
            lower
                .match_indices(p)
                .map(|(offset, _)| (offset, p.to_string()))
        })
        .collect();
    for (offset, _) in lower.match_indices("the seed ") {
        let after = &lower[offset + "the seed ".len()..];
        let word: String = after.chars().take_while(|c| c.is_alphabetic()).collect();
        if PAPER_VERBS.contains(&word.as_str()) {
            seed_phrases.push((offset, format!("the seed {word}")));
        }
    }
    for (offset, phrase) in seed_phrases {
        report(
            offset,
            format!("calls a source paper \"the seed\" (\"{phrase}\"); name its authors"),
        );
    }

    let folder = Path::new(name).parent().unwrap_or(Path::new(""));
    for (offset, mention) in markdown_mentions(&flat) {
        // A path starting with `/` is read from the repository's root
        // (`concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")`), so an
        // absolute path elsewhere on a machine does not resolve.
        let from_root = mention.trim_start_matches("./").trim_start_matches('/');
        let relative = normalise(&folder.join(mention.trim_start_matches('/')));
        let resolves = exists(from_root) || (!mention.starts_with('/') && exists(&relative));
        if !resolves {
            report(
                offset,
                format!("names `{mention}`, which is not in the repository"),
            );
            continue;
        }
        // A design note named bare ("design `solver.md`") resolves only by
        // accident (`README.md` is the repository's own); it must be named
        // by its path under docs/design/.
        let before = flat[..offset].trim_end_matches(['`', '"', '(', ' ']);
        let named_as_design = before.ends_with("design") || before.ends_with("design note");
        let in_design = relative.starts_with("docs/design/");
        if named_as_design && !mention.starts_with("docs/design/") && !in_design {
            report(
                offset,
                format!("names the design note `{mention}` bare; write its path, `docs/design/…`"),
            );
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|(line, what)| {
            let text = lines.get(line - 1).map_or("", |l| l.trim());
            format!("{name}:{line}: {what}: {text}")
        })
        .collect()
}

/// `a/b/../c` → `a/c`, `a/./b` → `a/b`, with `/` separators.
fn normalise(path: &Path) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.iter().filter_map(|p| p.to_str()) {
        match part {
            "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

#[test]
fn the_repository_points_only_inside_itself() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = tracked_text_files(root);
    assert!(files.len() > 100, "only {} files read", files.len());
    for folder in ["tools/", "examples/", ".ci/", "data/", "xtask/", "www/"] {
        assert!(
            files.iter().any(|(name, _)| name.starts_with(folder)),
            "no tracked text file read under {folder}"
        );
    }
    let exists = |path: &str| !path.is_empty() && root.join(path).is_file();
    let mut found = Vec::new();
    for (name, text) in &files {
        // This file names the patterns it looks for.
        if name == "tests/references.rs" {
            continue;
        }
        found.extend(problems(name, text, &exists));
    }
    assert!(
        found.is_empty(),
        "cite papers by author and section, and the repository's own documents by their path:\n{}",
        found.join("\n")
    );
}

mod checker {
    use super::*;

    fn check(name: &str, text: &str) -> Vec<String> {
        let files = [
            "README.md",
            "docs/errata.md",
            "docs/method.md",
            "docs/design/solver.md",
            "docs/design/README.md",
        ];
        problems(name, text, &|path: &str| files.contains(&path))
    }

    #[test]
    fn a_seed_number_or_the_shared_folder_fails() {
        let text = format!(
            "ok line\n// region analysis ({}1, §3)\nsee {}/methods.md\n",
            OUTSIDE[0], OUTSIDE[1]
        );
        let found = check("src/x.rs", &text);
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("src/x.rs:2:"), "{found:?}");
        assert!(found.iter().any(|f| f.starts_with("src/x.rs:3:")));
        assert!(check("src/x.rs", "Bouma & Vaněček §3, seed 7").is_empty());
    }

    #[test]
    fn a_number_broken_across_comment_lines_still_fails() {
        let text = "/// the others (seed\n/// 002's sphere benchmarks)\n";
        let found = check("src/x.rs", text);
        assert!(
            found
                .iter()
                .any(|f| f.starts_with("src/x.rs:1:") && f.contains("seed 00")),
            "{found:?}"
        );
    }

    #[test]
    fn the_seed_as_a_paper_fails_and_a_random_seed_does_not() {
        for text in [
            "//! the seed's figure 7 gives three",
            "//! each with the answer the seed gives: a box",
            "//! The seed\n//! returns no contact there",
            "# The region methods (seeds 004 and 001)",
        ] {
            let found = check("src/x.rs", text);
            assert_eq!(found.len(), 1, "{text}: {found:?}");
        }
        for text in [
            "contactlab run pillar --perturb 0.01 --seed 7",
            "/// Seed of the perturbation's random directions.",
            "the mean quality over seeds 1–5, the same seed gives the same result",
            "noun: \"the seed\",",
        ] {
            assert!(check("src/x.rs", text).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_document_outside_the_repository_fails() {
        let found = check(
            "tests/unit/fake.mjs",
            "// written to /work/notes/facade-contract.md, so",
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("tests/unit/fake.mjs:1: names `/work/notes/facade-contract.md`")
        );
        // A design note that no longer exists, named bare or by path.
        assert_eq!(
            check("src/x.rs", "//! (design `methods-seeds.md`, \"Shared\")").len(),
            1
        );
        assert_eq!(
            check("src/x.rs", "//! (`docs/design/engineering.md`)").len(),
            1
        );
    }

    #[test]
    fn a_design_note_named_bare_fails_even_when_the_name_resolves() {
        // `README.md` is the repository's own, but "design `README.md`"
        // meant the design notes' index.
        let found = check(
            "src/lib.rs",
            "//! Conventions (design\n//! `README.md`): SI units",
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("bare"), "{found:?}");
        // `solver.md` beside the mentioning file is fine inside docs/design/.
        assert!(check("docs/design/README.md", "see [`solver.md`](solver.md)").is_empty());
    }

    #[test]
    fn documents_in_the_repository_pass() {
        let text = "//! (`docs/design/solver.md`, \"Proximal Gauss-Seidel\"); README.md\n\
                    see [errata](../errata.md), https://example.org/notes.md and x.md5";
        assert!(check("docs/design/x.md", text).is_empty());
        assert!(check("docs/results.md", "the write-up `method.md`").is_empty());
        assert_eq!(check("src/x.rs", "the write-up `method.md`").len(), 1);
    }
}
