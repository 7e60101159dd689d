//! One-time setup shared by `serve` and `test`: each step checks first and
//! only acts (and says so) when something is missing, so a fresh machine
//! needs nothing but rustup, node and npm before `cargo xtask`.
//!
//! - the `wasm32-unknown-unknown` target (rustup);
//! - `wasm-bindgen-cli` at exactly the `wasm-bindgen` version in Cargo.lock,
//!   because the CLI refuses modules built by a different library version;
//! - the npm packages of the browser tests (`npm ci`);
//! - Debian's Chromium at /usr/bin/chromium (apt-get, when running as root);
//! - Debian's Firefox ESR, WebKitGTK's WebDriver and Xvfb, for the browser
//!   tests that run in Firefox and WebKit too (apt-get, as root).
//! - Debian's `tetgen`, for `cargo xtask meshes` only (apt-get, as root).

use crate::cmd::{self, Error, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Where Debian's `chromium` package puts the browser.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Installs the wasm32 target when `rustup` does not list it as installed.
pub fn wasm_target() -> Result<()> {
    let mut list = Command::new("rustup");
    list.args(["target", "list", "--installed"]);
    let Some(installed) = cmd::output(&mut list) else {
        return Err(Error::new(format!(
            "`{}` failed; is rustup installed? (https://rustup.rs)",
            cmd::display(&list)
        )));
    };
    if installed.lines().any(|line| line.trim() == WASM_TARGET) {
        return Ok(());
    }
    println!("setup: installing the Rust target {WASM_TARGET}");
    cmd::run(Command::new("rustup").args(["target", "add", WASM_TARGET]))
}

/// Returns a `wasm-bindgen` whose version equals the `wasm-bindgen` crate in
/// Cargo.lock, installing it with `cargo install` when needed.
pub fn wasm_bindgen(root: &Path) -> Result<PathBuf> {
    let wanted = locked_wasm_bindgen_version(root)?;
    // PATH first, then cargo's bin directory, where `cargo install` puts it.
    let candidates = [
        cmd::find_tool("wasm-bindgen"),
        cmd::cargo_bin_dir().map(|dir| dir.join("wasm-bindgen")),
    ];
    for candidate in candidates.into_iter().flatten() {
        if tool_version(&candidate).as_deref() == Some(wanted.as_str()) {
            return Ok(candidate);
        }
    }
    match cmd::find_tool("wasm-bindgen").and_then(|tool| tool_version(&tool)) {
        Some(found) => println!(
            "setup: wasm-bindgen {found} found, but Cargo.lock has {wanted}; installing wasm-bindgen-cli {wanted} (takes a few minutes)"
        ),
        None => println!("setup: installing wasm-bindgen-cli {wanted} (takes a few minutes)"),
    }
    // No --locked: the registry mirror lacks one of the CLI's pinned
    // dependencies, and the CLI builds fine with current ones.
    cmd::run(cmd::cargo().args(["install", "wasm-bindgen-cli", "--version", &wanted]))?;
    let installed = cmd::cargo_bin_dir()
        .map(|dir| dir.join("wasm-bindgen"))
        .filter(|path| tool_version(path).as_deref() == Some(wanted.as_str()))
        .ok_or_else(|| {
            Error::new(format!(
                "`cargo install wasm-bindgen-cli --version {wanted}` finished, but no wasm-bindgen {wanted} is in cargo's bin directory"
            ))
        })?;
    Ok(installed)
}

/// The version of the `wasm-bindgen` package recorded in Cargo.lock. When
/// the lock file is missing or does not list it yet, `cargo metadata`
/// resolves the dependencies (for every target) and writes it.
fn locked_wasm_bindgen_version(root: &Path) -> Result<String> {
    let lock = root.join("Cargo.lock");
    if let Some(version) = read_lock_version(&lock, "wasm-bindgen") {
        return Ok(version);
    }
    println!("setup: resolving dependencies to write Cargo.lock");
    cmd::run(
        cmd::cargo()
            .current_dir(root)
            .args(["metadata", "--format-version", "1"])
            .stdout(Stdio::null()),
    )?;
    read_lock_version(&lock, "wasm-bindgen").ok_or_else(|| {
        Error::new(format!(
            "{} lists no `wasm-bindgen` package; the wasm32 dependencies in Cargo.toml should include it",
            lock.display()
        ))
    })
}

/// Finds `version = "…"` in the `[[package]]` entry whose name is `package`.
fn read_lock_version(lock: &Path, package: &str) -> Option<String> {
    let text = std::fs::read_to_string(lock).ok()?;
    let name_line = format!("name = \"{package}\"");
    let mut lines = text.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line == name_line {
            let version = lines.next()?.strip_prefix("version = \"")?;
            return version.strip_suffix('"').map(String::from);
        }
    }
    None
}

