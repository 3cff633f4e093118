//! `morris tb generate --table`, `tb submit` and `tb status`: the
//! solution as one job for each group of tables solved together, run one
//! at a time by a scheduler (Slurm) over a shared folder.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::{out, outln};
use crate::cli::tb::generate::GenerateArgs;
use crate::cli::tb::rules::{TbRules, default_threads};
use morris::rules::Rules;
use morris::tablebase::{self, GenerateOptions, Jobs, Phase, Ran, Sector, TableState};
use morris::tools::{
    JobSettings, Queued, queued_jobs, submit_compact_finish, submit_jobs, waiting_jobs,
};

#[derive(Args, Debug)]
pub struct SubmitArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// Which tables: movement, placement or all.
    #[arg(long, default_value = "all")]
    pub phase: Phase,
    /// Threads of each job (its --cpus-per-task).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Store win/draw/loss only, as `tb generate --wdl`.
    #[arg(long)]
    pub wdl: bool,
    /// The compact solution of the whole game, as `tb generate --compact`:
    /// one job a table (or pair) solving and coding it, then one writing
    /// the compact tables.
    #[arg(long, conflicts_with_all = ["wdl", "phase"])]
    pub compact: bool,
    /// An sbatch option for every job, like --slurm-opt=--partition=big
    /// (repeatable; it comes after the generated ones, so it wins).
    #[arg(long = "slurm-opt", value_name = "OPTION", allow_hyphen_values = true)]
    pub slurm_opt: Vec<String>,
    /// The morris binary the jobs run, at the same path on every node [default: this one].
    #[arg(long)]
    pub program: Option<PathBuf>,
    /// Print the sbatch lines, as a shell script, instead of submitting.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Args, Debug)]
pub struct StatusArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// Which tables: movement, placement or all.
    #[arg(long, default_value = "all")]
    pub phase: Phase,
    /// Also the state of each missing table's Slurm job (from squeue).
    #[arg(long)]
    pub slurm: bool,
}

/// `tb generate --table NAME`: one job of the plan.
pub fn generate_table(a: &GenerateArgs, name: &str) -> Result<(), CliError> {
    let rules = a.common.rules.rules()?;
    let sector = Sector::parse(name)?;
    let phase = if sector.placing() {
        Phase::All
    } else {
        Phase::Movement
    };
    let jobs = Jobs::plan(&a.common.dir()?, &rules, phase)?;
    let i = jobs.find(sector)?;
    let options = GenerateOptions {
        threads: a.threads.unwrap_or_else(default_threads),
        progress: crate::cli::progress::on_stderr(),
        wdl: a.wdl,
    };
    let names = names(&jobs.list[i].tables);
    // The job's log shows when the work began: from here on a signal
    // (scancel) is caught and leaves no partial table.
    eprintln!(
        "{names}: job {} of {} started, {} threads",
        i + 1,
        jobs.list.len(),
        options.threads
    );
    match jobs.run(i, &options, a.verify_sample)? {
        Ran::Present => outln!("{names}: already there and valid, nothing to do"),
        Ran::Built { generated, checked } => {
            for (g, c) in generated.iter().zip(&checked) {
                outln!(
                    "{}: {} positions, {} bytes, {:.1} s; {} sampled positions verified",
                    g.subspace,
                    g.summary.positions,
                    g.bytes,
                    g.seconds,
                    c.positions
                );
            }
            outln!(
                "{names}: written to {}",
                jobs.dir(jobs.list[i].name()).display()
            );
        }
    }
    Ok(())
}

