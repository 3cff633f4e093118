//! `morris match`: the command line, the progress display on stderr and
//! the summary on stdout.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::{ArgAction, Args};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

use super::stdout::{out, outln};
use super::{CliError, PositionArgs};
use morris::rules::{Rules, Setup, Start};
use morris::tools::{
    EngineSpec, GameReport, MatchConfig, MatchError, MatchOutcome, Opening, Proto, Sprt, Standings,
    Tally, TimeControl, format_elo, load_openings, result_text, run_match, schedule_games,
    strength_note,
};

const MATCH_HELP: &str = "\
ENGINES:
  --engine takes key=value settings up to the next option, one --engine per
  engine; each engine's settings begin with cmd=:
    cmd=PROGRAM          the engine program (required, first); relative paths
                         are relative to the current directory
    name=NAME            name in tables and records (default: the program's file name)
    arg=ARGUMENT         a command-line argument for the program (repeatable)
    dir=DIR              working directory of the engine
    proto=uci|gbgp|sanmill
                         protocol (default uci); sanmill: the other public mill
                         engine family (removals as separate turns, see protocol.md)
    option.NAME=VALUE    sent as 'setoption name NAME value VALUE' (repeatable)
    tc=S[+INC] | movetime=MS | depth=N | nodes=N
                         this engine's own limit, overriding the match's

  Rule options (--variant, --option) are sent to every uci/gbgp engine and
  enforced by morris itself, which referees every move; the summary names them.
  A sanmill engine gets no rule options (set its own with option.NAME=VALUE),
  plays from the start position only, and takes a clock, movetime or depth. An engine that crashes, exceeds its
  time by more than --timemargin, answers with an illegal or malformed move, or
  fails the handshake loses that game (the reason is recorded) and is restarted.

POSITIONS:
  Games start from the built-in openings (20 quiet four-ply placements), from
  --openings, or with --fen/--moves all from that one position. Each opening is
  played twice, colours swapped; openings are used in order, cycling.

OUTPUT:
  stderr: a progress bar with the running score, and one line per finished game.
  stdout: the summary: W/D/L, score, Elo difference with its 95% interval, LOS
  per pairing (and standings for more than two engines), the SPRT state, and
  every fault. --json prints it as one JSON object (an infinite Elo is null).
  --out FILE: the games as a PGN-style record, appended as each game ends.

EXAMPLES:
  morris match --engine cmd=./morris name=new option.Hash=64 \\
               --engine cmd=./morris-old name=old \\
               --tc 10+0.1 --games 200 --concurrency 2 --out games.pgn \\
               --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
  morris match --engine cmd=morris name=base --engine cmd=morris name=d4 depth=4 \\
               --engine cmd=morris name=d6 depth=6 --gauntlet --depth 5 --json";

/// Arguments of `morris match`.
#[derive(Args, Debug)]
#[command(after_help = MATCH_HELP)]
pub struct MatchArgs {
    /// An engine: cmd=PROGRAM then key=value settings (see ENGINES below); two or more.
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append, required = true)]
    pub engines: Vec<String>,
    /// Rules (--variant, --option); --fen/--moves make that position the only opening.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Clock per game: SECONDS[+INCREMENT] (the default, 10+0.1, when no limit is given).
    #[arg(long, group = "limit")]
    pub tc: Option<String>,
    /// Fixed time per move, in milliseconds.
    #[arg(long, group = "limit", value_name = "MS")]
    pub movetime: Option<u64>,
    /// Fixed search depth per move.
    #[arg(long, group = "limit")]
    pub depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long, group = "limit")]
    pub nodes: Option<u64>,
    /// Openings: one FEN or move list per line, or a game record (its games' first --opening-plies moves).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Moves taken from each game when --openings is a game record.
    #[arg(long, default_value_t = 8)]
    pub opening_plies: usize,
    /// Games per pairing per round; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Rounds: the whole schedule again, on the next openings.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// With more than two engines: the first plays all others (default: round-robin).
    #[arg(long)]
    pub gauntlet: bool,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Stop when decided: elo0=E elo1=E alpha=A beta=B (two engines only).
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Append each finished game to this record file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Milliseconds an engine may exceed its time before it loses on time.
    #[arg(long, default_value_t = 500, value_name = "MS")]
    pub timemargin: u64,
    /// Milliseconds to wait for the handshake and 'readyok'.
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    pub handshake_timeout: u64,
    /// Seconds to wait for a move under --depth/--nodes before declaring a hang.
    #[arg(long, default_value_t = 120, value_name = "S")]
    pub hang_timeout: u64,
    /// Adjudicate a draw after this many plies past the opening (0: never).
    #[arg(long, default_value_t = 0)]
    pub max_plies: usize,
    /// Print the results table to stderr every this many games (0: never).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub ratinginterval: usize,
    /// The Event tag of the records.
    #[arg(long, default_value = "morris match")]
    pub event: String,
}

