//! The rule sets of rulesets.md: its worked examples (section 9), the
//! state a position string must carry, and hand-checked cases per option.

use morris::rules::{Color, EndReason, Game, GameResult, MoveList, Position, Rules};

fn rules(variant: &str, settings: &[&str]) -> Rules {
    Rules::with_settings(variant, settings).unwrap()
}

fn game(rules: &Rules, fen: Option<&str>, moves: &str) -> Game {
    let start = match fen {
        Some(f) => Position::from_fen(f, rules).unwrap(),
        None => Position::start(rules),
    };
    let mut g = Game::new(*rules, start);
    for m in moves.split_whitespace() {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{m} in {moves}: {e}"));
    }
    g
}

fn legal(g: &Game) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    out.sort();
    out
}

/// The position string survives a round trip, and the position read back
/// has the same turns.
fn round_trips(rules: &Rules, pos: &Position) {
    let fen = pos.to_fen(rules);
    let back = Position::from_fen(&fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(back, *pos, "{fen}");
    assert_eq!(back.to_fen(rules), fen);
}

/// The full board of section 9 examples 3 to 5, just before Black's last
/// placement on g7: no line of either colour, with or without diagonals.
const FULL_BUT_G7: &str = "WB1/BWW/WBW/BWWBBW/BBW/BWB/WBW b 0 1 0 12";

#[test]
fn example_1_dooz_hand_removal() {
    let r = rules("dooz", &[]);
    let g = game(&r, None, "a1 b2 a4 b4 a7");
    let pos = g.position();
    assert_eq!(g.moves().last().unwrap().to_string(), "a7");
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.pieces(Color::Black).count(), 2);
    assert_eq!(pos.in_hand(Color::Black), 9);
    assert_eq!(pos.in_hand(Color::White), 9);
    round_trips(&r, pos);
}

#[test]
fn example_2_mulmulan_intervention() {
    let r = rules("mulmulan", &[]);
    let g = game(&r, None, "c4 f4 f2 b4 d6 f6 a7 a1 g7");
    let moves = legal(&g);
    assert!(moves.contains(&"d7xa7xg7".to_string()), "{moves:?}");
    assert!(!moves.contains(&"d7".to_string()));
    let mut g = g;
    g.play_text("d7xa7xg7").unwrap();
    assert_eq!(g.position().pieces(Color::White).count(), 3);
    assert_eq!(g.position().side_to_move(), Color::White);
}

#[test]
fn example_3_zhiqi_full_board_removes_first() {
    let r = rules("zhiqi", &[]);
    let mut g = game(&r, Some(FULL_BUT_G7), "g7");
    let pos = *g.position();
    assert_eq!(pos.side_to_move(), Color::White);
    let moves = legal(&g);
    assert_eq!(moves.len(), 12, "{moves:?}");
    assert!(
        moves.iter().all(|m| m.starts_with('x') && m.len() == 3),
        "{moves:?}"
    );
    round_trips(&r, &pos);
    g.play_text("xa4").unwrap();
    assert_eq!(g.position().side_to_move(), Color::Black);
    let moves = legal(&g);
    assert_eq!(moves.len(), 12, "{moves:?}");
    assert!(moves.contains(&"xa1".to_string()));
    round_trips(&r, g.position());
    g.play_text("xa1").unwrap();
    assert_eq!(g.position().side_to_move(), Color::White);
    assert!(legal(&g).iter().all(|m| m.contains('-')));
    // perft: the placement, 12 removals, 12 removals.
    let start = Position::from_fen(FULL_BUT_G7, &r).unwrap();
    assert_eq!(start.perft(&r, 3), 144);
}

#[test]
fn example_4_elfilja_tally_without_lines() {
    let r = rules("elfilja", &[]);
    let mut g = game(&r, Some(FULL_BUT_G7), "g7");
    assert_eq!(g.position().side_to_move(), Color::White);
    let own: Vec<String> = g
        .position()
        .pieces(Color::White)
        .map(|s| format!("x{s}"))
        .collect();
    let mut own = own;
    own.sort();
    assert_eq!(legal(&g), own, "White removes one of White's own");
    round_trips(&r, g.position());
    g.play_text("xa1").unwrap();
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert_eq!(g.position().pieces(Color::White).count(), 11);
    assert!(
        legal(&g)
            .iter()
            .all(|m| g.position().piece_at(m[1..].parse_square()) == Some(Color::Black))
    );
    g.play_text("xa4").unwrap();
    assert_eq!(g.position().side_to_move(), Color::White);
    assert_eq!(g.position().pieces(Color::Black).count(), 11);
    assert!(legal(&g).iter().all(|m| m.contains('-')));
}

#[test]
fn example_5_twelve_app_first_player_loses() {
    let r = rules("twelve-app", &[]);
    let g = game(&r, Some(FULL_BUT_G7), "g7");
    let o = g.outcome().unwrap();
    assert_eq!(o.result, GameResult::Win(Color::Black));
    assert_eq!(o.reason, EndReason::BoardFull);
    let start = Position::from_fen(FULL_BUT_G7, &r).unwrap();
    assert_eq!(start.perft(&r, 1), 1);
    assert_eq!(start.perft(&r, 2), 0);
    round_trips(&r, g.position());
}

trait ParseSquare {
    fn parse_square(&self) -> morris::rules::Square;
}

impl ParseSquare for str {
    fn parse_square(&self) -> morris::rules::Square {
        morris::rules::Square::ALL
            .into_iter()
            .find(|s| s.name() == self)
            .unwrap()
    }
}

/// A xorshift stream, for random games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// `PlacingMill victimpicks` plays as `board` (rulesets.md 6.2), through
/// the rule-set turn engine: with rules.md's options otherwise, both
/// engines must agree on every turn of random games.
#[test]
fn turn_engine_agrees_with_the_plain_generator() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let choices: [&[&str]; 6] = [
        &["Flying=three", "Flying=off", "Flying=both"],
        &[
            "MillRemoval=protected",
            "MillRemoval=any",
            "MillRemoval=never",
        ],
        &["RemovePerMill=false", "RemovePerMill=true"],
        &["Blocked=loss", "Blocked=draw"],
        &["FirstPlayer=white", "FirstPlayer=black"],
        &["FlyAt=3", "FlyAt=4"],
    ];
    for round in 0..300 {
        let variant = ["nine", "twelve", "morabaraba", "lasker"][round % 4];
        let settings: Vec<&str> = choices.iter().map(|c| c[rng.below(c.len())]).collect();
        let plain = Rules::with_settings(variant, &settings).unwrap();
        let mut turned_settings = settings.clone();
        turned_settings.push("PlacingMill=victimpicks");
        let turned = Rules::with_settings(variant, &turned_settings).unwrap();
        assert!(turned.extended() && !plain.extended());
        let mut a = Game::new(plain, Position::start(&plain));
        let mut b = Game::new(turned, Position::start(&turned));
        for _ in 0..120 {
            let (la, lb) = (legal(&a), legal(&b));
            assert_eq!(la, lb, "{variant} {settings:?} after {:?}", a.moves());
            assert_eq!(a.position().to_fen(&plain), b.position().to_fen(&turned));
            if la.is_empty() {
                assert_eq!(a.outcome(), b.outcome());
                break;
            }
            let m = &la[rng.below(la.len())];
            a.play_text(m).unwrap();
            b.play_text(m).unwrap();
        }
    }
}
