//! The engine's own options (hash size, threads, tables, book, ...), each
//! declared once, in one entry of `OPTIONS`: its name, type, default,
//! range and what setting it asks of the session. The rule options are
//! the rules core's (`RuleOptionId`).

use std::path::PathBuf;

use crate::engine::oracle::tables_folder;
use crate::search::{ELO_MAX, ELO_MIN, Settings};
use morris_rules::parse_bool;
use morris_tablebase::auto;

/// The engine options beyond the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EngineOption {
    /// `Hash`: the transposition table's size in MB, 1 to 65536.
    Hash,
    /// `Threads`: search threads (Lazy SMP), 1 to 256.
    Threads,
    /// `MultiPV`: the number of best lines reported, 1 to 256.
    MultiPv,
    /// `Clear Hash`, a button: empties the transposition table.
    ClearHash,
    /// `Move Overhead`: milliseconds kept in reserve per move for
    /// communication delays, 0 to 5000.
    MoveOverhead,
    /// `Skill`: playing strength, 0 to 20; below 20 the engine searches
    /// shallower and picks among its best few moves with some noise.
    Skill,
    /// `UCI_LimitStrength`: play at the strength `UCI_Elo` says instead of
    /// at `Skill`.
    LimitStrength,
    /// `UCI_Elo`: the strength played under `UCI_LimitStrength`, on the
    /// engine's own scale from `ELO_MIN` (Skill 0) to `ELO_MAX` (Skill 20).
    Elo,
    /// `Ponder`: tells the front end the engine can ponder (`go ponder`);
    /// setting it changes nothing.
    Ponder,
    /// `TablebasePath`: the folder of the endgame tables; `<empty>` (or no
    /// value) for none.
    TablebasePath,
    /// `TablebaseAuto`: builds the missing endgame tables up to this many
    /// stones a side in the background, 0 (never) to 12.
    TablebaseAuto,
    /// `BookPath`: the opening book: `<builtin>`, a book file, or
    /// `<empty>` (or no value) for none.
    BookPath,
}

/// An engine option's type and its default, as `uci` declares it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionType {
    /// `type button`: an action, set without a value.
    Button,
    /// `type check`: true or false.
    Check {
        /// The value until set.
        default: bool,
    },
    /// `type spin`: a whole number from `min` to `max`.
    Spin {
        /// The value until set.
        default: u64,
        /// The smallest value accepted.
        min: u64,
        /// The largest value accepted.
        max: u64,
    },
    /// `type string`: free text (a path, or a word in angle brackets).
    Text {
        /// The value until set (`<empty>` for none, as UCI spells it).
        default: String,
    },
}

/// A value checked against its option's type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Value<'a> {
    Pressed,
    Check(bool),
    Spin(u64),
    /// The text as given, empty when none was.
    Text(&'a str),
}

/// Everything about one engine option: its name, its type with its
/// default and range, and what setting it does. `uci`, `setoption`, the
/// GBGP declarations and the board all read this one entry.
struct Entry {
    option: EngineOption,
    name: &'static str,
    /// A function: some defaults are known only at run time (the tables'
    /// folder, `MORRIS_TB_AUTO`).
    kind: fn() -> OptionType,
    effect: Effect,
}

/// What setting an engine option does: change a search setting, or ask
/// the session for more (new tables, a book, a cleared hash).
enum Effect {
    Setting(fn(&mut Settings, Value)),
    Session(fn(Value) -> Applied),
}

const fn spin(default: u64, min: u64, max: u64) -> OptionType {
    OptionType::Spin { default, min, max }
}

