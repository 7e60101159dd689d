//! `contactlab`: the command line of ContactLab. It runs the same core as the
//! browser playground, for tables, sweeps and tests. This binary parses
//! arguments and formats results; every number comes from the library.
//! Each command is a file of `commands/`; this file only finds the command
//! named and hands it its arguments.

mod args;
mod commands;
mod engine_host;
mod initial_export;
mod load;
mod output;
mod records;

use args::{Args, Command};
use commands::{usage, COMMANDS};
use output::{CliError, CliResult, Out};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = Out::new();
    let result = run(&args, &mut out).and_then(|()| out.flush().map_err(CliError::Output));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`| head`): what it wanted, it has.
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Output(e)) => {
            eprintln!("contactlab: cannot write the output: {e}");
            ExitCode::FAILURE
        }
        Err(CliError::Message(message)) => {
            eprintln!("contactlab: {message}");
            ExitCode::from(2)
        }
    }
}

/// The command named first, run on the rest of the arguments; no command,
/// or `help`, prints the usage or the named command's help.
fn run(args: &[String], out: &mut Out) -> CliResult {
    let Some(name) = args.first() else {
        out.write(&usage())?;
        return Ok(());
    };
    if matches!(name.as_str(), "-h" | "--help" | "help") {
        match args.get(1).and_then(|n| find(n)) {
            Some(command) => out.write(&command.help())?,
            None => out.write(&usage())?,
        }
        return Ok(());
    }
    let command = find(name).ok_or_else(|| {
        let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        format!(
            "unknown command '{name}' (expected one of: {}; see contactlab --help)",
            names.join(", ")
        )
    })?;
    let parsed = Args::parse(command, &args[1..])?;
    if parsed.help {
        out.write(&command.help())?;
        return Ok(());
    }
    (command.run)(&parsed, out)
}

fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}
