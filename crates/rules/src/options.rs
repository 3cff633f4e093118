//! The rule options of docs/rules.md as one typed value, the options by
//! id and a case-insensitive parser for `Name=Value` settings (their
//! values are in `option_values`, the presets' settings in `presets`).

use std::fmt;

use super::board::Layout;
use super::color::Color;
use super::option_values::{
    Blocked, BoardFull, CAPTURE_NAMES, Capture, CaptureRule, CaptureSwitch, EndgameWhen, Flying,
    LossCheck, MillRemoval, MillShuttle, PlacingMill, Variant,
};

/// How a front end sets an option (the UCI option types).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// Yes/no, read as docs/rules.md 8.9 allows.
    Check,
    /// A whole number in a range.
    Spin {
        /// The smallest value taken.
        min: u16,
        /// The largest value taken.
        max: u16,
    },
    /// One of these names: the values' `name`s, in the option's order.
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

/// Declares every rule option once: its field of [`RuleOptions`] with the
/// type and the standard game's value, and the option that sets it (id,
/// protocol name, kind). From it follow the struct, `RuleOptionId` with
/// `ALL`, `name` and `kind`, `RuleOptions::get`, the parsing half of
/// `Rules::set_option`, and the `Debug` of `Rules`. A field without an
/// option is a capture rule, set through its seven `Capture` options.
///
/// Kinds: `[check]` (a `bool`), `[spin MIN..=MAX]` (a number),
/// `[combo ALL]` (a value of the list `ALL`, by its `name`).
macro_rules! rule_options {
    ($(
        $(#[$doc:meta])*
        $field:ident: $ty:ty = $default:expr $(=> $id:ident $name:literal [$($kind:tt)+])?;
    )*) => {
        /// Every rule option in force for a game, as set; [`Rules`] adds the
        /// engine that plays them.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub struct RuleOptions {
            $($(#[$doc])* pub $field: $ty,)*
        }

        impl RuleOptions {
            /// docs/rules.md Part I's standard game.
            pub(super) const STANDARD: RuleOptions = RuleOptions { $($field: $default,)* };

            /// The current value of an option.
            pub fn get(&self, option: RuleOptionId) -> RuleValue {
                match option {
                    $($(RuleOptionId::$id => rule_options!(@value self.$field; $($kind)+),)?)*
                    RuleOptionId::Capture(rule, switch) => {
                        let mut capture = *self.capture(rule);
                        RuleValue::Check(*capture.switch_mut(switch))
                    }
                }
            }

            /// Sets the field of one option to a value read
            /// case-insensitively; checks nothing across options.
            fn set_field(&mut self, option: RuleOptionId, value: &str) -> Result<(), RulesError> {
                match option {
                    $($(RuleOptionId::$id => {
                        self.$field = rule_options!(@parse option, value; $($kind)+)?
                    })?)*
                    RuleOptionId::Capture(rule, switch) => {
                        *self.capture_mut(rule).switch_mut(switch) = check(option, value)?
                    }
                }
                Ok(())
            }
        }

        /// How many rule options there are: one per field but the capture
        /// rules, and one per switch of each capture rule.
        const OPTION_COUNT: usize = [$($(stringify!($id),)?)*].len()
            + CaptureRule::ALL.len() * CaptureSwitch::ALL.len();

        /// One rule option, named as docs/rules.md spells it.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum RuleOptionId {
            $($(
                #[doc = concat!("`", $name, "`: sets [`RuleOptions::", stringify!($field), "`].")]
                $id,
            )?)*
            /// One of the seven options of a capture rule (docs/rules.md
            /// 16.11), such as `CustodianSides`: sets that switch of
            /// [`RuleOptions::custodian`], `intervention` or `leap`.
            Capture(CaptureRule, CaptureSwitch),
        }

        impl RuleOptionId {
            /// Every rule option, in the order of docs/rules.md 2, then 12.
            pub const ALL: [RuleOptionId; OPTION_COUNT] = {
                let plain = [$($(RuleOptionId::$id,)?)*];
                let mut all = [RuleOptionId::Variant; OPTION_COUNT];
                let mut i = 0;
                while i < plain.len() {
                    all[i] = plain[i];
                    i += 1;
                }
                let mut rule = 0;
                while rule < CaptureRule::ALL.len() {
                    let mut switch = 0;
                    while switch < CaptureSwitch::ALL.len() {
                        all[i] = RuleOptionId::Capture(
                            CaptureRule::ALL[rule],
                            CaptureSwitch::ALL[switch],
                        );
                        i += 1;
                        switch += 1;
                    }
                    rule += 1;
                }
                all
            };

            /// The option's name, as docs/rules.md, `setoption`, `--option`
            /// and game records write it (read in any case by [`Self::find`]).
            pub const fn name(self) -> &'static str {
                match self {
                    $($(RuleOptionId::$id => $name,)?)*
                    RuleOptionId::Capture(rule, switch) => {
                        CAPTURE_NAMES[rule as usize][switch as usize]
                    }
                }
            }

            /// How a front end sets the option: its UCI type, with the range
            /// or the values it takes.
            pub const fn kind(self) -> OptionKind {
                match self {
                    $($(RuleOptionId::$id => rule_options!(@kind $($kind)+),)?)*
                    RuleOptionId::Capture(..) => OptionKind::Check,
                }
            }
        }

        /// The options' own `Debug`, so that the search's key of the rules
        /// (`search::rules_key`) does not depend on the engine decided.
        impl fmt::Debug for Rules {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("Rules")
                    $(.field(stringify!($field), &self.options.$field))*
                    .finish()
            }
        }
    };
    (@kind check) => { OptionKind::Check };
    (@kind spin $min:literal..=$max:literal) => { OptionKind::Spin { min: $min, max: $max } };
    (@kind combo $all:path) => { combo!($all) };
    (@parse $option:ident, $value:ident; check) => { check($option, $value) };
    (@parse $option:ident, $value:ident; spin $($range:tt)+) => { spin($option, $value) };
    (@parse $option:ident, $value:ident; combo $all:path) => {
        combo($option, &$all, |v| v.name(), $value)
    };
    (@value $v:expr; check) => { RuleValue::Check($v) };
    (@value $v:expr; spin $($range:tt)+) => { RuleValue::Spin($v.into()) };
    (@value $v:expr; combo $all:path) => { RuleValue::Combo($v.name()) };
}

