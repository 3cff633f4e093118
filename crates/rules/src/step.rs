//! One action of a turn under the rule-set options (docs/rules.md 14): a
//! placement or a move, one removal, and what ends the turn, applied to
//! a position in the middle of its turn.

use super::board::{Bitboard, Layout, Square};
use super::color::Color;
use super::movegen::removable;
use super::moves::Move;
use super::option_values::{Blocked, BoardFull, Capture, LossCheck, MillShuttle, PlacingMill};
use super::options::Rules;
use super::outcome::{EndReason, GameResult, Outcome};
use super::position::{Owed, Position};

/// A position in the middle of a turn, with what the turn engine keeps
/// besides: the pending capture targets and the kind of turn.
#[derive(Clone, Copy)]
pub(super) struct Step {
    pub(super) pos: Position,
    /// Custodian targets (worth one removal), intervention targets (one
    /// each), the leap target.
    pub(super) custodian: Bitboard,
    pub(super) intervention: Bitboard,
    pub(super) leap: Bitboard,
    /// The turn is a placing-phase turn (marks, docs/rules.md 16.2).
    pub(super) placing: bool,
    /// The owed removals were earned by this turn's placement or move.
    pub(super) from_move: bool,
}

pub(super) fn lose(loser: Color, reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        result: GameResult::Win(!loser),
        reason,
    })
}

pub(super) fn draw(reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        result: GameResult::Draw,
        reason,
    })
}

/// The lines a capture rule uses (docs/rules.md 11, 16.11).
pub(super) fn selected_lines(layout: &Layout, capture: &Capture) -> u32 {
    (if capture.sides { layout.side_lines } else { 0 })
        | (if capture.cross { layout.cross_lines } else { 0 })
        | (if capture.diagonals {
            layout.diagonal_lines
        } else {
            0
        })
}

/// The points next to any of `pieces`.
pub(super) fn neighbours(layout: &Layout, pieces: Bitboard) -> Bitboard {
    pieces.fold(Bitboard::EMPTY, |acc, sq| acc | layout.adjacent[sq.index()])
}

/// What a position says of the actions open to a player under the
/// rule-set options: spent and live mills, shuttle bans, blocked sides.
impl Position {
    /// Whether a line (by index) is spent for `c` (`OneTimeMill`).
    pub(super) fn spent_line(&self, layout: &Layout, c: Color, line: usize) -> bool {
        let points = layout.lines[line];
        self.spent[c.index()] & points == points
    }

    /// The complete, non-spent lines of `c` through `sq` (a line mask).
    pub(super) fn live_mills_through(&self, layout: &Layout, c: Color, sq: Square) -> u32 {
        let own = self.pieces[c.index()];
        layout
            .lines_through(sq)
            .filter(|&(i, line)| own & line == line && !self.spent_line(layout, c, i))
            .fold(0, |acc, (i, _)| acc | 1 << i)
    }

    /// Whether `MillShuttle banned` forbids `c` to move `from` to `to` now.
    pub(super) fn shuttle_banned(&self, rules: &Rules, c: Color, from: Square, to: Square) -> bool {
        if rules.mill_shuttle == MillShuttle::Allowed || self.shuttle[c.index()] != Some((to, from))
        {
            return false;
        }
        let layout = rules.layout();
        if self.live_mills_through(layout, c, from) == 0 {
            return false;
        }
        let mut after = *self;
        after.pieces[c.index()] ^= from.bit() | to.bit();
        after.live_mills_through(layout, c, to) != 0
    }

    /// The blocked test of docs/rules.md 14.8 (leap moves not considered).
    pub fn is_blocked(&self, rules: &Rules, c: Color) -> bool {
        if self.occupied() == Bitboard::FULL {
            return true;
        }
        if self.can_fly(rules, c) {
            return false;
        }
        let empty = self.empty();
        let layout = rules.layout();
        !self.pieces[c.index()].into_iter().any(|sq| {
            (layout.adjacent[sq.index()] & empty).any(|to| !self.shuttle_banned(rules, c, sq, to))
        })
    }

