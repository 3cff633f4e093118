//! The harness that compares the production rules core with the naive
//! implementation of docs/rules.md Part II (`naive_sets`), through the
//! production's public API only and by text: legal turns as tokens, turns
//! played by token, FEN written and read back, outcomes, perft.

use super::Rng;
use super::naive_sets::{APP_SETS, ENGINE_SETS, Opts, Res, State};
use morris::rules::{Color, Game, GameResult, MoveList, Position, RuleOptionId, Rules};

/// Production variant names of the rule sets of docs/rules.md section 18:
/// (rule set, variant name). Every named variant must equal the base plus
/// the rule set's settings (`check_variant_name`).
pub const VARIANT_NAMES: [(&str, &str); 24] = [
    ("Nine Men's Morris", "nine-app"),
    ("Twelve Men's Morris", "twelve-app"),
    ("Morabaraba", "morabaraba-app"),
    ("Dooz", "dooz"),
    ("Lasker Morris", "lasker-app"),
    ("One-Time Mill", "onetime"),
    ("Cham Gonu", "chamgonu"),
    ("Zhi Qi", "zhiqi"),
    ("Cheng San Qi", "chengsanqi"),
    ("Da San Qi", "dasanqi"),
    ("Mul-Mulan", "mulmulan"),
    ("Nerenchi", "nerenchi"),
    ("El Filja", "elfilja"),
    // section 18.3: the engine's numbered table
    ("Nine Men's Morris", "table0"),
    ("Twelve Men's Morris", "table1"),
    ("Dooz (engine table)", "table2"),
    ("Morabaraba (engine table)", "table3"),
    ("Russian Mill (engine table)", "table4"),
    ("Lasker Morris", "table5"),
    ("Cheng San Qi (engine table)", "table6"),
    ("Da San Qi (engine table)", "table7"),
    ("Zhi Qi (engine table)", "table8"),
    ("El Filja", "table9"),
    ("Experimental (engine table)", "table10"),
];

/// Production rules for these options: the `nine` preset (docs/rules.md
/// 7.1), then every option of docs/rules.md section 12 set explicitly.
pub fn production(opts: &Opts) -> Rules {
    let settings = opts.settings();
    Rules::with_settings("nine", &settings)
        .unwrap_or_else(|e| panic!("production refuses {settings:?}: {e}"))
}

/// The named production variant, if it exists, has the same value for
/// every option as the explicit settings.
pub fn check_variant_name(set: &str) {
    let explicit = production(&super::naive_sets::named(set));
    let variants: Vec<&str> = VARIANT_NAMES
        .iter()
        .filter(|(n, _)| *n == set)
        .map(|(_, v)| *v)
        .collect();
    assert!(!variants.is_empty(), "{set} has no production variant name");
    for variant in variants {
        let named = Rules::with_settings(variant, &[] as &[&str])
            .unwrap_or_else(|e| panic!("variant {variant} of {set}: {e}"));
        for o in RuleOptionId::ALL {
            if o != RuleOptionId::Variant {
                assert_eq!(named.get(o), explicit.get(o), "{variant}: option {o}");
            }
        }
    }
}

pub fn all_set_names() -> Vec<&'static str> {
    APP_SETS
        .iter()
        .chain(ENGINE_SETS.iter())
        .map(|(n, _)| *n)
        .collect()
}

fn color(i: usize) -> Color {
    if i == 0 { Color::White } else { Color::Black }
}

fn result_of(r: Option<Res>) -> Option<GameResult> {
    r.map(|r| match r {
        Res::Win(c) => GameResult::Win(color(c)),
        Res::Draw => GameResult::Draw,
    })
}

/// Production's legal turns as sorted tokens.
pub fn tokens(rules: &Rules, pos: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    let mut out: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    out.sort();
    out
}

