//! The `option name ...` lines that `uci` prints: the rule options with
//! the standard game's defaults, then the engine's own options.

use super::wire::{Declaration, DeclaredKind};
use crate::engine::EngineOption;
use crate::search::Settings;
use morris_rules::{OptionKind, RuleOptionId, Rules};
use morris_tablebase::auto;

/// The `option name ...` lines of the rule options, defaults of the standard game.
pub fn rule_declarations() -> Vec<String> {
    let defaults = Rules::default();
    RuleOptionId::ALL
        .into_iter()
        .map(|o| {
            let default = defaults.get(o).to_string();
            let kind = match o.kind() {
                OptionKind::Check => DeclaredKind::Check {
                    default: default == "true",
                },
                OptionKind::Spin { min, max } => DeclaredKind::Spin {
                    default: default.parse().expect("a spin option's value is a number"),
                    min: min.into(),
                    max: max.into(),
                },
                OptionKind::Combo(values) => DeclaredKind::Combo {
                    default,
                    vars: values.iter().map(|v| v.to_string()).collect(),
                },
            };
            Declaration {
                name: o.to_string(),
                kind,
            }
            .to_string()
        })
        .collect()
}

/// The `option name ...` line announcing an engine option.
pub fn option_declaration(option: EngineOption) -> String {
    let d = Settings::default();
    let text = |default: String| DeclaredKind::Text { default };
    let kind = match option {
        EngineOption::ClearHash => DeclaredKind::Button,
        EngineOption::Ponder | EngineOption::LimitStrength => {
            DeclaredKind::Check { default: false }
        }
        EngineOption::TablebasePath => text(
            morris_tablebase::default_dir()
                .map_or_else(|_| "<empty>".to_string(), |d| d.display().to_string()),
        ),
        EngineOption::BookPath => text("<builtin>".to_string()),
        EngineOption::Hash => spin_kind(option, d.hash_mb as u64),
        EngineOption::Threads => spin_kind(option, d.threads as u64),
        EngineOption::MultiPv => spin_kind(option, d.multipv as u64),
        EngineOption::MoveOverhead => spin_kind(option, d.move_overhead_ms),
        EngineOption::Skill => spin_kind(option, d.skill as u64),
        EngineOption::Elo => spin_kind(option, d.elo as u64),
        EngineOption::TablebaseAuto => spin_kind(option, auto::default_max() as u64),
    };
    Declaration {
        name: option.name().to_string(),
        kind,
    }
    .to_string()
}

fn spin_kind(option: EngineOption, default: u64) -> DeclaredKind {
    let (min, max) = option.range().expect("spin options have a range");
    DeclaredKind::Spin {
        default: default as i64,
        min: min as i64,
        max: max as i64,
    }
}
