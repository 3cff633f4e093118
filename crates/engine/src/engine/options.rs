//! The engine's own options (hash size, threads, tables, book, ...):
//! their names, ranges and what setting one asks of the session. The
//! rule options are the rules core's (`RuleOptionId`).

use std::path::PathBuf;

use crate::search::{ELO_MAX, ELO_MIN, Settings};
use morris_rules::parse_bool;
use morris_tablebase::auto;

/// The engine options beyond the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EngineOption {
    Hash,
    Threads,
    MultiPv,
    ClearHash,
    MoveOverhead,
    Skill,
    LimitStrength,
    Elo,
    Ponder,
    TablebasePath,
    TablebaseAuto,
    BookPath,
}

impl EngineOption {
    pub const ALL: [EngineOption; 12] = [
        EngineOption::Hash,
        EngineOption::Threads,
        EngineOption::MultiPv,
        EngineOption::ClearHash,
        EngineOption::MoveOverhead,
        EngineOption::Skill,
        EngineOption::LimitStrength,
        EngineOption::Elo,
        EngineOption::Ponder,
        EngineOption::TablebasePath,
        EngineOption::TablebaseAuto,
        EngineOption::BookPath,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EngineOption::Hash => "Hash",
            EngineOption::Threads => "Threads",
            EngineOption::MultiPv => "MultiPV",
            EngineOption::ClearHash => "Clear Hash",
            EngineOption::MoveOverhead => "Move Overhead",
            EngineOption::Skill => "Skill",
            EngineOption::LimitStrength => "UCI_LimitStrength",
            EngineOption::Elo => "UCI_Elo",
            EngineOption::Ponder => "Ponder",
            EngineOption::TablebasePath => "TablebasePath",
            EngineOption::TablebaseAuto => "TablebaseAuto",
            EngineOption::BookPath => "BookPath",
        }
    }

    /// Numeric range of a spin option.
    pub fn range(self) -> Option<(u64, u64)> {
        match self {
            EngineOption::Hash => Some((1, 65536)),
            EngineOption::Threads => Some((1, 256)),
            EngineOption::MultiPv => Some((1, 256)),
            EngineOption::MoveOverhead => Some((0, 5000)),
            EngineOption::Skill => Some((0, 20)),
            EngineOption::Elo => Some((ELO_MIN as u64, ELO_MAX as u64)),
            EngineOption::TablebaseAuto => Some((0, auto::MAX as u64)),
            EngineOption::ClearHash
            | EngineOption::LimitStrength
            | EngineOption::Ponder
            | EngineOption::TablebasePath
            | EngineOption::BookPath => None,
        }
    }

    pub fn find(name: &str) -> Option<EngineOption> {
        EngineOption::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(name))
    }

    /// Applies a value to `settings`, or says what else the engine must do.
    pub fn apply(
        self,
        settings: &mut Settings,
        value: Option<&str>,
    ) -> Result<Applied, EngineOptionError> {
        let name = self.name();
        let needed = || value.ok_or(EngineOptionError::NeedsValue(name));
        match self {
            EngineOption::ClearHash => return Ok(Applied::ClearHash),
            EngineOption::TablebasePath => {
                // UCI spells the empty string `<empty>`: no tables.
                let path = value
                    .filter(|v| !v.is_empty() && *v != "<empty>")
                    .map(PathBuf::from);
                return Ok(Applied::TablebasePath(path));
            }
            EngineOption::BookPath => {
                return Ok(Applied::BookPath(match value {
                    None | Some("") | Some("<empty>") => BookSource::None,
                    Some("<builtin>") => BookSource::Builtin,
                    Some(path) => BookSource::File(PathBuf::from(path)),
                }));
            }
            // The engine ponders when told `go ponder`; the Ponder option
            // only tells the front end it may.
            EngineOption::Ponder => {
                self.check(needed()?)?;
            }
            EngineOption::LimitStrength => settings.limit_strength = self.check(needed()?)?,
            EngineOption::Hash => settings.hash_mb = self.spin(needed()?)? as usize,
            EngineOption::Threads => settings.threads = self.spin(needed()?)? as usize,
            EngineOption::MultiPv => settings.multipv = self.spin(needed()?)? as usize,
            EngineOption::MoveOverhead => settings.move_overhead_ms = self.spin(needed()?)?,
            EngineOption::Skill => settings.skill = self.spin(needed()?)? as u8,
            EngineOption::Elo => settings.elo = self.spin(needed()?)? as u32,
            EngineOption::TablebaseAuto => {
                return Ok(Applied::TablebaseAuto(self.spin(needed()?)? as u8));
            }
        }
        Ok(Applied::Settings)
    }

    fn check(self, value: &str) -> Result<bool, EngineOptionError> {
        parse_bool(value).ok_or_else(|| EngineOptionError::NotCheck {
            name: self.name(),
            value: value.to_string(),
        })
    }

    fn spin(self, value: &str) -> Result<u64, EngineOptionError> {
        let (min, max) = self.range().expect("spin options have a range");
        value
            .parse()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| EngineOptionError::NotSpin {
                name: self.name(),
                min,
                max,
                value: value.to_string(),
            })
    }
}

/// What an engine option asks for beyond the new search settings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Applied {
    /// Only the settings changed.
    Settings,
    ClearHash,
    /// Open the tables under this folder (none: no tables).
    TablebasePath(Option<PathBuf>),
    /// Build the missing tables up to this many stones a side (0: never).
    TablebaseAuto(u8),
    /// Use this opening book.
    BookPath(BookSource),
}

/// Where the opening book comes from (`BookPath`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BookSource {
    /// The books built into the binary, each for its own rules (`<builtin>`,
    /// the default).
    Builtin,
    /// No book (`<empty>`).
    None,
    File(PathBuf),
}

/// A rejected engine option value.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EngineOptionError {
    #[error("option {0} needs a value")]
    NeedsValue(&'static str),
    #[error("option {name} takes true or false, not '{value}'")]
    NotCheck { name: &'static str, value: String },
    #[error("option {name} takes a whole number from {min} to {max}, not '{value}'")]
    NotSpin {
        name: &'static str,
        min: u64,
        max: u64,
        value: String,
    },
}
