//! The presets: the rule options each `Variant` sets (docs/rules.md 7.1,
//! Sanmill's app rule sets of 18.2 and its engine's table of 18.3).

use super::option_values::{
    Blocked, BoardFull, Capture, EndgameWhen, Flying, LossCheck, MillRemoval, MillShuttle,
    PlacingMill, Variant,
};
use super::options::RuleOptions;

impl RuleOptions {
    /// The options of a preset.
    pub const fn preset(variant: Variant) -> RuleOptions {
        let base = RuleOptions {
            variant,
            ..RuleOptions::STANDARD
        };
        // The Sanmill base (docs/rules.md 18.1) and its twelve-piece board.
        let sanmill = RuleOptions {
            board_full: BoardFull::FirstLoses,
            endgame_moves: 0,
            loss_check: LossCheck::Removal,
            endgame_when: EndgameWhen::Either,
            ..base
        };
        let twelve = RuleOptions {
            pieces: 12,
            diagonals: true,
            ..sanmill
        };
        let no_fly = Flying::Off;
        let any = MillRemoval::Any;
        match variant {
            Variant::Nine => base,
            Variant::Twelve => RuleOptions {
                pieces: 12,
                diagonals: true,
                ..base
            },
            Variant::Morabaraba => RuleOptions {
                pieces: 12,
                diagonals: true,
                remove_per_mill: true,
                ..base
            },
            Variant::Lasker => RuleOptions {
                pieces: 10,
                lasker: true,
                ..base
            },
            Variant::NineApp | Variant::Table0 => sanmill,
            Variant::TwelveApp | Variant::Table1 => twelve,
            Variant::MorabarabaApp => RuleOptions {
                board_full: BoardFull::Draw,
                endgame_moves: 10,
                mill_shuttle: MillShuttle::Banned,
                ..twelve
            },
            Variant::Dooz => RuleOptions {
                placing_mill: PlacingMill::Hand,
                board_full: BoardFull::RemoveOne,
                mill_removal: any,
                ..twelve
            },
            Variant::LaskerApp | Variant::Table5 => RuleOptions {
                pieces: 10,
                lasker: true,
                ..sanmill
            },
            Variant::OneTime => RuleOptions {
                one_time_mill: true,
                mill_removal: any,
                ..sanmill
            },
            Variant::ChamGonu => RuleOptions {
                placing_mill: PlacingMill::Mark,
                flying: no_fly,
                mill_removal: any,
                ..twelve
            },
            Variant::ZhiQi => RuleOptions {
                placing_mill: PlacingMill::Mark,
                board_full: BoardFull::RemoveFirst,
                flying: no_fly,
                mill_removal: any,
                ..twelve
            },
            Variant::ChengSanQi => RuleOptions {
                placing_mill: PlacingMill::Mark,
                flying: no_fly,
                ..sanmill
            },
            Variant::DaSanQi => RuleOptions {
                placing_mill: PlacingMill::Mark,
                defender_first: true,
                flying: no_fly,
                mill_removal: any,
                remove_per_mill: true,
                ..twelve
            },
            Variant::MulMulan => RuleOptions {
                diagonals: true,
                flying: no_fly,
                mill_removal: any,
                intervention: Capture {
                    on: true,
                    ..Capture::OFF
                },
                ..sanmill
            },
            Variant::Nerenchi => RuleOptions {
                defender_first: true,
                mill_removal: any,
                ..twelve
            },
            Variant::ElFilja | Variant::Table9 => RuleOptions {
                pieces: 12,
                placing_mill: PlacingMill::Tally,
                board_full: BoardFull::RemoveFirst,
                flying: no_fly,
                mill_removal: any,
                ..sanmill
            },
            Variant::Table2 => RuleOptions {
                placing_mill: PlacingMill::Hand,
                ..twelve
            },
            Variant::Table3 => RuleOptions {
                remove_per_mill: true,
                ..twelve
            },
            Variant::Table4 => RuleOptions {
                one_time_mill: true,
                ..sanmill
            },
            Variant::Table6 => RuleOptions {
                flying: no_fly,
                ..sanmill
            },
            Variant::Table7 => RuleOptions {
                placing_mill: PlacingMill::Mark,
                defender_first: true,
                flying: no_fly,
                mill_removal: any,
                ..twelve
            },
            Variant::Table8 => RuleOptions {
                board_full: BoardFull::RemoveFirst,
                blocked: Blocked::RemoveMove,
                ..twelve
            },
            Variant::Table10 => RuleOptions {
                defender_first: true,
                mill_removal: any,
                board_full: BoardFull::RemoveSecond,
                flying: no_fly,
                ..twelve
            },
        }
    }
}
