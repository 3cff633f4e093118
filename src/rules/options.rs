//! The rule options of rules.md as one typed value, with the presets and a
//! case-insensitive parser for `Name=Value` settings.

use std::fmt;

use super::board::Layout;
use super::color::Color;

/// The rule presets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    Nine,
    Twelve,
    Morabaraba,
    Lasker,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Nine,
        Variant::Twelve,
        Variant::Morabaraba,
        Variant::Lasker,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Nine => "nine",
            Variant::Twelve => "twelve",
            Variant::Morabaraba => "morabaraba",
            Variant::Lasker => "lasker",
        }
    }
}

/// When players may move a piece to any empty point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flying {
    Off,
    /// A player with at most `FlyAt` pieces and none in hand.
    Three,
    /// Both players, once neither has pieces in hand and either is down to `FlyAt`.
    Both,
}

/// Which opponent pieces a mill may remove.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MillRemoval {
    /// Not from a mill unless every opponent piece is in one.
    Protected,
    /// Never from a mill; the removal is lost if all are in mills.
    Never,
    Any,
}

/// What a player with no legal move gets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Blocked {
    Loss,
    Draw,
}

/// What a placement that fills the board leads to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardFull {
    Draw,
    /// A loss for the player to move.
    Loss,
}

/// Every rule option in force for a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// The preset these rules started from (for display; the fields rule).
    pub variant: Variant,
    pub pieces: u8,
    pub diagonals: bool,
    pub flying: Flying,
    pub fly_at: u8,
    pub lasker: bool,
    pub remove_per_mill: bool,
    pub mill_removal: MillRemoval,
    pub may_pass: bool,
    pub mill_reform: bool,
    pub blocked: Blocked,
    pub board_full: BoardFull,
    pub endgame_moves: u16,
    pub no_capture_moves: u16,
    pub repetition: bool,
    pub first_player: Color,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Variant::Nine)
    }
}

/// How a front end sets an option (the UCI option types).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    Check,
    Spin { min: u16, max: u16 },
    Combo(&'static [&'static str]),
}

/// One rule option: its name as rules.md spells it and its kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RuleOption {
    pub name: &'static str,
    pub kind: OptionKind,
}

const fn opt(name: &'static str, kind: OptionKind) -> RuleOption {
    RuleOption { name, kind }
}

/// Every rule option, in the order of rules.md.
pub const RULE_OPTIONS: [RuleOption; 16] = [
    opt(
        "Variant",
        OptionKind::Combo(&["nine", "twelve", "morabaraba", "lasker"]),
    ),
    opt("Pieces", OptionKind::Spin { min: 3, max: 12 }),
    opt("Diagonals", OptionKind::Check),
    opt("Flying", OptionKind::Combo(&["off", "three", "both"])),
    opt("FlyAt", OptionKind::Spin { min: 3, max: 12 }),
    opt("Lasker", OptionKind::Check),
    opt("RemovePerMill", OptionKind::Check),
    opt(
        "MillRemoval",
        OptionKind::Combo(&["protected", "never", "any"]),
    ),
    opt("MayPass", OptionKind::Check),
    opt("MillReform", OptionKind::Check),
    opt("Blocked", OptionKind::Combo(&["loss", "draw"])),
    opt("BoardFull", OptionKind::Combo(&["draw", "loss"])),
    opt("EndgameMoves", OptionKind::Spin { min: 0, max: 1000 }),
    opt("NoCaptureMoves", OptionKind::Spin { min: 0, max: 1000 }),
    opt("Repetition", OptionKind::Check),
    opt("FirstPlayer", OptionKind::Combo(&["white", "black"])),
];

/// A rejected option setting, with the reason in words.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

