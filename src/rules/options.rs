//! The rule options of rules.md as one typed value, with the presets, the
//! options by id and a case-insensitive parser for `Name=Value` settings.

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

impl Flying {
    pub const ALL: [Flying; 3] = [Flying::Off, Flying::Three, Flying::Both];

    pub const fn name(self) -> &'static str {
        match self {
            Flying::Off => "off",
            Flying::Three => "three",
            Flying::Both => "both",
        }
    }
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

impl MillRemoval {
    pub const ALL: [MillRemoval; 3] =
        [MillRemoval::Protected, MillRemoval::Never, MillRemoval::Any];

    pub const fn name(self) -> &'static str {
        match self {
            MillRemoval::Protected => "protected",
            MillRemoval::Never => "never",
            MillRemoval::Any => "any",
        }
    }
}

/// What a player with no legal move gets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Blocked {
    Loss,
    Draw,
}

impl Blocked {
    pub const ALL: [Blocked; 2] = [Blocked::Loss, Blocked::Draw];

    pub const fn name(self) -> &'static str {
        match self {
            Blocked::Loss => "loss",
            Blocked::Draw => "draw",
        }
    }
}

/// What a placement that fills the board leads to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardFull {
    Draw,
    /// A loss for the player to move.
    Loss,
}

impl BoardFull {
    pub const ALL: [BoardFull; 2] = [BoardFull::Draw, BoardFull::Loss];

    pub const fn name(self) -> &'static str {
        match self {
            BoardFull::Draw => "draw",
            BoardFull::Loss => "loss",
        }
    }
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

impl OptionKind {
    /// What a value of this kind must be, in words (for error messages).
    pub fn expected(self) -> String {
        match self {
            OptionKind::Check => "true or false (also on/off, yes/no, 1/0)".to_string(),
            OptionKind::Spin { min, max } => format!("a whole number from {min} to {max}"),
            OptionKind::Combo(values) => format!("one of {}", values.join(", ")),
        }
    }
}

/// A combo kind whose values are the names of `$all`, in order.
macro_rules! combo {
    ($all:expr) => {
        OptionKind::Combo(
            &const {
                let mut names = [""; $all.len()];
                let mut i = 0;
                while i < names.len() {
                    names[i] = $all[i].name();
                    i += 1;
                }
                names
            },
        )
    };
}

/// One rule option, named as rules.md spells it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RuleOptionId {
    Variant,
    Pieces,
    Diagonals,
    Flying,
    FlyAt,
    Lasker,
    RemovePerMill,
    MillRemoval,
    MayPass,
    MillReform,
    Blocked,
    BoardFull,
    EndgameMoves,
    NoCaptureMoves,
    Repetition,
    FirstPlayer,
}

impl RuleOptionId {
    /// Every rule option, in the order of rules.md.
    pub const ALL: [RuleOptionId; 16] = [
        RuleOptionId::Variant,
        RuleOptionId::Pieces,
        RuleOptionId::Diagonals,
        RuleOptionId::Flying,
        RuleOptionId::FlyAt,
        RuleOptionId::Lasker,
        RuleOptionId::RemovePerMill,
        RuleOptionId::MillRemoval,
        RuleOptionId::MayPass,
        RuleOptionId::MillReform,
        RuleOptionId::Blocked,
        RuleOptionId::BoardFull,
        RuleOptionId::EndgameMoves,
        RuleOptionId::NoCaptureMoves,
        RuleOptionId::Repetition,
        RuleOptionId::FirstPlayer,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            RuleOptionId::Variant => "Variant",
            RuleOptionId::Pieces => "Pieces",
            RuleOptionId::Diagonals => "Diagonals",
            RuleOptionId::Flying => "Flying",
            RuleOptionId::FlyAt => "FlyAt",
            RuleOptionId::Lasker => "Lasker",
            RuleOptionId::RemovePerMill => "RemovePerMill",
            RuleOptionId::MillRemoval => "MillRemoval",
            RuleOptionId::MayPass => "MayPass",
            RuleOptionId::MillReform => "MillReform",
            RuleOptionId::Blocked => "Blocked",
            RuleOptionId::BoardFull => "BoardFull",
            RuleOptionId::EndgameMoves => "EndgameMoves",
            RuleOptionId::NoCaptureMoves => "NoCaptureMoves",
            RuleOptionId::Repetition => "Repetition",
            RuleOptionId::FirstPlayer => "FirstPlayer",
        }
    }

    pub const fn kind(self) -> OptionKind {
        match self {
            RuleOptionId::Variant => combo!(Variant::ALL),
            RuleOptionId::Pieces | RuleOptionId::FlyAt => OptionKind::Spin { min: 3, max: 12 },
            RuleOptionId::Diagonals
            | RuleOptionId::Lasker
            | RuleOptionId::RemovePerMill
            | RuleOptionId::MayPass
            | RuleOptionId::MillReform
            | RuleOptionId::Repetition => OptionKind::Check,
            RuleOptionId::Flying => combo!(Flying::ALL),
            RuleOptionId::MillRemoval => combo!(MillRemoval::ALL),
            RuleOptionId::Blocked => combo!(Blocked::ALL),
            RuleOptionId::BoardFull => combo!(BoardFull::ALL),
            RuleOptionId::EndgameMoves | RuleOptionId::NoCaptureMoves => {
                OptionKind::Spin { min: 0, max: 1000 }
            }
            RuleOptionId::FirstPlayer => combo!(Color::BOTH),
        }
    }

    /// The option with this name (any case), if there is one.
    pub fn find(name: &str) -> Option<RuleOptionId> {
        RuleOptionId::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for RuleOptionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An option's value, spelled as its kind spells values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RuleValue {
    Check(bool),
    Spin(u16),
    /// The value's name, as the option's combo lists it.
    Combo(&'static str),
}

impl fmt::Display for RuleValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleValue::Check(b) => write!(f, "{b}"),
            RuleValue::Spin(n) => write!(f, "{n}"),
            RuleValue::Combo(name) => f.write_str(name),
        }
    }
}