impl MatchArgs {
    /// The match these arguments describe, checked before anything starts.
    pub fn config(&self) -> Result<MatchConfig, CliError> {
        // Clap keeps the values of all --engine together; each cmd= begins
        // the next engine.
        let mut groups: Vec<Vec<String>> = Vec::new();
        for item in &self.engines {
            match groups.last_mut() {
                Some(g) if !item.starts_with("cmd=") => g.push(item.clone()),
                None if !item.starts_with("cmd=") => {
                    return Err(CliError::Message(format!(
                        "--engine {item}: each engine's settings begin with cmd=PROGRAM"
                    )));
                }
                _ => groups.push(vec![item.clone()]),
            }
        }
        let mut engines = groups
            .iter()
            .map(|items| EngineSpec::parse(items))
            .collect::<Result<Vec<_>, _>>()?;
        if engines.len() < 2 {
            return Err("a match needs at least two --engine".into());
        }
        if let Some(e) = engines
            .iter()
            .find(|e| e.cmd.components().count() > 1 && !e.cmd.is_file())
        {
            return Err(CliError::Message(format!(
                "engine {}: no program at {}",
                e.name,
                e.cmd.display()
            )));
        }
        for i in 1..engines.len() {
            let base = engines[i].name.clone();
            let mut k = 2;
            while engines[..i].iter().any(|e| e.name == engines[i].name) {
                engines[i].name = format!("{base} ({k})");
                k += 1;
            }
        }
        let rules = self.position.rules()?;
        let openings = if self.position.given() {
            // The moves as the notation writes them, for the records.
            let game = self.position.game()?;
            let moves = game.moves().iter().map(|m| m.to_string()).collect();
            let opening = Opening(Setup::new(self.position.setup().start, moves));
            opening.game(&rules)?;
            vec![opening]
        } else if let Some(path) = &self.openings {
            load_openings(path, &rules, self.opening_plies)?
        } else {
            let builtin = Opening::builtin();
            for o in &builtin {
                o.game(&rules)
                    .map_err(|e| format!("built-in opening '{o}' under these rules: {e}"))?;
            }
            builtin
        };
        let tc = match (&self.tc, self.movetime, self.depth, self.nodes) {
            (Some(tc), ..) => TimeControl::parse_clock(tc)?,
            (_, Some(ms), ..) => TimeControl::MoveTime(ms),
            (_, _, Some(d), _) => TimeControl::Depth(d),
            (.., Some(n)) => TimeControl::Nodes(n),
            _ => TimeControl::Clock {
                base_ms: 10_000,
                inc_ms: 100,
            },
        };
        let sprt = match &self.sprt {
            Some(items) if engines.len() != 2 => {
                return Err(CliError::Message(format!(
                    "--sprt {} needs exactly two engines",
                    items.join(" ")
                )));
            }
            Some(items) => Some(Sprt::parse(&items.join(" "))?),
            None => None,
        };
        for e in engines.iter().filter(|e| e.proto == Proto::Sanmill) {
            if let TimeControl::Nodes(_) = e.tc.unwrap_or(tc) {
                return Err(CliError::Message(format!(
                    "engine {}: a proto=sanmill engine takes a clock, movetime or depth, not a node limit",
                    e.name
                )));
            }
            if let Some(o) = openings.iter().find(|o| o.0.start != Start::Initial) {
                return Err(CliError::Message(format!(
                    "engine {}: a proto=sanmill engine plays from the start position only (its FEN differs from ours), not from '{o}'",
                    e.name
                )));
            }
        }
        if self.games == 0 || self.rounds == 0 {
            return Err("--games and --rounds must be at least 1".into());
        }
        Ok(MatchConfig {
            engines,
            rules,
            tc,
            openings,
            games: self.games,
            rounds: self.rounds,
            gauntlet: self.gauntlet,
            concurrency: self.concurrency.max(1),
            sprt,
            margin: Duration::from_millis(self.timemargin),
            handshake_timeout: Duration::from_millis(self.handshake_timeout),
            untimed_limit: Duration::from_secs(self.hang_timeout),
            max_plies: self.max_plies,
            event: self.event.clone(),
        })
    }
}