rule_options! {
    /// The preset these rules started from (for display; the fields rule).
    /// Setting the `Variant` option resets every other option to the
    /// preset's value (docs/rules.md 7.1, 18).
    variant: Variant = Variant::Nine => Variant "Variant" [combo Variant::ALL];
    /// Pieces each player starts with in hand, 3 to 12 (docs/rules.md 2).
    pieces: u8 = 9 => Pieces "Pieces" [spin 3..=12];
    /// Whether the four diagonal lines exist, for adjacency and for mills
    /// (docs/rules.md 3.2, 3.3).
    diagonals: bool = false => Diagonals "Diagonals" [check];
    /// Who may move a piece to any empty point (docs/rules.md 5.4).
    flying: Flying = Flying::Three => Flying "Flying" [combo Flying::ALL];
    /// Flying starts at this many pieces on the board or fewer, 3 to 12 and
    /// at most `pieces`; pieces in hand do not count (docs/rules.md 5.4, 8.3).
    fly_at: u8 = 3 => FlyAt "FlyAt" [spin 3..=12];
    /// Whether a player holding pieces may slide one on the board instead
    /// of placing (docs/rules.md 5.2, 8.4).
    lasker: bool = false => Lasker "Lasker" [check];
    /// Whether a move earns one removal per mill it forms rather than one
    /// in all (docs/rules.md 5.6).
    remove_per_mill: bool = false => RemovePerMill "RemovePerMill" [check];
    /// Which opponent pieces a removal may take (docs/rules.md 5.7).
    mill_removal: MillRemoval = MillRemoval::Protected
        => MillRemoval "MillRemoval" [combo MillRemoval::ALL];
    /// Whether a player may stop removing before taking every piece earned
    /// (docs/rules.md 5.8).
    may_pass: bool = false => MayPass "MayPass" [check];
    /// Whether a mill broken by a move that forms another may not be closed
    /// on the mover's next move (docs/rules.md 5.9, 8.5).
    mill_reform: bool = false => MillReform "MillReform" [check];
    /// What a player with no legal move, or a blocked one, gets
    /// (docs/rules.md 6.2, 16.10).
    blocked: Blocked = Blocked::Loss => Blocked "Blocked" [combo Blocked::ALL];
    /// What a board filled by the placements leads to (docs/rules.md 6.3,
    /// 14.7).
    board_full: BoardFull = BoardFull::Draw => BoardFull "BoardFull" [combo BoardFull::ALL];
    /// Plies without a placement or removal that draw while `endgame_when`
    /// holds, 0 to 1000, 0 for off (docs/rules.md 6.4, 8.7).
    endgame_moves: u16 = 10 => EndgameMoves "EndgameMoves" [spin 0..=1000];
    /// Plies without a placement or removal that draw the game, 0 to 1000,
    /// 0 for off (docs/rules.md 6.5, 8.7).
    no_capture_moves: u16 = 100 => NoCaptureMoves "NoCaptureMoves" [spin 0..=1000];
    /// Whether the third occurrence of a position draws (docs/rules.md 6.6,
    /// 8.6; 14.10 under the rule-set options).
    repetition: bool = true => Repetition "Repetition" [check];
    /// Who places first (docs/rules.md 5.1).
    first_player: Color = Color::White => FirstPlayer "FirstPlayer" [combo Color::BOTH];
    // The rule-set options of docs/rules.md Part II.
    /// A player with fewer pieces than this, board plus hand, loses; 3 to 5
    /// and at most `pieces` (docs/rules.md 16.1).
    min_pieces: u8 = 3 => MinPieces "MinPieces" [spin 3..=5];
    /// What a mill closed by a placement does (docs/rules.md 16.2).
    placing_mill: PlacingMill = PlacingMill::Board
        => PlacingMill "PlacingMill" [combo PlacingMill::ALL];
    /// Whether the second player makes the first move of the moving stage,
    /// and the first removals of the tally and of `BoardFull removeone`
    /// (docs/rules.md 14.6, 16.3).
    defender_first: bool = false => DefenderFirst "DefenderFirst" [check];
    /// Whether the points of the lines a player closes become spent, a line
    /// of spent points earning no removal when closed (docs/rules.md 16.6).
    one_time_mill: bool = false => OneTimeMill "OneTimeMill" [check];
    /// Whether a piece that closed a mill may shuttle straight back to close
    /// one again (docs/rules.md 16.7).
    mill_shuttle: MillShuttle = MillShuttle::Allowed
        => MillShuttle "MillShuttle" [combo MillShuttle::ALL];
    /// Whether, with 12 pieces, placing stops once at most two points are
    /// empty, the pieces left in hand leaving the game (docs/rules.md 16.8).
    stop_at_two_empty: bool = false => StopAtTwoEmpty "StopAtTwoEmpty" [check];
    /// The custodian capture and its switches (`Custodian`,
    /// `CustodianSides`, ..., docs/rules.md 16.11).
    custodian: Capture = Capture::OFF;
    /// The intervention capture and its switches (`Intervention`,
    /// `InterventionSides`, ..., docs/rules.md 16.11).
    intervention: Capture = Capture::OFF;
    /// The leap capture and its switches (`Leap`, `LeapSides`, ...,
    /// docs/rules.md 16.11).
    leap: Capture = Capture::OFF;
    /// When the loss by too few pieces (`min_pieces`) is checked
    /// (docs/rules.md 14.9).
    loss_check: LossCheck = LossCheck::Turn => LossCheck "LossCheck" [combo LossCheck::ALL];
    /// When `endgame_moves` is in force (docs/rules.md 16.13).
    endgame_when: EndgameWhen = EndgameWhen::Both
        => EndgameWhen "EndgameWhen" [combo EndgameWhen::ALL];
}

