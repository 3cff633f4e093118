//! The search against the rules: forced wins and losses checked by an
//! independent exhaustive search, the draw rules, limits and signals.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use morris::rules::{Bitboard, Color, Game, Move, MoveList, Position, Rules, Setup, Square, Start};
use morris::search::{
    Clock, Control, ExactKnowledge, Info, Limits, Score, SearchOutcome, Searcher, Settings,
};

fn sq(name: &str) -> Square {
    Square::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .expect("a point name")
}

fn bb(names: &[&str]) -> Bitboard {
    names.iter().fold(Bitboard::EMPTY, |b, n| b | sq(n).bit())
}

/// A sliding-phase position (no pieces in hand).
fn board(white: &[&str], black: &[&str], side: Color) -> Position {
    Position::new([bb(white), bb(black)], [0, 0], side, 0, 30, [0, 0])
}

fn fen_game(fen: &str) -> Game {
    let rules = Rules::default();
    Game::new(rules, Position::from_fen(fen, &rules).expect("a valid FEN"))
}

fn legal(pos: &Position, rules: &Rules) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    list.iter().copied().collect()
}

/// Plain alpha-beta over the legal moves, independent of `morris::search`:
/// `1000 - p` for a win `p` plies away (within `depth`), `-(1000 - p)` for
/// a loss, 0 for anything else. Alpha-beta keeps the exact minimax value.
fn solve(pos: &Position, rules: &Rules, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
    let me = pos.side_to_move();
    if pos.material(me) < 3 {
        return -(1000 - ply);
    }
    let moves = legal(pos, rules);
    if moves.is_empty() {
        return -(1000 - ply);
    }
    if pos.move_count_draw(rules).is_some() || depth == 0 {
        return 0;
    }
    let mut best = -1000;
    for mv in moves {
        let s = -solve(
            &pos.make(rules, mv),
            rules,
            depth - 1,
            -beta,
            -alpha,
            ply + 1,
        );
        best = best.max(s);
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn exact(pos: &Position, rules: &Rules, depth: u32) -> i32 {
    solve(pos, rules, depth, -1000, 1000, 0)
}

fn run(game: &Game, settings: Settings, limits: &Limits) -> (SearchOutcome, Vec<Info>) {
    let mut searcher = Searcher::new(settings);
    let mut infos = Vec::new();
    let out = searcher.search(
        game,
        ExactKnowledge::NONE,
        limits,
        &Control::default(),
        &mut |i| infos.push(i.clone()),
    );
    (out, infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn assert_pv_legal(game: &Game, pv: &[Move]) {
    let rules = game.rules();
    let mut pos = *game.position();
    for &mv in pv {
        assert!(legal(&pos, rules).contains(&mv), "illegal pv move {mv}");
        pos = pos.make(rules, mv);
    }
}

/// Checks the engine finds the win in exactly `n` own moves and plays a
/// move that keeps it.
fn check_win(pos: Position, n: i32) {
    let rules = Rules::default();
    let plies = 2 * n - 1;
    assert_eq!(
        exact(&pos, &rules, plies as u32),
        1000 - plies,
        "test position"
    );
    let game = Game::new(rules, pos);
    let (out, infos) = run(&game, Settings::default(), &depth(plies as u32 + 2));
    assert_eq!(out.score, Score::Mate(n));
    for i in &infos {
        assert_pv_legal(&game, &i.pv);
    }
    let child = pos.make(&rules, out.best.unwrap());
    assert_eq!(
        exact(&child, &rules, plies as u32 - 1),
        -(1000 - (plies - 1)),
        "the move keeps the win in {n}"
    );
}

/// Checks the engine sees the loss in exactly `n` own moves and resists
/// for as long as it can.
fn check_loss(pos: Position, n: i32) {
    let rules = Rules::default();
    let plies = 2 * n;
    assert_eq!(
        exact(&pos, &rules, plies as u32),
        -(1000 - plies),
        "test position"
    );
    let game = Game::new(rules, pos);
    let (out, _) = run(&game, Settings::default(), &depth(plies as u32 + 1));
    assert_eq!(out.score, Score::Mate(-n));
    let child = pos.make(&rules, out.best.unwrap());
    assert_eq!(
        exact(&child, &rules, plies as u32 - 1),
        1000 - (plies - 1),
        "the move holds out as long as possible"
    );
}

fn fen_pos(fen: &str) -> Position {
    *fen_game(fen).position()
}

#[test]
fn flying_three_against_three_wins_in_two_and_three() {
    check_win(fen_pos("3/3/B2/1W2B1/1B1/2W/W2 w 0 0 0 30"), 2);
    check_win(fen_pos("2B/B2/1B1/3W2/W2/3/1W1 w 0 0 0 30"), 2);
    check_win(fen_pos("1W1/3/3/2WB2/1B1/2B/1W1 w 0 0 0 30"), 3);
}

#[test]
fn flying_three_against_three_lost_in_two() {
    check_loss(fen_pos("1WB/W2/3/6/WB1/3/2B w 0 0 0 30"), 2);
    check_loss(fen_pos("1BB/3/2W/6/1W1/2W/1B1 w 0 0 0 30"), 2);
}

/// Four sliding pieces against three flying ones. (The three cannot lose
/// in one: four pieces never make two threats one flight cannot block.)
#[test]
fn four_against_three_wins_in_one() {
    check_win(fen_pos("1B1/3/1B1/2B1WW/3/3/WW1 w 0 0 0 30"), 1);
    check_win(fen_pos("3/3/3/2BB2/2B/W1W/WW1 w 0 0 0 30"), 1);
    // Colours swapped: black with four to move against three.
    check_win(fen_pos("1W1/3/1W1/2W1BB/3/3/BB1 b 0 0 0 30"), 1);
}

/// Strong side: the four junctions and three more; weak side: four pieces.
/// Neither has a mill to close.
const STRONG: [&str; 7] = ["d2", "b4", "d6", "f4", "a1", "g7", "c5"];
const WEAK: [&str; 4] = ["e3", "g1", "a7", "e5"];

/// A quiet slide of the side to move that can be slid back, and its reverse.
fn shuffle(pos: &Position, rules: &Rules) -> (Move, Move) {
    for mv in legal(pos, rules) {
        let (Some(from), 0) = (mv.from(), mv.num_removals()) else {
            continue;
        };
        let back = Move::slide(mv.to().unwrap(), from);
        // The reverse must still be quiet after any reply that is itself a shuffle.
        let after = pos.make(rules, mv).pass();
        if legal(&after, rules).contains(&back) {
            return (mv, back);
        }
    }
    panic!("no shuffle move");
}

/// Both sides shuffle until black, to move, can repeat the position a
/// third time with `back`.
fn repetition_game(black_strong: bool) -> (Game, Move) {
    let rules = Rules::default();
    let (w, b): (&[&str], &[&str]) = if black_strong {
        (&WEAK, &STRONG)
    } else {
        (&STRONG, &WEAK)
    };
    let mut game = Game::new(rules, board(w, b, Color::White));
    let (w_go, w_back) = shuffle(game.position(), &rules);
    let after = game.position().make(&rules, w_go);
    let (b_go, b_back) = shuffle(&after, &rules);
    for mv in [w_go, b_go, w_back, b_back, w_go, b_go, w_back] {
        game.play(mv);
    }
    assert!(game.outcome().is_none());
    let mut probe = game.clone();
    probe.play(b_back);
    assert_eq!(probe.occurrences(), 3);
    (game, b_back)
}

#[test]
fn winning_side_avoids_threefold_repetition() {
    let (game, repeat) = repetition_game(true);
    let (out, _) = run(&game, Settings::default(), &depth(5));
    assert_ne!(out.best, Some(repeat));
    assert!(
        matches!(out.score, Score::Cp(s) if s > 100)
            || matches!(out.score, Score::Mate(n) if n > 0)
    );
}

#[test]
fn losing_side_steers_into_threefold_repetition() {
    let (game, repeat) = repetition_game(false);
    let (out, _) = run(&game, Settings::default(), &depth(5));
    assert_eq!(out.best, Some(repeat));
    assert_eq!(out.score, Score::Cp(0));
}

#[test]
fn root_drawn_by_move_count_still_moves_and_scores_zero() {
    let rules = Rules::default();
    let pos = Position::new(
        [bb(&STRONG), bb(&WEAK)],
        [0, 0],
        Color::White,
        rules.no_capture_moves,
        80,
        [0, 0],
    );
    let game = Game::new(rules, pos);
    assert!(game.outcome().is_some_and(|o| o.reason.is_counting_rule()));
    let (out, infos) = run(&game, Settings::default(), &depth(4));
    assert!(legal(&pos, &rules).contains(&out.best.unwrap()));
    assert_eq!(out.score, Score::Cp(0));
    assert!(!infos.is_empty() && infos.iter().all(|i| i.score == Score::Cp(0)));
}

#[test]
fn blocked_root_returns_no_move() {
    let rules = Rules::default();
    let pos = board(
        &["a1", "a7", "g1", "g7"],
        &["a4", "d1", "d7", "g4"],
        Color::White,
    );
    let game = Game::new(rules, pos);
    let (out, infos) = run(&game, Settings::default(), &depth(5));
    assert_eq!(out.best, None);
    assert_eq!(out.score, Score::Mate(0));
    assert!(infos.is_empty());
}

fn midgame() -> Game {
    let mut game = fen_game(morris::rules::START_FEN);
    for m in ["d2", "d6", "b4", "f4", "d3", "d5", "c4"] {
        game.play_text(m).unwrap();
    }
    game
}

#[test]
fn fixed_depth_and_nodes_are_deterministic() {
    let game = midgame();
    let (a, _) = run(&game, Settings::default(), &depth(7));
    let (b, _) = run(&game, Settings::default(), &depth(7));
    assert_eq!(a, b);
    let nodes = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let (a, _) = run(&game, Settings::default(), &nodes);
    let (b, _) = run(&game, Settings::default(), &nodes);
    assert_eq!(a, b);
    assert_eq!(a.nodes, 20_000);
    // A cleared searcher answers as a new one.
    let mut s = Searcher::new(Settings::default());
    let control = Control::default();
    s.search(
        &game,
        ExactKnowledge::NONE,
        &depth(6),
        &control,
        &mut |_| {},
    );
    s.clear();
    let again = s.search(
        &game,
        ExactKnowledge::NONE,
        &depth(7),
        &control,
        &mut |_| {},
    );
    let (fresh, _) = run(&game, Settings::default(), &depth(7));
    assert_eq!(again, fresh);
}

#[test]
fn reports_every_depth_and_multipv_line_with_legal_pvs() {
    let game = midgame();
    let settings = Settings {
        multipv: 3,
        ..Settings::default()
    };
    let (out, infos) = run(&game, settings, &depth(5));
    for d in 1..=5 {
        let lines: Vec<&Info> = infos.iter().filter(|i| i.depth == d).collect();
        assert_eq!(lines.len(), 3, "depth {d}");
        for (k, i) in lines.iter().enumerate() {
            assert_eq!(i.multipv, k as u32 + 1);
            assert!(!i.pv.is_empty() && i.seldepth >= d);
        }
        assert!(lines[0].pv[0] != lines[1].pv[0] && lines[1].pv[0] != lines[2].pv[0]);
    }
    for i in &infos {
        assert_pv_legal(&game, &i.pv);
    }
    assert_eq!(out.best, Some(infos[infos.len() - 3].pv[0]));
}

/// Every iteration's MultiPV lines come best first: a line searched later
/// in an iteration may score above an earlier one, and must then be
/// reported above it.
#[test]
fn multipv_lines_come_best_first_at_every_depth() {
    let rules = Rules::default();
    let settings = Settings {
        multipv: 3,
        ..Settings::default()
    };
    for moves in ["", "d2", "d2 d6 b4", "d7 d1", "c4 e4 d5 d3", "g1 a7 d6"] {
        let setup = Setup::new(
            Start::Initial,
            moves.split_whitespace().map(String::from).collect(),
        );
        let game = setup.game(&rules).unwrap();
        let (_, infos) = run(&game, settings, &depth(11));
        for d in 1..=11 {
            let cp: Vec<i32> = infos
                .iter()
                .filter(|i| i.depth == d)
                .map(|i| match i.score {
                    Score::Cp(cp) => cp,
                    Score::Mate(n) => n.signum() * 100_000 - n,
                })
                .collect();
            assert!(
                cp.windows(2).all(|w| w[0] >= w[1]),
                "{moves:?} depth {d}: {cp:?}"
            );
        }
    }
}

/// While placing, a search whose last ply is one side's placement sees
/// that side a piece further on: raw scores swung by about 85 cp between
/// consecutive depths on such openings. The reported scores must not.
#[test]
fn placement_scores_hold_steady_from_one_depth_to_the_next() {
    let rules = Rules::default();
    let (mut total, mut steps) = (0, 0);
    for moves in [
        "",
        "d2",
        "d2 d6",
        "d2 d6 b4",
        "a1 g7 d7",
        "c4 e4 d5 d3",
        "g1 a7 d6",
    ] {
        let setup = Setup::new(
            Start::Initial,
            moves.split_whitespace().map(String::from).collect(),
        );
        let game = setup.game(&rules).unwrap();
        let (_, infos) = run(&game, Settings::default(), &depth(10));
        let cp: Vec<i32> = infos
            .iter()
            .filter_map(|i| match i.score {
                Score::Cp(cp) => Some(cp),
                Score::Mate(_) => None,
            })
            .collect();
        assert_eq!(cp.len(), 10, "{moves:?}: one report a depth, none a mate");
        total += cp.windows(2).map(|w| (w[1] - w[0]).abs()).sum::<i32>();
        steps += cp.len() - 1;
    }
    let mean = total as f64 / steps as f64;
    assert!(mean < 30.0, "mean change between depths {mean:.1} cp");
}

#[test]
fn clock_and_movetime_are_respected() {
    let game = midgame();
    let clock = Limits {
        clock: Some(Clock {
            time: [1000, 1000],
            inc: [0, 0],
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let t = Instant::now();
    let (out, _) = run(&game, Settings::default(), &clock);
    assert!(out.best.is_some());
    assert!(
        t.elapsed() < Duration::from_millis(700),
        "{:?}",
        t.elapsed()
    );
    let movetime = Limits {
        movetime: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let t = Instant::now();
    let (out, _) = run(&game, Settings::default(), &movetime);
    assert!(out.best.is_some());
    assert!(
        t.elapsed() < Duration::from_millis(800),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn stop_ends_an_infinite_search_promptly_and_not_before() {
    let game = fen_game("1B1/3/1B1/2B1WW/3/3/WW1 w 0 0 0 30");
    let control = Control::default();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    std::thread::scope(|s| {
        let handle = s.spawn(|| {
            let mut searcher = Searcher::new(Settings::default());
            let out = searcher.search(&game, ExactKnowledge::NONE, &limits, &control, &mut |_| {});
            (out, Instant::now())
        });
        std::thread::sleep(Duration::from_millis(300));
        assert!(!handle.is_finished(), "returned before stop");
        let stopped = Instant::now();
        control.stop.store(true, Ordering::Relaxed);
        let (out, done) = handle.join().unwrap();
        assert!(done - stopped < Duration::from_millis(200));
        assert_eq!(out.score, Score::Mate(1));
    });
}

#[test]
fn ponder_waits_for_ponderhit_then_applies_limits() {
    let game = midgame();
    let control = Control::default();
    control.ponder.store(true, Ordering::Relaxed);
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    std::thread::scope(|s| {
        let handle = s.spawn(|| {
            let mut searcher = Searcher::new(Settings::default());
            searcher.search(&game, ExactKnowledge::NONE, &limits, &control, &mut |_| {})
        });
        std::thread::sleep(Duration::from_millis(300));
        assert!(!handle.is_finished(), "returned while pondering");
        let hit = Instant::now();
        control.ponder.store(false, Ordering::Relaxed);
        let out = handle.join().unwrap();
        assert!(hit.elapsed() < Duration::from_millis(500));
        assert!(out.best.is_some());
    });
}

#[test]
fn threads_and_skill_play_legal_moves() {
    let game = midgame();
    let rules = *game.rules();
    for settings in [
        Settings {
            threads: 2,
            ..Settings::default()
        },
        Settings {
            skill: 0,
            ..Settings::default()
        },
        Settings {
            skill: 10,
            multipv: 2,
            ..Settings::default()
        },
    ] {
        let (out, infos) = run(&game, settings, &depth(6));
        assert!(legal(game.position(), &rules).contains(&out.best.unwrap()));
        for i in &infos {
            assert_pv_legal(&game, &i.pv);
        }
    }
}

#[test]
fn self_play_smoke_game() {
    let rules = Rules::default();
    let mut game = Game::new(rules, Position::start(&rules));
    let mut searcher = Searcher::new(Settings::default());
    let control = Control::default();
    for _ in 0..300 {
        if game.outcome().is_some() {
            break;
        }
        let out = searcher.search(
            &game,
            ExactKnowledge::NONE,
            &depth(3),
            &control,
            &mut |_| {},
        );
        let mv = out.best.expect("a move in an unfinished game");
        assert!(legal(game.position(), &rules).contains(&mv));
        game.play(mv);
    }
}
