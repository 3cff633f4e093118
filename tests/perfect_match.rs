//! scripts/perfect-match.sh on the reduced game of `Pieces` 4 (a draw
//! from the start): the shipped engine against the perfect player that
//! sets traps, from the game's tables, then each part's games counted and
//! the report read.

use crate::common::{game_tables, morris_with_input, script};

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;

/// Games in a record file.
fn games(record: &std::path::Path) -> usize {
    std::fs::read_to_string(record)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("[Result "))
        .count()
}

/// Games of a record file that the engine named `shipped` lost.
fn lost_by_shipped(record: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(record).unwrap_or_default();
    let (mut white, mut lost) = (String::new(), 0);
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("[White \"") {
            white = name.trim_end_matches("\"]").to_string();
        } else if let Some(result) = line.strip_prefix("[Result \"") {
            let shipped_white = white == "shipped";
            lost += match result.trim_end_matches("\"]") {
                "0-1" => usize::from(shipped_white),
                "1-0" => usize::from(!shipped_white),
                _ => 0,
            };
        }
    }
    lost
}

#[test]
fn the_match_plays_every_game_of_both_parts_and_reports_them() {
    let missing: Vec<&str> = ["jq", "shuf"]
        .into_iter()
        .filter(|tool| {
            Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .output()
                .map_or(true, |o| !o.status.success())
        })
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "WARNING: the perfect-match script test did not run: {} missing \
             (apt-get install jq coreutils)",
            missing.join(", ")
        );
        return;
    }
    let tables = game_tables::made("perfect-match-4", &game_tables::reduced(4));
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-match-4-out");
    let _ = std::fs::remove_dir_all(&out);
    let vars = [
        ("TABLES", tables.as_os_str()),
        ("RULE_OPTIONS", OsStr::new("Pieces=4")),
        ("GAMES", OsStr::new("1")),
        ("MIDDLE", OsStr::new("4")),
        ("NODES", OsStr::new("2000")),
        ("MAX_PLIES", OsStr::new("24")),
        ("CONCURRENCY", OsStr::new("2")),
        ("MORRIS_TB_AUTO", OsStr::new("0")),
        ("POLICY", OsStr::new("trap")),
        ("OUT", out.as_os_str()),
    ];
    let run = script("perfect-match.sh", &vars, "");
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(games(&out.join("start.pgn")), 2, "{report}");
    // Two middle-game positions, each played with both colours.
    let positions = std::fs::read_to_string(out.join("middle.txt")).unwrap();
    assert_eq!(positions.lines().count(), 2, "{positions}");
    assert_eq!(games(&out.join("middle.pgn")), 4, "{report}");
    for part in ["from the start: 2 games", "from the middle: 4 games"] {
        assert!(report.contains(part), "{report}");
    }
    assert!(report.contains("perfect side: trap"), "{report}");
    for line in [
        "values thrown away by the shipped engine: ",
        "games lost by the shipped engine: ",
    ] {
        assert_eq!(report.matches(line).count(), 2, "{report}");
    }
    // The summaries' losses, as counted from the records.
    let lost: usize = ["start.pgn", "middle.pgn"]
        .iter()
        .map(|part| lost_by_shipped(&out.join(part)))
        .sum();
    let reported: usize = report
        .lines()
        .filter_map(|l| l.strip_prefix("games lost by the shipped engine: "))
        .map(|n| n.parse::<usize>().unwrap())
        .sum();
    assert_eq!(reported, lost, "{report}");
    // Every record names the reduced game's rules, which the referee read.
    let start = std::fs::read_to_string(out.join("start.pgn")).unwrap();
    assert!(start.contains("[Pieces \"4\"]"), "{start}");
    let refereed = std::fs::read_to_string(out.join("start.jsonl")).unwrap();
    assert!(refereed.lines().count() >= 2 * 10, "{refereed}");
}