    /// Each placement, slide, flight and leap of the side to move, without
    /// removals, until `f` returns true; whether it did.
    pub(super) fn any_head(&self, rules: &Rules, mut f: impl FnMut(Move) -> bool) -> bool {
        let me = self.side;
        let own = self.pieces[me.index()];
        let theirs = self.pieces[(!me).index()];
        let empty = self.empty();
        let layout = rules.layout();
        let in_hand = self.hand[me.index()] > 0;
        if in_hand && empty.into_iter().any(|to| f(Move::place(to))) {
            return true;
        }
        if in_hand && !rules.lasker {
            return false;
        }
        let fly = !in_hand && self.can_fly(rules, me);
        for from in own {
            let targets = if fly {
                empty
            } else {
                layout.adjacent[from.index()] & empty
            };
            for to in targets {
                if !self.shuttle_banned(rules, me, from, to) && f(Move::slide(from, to)) {
                    return true;
                }
            }
        }
        let leap = &rules.leap;
        if in_hand || fly || !leap.on || !leap.moving || (leap.at_three && own.count() > 3) {
            return false;
        }
        let jumpable = removable(layout, rules.mill_removal, theirs);
        for l in super::board::line_indices(selected_lines(layout, leap)) {
            let middle = layout.middles[l];
            if !jumpable.contains(middle) {
                continue;
            }
            let ends = layout.lines[l] ^ middle.bit();
            for from in ends & own {
                let Some(to) = (ends ^ from.bit()).first() else {
                    continue;
                };
                if empty.contains(to)
                    && !self.shuttle_banned(rules, me, from, to)
                    && f(Move::slide(from, to))
                {
                    return true;
                }
            }
        }
        false
    }
}

impl Step {
    /// A position between turns; a removal-only turn's phase is its
    /// player's (a second remover may still hold pieces, docs/rules.md 11).
    pub(super) fn between(pos: Position) -> Step {
        Step {
            pos,
            custodian: Bitboard::EMPTY,
            intervention: Bitboard::EMPTY,
            leap: Bitboard::EMPTY,
            placing: pos.hand[pos.side.index()] > 0,
            from_move: false,
        }
    }

    pub(super) fn targets(&self) -> Bitboard {
        self.custodian | self.intervention | self.leap
    }

    /// What the pending capture targets are worth (c of docs/rules.md 14.4).
    pub(super) fn capture_worth(&self) -> u8 {
        (!self.custodian.is_empty()) as u8
            + self.intervention.count() as u8
            + self.leap.count() as u8
    }

    /// The points the next single removal may take (docs/rules.md 14.4).
    pub(super) fn removable(&self, rules: &Rules) -> Bitboard {
        let pos = &self.pos;
        let owed = pos.owed;
        if owed.count == 0 || pos.end.is_some() {
            return Bitboard::EMPTY;
        }
        let targets = self.targets();
        if owed.count <= self.capture_worth() {
            return targets;
        }
        let me = pos.side;
        let victim = if owed.own { me } else { !me };
        let pieces = pos.pieces[victim.index()];
        let layout = rules.layout();
        let blocked_targeting = owed.adjacent
            || (rules.blocked.removes() && !self.placing && pos.is_blocked(rules, me));
        let ordinary = if blocked_targeting {
            if owed.own {
                pieces
            } else {
                pieces & neighbours(layout, pos.pieces[me.index()])
            }
        } else {
            removable(layout, rules.mill_removal, pieces)
        };
        targets | ordinary
    }

    /// Custodian and intervention targets of the side to move's piece
    /// arriving on `to` (docs/rules.md 16.11), with mill protection.
    pub(super) fn captures(
        &self,
        rules: &Rules,
        to: Square,
        placement: bool,
    ) -> (Bitboard, Bitboard) {
        let pos = &self.pos;
        let me = pos.side;
        let own = pos.pieces[me.index()];
        let theirs = pos.pieces[(!me).index()];
        let layout = rules.layout();
        let acts = |k: &Capture| {
            k.on && if placement {
                k.placing
            } else if self.placing {
                k.placing && k.moving
            } else {
                k.moving && (!k.at_three || own.count() <= 3)
            }
        };
        let protect = removable(layout, rules.mill_removal, theirs);
        let mut custodian = Bitboard::EMPTY;
        if acts(&rules.custodian) {
            let lines = selected_lines(layout, &rules.custodian);
            for (l, line) in layout.lines_through(to) {
                let middle = layout.middles[l];
                if lines & 1 << l == 0 || middle == to {
                    continue;
                }
                let other = line ^ to.bit() ^ middle.bit();
                if (other & own) == other && theirs.contains(middle) {
                    custodian |= middle.bit();
                }
            }
        }
        let mut intervention = Bitboard::EMPTY;
        if acts(&rules.intervention) {
            let k = &rules.intervention;
            for family in [
                if k.cross { layout.cross_lines } else { 0 },
                if k.sides { layout.side_lines } else { 0 },
                if k.diagonals {
                    layout.diagonal_lines
                } else {
                    0
                },
            ] {
                let found = layout.lines_through(to).find(|&(l, line)| {
                    let ends = line ^ to.bit();
                    family & 1 << l != 0 && layout.middles[l] == to && ends & theirs == ends
                });
                if let Some((_, line)) = found {
                    intervention = line ^ to.bit();
                    break;
                }
            }
        }
        (custodian & protect, intervention & protect)
    }