/// The rule options in force for a game, with the one decision that
/// follows from them: which engine plays them (`extended`). The options
/// are read through `Deref`, and changed only by `set`/`set_option` or by
/// making new rules (`Rules::new`), which decide again: the decision
/// cannot go stale.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    options: RuleOptions,
    extended: bool,
}

impl std::ops::Deref for Rules {
    type Target = RuleOptions;

    #[inline]
    fn deref(&self) -> &RuleOptions {
        &self.options
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Variant::Nine)
    }
}

/// A rejected option setting.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RulesError {
    /// No rule option has this name (as given).
    #[error("unknown rule option '{0}'")]
    UnknownOption(String),
    /// A value the option's kind does not take.
    #[error("option {option} takes {}, not '{value}'", .option.kind().expected())]
    BadValue {
        /// The option being set.
        option: RuleOptionId,
        /// The value as given, without surrounding spaces.
        value: String,
    },
    /// The setting would leave `FlyAt` above `Pieces` (docs/rules.md 8.9).
    #[error("FlyAt ({fly_at}) must be at most Pieces ({pieces})")]
    FlyAtAbovePieces {
        /// `FlyAt` as the setting would leave it.
        fly_at: u8,
        /// `Pieces` as the setting would leave it.
        pieces: u8,
    },
    /// A setting for [`Rules::apply`] without the `=` of `Name=Value` (as
    /// given).
    #[error("expected Name=Value, got '{0}'")]
    NotASetting(String),
    /// The setting would leave `MinPieces` above `Pieces` (docs/rules.md
    /// 16.1).
    #[error("MinPieces ({min_pieces}) must be at most Pieces ({pieces})")]
    MinPiecesAbovePieces {
        /// `MinPieces` as the setting would leave it.
        min_pieces: u8,
        /// `Pieces` as the setting would leave it.
        pieces: u8,
    },
    /// `MayPass` and `MillReform` are not played together with the rule-set
    /// options of docs/rules.md Part II (Sanmill has neither; section 20).
    #[error(
        "MayPass and MillReform are not supported together with the rule-set options of docs/rules.md Part II (Sanmill has neither)"
    )]
    Unsupported,
}

