//! `morris match`: whole matches between real and fake engines, fault
//! handling, records read back, and the statistics on known results.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use morris::protocol::wire::Dialect;
use morris::rules::{GameResult, Rules};
use morris::tools::{
    EngineSpec, MatchConfig, Opening, Proto, Sprt, SprtDecision, Standings, Tally, TimeControl,
    parse_records, result_text,
};

const MORRIS: &str = env!("CARGO_BIN_EXE_morris");

fn fake(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines");
    format!("cmd={}", dir.join(name).display())
}

fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("morris-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `morris match` with the fake engines finding `morris` through $MORRIS.
fn run_match(args: &[&str]) -> Output {
    run_match_with_env(args, &[])
}

/// `run_match` with more environment for the engines.
fn run_match_with_env(args: &[&str], env: &[(&str, &Path)]) -> Output {
    let out = Command::new(MORRIS)
        .arg("match")
        .args(args)
        .envs(env.iter().copied())
        .env("MORRIS", MORRIS)
        // The engines are `morris` processes: away from the user's tables.
        .env(
            "MORRIS_TB_DIR",
            std::env::temp_dir().join("morris-test-tb-match"),
        )
        .env("MORRIS_TB_AUTO", "0")
        .output()
        .expect("morris runs");
    assert!(
        out.status.success(),
        "morris match failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("--json prints JSON")
}

/// Checks every game of a record file replays under the rules and, when it
/// ended by a rule, ends in the position that rule decides.
fn check_record(path: &Path, games: usize) -> Vec<morris::tools::Record> {
    let text = std::fs::read_to_string(path).unwrap();
    let records = parse_records(&text).unwrap();
    assert_eq!(records.len(), games);
    for rec in &records {
        let game = rec.replay().unwrap();
        assert_eq!(
            rec.tag("PlyCount"),
            Some(game.moves().len().to_string().as_str())
        );
        if let Some(outcome) = game.outcome() {
            assert_eq!(rec.result(), result_text(Some(outcome.result)));
            assert!(
                outcome
                    .to_string()
                    .ends_with(rec.tag("Termination").unwrap())
            );
        }
    }
    records
}

#[test]
fn fake_engine_match_completes_and_record_reads_back() {
    let pgn = temp_file("fake.pgn");
    let (a, b) = (fake("first_legal.sh"), fake("first_legal.sh"));
    let out = run_match(&[
        "--engine",
        &a,
        "name=A",
        "--engine",
        &b,
        "name=B",
        "--depth",
        "1",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--json",
        "--out",
        pgn.to_str().unwrap(),
    ]);
    let summary = json(&out);
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["faults"].as_array().unwrap().len(), 0);
    let records = check_record(&pgn, 4);
    // Games are appended as they finish, in the order stderr reports them.
    let stderr = String::from_utf8_lossy(&out.stderr);
    let reported: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("Game "))
        .map(|l| l.split(": ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    let recorded: Vec<&str> = records.iter().map(|r| r.result()).collect();
    assert_eq!(reported, recorded);

    // The record serves as openings: each game's first six moves.
    let again = temp_file("again.pgn");
    let out = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--depth",
        "1",
        "--games",
        "2",
        "--rounds",
        "2",
        "--openings",
        pgn.to_str().unwrap(),
        "--opening-plies",
        "6",
        "--json",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(json(&out)["games"], 4);
    let first_six = |r: &morris::tools::Record| -> Vec<String> {
        r.moves[..6].iter().map(|m| m.text.clone()).collect()
    };
    let replayed = check_record(&again, 4);
    for (i, rec) in replayed.iter().enumerate() {
        assert_eq!(first_six(rec), first_six(&records[i / 2]), "game {i}");
    }
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&again);
}

#[test]
fn morris_plays_morris_in_both_dialects_and_the_record_reads_back() {
    let pgn = temp_file("morris.pgn");
    let uci = format!("cmd={MORRIS}");
    // A set-up start (white a7, black g1) so both the FEN and GBGP's
    // `position pos` are exercised, and a rule option sent to both.
    let out = run_match(&[
        "--engine",
        &uci,
        "name=uci",
        "option.Hash=4",
        "--engine",
        &uci,
        "name=gbgp",
        "proto=gbgp",
        "--depth",
        "2",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--fen",
        "W2/3/3/6/3/3/2B w 8 8 0 2",
        "--option",
        "NoCaptureMoves=40",
        "--json",
        "--out",
        pgn.to_str().unwrap(),
    ]);
    let summary = json(&out);
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["faults"].as_array().unwrap().len(), 0, "{summary}");
    for rec in check_record(&pgn, 4) {
        assert_eq!(rec.tag("FEN"), Some("W2/3/3/6/3/3/2B w 8 8 0 2"));
        assert_eq!(rec.tag("NoCaptureMoves"), Some("40"));
        assert!(rec.replay().unwrap().outcome().is_some(), "ended by a rule");
    }
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn record_round_trip_keeps_moves_tags_and_results() {
    // The library API, with `env` handing $MORRIS to the fake engine.
    let engine = |name: &str| EngineSpec {
        name: name.into(),
        cmd: "/usr/bin/env".into(),
        args: vec![
            format!("MORRIS={MORRIS}"),
            fake("first_legal.sh")["cmd=".len()..].to_string(),
        ],
        dir: None,
        proto: Proto::Morris(Dialect::Uci),
        options: vec![],
        tc: None,
    };
    let mut rules = Rules::default();
    rules.apply("NoCaptureMoves=30").unwrap();
    let cfg = MatchConfig {
        engines: vec![engine("A"), engine("B")],
        rules,
        tc: TimeControl::MoveTime(50),
        openings: vec![
            Opening::parse_line("d2 d6 b4 f4").unwrap(),
            Opening::parse_line("3/3/3/6/3/3/3 b 9 9 0 1 moves d2").unwrap(),
        ],
        games: 4,
        rounds: 1,
        gauntlet: false,
        concurrency: 1,
        sprt: None,
        margin: Duration::from_secs(5),
        handshake_timeout: Duration::from_secs(10),
        untimed_limit: Duration::from_secs(60),
        max_plies: 0,
        event: "round trip".into(),
    };
    let mut played = Vec::new();
    let outcome = morris::tools::run_match::<Infallible>(&cfg, &mut |report, _| {
        played.push(report.clone());
        Ok(())
    })
    .unwrap();
    assert_eq!(outcome.standings.games(), 4);
    let text: String = played.iter().map(|r| r.record.to_text()).collect();
    let back = parse_records(&text).unwrap();
    assert_eq!(back.len(), played.len());
    for (rec, report) in back.iter().zip(&played) {
        assert_eq!(rec.tags, report.record.tags);
        let texts = |r: &morris::tools::Record| -> Vec<(String, Option<String>)> {
            r.moves
                .iter()
                .map(|m| (m.text.clone(), m.comment.clone()))
                .collect()
        };
        assert_eq!(texts(rec), texts(&report.record));
        assert_eq!(rec.result(), result_text(Some(report.result)));
        assert_eq!(rec.replay().unwrap().rules().no_capture_moves, 30);
    }
    // The second opening starts with black to move: the record says so.
    assert!(text.contains("[FEN \"3/3/3/6/3/3/3 b 9 9 0 1\"]"));
    assert!(text.contains("1... d2"));
}

#[test]
fn faulty_engines_lose_with_the_reason_and_the_match_goes_on() {
    let pgn = temp_file("faults.pgn");
    let good = fake("first_legal.sh");
    let bad = [
        "crash.sh",
        "illegal.sh",
        "sleep.sh",
        "silent.sh",
        "garbage.sh",
    ]
    .map(fake);
    let mut args = vec!["--engine", &good, "name=good"];
    for b in &bad {
        args.extend(["--engine", b.as_str()]);
    }
    args.extend([
        "--gauntlet",
        "--movetime",
        "100",
        "--timemargin",
        "300",
        "--handshake-timeout",
        "1000",
        "--games",
        "2",
        "--json",
        "--out",
        pgn.to_str().unwrap(),
    ]);
    let summary = json(&run_match(&args));
    assert_eq!(summary["games"], 10);
    assert_eq!(summary["engines"][0]["wins"], 10);
    let faults = summary["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 10);
    let expect = [
        ("crash.sh", "crashed: exited with code 3"),
        ("illegal.sh", "illegal move 'a1-a4'"),
        ("sleep.sh", "lost on time"),
        ("silent.sh", "failed the handshake: no 'uciok'"),
        ("garbage.sh", "malformed reply 'bestmove'"),
    ];
    for (engine, why) in expect {
        // Both games: the second shows the engine was restarted after the first.
        let hits = faults
            .iter()
            .filter(|f| f["engine"] == engine && f["reason"].as_str().unwrap().contains(why))
            .count();
        assert_eq!(hits, 2, "{engine}: {faults:?}");
    }
    let records = check_record(&pgn, 10);
    for rec in &records {
        let loser_is_white = rec.tag("White") != Some("good");
        let expected = if loser_is_white { "0-1" } else { "1-0" };
        assert_eq!(rec.result(), expected);
        let side = if loser_is_white { "white" } else { "black" };
        assert!(rec.tag("Termination").unwrap().starts_with(side));
    }
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn bad_command_lines_are_refused_with_a_reason() {
    let cases: [(&[&str], &str); 7] = [
        (&["--engine", "cmd=a"], "at least two"),
        (
            &["--engine", "name=x", "cmd=a", "--engine", "cmd=b"],
            "begin with cmd=",
        ),
        (
            &["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "fast"],
            "SECONDS[+INCREMENT]",
        ),
        (
            &[
                "--engine", "cmd=a", "--engine", "cmd=b", "--engine", "cmd=c", "--sprt", "elo1=5",
            ],
            "exactly two",
        ),
        (
            &[
                "--engine",
                "cmd=a",
                "proto=sanmill",
                "--engine",
                "cmd=b",
                "--nodes",
                "100",
            ],
            "a proto=sanmill engine takes a clock, movetime or depth, not a node limit",
        ),
        (
            &[
                "--engine",
                "cmd=a",
                "--engine",
                "cmd=b",
                "proto=sanmill",
                "--fen",
                "W2/3/3/6/3/3/2B w 8 8 0 2",
            ],
            "plays from the start position only",
        ),
        (
            &["--engine", "cmd=a", "proto=sanmil", "--engine", "cmd=b"],
            "proto must be uci, gbgp or sanmill, not 'sanmil'",
        ),
    ];
    for (args, why) in cases {
        let out = Command::new(MORRIS)
            .arg("match")
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}

/// Elo, interval, LOS and SPRT against values worked out independently
/// from the formulas (logistic Elo, normal interval, erf-based LOS, bounds
/// ln(beta/(1-alpha)) and ln((1-beta)/alpha), and the trinomial GSPRT).
#[test]
fn statistics_on_known_results() {
    let close = |a: f64, b: f64, eps: f64| (a - b).abs() < eps;
    let t = Tally {
        wins: 60,
        draws: 20,
        losses: 20,
    };
    // score 0.7, variance 0.16 per game, standard error 0.04.
    assert!(close(t.score(), 0.7, 1e-12));
    assert!(close(t.variance(), 0.16, 1e-12));
    let e = t.elo().unwrap();
    assert!(close(e.elo, 147.1907, 1e-3), "{e:?}");
    assert!(close(e.low, 86.2250, 1e-3), "{e:?}");
    assert!(close(e.high, 218.2518, 1e-3), "{e:?}");
    assert!(close(t.los(), 0.999_996_13, 1e-6), "{}", t.los());

    let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
    let (lower, upper) = sprt.bounds();
    assert!(close(lower, -2.944_439, 1e-6) && close(upper, 2.944_439, 1e-6));
    assert!(close(sprt.llr(&t), 1.389_822, 1e-4), "{}", sprt.llr(&t));
    // Many games: the GSPRT agrees with its normal approximation
    // N (s1 - s0)(2s - s0 - s1) / (2 var) = 0.64654.
    let even = Tally {
        wins: 520,
        draws: 1000,
        losses: 480,
    };
    assert!(
        close(sprt.llr(&even), 0.646_075, 1e-4),
        "{}",
        sprt.llr(&even)
    );
    assert_eq!(sprt.decision(&even), None);
    // One-sided series stay defined: each win adds about 0.028, each draw
    // takes about 0.029 away; 100 draws accept H0 only past the bound.
    let wins = Tally {
        wins: 10,
        ..Tally::default()
    };
    assert!(
        close(sprt.llr(&wins), 0.283_681, 1e-4),
        "{}",
        sprt.llr(&wins)
    );
    let draws = |n| Tally {
        draws: n,
        ..Tally::default()
    };
    assert!(close(sprt.llr(&draws(100)), -2.911_404, 1e-4));
    assert_eq!(sprt.decision(&draws(100)), None);
    assert_eq!(sprt.decision(&draws(110)), Some(SprtDecision::H0));
    let strong = Tally {
        wins: 300,
        draws: 400,
        losses: 200,
    };
    assert_eq!(sprt.decision(&strong), Some(SprtDecision::H1));
    assert!(Sprt::parse("elo0=10 elo1=0").is_err());
    assert!(Sprt::parse("alpha=0.7").is_err());
}

#[test]
fn sprt_stops_the_match_once_decided() {
    // The illegal-move engine loses every game: H1 (elo1=300) is accepted
    // long before the 200 scheduled games.
    let good = fake("first_legal.sh");
    let bad = fake("illegal.sh");
    let out = run_match(&[
        "--engine",
        &good,
        "--engine",
        &bad,
        "--movetime",
        "100",
        "--games",
        "200",
        "--sprt",
        "elo0=0",
        "elo1=300",
        "--json",
    ]);
    let summary = json(&out);
    assert_eq!(summary["sprt"]["decision"], "H1");
    let games = summary["games"].as_u64().unwrap();
    assert!(games < 200 && games > 0, "{games}");
    assert_eq!(summary["unplayed"].as_u64().unwrap() + games, 200);
}

#[test]
fn tallies_follow_game_results() {
    let mut st = Standings::new(3);
    st.add(0, 1, GameResult::Win(morris::rules::Color::White));
    st.add(1, 0, GameResult::Draw);
    st.add(2, 0, GameResult::Win(morris::rules::Color::White));
    assert_eq!(
        st.tally[0][1],
        Tally {
            wins: 1,
            draws: 1,
            losses: 0
        }
    );
    assert_eq!(st.total(0).games(), 3);
    assert_eq!(st.total(0).losses, 1);
    assert_eq!(st.games(), 3);
}

/// `--engine` settings of the fake sanmill engine in `mode`.
fn sanmill(mode: &[&str], name: &str) -> Vec<String> {
    let mut items = vec![
        "cmd=/usr/bin/env".to_string(),
        fake("sanmill.sh").replace("cmd=", "arg="),
    ];
    items.extend(mode.iter().map(|m| format!("arg={m}")));
    items.extend([format!("name={name}"), "proto=sanmill".into()]);
    items
}

fn engine_args(engines: &[Vec<String>]) -> Vec<&str> {
    engines
        .iter()
        .flat_map(|e| std::iter::once("--engine").chain(e.iter().map(String::as_str)))
        .collect()
}

#[test]
fn sanmill_engines_play_whole_games_with_removals_as_separate_turns() {
    let pgn = temp_file("sanmill.pgn");
    let log = temp_file("sanmill.log");
    let engines = [
        sanmill(&[], "cpp"),
        sanmill(&["rust"], "rust"),
        vec![fake("first_legal.sh"), "name=uci".into()],
    ];
    let mut args = engine_args(&engines);
    args.extend([
        "--depth",
        "1",
        "--games",
        "2",
        "--option",
        "NoCaptureMoves=60",
        "--json",
        "--out",
    ]);
    args.push(pgn.to_str().unwrap());
    let summary = json(&run_match_with_env(&args, &[("SANMILL_LOG", &log)]));
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["faults"].as_array().unwrap().len(), 0, "{summary}");
    assert_eq!(summary["rules"]["variant"], "nine");
    assert_eq!(summary["rules"]["options"]["NoCaptureMoves"], "60");
    // Every game ends by a rule, and the sanmill engines' mills are in the
    // record as our compound moves.
    let records = check_record(&pgn, 6);
    let mut joined = 0;
    for rec in &records {
        let game = rec.replay().unwrap();
        assert!(game.outcome().is_some(), "ended by a rule");
        if rec.tag("White") != Some("uci") && rec.tag("Black") != Some("uci") {
            joined += rec.moves.iter().filter(|m| m.text.contains('x')).count();
        }
    }
    assert!(joined > 0, "no removals between the two sanmill engines");
    // They were sent the history with removals as separate tokens.
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains("setoption name MoveTimeMs value 0"));
    // Full strength at the handshake (each at the maximum it declared),
    // then the match's depth for each search.
    for sent_option in [
        "SkillLevel value 30",
        "SkillLevel value 20",
        "IDSEnabled value true",
        "DrawOnHumanExperience value false",
        "SkillLevel value 1",
    ] {
        assert!(
            sent.contains(&format!("setoption name {sent_option}\n")),
            "{sent}"
        );
    }
    let positions: Vec<&str> = sent.lines().filter(|l| l.starts_with("position")).collect();
    assert!(positions.iter().any(|l| l.contains(" x")), "{sent}");
    for l in positions {
        assert!(
            l.split(' ').all(|t| !t.contains('x') || t.starts_with('x')),
            "{l}"
        );
    }
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&log);
}

/// A timed match of one sanmill engine against a UCI one: the commands the
/// sanmill engine was sent, and the match's stderr.
fn sanmill_timed_match(sanmill_engine: Vec<String>, name: &str) -> (String, String) {
    let log = temp_file(&format!("{name}.log"));
    let engines = [
        sanmill_engine,
        vec![fake("first_legal.sh"), "name=uci".into()],
    ];
    let mut args = engine_args(&engines);
    args.extend([
        "--movetime",
        "50",
        "--max-plies",
        "12",
        "--games",
        "2",
        "--json",
    ]);
    let out = run_match_with_env(&args, &[("SANMILL_LOG", &log)]);
    let summary = json(&out);
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["faults"].as_array().unwrap().len(), 0, "{summary}");
    let sent = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    (sent, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn sanmill_engines_play_at_full_strength_and_may_glue_readyok_to_analysis() {
    // The C++ member writes its analysis from another thread while it
    // answers `isready`: `readyok` arrives inside such a line, and is
    // taken.
    let (sent, stderr) = sanmill_timed_match(sanmill(&["glued"], "glued"), "glued");
    assert!(
        sent.lines().filter(|l| *l == "isready ").count() >= 3,
        "{sent}"
    );
    for option in [
        "SkillLevel value 30",
        "IDSEnabled value true",
        "DrawOnHumanExperience value false",
    ] {
        assert!(
            sent.contains(&format!("setoption name {option}\n")),
            "{sent}"
        );
    }
    assert!(!sent.contains("SkillLevel value 1\n"), "{sent}");
    assert!(
        stderr.contains(
            "glued: full strength: SkillLevel at its maximum, IDSEnabled true, \
             DrawOnHumanExperience false (those it declares; option.NAME=VALUE overrides)"
        ),
        "{stderr}"
    );
}

#[test]
fn sanmill_strength_options_given_by_the_user_are_kept() {
    let mut engine = sanmill(&[], "told");
    engine.extend([
        "option.skilllevel=7".to_string(),
        "option.DrawOnHumanExperience=true".to_string(),
    ]);
    let (sent, stderr) = sanmill_timed_match(engine, "told");
    assert!(
        sent.contains("setoption name skilllevel value 7\n"),
        "{sent}"
    );
    // Each search's SkillLevel is the user's too.
    assert!(
        sent.contains("setoption name SkillLevel value 7\n"),
        "{sent}"
    );
    assert!(
        sent.contains("setoption name IDSEnabled value true\n"),
        "{sent}"
    );
    assert!(
        sent.contains("setoption name DrawOnHumanExperience value true\n"),
        "{sent}"
    );
    assert!(!sent.contains("value 30"), "{sent}");
    assert!(
        !sent.contains("DrawOnHumanExperience value false"),
        "{sent}"
    );
    assert!(
        stderr.contains("told: full strength: IDSEnabled true (those it declares"),
        "{stderr}"
    );
}

#[test]
fn sanmill_engines_are_stopped_when_their_time_is_up() {
    let (sent, _) = sanmill_timed_match(sanmill(&["slow"], "slow"), "stop");
    assert!(
        sent.lines().filter(|l| *l == "stop").count() >= 12,
        "{sent}"
    );
    // The C++ member's time per move, in whole seconds rounded up.
    assert!(sent.contains("setoption name MoveTime value 1"));
}

#[test]
fn sanmill_faults_lose_with_the_reason() {
    let engines = [
        vec![fake("first_legal.sh"), "name=good".into()],
        sanmill(&["bad-removal"], "bad-removal"),
        sanmill(&["no-removal"], "no-removal"),
        sanmill(&["removal", "3"], "removal"),
        sanmill(&["draw", "5"], "draw"),
        sanmill(&["hang", "2"], "hang"),
    ];
    let mut args = engine_args(&engines);
    args.extend([
        "--gauntlet",
        "--movetime",
        "100",
        "--timemargin",
        "300",
        "--games",
        "2",
        "--json",
    ]);
    let summary = json(&run_match(&args));
    assert_eq!(summary["games"], 10);
    let faults = summary["faults"].as_array().unwrap();
    let expect = [
        ("bad-removal", "those removals are not allowed", 1),
        (
            "no-removal",
            "closed a mill: a removal (x<point>) is owed",
            1,
        ),
        (
            "removal",
            "illegal move 'xd7': a removal, but a move is owed",
            2,
        ),
        ("draw", "illegal move 'draw': claimed a draw", 2),
        ("hang", "lost on time: no move within 400 ms", 2),
    ];
    for (engine, why, games) in expect {
        let hits = faults
            .iter()
            .filter(|f| f["engine"] == engine && f["reason"].as_str().unwrap().contains(why))
            .count();
        assert!(hits >= games, "{engine}: {faults:?}");
    }
    assert!(faults.iter().all(|f| f["engine"] != "good"), "{faults:?}");
}