/// Compares one position (production `pos`, its game `outcome`) with the
/// naive state; an error says what differs.
pub fn compare(
    rules: &Rules,
    pos: &Position,
    outcome: Option<GameResult>,
    naive: &State,
    naive_turns: &[(String, State)],
) -> Result<(), String> {
    let want = result_of(naive.over);
    if outcome != want {
        return Err(format!("outcome: production {outcome:?}, naive {want:?}"));
    }
    if naive.over.is_some() {
        return Ok(());
    }
    let prod = tokens(rules, pos);
    let naive_tokens: Vec<String> = naive_turns.iter().map(|(t, _)| t.clone()).collect();
    if prod != naive_tokens {
        let extra: Vec<&String> = prod.iter().filter(|m| !naive_tokens.contains(m)).collect();
        let missing: Vec<&String> = naive_tokens.iter().filter(|m| !prod.contains(m)).collect();
        return Err(format!(
            "legal turns differ\n  production only: {extra:?}\n  naive only: {missing:?}\n  production: {prod:?}\n  naive: {naive_tokens:?}"
        ));
    }
    if pos.side_to_move() != color(naive.side) {
        return Err(format!(
            "side to move: production {:?}, naive {}",
            pos.side_to_move(),
            naive.side
        ));
    }
    for c in 0..2 {
        if pos.in_hand(color(c)) as u32 != naive.hand[c] {
            return Err(format!(
                "hand of {c}: production {}, naive {}",
                pos.in_hand(color(c)),
                naive.hand[c]
            ));
        }
    }
    let fen = pos.to_fen(rules);
    let board = fen.split_whitespace().next().unwrap_or("");
    let live = super::naive_sets::live_of_board_field(board);
    for (p, &l) in live.iter().enumerate() {
        let n = match naive.cells[p] {
            super::naive_sets::Cell::Live(c) => Some(c),
            _ => None,
        };
        if l != n {
            return Err(format!(
                "board: production {board}, naive {}",
                naive.board_text()
            ));
        }
    }
    Ok(())
}

/// The FEN round trip (section 3 of the brief): the position read back
/// from the written FEN writes the same FEN and has the same turns.
pub fn round_trip(rules: &Rules, pos: &Position) -> Result<Position, String> {
    let fen = pos.to_fen(rules);
    let back = Position::from_fen(&fen, rules).map_err(|e| format!("FEN {fen} refused: {e}"))?;
    if back.to_fen(rules) != fen {
        return Err(format!(
            "FEN round trip: wrote {fen}, read back writes {}",
            back.to_fen(rules)
        ));
    }
    if tokens(rules, &back) != tokens(rules, pos) {
        return Err(format!(
            "FEN round trip {fen}: turns {:?} became {:?}",
            tokens(rules, pos),
            tokens(rules, &back)
        ));
    }
    Ok(back)
}

/// Totals over a batch of games.
#[derive(Default, Debug)]
pub struct Stats {
    pub games: usize,
    pub turns: usize,
    pub setups: usize,
    pub removal_only: usize,
    pub marks: usize,
    pub hand_removals: usize,
    pub captures: usize,
    pub blocked: usize,
    pub full_boards: usize,
    pub lost_removals: usize,
    pub endings: std::collections::BTreeMap<String, usize>,
}

fn fail(label: &str, seed: u64, history: &[String], fen: &str, detail: String) -> ! {
    panic!(
        "{label}: mismatch\n  seed: {seed}\n  turns: {}\n  fen: {fen}\n  {detail}",
        history.join(" ")
    );
}

/// Plays `games` seeded random games under `opts`, production and naive
/// side by side, comparing every position; from time to time the
/// production FEN is read back and both sides go on from there for a
/// few turns (set-up positions).
pub fn play_games(label: &str, opts: &Opts, games: usize, seed_base: u64) -> Stats {
    let mut stats = Stats::default();
    for g in 0..games {
        play_game(label, opts, seed_base * 1_000_003 + g as u64, &mut stats);
    }
    println!("{label}: {stats:?}");
    stats
}

