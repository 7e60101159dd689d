//! The repository explains itself: its code and documents cite papers by
//! author and section (Erleben 2018 §5.1, Bouma & Vaněček §3) and its own
//! documents, never a source by the number it had in a folder outside the
//! repository ("seed 002") nor that folder (`shared/design/`). A reader of a
//! fresh clone has neither.

use std::path::{Path, PathBuf};

/// What the repository may not point at.
const OUTSIDE: [&str; 2] = ["seed 00", "shared/design"];

/// The folders and files whose text is read: code, tests, the page, the
/// build tool and the documents (the page's built `www/pkg/` is not ours).
const READ: [&str; 8] = [
    "src",
    "tests",
    "www",
    "xtask",
    "docs",
    "README.md",
    "CHANGELOG.md",
    ".github",
];

fn text_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        if path.ends_with("www/pkg") || path.ends_with("tests/e2e/output") {
            return;
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            text_files(&entry, out);
        }
    } else if std::fs::read_to_string(path).is_ok() {
        out.push(path.to_path_buf());
    }
}

/// Every `file:line: text` of `text` (named `name`) that points outside.
fn outside_references(name: &str, text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let lower = line.to_lowercase();
            // This file names the patterns it looks for.
            !name.ends_with("tests/references.rs") && OUTSIDE.iter().any(|p| lower.contains(p))
        })
        .map(|(index, line)| format!("{name}:{}: {}", index + 1, line.trim()))
        .collect()
}

#[test]
fn nothing_cites_a_seed_number_or_a_folder_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for entry in READ {
        let path = root.join(entry);
        if path.exists() {
            text_files(&path, &mut files);
        }
    }
    assert!(files.len() > 100, "only {} files read", files.len());
    let found: Vec<String> = files
        .iter()
        .flat_map(|file| {
            let name = file
                .strip_prefix(root)
                .unwrap_or(file)
                .display()
                .to_string();
            outside_references(&name, &std::fs::read_to_string(file).unwrap_or_default())
        })
        .collect();
    assert!(
        found.is_empty(),
        "cite papers by author and section and the repository's own documents instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_finds_both_kinds_of_reference() {
    let text = "ok line\n// region analysis (seed 001, §3)\nsee shared/design/methods.md\n";
    let found = outside_references("src/x.rs", text);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("src/x.rs:2:"));
    assert!(outside_references("src/x.rs", "Bouma & Vaněček §3, seed 7").is_empty());
}
