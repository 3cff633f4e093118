//! An engine as a match names it: its command, name, protocol, options
//! and time control (`--engine key=value,...`), and the settings that make
//! the other engine family play at full strength.

use std::fmt;
use std::path::PathBuf;

use crate::protocol::wire::{Declaration, DeclaredKind, Dialect};

/// How long an engine may think.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TimeControl {
    /// A clock per game, with an increment per move.
    Clock {
        /// The time on the clock at the start, in milliseconds (above 0).
        base_ms: u64,
        /// Milliseconds added to the clock after each move.
        inc_ms: u64,
    },
    /// A fixed time per move, in milliseconds (`go movetime`).
    MoveTime(u64),
    /// A fixed search depth per move (`go depth`), with no clock.
    Depth(u32),
    /// A fixed node count per move (`go nodes`), with no clock; a sanmill
    /// engine cannot take it.
    Nodes(u64),
}

/// A time control that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TimeControlError {
    /// The text (held) is not `SECONDS[+INCREMENT]` in non-negative
    /// numbers.
    #[error("time control '{0}': expected SECONDS[+INCREMENT]")]
    Syntax(String),
    /// The base time (of the text held) is 0 once rounded to milliseconds.
    #[error("time control '{0}': the base time must be positive")]
    NoBaseTime(String),
}

impl TimeControl {
    /// Reads `SECONDS[+INCREMENT]`, e.g. `10+0.1` or `60`.
    pub fn parse_clock(text: &str) -> Result<TimeControl, TimeControlError> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(|v| (v * 1000.0).round() as u64)
                .ok_or_else(|| TimeControlError::Syntax(text.to_string()))
        };
        let base_ms = secs(base)?;
        if base_ms == 0 {
            return Err(TimeControlError::NoBaseTime(text.to_string()));
        }
        Ok(TimeControl::Clock {
            base_ms,
            inc_ms: secs(inc)?,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock { base_ms, inc_ms } => {
                write!(f, "{}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
            }
            TimeControl::MoveTime(ms) => write!(f, "movetime {ms}"),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

/// The protocol an engine of a match speaks: ours in either dialect, or
/// that of the other public mill engine family, which only the match runner
/// speaks (see `protocol::wire::sanmill`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proto {
    /// Ours, in the dialect named: `proto=uci` (the default) or
    /// `proto=gbgp`.
    Morris(Dialect),
    /// The other family's (`proto=sanmill`): UCI's handshake, a removal as
    /// a turn of its own, and no rule options.
    Sanmill,
}

impl Proto {
    /// The `proto=` setting: `uci`, `gbgp` or `sanmill`.
    pub fn from_name(name: &str) -> Option<Proto> {
        match name {
            "sanmill" => Some(Proto::Sanmill),
            _ => Dialect::from_name(name).map(Proto::Morris),
        }
    }

    /// The dialect of the handshake and `ucinewgame`: a sanmill engine
    /// speaks UCI's.
    pub fn dialect(self) -> Dialect {
        match self {
            Proto::Morris(dialect) => dialect,
            Proto::Sanmill => Dialect::Uci,
        }
    }
}

/// One engine of a match, as given by `--engine key=value ...`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineSpec {
    /// Its name in tables, records and messages (`name=`; by default the
    /// program's file name).
    pub name: String,
    /// The program (`cmd=`): a relative path with a folder in it is made
    /// absolute from the current directory, a bare name is looked up on
    /// the PATH.
    pub cmd: PathBuf,
    /// The program's arguments (`arg=`, repeatable), in order.
    pub args: Vec<String>,
    /// Its working directory (`dir=`); `None`: the current directory.
    pub dir: Option<PathBuf>,
    /// What it speaks (`proto=`; by default our UCI-like dialect).
    pub proto: Proto,
    /// `setoption` values sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// This engine's own time control, overriding the match's.
    pub tc: Option<TimeControl>,
}

/// The keys `--engine` takes, for the help text and error messages.
const ENGINE_KEYS: &str = "cmd=PROGRAM (required), name=NAME, arg=ARGUMENT (repeatable), \
     dir=WORKING_DIR, proto=uci|gbgp|sanmill, option.NAME=VALUE (repeatable), \
     tc=SECONDS[+INC], movetime=MS, depth=N, nodes=N";

/// An engine setting that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EngineSpecError {
    /// A setting (held) with no `=`.
    #[error("engine setting '{0}' is not key=value ({ENGINE_KEYS})", ENGINE_KEYS = ENGINE_KEYS)]
    NotKeyValue(String),
    /// A `movetime=`, `depth=` or `nodes=` value that is not a whole
    /// number.
    #[error("engine setting {key} needs {what}, not '{value}'")]
    NotANumber {
        /// The setting's key.
        key: String,
        /// What the key needs, in words (`milliseconds`, `a depth`, `a node
        /// count`).
        what: &'static str,
        /// The value as given.
        value: String,
    },
    /// A `proto=` value (held) other than uci, gbgp or sanmill.
    #[error("proto must be uci, gbgp or sanmill, not '{0}'")]
    Proto(String),
    /// A `tc=` value that cannot be read.
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    /// A key (held) that `--engine` does not take (a bare `option.` too).
    #[error("unknown engine setting '{0}' ({ENGINE_KEYS})", ENGINE_KEYS = ENGINE_KEYS)]
    UnknownKey(String),
    /// No `cmd=` among the settings.
    #[error("an engine needs cmd=PROGRAM ({ENGINE_KEYS})", ENGINE_KEYS = ENGINE_KEYS)]
    NoCommand,
}