/// One option and its value; displays as `Name=Value`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RuleSetting {
    pub option: RuleOptionId,
    pub value: RuleValue,
}

impl fmt::Display for RuleSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.option, self.value)
    }
}

/// A rejected option setting.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RulesError {
    #[error("unknown rule option '{0}'")]
    UnknownOption(String),
    /// A value the option's kind does not take.
    #[error("option {option} takes {}, not '{value}'", .option.kind().expected())]
    BadValue { option: RuleOptionId, value: String },
    #[error("FlyAt ({fly_at}) must be at most Pieces ({pieces})")]
    FlyAtAbovePieces { fly_at: u8, pieces: u8 },
    #[error("expected Name=Value, got '{0}'")]
    NotASetting(String),
}

/// Reads a yes/no value as rules.md allows it.
pub fn parse_bool(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

fn bad_value(option: RuleOptionId, value: &str) -> RulesError {
    RulesError::BadValue {
        option,
        value: value.to_string(),
    }
}

fn check(option: RuleOptionId, value: &str) -> Result<bool, RulesError> {
    parse_bool(value).ok_or_else(|| bad_value(option, value))
}

fn spin(option: RuleOptionId, value: &str) -> Result<u16, RulesError> {
    let range = match option.kind() {
        OptionKind::Spin { min, max } => min..=max,
        OptionKind::Check | OptionKind::Combo(_) => unreachable!("{option} is not a spin"),
    };
    value
        .parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| bad_value(option, value))
}