/// `wasm-bindgen --version` prints e.g. `wasm-bindgen 0.2.130`.
fn tool_version(tool: &Path) -> Option<String> {
    let out = cmd::output(Command::new(tool).arg("--version"))?;
    out.split_whitespace().nth(1).map(String::from)
}

/// Returns the Chromium the browser tests drive: `$CHROMIUM` when set,
/// otherwise Debian's package, installed with apt-get when missing and we
/// are root.
pub fn chromium() -> Result<PathBuf> {
    if let Some(custom) = std::env::var_os("CHROMIUM").filter(|value| !value.is_empty()) {
        let custom = PathBuf::from(custom);
        return if cmd::is_executable(&custom) {
            Ok(custom)
        } else {
            Err(Error::new(format!(
                "CHROMIUM={} is not an executable file",
                custom.display()
            )))
        };
    }
    let chromium = PathBuf::from(CHROMIUM);
    if cmd::is_executable(&chromium) {
        return Ok(chromium);
    }
    if !is_root() {
        return Err(Error::new(format!(
            "{CHROMIUM} is missing; the browser tests need Debian's Chromium.\n\
             Install it with:  sudo apt-get update && sudo apt-get install -y chromium"
        )));
    }
    println!("setup: installing Chromium with apt-get (the browser tests drive it)");
    cmd::run(apt_get().arg("update"))?;
    cmd::run(apt_get().args(["install", "-y", "chromium"]))?;
    if cmd::is_executable(&chromium) {
        Ok(chromium)
    } else {
        Err(Error::new(format!(
            "`apt-get install -y chromium` succeeded but {CHROMIUM} is still missing"
        )))
    }
}

/// The other engines the browser tests drive (tests/e2e/engines.mjs): the
/// program each needs and the Debian package that brings it.
pub const ENGINE_PACKAGES: [(&str, &str); 3] = [
    // Firefox, driven over WebDriver BiDi.
    ("/usr/bin/firefox-esr", "firefox-esr"),
    // WebKitWebDriver, with WebKitGTK's MiniBrowser, which it drives.
    ("/usr/bin/WebKitWebDriver", "webkit2gtk-driver"),
    // The X display both draw on (headless Firefox has no WebGL2).
    ("/usr/bin/Xvfb", "xvfb"),
];

/// The packages of `ENGINE_PACKAGES` whose program `is_installed` says is missing.
fn missing_engine_packages(is_installed: impl Fn(&Path) -> bool) -> Vec<&'static str> {
    ENGINE_PACKAGES
        .iter()
        .filter(|(program, _)| !is_installed(Path::new(program)))
        .map(|(_, package)| *package)
        .collect()
}

/// Makes sure Firefox, WebKitWebDriver and Xvfb are installed for the
/// browser tests, installing the missing ones with apt-get when we are root;
/// otherwise an error names them. The tests fail without them; they never
/// skip an engine.
pub fn browser_engines() -> Result<()> {
    let missing = missing_engine_packages(cmd::is_executable);
    if missing.is_empty() {
        return Ok(());
    }
    let packages = missing.join(" ");
    if !is_root() {
        return Err(Error::new(format!(
            "the browser tests run Firefox and WebKit too, and {packages} is missing.\n\
             Install it with:  sudo apt-get update && sudo apt-get install -y {packages}"
        )));
    }
    println!(
        "setup: installing {packages} with apt-get (the browser tests run Firefox and WebKit too)"
    );
    cmd::run(apt_get().arg("update"))?;
    cmd::run(apt_get().args(["install", "-y"]).args(&missing))?;
    let still = missing_engine_packages(cmd::is_executable);
    if still.is_empty() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "`apt-get install -y {packages}` succeeded but the programs of {} are still missing",
            still.join(" ")
        )))
    }
}

/// Makes sure the `tetgen` program is installed (Debian's package, with
/// apt-get when missing and we are root): `cargo xtask meshes` runs it.
pub fn tetgen() -> Result<()> {
    if cmd::find_tool("tetgen").is_some() {
        return Ok(());
    }
    if !is_root() {
        return Err(Error::new(
            "the `tetgen` program is missing; `cargo xtask meshes` runs it.\n\
             Install it with:  sudo apt-get update && sudo apt-get install -y tetgen",
        ));
    }
    println!("setup: installing tetgen with apt-get (cargo xtask meshes runs it)");
    cmd::run(apt_get().arg("update"))?;
    cmd::run(apt_get().args(["install", "-y", "tetgen"]))?;
    match cmd::find_tool("tetgen") {
        Some(_) => Ok(()),
        None => Err(Error::new(
            "`apt-get install -y tetgen` succeeded but `tetgen` is still not on PATH",
        )),
    }
}

