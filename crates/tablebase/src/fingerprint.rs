//! Which rules the tables hold under (`covers`, `placement_covers`) and
//! the fingerprint that names a rules folder and is checked in every
//! table's header.

use morris_rules::{
    Blocked, BoardFull, Capture, EndgameWhen, Flying, LossCheck, MillRemoval, MillShuttle,
    PlacingMill, RuleOptionId, RuleOptions, Rules,
};

/// A rule-set option (docs/rules.md 16) under which the movement-phase tables
/// do not hold: it adds state or moves to the movement phase, or changes
/// how it ends. The other rule-set options act only while placing or at
/// the stage change (`PlacingMill`, `DefenderFirst`, `StopAtTwoEmpty`,
/// `BoardFull`), or end the same games the same way (`LossCheck`), so the
/// tables apply under them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("the endgame tables do not cover rules with {0}")]
pub struct NotCovered(pub &'static str);

/// Whether the movement-phase tables hold under `rules`. Every option is
/// named, so that a new one does not compile until it is placed: checked
/// here, part of the `Fingerprint`, or one that does not reach the movement
/// phase.
pub fn covers(rules: &Rules) -> Result<(), NotCovered> {
    let RuleOptions {
        // In the fingerprint.
        diagonals: _,
        flying: _,
        fly_at: _,
        mill_removal: _,
        remove_per_mill: _,
        may_pass: _,
        endgame_moves,
        no_capture_moves: _,
        // The placement phase's (`placement_covers`), or the start's.
        variant: _,
        pieces: _,
        lasker: _,
        first_player: _,
        placing_mill: _,
        defender_first: _,
        stop_at_two_empty: _,
        board_full: _,
        // Ends the same games the same way.
        loss_check: _,
        // Treated as off; bans are not probed.
        mill_reform: _,
        // Cannot change a value (optimal play never repeats within a phase).
        repetition: _,
        min_pieces,
        one_time_mill,
        mill_shuttle,
        custodian,
        intervention,
        leap,
        blocked,
        endgame_when,
    } = **rules;
    let capture = |k: Capture| k.on && k.moving;
    if min_pieces != 3 {
        Err(NotCovered("MinPieces other than 3"))
    } else if one_time_mill {
        Err(NotCovered("OneTimeMill"))
    } else if mill_shuttle == MillShuttle::Banned {
        Err(NotCovered("MillShuttle banned"))
    } else if capture(custodian) || capture(intervention) || capture(leap) {
        Err(NotCovered(
            "custodian, intervention or leap captures in the moving phase",
        ))
    } else if !matches!(blocked, Blocked::Loss | Blocked::Draw) {
        Err(NotCovered("Blocked pass or a removal value"))
    } else if endgame_when == EndgameWhen::Either && endgame_moves > 0 {
        Err(NotCovered("EndgameWhen either"))
    } else {
        Ok(())
    }
}

/// Whether the placement-phase tables hold under `rules`: the movement
/// tables do (`covers`), every placement option of docs/rules.md 16 is at
/// its Part I default (`PlacingMill` board, no `DefenderFirst`, no
/// `StopAtTwoEmpty`, `BoardFull` draw or loss where the board can fill
/// (12 stones a side or more), no captures while placing; `LossCheck`
/// either, since with removals from the board only a piece count falls
/// by a removal, after which both checks end the game for its victim), and under `Lasker`, whose slides advance
/// the clock while stones are in hand, the move-count draws are off.
/// Every option is named, as in `covers`.
pub fn placement_covers(rules: &Rules) -> Result<(), NotCovered> {
    covers(rules)?;
    let RuleOptions {
        // The movement tables' (`covers`), which the placements lead into.
        diagonals: _,
        flying: _,
        fly_at: _,
        mill_removal: _,
        remove_per_mill: _,
        may_pass: _,
        blocked: _,
        min_pieces: _,
        one_time_mill: _,
        mill_shuttle: _,
        endgame_when: _,
        mill_reform: _,
        repetition: _,
        // The hands are in the sector; who starts is a colour swap.
        variant: _,
        pieces: _,
        first_player: _,
        endgame_moves,
        no_capture_moves,
        lasker,
        placing_mill,
        defender_first,
        stop_at_two_empty,
        board_full,
        custodian,
        intervention,
        leap,
        loss_check,
    } = **rules;
    let capture = |k: Capture| k.on;
    if placing_mill != PlacingMill::Board {
        Err(NotCovered("PlacingMill other than board"))
    } else if defender_first {
        Err(NotCovered("DefenderFirst"))
    } else if stop_at_two_empty {
        Err(NotCovered("StopAtTwoEmpty"))
    } else if !matches!(board_full, BoardFull::Draw | BoardFull::Loss) && board_can_fill(rules) {
        Err(NotCovered("BoardFull other than draw or loss"))
    } else if capture(custodian) || capture(intervention) || capture(leap) {
        Err(NotCovered("custodian, intervention or leap captures"))
    } else if loss_check != LossCheck::Turn && placing_mill != PlacingMill::Board {
        // Removals from the hand are where the two checks part (14.9).
        Err(NotCovered(
            "LossCheck removal with PlacingMill other than board",
        ))
    } else if lasker && (endgame_moves > 0 || no_capture_moves > 0) {
        Err(NotCovered(
            "Lasker with EndgameMoves or NoCaptureMoves (placement tables need both 0)",
        ))
    } else {
        Ok(())
    }
}

/// Whether placing can fill the board: with fewer than 12 stones a side
/// (24 points) it never does, and `BoardFull` cannot act.
fn board_can_fill(rules: &Rules) -> bool {
    2 * rules.pieces as usize >= morris_rules::Bitboard::FULL.count() as usize
}

/// The rule options a placement table depends on: the movement tables'
/// (which it leads into) plus `Lasker` and `BoardFull`. `Pieces` is not
/// one of them (the hands are part of the sector), so a game with fewer
/// pieces shares its sectors with the full game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlacementFingerprint {
    /// The options of the movement tables the placements lead into.
    pub movement: Fingerprint,
    /// `Lasker`: a player may slide instead of placing while holding
    /// stones.
    pub lasker: bool,
    /// `BoardFull`; where the board cannot fill (fewer than 12 stones a
    /// side) `Loss` stays and every other value becomes `Draw`.
    pub board_full: BoardFull,
}

