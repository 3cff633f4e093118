//! scripts/blind-spots.sh on a suite of the reduced game of `Pieces` 4:
//! positions along a game with their value-keeping moves from the game's
//! tables; each verdict checked against the move the engine printed, and
//! each set's count against the verdicts. scripts/critical-positions.sh
//! on the same game: each position it finds checked against the tables.

use crate::common::{game_tables, script};

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::OnceLock;

use morris::rules::{Game, Position};
use morris::tablebase::Tablebases;

/// Pieces=4 tables, made once.
fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| game_tables::made("blind-spots-4", &game_tables::reduced(4)))
}

#[test]
fn the_suite_counts_the_moves_that_keep_the_value_in_each_set() {
    let rules = game_tables::reduced(4);
    let tbs = Tablebases::open(tables(), &rules);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("blind-spots-4-out");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();

    // Positions along one game, each with the moves keeping its value.
    let mut game = Game::new(rules, Position::start(&rules));
    let mut suite = String::from("# set, rules, position, moves, found\n");
    let mut expected = Vec::new();
    let mut some_lose = false;
    for ply in 0..16 {
        if game.outcome().is_some() {
            break;
        }
        let value = tbs.probe(game.position()).unwrap().value;
        let moves = tbs.moves(game.position()).unwrap();
        let keeping: Vec<String> = moves
            .iter()
            .filter(|m| m.probe.value == value)
            .map(|m| m.mv.to_string())
            .collect();
        some_lose |= keeping.len() < moves.len();
        let set = if ply % 3 == 2 { "held-out" } else { "tune" };
        let fen = game.position().to_fen(&rules);
        suite += &format!(
            "{set}\tpublished,Pieces=4\t{fen}\t{}\tply {ply}\n",
            keeping.join(" ")
        );
        let legal: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
        expected.push((set, fen, keeping, legal));
        game.play(moves[(ply * 5) % moves.len()].mv);
    }
    assert!(some_lose && expected.len() >= 8, "{suite}");
    let file = out.join("suite.txt");
    std::fs::write(&file, &suite).unwrap();

    let suite_vars = |set: &'static str| {
        [
            ("SUITE", file.as_os_str()),
            ("NODES", OsStr::new("3000")),
            ("SET", OsStr::new(set)),
            ("MORRIS_TB_AUTO", OsStr::new("0")),
            ("OUT", out.as_os_str()),
        ]
    };
    let run = script("blind-spots.sh", &suite_vars("all"), "");
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let lines: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("kept  ") || l.starts_with("lost  "))
        .collect();
    assert_eq!(lines.len(), expected.len(), "{report}");
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (line, (set, fen, keeping, legal)) in lines.iter().zip(&expected) {
        let (head, _) = line.rsplit_once(" (keeping: ").expect(line);
        let (position, played) = head.rsplit_once(": ").expect(line);
        assert!(position.ends_with(fen.as_str()), "{line}");
        assert!(legal.contains(&played.to_string()), "{line}");
        let kept = keeping.contains(&played.to_string());
        assert_eq!(line.starts_with("kept"), kept, "{line}");
        let count = counts.entry(set).or_default();
        count.0 += usize::from(kept);
        count.1 += 1;
    }
    let (mut all_kept, mut all) = (0, 0);
    for (set, (kept, total)) in &counts {
        assert!(
            report.contains(&format!("kept {kept} of {total} ({set}), ")),
            "{report}"
        );
        all_kept += kept;
        all += total;
    }
    assert!(
        report.contains(&format!(
            "kept {all_kept} of {all} (all, 3000 nodes a move)"
        )),
        "{report}"
    );

    // Only the held-out set, when asked.
    let run = script("blind-spots.sh", &suite_vars("held-out"), "");
    let report = String::from_utf8_lossy(&run.stdout);
    let held_out = counts["held-out"].1;
    assert!(
        report.contains(&format!("of {held_out} (all, ")) && !report.contains("(tune)"),
        "{report}"
    );
}

#[test]
fn critical_positions_are_those_few_moves_keep_as_the_tables_say() {
    let rules = game_tables::reduced(4);
    let tbs = Tablebases::open(tables(), &rules);
    let vars = [
        ("TABLES", tables().as_os_str()),
        ("RULE_OPTIONS", OsStr::new("Pieces=4")),
        ("GAMES", OsStr::new("12")),
        ("FROM", OsStr::new("4")),
        ("TO", OsStr::new("20")),
        ("MAX_KEEPING", OsStr::new("2")),
        ("MIN_LEGAL", OsStr::new("5")),
    ];
    let run = script("critical-positions.sh", &vars, "");
    let suite = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{suite}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut found = 0;
    for line in suite.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert!(["tune", "held-out"].contains(&fields[0]), "{line}");
        assert_eq!(fields[1], "published,Pieces=4", "{line}");
        let pos = Position::from_fen(fields[2], &rules).unwrap();
        let value = tbs.probe(&pos).unwrap().value;
        assert_ne!(value, morris::tablebase::Value::Loss, "{line}");
        let moves = tbs.moves(&pos).unwrap();
        let mut keeping: Vec<String> = moves
            .iter()
            .filter(|m| m.probe.value == value)
            .map(|m| m.mv.to_string())
            .collect();
        let mut listed: Vec<String> = fields[3].split(' ').map(str::to_string).collect();
        keeping.sort();
        listed.sort();
        assert_eq!(listed, keeping, "{line}");
        assert!(keeping.len() <= 2 && moves.len() >= 5, "{line}");
        found += 1;
    }
    assert!(found > 0, "{}", String::from_utf8_lossy(&run.stderr));
    let said = format!("critical-positions.sh: {found} positions from 12 games");
    assert!(String::from_utf8_lossy(&run.stderr).contains(&said));
}
