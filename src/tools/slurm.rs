//! A plan of table jobs (`tablebase::jobs`) handed to Slurm: one `sbatch`
//! job for each job of the plan whose tables are not there yet, chained by
//! `--dependency=afterok:` on the jobs writing the tables it reads, so
//! that a failed job leaves its dependants pending
//! (`DependencyNeverSatisfied`) and nothing reads a table that is not
//! whole. Jobs are recognised in the queue by their comment (the rules
//! folder and the job's name), so that submitting again reuses the jobs
//! still queued and replaces only those that can never run.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::tablebase::Sector;
use crate::tablebase::{Jobs, TableState};

/// Why talking to Slurm failed.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    /// The Slurm command named (`sbatch`, `squeue`, `scancel`) is not on the
    /// PATH.
    #[error(
        "{0} not found on the PATH: run this on a machine with Slurm's commands (a cluster's \
         login node), or print the jobs with --dry-run"
    )]
    NotFound(&'static str),
    /// A table (held) from outside the plan that the plan reads is not
    /// there and valid, and no queued job that can still run writes it.
    #[error(
        "table {0} is read by the plan but is not there, and no queued job writes it: \
         submit its phase first (--phase movement, or --phase all)"
    )]
    Missing(Sector),
    /// A Slurm command could not be started or exited with failure.
    #[error("{program} failed ({status}): {stderr}")]
    Failed {
        /// The command: `sbatch`, `squeue` or `scancel`.
        program: &'static str,
        /// Its exit status as text, or `could not start`.
        status: String,
        /// What it wrote to standard error (trimmed), or why it could not
        /// start.
        stderr: String,
    },
    /// A Slurm command succeeded but its output cannot be read (`sbatch`
    /// printed no job id).
    #[error("{program} printed '{output}', not what was expected")]
    BadOutput {
        /// The command.
        program: &'static str,
        /// What it printed to standard output (trimmed).
        output: String,
    },
}

/// How the jobs run.
#[derive(Clone, Debug)]
pub struct JobSettings {
    /// The `morris` binary the jobs run (at this path on every node).
    pub program: PathBuf,
    /// Arguments after `tb generate --table NAME` that give every job the
    /// same rules, folder and storage (`--variant`, `--option`, `--dir`, `--wdl`).
    pub args: Vec<String>,
    /// Threads (and `--cpus-per-task`) of each job.
    pub threads: usize,
    /// More `sbatch` options, after the generated ones (so they win).
    pub extra: Vec<String>,
    /// Where each job writes its log (`NAME-JOBID.log`).
    pub logs: PathBuf,
}

/// A job of the plan in the queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    /// Slurm's job id, as `squeue` prints it.
    pub id: String,
    /// Slurm's state: `PENDING`, `RUNNING`, `FAILED`, ...
    pub state: String,
    /// Why it waits, or why it ended (`Dependency`, `DependencyNeverSatisfied`, ...).
    pub reason: String,
}

impl Queued {
    /// Whether it has not ended: it waits, runs or is ending.
    fn active(&self) -> bool {
        matches!(
            self.state.as_str(),
            "PENDING" | "RUNNING" | "CONFIGURING" | "COMPLETING" | "SUSPENDED" | "REQUEUED"
        )
    }
}

/// The newest job of a job of the plan that has not ended, and whether it
/// will never run: it waits for a job that failed or was cancelled, or for
/// one that will never run itself (Slurm says `DependencyNeverSatisfied`
/// only of the first).
#[derive(Clone, Debug)]
pub struct Waiting {
    /// The newest job of the plan's job not ended.
    pub queued: Queued,
    /// Whether it will never run, and should be cancelled and submitted
    /// again.
    pub doomed: bool,
}

/// `Waiting` for each job of the plan (`None`: no job not ended), given
/// which jobs' tables are all there (`done`).
pub fn waiting_jobs(
    jobs: &Jobs,
    queued: &[(Sector, Queued)],
    done: &[bool],
) -> Vec<Option<Waiting>> {
    let mut out: Vec<Option<Waiting>> = Vec::with_capacity(jobs.list.len());
    for job in &jobs.list {
        let newest = queued
            .iter()
            .rev()
            .find(|(n, q)| *n == job.name() && q.active())
            .map(|(_, q)| q.clone());
        out.push(newest.map(|q| {
            let doomed = q.state == "PENDING"
                && (q.reason == NEVER
                    || job
                        .after
                        .iter()
                        .any(|&a| !done[a] && out[a].as_ref().is_none_or(|w| w.doomed)));
            Waiting { queued: q, doomed }
        }));
    }
    out
}

/// Slurm's reason for a job waiting for one that failed: it stays pending for ever.
const NEVER: &str = "DependencyNeverSatisfied";

/// The comment that marks the queued jobs of the plan whose tables live
/// under `folder`: this prefix, then the job's name.
fn tag(folder: &Path) -> String {
    format!("morris-tb {} ", folder.display())
}

