//! `cargo xtask screenshots`: builds the page and saves the screenshots in
//! `docs/screenshots/` (the Pillar with Opposing at step 3, the Wall, the
//! Arch, the spike in the hole, and once `region-analysis` is in the
//! registry its contact regions in the wedge-in-crack case), for a person
//! to look at. Kept out of
//! `cargo xtask test`, which must leave the working tree as it found it.

use crate::cmd::{self, Result};
use crate::{test, wasm};
use std::path::Path;

/// Builds `www/pkg/` and runs `tests/e2e/screenshots.mjs` against the served page.
pub fn run(root: &Path) -> Result<()> {
    wasm::build(root)?;
    cmd::heading("screenshots (node tests/e2e/screenshots.mjs)");
    test::browser_script(root, &["tests/e2e/screenshots.mjs"], &[])?;
    println!("\nScreenshots written to docs/screenshots/.");
    Ok(())
}
