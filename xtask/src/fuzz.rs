//! `cargo xtask fuzz --minutes N`: the fuzzer of `tests/fuzz.rs` for N
//! minutes (optimised, so many more cases than the 30 s inside `cargo
//! xtask test`), with a fresh seed each time unless `CONTACTLAB_FUZZ_SEED`
//! is set. A failure prints the seed and the smallest failing input.

use crate::cmd::{self, Result};
use std::path::Path;

pub fn run(root: &Path, args: &[String]) -> Result<()> {
    let minutes = match args {
        [flag, n] if flag == "--minutes" => {
            n.parse::<u64>().ok().filter(|&m| (1..=10_000).contains(&m))
        }
        _ => None,
    }
    .ok_or_else(|| {
        cmd::Error::new(format!(
            "`cargo xtask fuzz` takes `--minutes N`, N a whole number from 1 to 10000 (got `{}`)",
            args.join(" ")
        ))
    })?;
    let seed = std::env::var("CONTACTLAB_FUZZ_SEED").unwrap_or_else(|_| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        now.to_string()
    });
    cmd::heading(&format!("fuzzing for {minutes} min, seed {seed}"));
    cmd::run(
        cmd::cargo()
            .current_dir(root)
            .args(["test", "--release", "--test", "fuzz", "--", "--nocapture"])
            .env("CONTACTLAB_FUZZ_SECONDS", (minutes * 60).to_string())
            .env("CONTACTLAB_FUZZ_SEED", seed),
    )
}