/// The engine policy of scripts/perfect.sh, in drawn positions along
/// value-keeping games of `Pieces` 4: each move it plays keeps the draw,
/// and some lure the shallow search (3000 nodes, no tables, a new game)
/// into a reply that loses, as the tables say.
#[test]
fn the_engine_policy_keeps_the_draw_and_lures_the_shallow_search() {
    use morris::rules::{Game, Position};
    use morris::tablebase::{Tablebases, Value};

    let rules = game_tables::reduced(4);
    let tables = game_tables::made("perfect-policy-4", &rules);
    let tbs = Tablebases::open(&tables, &rules);
    let options = "setoption name Pieces value 4\nsetoption name EndgameMoves value 0\n\
                   setoption name NoCaptureMoves value 0\n";
    // The first word of an output's `bestmove` line.
    let best = |out: std::process::Output| {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = text.lines().find_map(|l| l.strip_prefix("bestmove "));
        let best = line.unwrap_or_else(|| panic!("no bestmove: {text}"));
        best.split(' ').next().unwrap().to_string()
    };
    let vars = [
        ("TABLES", tables.as_os_str()),
        ("POLICY", OsStr::new("engine")),
        ("TRAP_NODES", OsStr::new("3000")),
        ("SEED", OsStr::new("1")),
        ("MORRIS_TB_AUTO", OsStr::new("0")),
    ];
    let (mut lured, mut drawn) = (0, 0);
    for seed in 0..3usize {
        let mut game = Game::new(rules, Position::start(&rules));
        for ply in 0..30usize {
            if game.outcome().is_some() {
                break;
            }
            let value = tbs.probe(game.position()).unwrap().value;
            let moves = tbs.moves(game.position()).unwrap();
            let keeping: Vec<_> = moves.iter().filter(|m| m.probe.value == value).collect();
            if ply >= 8 && value == Value::Draw {
                drawn += 1;
                let fen = game.position().to_fen(&rules);
                let chosen = best(script(
                    "perfect.sh",
                    &vars,
                    &format!("uci\n{options}position fen {fen}\ngo\nquit\n"),
                ));
                assert!(
                    keeping.iter().any(|m| m.mv.to_string() == chosen),
                    "{fen}: {chosen} throws the draw away"
                );
                let reply = best(morris_with_input(
                    &[],
                    &vars[4..],
                    &format!(
                        "{options}setoption name TablebasePath value <empty>\n\
                         ucinewgame\nposition fen {fen} moves {chosen}\ngo nodes 3000\nquit\n"
                    ),
                ));
                let mut after = game.clone();
                after.play_text(&chosen).unwrap();
                if after.outcome().is_none() {
                    let replies = tbs.moves(after.position()).unwrap();
                    let r = replies.iter().find(|m| m.mv.to_string() == reply).unwrap();
                    lured += usize::from(r.probe.value == Value::Loss);
                }
            }
            game.play(keeping[(ply * 7 + seed * 3) % keeping.len()].mv);
        }
    }
    assert!(drawn >= 10 && lured > 0, "{lured} lured of {drawn}");
}

/// PLACEMENT under the default rules' move-count draws: the placement
/// phase alone, refereed on every ply by the compact solution of a
/// `Pieces` 4 game (its placement values hold at any clock).
#[test]
fn the_placement_match_is_refereed_by_the_compact_solution() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-placement-4");
    let out = dir.join("out");
    let _ = std::fs::remove_dir_all(&dir);
    let made = morris_with_input(
        &["tb", "generate", "--compact", "--option", "Pieces=4"],
        &[("MORRIS_TB_DIR", dir.as_os_str())],
        "",
    );
    assert!(made.status.success(), "{made:?}");
    let vars = [
        ("TABLES", dir.as_os_str()),
        ("RULES", OsStr::new("default")),
        ("RULE_OPTIONS", OsStr::new("Pieces=4")),
        ("GAMES", OsStr::new("1")),
        ("NODES", OsStr::new("2000")),
        ("PLACEMENT", OsStr::new("1")),
        ("MORRIS_TB_AUTO", OsStr::new("0")),
        ("POLICY", OsStr::new("trap")),
        ("OUT", out.as_os_str()),
    ];
    let run = script("perfect-match.sh", &vars, "");
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{run:?}");
    assert!(report.contains("from the start: 2 games"), "{report}");
    assert!(!report.contains("from the middle"), "{report}");
    let refereed = std::fs::read_to_string(out.join("start.jsonl")).unwrap();
    let mut plies = 0;
    for line in refereed.lines() {
        let object: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(ply) = object["ply"].as_u64() else {
            continue; // a game's summary
        };
        // Every ply of the placement phase (4 stones a side), refereed.
        assert!(ply <= 8, "{line}");
        assert_eq!(object["exact"]["source"], "tables", "{line}");
        plies += 1;
    }
    assert!(plies >= 2, "{refereed}");
    let records = std::fs::read_to_string(out.join("start.pgn")).unwrap();
    let adjudicated = records.matches("adjudicated a draw after 8 plies").count();
    let decisive =
        records.matches("[Result \"1-0\"]").count() + records.matches("[Result \"0-1\"]").count();
    assert_eq!(adjudicated + decisive, 2, "{records}");
}

