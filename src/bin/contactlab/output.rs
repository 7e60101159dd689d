//! Standard output that never panics: `contactlab exact wall | head -1`
//! closes the pipe after one line, and `> /dev/full` refuses every write;
//! `println!` panics on both. Commands write through [`Out`] and `?` the
//! result, so a failed write ends the command like any other error.

use std::io::{self, Write};

/// Why a command stopped.
pub enum CliError {
    /// A message for the person (bad argument, bad scene, blow-up).
    Message(String),
    /// Standard output could not be written.
    Output(io::Error),
}

impl From<String> for CliError {
    fn from(message: String) -> Self {
        CliError::Message(message)
    }
}

impl From<io::Error> for CliError {
    fn from(error: io::Error) -> Self {
        CliError::Output(error)
    }
}

pub type CliResult = Result<(), CliError>;

/// Buffered standard output.
pub struct Out {
    stdout: io::BufWriter<io::Stdout>,
}

impl Out {
    pub fn new() -> Out {
        Out {
            stdout: io::BufWriter::new(io::stdout()),
        }
    }

    pub fn write(&mut self, text: &str) -> io::Result<()> {
        self.stdout.write_all(text.as_bytes())
    }

    /// Pushes buffered lines out, so a long run shows each step as it ends.
    pub fn flush(&mut self) -> io::Result<()> {
        self.stdout.flush()
    }
}

/// `outln!(out, "...", args)`: one line to [`Out`], `?`-able.
macro_rules! outln {
    ($out:expr) => {
        $out.write("\n")
    };
    ($out:expr, $($arg:tt)*) => {
        $out.write(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use outln;

/// Progress on standard error; a closed standard error is not worth
/// stopping for.
pub fn progress(text: &str) {
    let _ = write!(io::stderr(), "{text}");
}

/// A note for the person on standard error, apart from the output.
pub fn note(text: &str) {
    progress(&format!("contactlab: note: {text}\n"));
}
