//! The options a front end can set: the rule options of the rules core
//! and the engine's own (hash size, threads, ...).

use crate::rules::options::{OptionKind, RuleOptionId, Rules, parse_bool};
use crate::search::{ELO_MAX, ELO_MIN, Settings};

/// The engine options beyond the rules, with their UCI declarations.
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
}

impl EngineOption {
    pub const ALL: [EngineOption; 10] = [
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
        }
    }

    /// Numeric range of a spin option.
    fn range(self) -> Option<(u64, u64)> {
        match self {
            EngineOption::Hash => Some((1, 65536)),
            EngineOption::Threads => Some((1, 256)),
            EngineOption::MultiPv => Some((1, 256)),
            EngineOption::MoveOverhead => Some((0, 5000)),
            EngineOption::Skill => Some((0, 20)),
            EngineOption::Elo => Some((ELO_MIN as u64, ELO_MAX as u64)),
            EngineOption::ClearHash
            | EngineOption::LimitStrength
            | EngineOption::Ponder
            | EngineOption::TablebasePath => None,
        }
    }

    /// The `option name ...` line announcing this option.
    pub fn declaration(self) -> String {
        let d = Settings::default();
        let name = self.name();
        match self {
            EngineOption::ClearHash => format!("option name {name} type button"),
            EngineOption::Ponder | EngineOption::LimitStrength => {
                format!("option name {name} type check default false")
            }
            EngineOption::TablebasePath => format!(
                "option name {name} type string default {}",
                crate::tablebase::default_dir().display()
            ),
            _ => {
                let (min, max) = self.range().expect("spin options have a range");
                let default = match self {
                    EngineOption::Hash => d.hash_mb as u64,
                    EngineOption::Threads => d.threads as u64,
                    EngineOption::MultiPv => d.multipv as u64,
                    EngineOption::Skill => d.skill as u64,
                    EngineOption::Elo => d.elo as u64,
                    _ => d.move_overhead_ms,
                };
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
        }
    }

    pub fn find(name: &str) -> Option<EngineOption> {
        EngineOption::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(name))
    }

    /// Applies a value to `settings`; `Ok(true)` asks for the hash to be cleared.
    pub fn apply(self, settings: &mut Settings, value: Option<&str>) -> Result<bool, String> {
        let name = self.name();
        if self == EngineOption::ClearHash {
            return Ok(true);
        }
        let value = value.ok_or_else(|| format!("option {name} needs a value"))?;
        if matches!(self, EngineOption::Ponder | EngineOption::LimitStrength) {
            let on = parse_bool(value)
                .ok_or_else(|| format!("option {name} takes true or false, not '{value}'"))?;
            // The engine ponders when told `go ponder`; the Ponder option
            // only tells the front end it may.
            if self == EngineOption::LimitStrength {
                settings.limit_strength = on;
            }
            return Ok(false);
        }
        let (min, max) = self.range().expect("spin options have a range");
        let n: u64 = value
            .parse()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                format!("option {name} takes a whole number from {min} to {max}, not '{value}'")
            })?;
        match self {
            EngineOption::Hash => settings.hash_mb = n as usize,
            EngineOption::Threads => settings.threads = n as usize,
            EngineOption::MultiPv => settings.multipv = n as usize,
            EngineOption::Skill => settings.skill = n as u8,
            EngineOption::Elo => settings.elo = n as u32,
            _ => settings.move_overhead_ms = n,
        }
        Ok(false)
    }
}

/// The `option name ...` lines of the rule options, defaults of the standard game.
pub fn rule_declarations() -> Vec<String> {
    let defaults = Rules::default();
    RuleOptionId::ALL
        .into_iter()
        .map(|o| {
            let default = defaults.get(o);
            match o.kind() {
                OptionKind::Check => format!("option name {o} type check default {default}"),
                OptionKind::Spin { min, max } => {
                    format!("option name {o} type spin default {default} min {min} max {max}")
                }
                OptionKind::Combo(values) => {
                    let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                    format!("option name {o} type combo default {default}{vars}")
                }
            }
        })
        .collect()
}
