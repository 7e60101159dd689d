//! Builds the page's WebAssembly: the `contactlab` library for
//! wasm32-unknown-unknown, `wasm-bindgen --target web` into `www/pkg/`, then
//! `wasm-opt -O3` when binaryen is installed (it only makes the module
//! smaller and faster, so it is skipped with a note when absent or when it
//! would break the module); and copies the paper-fine meshes and
//! `docs/method.md` (linked from the page's help) beside it.

use crate::cmd::{self, Error, Result};
use crate::{setup, wasm_tables};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the setup the build needs, then builds `www/pkg/`.
pub fn build(root: &Path) -> Result<()> {
    setup::wasm_target()?;
    let wasm_bindgen = setup::wasm_bindgen(root)?;

    // The `parry` feature (parry3d, the industry-baseline method) is on by
    // default; the page asks for it by name so that it keeps it even if
    // the default changes.
    cmd::heading(
        "cargo build --release --lib --target wasm32-unknown-unknown -p contactlab --features parry",
    );
    cmd::run(cmd::cargo().current_dir(root).args([
        "build",
        "--release",
        "--lib",
        "--target",
        "wasm32-unknown-unknown",
        "-p",
        "contactlab",
        "--features",
        "parry",
    ]))?;

    let module = target_dir(root).join("wasm32-unknown-unknown/release/contactlab.wasm");
    let out_dir = root.join("www/pkg");
    cmd::heading("wasm-bindgen --target web --out-dir www/pkg");
    cmd::run(
        Command::new(&wasm_bindgen)
            .current_dir(root)
            .args(["--target", "web", "--out-dir"])
            .arg(&out_dir)
            .arg(&module),
    )?;

    optimise(&out_dir.join("contactlab_bg.wasm"));

    // Files the page fetches from beside the wasm: the paper-fine TetGen
    // meshes, too large to compile into it, when that mesher is chosen; and
    // the write-up of ContactLab's own method, linked from the help, so
    // that the link works offline.
    for (source, name) in [
        ("meshes/paper-fine.json", "paper-fine.json"),
        ("docs/method.md", "method.md"),
    ] {
        let from = root.join(source);
        std::fs::copy(&from, out_dir.join(name)).map_err(|e| {
            Error::new(format!(
                "could not copy {} into www/pkg/: {e}",
                from.display()
            ))
        })?;
    }
    Ok(())
}

/// Cargo's target directory, which `CARGO_TARGET_DIR` may move elsewhere.
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// `wasm-opt -O3` in place. A failure leaves the working unoptimised module
/// and is reported, but does not stop the build: the optimisation is optional.
/// No `--enable-*` flags: binaryen reads the features from the module's
/// `target_features` section, and naming some would drop the others.
fn optimise(module: &Path) {
    cmd::heading("wasm-opt -O3");
    let Some(wasm_opt) = cmd::find_tool("wasm-opt") else {
        println!(
            "wasm-opt not found on PATH: skipped (install binaryen for a smaller, faster module)"
        );
        return;
    };
    // Write beside the module and rename, so an interrupted run never leaves
    // a truncated module behind.
    let optimised = module.with_extension("opt.wasm");
    let mut command = Command::new(wasm_opt);
    command.arg("-O3").arg(module).arg("-o").arg(&optimised);
    let result = cmd::run(&mut command)
        .and_then(|()| check_tables(module, &optimised))
        .and_then(|()| {
            std::fs::rename(&optimised, module).map_err(|e| {
                Error::new(format!(
                    "could not replace {} with the optimised module: {e}",
                    module.display()
                ))
            })
        });
    match result {
        Ok(()) => println!("optimised {}", module.display()),
        Err(error) => {
            let _ = std::fs::remove_file(&optimised);
            println!("warning: {error}; keeping the unoptimised module");
        }
    }
}

/// Refuses an optimised module whose exported tables changed element type
/// (old binaryen does this to wasm-bindgen's externref table).
fn check_tables(original: &Path, optimised: &Path) -> Result<()> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))
    };
    let before = wasm_tables::exported_tables(&read(original)?);
    let after = wasm_tables::exported_tables(&read(optimised)?);
    match (before, after) {
        (Some(before), Some(after)) if before == after => Ok(()),
        (Some(before), Some(_)) => {
            let version = cmd::output(Command::new("wasm-opt").arg("--version"))
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
