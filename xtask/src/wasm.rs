//! Builds the page's WebAssembly, twice: the lean module (the `contactlab`
//! library for wasm32-unknown-unknown with `--no-default-features`, so
//! without parry3d) into `www/pkg/`, which the page's worker starts, and the
//! full module (`--features parry`) into `www/pkg/full/`, which the worker
//! fetches only when a parry run is first asked for (parry3d is about a
//! third of the module). Each goes through `wasm-bindgen --target web`, then
//! `wasm-opt -O3` from npm's `binaryen` package (pinned in package.json;
//! Debian's binaryen is too old and breaks wasm-bindgen's externref table,
//! which [`check_tables`] would catch). The optimisation only makes a
//! module smaller and faster, so without Node.js it is skipped with a note
//! (on CI, where the published module must be the one tested, it fails);
//! its output is kept in `target/wasm-opt/` by the input's hash, so building
//! the same module again costs nothing. Both cargo builds share the target
//! directory: cargo keeps each feature set's artifacts apart, so switching
//! between them rebuilds nothing. Last it copies the paper-fine meshes and
//! `docs/method.md` (as `method.txt`, linked from the page's help) beside
//! the lean module.

use crate::ci;
use crate::cmd::{self, Error, Result};
use crate::fnv::fnv1a;
use crate::{setup, wasm_tables};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One wasm module of the page.
struct PageModule {
    /// Where wasm-bindgen writes it, relative to the repository.
    out_dir: &'static str,
    /// The cargo arguments choosing its features.
    features: &'static [&'static str],
}

/// The lean module first: wasm-bindgen writes the full one into a folder
/// inside the lean one's.
const PAGE_MODULES: [PageModule; 2] = [
    PageModule {
        out_dir: "www/pkg",
        features: &["--no-default-features"],
    },
    // The full module asks for `parry` by name so that it keeps it even if
    // the default features change.
    PageModule {
        out_dir: "www/pkg/full",
        features: &["--features", "parry"],
    },
];

/// Runs the setup the build needs, then builds `www/pkg/` and
/// `www/pkg/full/`.
pub fn build(root: &Path) -> Result<()> {
    setup::wasm_target()?;
    let wasm_bindgen = setup::wasm_bindgen(root)?;
    for module in &PAGE_MODULES {
        build_module(root, &wasm_bindgen, module)?;
    }

    // Files the page fetches from beside the wasm: the paper-fine TetGen
    // meshes, too large to compile into it, when that mesher is chosen; and
    // the write-up of ContactLab's own method, linked from the help, so
    // that the link works offline.
    let out_dir = root.join("www/pkg");
    for (source, name) in [
        ("meshes/paper-fine.json", "paper-fine.json"),
        ("docs/method.md", "method.txt"),
    ] {
        let from = root.join(source);
        std::fs::copy(&from, out_dir.join(name)).map_err(|e| {
            Error::new(format!(
                "could not copy {} into www/pkg/: {e}",
                from.display()
            ))
        })?;
    }
    write_help(&out_dir)?;
    copy_engine_packages(root)
}

/// Writes `www/pkg/help.json`: every method's and engine's help paragraph
/// and sources by id, `{"opposing": {"help": …, "source": …}, …}`, from
/// their registries, in the registries' order. The lean module leaves these
/// texts out (`help_text!` in src/lib.rs); the page's help dialog reads
/// them here.
fn write_help(out_dir: &Path) -> Result<()> {
    let methods = contactlab::contact::every_method().map(|m| (m.id, m.help, m.source.to_string()));
    let engines = contactlab::engines::ENGINES
        .iter()
        .map(|e| (e.id, e.help, e.source()));
    let texts = HelpTexts(
        methods
            .chain(engines)
            .map(|(id, help, source)| (id, HelpText { help, source }))
            .collect(),
    );
    let path = out_dir.join("help.json");
    let json = serde_json::to_string_pretty(&texts)
        .map_err(|e| Error::new(format!("could not write {}: {e}", path.display())))?;
    std::fs::write(&path, json + "\n")
        .map_err(|e| Error::new(format!("could not write {}: {e}", path.display())))
}

/// One entry of help.json.
#[derive(serde::Serialize)]
struct HelpText {
    help: &'static str,
    source: String,
}

/// help.json's object: ids in the registries' order (a map type would sort
/// them).
struct HelpTexts(Vec<(&'static str, HelpText)>);

impl Serialize for HelpTexts {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (id, text) in &self.0 {
            map.serialize_entry(id, text)?;
        }
        map.end()
    }
}

/// Where the page finds the engines' npm files, relative to `www/`.
pub const ENGINE_FILES: &str = "pkg/engines";

/// Copies the files each engine's adapter loads (the engine registry's
/// `files`, from `node_modules`, with the package's licence) into
/// `www/pkg/engines/`, so that the page serves them from its own origin.
/// A package that is not installed is left out with a note (a failure on
/// CI): the page then says how to install it when its engine is chosen.
fn copy_engine_packages(root: &Path) -> Result<()> {
    let out_dir = root.join("www").join(ENGINE_FILES);
    let _ = std::fs::remove_dir_all(&out_dir);
    for engine in contactlab::engines::ENGINES {
        if !engine
            .files
            .iter()
            .all(|f| root.join("node_modules").join(f).is_file())
        {
            ci::cannot_run(
                &format!("copying {}'s files into www/{ENGINE_FILES}/", engine.name),
                &format!(
                    "the npm package {} is not installed (npm ci installs it); the page offers {} without its files",
                    engine.package, engine.name
                ),
            )?;
            continue;
        }
        // The package's licence file, whatever its extension (PhysX's and
        // MuJoCo's packages ship none; their package.json names the licence).
        let licence = std::fs::read_dir(root.join("node_modules").join(engine.package))
            .into_iter()
            .flatten()
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.to_ascii_uppercase().starts_with("LICENSE"))
            .min()
            .map(|name| format!("{}/{name}", engine.package));
        for file in engine.files.iter().map(|f| f.to_string()).chain(licence) {
            let (from, to) = (root.join("node_modules").join(&file), out_dir.join(&file));
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(|e| {
                    Error::new(format!("could not create {}: {e}", parent.display()))
                })?;
            }
            std::fs::copy(&from, &to).map_err(|e| {
                Error::new(format!(
                    "could not copy {} into www/{ENGINE_FILES}/: {e}",
                    from.display()
                ))
            })?;
        }
    }
    Ok(())
}