impl EngineSpec {
    /// Reads an engine's `key=value` settings.
    pub fn parse(items: &[String]) -> Result<EngineSpec, EngineSpecError> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: PathBuf::new(),
            args: Vec::new(),
            dir: None,
            proto: Proto::Morris(Dialect::Uci),
            options: Vec::new(),
            tc: None,
        };
        for item in items {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| EngineSpecError::NotKeyValue(item.clone()))?;
            match key {
                "cmd" => spec.cmd = PathBuf::from(value),
                "name" => spec.name = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "proto" => {
                    spec.proto = Proto::from_name(value)
                        .ok_or_else(|| EngineSpecError::Proto(value.to_string()))?
                }
                "tc" => spec.tc = Some(TimeControl::parse_clock(value)?),
                "movetime" => {
                    spec.tc = Some(TimeControl::MoveTime(number(key, value, "milliseconds")?))
                }
                "depth" => spec.tc = Some(TimeControl::Depth(number(key, value, "a depth")?)),
                "nodes" => spec.tc = Some(TimeControl::Nodes(number(key, value, "a node count")?)),
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_string(), value.to_string()))
                    }
                    _ => return Err(EngineSpecError::UnknownKey(key.to_string())),
                },
            }
        }
        if spec.cmd.as_os_str().is_empty() {
            return Err(EngineSpecError::NoCommand);
        }
        // A relative path means relative to where the match is started, not
        // to the engine's working directory.
        if spec.cmd.components().count() > 1
            && spec.cmd.is_relative()
            && let Ok(cwd) = std::env::current_dir()
        {
            spec.cmd = cwd.join(&spec.cmd);
        }
        if spec.name.is_empty() {
            spec.name = spec
                .cmd
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| "engine".into());
        }
        Ok(spec)
    }
}

/// The strength options of the other engine family, each with the value
/// that plays at full strength (`None`: the maximum the engine declares).
/// Their defaults are their weakest play (`SkillLevel` 1 is depth 1).
const SANMILL_STRENGTH: [(&str, Option<&str>); 3] = [
    ("SkillLevel", None),
    ("IDSEnabled", Some("true")),
    ("DrawOnHumanExperience", Some("false")),
];

/// What the match header says of a sanmill engine's strength settings.
pub fn strength_note(spec: &EngineSpec) -> Option<String> {
    if spec.proto != Proto::Sanmill {
        return None;
    }
    let set: Vec<String> = SANMILL_STRENGTH
        .into_iter()
        .filter(|(name, _)| {
            !spec
                .options
                .iter()
                .any(|(u, _)| u.eq_ignore_ascii_case(name))
        })
        .map(|(name, value)| match value {
            Some(v) => format!("{name} {v}"),
            None => format!("{name} at its maximum"),
        })
        .collect();
    Some(if set.is_empty() {
        format!("{}: strength options as given", spec.name)
    } else {
        format!(
            "{}: full strength: {} (those it declares; option.NAME=VALUE overrides)",
            spec.name,
            set.join(", ")
        )
    })
}

/// The full-strength settings for an engine that declared `declared`,
/// but for those the user sets (`user`).
pub(super) fn full_strength(
    declared: &[Declaration],
    user: &[(String, String)],
) -> Vec<(&'static str, String)> {
    SANMILL_STRENGTH
        .into_iter()
        .filter(|(name, _)| !user.iter().any(|(u, _)| u.eq_ignore_ascii_case(name)))
        .filter_map(|(name, value)| {
            let d = declared
                .iter()
                .find(|d| d.name.eq_ignore_ascii_case(name))?;
            match (value, &d.kind) {
                (None, DeclaredKind::Spin { max, .. }) => Some((name, max.to_string())),
                (Some(v), DeclaredKind::Check { .. }) => Some((name, v.to_string())),
                _ => None,
            }
        })
        .collect()
}

/// `value` of the setting `key` as a number of its limit's type (out of
/// the type's range is not a number either).
fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    what: &'static str,
) -> Result<T, EngineSpecError> {
    value.parse().map_err(|_| EngineSpecError::NotANumber {
        key: key.to_string(),
        what,
        value: value.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_engine_settings() {
        let items: Vec<String> = [
            "cmd=/bin/engine",
            "name=A",
            "option.Hash=32",
            "option.Move Overhead=10",
            "proto=gbgp",
            "tc=5+0.05",
            "arg=--fast",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let spec = EngineSpec::parse(&items).unwrap();
        assert_eq!(spec.name, "A");
        assert_eq!(spec.proto, Proto::Morris(Dialect::Gbgp));
        let sanmill = EngineSpec::parse(&["cmd=x".into(), "proto=sanmill".into()]).unwrap();
        assert_eq!(sanmill.proto, Proto::Sanmill);
        assert!(EngineSpec::parse(&["cmd=x".into(), "proto=sanmil".into()]).is_err());
        assert_eq!(spec.options[1], ("Move Overhead".into(), "10".into()));
        assert_eq!(
            spec.tc,
            Some(TimeControl::Clock {
                base_ms: 5000,
                inc_ms: 50
            })
        );
        assert!(EngineSpec::parse(&["name=x".into()]).is_err());
        assert!(EngineSpec::parse(&["cmd=x".into(), "colour=red".into()]).is_err());
        let plain = EngineSpec::parse(&["cmd=/usr/bin/morris".into()]).unwrap();
        assert_eq!(plain.name, "morris");
        // Each limit in its own type's range: no depth wraps round.
        let depth = |d: &str| EngineSpec::parse(&["cmd=x".into(), format!("depth={d}")]);
        assert_eq!(depth("7").unwrap().tc, Some(TimeControl::Depth(7)));
        assert!(matches!(
            depth("4294967297"),
            Err(EngineSpecError::NotANumber {
                what: "a depth",
                ..
            })
        ));
    }
}
