//! `cargo xtask meshes [--search]`: remakes the committed TetGen meshes
//! (`meshes/tetgen.json`, `meshes/paper-fine.json`; `docs/design/meshing.md`)
//! by running `contactlab tetgen`, which runs the `tetgen` program on every
//! built-in shape, and writes the switches it used per shape to
//! docs/meshes.md. `--search` measures every shape's paper-fine ratio again
//! (minutes of TetGen time limits) instead of reusing the recorded one.
//!
//! `cargo xtask meshes --check` and `cargo xtask test` call [`check`]:
//! remaking the meshes must give the committed files byte for byte. Without
//! `tetgen` the check fails on CI and says it skipped elsewhere
//! (`xtask/src/ci.rs`).

use crate::ci;
use crate::cmd::{self, Error, Result};
use crate::results::build_cli;
use std::path::Path;
use std::process::Command;

const MESHES: &str = "meshes";
const REPORT: &str = "docs/meshes.md";

/// Whether the `tetgen` program is on PATH.
fn tetgen_installed() -> bool {
    cmd::find_tool("tetgen").is_some()
}

pub fn run(root: &Path, search: bool) -> Result<()> {
    crate::setup::tetgen()?;
    cmd::heading("cargo build --release --bin contactlab");
    let cli = build_cli(root)?;
    let mode = if search { "--search" } else { "--write" };
    cmd::heading(&format!("contactlab tetgen {mode} {MESHES}"));
    let mut command = Command::new(&cli);
    command.current_dir(root).args(["tetgen", mode, MESHES]);
    let shown = cmd::display(&command);
    let output = command
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| Error::new(format!("could not start `{shown}`: {e}")))?;
    if !output.status.success() {
        return Err(Error::new(format!("`{shown}` failed ({})", output.status)));
    }
    let table = String::from_utf8_lossy(&output.stdout);
    let document = format!(
        "# The committed TetGen meshes\n\n\
         <!-- Written by `cargo xtask meshes` from the output of `contactlab tetgen`; \
         the times are of the run that wrote it. -->\n\n\
         Every built-in shape's TetGen mesh, the switches it was made with and why \
         (`docs/design/meshing.md`). `tetgen` is the default level (`--mesher tetgen`), \
         `paper-fine` the section 8.6 refinement (`--mesher paper-fine`, the Pillar's \
         shapes only). Where the paper's ratio 1.015 did not finish within the time \
         limit, the next of 1.1, 1.2, 1.414 was used; `cargo xtask meshes --search` \
         measures that again.\n\n{table}"
    );
    std::fs::write(root.join(REPORT), document)
        .map_err(|e| Error::new(format!("could not write {REPORT}: {e}")))?;
    println!("wrote {MESHES}/tetgen.json, {MESHES}/paper-fine.json and {REPORT}");
    Ok(())
}

/// The regeneration check of `cargo xtask test`.
pub fn check(root: &Path) -> Result<()> {
    cmd::heading("the committed TetGen meshes regenerate byte for byte");
    if !tetgen_installed() {
        return ci::cannot_run(
            "the TetGen mesh regeneration check",
            "the `tetgen` program is not on PATH (.ci/run installs Debian's `tetgen`; \
             or: apt-get install tetgen)",
        );
    }
    let cli = build_cli(root)?;
    cmd::run(
        Command::new(&cli)
            .current_dir(root)
            .args(["tetgen", "--check", MESHES])
            .stdout(std::process::Stdio::null()),
    )?;
    println!("{MESHES}/tetgen.json and {MESHES}/paper-fine.json are what TetGen makes");
    Ok(())
}