impl PlacementFingerprint {
    /// Every option is named, as in `covers`.
    pub fn of(rules: &Rules) -> PlacementFingerprint {
        let RuleOptions {
            // The movement tables' (`Fingerprint::of`).
            diagonals: _,
            flying: _,
            fly_at: _,
            mill_removal: _,
            remove_per_mill: _,
            may_pass: _,
            blocked: _,
            endgame_moves: _,
            no_capture_moves: _,
            min_pieces: _,
            one_time_mill: _,
            mill_shuttle: _,
            endgame_when: _,
            mill_reform: _,
            repetition: _,
            // The hands are in the sector; who starts is a colour swap.
            variant: _,
            pieces: _,
            first_player: _,
            // At their defaults wherever the tables hold (`placement_covers`).
            placing_mill: _,
            defender_first: _,
            stop_at_two_empty: _,
            custodian: _,
            intervention: _,
            leap: _,
            loss_check: _,
            lasker,
            board_full,
        } = **rules;
        PlacementFingerprint {
            movement: Fingerprint::of(rules),
            lasker,
            // A board that never fills plays as under the default.
            board_full: if board_can_fill(rules) {
                board_full
            } else {
                match board_full {
                    BoardFull::Loss => BoardFull::Loss,
                    BoardFull::Draw
                    | BoardFull::FirstLoses
                    | BoardFull::RemoveFirst
                    | BoardFull::RemoveSecond
                    | BoardFull::RemoveOne => BoardFull::Draw,
                }
            },
        }
    }

    /// Rules that play the game as the fingerprint says (the generator's).
    pub fn rules(&self) -> Rules {
        Rules::new(RuleOptions {
            lasker: self.lasker,
            board_full: self.board_full,
            ..*self.movement.rules()
        })
    }

    /// The options as `Name=Value` words, written into each table's header.
    pub fn text(&self) -> String {
        let r = self.rules();
        format!(
            "{} Lasker={} BoardFull={}",
            self.movement.text(),
            r.get(RuleOptionId::Lasker),
            r.get(RuleOptionId::BoardFull)
        )
    }

    /// The placement tables' folder, inside the movement tables' folder.
    pub fn dir_name(&self) -> String {
        format!(
            "placement-{}-full{}",
            if self.lasker { "lasker" } else { "standard" },
            match self.board_full {
                BoardFull::Loss => "loss",
                // Not covered (`placement_covers`) except draw.
                BoardFull::Draw
                | BoardFull::FirstLoses
                | BoardFull::RemoveFirst
                | BoardFull::RemoveSecond
                | BoardFull::RemoveOne => "draw",
            }
        )
    }
}

