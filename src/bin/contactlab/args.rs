//! The command line of one command: positional arguments, the command's own
//! options, and the run settings it takes, whose flags, ranges and messages
//! all come from the settings schema (`contactlab::settings`).

use crate::output::{CliResult, Out};
use contactlab::scene::builtin::{builtin_text, BUILTIN_SCENES};
use contactlab::scene::limits;
use contactlab::settings::{
    spec_by_flag, Default, SettingKind, SettingSpec, SettingValue, Stage, SETTINGS,
};
use contactlab::sim::SimSettings;
use std::path::Path;

/// An option of a command that is not a run setting.
pub struct CommandOption {
    pub flag: &'static str,
    /// `None` for an on/off flag, else the value's placeholder.
    pub value: Option<&'static str>,
    pub help: &'static str,
}

impl CommandOption {
    /// An on/off flag.
    pub const fn switch(flag: &'static str, help: &'static str) -> CommandOption {
        CommandOption {
            flag,
            value: None,
            help,
        }
    }

    /// An option with a value, shown as `placeholder` in the help.
    pub const fn valued(
        flag: &'static str,
        placeholder: &'static str,
        help: &'static str,
    ) -> CommandOption {
        CommandOption {
            flag,
            value: Some(placeholder),
            help,
        }
    }
}

pub const JSON: CommandOption = CommandOption::switch("--json", "print JSON instead of text");

pub const NO_TIMINGS: CommandOption = CommandOption::switch(
    "--no-timings",
    "leave out the ms_* fields, so two runs' JSON are byte-identical",
);

/// A command: its name, arguments, the setting stages it takes, its own
/// options and the function that runs it. `contactlab --help` and
/// `contactlab <command> --help` are built from these.
pub struct Command {
    pub name: &'static str,
    pub arguments: &'static str,
    pub summary: &'static str,
    /// The run settings the command takes: those of these stages, and
    /// those named in `settings`.
    pub stages: &'static [Stage],
    pub settings: &'static [&'static str],
    pub options: &'static [CommandOption],
    /// What `contactlab <command> --help` lists after the options, if
    /// anything (`export`: the formats of the registry).
    pub more_help: Option<fn() -> String>,
    /// Runs the command on its parsed arguments.
    pub run: fn(&Args, &mut Out) -> CliResult,
}

impl Command {
    /// The run settings this command takes, in schema order.
    pub fn settings(&self) -> impl Iterator<Item = &'static SettingSpec> + '_ {
        SETTINGS
            .iter()
            .filter(|s| self.stages.contains(&s.stage) || self.settings.contains(&s.id))
    }

    pub fn help(&self) -> String {
        let mut text = format!(
            "Usage: contactlab {}{}{}\n\n{}\n",
            self.name,
            if self.arguments.is_empty() { "" } else { " " },
            self.arguments,
            self.summary
        );
        let settings: Vec<&SettingSpec> = self.settings().collect();
        if !settings.is_empty() || !self.options.is_empty() {
            text.push_str("\nOptions:\n");
        }
        for spec in settings {
            let placeholder = match spec.kind {
                SettingKind::Bool => "",
                SettingKind::Method => " M",
                _ => " X",
            };
            let range = match spec.kind {
                SettingKind::Number | SettingKind::Integer => format!(" ({})", spec.range_text()),
                SettingKind::Choice => format!(" (one of {})", spec.choices.join(", ")),
                _ => String::new(),
            };
            let default = match spec.default_value() {
                SettingValue::Scene if matches!(spec.default, Default::Relative(_)) => {
                    "relative to the bodies' size".to_string()
                }
                SettingValue::Scene => "the scene's".to_string(),
                SettingValue::Bool(on) => (if on { "on" } else { "off" }).to_string(),
                v => SettingSpec::format(&v),
            };
            text.push_str(&format!(
                "  {}{placeholder}\n      {}{range}; default {default}. {}\n",
                spec.cli_flag, spec.label, spec.help
            ));
        }
        for option in self.options {
            text.push_str(&format!(
                "  {}{}\n      {}\n",
                option.flag,
                option.value.map_or(String::new(), |v| format!(" {v}")),
                option.help
            ));
        }
        text.push_str("  -h, --help\n      this help\n");
        if let Some(more_help) = self.more_help {
            text.push_str(&more_help());
        }
        text
    }
}

