//! The rule options of docs/rules.md as one typed value, with the presets, the
//! options by id and a case-insensitive parser for `Name=Value` settings.

use std::fmt;

use super::board::Layout;
use super::color::Color;

/// The rule presets: the four of docs/rules.md 7.1, Sanmill's app rule
/// sets (18.2) and its engine's numbered table (18.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    Nine,
    Twelve,
    Morabaraba,
    Lasker,
    /// Sanmill's app versions of the four above (docs/rules.md 18.4).
    NineApp,
    TwelveApp,
    MorabarabaApp,
    LaskerApp,
    Dooz,
    OneTime,
    ChamGonu,
    ZhiQi,
    ChengSanQi,
    DaSanQi,
    MulMulan,
    Nerenchi,
    ElFilja,
    /// Sanmill's engine table, rule sets 0 to 10.
    Table0,
    Table1,
    Table2,
    Table3,
    Table4,
    Table5,
    Table6,
    Table7,
    Table8,
    Table9,
    Table10,
}

impl Variant {
    /// Every preset, the four of docs/rules.md 7.1 first.
    pub const ALL: [Variant; 28] = [
        Variant::Nine,
        Variant::Twelve,
        Variant::Morabaraba,
        Variant::Lasker,
        Variant::NineApp,
        Variant::TwelveApp,
        Variant::MorabarabaApp,
        Variant::LaskerApp,
        Variant::Dooz,
        Variant::OneTime,
        Variant::ChamGonu,
        Variant::ZhiQi,
        Variant::ChengSanQi,
        Variant::DaSanQi,
        Variant::MulMulan,
        Variant::Nerenchi,
        Variant::ElFilja,
        Variant::Table0,
        Variant::Table1,
        Variant::Table2,
        Variant::Table3,
        Variant::Table4,
        Variant::Table5,
        Variant::Table6,
        Variant::Table7,
        Variant::Table8,
        Variant::Table9,
        Variant::Table10,
    ];

    /// The presets of docs/rules.md 7.1.
    pub const PRESETS: [Variant; 4] = [
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
            Variant::NineApp => "nine-app",
            Variant::TwelveApp => "twelve-app",
            Variant::MorabarabaApp => "morabaraba-app",
            Variant::LaskerApp => "lasker-app",
            Variant::Dooz => "dooz",
            Variant::OneTime => "onetime",
            Variant::ChamGonu => "chamgonu",
            Variant::ZhiQi => "zhiqi",
            Variant::ChengSanQi => "chengsanqi",
            Variant::DaSanQi => "dasanqi",
            Variant::MulMulan => "mulmulan",
            Variant::Nerenchi => "nerenchi",
            Variant::ElFilja => "elfilja",
            Variant::Table0 => "table0",
            Variant::Table1 => "table1",
            Variant::Table2 => "table2",
            Variant::Table3 => "table3",
            Variant::Table4 => "table4",
            Variant::Table5 => "table5",
            Variant::Table6 => "table6",
            Variant::Table7 => "table7",
            Variant::Table8 => "table8",
            Variant::Table9 => "table9",
            Variant::Table10 => "table10",
        }
    }

    /// The name a player knows the rule set by, for menus.
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Nine => "Nine men's morris",
            Variant::Twelve => "Twelve men's morris",
            Variant::Morabaraba => "Morabaraba",
            Variant::Lasker => "Lasker morris",
            Variant::NineApp => "Nine Men's Morris (Sanmill app)",
            Variant::TwelveApp => "Twelve Men's Morris (Sanmill app)",
            Variant::MorabarabaApp => "Morabaraba (Sanmill app)",
            Variant::LaskerApp => "Lasker Morris (Sanmill app)",
            Variant::Dooz => "Dooz (Iran)",
            Variant::OneTime => "One-Time Mill (Russia)",
            Variant::ChamGonu => "Cham Gonu (Korea)",
            Variant::ZhiQi => "Zhi Qi (southern China)",
            Variant::ChengSanQi => "Cheng San Qi (south-western China)",
            Variant::DaSanQi => "Da San Qi (China)",
            Variant::MulMulan => "Mul-Mulan (Indonesia)",
            Variant::Nerenchi => "Nerenchi (Sri Lanka)",
            Variant::ElFilja => "El Filja (north-west Africa)",
            Variant::Table0 => "Nine Men's Morris (engine table 0)",
            Variant::Table1 => "Twelve Men's Morris (engine table 1)",
            Variant::Table2 => "Dooz (engine table 2)",
            Variant::Table3 => "Morabaraba (engine table 3)",
            Variant::Table4 => "Russian Mill (engine table 4)",
            Variant::Table5 => "Lasker Morris (engine table 5)",
            Variant::Table6 => "Cheng San Qi (engine table 6)",
            Variant::Table7 => "Da San Qi (engine table 7)",
            Variant::Table8 => "Zhi Qi (engine table 8)",
            Variant::Table9 => "El Filja (engine table 9)",
            Variant::Table10 => "Experimental (engine table 10)",
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

