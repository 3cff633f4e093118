//! `morris analyze`: records and position lists in, one analysis per
//! position out; bad input named by line.

use std::process::Output;

use crate::common;

fn analyze(args: &[&str], stdin: &str) -> Output {
    let tables = std::env::temp_dir().join("morris-test-tb-analyze");
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    common::morris_with_input(
        &all,
        &[
            ("MORRIS_TB_DIR", tables.as_os_str()),
            ("MORRIS_TB_AUTO", "0".as_ref()),
        ],
        stdin,
    )
}

/// The positions' JSON objects (the games' summaries left out).
fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    json_objects(out)
        .into_iter()
        .filter(|v| v.get("summary").is_none())
        .collect()
}

/// The games' summaries.
fn summaries(out: &Output) -> Vec<serde_json::Value> {
    json_objects(out)
        .into_iter()
        .filter(|v| v.get("summary").is_some())
        .collect()
}

fn json_objects(out: &Output) -> Vec<serde_json::Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// White threatens the mill b2-d2-f2; black ignores it (g1 instead of the
/// block f2) and white closes it, removing a piece. Under rules no built-in
/// book serves (a 50-ply limit), so that the search judges the opening.
const BLUNDER: &str = r#"[Event "blunder"]
[White "w"]
[Black "b"]
[Result "*"]
[NoCaptureMoves "50"]

1. d2 a7 2. b2 g1 3. f2xa7 *
"#;

#[test]
fn analyze_marks_a_blundered_move() {
    let out = analyze(&["--depth", "4", "--json"], BLUNDER);
    let lines = json_lines(&out);
    // After the game its summary: no exact values under these rules.
    let summary = json_objects(&out).pop().unwrap();
    assert_eq!(summary["summary"]["plies"], 5, "{summary}");
    assert_eq!(summary["summary"]["judged"], 0, "{summary}");
    assert_eq!(lines.len(), 5);
    let loss = |i: usize| lines[i]["loss"].as_i64().unwrap();
    let blunder = &lines[3];
    assert_eq!(blunder["played"], "g1");
    assert_eq!(blunder["best"], "f2", "{blunder}");
    assert!(
        blunder["mark"] == "?" || blunder["mark"] == "??",
        "{blunder}"
    );
    assert!((0..5).all(|i| i == 3 || loss(i) < loss(3)), "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|l| l["mark"] != "??" || l["played"] == "g1")
    );
    // The text form shows the same mark after the move.
    let text = analyze(&["--depth", "4"], BLUNDER);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("2... g1 ?"), "{text}");
}

#[test]
fn analyze_reads_record_games_and_position_lists() {
    let out = analyze(&["--depth", "1", "--json"], BLUNDER);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 5);
    assert_eq!(summaries(&out).len(), 1);
    assert_eq!(lines[0]["source"], "game 1");
    assert_eq!(lines[1]["move_number"], "1...");
    assert_eq!(lines[4]["played"], "f2xa7");
    assert!(
        lines
            .iter()
            .all(|l| l["best"].is_string() && l["score"].is_object())
    );

    let list =
        "# a comment line\n\nd2 d6\n3/3/3/6/3/3/3 b 9 9 0 1\n3/3/3/6/3/3/3 w 9 9 0 1 moves d2\n";
    let out = analyze(&["--depth", "1", "--json", "--multipv", "2"], list);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["source"], "line 3");
    assert_eq!(lines[1]["fen"], "3/3/3/6/3/3/3 b 9 9 0 1");
    assert!(lines[2]["played"].is_null() && lines[2]["loss"].is_null());

    // A finished game is reported as such.
    let over = analyze(
        &["--json", "--depth", "1", "--option", "Pieces=3"],
        "W2/W2/W2/6/3/B2/B2 b 0 0 0 9\n",
    );
    let lines = json_lines(&over);
    assert!(
        lines[0]["game_over"]
            .as_str()
            .unwrap()
            .contains("white wins"),
        "{lines:?}"
    );
}

#[test]
fn analyze_rejects_bad_input_naming_the_line() {
    let cases = [
        ("d2 d6\nd2 d2\n", "line 2: move 'd2': d2 is occupied"),
        (
            "3/3/3/6/3/3/3 w 9 9 0 1\n3/3/3/x/3/3/3 w 9 9 0 1\n",
            "line 2: bad position string",
        ),
        ("[White \"a\"]\n\n1. d2 d2 *\n", "line 3: move 'd2'"),
        ("[White \"a\"\n", "line 1: a tag pair"),
        ("\n", "no positions"),
    ];
    for (input, why) in cases {
        let out = analyze(&["--depth", "1"], input);
        assert!(!out.status.success(), "{input}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{input}: {err}");
    }
}