/// The value of `all` named `value` (any case).
fn combo<T: Copy>(
    option: RuleOptionId,
    all: &[T],
    name: fn(T) -> &'static str,
    value: &str,
) -> Result<T, RulesError> {
    all.iter()
        .copied()
        .find(|&v| name(v).eq_ignore_ascii_case(value))
        .ok_or_else(|| bad_value(option, value))
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

    /// Sets one option by name and value, both case-insensitive. `Variant`
    /// resets every option to the preset. On error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RulesError> {
        let option =
            RuleOptionId::find(name).ok_or_else(|| RulesError::UnknownOption(name.to_string()))?;
        self.set_option(option, value)
    }

    /// Sets one option to a value read case-insensitively, as [`Rules::set`].
    pub fn set_option(&mut self, option: RuleOptionId, value: &str) -> Result<(), RulesError> {
        let value = value.trim();
        let mut next = *self;
        match option {
            RuleOptionId::Variant => {
                next = Rules::preset(combo(option, &Variant::ALL, Variant::name, value)?)
            }
            RuleOptionId::Pieces => next.pieces = spin(option, value)? as u8,
            RuleOptionId::Diagonals => next.diagonals = check(option, value)?,
            RuleOptionId::Flying => next.flying = combo(option, &Flying::ALL, Flying::name, value)?,
            RuleOptionId::FlyAt => next.fly_at = spin(option, value)? as u8,
            RuleOptionId::Lasker => next.lasker = check(option, value)?,
            RuleOptionId::RemovePerMill => next.remove_per_mill = check(option, value)?,
            RuleOptionId::MillRemoval => {
                next.mill_removal = combo(option, &MillRemoval::ALL, MillRemoval::name, value)?
            }
            RuleOptionId::MayPass => next.may_pass = check(option, value)?,
            RuleOptionId::MillReform => next.mill_reform = check(option, value)?,
            RuleOptionId::Blocked => {
                next.blocked = combo(option, &Blocked::ALL, Blocked::name, value)?
            }
            RuleOptionId::BoardFull => {
                next.board_full = combo(option, &BoardFull::ALL, BoardFull::name, value)?
            }
            RuleOptionId::EndgameMoves => next.endgame_moves = spin(option, value)?,
            RuleOptionId::NoCaptureMoves => next.no_capture_moves = spin(option, value)?,
            RuleOptionId::Repetition => next.repetition = check(option, value)?,
            RuleOptionId::FirstPlayer => {
                next.first_player = combo(option, &Color::BOTH, Color::name, value)?
            }
        }
        if next.fly_at > next.pieces {
            return Err(RulesError::FlyAtAbovePieces {
                fly_at: next.fly_at,
                pieces: next.pieces,
            });
        }
        *self = next;
        Ok(())
    }

    /// The rules of a preset named as `Variant` takes it, then `Name=Value`
    /// settings applied in order: what every tool's `--variant`/`--option`
    /// pair means.
    pub fn with_settings(variant: &str, settings: &[impl AsRef<str>]) -> Result<Rules, RulesError> {
        let mut rules = Rules::default();
        rules.set_option(RuleOptionId::Variant, variant)?;
        for s in settings {
            rules.apply(s.as_ref())?;
        }
        Ok(rules)
    }

    /// Applies one `Name=Value` setting.
    pub fn apply(&mut self, setting: &str) -> Result<(), RulesError> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| RulesError::NotASetting(setting.to_string()))?;
        self.set(name.trim(), value)
    }

    /// The current value of an option.
    pub fn get(&self, option: RuleOptionId) -> RuleValue {
        match option {
            RuleOptionId::Variant => RuleValue::Combo(self.variant.name()),
            RuleOptionId::Pieces => RuleValue::Spin(self.pieces.into()),
            RuleOptionId::Diagonals => RuleValue::Check(self.diagonals),
            RuleOptionId::Flying => RuleValue::Combo(self.flying.name()),
            RuleOptionId::FlyAt => RuleValue::Spin(self.fly_at.into()),
            RuleOptionId::Lasker => RuleValue::Check(self.lasker),
            RuleOptionId::RemovePerMill => RuleValue::Check(self.remove_per_mill),
            RuleOptionId::MillRemoval => RuleValue::Combo(self.mill_removal.name()),
            RuleOptionId::MayPass => RuleValue::Check(self.may_pass),
            RuleOptionId::MillReform => RuleValue::Check(self.mill_reform),
            RuleOptionId::Blocked => RuleValue::Combo(self.blocked.name()),
            RuleOptionId::BoardFull => RuleValue::Combo(self.board_full.name()),
            RuleOptionId::EndgameMoves => RuleValue::Spin(self.endgame_moves),
            RuleOptionId::NoCaptureMoves => RuleValue::Spin(self.no_capture_moves),
            RuleOptionId::Repetition => RuleValue::Check(self.repetition),
            RuleOptionId::FirstPlayer => RuleValue::Combo(self.first_player.name()),
        }
    }

    /// The options other than `Variant` that differ from this rules' preset.
    pub fn non_default(&self) -> Vec<RuleSetting> {
        let preset = Rules::preset(self.variant);
        RuleOptionId::ALL
            .into_iter()
            .filter(|&o| o != RuleOptionId::Variant && self.get(o) != preset.get(o))
            .map(|option| RuleSetting {
                option,
                value: self.get(option),
            })
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
        let before = r;
        for (name, value, message) in [
            (
                "Pieces",
                "13",
                "option Pieces takes a whole number from 3 to 12, not '13'",
            ),
            ("Bogus", "1", "unknown rule option 'Bogus'"),
            (
                "flying",
                " sometimes",
                "option Flying takes one of off, three, both, not 'sometimes'",
            ),
            (
                "Repetition",
                "maybe",
                "option Repetition takes true or false (also on/off, yes/no, 1/0), not 'maybe'",
            ),
            ("FlyAt", "10", "FlyAt (10) must be at most Pieces (9)"),
        ] {
            assert_eq!(r.set(name, value).unwrap_err().to_string(), message);
        }
        assert_eq!(
            r.apply("Pieces").unwrap_err().to_string(),
            "expected Name=Value, got 'Pieces'"
        );
        assert_eq!(r, before, "a rejected setting changes nothing");
        r.set("Variant", "twelve").unwrap();
        assert_eq!(r, Rules::preset(Variant::Twelve));
        assert!(r.non_default().is_empty());
        r.set("EndgameMoves", "0").unwrap();
        let changed: Vec<String> = r.non_default().iter().map(|s| s.to_string()).collect();
        assert_eq!(changed, ["EndgameMoves=0"]);
    }
}