    /// The placement or move `mv` (no removals) by the side to move
    /// (docs/rules.md 14.2, 14.3), then what follows when it earns nothing.
    pub(super) fn head(mut self, rules: &Rules, mv: Move) -> Step {
        let layout = rules.layout();
        let me = self.pos.side;
        let opp = !me;
        let Some(to) = mv.to() else { return self };
        self.placing = self.pos.hand[me.index()] > 0;
        let placement = mv.from().is_none();
        {
            let pos = &mut self.pos;
            match mv.from() {
                None => {
                    pos.hand[me.index()] -= 1;
                    pos.pieces[me.index()] |= to.bit();
                    pos.clock = 0;
                }
                Some(from) => {
                    pos.pieces[me.index()] ^= from.bit() | to.bit();
                    pos.clock = pos.clock.saturating_add(1);
                }
            }
        }
        let (custodian, intervention) = self.captures(rules, to, placement);
        let own = self.pos.pieces[me.index()];
        let leap = match mv.from() {
            Some(from) if !self.placing => self.leap_target(rules, from, to, own),
            _ => Bitboard::EMPTY,
        };
        let mills = self.pos.live_mills_through(layout, me, to);
        let k = mills.count_ones() as u8;
        let m = if rules.remove_per_mill { k } else { k.min(1) };
        let capture_worth =
            (!custodian.is_empty()) as u8 + intervention.count() as u8 + leap.count() as u8;
        let record = |pos: &mut Position| {
            if rules.one_time_mill {
                for l in super::board::line_indices(mills) {
                    pos.spent[me.index()] |= layout.lines[l];
                }
            }
        };
        let mut owe = 0;
        let mut next = opp;
        if let Some(from) = mv.from() {
            if !leap.is_empty() {
                self.leap = leap;
                owe = 1;
            } else if k >= 1 {
                record(&mut self.pos);
                if rules.mill_shuttle == MillShuttle::Banned {
                    self.pos.shuttle[me.index()] = Some((from, to));
                }
                (self.custodian, self.intervention) = (custodian, intervention);
                owe = m;
            } else if capture_worth > 0 {
                (self.custodian, self.intervention) = (custodian, intervention);
                owe = capture_worth;
            } else {
                self.pos.shuttle[me.index()] = None;
            }
        } else if k >= 1 {
            record(&mut self.pos);
            self.pos.shuttle[me.index()] = None;
            match rules.placing_mill {
                PlacingMill::Board | PlacingMill::VictimPicks | PlacingMill::Mark => {
                    (self.custodian, self.intervention) = (custodian, intervention);
                    owe = m + if rules.remove_per_mill {
                        capture_worth
                    } else {
                        0
                    };
                }
                PlacingMill::Hand | PlacingMill::HandAgain => {
                    let hand = &mut self.pos.hand[opp.index()];
                    let r = m.min(*hand);
                    *hand -= r;
                    owe = m - r;
                    if owe == 0 && rules.placing_mill == PlacingMill::HandAgain {
                        next = me;
                    }
                }
                PlacingMill::Tally => {}
            }
        } else if capture_worth > 0 {
            (self.custodian, self.intervention) = (custodian, intervention);
            owe = capture_worth;
        }
        if owe > 0 {
            self.pos.owed = Owed {
                count: owe,
                ..Owed::default()
            };
            self.from_move = true;
            self.settle(rules);
        } else {
            self.end_turn(rules, next);
        }
        self
    }

