//! `cargo xtask serve [--port N]`: build the wasm core and serve `www/`.

use crate::cmd::{Error, Result};
use crate::{server, wasm};
use std::path::Path;

const DEFAULT_PORT: u16 = 8000;

/// Command-line options of `serve`.
pub struct Options {
    port: u16,
}

impl Options {
    /// Parses `--port N` / `--port=N`; anything else is an error.
    pub fn parse(args: &[String]) -> Result<Self> {
        let mut port = DEFAULT_PORT;
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let value = match arg.strip_prefix("--port") {
                Some("") => args.next().map(String::as_str),
                Some(rest) if rest.starts_with('=') => Some(&rest[1..]),
                _ => {
                    return Err(Error::new(format!(
                        "unknown option `{arg}` (usage: cargo xtask serve [--port N])"
                    )))
                }
            };
            port = value.and_then(|v| v.parse().ok()).ok_or_else(|| {
                Error::new("--port needs a number between 0 and 65535, e.g. --port 8001")
            })?;
        }
        Ok(Options { port })
    }
}

/// Builds `www/pkg/` and serves `www/` until interrupted.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    // Bind before the build so a taken port is reported at once, not after
    // minutes of compiling.
    let server = server::bind(&root.join("www"), options.port, true)?;
    wasm::build(root)?;
    let port = server.port()?;
    println!("\nContactLab is served at http://127.0.0.1:{port}/  (Ctrl+C to stop)");
    server.run();
    Ok(())
}
