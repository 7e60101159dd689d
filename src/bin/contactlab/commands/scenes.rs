//! `contactlab scenes`: one line per built-in scene.

use crate::args::{Args, Command};
use crate::output::{outln, CliResult, Out};
use contactlab::scene::builtin::BUILTIN_SCENES;
use contactlab::scene::{load_scene, LoadOptions};

pub const COMMAND: Command = Command {
    name: "scenes",
    arguments: "",
    summary: "One line per built-in scene: id, group, bodies, the oracle's minimal contact count.",
    stages: &[],
    settings: &[],
    options: &[],
    more_help: None,
    run: scenes,
};

fn scenes(args: &Args, out: &mut Out) -> CliResult {
    args.no_positional("scenes")?;
    outln!(
        out,
        "{:<16} {:<16} {:>6} {:>12}",
        "id",
        "group",
        "bodies",
        "min contacts"
    )?;
    for builtin in BUILTIN_SCENES {
        let (id, text) = (builtin.id, builtin.text);
        let scene = load_scene(&format!("builtin:{id}"), text, &LoadOptions::default())
            .map_err(|e| e.to_string())?;
        let min = scene
            .oracle
            .min_contacts()
            .map_or("-".to_string(), |m| m.to_string());
        outln!(
            out,
            "{:<16} {:<16} {:>6} {:>12}",
            scene.id,
            scene.group,
            scene.bodies.len(),
            min
        )?;
    }
    Ok(())
}
