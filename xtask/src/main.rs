//! `cargo xtask <command>`: the project's two everyday commands.
//!
//! - `serve [--port N]` builds the core to WebAssembly and serves `www/`.
//! - `dist --out SITE [--version V]` writes the page as a static site that
//!   keeps every release (see dist.rs).
//! - `test` runs the whole check: format, lints, tests, the wasm build and
//!   the browser tests.
//! - `results [--check]` writes docs/results.md from docs/results.src.md
//!   and the CLI's tables (or only checks that it is up to date).
//! - `engines [--check]` records MuJoCo's and PyBullet's contacts on every
//!   built-in scene into data/engine-contacts/ (or checks them).
//! - `bench` times the methods natively and in the browser (docs/bench.md).
//! - `screenshots` saves the page's screenshots in docs/screenshots/.
//! - `meshes [--search | --check]` remakes the committed TetGen meshes
//!   (meshes/) and docs/meshes.md by running the `tetgen` program (or checks
//!   that they regenerate byte for byte).
//!
//! This file only parses the command line and dispatches; each concern lives
//! in its own module. Besides `std` the tool uses only what the core already
//! builds (the core's registries, serde_json), so that it builds quickly on a
//! fresh machine, before any of the setup it performs has happened.

mod bench;
mod ci;
mod cmd;
mod dist;
mod engines;
mod fnv;
mod fuzz;
mod meshes;
mod minify;
mod results;
mod screenshots;
mod serve;
mod server;
mod setup;
mod test;
mod wasm;
mod wasm_tables;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  serve [--port N]   build the wasm core and serve www/ on http://127.0.0.1:N (default 8000)
  dist --out SITE [--version V]
                     build the page as a static site in SITE (any host, any
                     sub-path; keeps the releases already in SITE under v/;
                     --version: release it under another version than Cargo.toml's)
  test               fmt, clippy, cargo test, the results staleness check, the
                     page's unit tests, wasm build and the browser tests
                     (Chromium; a subset in Firefox and WebKit too)
  results [--check]  build the release CLI, run `contactlab table` for every
                     marker in docs/results.src.md and write docs/results.md
                     (--check: only fail when the committed file differs)
  engines [--check]  export every built-in scene for MuJoCo and PyBullet, run
                     tools/engine_contacts.py and write data/engine-contacts/
                     (--check: only compare with the committed files; needs
                     Python with mujoco and pybullet, see tools/requirements.txt)
  bench [--loading]  time every method on Pillar, Wall and Arch natively and in
                     headless Chromium, and the published site's loading;
                     writes docs/bench.md (--loading: only the loading section)
  fuzz --minutes N   run the fuzzer (tests/fuzz.rs: mutated scenes and settings)
                     optimised for N minutes with a fresh seed
                     (CONTACTLAB_FUZZ_SEED to replay one)
  screenshots        build the page and save docs/screenshots/*.png from headless Chromium
  meshes [--search | --check]
                     run tetgen on every built-in shape and write meshes/*.json
                     and docs/meshes.md (--search: measure the paper-fine
                     ratios again instead of reusing the recorded ones;
                     --check: only check that they regenerate byte for byte)
  Under CI=true a check whose tools are missing (tetgen; Python with
  MuJoCo and PyBullet) fails naming them; elsewhere it says it skipped.
  help               show this message";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve::Options::parse(&args[1..]).and_then(|o| serve::run(&root(), &o)),
        Some("dist") => dist::Options::parse(&args[1..]).and_then(|o| dist::run(&root(), &o)),
        Some("test") if args.len() == 1 => test::run(&root()),
        Some("test") => Err(cmd::Error::new(format!(
            "`cargo xtask test` takes no arguments (got `{}`)",
            args[1..].join(" ")
        ))),
        Some("results") => match &args[1..] {
            [] => results::run(&root()),
            [flag] if flag == "--check" => results::check(&root()),
            other => Err(cmd::Error::new(format!(
                "`cargo xtask results` takes only `--check` (got `{}`)",
                other.join(" ")
            ))),
        },
        Some("engines") => match &args[1..] {
            [] => engines::run(&root()),
            [flag] if flag == "--check" => engines::check(&root()),
            other => Err(cmd::Error::new(format!(
                "engines takes only --check, got {}",
                other.join(" ")
            ))),
        },
        Some("fuzz") => fuzz::run(&root(), &args[1..]),
        Some("bench") if args.len() == 1 => bench::run(&root()),
        Some("bench") if args.len() == 2 && args[1] == "--loading" => bench::run_loading(&root()),
        Some("screenshots") if args.len() == 1 => screenshots::run(&root()),
        Some("meshes") => match &args[1..] {
            [] => meshes::run(&root(), false),
            [flag] if flag == "--search" => meshes::run(&root(), true),
            [flag] if flag == "--check" => meshes::check(&root()),
            other => Err(cmd::Error::new(format!(
                "`cargo xtask meshes` takes only `--search` or `--check` (got `{}`)",
                other.join(" ")
            ))),
        },
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(cmd::Error::new(format!(
            "unknown command `{other}`\n\n{USAGE}"
        ))),
        None => Err(cmd::Error::new(USAGE)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("\nerror: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: xtask lives one level below it, so every command
/// works the same from whichever directory `cargo xtask` was started in.
fn root() -> PathBuf {
    let manifest_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .parent()
        .map(PathBuf::from)
        .unwrap_or(manifest_dir)
}
