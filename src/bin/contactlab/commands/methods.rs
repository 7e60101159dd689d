//! `contactlab methods`: the contact point methods of the registry, and the
//! engines that run in Node.

use crate::args::{Args, Command, JSON};
use crate::output::{outln, CliResult, Out};
use contactlab::contact::{every_method, MethodInfo};
use contactlab::engines::ENGINES;
use serde_json::json;

pub const COMMAND: Command = Command {
    name: "methods",
    arguments: "",
    summary: "The contact point methods of the registry: id and what each does (with --json: every field of the registry).",
    stages: &[],
    settings: &[],
    options: &[JSON],
    more_help: None,
    run: methods,
};

fn methods(args: &Args, out: &mut Out) -> CliResult {
    args.no_positional("methods")?;
    if args.flag("--json") {
        return print_json(out);
    }
    for m in every_method() {
        outln!(out, "{:<29} {}", m.id, m.summary)?;
    }
    // The engines run in Node (tools/engine-host.mjs): the line says how.
    for e in ENGINES {
        outln!(
            out,
            "{:<29} engine {} — {}; run in Node: --method {} [--engine own]",
            e.id,
            e.label(),
            e.summary,
            e.id
        )?;
    }
    Ok(())
}

/// Every field of the registry, the engines' in the same keys.
fn print_json(out: &mut Out) -> CliResult {
    let mut list: Vec<_> = every_method()
        .map(|m| json!(MethodInfo::description(m)))
        .collect();
    list.extend(ENGINES.iter().map(|e| {
        json!({ "id": e.id, "kind": "engine", "name": e.name, "label": e.label(),
                "package": e.package, "version": e.version, "inside": e.inside,
                "users": e.users, "summary": e.summary, "help": e.help,
                "reads": ["engine"], "reference": false, "paper_code": false })
    }));
    outln!(out, "{}", json!(list))?;
    Ok(())
}