/// Tables joined by " + ".
fn names(tables: &[Sector]) -> String {
    tables
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The root folder, made and checked writable, as an absolute path (the
/// jobs' comments name it, and the jobs may start elsewhere).
fn writable_root(jobs_root: &Path, folders: &[PathBuf]) -> Result<PathBuf, CliError> {
    for dir in folders {
        let probe = dir.join(format!(".morris-write-test-{}", std::process::id()));
        let written = std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(&probe, b""))
            .and_then(|()| std::fs::remove_file(&probe));
        if let Err(e) = written {
            return Err(CliError::Message(format!(
                "cannot write to {}: {e} (the jobs write their tables there); nothing submitted",
                dir.display()
            )));
        }
    }
    Ok(std::fs::canonicalize(jobs_root).unwrap_or_else(|_| jobs_root.to_path_buf()))
}

/// `tb submit`.
pub fn submit(a: &SubmitArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let given = a.common.dir()?;
    let planned = |root: &Path| {
        if a.compact {
            Jobs::plan_compact(root, &rules)
        } else {
            Jobs::plan(root, &rules, a.phase)
        }
    };
    let plan = planned(&given)?;
    // The compact solution's jobs log beside its tables, not in the
    // staging folder its last job removes.
    let logs = |plan: &Jobs| {
        if a.compact {
            Jobs::plan(&given, &rules, Phase::All).map(|j| j.folder().join("jobs"))
        } else {
            Ok(plan.folder().join("jobs"))
        }
    };
    let logs = logs(&plan)?;
    let mut folders = vec![plan.folder(), logs];
    if a.phase != Phase::Movement {
        folders.push(plan.placement_folder());
    }
    let root = writable_root(&given, &folders)?;
    let jobs = planned(&root)?;
    let logs = if a.compact {
        Jobs::plan(&root, &rules, Phase::All)?.folder().join("jobs")
    } else {
        jobs.folder().join("jobs")
    };
    let program = match &a.program {
        Some(p) => p.clone(),
        None => std::env::current_exe()
            .map_err(|e| CliError::Message(format!("cannot find this binary's path: {e}")))?,
    };
    let mut args = vec!["--variant".to_string(), a.common.rules.variant.clone()];
    for o in &a.common.rules.options {
        args.extend(["--option".to_string(), o.clone()]);
    }
    args.extend(["--dir".to_string(), root.display().to_string()]);
    if a.wdl {
        args.push("--wdl".to_string());
    }
    if a.compact {
        args.push("--compact".to_string());
    }
    let settings = JobSettings {
        program,
        args,
        threads: a.threads,
        extra: a.slurm_opt.clone(),
        logs,
    };
    let slurm = |e: morris::tools::SlurmError| CliError::Message(e.to_string());
    let done = submit_jobs(&jobs, &settings, a.dry_run).map_err(slurm)?;
    if a.dry_run {
        out!("{}", done.script);
    }
    let finish = if a.compact {
        let after: Vec<String> = done
            .new
            .iter()
            .chain(&done.kept)
            .map(|(_, id)| id.clone())
            .collect();
        Some(submit_compact_finish(&jobs, &settings, &after, a.dry_run).map_err(slurm)?)
    } else {
        None
    };
    let line = |what: &str, list: &[(Sector, String)]| {
        for (name, id) in list {
            let i = jobs.find(*name).expect("a job of the plan");
            outln!("{what} {id}: {}", names(&jobs.list[i].tables));
        }
    };
    let say = |text: String| {
        if a.dry_run {
            outln!("# {text}");
        } else {
            outln!("{text}");
        }
    };
    if !a.dry_run {
        line("cancelled job", &done.cancelled);
        line("kept job", &done.kept);
        line("submitted job", &done.new);
    }
    match (&finish, a.dry_run) {
        (Some(script), true) => out!("{script}"),
        (Some(id), false) => outln!("submitted job {id}: the compact tables, after every job"),
        (None, _) => {}
    }
    let slots: u64 = done
        .new
        .iter()
        .map(|(n, _)| jobs.list[jobs.find(*n).expect("planned")].slots())
        .sum();
    say(format!(
        "{} {} jobs ({:.3} G slots); {} still queued and kept, {} cancelled (they could never \
         run), {} already done, of {} in the plan",
        if a.dry_run {
            "would submit"
        } else {
            "submitted"
        },
        done.new.len(),
        slots as f64 / 1e9,
        done.kept.len(),
        done.cancelled.len(),
        done.present,
        jobs.list.len()
    ));
    if !done.new.is_empty() {
        say(format!(
            "logs in {}; progress: morris tb status --slurm --dir {}{}",
            settings.logs.display(),
            root.display(),
            rules_words(&a.common)
        ));
    }
    Ok(())
}

/// The rules arguments again, for a command line to copy.
fn rules_words(common: &TbRules) -> String {
    let mut out = String::new();
    if common.rules.variant != "nine" {
        out += &format!(" --variant {}", common.rules.variant);
    }
    for o in &common.rules.options {
        out += &format!(" --option {o}");
    }
    out
}

/// `tb status`.
pub fn status(a: &StatusArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let root = a.common.dir()?;
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    let jobs = Jobs::plan(&root, &rules, a.phase)?;
    let queued = if a.slurm {
        queued_jobs(&jobs).map_err(|e| CliError::Message(e.to_string()))?
    } else {
        Vec::new()
    };
    let states: Vec<Vec<TableState>> = jobs
        .list
        .iter()
        .map(|j| j.tables.iter().map(|&s| jobs.state(s)).collect())
        .collect();
    let done: Vec<bool> = states
        .iter()
        .map(|t| t.iter().all(|s| *s == TableState::Valid))
        .collect();
    let waiting = waiting_jobs(&jobs, &queued, &done);
    if a.phase == Phase::All {
        compact_status(&root, &rules, &a.common)?;
    }
    outln!("{:>12} {:>14}  state", "table", "slots");
    let (mut valid, mut damaged, mut missing) = (0, 0, 0);
    let (mut done_slots, mut all_slots) = (0u64, 0u64);
    let mut doomed = 0;
    for (i, job) in jobs.list.iter().enumerate() {
        // The job not ended, else the newest that ended.
        let newest: Option<(&Queued, bool)> = match &waiting[i] {
            Some(w) => Some((&w.queued, w.doomed)),
            None => queued
                .iter()
                .rev()
                .find(|(n, _)| *n == job.name())
                .map(|(_, q)| (q, false)),
        };
        if !done[i] && newest.is_some_and(|(_, d)| d) {
            doomed += 1;
        }
        for (&s, state) in job.tables.iter().zip(&states[i]) {
            let slots = tablebase::placement::slots(s);
            all_slots += slots;
            let mut text = match state {
                TableState::Valid => {
                    valid += 1;
                    done_slots += slots;
                    "valid".to_string()
                }
                TableState::Damaged(why) => {
                    damaged += 1;
                    format!("damaged: {why}")
                }
                TableState::Missing => {
                    missing += 1;
                    "missing".to_string()
                }
            };
            if let (false, Some((q, never))) = (*state == TableState::Valid, newest) {
                text += &format!(", job {} {}", q.id, q.state);
                if !q.reason.is_empty() && q.reason != "None" {
                    text += &format!(" ({})", q.reason);
                }
                if never {
                    text += ", never runs: a job it waits for failed";
                }
            }
            outln!("{:>12} {slots:>14}  {text}", s.to_string());
        }
    }
    let tables = valid + damaged + missing;
    outln!(
        "{valid} of {tables} tables valid ({:.1}% of the slots), {damaged} damaged, {missing} missing",
        100.0 * done_slots as f64 / all_slots.max(1) as f64
    );
    let mut leftovers = tablebase::temporaries(&jobs.folder());
    leftovers.extend(tablebase::temporaries(&jobs.placement_folder()));
    if !leftovers.is_empty() {
        outln!(
            "{} temporary files of writes in progress or interrupted (an interrupted one is \
             removed when its job runs again)",
            leftovers.len()
        );
    }
    if doomed > 0 {
        outln!(
            "{doomed} jobs wait for a job that failed or was cancelled: read its log in {}, fix \
             the cause and run tb submit again (it replaces them)",
            jobs.folder().join("jobs").display()
        );
    }
    Ok(())
}

/// `tb status`'s word on the compact solution of the rules in force.
fn compact_status(root: &Path, rules: &Rules, common: &TbRules) -> Result<(), CliError> {
    let state = tablebase::solution_state(root, rules)?;
    if state.whole() {
        outln!(
            "compact solution: whole, {} tables, {} bytes",
            state.tables,
            state.bytes
        );
        return Ok(());
    }
    let shown: Vec<String> = state
        .missing
        .iter()
        .take(8)
        .map(|s| s.to_string())
        .collect();
    outln!(
        "compact solution: {} of {} tables there ({} bytes); missing or damaged: {}{}",
        state.present,
        state.tables,
        state.bytes,
        shown.join(" "),
        if state.missing.len() > shown.len() {
            format!(" and {} more", state.missing.len() - shown.len())
        } else {
            String::new()
        }
    );
    if state.coded > 0 {
        outln!(
            "compact solution: an unfinished run has solved and coded {} of the {} tables in {}",
            state.coded,
            state.tables,
            root.join(tablebase::STAGING).display()
        );
    }
    outln!(
        "compact solution: made (or resumed) by: morris tb generate --compact{}{}",
        common
            .dir
            .as_ref()
            .map_or(String::new(), |d| format!(" --dir {}", d.display())),
        rules_words(common)
    );
    Ok(())
}