/// What a player with no legal move (docs/rules.md 14.8: a blocked player) gets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Blocked {
    Loss,
    Draw,
    /// The opponent moves instead.
    Pass,
    /// The blocked player removes a piece next to one of theirs, then moves.
    RemoveMove,
    /// The blocked player removes a piece, then the opponent moves.
    RemovePass,
    /// The blocked player removes, then the opponent removes, then the
    /// blocked player moves.
    BothRemove,
}

impl Blocked {
    pub const ALL: [Blocked; 6] = [
        Blocked::Loss,
        Blocked::Draw,
        Blocked::Pass,
        Blocked::RemoveMove,
        Blocked::RemovePass,
        Blocked::BothRemove,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Blocked::Loss => "loss",
            Blocked::Draw => "draw",
            Blocked::Pass => "pass",
            Blocked::RemoveMove => "removemove",
            Blocked::RemovePass => "removepass",
            Blocked::BothRemove => "bothremove",
        }
    }

    /// Whether a blocked player removes (and a blocked remover's removals
    /// are restricted, docs/rules.md 14.4 case b).
    pub const fn removes(self) -> bool {
        matches!(
            self,
            Blocked::RemoveMove | Blocked::RemovePass | Blocked::BothRemove
        )
    }
}

/// What a board filled by the placing stage leads to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardFull {
    Draw,
    /// A loss for the player to move.
    Loss,
    /// A loss for the first player.
    FirstLoses,
    /// The first player removes, then the second, then the first moves.
    RemoveFirst,
    /// The second player removes, then the first, then the second moves.
    RemoveSecond,
    /// One player removes (the first, the second with `DefenderFirst`),
    /// then the other moves.
    RemoveOne,
}

impl BoardFull {
    pub const ALL: [BoardFull; 6] = [
        BoardFull::Draw,
        BoardFull::Loss,
        BoardFull::FirstLoses,
        BoardFull::RemoveFirst,
        BoardFull::RemoveSecond,
        BoardFull::RemoveOne,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            BoardFull::Draw => "draw",
            BoardFull::Loss => "loss",
            BoardFull::FirstLoses => "firstloses",
            BoardFull::RemoveFirst => "removefirst",
            BoardFull::RemoveSecond => "removesecond",
            BoardFull::RemoveOne => "removeone",
        }
    }
}

/// What a mill closed by a placement does (docs/rules.md 16.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlacingMill {
    Board,
    Hand,
    HandAgain,
    /// Offered as "the victim picks", played exactly as `Board`.
    VictimPicks,
    Mark,
    Tally,
}

impl PlacingMill {
    pub const ALL: [PlacingMill; 6] = [
        PlacingMill::Board,
        PlacingMill::Hand,
        PlacingMill::HandAgain,
        PlacingMill::VictimPicks,
        PlacingMill::Mark,
        PlacingMill::Tally,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            PlacingMill::Board => "board",
            PlacingMill::Hand => "hand",
            PlacingMill::HandAgain => "handagain",
            PlacingMill::VictimPicks => "victimpicks",
            PlacingMill::Mark => "mark",
            PlacingMill::Tally => "tally",
        }
    }
}