/// A parsed command line.
pub struct Args {
    pub positional: Vec<String>,
    /// The command's own options and their values (None for flags).
    options: Vec<(&'static str, Option<String>)>,
    pub settings: SimSettings,
    /// Whether a setting was given (the others keep their defaults).
    given: Vec<&'static str>,
    pub help: bool,
}

impl Args {
    pub fn parse(command: &Command, args: &[String]) -> Result<Args, String> {
        let mut parsed = Args {
            positional: Vec::new(),
            options: Vec::new(),
            settings: SimSettings::default(),
            given: Vec::new(),
            help: false,
        };
        let takes: Vec<&'static str> = command
            .settings()
            .map(|s| s.cli_flag)
            .chain(command.options.iter().map(|o| o.flag))
            .collect();
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            if arg == "-h" || arg == "--help" {
                parsed.help = true;
                continue;
            }
            if !arg.starts_with("--") {
                parsed.positional.push(arg.clone());
                continue;
            }
            let mut value_of = |flag: &str| {
                rest.next()
                    .cloned()
                    .ok_or_else(|| format!("option '{flag}' needs a value"))
            };
            if let Some(option) = command.options.iter().find(|o| o.flag == arg) {
                let value = match option.value {
                    Some(_) => Some(value_of(option.flag)?),
                    None => None,
                };
                parsed.options.push((option.flag, value));
                continue;
            }
            let spec = spec_by_flag(arg)
                .filter(|s| command.stages.contains(&s.stage) || command.settings.contains(&s.id))
                .ok_or_else(|| {
                    format!(
                        "unknown option '{arg}' ('{}' takes: {}; see contactlab {} --help)",
                        command.name,
                        if takes.is_empty() {
                            "no options".to_string()
                        } else {
                            takes.join(" ")
                        },
                        command.name
                    )
                })?;
            let text = match spec.kind {
                SettingKind::Bool => "1".to_string(),
                _ => value_of(spec.cli_flag)?,
            };
            parsed
                .settings
                .set_text(spec.id, &text)
                .map_err(|e| format!("{}: {e}", spec.cli_flag))?;
            parsed.given.push(spec.id);
        }
        Ok(parsed)
    }

    pub fn flag(&self, flag: &str) -> bool {
        self.options.iter().any(|(f, _)| *f == flag)
    }

    pub fn value(&self, flag: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(f, _)| *f == flag)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether the setting `id` was given on the command line.
    pub fn given(&self, id: &str) -> bool {
        self.given.contains(&id)
    }

    /// A whole number of at least 1 from `flag`, if given; `noun` says what
    /// it counts ("steps", "poses") in the refusal.
    pub fn count(&self, flag: &str, noun: &str) -> Result<Option<u64>, String> {
        let Some(text) = self.value(flag) else {
            return Ok(None);
        };
        match text.trim().parse::<u64>() {
            Ok(n) if (1..=10_000_000).contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "{flag}: the number of {noun} must be a whole number from 1 to 10000000, got \"{text}\""
            )),
        }
    }

    pub fn no_positional(&self, command: &str) -> Result<(), String> {
        match self.positional.first() {
            Some(p) => Err(format!("'{command}' takes no argument, got '{p}'")),
            None => Ok(()),
        }
    }

    /// The one positional argument, named `what` in messages.
    pub fn one_positional(&self, command: &str, what: &str) -> Result<&str, String> {
        match self.positional.as_slice() {
            [one] => Ok(one),
            [] => Err(format!("'{command}' needs {what}")),
            [_, extra, ..] => Err(format!(
                "'{command}' takes one argument, got an extra one: '{extra}'"
            )),
        }
    }

    /// The one scene argument: its source name and text.
    pub fn scene_text(&self, command: &str) -> Result<(String, String), String> {
        let arg = self.one_positional(command, SCENE_ARGUMENT)?;
        scene_text_of(arg)
    }
}

/// Why [`read_capped`] read nothing.
pub enum Capped {
    Io(std::io::Error),
    TooLarge { cap: u64 },
}

impl std::fmt::Display for Capped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Capped::Io(e) => e.fmt(f),
            Capped::TooLarge { cap } => write!(
                f,
                "larger than the {} MB this kind of file may have (README, \"Limits\")",
                cap / 1_000_000
            ),
        }
    }
}

/// The bytes of the file at `path`, refused once it passes `cap` bytes
/// without reading further (a device such as /dev/zero never ends).
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, Capped> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(Capped::Io)?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(Capped::Io)?;
    if bytes.len() as u64 > cap {
        return Err(Capped::TooLarge { cap });
    }
    Ok(bytes)
}

/// What a scene argument is, for messages.
pub const SCENE_ARGUMENT: &str =
    "a scene: a built-in id (see 'contactlab scenes') or a scene file path";

/// A scene argument's source name and text: a built-in scene's, or the
/// file's.
pub fn scene_text_of(arg: &str) -> Result<(String, String), String> {
    if let Some(text) = builtin_text(arg) {
        return Ok((format!("builtin:{arg}"), text.to_string()));
    }
    let bytes = read_capped(Path::new(arg), limits::MAX_SCENE_FILE_BYTES).map_err(|e| match e {
        Capped::Io(e) => {
            let ids: Vec<&str> = BUILTIN_SCENES.iter().map(|s| s.id).collect();
            format!(
                "'{arg}' is neither a built-in scene ({}) nor a readable file: {e}",
                ids.join(", ")
            )
        }
        too_large => format!("{arg}: {too_large}"),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{arg}: not UTF-8 text (invalid byte at offset {}); scene files are UTF-8 JSON",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((arg.to_string(), text))
}
