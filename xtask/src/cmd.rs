//! Running external commands with errors that name the command that failed,
//! plus the small helpers (headings, tool lookup) the other modules share.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A user-facing failure: printed once by `main` and turned into exit code 1.
#[derive(Debug)]
pub struct Error(String);

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// Prints a step heading so a long log shows where each step starts.
pub fn heading(title: &str) {
    println!("\n==> {title}");
}

/// The `cargo` that runs xtask, so nested builds use the same toolchain.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Renders a command the way a user would type it, for messages.
pub fn display(command: &Command) -> String {
    let program = Path::new(command.get_program())
        .file_name()
        .unwrap_or(command.get_program())
        .to_string_lossy()
        .into_owned();
    std::iter::once(program)
        .chain(command.get_args().map(quote))
        .collect::<Vec<_>>()
        .join(" ")
}

fn quote(arg: &OsStr) -> String {
    let arg = arg.to_string_lossy();
    if arg.is_empty() || arg.contains(' ') {
        format!("'{arg}'")
    } else {
        arg.into_owned()
    }
}

/// Runs a command with the terminal's stdin/stdout/stderr, so its output
/// (cargo test's summary lines above all) reaches the log unchanged.
pub fn run(command: &mut Command) -> Result<()> {
    let shown = display(command);
    let status = command
        .status()
        .map_err(|e| Error::new(format!("could not start `{shown}`: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::new(format!("`{shown}` failed ({status})")))
    }
}

/// Runs a command quietly and returns its stdout; `None` when the program
/// is missing or fails, which callers treat as "not set up yet".
pub fn output(command: &mut Command) -> Option<String> {
    let out = command
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Finds an executable on PATH, then in cargo's bin directory: `cargo
/// install` puts tools there, and on a fresh machine it may not be on PATH
/// in the shell that started us.
pub fn find_tool(name: &str) -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain(cargo_bin_dir())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

/// `$CARGO_HOME/bin`, defaulting to `~/.cargo/bin`.
pub fn cargo_bin_dir() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .map(|home| home.join("bin"))
}

/// True for an existing regular file with an execute bit (on Unix).
pub fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}