/// The plan's jobs in Slurm's queue (those that ended too, while Slurm
/// still lists them), by name; the newest job of a name last.
pub fn queued_jobs(jobs: &Jobs) -> Result<Vec<(Sector, Queued)>, SlurmError> {
    let output = run(
        "squeue",
        &["--noheader", "--states=all", "--format=%i|%T|%r|%k"],
    )?;
    let prefix = tag(&jobs.folder());
    let mut found = Vec::new();
    for line in output.lines() {
        let mut fields = line.splitn(4, '|');
        let (Some(id), Some(state), Some(reason), Some(comment)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Some(name) = comment.trim().strip_prefix(&prefix) else {
            continue;
        };
        let Ok(name) = Sector::parse(name) else {
            continue;
        };
        found.push((
            name,
            Queued {
                id: id.trim().to_string(),
                state: state.trim().to_string(),
                reason: reason.trim().to_string(),
            },
        ));
    }
    // Job ids grow: sorting by them puts the newest of a name last.
    found.sort_by_key(|(_, q)| q.id.parse::<u64>().unwrap_or(u64::MAX));
    Ok(found)
}

/// What `submit` did, or would do.
#[derive(Debug, Default)]
pub struct Submitted {
    /// Jobs submitted now: name and Slurm job id.
    pub new: Vec<(Sector, String)>,
    /// Jobs already queued and kept.
    pub kept: Vec<(Sector, String)>,
    /// Queued jobs cancelled because they could never run.
    pub cancelled: Vec<(Sector, String)>,
    /// Jobs whose tables are there already.
    pub present: usize,
    /// The `sbatch` and `scancel` lines, as a shell script (`dry_run`).
    pub script: String,
}

/// Submits the jobs of `jobs` whose tables are not all there and valid,
/// or with `dry_run` writes the lines that would (`Submitted::script`)
/// without running any. Jobs still queued from an earlier submission are
/// kept; those that can never run (`Waiting::doomed`) are cancelled, and
/// their tables submitted again.
pub fn submit_jobs(
    jobs: &Jobs,
    settings: &JobSettings,
    dry_run: bool,
) -> Result<Submitted, SlurmError> {
    if !dry_run && find_program("sbatch").is_none() {
        return Err(SlurmError::NotFound("sbatch"));
    }
    let queued = match queued_jobs(jobs) {
        Err(e) if dry_run => {
            log::warn!("{e}; the script assumes that none of the plan's jobs is queued");
            Vec::new()
        }
        other => other?,
    };
    let done: Vec<bool> = (0..jobs.list.len()).map(|i| jobs.done(i)).collect();
    let waits_now = waiting_jobs(jobs, &queued, &done);
    // Tables read from outside the plan (the movement tables of a plan of
    // the placement phase) that are not there: the queued jobs writing them.
    let mut waits: HashMap<Sector, String> = HashMap::new();
    for &s in &jobs.outside {
        if jobs.state(s) == TableState::Valid {
            continue;
        }
        let name = s.max(s.swapped());
        let writer = queued
            .iter()
            .rev()
            .find(|(n, q)| *n == name && q.active() && q.reason != NEVER);
        match writer {
            Some((_, q)) => waits.insert(s, q.id.clone()),
            None => return Err(SlurmError::Missing(s)),
        };
    }
    let folder = jobs.folder();
    let mut out = Submitted::default();
    let _ = writeln!(
        out.script,
        "#!/bin/sh\n# The jobs of `morris tb submit` for {}\nset -e",
        folder.display()
    );
    // The Slurm job id (or, in the script, the shell variable) of each job
    // of the plan that is not done.
    let mut ids: Vec<Option<String>> = vec![None; jobs.list.len()];
    for (i, job) in jobs.list.iter().enumerate() {
        if done[i] {
            out.present += 1;
            continue;
        }
        let name = job.name();
        if let Some(w) = waits_now[i].as_ref().filter(|w| !w.doomed) {
            ids[i] = Some(w.queued.id.clone());
            out.kept.push((name, w.queued.id.clone()));
            continue;
        }
        // Its jobs still pending can never run: they make way for the new one.
        for (_, q) in queued
            .iter()
            .filter(|(n, q)| *n == name && q.state == "PENDING")
        {
            if dry_run {
                let _ = writeln!(out.script, "scancel {}", q.id);
            } else {
                run("scancel", &[q.id.as_str()])?;
            }
            out.cancelled.push((name, q.id.clone()));
        }
        let mut after: Vec<String> = job.after.iter().filter_map(|&a| ids[a].clone()).collect();
        after.extend(job.reads.iter().filter_map(|r| waits.get(r).cloned()));
        let argv = sbatch_args(jobs, i, settings, &tag(&folder), &after);
        if dry_run {
            let var = variable(name);
            out.script += &script_line(&var, &argv);
            ids[i] = Some(format!("${var}"));
            out.new.push((name, format!("${var}")));
        } else {
            let id = sbatch(&argv)?;
            ids[i] = Some(id.clone());
            out.new.push((name, id));
        }
    }
    Ok(out)
}

/// The `sbatch` arguments of job `i`, depending on the Slurm jobs `after`.
fn sbatch_args(
    jobs: &Jobs,
    i: usize,
    settings: &JobSettings,
    tag: &str,
    after: &[String],
) -> Vec<String> {
    let name = jobs.list[i].name().to_string();
    let command = ["--table".to_string(), name.clone()];
    batch(&name, jobs.memory(i), &command, settings, tag, after)
}

/// The `sbatch` arguments of a job named `name` that needs `memory`
/// bytes and runs `tb generate` with `words`, then the settings' threads
/// and arguments, after the Slurm jobs `after`.
fn batch(
    name: &str,
    memory: u64,
    words: &[String],
    settings: &JobSettings,
    tag: &str,
    after: &[String],
) -> Vec<String> {
    let mut argv = vec![
        "--parsable".to_string(),
        format!("--job-name=morris-{name}"),
        format!("--comment={tag}{name}"),
        format!("--cpus-per-task={}", settings.threads.max(1)),
        format!("--mem={}M", memory.div_ceil(1 << 20)),
        format!("--output={}/{name}-%j.log", settings.logs.display()),
    ];
    if !after.is_empty() {
        argv.push(format!("--dependency=afterok:{}", after.join(":")));
    }
    argv.extend(settings.extra.iter().cloned());
    let mut command = vec![
        settings.program.display().to_string(),
        "tb".to_string(),
        "generate".to_string(),
    ];
    command.extend(words.iter().cloned());
    command.extend(["--threads".to_string(), settings.threads.max(1).to_string()]);
    command.extend(settings.args.iter().cloned());
    let words: Vec<String> = command.iter().map(|w| quote(w)).collect();
    argv.push(format!("--wrap=exec {}", words.join(" ")));
    argv
}

/// After `submit_jobs` of the compact solution's jobs (`Jobs::plan_compact`,
/// the settings' arguments with `--compact`): the job that writes the
/// compact tables once all of them are coded (`tb generate --compact`),
/// after the jobs `after` (their Slurm ids, or in the script the
/// variables `submit_jobs` wrote). Its Slurm id, or the script's lines.
pub fn submit_compact_finish(
    jobs: &Jobs,
    settings: &JobSettings,
    after: &[String],
    dry_run: bool,
) -> Result<String, SlurmError> {
    // The planes of one table at a time, and the kinds of all.
    const MEMORY: u64 = 2 << 30;
    let argv = batch(
        "compact",
        MEMORY,
        &[],
        settings,
        &tag(&jobs.folder()),
        after,
    );
    if dry_run {
        return Ok(script_line("j_compact", &argv));
    }
    sbatch(&argv)
}

/// The script's line submitting `argv` into the shell variable `var`.
fn script_line(var: &str, argv: &[String]) -> String {
    let words: Vec<String> = argv
        .iter()
        // The job ids are the shell's variables: left to expand.
        .map(|a| match a.strip_prefix("--dependency=") {
            Some(_) => a.clone(),
            None => quote(a),
        })
        .collect();
    // `--parsable` prints `id;cluster` on a multi-cluster installation:
    // the dependencies need the id alone.
    format!(
        "{var}=$(sbatch {})\n{var}=${{{var}%%;*}}\n",
        words.join(" ")
    )
}

/// Submits a job; its id.
fn sbatch(argv: &[String]) -> Result<String, SlurmError> {
    let printed = run(
        "sbatch",
        &argv.iter().map(String::as_str).collect::<Vec<_>>(),
    )?;
    // `--parsable` prints `id` or `id;cluster`.
    let id = printed.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SlurmError::BadOutput {
            program: "sbatch",
            output: printed.trim().to_string(),
        });
    }
    Ok(id)
}

/// The script's shell variable for job `name` (`j_5_4`, `j_4_4_1_1`).
fn variable(name: Sector) -> String {
    format!("j_{}", name.to_string().replace(['-', '+'], "_"))
}

/// A word for `sh`: as it is when that is safe, else in single quotes.
fn quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:+,%@".contains(&b));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `program` on the PATH.
fn find_program(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Runs a Slurm command and returns what it printed.
fn run(program: &'static str, args: &[&str]) -> Result<String, SlurmError> {
    let path = find_program(program).ok_or(SlurmError::NotFound(program))?;
    let output = Command::new(path)
        .args(args)
        .output()
        .map_err(|e| SlurmError::Failed {
            program,
            status: "could not start".to_string(),
            stderr: e.to_string(),
        })?;
    if !output.status.success() {
        return Err(SlurmError::Failed {
            program,
            status: output.status.to_string(),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_for_the_shell() {
        assert_eq!(quote("--option=Pieces=5"), "--option=Pieces=5");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(variable(Sector::with_hands(4, 4, 1, 1)), "j_4_4_1_1");
    }
}