    /// The leap target of a move from `from` to `to` (docs/rules.md 16.11).
    pub(super) fn leap_target(
        &self,
        rules: &Rules,
        from: Square,
        to: Square,
        own: Bitboard,
    ) -> Bitboard {
        let leap = &rules.leap;
        if !leap.on || !leap.moving || (leap.at_three && own.count() > 3) {
            return Bitboard::EMPTY;
        }
        let layout = rules.layout();
        let theirs = self.pos.pieces[(!self.pos.side).index()];
        let lines = selected_lines(layout, leap);
        let ends = from.bit() | to.bit();
        for (l, line) in layout.lines_through(from) {
            let middle = layout.middles[l];
            if lines & 1 << l != 0 && line ^ middle.bit() == ends && theirs.contains(middle) {
                return middle.bit() & removable(layout, rules.mill_removal, theirs);
            }
        }
        Bitboard::EMPTY
    }

    /// One single removal of `p` by the side to move (docs/rules.md 14.4).
    pub(super) fn remove(mut self, rules: &Rules, p: Square) -> Step {
        let worth = self.capture_worth();
        let me = self.pos.side;
        let owed = &mut self.pos.owed;
        if self.intervention.contains(p) {
            self.custodian = Bitboard::EMPTY;
            self.leap = Bitboard::EMPTY;
            owed.count = self.intervention.count() as u8;
        } else if self.custodian.contains(p) {
            self.intervention = Bitboard::EMPTY;
            self.leap = Bitboard::EMPTY;
            owed.count = 1;
        } else if self.leap.contains(p) {
            self.custodian = Bitboard::EMPTY;
            self.intervention = Bitboard::EMPTY;
            owed.count = 1;
        } else if worth > 0 {
            self.custodian = Bitboard::EMPTY;
            self.intervention = Bitboard::EMPTY;
            self.leap = Bitboard::EMPTY;
            if rules.remove_per_mill && owed.count > worth {
                owed.count -= worth;
            }
        }
        let victim = if owed.own { me } else { !me };
        let mark = rules.placing_mill == PlacingMill::Mark && self.placing && !owed.own;
        owed.count -= 1;
        let pos = &mut self.pos;
        pos.pieces[victim.index()] &= !p.bit();
        if mark {
            pos.marked |= p.bit();
        }
        pos.clock = 0;
        self.custodian &= !p.bit();
        self.intervention &= !p.bit();
        self.leap &= !p.bit();
        if rules.loss_check == LossCheck::Removal
            && self.pos.material(victim) < rules.min_pieces as u32
        {
            self.pos.end = lose(victim, EndReason::FewerPieces(rules.min_pieces));
            return self;
        }
        if self.pos.owed.count == 0 {
            self.removals_done(rules);
        }
        self.settle(rules);
        self
    }

    /// Owed removals that cannot be made are lost (docs/rules.md 13); a
    /// blocked player who must remove and cannot ends the game in a draw
    /// (as Sanmill's engine is left without an action there).
    pub(super) fn settle(&mut self, rules: &Rules) {
        while self.pos.end.is_none() && self.pos.owed.count > 0 {
            if !self.removable(rules).is_empty() {
                return;
            }
            let side = self.pos.side;
            if !self.from_move && rules.blocked.removes() && self.pos.is_blocked(rules, side) {
                self.pos.end = draw(EndReason::Blocked);
                return;
            }
            self.pos.owed.count = 0;
            self.removals_done(rules);
        }
    }

    /// The owed count reached zero (docs/rules.md 14.4 step 4).
    pub(super) fn removals_done(&mut self, rules: &Rules) {
        self.custodian = Bitboard::EMPTY;
        self.intervention = Bitboard::EMPTY;
        self.leap = Bitboard::EMPTY;
        let owed = self.pos.owed;
        let side = self.pos.side;
        if self.from_move {
            self.from_move = false;
            self.pos.owed = Owed::default();
            self.end_turn(rules, !side);
        } else if owed.queued > 0 {
            self.pos.side = !side;
            self.placing = self.pos.hand[(!side).index()] > 0;
            self.pos.owed = Owed {
                count: owed.queued,
                own: owed.queued_own,
                adjacent: owed.queued_adjacent,
                ..Owed::default()
            };
        } else {
            self.pos.owed = Owed::default();
            self.end_turn(rules, if owed.then_same { side } else { !side });
        }
    }

    /// The end of a turn (docs/rules.md 14.5), `next` having the next turn.
    pub(super) fn end_turn(&mut self, rules: &Rules, next: Color) {
        self.pos.side = next;
        let placing = std::mem::replace(&mut self.placing, false);
        if placing {
            let pos = &mut self.pos;
            if pos.hand == [0, 0] {
                self.stage_change(rules, next);
            } else if rules.stop_at_two_empty && rules.pieces == 12 && pos.empty().count() <= 2 {
                pos.hand = [0, 0];
                self.stage_change(rules, next);
            }
        }
        self.full_board_and_blocked(rules);
    }