/// The engine options, in the order `uci` declares them.
const OPTIONS: [Entry; 12] = [
    Entry {
        option: EngineOption::Hash,
        name: "Hash",
        kind: || spin(Settings::default().hash_mb as u64, 1, 65536),
        effect: Effect::Setting(|s, v| s.hash_mb = v.number() as usize),
    },
    Entry {
        option: EngineOption::Threads,
        name: "Threads",
        kind: || spin(Settings::default().threads as u64, 1, 256),
        effect: Effect::Setting(|s, v| s.threads = v.number() as usize),
    },
    Entry {
        option: EngineOption::MultiPv,
        name: "MultiPV",
        kind: || spin(Settings::default().multipv as u64, 1, 256),
        effect: Effect::Setting(|s, v| s.multipv = v.number() as usize),
    },
    Entry {
        option: EngineOption::ClearHash,
        name: "Clear Hash",
        kind: || OptionType::Button,
        effect: Effect::Session(|_| Applied::ClearHash),
    },
    Entry {
        option: EngineOption::MoveOverhead,
        name: "Move Overhead",
        kind: || spin(Settings::default().move_overhead_ms, 0, 5000),
        effect: Effect::Setting(|s, v| s.move_overhead_ms = v.number()),
    },
    Entry {
        option: EngineOption::Skill,
        name: "Skill",
        kind: || spin(Settings::default().skill as u64, 0, 20),
        effect: Effect::Setting(|s, v| s.skill = v.number() as u8),
    },
    Entry {
        option: EngineOption::LimitStrength,
        name: "UCI_LimitStrength",
        kind: || OptionType::Check { default: false },
        effect: Effect::Setting(|s, v| s.limit_strength = v.flag()),
    },
    Entry {
        option: EngineOption::Elo,
        name: "UCI_Elo",
        kind: || {
            spin(
                Settings::default().elo as u64,
                ELO_MIN as u64,
                ELO_MAX as u64,
            )
        },
        effect: Effect::Setting(|s, v| s.elo = v.number() as u32),
    },
    Entry {
        option: EngineOption::Ponder,
        name: "Ponder",
        kind: || OptionType::Check { default: false },
        // The engine ponders when told `go ponder`; the Ponder option
        // only tells the front end it may.
        effect: Effect::Setting(|_, _| {}),
    },
    Entry {
        option: EngineOption::TablebasePath,
        name: "TablebasePath",
        kind: || OptionType::Text {
            default: tables_folder(None)
                .map_or_else(|_| "<empty>".to_string(), |d| d.display().to_string()),
        },
        // UCI spells the empty string `<empty>`: no tables.
        effect: Effect::Session(|v| {
            let path = Some(v.text())
                .filter(|v| !v.is_empty() && !v.eq_ignore_ascii_case("<empty>"))
                .map(PathBuf::from);
            Applied::TablebasePath(path)
        }),
    },
    Entry {
        option: EngineOption::TablebaseAuto,
        name: "TablebaseAuto",
        kind: || spin(auto::default_max() as u64, 0, auto::MAX as u64),
        effect: Effect::Session(|v| Applied::TablebaseAuto(v.number() as u8)),
    },
    Entry {
        option: EngineOption::BookPath,
        name: "BookPath",
        kind: || OptionType::Text {
            default: "<builtin>".to_string(),
        },
        effect: Effect::Session(|v| {
            // The special values in any case, as every option value; a
            // path as written.
            Applied::BookPath(match v.text() {
                "" => BookSource::None,
                t if t.eq_ignore_ascii_case("<empty>") => BookSource::None,
                t if t.eq_ignore_ascii_case("<builtin>") => BookSource::Builtin,
                path => BookSource::File(PathBuf::from(path)),
            })
        }),
    },
];

impl<'a> Value<'a> {
    fn number(self) -> u64 {
        match self {
            Value::Spin(n) => n,
            _ => unreachable!("a spin option's value is a number"),
        }
    }

    fn flag(self) -> bool {
        match self {
            Value::Check(b) => b,
            _ => unreachable!("a check option's value is true or false"),
        }
    }

    fn text(self) -> &'a str {
        match self {
            Value::Text(t) => t,
            _ => unreachable!("a text option's value is a string"),
        }
    }
}

impl EngineOption {
    /// Every engine option, in the order `uci` declares them.
    pub fn all() -> impl Iterator<Item = EngineOption> {
        OPTIONS.iter().map(|e| e.option)
    }

