//! The published site's scripts and style sheet, minified: comments and
//! white space out, a module's own local names shortened, the code
//! otherwise as written (no bundling, so every module keeps its name, its
//! imports and exports, and every class its method names). The page's
//! sources are written to be read, with long doc comments; on the wire they
//! were about two fifths of the scripts' compressed bytes, and the
//! default page must be ready within 600 kB (`tests/e2e/site.test.mjs`).
//! The development server (`cargo xtask serve`) serves the sources as they
//! are. The tool is npm's esbuild, pinned in package.json.

use crate::cmd::{self, Error, Result};
use crate::setup;
use std::path::Path;
use std::process::Command;

/// Replaces the bytes of every `.js` and `.css` file of the page (not the
/// generated `pkg/` glue) by their minified form. `keep_first_line`: a
/// line that, when a file holds it, is put back at the top of the minified
/// file (dist reads it to decide what to preload, and comments do not
/// survive minifying).
pub fn scripts_and_styles(
    root: &Path,
    files: &mut [(String, Vec<u8>)],
    keep_first_line: &str,
) -> Result<()> {
    let chosen: Vec<usize> = (0..files.len())
        .filter(|&i| {
            let path = &files[i].0;
            (path.ends_with(".js") || path.ends_with(".css")) && !path.starts_with("pkg/")
        })
        .collect();
    if chosen.is_empty() {
        return Ok(());
    }
    let tool = esbuild(root)?;
    let scratch = root.join("target/dist-minify");
    let (input, output) = (scratch.join("in"), scratch.join("out"));
    let _ = std::fs::remove_dir_all(&scratch);
    for &i in &chosen {
        let (path, bytes) = &files[i];
        let file = input.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Error::new(format!("cannot create {}: {e}", parent.display())))?;
        }
        std::fs::write(&file, bytes)
            .map_err(|e| Error::new(format!("cannot write {}: {e}", file.display())))?;
    }
    cmd::heading("esbuild: the page's scripts and styles without comments and white space");
    let mut command = Command::new(&tool);
    command
        .args(chosen.iter().map(|&i| input.join(&files[i].0)))
        .arg(format!("--outdir={}", output.display()))
        .arg(format!("--outbase={}", input.display()))
        // Local names are shortened too: the sources are split into small
        // modules by concept (issue 39), and each one's requests and
        // separate compression cost more than the budget had to spare. An
        // error's stack trace still names every class method and export
        // as the sources do; only a module's private helpers are renamed.
        .args([
            "--minify-whitespace",
            "--minify-syntax",
            "--minify-identifiers",
            "--legal-comments=none",
            "--charset=utf8",
            "--log-level=warning",
        ]);
    cmd::run(&mut command)?;
    for &i in &chosen {
        let file = output.join(&files[i].0);
        let minified = std::fs::read(&file)
            .map_err(|e| Error::new(format!("esbuild wrote no {} ({e})", file.display())))?;
        let kept = String::from_utf8_lossy(&files[i].1).contains(keep_first_line);
        files[i].1 = if kept {
            [keep_first_line.as_bytes(), b"\n", &minified].concat()
        } else {
            minified
        };
    }
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(())
}

/// npm's esbuild, installing the project's npm packages first when they
/// are missing.
fn esbuild(root: &Path) -> Result<std::path::PathBuf> {
    setup::npm_packages(root)?;
    let tool = root.join("node_modules/.bin/esbuild");
    if cmd::is_executable(&tool) {
        Ok(tool)
    } else {
        Err(Error::new(format!(
            "{} is missing after `npm ci`; package.json should list `esbuild`",
            tool.display()
        )))
    }
}
