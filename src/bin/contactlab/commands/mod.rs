//! The commands of `contactlab`, one file each, and the list that the
//! dispatch and `contactlab --help` read.

mod contacts;
mod exact;
mod export;
mod mesh;
mod methods;
mod run;
mod scenes;
mod score;
mod table;
mod tetgen;

use crate::args::Command;

/// Every command, in the order `--help` lists them.
pub const COMMANDS: &[Command] = &[
    scenes::COMMAND,
    exact::COMMAND,
    methods::COMMAND,
    contacts::COMMAND,
    run::COMMAND,
    score::COMMAND,
    export::COMMAND,
    mesh::COMMAND,
    tetgen::COMMAND,
    table::COMMAND,
];

/// `contactlab` alone, or `contactlab --help`: every command and its summary.
pub fn usage() -> String {
    let mut text = String::from(
        "contactlab — assess mesh-based contact point methods (Erleben 2018)\n\nUsage:\n",
    );
    for c in COMMANDS {
        text.push_str(&format!(
            "  contactlab {} {}\n      {}\n",
            c.name, c.arguments, c.summary
        ));
    }
    text.push_str("\nA <scene> is a built-in scene id (see `contactlab scenes`) or the path of a\ncontactlab-scene/1 JSON file. `contactlab <command> --help` lists a command's\noptions, with their ranges and defaults.\n");
    text
}
