//! The command line as a Unix tool: a reader that goes away (`| head`)
//! ends every subcommand quietly, a front end that closes the engine's
//! output ends the engine with no partial table left, and an engine with
//! no cache folder in its environment writes nothing where it was started.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::common::engine::GUARD;
use crate::common::{fen_of, tables};
use morris::rules::Rules;
use morris::tablebase::Subspace;

const MORRIS: &str = env!("CARGO_BIN_EXE_morris");

/// A new empty folder under the build's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-unix-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The 3-3 tables of the standard rules, made once for this file.
fn tables_3_3() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let three = Subspace::parse("3-3").unwrap();
        tables::made("cli-unix-tables", &[(Rules::default(), three)])
    })
}

/// Waits for `child` to end, within `limit`.
fn wait_within(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// How a test cuts the pipe: at once, before anything is written, or
/// after the first line.
#[derive(Clone, Copy, Debug)]
enum Cut {
    AtOnce,
    AfterFirstLine,
}

/// Runs `morris ARGS` with standard output cut by `cut`, away from the
/// user's tables; the first line read (empty when cut at once), the exit
/// status and standard error.
fn cut_short(args: &[&str], cut: Cut) -> (String, ExitStatus, String) {
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines");
    let mut child = Command::new(MORRIS)
        .args(args)
        .env("MORRIS_TB_DIR", tables_3_3())
        .env("MORRIS_TB_AUTO", "0")
        .env("MORRIS", MORRIS)
        .env(
            "PATH",
            format!("{}:{}", fake.display(), std::env::var("PATH").unwrap()),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start morris");
    let stdout = child.stdout.take().unwrap();
    let mut first = String::new();
    if let Cut::AfterFirstLine = cut {
        BufReader::new(stdout).read_line(&mut first).unwrap();
    } else {
        drop(stdout);
    }
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = wait_within(&mut child, GUARD).expect("morris ends");
    (first, status, stderr)
}

#[test]
fn every_subcommand_stops_quietly_when_its_reader_goes() {
    let dir = tables_3_3().to_str().unwrap().to_string();
    let fen = fen_of("a1 a4 b2", "g1 g4 f2", 'w', [0, 0], 0, 30);
    let new_dir = scratch("generate");
    let generate_into = new_dir.to_str().unwrap();
    let engine = "cmd=first_legal.sh";
    // Each subcommand that writes to standard output, with the start of
    // its first line: small inputs, so that each ends in a moment.
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["perft", "3", "--divide"], "a1: "),
        (vec!["bench", "--depth", "2"], ""),
        (
            vec!["tb", "sample", "--count", "5000", "--subspace", "3-3"],
            "",
        ),
        (vec!["tb", "probe", &fen], "value: "),
        (vec!["solve", "--fen", &fen], "position "),
        (
            vec!["analyze", "--depth", "1", "--moves", "d2 d6 f4 b4 f2"],
            "",
        ),
        (vec!["tb", "stats", "--dir", &dir], ""),
        // The tables against themselves (the base rules are the same).
        (vec!["tb", "compare", "--base", "EndgameMoves=10"], ""),
        (vec!["completions", "bash"], "_morris() {"),
        (vec!["man"], ""),
        (vec!["tb", "plan", "--option", "Pieces=4"], ""),
        (vec!["tb", "verify", "--sample", "100"], "3-3: "),
        (vec!["tb", "bench", "--positions", "1000"], ""),
        (vec!["tb", "status", "--option", "Pieces=4"], ""),
        (
            vec!["tb", "submit", "--dry-run", "--option", "Pieces=4"],
            "",
        ),
        (
            vec![
                "tb",
                "generate",
                "--max-stones",
                "3",
                "--dir",
                generate_into,
            ],
            "",
        ),
        (
            vec![
                "match", "--engine", engine, "--engine", engine, "--games", "2", "--json",
            ],
            "{",
        ),
    ];
    for (args, start) in &cases {
        for cut in [Cut::AtOnce, Cut::AfterFirstLine] {
            let (first, status, stderr) = cut_short(args, cut);
            let what = format!("morris {} cut {cut:?}", args.join(" "));
            assert!(!stderr.contains("panicked"), "{what}: {stderr}");
            assert!(status.success(), "{what}: {status}, {stderr}");
            if let Cut::AfterFirstLine = cut {
                assert!(first.starts_with(start), "{what}: first line {first:?}");
            }
        }
    }
}

/// Reads `out` up to the line starting with `end`.
fn read_until(out: &mut impl BufRead, end: &str) {
    let mut line = String::new();
    while !line.starts_with(end) {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "no {end} line");
    }
}

/// Sends commands; a write to an engine that has already gone is fine.
fn send(child: &mut Child, text: &str) {
    let stdin = child.stdin.as_mut().unwrap();
    let _ = stdin.write_all(text.as_bytes()).and_then(|_| stdin.flush());
}

/// Every file under `dir`, with its path from `dir`.
fn files_under(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = e.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push(path.display().to_string());
        }
    }
    found
}