/// One seeded random game of `play_games`, counted in `stats`.
pub fn play_game(label: &str, opts: &Opts, seed: u64, stats: &mut Stats) {
    let rules = production(opts);
    let mut rng = Rng::new(seed);
    // removal bias: to reach endgames; quiet bias: to fill the board
    let removal_bias = *rng.pick(&[0, 0, 30, 70, 100]);
    let quiet_bias = if rng.chance(35) { 95 } else { 0 };
    let max_turns = rng.range(60, 250) as usize;
    let mut naive = State::new(*opts);
    let mut game = Game::new(rules, Position::start(&rules));
    let mut history: Vec<String> = Vec::new();
    stats.games += 1;
    loop {
        let pos = *game.position();
        let fen = pos.to_fen(&rules);
        let outcome = game.outcome().map(|o| o.result);
        let turns = naive.turns();
        compare(&rules, &pos, outcome, &naive, &turns)
            .unwrap_or_else(|d| fail(label, seed, &history, &fen, d));
        if let Some(r) = naive.over {
            *stats.endings.entry(format!("{r:?}")).or_default() += 1;
            break;
        }
        if history.len() >= max_turns {
            *stats.endings.entry("cap".to_string()).or_default() += 1;
            break;
        }
        let back =
            round_trip(&rules, &pos).unwrap_or_else(|d| fail(label, seed, &history, &fen, d));
        if rng.chance(3) {
            stats.setups += 1;
            continue_setup(label, seed, &rules, &back, &naive, &history, &mut rng);
        }
        let i = pick_turn(&turns, &mut rng, removal_bias, quiet_bias);
        let (token, next) = turns[i].clone();
        let mv = pos
            .parse_move(&rules, &token)
            .unwrap_or_else(|e| fail(label, seed, &history, &fen, format!("parse {token}: {e}")));
        if mv.to_string() != token {
            fail(
                label,
                seed,
                &history,
                &fen,
                format!("{token} parses to {mv}"),
            );
        }
        game.play(mv);
        let e = next.events;
        stats.turns += 1;
        stats.removal_only += e.removal_only as usize;
        stats.marks += e.mark as usize;
        stats.hand_removals += e.hand_removal as usize;
        stats.captures += (e.custodian || e.intervention || e.leap) as usize;
        stats.blocked += e.blocked as usize;
        stats.full_boards += e.full_board as usize;
        stats.lost_removals += e.lost_removal as usize;
        naive = next;
        history.push(token);
    }
}

/// A set-up position: production's read-back position and the naive
/// state go on together for a few random turns, without the game's
/// history (so without its draw records, as a set-up has none).
fn continue_setup(
    label: &str,
    seed: u64,
    rules: &Rules,
    back: &Position,
    naive: &State,
    history: &[String],
    rng: &mut Rng,
) {
    let mut pos = *back;
    let mut n = naive.clone();
    n.records.clear();
    let mut game = Game::new(*rules, pos);
    let mut moves = history.to_vec();
    moves.push("(set-up)".to_string());
    for _ in 0..6 {
        let fen = pos.to_fen(rules);
        let turns = n.turns();
        compare(rules, &pos, game.outcome().map(|o| o.result), &n, &turns)
            .unwrap_or_else(|d| fail(label, seed, &moves, &fen, d));
        if n.over.is_some() {
            return;
        }
        let (token, next) = turns[rng.below(turns.len())].clone();
        let mv = pos
            .parse_move(rules, &token)
            .unwrap_or_else(|e| fail(label, seed, &moves, &fen, format!("parse {token}: {e}")));
        game.play(mv);
        pos = *game.position();
        n = next;
        moves.push(token);
    }
}

/// Plays `tokens` from the start on both sides (each must be a turn of
/// both) and returns the positions reached.
pub fn reach(opts: &Opts, tokens: &[String]) -> (Position, State) {
    let rules = production(opts);
    let mut pos = Position::start(&rules);
    let mut naive = State::new(*opts);
    naive.draws = false;
    for t in tokens {
        let mv = pos
            .parse_move(&rules, t)
            .unwrap_or_else(|e| panic!("production refuses {t} after {tokens:?}: {e}"));
        pos = pos.make(&rules, mv);
        naive.play(t);
    }
    (pos, naive)
}