/// apt-get that never waits for an answer: CI runs without a terminal.
fn apt_get() -> Command {
    let mut apt = Command::new("apt-get");
    apt.env("DEBIAN_FRONTEND", "noninteractive")
        .stdin(Stdio::null());
    apt
}

fn is_root() -> bool {
    cmd::output(Command::new("id").arg("-u")).is_some_and(|uid| uid.trim() == "0")
}

/// The Lighthouse version the loading benchmark runs: 12.2.3 is the last
/// whose lock `npm ci` accepts on Node.js 20 (13 wants Node 22).
const LIGHTHOUSE_VERSION: &str = "12.2.3";

/// The `lighthouse` command for `cargo xtask bench`, installed with npm
/// under target/bench-tools/ on first use: a large tool only the benchmark
/// needs, so it is not one of the test suite's packages.
pub fn lighthouse(root: &Path) -> Result<PathBuf> {
    let tools = root.join("target/bench-tools");
    let command = tools.join("node_modules/.bin/lighthouse");
    let installed = cmd::output(Command::new(&command).arg("--version"))
        .is_some_and(|version| version.trim() == LIGHTHOUSE_VERSION);
    if installed {
        return Ok(command);
    }
    println!("setup: installing lighthouse {LIGHTHOUSE_VERSION} under target/bench-tools (the loading benchmark runs it)");
    std::fs::create_dir_all(&tools)
        .map_err(|e| Error::new(format!("cannot create {}: {e}", tools.display())))?;
    std::fs::write(
        tools.join("package.json"),
        "{\"name\": \"contactlab-bench-tools\", \"private\": true}\n",
    )
    .map_err(|e| Error::new(format!("cannot write {}: {e}", tools.display())))?;
    cmd::run(
        Command::new("npm")
            .current_dir(&tools)
            .args(["install", "--no-audit", "--no-fund", "--save-exact"])
            .arg(format!("lighthouse@{LIGHTHOUSE_VERSION}"))
            .stdin(Stdio::null()),
    )?;
    Ok(command)
}

/// Runs `npm ci` when `node_modules` is missing or older than
/// package-lock.json, so the installed packages always match the lock file.
pub fn npm_packages(root: &Path) -> Result<()> {
    for tool in ["node", "npm"] {
        if cmd::find_tool(tool).is_none() {
            return Err(Error::new(format!(
                "`{tool}` is not on PATH; the browser tests need Node.js 20 or newer and npm.\n\
                 On Debian: sudo apt-get install -y nodejs npm"
            )));
        }
    }
    let lock = root.join("package-lock.json");
    let lock_time = modified(&lock).ok_or_else(|| {
        Error::new(format!(
            "{} is missing; it pins the browser-test packages",
            lock.display()
        ))
    })?;
    // npm rewrites node_modules/.package-lock.json on every install, so its
    // time says when node_modules was last brought in line with a lock file.
    let installed = modified(&root.join("node_modules/.package-lock.json"));
    let reason = match installed {
        None => "node_modules is missing",
        Some(time) if time < lock_time => "package-lock.json is newer than node_modules",
        Some(_) => return Ok(()),
    };
    println!("setup: {reason}; running npm ci");
    cmd::run(
        Command::new("npm")
            .current_dir(root)
            .args(["ci", "--no-audit", "--no-fund"])
            // playwright-core never downloads browsers; this makes sure
            // nothing else in the tree tries to either.
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .stdin(Stdio::null()),
    )
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_version_that_follows_the_package_name() {
        let dir = std::env::temp_dir().join(format!("xtask-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lock = dir.join("Cargo.lock");
        std::fs::write(
            &lock,
            "[[package]]\nname = \"wasm-bindgen-macro\"\nversion = \"0.2.1\"\n\n\
             [[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\n",
        )
        .unwrap();
        assert_eq!(
            read_lock_version(&lock, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(read_lock_version(&lock, "js-sys"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_the_package_of_each_missing_engine() {
        assert_eq!(missing_engine_packages(|_| true), Vec::<&str>::new());
        assert_eq!(
            missing_engine_packages(|_| false),
            ["firefox-esr", "webkit2gtk-driver", "xvfb"]
        );
        assert_eq!(
            missing_engine_packages(|program| program != Path::new("/usr/bin/WebKitWebDriver")),
            ["webkit2gtk-driver"]
        );
    }
}