/// Whether a mill closed by moving F to T may be reopened by T to F and
/// closed again at once (docs/rules.md 16.7).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MillShuttle {
    Allowed,
    Banned,
}

impl MillShuttle {
    pub const ALL: [MillShuttle; 2] = [MillShuttle::Allowed, MillShuttle::Banned];

    pub const fn name(self) -> &'static str {
        match self {
            MillShuttle::Allowed => "allowed",
            MillShuttle::Banned => "banned",
        }
    }
}

/// When the piece-count loss is checked (docs/rules.md 14.9).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LossCheck {
    /// docs/rules.md Part I: before the side to move plays.
    Turn,
    /// Sanmill: after each single removal, for its victim.
    Removal,
}

impl LossCheck {
    pub const ALL: [LossCheck; 2] = [LossCheck::Turn, LossCheck::Removal];

    pub const fn name(self) -> &'static str {
        match self {
            LossCheck::Turn => "turn",
            LossCheck::Removal => "removal",
        }
    }
}

/// When `EndgameMoves` replaces `NoCaptureMoves` (docs/rules.md 16.13).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndgameWhen {
    /// Both players have exactly three pieces, board plus hand.
    Both,
    /// At least one player has exactly three pieces on the board.
    Either,
}

impl EndgameWhen {
    pub const ALL: [EndgameWhen; 2] = [EndgameWhen::Both, EndgameWhen::Either];

    pub const fn name(self) -> &'static str {
        match self {
            EndgameWhen::Both => "both",
            EndgameWhen::Either => "either",
        }
    }
}

/// One capture rule (custodian, intervention or leap, docs/rules.md 16.11).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Capture {
    pub on: bool,
    pub sides: bool,
    pub cross: bool,
    pub diagonals: bool,
    pub placing: bool,
    pub moving: bool,
    pub at_three: bool,
}

impl Capture {
    fn switch_mut(&mut self, switch: CaptureSwitch) -> &mut bool {
        match switch {
            CaptureSwitch::On => &mut self.on,
            CaptureSwitch::Sides => &mut self.sides,
            CaptureSwitch::Cross => &mut self.cross,
            CaptureSwitch::Diagonals => &mut self.diagonals,
            CaptureSwitch::Placing => &mut self.placing,
            CaptureSwitch::Moving => &mut self.moving,
            CaptureSwitch::AtThree => &mut self.at_three,
        }
    }

    /// Off, with every line and phase switch on.
    pub const OFF: Capture = Capture {
        on: false,
        sides: true,
        cross: true,
        diagonals: true,
        placing: true,
        moving: true,
        at_three: false,
    };
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

/// The three capture rules of docs/rules.md 16.11.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CaptureRule {
    Custodian,
    Intervention,
    Leap,
}

impl CaptureRule {
    pub const ALL: [CaptureRule; 3] = [
        CaptureRule::Custodian,
        CaptureRule::Intervention,
        CaptureRule::Leap,
    ];
}

/// The seven options of each capture rule (`Custodian`, `CustodianSides`, ...).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CaptureSwitch {
    On,
    Sides,
    Cross,
    Diagonals,
    Placing,
    Moving,
    AtThree,
}

impl CaptureSwitch {
    pub const ALL: [CaptureSwitch; 7] = [
        CaptureSwitch::On,
        CaptureSwitch::Sides,
        CaptureSwitch::Cross,
        CaptureSwitch::Diagonals,
        CaptureSwitch::Placing,
        CaptureSwitch::Moving,
        CaptureSwitch::AtThree,
    ];
}