/// Finds, by seeded random naive play, the turns leading to a position
/// that satisfies `want` (looking at the state and the turns that lead
/// there); None if none of `tries` games reaches one.
pub fn find_position(
    opts: &Opts,
    seed: u64,
    tries: usize,
    want: &dyn Fn(&State, &[String]) -> bool,
) -> Option<Vec<String>> {
    for t in 0..tries {
        let mut rng = Rng::new(seed * 7919 + t as u64);
        let removal_bias = *rng.pick(&[0, 30, 70]);
        let quiet_bias = if rng.chance(30) { 95 } else { 0 };
        let mut s = State::new(*opts);
        s.draws = false;
        let mut history = Vec::new();
        for _ in 0..200 {
            if s.over.is_some() {
                break;
            }
            if want(&s, &history) {
                return Some(history);
            }
            let turns = s.turns();
            if turns.is_empty() {
                break;
            }
            let i = pick_turn(&turns, &mut rng, removal_bias, quiet_bias);
            let (token, next) = turns[i].clone();
            history.push(token);
            s = next;
        }
    }
    None
}

/// The 24 placements of docs/rules.md 19.3 (example 3), alternating
/// White and Black: a full board without any complete line.
pub fn full_board_no_mill() -> Vec<String> {
    let w = [
        "a1", "a7", "b4", "c4", "c5", "d2", "d6", "e3", "e5", "f6", "g1", "g4",
    ];
    let mut b: Vec<&str> = Vec::new();
    for (_, l) in super::naive_sets::LINES.iter() {
        for p in l {
            if !w.contains(p) && !b.contains(p) {
                b.push(p);
            }
        }
    }
    assert_eq!(b.len(), 12);
    (0..12)
        .flat_map(|i| [w[i].to_string(), b[i].to_string()])
        .collect()
}

/// Plays `turns` (space-separated) from the start on both sides,
/// comparing every position on the way and the one reached.
pub fn replay(label: &str, settings: &[&str], turns: &str) -> Result<(), String> {
    let opts = Opts::with(settings);
    let rules = production(&opts);
    let mut naive = State::new(opts);
    let mut game = Game::new(rules, Position::start(&rules));
    for (i, token) in turns.split_whitespace().chain([""]).enumerate() {
        let pos = *game.position();
        let naive_turns = naive.turns();
        compare(
            &rules,
            &pos,
            game.outcome().map(|o| o.result),
            &naive,
            &naive_turns,
        )
        .map_err(|d| format!("{label}, after {i} turns ({}): {d}", pos.to_fen(&rules)))?;
        if token.is_empty() {
            break;
        }
        let mv = pos
            .parse_move(&rules, token)
            .map_err(|e| format!("{label}: production refuses {token}: {e}"))?;
        game.play(mv);
        naive.play(token);
    }
    Ok(())
}

/// A random turn of `turns` (token first), biased: one with removals with
/// `removal_bias` percent, else a quiet one with `quiet_bias` percent, else
/// any.
fn pick_turn<T>(turns: &[(String, T)], rng: &mut Rng, removal_bias: u64, quiet_bias: u64) -> usize {
    let removing: Vec<usize> = (0..turns.len())
        .filter(|&i| turns[i].0.contains('x'))
        .collect();
    let quiet: Vec<usize> = (0..turns.len())
        .filter(|&i| !turns[i].0.contains('x'))
        .collect();
    if !removing.is_empty() && rng.chance(removal_bias) {
        *rng.pick(&removing)
    } else if !quiet.is_empty() && rng.chance(quiet_bias) {
        *rng.pick(&quiet)
    } else {
        rng.below(turns.len())
    }
}
