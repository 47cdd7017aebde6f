//! A tournament bot's `command`, as a TOML string or array.

use std::fmt;

use serde::Deserialize;

/// A bot's `command`: one string, split like a shell would, or an array of strings that is
/// the argv itself (no splitting, so arguments with spaces or quotes need no escaping).
#[derive(Clone, Debug)]
pub(super) enum RawCommand {
    Line(String),
    Argv(Vec<String>),
}

impl RawCommand {
    /// The argv, and the command as recorded in plans (a string either way).
    pub(super) fn argv(&self) -> Result<(Vec<String>, String), String> {
        match self {
            RawCommand::Line(line) => Ok((crate::bot_command::split(line)?, line.clone())),
            RawCommand::Argv(argv) => {
                if argv.first().is_none_or(|program| program.is_empty()) {
                    return Err("empty bot command: the array's first string is the program".into());
                }
                let line = shlex::try_join(argv.iter().map(String::as_str)).map_err(|_| {
                    "an argument of the bot command holds a NUL character".to_string()
                })?;
                Ok((argv.clone(), line))
            }
        }
    }
}

impl<'de> Deserialize<'de> for RawCommand {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = RawCommand;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a command line string or an array of strings")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<RawCommand, E> {
                Ok(RawCommand::Line(text.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RawCommand, A::Error> {
                let mut argv = Vec::new();
                while let Some(arg) = seq.next_element::<String>()? {
                    argv.push(arg);
                }
                Ok(RawCommand::Argv(argv))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Bot {
        command: RawCommand,
    }

    fn argv(toml_text: &str) -> Result<(Vec<String>, String), String> {
        let bot: Bot = toml::from_str(toml_text).map_err(|e| e.message().to_string())?;
        bot.command.argv()
    }

    #[test]
    fn a_string_is_split_and_an_array_is_taken_as_it_is() {
        let (args, line) = argv(r#"command = "python3 'my bot.py' --x""#).unwrap();
        assert_eq!(args, ["python3", "my bot.py", "--x"]);
        assert_eq!(line, "python3 'my bot.py' --x");
        let (args, line) = argv(r#"command = ["python3", "it's my bot.py", ""]"#).unwrap();
        assert_eq!(args, ["python3", "it's my bot.py", ""]);
        // The recorded line splits back into the same argv.
        assert_eq!(shlex::split(&line).unwrap(), args);
    }

    #[test]
    fn empty_commands_and_other_types_are_refused() {
        assert!(
            argv("command = []")
                .unwrap_err()
                .contains("empty bot command")
        );
        assert!(argv(r#"command = ["", "x"]"#).is_err());
        assert!(
            argv("command = 5")
                .unwrap_err()
                .contains("an array of strings")
        );
        assert!(argv("command = [1]").is_err());
    }
}