/// `morris match`.
pub fn run(args: &MatchArgs) -> Result<(), CliError> {
    let cfg = args.config()?;
    let mut out: Option<File> = match &args.out {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    for note in cfg.engines.iter().filter_map(strength_note) {
        eprintln!("{note}");
    }
    let total = schedule_games(&cfg).len();
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}").expect("valid template"),
    );
    let mut faults = Vec::new();
    let outcome = run_match(&cfg, &mut |report: &GameReport, standings: &Standings| {
        if let Some(file) = out.as_mut() {
            file.write_all(report.record.to_text().as_bytes())
                .and_then(|_| file.flush())
                .map_err(|e| format!("writing the record: {e}"))?;
        }
        if let Some((i, f)) = &report.fault {
            faults.push((
                report.job.number,
                cfg.engines[*i].name.clone(),
                f.to_string(),
            ));
        }
        let line = format!(
            "Game {} ({} vs {}): {} {{{}}}",
            report.job.number,
            cfg.engines[report.job.white].name,
            cfg.engines[report.job.black].name,
            result_text(Some(report.result)),
            report.termination
        );
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
        let played = standings.games() as usize;
        if args.ratinginterval > 0 && played.is_multiple_of(args.ratinginterval) && played < total {
            let text = table(&cfg, standings);
            if bar.is_hidden() {
                eprint!("{text}");
            } else {
                bar.println(text.trim_end());
            }
        }
        bar.set_message(running_line(&cfg, standings));
        bar.inc(1);
        Ok::<_, CliError>(())
    })
    .map_err(|e| match e {
        MatchError::Report(e) => e,
        threads @ MatchError::Threads(_) => CliError::Message(threads.to_string()),
    })?;
    bar.finish_and_clear();
    if args.json {
        outln!("{}", summary_json(&cfg, &outcome, &faults));
    } else {
        out!("{}", summary_text(&cfg, &outcome, &faults));
    }
    Ok(())
}

/// The first two engines' score for the progress bar.
fn running_line(cfg: &MatchConfig, standings: &Standings) -> String {
    let t = standings.tally[0][1];
    let mut line = format!(
        "{} vs {}: +{} ={} -{}",
        cfg.engines[0].name, cfg.engines[1].name, t.wins, t.draws, t.losses
    );
    if let Some(e) = t.elo() {
        line += &format!("  Elo {}  LOS {:.1}%", format_elo(e.elo), 100.0 * t.los());
    }
    if let Some(s) = &cfg.sprt {
        line += &format!("  LLR {:.2}", s.llr(&t));
    }
    line
}

fn tally_line(t: &Tally) -> String {
    let mut line = format!(
        "+{} ={} -{}  score {:.1}%  draws {:.1}%",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        100.0 * t.draw_ratio()
    );
    if let Some(e) = t.elo() {
        line += &format!(
            "  Elo {} [{}, {}]  LOS {:.1}%",
            format_elo(e.elo),
            format_elo(e.low),
            format_elo(e.high),
            100.0 * t.los()
        );
    }
    line
}

/// The pairings that played, as (i, j) with i < j.
fn pairs(standings: &Standings) -> Vec<(usize, usize)> {
    let n = standings.tally.len();
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter(|&(i, j)| standings.tally[i][j].games() > 0)
        .collect()
}