/// The rule options a movement-phase table depends on, in a canonical
/// form (so rule sets that play the same endgames share tables).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Fingerprint {
    /// `Diagonals`: the four diagonal lines exist, for adjacency and mills.
    pub diagonals: bool,
    /// `Flying`: who may move a stone to any empty point.
    pub flying: Flying,
    /// `FlyAt`: the stones on the board at or below which flying starts;
    /// 0 when `flying` is off.
    pub fly_at: u8,
    /// `MillRemoval`: which of the opponent's stones a mill may remove.
    pub mill_removal: MillRemoval,
    /// `RemovePerMill`: one removal for each mill a move forms (else one
    /// in all).
    pub remove_per_mill: bool,
    /// `MayPass`: a player may decline removals.
    pub may_pass: bool,
    /// `Blocked`: what a side with no legal move gets (loss or draw
    /// where the tables hold).
    pub blocked: Blocked,
    /// The move-count draws decide which conversions still win, so the
    /// values depend on them.
    pub endgame_moves: u16,
    /// `NoCaptureMoves`: the plies without a removal or a placement after
    /// which the game is drawn (0: off).
    pub no_capture_moves: u16,
}

impl Fingerprint {
    /// Every option is named, as in `covers`.
    pub fn of(rules: &Rules) -> Fingerprint {
        let RuleOptions {
            // Not covered unless at their defaults (`covers`).
            min_pieces: _,
            one_time_mill: _,
            mill_shuttle: _,
            endgame_when: _,
            custodian: _,
            intervention: _,
            leap: _,
            // Act only while placing or at the stage change
            // (`PlacementFingerprint`), or end the same games the same way.
            variant: _,
            pieces: _,
            lasker: _,
            first_player: _,
            placing_mill: _,
            defender_first: _,
            stop_at_two_empty: _,
            board_full: _,
            loss_check: _,
            // Treated as off; bans are not probed.
            mill_reform: _,
            // Cannot change a value (optimal play never repeats within a phase).
            repetition: _,
            diagonals,
            flying,
            fly_at,
            mill_removal,
            remove_per_mill,
            may_pass,
            blocked,
            endgame_moves,
            no_capture_moves,
        } = **rules;
        Fingerprint {
            diagonals,
            flying,
            fly_at: if flying == Flying::Off { 0 } else { fly_at },
            mill_removal,
            remove_per_mill,
            may_pass,
            blocked,
            endgame_moves,
            no_capture_moves,
        }
    }

    /// Rules that play the movement phase exactly as the fingerprint says
    /// (the generator's rules: `MillReform` off).
    pub fn rules(&self) -> Rules {
        Rules::new(RuleOptions {
            diagonals: self.diagonals,
            flying: self.flying,
            fly_at: self.fly_at.max(3),
            mill_removal: self.mill_removal,
            remove_per_mill: self.remove_per_mill,
            may_pass: self.may_pass,
            blocked: self.blocked,
            endgame_moves: self.endgame_moves,
            no_capture_moves: self.no_capture_moves,
            pieces: 12,
            mill_reform: false,
            ..*Rules::default()
        })
    }

    /// The options as `Name=Value` words, written into each table's header.
    pub fn text(&self) -> String {
        let r = self.rules();
        let mut words = Vec::new();
        for option in [
            RuleOptionId::Diagonals,
            RuleOptionId::Flying,
            RuleOptionId::FlyAt,
            RuleOptionId::MillRemoval,
            RuleOptionId::RemovePerMill,
            RuleOptionId::MayPass,
            RuleOptionId::Blocked,
            RuleOptionId::EndgameMoves,
            RuleOptionId::NoCaptureMoves,
        ] {
            let value = if option == RuleOptionId::FlyAt && self.fly_at == 0 {
                "-".to_string()
            } else {
                r.get(option).to_string()
            };
            words.push(format!("{option}={value}"));
        }
        words.join(" ")
    }

    /// A short name for the folder holding these rules' tables.
    pub fn dir_name(&self) -> String {
        let flying = match self.flying {
            Flying::Off => "nofly".to_string(),
            Flying::Three => format!("fly{}", self.fly_at),
            Flying::Both => format!("flyboth{}", self.fly_at),
        };
        let removal = match self.mill_removal {
            MillRemoval::Protected => "protected",
            MillRemoval::Never => "never",
            MillRemoval::Any => "any",
        };
        format!(
            "{}-{flying}-{removal}-{}-{}-{}-eg{}-nc{}",
            if self.diagonals { "diag" } else { "plain" },
            if self.remove_per_mill {
                "permill"
            } else {
                "single"
            },
            if self.may_pass { "pass" } else { "nopass" },
            match self.blocked {
                Blocked::Loss => "blockedloss",
                Blocked::Draw => "blockeddraw",
                // Not covered (`covers`): named only to be total.
                Blocked::Pass => "blockedpass",
                Blocked::RemoveMove => "blockedremovemove",
                Blocked::RemovePass => "blockedremovepass",
                Blocked::BothRemove => "blockedbothremove",
            },
            self.endgame_moves,
            self.no_capture_moves
        )
    }
}
