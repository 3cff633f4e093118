//! Turns under the rule-set options of docs/rules.md Part II: whole turns
//! (its section 13) built from single actions (a placement, a move, one
//! removal: `step.rs`) applied in the order of its section 14. Rules
//! without those options never come here (`Rules::extended`).

use super::board::Square;
use super::color::Color;
use super::movegen::{MoveSink, SeenSets};
use super::moves::{MAX_REMOVALS, Move};
use super::option_values::{Blocked, LossCheck};
use super::options::Rules;
use super::outcome::{EndReason, Outcome};
use super::position::Position;
use super::step::{Step, draw, lose};

impl Position {
    /// Whether the game is over before the side to move plays (a rule
    /// ended it in a turn, or `LossCheck turn` finds too few pieces).
    fn turn_outcome(&self, rules: &Rules) -> Option<Outcome> {
        if self.end.is_some() {
            return self.end;
        }
        if rules.loss_check == LossCheck::Turn {
            for c in [self.side, !self.side] {
                if self.material(c) < rules.min_pieces as u32 {
                    return lose(c, EndReason::FewerPieces(rules.min_pieces));
                }
            }
        }
        None
    }

    /// The outcome of a position under rule-set options, given whether
    /// the side to move has a turn.
    pub(super) fn turn_rules_outcome(&self, rules: &Rules, has_turn: bool) -> Option<Outcome> {
        if let Some(o) = self.turn_outcome(rules) {
            return Some(o);
        }
        if has_turn {
            return None;
        }
        match rules.blocked {
            Blocked::Loss => lose(self.side, EndReason::Blocked),
            Blocked::Draw
            | Blocked::Pass
            | Blocked::RemoveMove
            | Blocked::RemovePass
            | Blocked::BothRemove => draw(EndReason::Blocked),
        }
    }

    /// Every turn (docs/rules.md 13), each once, removals in canonical order.
    pub(super) fn generate_turns<S: MoveSink>(&self, rules: &Rules, sink: &mut S) {
        if self.turn_outcome(rules).is_some() {
            return;
        }
        let me = self.side;
        if self.owed.count > 0 {
            let mut seen = TurnSets::new();
            extend(
                rules,
                Step::between(*self),
                Move::removal_only(),
                Some(me),
                sink,
                &mut seen,
            );
            return;
        }
        self.any_head(rules, |mv| {
            let step = Step::between(*self).head(rules, mv);
            if step.from_move {
                let mut seen = TurnSets::new();
                extend(rules, step, mv, None, sink, &mut seen);
            } else {
                sink.push(mv);
            }
            false
        });
    }

    /// The position after the turn `mv`, which must be legal here.
    pub(super) fn make_turn(&self, rules: &Rules, mv: Move) -> Position {
        let mut step = Step::between(*self);
        if !mv.is_removal_only() {
            step = step.head(rules, mv);
        }
        for r in mv.removals() {
            step = step.remove(rules, r);
        }
        let mut next = step.pos;
        if self.side == Color::Black {
            next.fullmove += 1;
        }
        next.rekey();
        next
    }

    /// Whether `removals`, in this order, can be made as the removals of
    /// the legal turn `mv`; the first that cannot, if any.
    pub(super) fn turn_removal_order(
        &self,
        rules: &Rules,
        mv: Move,
        removals: &[Square],
    ) -> Result<(), Square> {
        let mut step = Step::between(*self);
        if !mv.is_removal_only() {
            step = step.head(rules, mv);
        }
        for &r in removals {
            if !step.removable(rules).contains(r) {
                return Err(r);
            }
            step = step.remove(rules, r);
        }
        Ok(())
    }

    /// A position as set up (a position string): the blocked test and
    /// owed removals that cannot be made are applied as after a turn.
    pub(super) fn settled(&self, rules: &Rules) -> Position {
        if !rules.extended() || self.end.is_some() {
            return *self;
        }
        let mut step = Step::between(*self);
        if self.owed.count == 0 {
            step.full_board_and_blocked(rules);
        }
        step.settle(rules);
        let mut pos = step.pos;
        pos.rekey();
        pos
    }
}

/// Adds `mv` and its continuations: one more removal at a time while the
/// turn goes on. `removal_only` is the player of a removal-only turn.
fn extend<S: MoveSink>(
    rules: &Rules,
    step: Step,
    mv: Move,
    removal_only: Option<Color>,
    sink: &mut S,
    seen: &mut TurnSets,
) {
    let can = step.removable(rules);
    if can.is_empty() || mv.num_removals() == MAX_REMOVALS {
        if seen.insert(mv.removed()) {
            sink.push(mv);
        }
        return;
    }
    for p in can {
        let next = step.remove(rules, p);
        let longer = mv.with_removal(p);
        let pos = &next.pos;
        let goes_on = pos.end.is_none()
            && pos.owed.count > 0
            && (next.from_move || removal_only == Some(pos.side));
        if goes_on {
            extend(rules, next, longer, removal_only, sink, seen);
        } else if seen.insert(longer.removed()) {
            sink.push(longer);
        }
    }
}

/// The removal sets already added for one turn (a tally turn can have
/// hundreds: 12 pieces choose 6 is 924).
type TurnSets = SeenSets<1024>;