/// Reads a yes/no value as docs/rules.md 8.9 allows it.
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

/// A number in the option's range, as the type of its field.
fn spin<T: TryFrom<u16>>(option: RuleOptionId, value: &str) -> Result<T, RulesError> {
    let range = match option.kind() {
        OptionKind::Spin { min, max } => min..=max,
        OptionKind::Check | OptionKind::Combo(_) => unreachable!("{option} is not a spin"),
    };
    value
        .parse()
        .ok()
        .filter(|n| range.contains(n))
        .and_then(|n| T::try_from(n).ok())
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

impl RuleOptions {
    /// Whether a move-count rule (`EndgameMoves`, `NoCaptureMoves`) can
    /// draw a game: then a position's value depends on its clock.
    pub const fn move_count_draws(&self) -> bool {
        self.endgame_moves > 0 || self.no_capture_moves > 0
    }

    /// Whether these options use a rule-set option of docs/rules.md Part II
    /// beyond `MinPieces` and `EndgameWhen`: such rules are played turn by
    /// turn as its section 14 says (`rules::turns`), the others by the plain
    /// generator of Part I (docs/rules.md 20).
    const fn need_turns(&self) -> bool {
        !matches!(self.blocked, Blocked::Loss | Blocked::Draw)
            || !matches!(self.board_full, BoardFull::Draw | BoardFull::Loss)
            || self.placing_mill as u8 != PlacingMill::Board as u8
            || self.defender_first
            || self.one_time_mill
            || self.mill_shuttle as u8 != MillShuttle::Allowed as u8
            || self.stop_at_two_empty
            || self.custodian.on
            || self.intervention.on
            || self.leap.on
            || self.loss_check as u8 != LossCheck::Turn as u8
    }

    /// The settings of one capture rule.
    #[inline]
    pub fn capture(&self, rule: CaptureRule) -> &Capture {
        match rule {
            CaptureRule::Custodian => &self.custodian,
            CaptureRule::Intervention => &self.intervention,
            CaptureRule::Leap => &self.leap,
        }
    }

    fn capture_mut(&mut self, rule: CaptureRule) -> &mut Capture {
        match rule {
            CaptureRule::Custodian => &mut self.custodian,
            CaptureRule::Intervention => &mut self.intervention,
            CaptureRule::Leap => &mut self.leap,
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
}

impl Rules {
    /// The rules of these options, with the engine that plays them decided.
    pub const fn new(options: RuleOptions) -> Rules {
        Rules {
            extended: options.need_turns(),
            options,
        }
    }

    /// The rules of a preset, as the `Variant` option sets them
    /// (docs/rules.md 7.1, 18).
    pub const fn preset(variant: Variant) -> Rules {
        Rules::new(RuleOptions::preset(variant))
    }

    /// Whether these rules are played by the turn engine of the rule sets
    /// (`rules::turns`) rather than the plain generator: decided when the
    /// rules were made, so the hot paths read one flag.
    #[inline(always)]
    pub fn extended(&self) -> bool {
        self.extended
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
        let mut options = self.options;
        options.set_field(option, value.trim())?;
        if option == RuleOptionId::Variant {
            options = RuleOptions::preset(options.variant);
        }
        let next = Rules::new(options);
        if next.fly_at > next.pieces {
            return Err(RulesError::FlyAtAbovePieces {
                fly_at: next.fly_at,
                pieces: next.pieces,
            });
        }
        if next.min_pieces > next.pieces {
            return Err(RulesError::MinPiecesAbovePieces {
                min_pieces: next.min_pieces,
                pieces: next.pieces,
            });
        }
        if next.extended() && (next.may_pass || next.mill_reform) {
            return Err(RulesError::Unsupported);
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

impl RuleOptionId {
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
    /// A yes/no option's value, shown as `true` or `false`.
    Check(bool),
    /// A number option's value.
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
    /// The option, shown by its name (`EndgameMoves`).
    pub option: RuleOptionId,
    /// The value it has (`0`).
    pub value: RuleValue,
}

impl fmt::Display for RuleSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.option, self.value)
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

    #[test]
    fn every_option_is_found_by_its_name() {
        let names: Vec<&str> = RuleOptionId::ALL.iter().map(|o| o.name()).collect();
        assert_eq!(names.len(), 45);
        assert_eq!(names[..2], ["Variant", "Pieces"]);
        assert_eq!(
            names[23..26],
            ["EndgameWhen", "Custodian", "CustodianSides"]
        );
        assert_eq!(names[44], "LeapAtThree");
        for o in RuleOptionId::ALL {
            assert_eq!(RuleOptionId::find(&o.name().to_lowercase()), Some(o));
        }
    }

    #[test]
    fn the_engine_follows_every_change() {
        assert!(!Rules::default().extended());
        assert!(Rules::preset(Variant::Dooz).extended());
        let mut r = Rules::default();
        r.set("Blocked", "pass").unwrap();
        assert!(r.extended());
        r.set("Blocked", "draw").unwrap();
        assert!(!r.extended());
        r.set("LeapPlacing", "false").unwrap();
        assert!(!r.extended());
        r.set("Leap", "true").unwrap();
        assert!(r.extended());
        r.set("Variant", "nine").unwrap();
        assert_eq!(r, Rules::default());
    }

    #[test]
    fn debug_shows_the_options_only() {
        // The search keys its table by this text (`search::rules_key`).
        let text = format!("{:?}", Rules::default());
        assert!(text.starts_with("Rules { variant: Nine, pieces: 9, diagonals: false,"));
        assert!(text.ends_with("loss_check: Turn, endgame_when: Both }"));
        assert_eq!(
            text,
            format!("{:?}", *Rules::default()).replacen("RuleOptions", "Rules", 1)
        );
    }
}
