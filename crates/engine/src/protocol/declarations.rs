//! The `option name ...` lines that `uci` prints: the rule options with
//! the standard game's defaults, then the engine's own options.

use super::wire::{Declaration, DeclaredKind};
use crate::engine::{EngineOption, OptionType};
use morris_rules::{OptionKind, RuleOptionId, Rules};

/// The `option name ...` lines of the rule options, defaults of the standard game.
pub(super) fn rule_declarations() -> Vec<String> {
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
pub(super) fn option_declaration(option: EngineOption) -> String {
    let kind = match option.kind() {
        OptionType::Button => DeclaredKind::Button,
        OptionType::Check { default } => DeclaredKind::Check { default },
        OptionType::Spin { default, min, max } => DeclaredKind::Spin {
            default: default as i64,
            min: min as i64,
            max: max as i64,
        },
        OptionType::Text { default } => DeclaredKind::Text { default },
    };
    Declaration {
        name: option.name().to_string(),
        kind,
    }
    .to_string()
}