/// The bare move lists of other mill programs: numbered moves, removals as
/// tokens of their own, points in upper case; no tag pairs.
#[test]
fn reads_other_programs_move_lists() {
    let theirs = "1.    A1    D6\n2.    a4    f6\n3.    a7    x d6\n4.    b6    B4\n";
    let ours = "[Event \"e\"]\n\n1. a1 d6 2. a4 f6 3. a7xd6 b6\n";
    let played = |text: &str| -> Vec<String> {
        json_lines(&analyze(&["--depth", "1", "--json"], text))
            .iter()
            .map(|v| v["played"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(played(theirs)[..6], played(ours)[..]);
    assert_eq!(played(theirs).len(), 7);
    let bad = analyze(&["--depth", "1"], "1. a1 d6 2. a4 xd6\n");
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("line 1"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

/// Under the published solutions' rules and under the default ones, with
/// no tables at all, the built-in opening books mark the first-plies moves that change the
/// value, as the book itself values the moves.
#[test]
fn analyze_marks_opening_moves_by_the_built_in_book() {
    let published = ["EndgameMoves=0", "NoCaptureMoves=0"];
    let tags = "[EndgameMoves \"0\"]\n[NoCaptureMoves \"0\"]\n";
    // 2. d1 gives up the draw (the book's word, checked by tests/book.rs).
    assert_eq!(opening_marks(&published, tags), 1);
    // The record without tags: the default rules, from their own book; 2.
    // d1 loses under them too.
    assert_eq!(opening_marks(&[], ""), 1);
}

/// Analyses `1. d2 d6 2. d1` under the rules `settings` (written as the
/// record's tags `tags`), checks each move's mark against the built-in
/// book, and returns how many moves were marked.
fn opening_marks(settings: &[&str], tags: &str) -> usize {
    use morris::rules::{Game, Position, Rules};
    use morris::tablebase::book;
    use morris::tablebase::preference;

    let record = format!("{tags}\n1. d2 d6 2. d1 *\n");
    let out = analyze(&["--depth", "2", "--json"], &record);
    let lines = json_lines(&out);
    let summary = &summaries(&out)[0];
    assert_eq!(lines.len(), 3);
    let rules = Rules::with_settings("nine", settings).unwrap();
    let book = book::builtin().serving(&rules).expect("a built-in book");
    let mut game = Game::new(rules, Position::start(&rules));
    let word = |p: morris::tablebase::Probe| format!("{:?}", p.value).to_lowercase();
    let mut marked = 0;
    for (line, played) in lines.iter().zip(["d2", "d6", "d1"]) {
        let pos = *game.position();
        let moves = book.moves(&pos, &rules).expect("in the book");
        let best = moves.iter().map(|m| m.probe).max_by_key(|&p| preference(p));
        let mv = pos.parse_move(&rules, played).unwrap();
        let after = moves.iter().find(|m| m.mv == mv).unwrap().probe;
        let best = best.unwrap();
        let expected =
            (best.value != after.value).then(|| format!("{} -> {}", word(best), word(after)));
        assert_eq!(line["played"], played);
        assert_eq!(line["value_change"].as_str(), expected.as_deref(), "{line}");
        // The exact values: the book's, before and after, and the moves
        // keeping the value.
        let exact = &line["exact"];
        assert_eq!(exact["source"], "book", "{line}");
        assert_eq!(exact["before"]["value"], word(best), "{line}");
        assert_eq!(exact["after"]["value"], word(after), "{line}");
        let (_, keeping) = common::book_values(&pos, &rules);
        let mut listed: Vec<String> = exact["keeping"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        listed.sort();
        assert_eq!(listed, keeping, "{line}");
        assert_eq!(exact["legal"], moves.len(), "{line}");
        let only = keeping.len() == 1 && moves.len() >= 5 && expected.is_none();
        assert_eq!(line["mark"] == "!", only, "{line}");
        marked += expected.is_some() as usize;
        game.play(mv);
    }
    // The summary names the value-losing moves, each side's, and the
    // last of them as the one that decided the game.
    let s = &summary["summary"];
    assert_eq!(
        (s["judged"].as_u64(), s["plies"].as_u64()),
        (Some(3), Some(3)),
        "{summary}"
    );
    let named = s["white"].as_array().unwrap().len() + s["black"].as_array().unwrap().len();
    assert_eq!(named, marked, "{summary}");
    if marked > 0 {
        assert_eq!(s["white"][0], "2. d1 (draw -> loss)", "{summary}");
        assert_eq!(s["decided_ply"], 3, "{summary}");
    }
    marked
}

/// `--out` writes each game with its analysis in the moves' comments, in
/// our dialect or Sanmill's, read back to the same moves.
#[test]
fn analyze_writes_annotated_records() {
    let dir = std::env::temp_dir().join(format!("morris-analyze-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = "[White \"w\"]\n[Black \"b\"]\n\n1. d2 {kept} d6 2. d1 *\n";
    for (dialect, variant) in [("morris", "nine"), ("sanmill", "nine")] {
        let path = dir.join(format!("{dialect}.pgn"));
        let out = analyze(
            &[
                "--depth",
                "2",
                "--out",
                path.to_str().unwrap(),
                "--out-dialect",
                dialect,
            ],
            record,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let written = std::fs::read_to_string(&path).unwrap();
        let records = morris::tools::parse_records(&written).unwrap();
        assert_eq!(records.len(), 1, "{written}");
        let r = &records[0];
        assert_eq!(r.tag("Variant"), Some(variant), "{written}");
        assert_eq!(r.tag("White"), Some("w"));
        let moves: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["d2", "d6", "d1"], "{written}");
        let comments: Vec<&str> = r
            .moves
            .iter()
            .map(|m| m.comment.as_deref().unwrap())
            .collect();
        // The record's own comment is kept; the book's values follow.
        assert!(
            comments[0].starts_with("kept; draw -> draw (book)"),
            "{written}"
        );
        assert!(
            comments[2].starts_with("?? draw -> loss (book)"),
            "{written}"
        );
        r.replay().unwrap();
    }
    let lists = analyze(
        &["--depth", "1", "--out", dir.join("x.pgn").to_str().unwrap()],
        "d2\n",
    );
    assert!(!lists.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}