    fn entry(self) -> &'static Entry {
        &OPTIONS[self as usize]
    }

    /// The option's name, as `uci` declares it and `setoption` takes it
    /// (`Move Overhead`).
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The option's type, with its default (and a spin option's range).
    pub fn kind(self) -> OptionType {
        (self.entry().kind)()
    }

    /// The engine option of this name, compared without case; `None` for
    /// any other name (a rule option's included).
    pub fn find(name: &str) -> Option<EngineOption> {
        EngineOption::all().find(|o| o.name().eq_ignore_ascii_case(name))
    }

    /// Applies a value to `settings`, or says what else the engine must do.
    pub fn apply(
        self,
        settings: &mut Settings,
        value: Option<&str>,
    ) -> Result<Applied, EngineOptionError> {
        let name = self.name();
        let needed = || value.ok_or(EngineOptionError::NeedsValue(name));
        let value = match self.kind() {
            OptionType::Button => Value::Pressed,
            OptionType::Check { .. } => Value::Check(self.check(needed()?)?),
            OptionType::Spin { min, max, .. } => Value::Spin(self.spin(needed()?, min, max)?),
            OptionType::Text { .. } => Value::Text(value.unwrap_or("")),
        };
        Ok(match self.entry().effect {
            Effect::Setting(set) => {
                set(settings, value);
                Applied::Settings
            }
            Effect::Session(ask) => ask(value),
        })
    }

    fn check(self, value: &str) -> Result<bool, EngineOptionError> {
        parse_bool(value).ok_or_else(|| EngineOptionError::NotCheck {
            name: self.name(),
            value: value.to_string(),
        })
    }

    fn spin(self, value: &str, min: u64, max: u64) -> Result<u64, EngineOptionError> {
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
    /// Empty the transposition table (`Clear Hash`).
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
    /// A book file (`morris tb book`), for the rules it was made for.
    File(PathBuf),
}

/// A rejected engine option value.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EngineOptionError {
    /// A check or spin option set without `value` (the option's name).
    #[error("option {0} needs a value")]
    NeedsValue(&'static str),
    /// A check option's value is none of `true`/`false`, `on`/`off`,
    /// `yes`/`no`, `1`/`0`.
    #[error("option {name} takes true or false, not '{value}'")]
    NotCheck {
        /// The option's name.
        name: &'static str,
        /// The value given.
        value: String,
    },
    /// A spin option's value is not a whole number in its range.
    #[error("option {name} takes a whole number from {min} to {max}, not '{value}'")]
    NotSpin {
        /// The option's name.
        name: &'static str,
        /// The smallest value accepted.
        min: u64,
        /// The largest value accepted.
        max: u64,
        /// The value given.
        value: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `entry` finds an option's entry by its place in the enum.
    #[test]
    fn each_option_is_at_its_own_place_in_the_table() {
        for (i, e) in OPTIONS.iter().enumerate() {
            assert_eq!(e.option as usize, i, "{}", e.name);
            assert_eq!(EngineOption::find(e.name), Some(e.option));
        }
    }

    /// `<empty>` and `<builtin>` are read in any case, paths as written.
    #[test]
    fn special_path_values_are_read_in_any_case() {
        let mut settings = Settings::default();
        let mut book = |v| match EngineOption::BookPath.apply(&mut settings, Some(v)) {
            Ok(Applied::BookPath(source)) => source,
            _ => unreachable!("BookPath asks the session"),
        };
        assert!(matches!(book("<BuiltIn>"), BookSource::Builtin));
        assert!(matches!(book("<EMPTY>"), BookSource::None));
        assert!(matches!(book(""), BookSource::None));
        assert!(
            matches!(book("My.Book"), BookSource::File(p) if p == std::path::Path::new("My.Book"))
        );
        let mut settings = Settings::default();
        let mut tables = |v| match EngineOption::TablebasePath.apply(&mut settings, Some(v)) {
            Ok(Applied::TablebasePath(path)) => path,
            _ => unreachable!("TablebasePath asks the session"),
        };
        assert_eq!(tables("<Empty>"), None);
        assert_eq!(tables("/Tables"), Some(PathBuf::from("/Tables")));
    }
}