    /// The stage change (docs/rules.md 14.6).
    pub(super) fn stage_change(&mut self, rules: &Rules, next: Color) {
        let first = rules.first_player;
        let pos = &mut self.pos;
        pos.marked = Bitboard::EMPTY;
        let keeps_turn = match rules.placing_mill {
            PlacingMill::Hand => true,
            PlacingMill::HandAgain => rules.remove_per_mill || rules.lasker,
            PlacingMill::Mark | PlacingMill::Tally => false,
            PlacingMill::Board | PlacingMill::VictimPicks => rules.lasker,
        };
        pos.side = if rules.defender_first {
            !first
        } else if keeps_turn {
            next
        } else {
            first
        };
        if rules.placing_mill == PlacingMill::Tally {
            let layout = rules.layout();
            let count = |c: Color| layout.line_counts(pos.pieces[c.index()]).all.count_ones() as u8;
            let (w, b) = (count(first), count(!first));
            // (first removes, own pieces?), (second removes, own pieces?)
            let ((fw, fo), (sw, so)) = match (w, b) {
                (0, 0) => ((1, true), (1, true)),
                (_, 0) => ((2, false), (1, false)),
                (0, _) => ((1, false), (2, false)),
                _ if w == b => ((w, false), (b, false)),
                _ if w > b => ((b + 1, false), (b, false)),
                _ => ((w, false), (w + 1, false)),
            };
            let ((n, own), (queued, queued_own)) = if pos.side == first {
                ((fw, fo), (sw, so))
            } else {
                ((sw, so), (fw, fo))
            };
            pos.owed = Owed {
                count: n,
                own,
                queued,
                queued_own,
                ..Owed::default()
            };
        }
    }

    /// The full board (docs/rules.md 14.7), then the blocked test (14.8).
    pub(super) fn full_board_and_blocked(&mut self, rules: &Rules) {
        let first = rules.first_player;
        let pos = &mut self.pos;
        if pos.end.is_some() || pos.owed.count > 0 {
            return;
        }
        if rules.loss_check == LossCheck::Turn {
            for c in [pos.side, !pos.side] {
                if pos.material(c) < rules.min_pieces as u32 {
                    return;
                }
            }
        }
        if rules.pieces == 12 && pos.hand == [0, 0] && pos.occupied() == Bitboard::FULL {
            let one = Owed {
                count: 1,
                ..Owed::default()
            };
            let then_other = Owed { queued: 1, ..one };
            match rules.board_full {
                BoardFull::Draw => pos.end = draw(EndReason::BoardFull),
                BoardFull::Loss => pos.end = lose(pos.side, EndReason::BoardFull),
                BoardFull::FirstLoses => pos.end = lose(first, EndReason::BoardFull),
                BoardFull::RemoveFirst => (pos.side, pos.owed) = (first, then_other),
                BoardFull::RemoveSecond => (pos.side, pos.owed) = (!first, then_other),
                BoardFull::RemoveOne => {
                    let remover = if rules.defender_first { !first } else { first };
                    (pos.side, pos.owed) = (remover, one);
                }
            }
            self.settle(rules);
            return;
        }
        let side = pos.side;
        if pos.hand[side.index()] > 0 || !pos.is_blocked(rules, side) {
            return;
        }
        let one = Owed {
            count: 1,
            ..Owed::default()
        };
        match rules.blocked {
            Blocked::Loss => pos.end = lose(side, EndReason::Blocked),
            Blocked::Draw => pos.end = draw(EndReason::Blocked),
            Blocked::Pass => {
                pos.side = !side;
                if !pos.any_head(rules, |_| true) {
                    pos.end = draw(EndReason::Blocked);
                }
            }
            Blocked::RemoveMove => {
                pos.owed = Owed {
                    adjacent: true,
                    then_same: true,
                    ..one
                }
            }
            Blocked::RemovePass => pos.owed = one,
            Blocked::BothRemove => {
                pos.owed = Owed {
                    adjacent: true,
                    queued: 1,
                    queued_adjacent: true,
                    ..one
                }
            }
        }
        self.settle(rules);
    }
}