/// The capture options' names by `CaptureRule` and `CaptureSwitch`, in
/// their declaration order: the rule, then the switch (none for `On`).
const CAPTURE_NAMES: [[&str; 7]; 3] = {
    macro_rules! names {
        ($($rule:literal),*; $switches:tt) => { [$(names!(@row $rule $switches)),*] };
        (@row $rule:literal [$($switch:literal),*]) => { [$(concat!($rule, $switch)),*] };
    }
    names!(
        "Custodian", "Intervention", "Leap";
        ["", "Sides", "Cross", "Diagonals", "Placing", "Moving", "AtThree"]
    )
};

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
            const STANDARD: RuleOptions = RuleOptions { $($field: $default,)* };

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
            $($($id,)?)*
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

            pub const fn name(self) -> &'static str {
                match self {
                    $($(RuleOptionId::$id => $name,)?)*
                    RuleOptionId::Capture(rule, switch) => {
                        CAPTURE_NAMES[rule as usize][switch as usize]
                    }
                }
            }

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
    variant: Variant = Variant::Nine => Variant "Variant" [combo Variant::ALL];
    pieces: u8 = 9 => Pieces "Pieces" [spin 3..=12];
    diagonals: bool = false => Diagonals "Diagonals" [check];
    flying: Flying = Flying::Three => Flying "Flying" [combo Flying::ALL];
    fly_at: u8 = 3 => FlyAt "FlyAt" [spin 3..=12];
    lasker: bool = false => Lasker "Lasker" [check];
    remove_per_mill: bool = false => RemovePerMill "RemovePerMill" [check];
    mill_removal: MillRemoval = MillRemoval::Protected
        => MillRemoval "MillRemoval" [combo MillRemoval::ALL];
    may_pass: bool = false => MayPass "MayPass" [check];
    mill_reform: bool = false => MillReform "MillReform" [check];
    blocked: Blocked = Blocked::Loss => Blocked "Blocked" [combo Blocked::ALL];
    board_full: BoardFull = BoardFull::Draw => BoardFull "BoardFull" [combo BoardFull::ALL];
    endgame_moves: u16 = 10 => EndgameMoves "EndgameMoves" [spin 0..=1000];
    no_capture_moves: u16 = 100 => NoCaptureMoves "NoCaptureMoves" [spin 0..=1000];
    repetition: bool = true => Repetition "Repetition" [check];
    first_player: Color = Color::White => FirstPlayer "FirstPlayer" [combo Color::BOTH];
    /// The rule-set options of docs/rules.md Part II.
    min_pieces: u8 = 3 => MinPieces "MinPieces" [spin 3..=5];
    placing_mill: PlacingMill = PlacingMill::Board
        => PlacingMill "PlacingMill" [combo PlacingMill::ALL];
    defender_first: bool = false => DefenderFirst "DefenderFirst" [check];
    one_time_mill: bool = false => OneTimeMill "OneTimeMill" [check];
    mill_shuttle: MillShuttle = MillShuttle::Allowed
        => MillShuttle "MillShuttle" [combo MillShuttle::ALL];
    stop_at_two_empty: bool = false => StopAtTwoEmpty "StopAtTwoEmpty" [check];
    custodian: Capture = Capture::OFF;
    intervention: Capture = Capture::OFF;
    leap: Capture = Capture::OFF;
    loss_check: LossCheck = LossCheck::Turn => LossCheck "LossCheck" [combo LossCheck::ALL];
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
    #[error("unknown rule option '{0}'")]
    UnknownOption(String),
    /// A value the option's kind does not take.
    #[error("option {option} takes {}, not '{value}'", .option.kind().expected())]
    BadValue { option: RuleOptionId, value: String },
    #[error("FlyAt ({fly_at}) must be at most Pieces ({pieces})")]
    FlyAtAbovePieces { fly_at: u8, pieces: u8 },
    #[error("expected Name=Value, got '{0}'")]
    NotASetting(String),
    #[error("MinPieces ({min_pieces}) must be at most Pieces ({pieces})")]
    MinPiecesAbovePieces { min_pieces: u8, pieces: u8 },
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