/// Won positions of a compact solution (no distances) handed to the
/// perfect player: it converts each one, against the shipped engine
/// defending with the same tables, so that a value thrown away against it
/// is a game lost.
#[test]
fn the_perfect_player_converts_won_positions_of_the_compact_solution() {
    use crate::common::Rng;
    use morris::rules::{Game, MoveList, Position};
    use morris::tablebase::{Tablebases, Value};

    let rules = game_tables::reduced(5);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-convert-5");
    let _ = std::fs::remove_dir_all(&dir);
    let options = ["Pieces=5", "EndgameMoves=0", "NoCaptureMoves=0"];
    let mut generate = vec!["tb", "generate", "--compact"];
    for o in options {
        generate.extend(["--option", o]);
    }
    let made = morris_with_input(&generate, &[("MORRIS_TB_DIR", dir.as_os_str())], "");
    assert!(made.status.success(), "{made:?}");
    let tbs = Tablebases::open(&dir, &rules);
    // Won movement positions (side to move) along random games.
    let mut rng = Rng::new(7);
    let mut won = Vec::new();
    while won.len() < 8 {
        let mut game = Game::new(rules, Position::start(&rules));
        let mut list = MoveList::new();
        for ply in 0..30 {
            if game.outcome().is_some() {
                break;
            }
            let pos = *game.position();
            if ply >= 10 && tbs.probe(&pos).map(|p| p.value) == Some(Value::Win) {
                won.push(pos.to_fen(&rules));
                break;
            }
            game.legal_moves(&mut list);
            game.play(*rng.pick(list.as_slice()));
        }
    }
    let perfect = format!("cmd={}/scripts/perfect.sh", env!("CARGO_MANIFEST_DIR"));
    let shipped = format!("cmd={}", env!("CARGO_BIN_EXE_morris"));
    let tb_option = format!("option.TablebasePath={}", dir.display());
    for fen in &won {
        let mut args = vec![
            "match",
            "--engine",
            &perfect,
            "name=perfect",
            "--engine",
            &shipped,
            "name=shipped",
            &tb_option,
            "--fen",
            fen,
            "--nodes",
            "2000",
            "--games",
            "2",
            "--max-plies",
            "200",
        ];
        for o in options {
            args.extend(["--option", o]);
        }
        let vars = [
            ("TABLES", dir.as_os_str()),
            ("POLICY", OsStr::new("trap")),
            ("MORRIS", OsStr::new(env!("CARGO_BIN_EXE_morris"))),
            ("MORRIS_TB_AUTO", OsStr::new("0")),
        ];
        let run = morris_with_input(&args, &vars, "");
        let summary = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{summary}");
        // Game 1 has perfect as White, game 2 as Black: the winner's game
        // is the one where perfect is the side to move.
        let winner = if fen.split(' ').nth(1) == Some("w") {
            1
        } else {
            2
        };
        let line = summary
            .lines()
            .find(|l| l.starts_with(&format!("Game {winner} (")))
            .unwrap_or_else(|| panic!("no game {winner}: {summary}"));
        let result = if winner == 1 { "1-0" } else { "0-1" };
        assert!(
            line.contains(&format!("): {result}")),
            "{fen}: {line}\n{summary}"
        );
    }
}