/// Builds one module: cargo, wasm-bindgen, wasm-opt. The two cargo builds
/// write the same `contactlab.wasm`, so each is bound before the next.
fn build_module(root: &Path, wasm_bindgen: &Path, module: &PageModule) -> Result<()> {
    let mut cargo_args = vec![
        "build",
        "--release",
        "--lib",
        "--target",
        "wasm32-unknown-unknown",
        "-p",
        "contactlab",
    ];
    cargo_args.extend_from_slice(module.features);
    cmd::heading(&format!("cargo {}", cargo_args.join(" ")));
    cmd::run(cmd::cargo().current_dir(root).args(&cargo_args))?;

    let wasm = target_dir(root).join("wasm32-unknown-unknown/release/contactlab.wasm");
    let out_dir = root.join(module.out_dir);
    cmd::heading(&format!(
        "wasm-bindgen --target web --out-dir {}",
        module.out_dir
    ));
    cmd::run(
        Command::new(wasm_bindgen)
            .current_dir(root)
            .args(["--target", "web", "--out-dir"])
            .arg(&out_dir)
            .arg(&wasm),
    )?;

    optimise(root, &out_dir.join("contactlab_bg.wasm"))
}

/// Cargo's target directory, which `CARGO_TARGET_DIR` may move elsewhere.
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// `wasm-opt -O3` in place. A failure leaves the working unoptimised module
/// and is reported, but does not stop the build (the optimisation is
/// optional) except on CI.
/// No `--enable-*` flags: binaryen reads the features from the module's
/// `target_features` section, and naming some would drop the others.
fn optimise(root: &Path, module: &Path) -> Result<()> {
    cmd::heading("wasm-opt -O3 (npm's binaryen)");
    let result = read(module).and_then(|input| {
        let cached = target_dir(root)
            .join("wasm-opt")
            .join(format!("{:016x}.wasm", fnv1a(&input)));
        if !cached.is_file() {
            let wasm_opt = npm_wasm_opt(root)?;
            std::fs::create_dir_all(cached.parent().unwrap_or(root))
                .map_err(|e| Error::new(format!("cannot create {}: {e}", cached.display())))?;
            // Written beside the cache entry and renamed, so an interrupted
            // run never leaves a truncated module in the cache.
            let partial = cached.with_extension("partial");
            cmd::run(
                Command::new(&wasm_opt)
                    .arg("-O3")
                    .arg(module)
                    .arg("-o")
                    .arg(&partial),
            )
            .and_then(|()| check_tables(&wasm_opt, module, &partial))
            .and_then(|()| {
                std::fs::rename(&partial, &cached).map_err(|e| {
                    Error::new(format!("cannot move {} into place: {e}", partial.display()))
                })
            })
            .inspect_err(|_| {
                let _ = std::fs::remove_file(&partial);
            })?;
        } else {
            println!("reusing {} (same input)", cached.display());
        }
        std::fs::copy(&cached, module).map(|_| ()).map_err(|e| {
            Error::new(format!(
                "could not replace {} with the optimised module: {e}",
                module.display()
            ))
        })
    });
    match result {
        Ok(()) => {
            println!("optimised {}", module.display());
            Ok(())
        }
        Err(error) => ci::cannot_run(
            "wasm-opt -O3",
            &format!("{error}; the unoptimised module is kept"),
        ),
    }
}

/// npm's `wasm-opt` (a portable build of binaryen), installing the project's
/// npm packages first when they are missing.
fn npm_wasm_opt(root: &Path) -> Result<PathBuf> {
    setup::npm_packages(root)?;
    let tool = root.join("node_modules/.bin/wasm-opt");
    if cmd::is_executable(&tool) {
        Ok(tool)
    } else {
        Err(Error::new(format!(
            "{} is missing after `npm ci`; package.json should list `binaryen`",
            tool.display()
        )))
    }
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))
}

/// Refuses an optimised module whose exported tables changed element type
/// (old binaryen does this to wasm-bindgen's externref table).
fn check_tables(wasm_opt: &Path, original: &Path, optimised: &Path) -> Result<()> {
    let before = wasm_tables::exported_tables(&read(original)?);
    let after = wasm_tables::exported_tables(&read(optimised)?);
    match (before, after) {
        (Some(before), Some(after)) if before == after => Ok(()),
        (Some(before), Some(_)) => {
            let version = cmd::output(Command::new(wasm_opt).arg("--version"))
                .map_or_else(|| "this wasm-opt".into(), |v| v.trim().to_string());
            let names: Vec<&str> = before.iter().map(|(name, _)| name.as_str()).collect();
            Err(Error::new(format!(
                "{version} broke the exported tables ({}): it is older than the \
                 binaryen this wasm-bindgen's output needs",
                names.join(", ")
            )))
        }
        _ => Err(Error::new(
            "cannot check the optimised module's tables (unfamiliar encoding)",
        )),
    }
}