#[test]
fn the_engine_ends_when_its_output_is_closed_and_leaves_no_partial_table() {
    let dir = scratch("closed-output");
    let mut child = Command::new(MORRIS)
        .env("MORRIS_TB_DIR", &dir)
        // Building the 5-stone tables takes seconds: the output closes
        // while the builder is at work.
        .env("MORRIS_TB_AUTO", "5")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start morris");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    send(&mut child, "uci\nisready\n");
    read_until(&mut out, "readyok");
    // The builder has made a table and goes on with the larger ones.
    let start = Instant::now();
    while !files_under(&dir).iter().any(|f| f.ends_with(".mtb")) {
        assert!(start.elapsed() < GUARD, "no table built");
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(out);
    let closed = Instant::now();
    send(&mut child, "isready\nposition startpos\ngo depth 20\n");
    ends_quietly_within_a_second(&mut child, "running");
    eprintln!(
        "the engine ended {:?} after the next command",
        closed.elapsed()
    );
    let partial: Vec<String> = files_under(&dir)
        .into_iter()
        .filter(|f| f.contains(".tmp"))
        .collect();
    assert!(partial.is_empty(), "partial tables left: {partial:?}");
}

#[test]
fn the_engine_ends_when_its_output_closes_during_a_search_with_input_open() {
    let mut child = Command::new(MORRIS)
        .env("MORRIS_TB_DIR", scratch("closed-search"))
        .env("MORRIS_TB_AUTO", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start morris");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    send(&mut child, "isready\n");
    read_until(&mut out, "readyok");
    drop(out);
    // Nothing follows `go infinite`: only the search's own lines can
    // find the output closed.
    send(&mut child, "go infinite\n");
    ends_quietly_within_a_second(&mut child, "searching");
}

/// Waits up to a second for an engine whose output was closed to end, and
/// checks it ended cleanly: status 0 and no panic. `doing`: what it would
/// still be doing otherwise.
fn ends_quietly_within_a_second(child: &mut Child, doing: &str) {
    let status = wait_within(child, Duration::from_secs(1));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = status.unwrap_or_else(|| panic!("still {doing} 1 s after its output closed"));
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(status.success(), "{status}: {stderr}");
}

/// `morris` in `cwd` with only `vars` (and PATH) in its environment.
fn bare_engine(cwd: &Path, vars: &[(&str, &str)]) -> Child {
    Command::new(MORRIS)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .envs(vars.iter().copied())
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start morris")
}

/// The whole conversation of `morris` given `input` and `vars`, in `cwd`.
fn conversation(cwd: &Path, vars: &[(&str, &str)], input: &str) -> Vec<String> {
    let mut child = bare_engine(cwd, vars);
    send(&mut child, input);
    drop(child.stdin.take());
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let status = wait_within(&mut child, GUARD).expect("morris ends");
    assert!(status.success(), "{status}");
    text.lines().map(str::to_string).collect()
}

#[test]
fn without_a_cache_folder_the_engine_writes_nothing_and_says_why_once() {
    let cwd = scratch("bare-environment");
    let lines = conversation(
        &cwd,
        &[],
        "uci\nisready\nisready\nposition startpos moves d2\ngo depth 2\nucinewgame\nisready\nquit\n",
    );
    assert!(
        lines.contains(&"option name TablebasePath type string default <empty>".to_string()),
        "{lines:?}"
    );
    let why: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string tablebase:"))
        .collect();
    assert_eq!(
        why,
        [
            "info string tablebase: no folder for the tables: none of MORRIS_TB_DIR, \
             XDG_CACHE_HOME and HOME is set: no tables are built or used (set TablebasePath \
             to a folder)"
        ],
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    assert_eq!(files_under(&cwd), Vec::<String>::new());
}

#[test]
fn the_default_folder_is_xdg_cache_home_then_home_never_relative() {
    let cwd = scratch("default-folder");
    let default = |vars: &[(&str, &str)]| -> String {
        let lines = conversation(&cwd, vars, "uci\n");
        let prefix = "option name TablebasePath type string default ";
        lines
            .iter()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("{lines:?}"))
            .to_string()
    };
    let both = [("XDG_CACHE_HOME", "/x/cache"), ("HOME", "/h")];
    assert_eq!(default(&both), "/x/cache/morris/tb");
    assert_eq!(default(&[("HOME", "/h")]), "/h/.cache/morris/tb");
    // Relative values are not folders of the user's: they are passed over.
    let relative = [("XDG_CACHE_HOME", "cache"), ("HOME", "/h")];
    assert_eq!(default(&relative), "/h/.cache/morris/tb");
    assert_eq!(default(&[("HOME", "home")]), "<empty>");
    // MORRIS_TB_DIR is the user's own choice, relative or not.
    assert_eq!(default(&[("MORRIS_TB_DIR", "tb"), ("HOME", "/h")]), "tb");
    assert_eq!(files_under(&cwd), Vec::<String>::new());
}

/// The completion scripts and the manual page come from the command
/// line's own definitions: they name every subcommand, and bash reads
/// its script without a syntax error.
#[test]
fn completions_and_the_manual_page_name_every_subcommand() {
    let run = |args: &[&str]| {
        let out = Command::new(MORRIS).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let bash = run(&["completions", "bash"]);
    let man = run(&["man"]);
    assert!(man.contains(".TH morris 1"), "{man}");
    for sub in [
        "perft",
        "match",
        "analyze",
        "bench",
        "solve",
        "tb",
        "gui",
        "completions",
        "man",
    ] {
        assert!(bash.contains(&format!("morris,{sub})")), "bash: no {sub}");
        assert!(man.contains(&format!("morris\\-{sub}(1)")), "man: no {sub}");
    }
    assert!(
        bash.contains("morris__subcmd__tb,compare)"),
        "bash: no tb compare"
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        assert!(run(&["completions", shell]).contains("morris"), "{shell}");
    }
    let script =
        std::env::temp_dir().join(format!("morris-completion-{}.bash", std::process::id()));
    std::fs::write(&script, &bash).unwrap();
    let checked = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&script);
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
}