/// Reads a yes/no value as rules.md allows it.
pub fn parse_bool(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

impl Rules {
    pub const fn preset(variant: Variant) -> Rules {
        let base = Rules {
            variant,
            pieces: 9,
            diagonals: false,
            flying: Flying::Three,
            fly_at: 3,
            lasker: false,
            remove_per_mill: false,
            mill_removal: MillRemoval::Protected,
            may_pass: false,
            mill_reform: false,
            blocked: Blocked::Loss,
            board_full: BoardFull::Draw,
            endgame_moves: 10,
            no_capture_moves: 100,
            repetition: true,
            first_player: Color::White,
        };
        match variant {
            Variant::Nine => base,
            Variant::Twelve => Rules {
                pieces: 12,
                diagonals: true,
                ..base
            },
            Variant::Morabaraba => Rules {
                pieces: 12,
                diagonals: true,
                remove_per_mill: true,
                ..base
            },
            Variant::Lasker => Rules {
                pieces: 10,
                lasker: true,
                ..base
            },
        }
    }

    /// The adjacency and mill tables these rules play on.
    #[inline]
    pub fn layout(&self) -> &'static Layout {
        if self.diagonals {
            &Layout::DIAGONAL
        } else {
            &Layout::PLAIN
        }
    }

    /// The option with this name (any case), if there is one.
    pub fn find_option(name: &str) -> Option<&'static RuleOption> {
        RULE_OPTIONS
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Sets one option by name and value, both case-insensitive. `Variant`
    /// resets every option to the preset. On error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RulesError> {
        let option = Rules::find_option(name)
            .ok_or_else(|| RulesError(format!("unknown rule option '{name}'")))?;
        let value = value.trim();
        let mut next = *self;
        match option.kind {
            OptionKind::Check => {
                let b = parse_bool(value).ok_or_else(|| {
                    RulesError(format!(
                        "option {} takes true or false (also on/off, yes/no, 1/0), not '{value}'",
                        option.name
                    ))
                })?;
                match option.name {
                    "Diagonals" => next.diagonals = b,
                    "Lasker" => next.lasker = b,
                    "RemovePerMill" => next.remove_per_mill = b,
                    "MayPass" => next.may_pass = b,
                    "MillReform" => next.mill_reform = b,
                    _ => next.repetition = b,
                }
            }
            OptionKind::Spin { min, max } => {
                let n: u16 = value
                    .parse()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| {
                        RulesError(format!(
                            "option {} takes a whole number from {min} to {max}, not '{value}'",
                            option.name
                        ))
                    })?;
                match option.name {
                    "Pieces" => next.pieces = n as u8,
                    "FlyAt" => next.fly_at = n as u8,
                    "EndgameMoves" => next.endgame_moves = n,
                    _ => next.no_capture_moves = n,
                }
            }
            OptionKind::Combo(values) => {
                let i = values
                    .iter()
                    .position(|v| v.eq_ignore_ascii_case(value))
                    .ok_or_else(|| {
                        RulesError(format!(
                            "option {} takes one of {}, not '{value}'",
                            option.name,
                            values.join(", ")
                        ))
                    })?;
                match option.name {
                    "Variant" => next = Rules::preset(Variant::ALL[i]),
                    "Flying" => next.flying = [Flying::Off, Flying::Three, Flying::Both][i],
                    "MillRemoval" => {
                        next.mill_removal =
                            [MillRemoval::Protected, MillRemoval::Never, MillRemoval::Any][i]
                    }
                    "Blocked" => next.blocked = [Blocked::Loss, Blocked::Draw][i],
                    "BoardFull" => next.board_full = [BoardFull::Draw, BoardFull::Loss][i],
                    _ => next.first_player = [Color::White, Color::Black][i],
                }
            }
        }
        if next.fly_at > next.pieces {
            return Err(RulesError(format!(
                "FlyAt ({}) must be at most Pieces ({})",
                next.fly_at, next.pieces
            )));
        }
        *self = next;
        Ok(())
    }

    /// Applies one `Name=Value` setting.
    pub fn apply(&mut self, setting: &str) -> Result<(), RulesError> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| RulesError(format!("expected Name=Value, got '{setting}'")))?;
        self.set(name.trim(), value)
    }

    /// The current value of an option, spelled as the option's values are.
    pub fn get(&self, option: &RuleOption) -> String {
        let yes_no = |b: bool| if b { "true" } else { "false" }.to_string();
        match option.name {
            "Variant" => self.variant.name().to_string(),
            "Pieces" => self.pieces.to_string(),
            "Diagonals" => yes_no(self.diagonals),
            "Flying" => match self.flying {
                Flying::Off => "off",
                Flying::Three => "three",
                Flying::Both => "both",
            }
            .to_string(),
            "FlyAt" => self.fly_at.to_string(),
            "Lasker" => yes_no(self.lasker),
            "RemovePerMill" => yes_no(self.remove_per_mill),
            "MillRemoval" => match self.mill_removal {
                MillRemoval::Protected => "protected",
                MillRemoval::Never => "never",
                MillRemoval::Any => "any",
            }
            .to_string(),
            "MayPass" => yes_no(self.may_pass),
            "MillReform" => yes_no(self.mill_reform),
            "Blocked" => match self.blocked {
                Blocked::Loss => "loss",
                Blocked::Draw => "draw",
            }
            .to_string(),
            "BoardFull" => match self.board_full {
                BoardFull::Draw => "draw",
                BoardFull::Loss => "loss",
            }
            .to_string(),
            "EndgameMoves" => self.endgame_moves.to_string(),
            "NoCaptureMoves" => self.no_capture_moves.to_string(),
            "Repetition" => yes_no(self.repetition),
            _ => self.first_player.name().to_string(),
        }
    }

    /// The options that differ from this rules' preset, as `Name=Value`.
    pub fn non_default(&self) -> Vec<String> {
        let preset = Rules::preset(self.variant);
        RULE_OPTIONS[1..]
            .iter()
            .filter(|o| self.get(o) != preset.get(o))
            .map(|o| format!("{}={}", o.name, self.get(o)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_rules_md() {
        let m = Rules::preset(Variant::Morabaraba);
        assert!(m.diagonals && m.remove_per_mill && m.pieces == 12);
        let l = Rules::preset(Variant::Lasker);
        assert!(l.lasker && l.pieces == 10 && !l.diagonals);
        let t = Rules::preset(Variant::Twelve);
        assert!(t.diagonals && !t.remove_per_mill);
    }

    #[test]
    fn set_is_case_insensitive_and_validates() {
        let mut r = Rules::default();
        r.set("millremoval", "NEVER").unwrap();
        assert_eq!(r.mill_removal, MillRemoval::Never);
        r.apply("MayPass=on").unwrap();
        assert!(r.may_pass);
        assert!(r.set("Pieces", "13").is_err());
        assert!(r.set("Bogus", "1").is_err());
        assert!(r.set("Flying", "sometimes").is_err());
        assert!(r.set("FlyAt", "10").is_err(), "FlyAt above Pieces");
        assert!(r.apply("Pieces").is_err());
        r.set("Variant", "twelve").unwrap();
        assert_eq!(r, Rules::preset(Variant::Twelve));
        assert!(r.non_default().is_empty());
        r.set("EndgameMoves", "0").unwrap();
        assert_eq!(r.non_default(), vec!["EndgameMoves=0".to_string()]);
    }
}