/// The results table: each pairing, then standings for more than two.
fn table(cfg: &MatchConfig, st: &Standings) -> String {
    let mut out = String::new();
    for (i, j) in pairs(st) {
        let t = st.tally[i][j];
        out += &format!(
            "{} vs {} ({} games): {}\n",
            cfg.engines[i].name,
            cfg.engines[j].name,
            t.games(),
            tally_line(&t)
        );
    }
    if cfg.engines.len() > 2 {
        out += "Standings (each engine against all it played):\n";
        let mut order: Vec<usize> = (0..cfg.engines.len()).collect();
        order.sort_by(|&a, &b| st.total(b).score().total_cmp(&st.total(a).score()));
        for (rank, i) in order.into_iter().enumerate() {
            out += &format!(
                "{:>3}. {:<20} {}\n",
                rank + 1,
                cfg.engines[i].name,
                tally_line(&st.total(i))
            );
        }
    }
    out
}

fn summary_text(
    cfg: &MatchConfig,
    outcome: &MatchOutcome,
    faults: &[(usize, String, String)],
) -> String {
    let st = &outcome.standings;
    let mut out = format!("Games played: {}", st.games());
    if outcome.unplayed > 0 {
        out += &format!(" ({} not played)", outcome.unplayed);
    }
    out.push('\n');
    out += &format!("Rules refereed: {}\n", rules_text(&cfg.rules));
    out += &table(cfg, st);
    if let Some(s) = &cfg.sprt {
        let (lower, upper) = s.bounds();
        let verdict = match outcome.sprt {
            Some(d) => format!("{d} accepted"),
            None => "undecided".into(),
        };
        out += &format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{lower:.2}, {upper:.2}]: {verdict}\n",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.llr(&st.tally[0][1])
        );
    }
    for (game, name, why) in faults {
        out += &format!("Fault in game {game}: {name}: {why}\n");
    }
    out
}

/// The rules the referee applied: the variant and the options that differ
/// from its preset.
fn rules_text(rules: &Rules) -> String {
    let options = rules.non_default();
    if options.is_empty() {
        return format!("{}, the preset's options", rules.variant.name());
    }
    let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    format!("{}, {}", rules.variant.name(), options.join(" "))
}

fn tally_json(t: &Tally) -> serde_json::Value {
    let e = t.elo();
    json!({
        "games": t.games(),
        "wins": t.wins,
        "draws": t.draws,
        "losses": t.losses,
        "score": t.score(),
        "elo": e.map(|e| e.elo),
        "elo_low": e.map(|e| e.low),
        "elo_high": e.map(|e| e.high),
        "los": t.los(),
    })
}

fn summary_json(
    cfg: &MatchConfig,
    outcome: &MatchOutcome,
    faults: &[(usize, String, String)],
) -> serde_json::Value {
    let st = &outcome.standings;
    let engines: Vec<_> = (0..cfg.engines.len())
        .map(|i| {
            let mut v = tally_json(&st.total(i));
            v["name"] = json!(cfg.engines[i].name);
            v
        })
        .collect();
    let pairs: Vec<_> = pairs(st)
        .into_iter()
        .map(|(i, j)| {
            let mut v = tally_json(&st.tally[i][j]);
            v["engine"] = json!(cfg.engines[i].name);
            v["opponent"] = json!(cfg.engines[j].name);
            v
        })
        .collect();
    let sprt = cfg.sprt.map(|s| {
        let (lower, upper) = s.bounds();
        json!({
            "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
            "llr": s.llr(&st.tally[0][1]), "lower": lower, "upper": upper,
            "decision": outcome.sprt.map(|d| d.to_string()),
        })
    });
    let faults: Vec<_> = faults
        .iter()
        .map(|(game, name, why)| json!({"game": game, "engine": name, "reason": why}))
        .collect();
    let options: serde_json::Map<String, serde_json::Value> = cfg
        .rules
        .non_default()
        .iter()
        .map(|o| (o.option.to_string(), json!(o.value.to_string())))
        .collect();
    json!({
        "games": st.games(),
        "rules": {"variant": cfg.rules.variant.name(), "options": options},
        "unplayed": outcome.unplayed,
        "engines": engines,
        "pairs": pairs,
        "sprt": sprt,
        "faults": faults,
    })
}
