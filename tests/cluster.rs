//! The cluster mode without a cluster: `tb generate --table` (one job of
//! the plan), `tb submit` (its `--dry-run` script, and the `sbatch` lines
//! it runs, against stand-in Slurm commands) and `tb status`.
//! scripts/slurm-test.sh runs the same against a real Slurm.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use morris::rules::{RuleOptions, Rules};
use morris::tablebase::{Fingerprint, PlacementFingerprint, Sector};

const MORRIS: &str = env!("CARGO_BIN_EXE_morris");

/// A fresh folder of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cluster-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn pieces(n: u8) -> Rules {
    Rules::new(RuleOptions {
        pieces: n,
        ..*Rules::default()
    })
}

/// Runs morris with `args`, the PATH set to `path` if given.
fn morris(args: &[&str], path: Option<&str>) -> Output {
    let mut c = Command::new(MORRIS);
    c.args(args).env("RUST_LOG", "warn");
    if let Some(p) = path {
        c.env("PATH", p);
    }
    c.output().expect("morris runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs morris and expects success: its standard output.
fn ok(args: &[&str]) -> String {
    let o = morris(args, None);
    let (out, err) = text(&o);
    assert!(o.status.success(), "morris {args:?} failed:\n{out}\n{err}");
    out
}

/// Runs morris and expects failure: its standard error.
fn fails(args: &[&str], path: Option<&str>) -> String {
    let o = morris(args, path);
    let (out, err) = text(&o);
    assert!(!o.status.success(), "morris {args:?} succeeded:\n{out}");
    err
}

fn movement_dir(root: &Path, rules: &Rules) -> PathBuf {
    root.join(Fingerprint::of(rules).dir_name())
}

fn placement_dir(root: &Path, rules: &Rules) -> PathBuf {
    movement_dir(root, rules).join(PlacementFingerprint::of(rules).dir_name())
}

/// The names of the files in `dir` (not folders), sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn one_job_refuses_missing_and_damaged_tables_and_skips_valid_ones() {
    let root = scratch("one-job");
    let dir = root.to_str().unwrap();
    let base = ["--option", "Pieces=4", "--dir", dir, "--threads", "2"];
    let args = |table: &str| -> Vec<String> {
        let mut v: Vec<String> = ["tb", "generate", "--table", table]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(base.iter().map(|s| s.to_string()));
        v
    };
    let run = |table: &str| -> Output {
        let a = args(table);
        morris(&a.iter().map(String::as_str).collect::<Vec<_>>(), None)
    };
    let mdir = movement_dir(&root, &pieces(4));

    // 4-3 reads 3-3, which is not there: refused, nothing written.
    let o = run("4-3");
    assert!(!o.status.success());
    let (_, err) = text(&o);
    assert!(err.contains("table 3-3 is missing or damaged"), "{err}");
    assert_eq!(files(&mdir), Vec::<String>::new());

    // 3-3 reads nothing: built (and named as written).
    let o = run("3-3");
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("3-3: written to"), "{:?}", text(&o));
    let table = mdir.join("3-3.mtb");
    let before = std::fs::metadata(&table).unwrap().modified().unwrap();

    // Again: skipped, the file untouched.
    let o = run("3-3");
    assert!(o.status.success());
    assert!(
        text(&o).0.contains("3-3: already there and valid"),
        "{:?}",
        text(&o)
    );
    assert_eq!(
        std::fs::metadata(&table).unwrap().modified().unwrap(),
        before
    );

    // Either side of a pair names it: 3-4 builds 4-3 and 3-4.
    let o = run("3-4");
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("4-3 + 3-4: written"), "{:?}", text(&o));
    assert_eq!(files(&mdir), ["3-3.mtb", "3-4.mtb", "4-3.mtb"]);

    // A flipped byte in 3-4 (read by 4-4): refused, nothing written;
    // status says which table is damaged.
    let path = mdir.join("3-4.mtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x5a;
    std::fs::write(&path, &bytes).unwrap();
    let o = run("4-4");
    assert!(!o.status.success());
    assert!(
        text(&o).1.contains("table 3-4 is missing or damaged"),
        "{:?}",
        text(&o)
    );
    assert!(!mdir.join("4-4.mtb").exists());
    let status = ok(&[
        "tb", "status", "--option", "Pieces=4", "--phase", "movement", "--dir", dir,
    ]);
    assert!(
        status
            .lines()
            .any(|l| l.trim_start().starts_with("3-4 ") && l.contains("damaged")),
        "{status}"
    );
    assert!(status.contains("2 of 4 tables valid"), "{status}");
    assert!(status.contains("1 damaged, 1 missing"), "{status}");

    // A damaged table of the job itself is rebuilt, with its pair.
    let o = run("4-3");
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("4-3 + 3-4: written"), "{:?}", text(&o));
    let status = ok(&[
        "tb", "status", "--option", "Pieces=4", "--phase", "movement", "--dir", dir,
    ]);
    assert!(status.contains("3 of 4 tables valid"), "{status}");

    // Bad input: one clear error each.
    let err = fails(&["tb", "generate", "--table", "5-x", "--dir", dir], None);
    assert!(err.contains("expected a sector like 5-4"), "{err}");
    let err = fails(
        &[
            "tb", "generate", "--table", "6-6", "--option", "Pieces=4", "--dir", dir,
        ],
        None,
    );
    assert!(
        err.contains("6-6 is not a table of these rules' plan"),
        "{err}"
    );
    let err = fails(
        &[
            "tb",
            "generate",
            "--table",
            "4-4+1-1",
            "--variant",
            "onetime",
            "--dir",
            dir,
        ],
        None,
    );
    assert!(
        err.contains("not covered") || err.contains("OneTimeMill"),
        "{err}"
    );
}

#[test]
fn a_job_stopped_or_killed_leaves_no_table_behind() {
    let root = scratch("killed");
    let dir = root.to_str().unwrap();
    let mdir = movement_dir(&root, &pieces(5));
    for t in ["3-3", "4-3", "4-4", "5-3", "5-4"] {
        ok(&[
            "tb", "generate", "--table", t, "--option", "Pieces=5", "--dir", dir,
        ]);
    }
    let written = files(&mdir);
    // 5-5 takes seconds on one thread: stopped by SIGTERM (as scancel
    // does), then killed by SIGKILL, each half a second in.
    for signal in [libc::SIGTERM, libc::SIGKILL] {
        let mut child = Command::new(MORRIS)
            .args(["tb", "generate", "--table", "5-5", "--threads", "1"])
            .args(["--option", "Pieces=5", "--dir", dir])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        assert!(
            child.try_wait().unwrap().is_none(),
            "5-5 finished before it could be stopped: this test needs a slower job"
        );
        // SAFETY: signalling our own child process.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let status = child.wait().unwrap();
        assert!(!status.success(), "signal {signal}: {status}");
        assert_eq!(files(&mdir), written, "signal {signal} left files");
    }
    // Then the job runs whole.
    ok(&[
        "tb", "generate", "--table", "5-5", "--option", "Pieces=5", "--dir", dir,
    ]);
    assert!(mdir.join("5-5.mtb").exists());
}

/// One line of a `--dry-run` script: job name, its tables' job variable,
/// the variables it waits for, and the command it runs.
struct Line {
    name: Sector,
    var: String,
    after: Vec<String>,
    wrap: String,
    mem_mb: u64,
}

fn script_lines(script: &str) -> Vec<Line> {
    script
        .lines()
        .filter(|l| l.contains("=$(sbatch "))
        .map(|l| {
            let (var, rest) = l.split_once("=$(sbatch ").unwrap();
            let field = |key: &str| -> Option<String> {
                rest.split(' ')
                    .find_map(|w| w.trim_matches('\'').strip_prefix(key).map(str::to_string))
            };
            let name = Sector::parse(&field("--job-name=morris-").unwrap()).unwrap();
            let after = field("--dependency=afterok:")
                .map(|d| d.split(':').map(str::to_string).collect())
                .unwrap_or_default();
            let wrap = rest.split_once("--wrap=").unwrap().1.to_string();
            let mem = field("--mem=").unwrap();
            Line {
                name,
                var: format!("${var}"),
                after,
                wrap,
                mem_mb: mem.trim_end_matches('M').parse().unwrap(),
            }
        })
        .collect()
}

/// The tables `tb plan` lists, in its order.
fn plan_order(args: &[&str]) -> Vec<Sector> {
    let mut a = vec!["tb", "plan"];
    a.extend_from_slice(args);
    ok(&a)
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|w| Sector::parse(w).ok())
        .collect()
}

/// Whether a move from `s` (side to move first) can lead to `child` (the
/// opponent to move), removing at most two stones: an independent
/// statement of the sectors a job reads.
fn one_move_away(s: Sector, child: Sector) -> bool {
    (0..=2).any(|k| {
        let placed = s.mine_hand > 0
            && s.theirs >= k
            && child
                == Sector::with_hands(s.theirs - k, s.mine + 1, s.theirs_hand, s.mine_hand - 1);
        let moved = s.mine_hand == 0
            && s.theirs >= k
            && child == Sector::with_hands(s.theirs - k, s.mine, s.theirs_hand, 0);
        placed || moved
    })
}

#[test]
fn the_dry_run_lists_each_job_once_after_the_jobs_it_reads() {
    let root = scratch("dry-run");
    let dir = root.to_str().unwrap();
    // No Slurm at all: the script is written anyway.
    let empty = scratch("dry-run-path");
    let o = morris(
        &[
            "tb",
            "submit",
            "--dry-run",
            "--option",
            "Pieces=5",
            "--dir",
            dir,
            "--threads",
            "3",
        ],
        Some(empty.to_str().unwrap()),
    );
    let (script, err) = text(&o);
    assert!(o.status.success(), "{script}\n{err}");
    let lines = script_lines(&script);
    let order = plan_order(&["--option", "Pieces=5"]);
    // Each job once, in the plan's order, its tables the plan's tables once.
    let mut covered = Vec::new();
    for l in &lines {
        covered.push(l.name);
        if !l.name.placing() && l.name.mine != l.name.theirs {
            covered.push(l.name.swapped());
        }
    }
    assert_eq!(covered, order, "{script}");
    let mut seen: HashMap<String, Sector> = HashMap::new();
    for l in &lines {
        assert!(
            l.wrap.contains(&format!("--table {}", l.name)),
            "{}",
            l.wrap
        );
        assert!(l.wrap.contains("--threads 3"), "{}", l.wrap);
        assert!(l.wrap.contains("Pieces=5"), "{}", l.wrap);
        assert!(l.mem_mb >= 256, "{}: {} MB", l.name, l.mem_mb);
        let after: BTreeSet<Sector> = l
            .after
            .iter()
            .map(|v| {
                *seen
                    .get(v)
                    .unwrap_or_else(|| panic!("{}: {v} not earlier", l.name))
            })
            .collect();
        if l.name.placing() {
            for dep in &after {
                let reads = |d: Sector| one_move_away(l.name, d);
                assert!(
                    reads(*dep) || (!dep.placing() && reads(dep.swapped())),
                    "{} waits for {dep}",
                    l.name
                );
            }
        } else {
            // A capture in a-b leads to (b-1)-a; in b-a to (a-1)-b.
            let (a, b) = (l.name.mine, l.name.theirs);
            let key = |s: Sector| s.max(s.swapped());
            let want: BTreeSet<Sector> = [(b, a), (a, b)]
                .iter()
                .filter(|&&(t, _)| t > 3)
                .map(|&(t, m)| key(Sector::new(t - 1, m)))
                .collect();
            assert_eq!(after, want, "{}", l.name);
        }
        seen.insert(l.var.clone(), l.name);
    }
    // The root sector waits for something; the smallest for nothing.
    assert!(lines[0].after.is_empty());
    assert!(!lines.last().unwrap().after.is_empty());
    assert!(err.contains("squeue"), "{err}");

    // The script runs: each sbatch gets the ids of the jobs before it.
    let (bin, path) = slurm_stand_ins("dry-run");
    let o = Command::new("sh")
        .args(["-c", &script])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let calls = sbatch_calls(&bin);
    assert_eq!(calls.len(), lines.len());
    for ((id, a), l) in calls.iter().zip(&lines) {
        let deps: Vec<u64> = arg(a, "--dependency=afterok:")
            .map(|d| d.split(':').map(|x| x.parse().unwrap()).collect())
            .unwrap_or_default();
        assert_eq!(deps.len(), l.after.len(), "{a:?}");
        assert!(deps.iter().all(|d| d < id), "{a:?}");
    }
}

/// Stand-ins for Slurm's commands in a folder of their own: `sbatch`
/// logs its arguments and answers ids from 1001 with a cluster's name, as
/// `--parsable` does on a multi-cluster installation (`1001;main`),
/// `squeue` prints the file
/// `queue`, `scancel` logs its arguments.
fn fake_slurm(dir: &Path) {
    let script = |name: &str, body: &str| {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        let mut p = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut p, 0o755);
        std::fs::set_permissions(&path, p).unwrap();
    };
    let d = dir.display();
    script(
        "sbatch",
        &format!(
            "n=$(cat {d}/next 2>/dev/null || echo 1001)\necho $((n + 1)) > {d}/next\n\
             for a in \"$@\"; do printf '%s\\n' \"$a\"; done > {d}/sbatch.$n\necho \"$n;main\""
        ),
    );
    script("squeue", &format!("cat {d}/queue 2>/dev/null || true"));
    script("scancel", &format!("echo \"$@\" >> {d}/scancel.log"));
}

/// A folder of stand-ins (`fake_slurm`) named for a test, and a PATH
/// that finds them first.
fn slurm_stand_ins(name: &str) -> (PathBuf, String) {
    let bin = scratch(&format!("{name}-bin"));
    fake_slurm(&bin);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    (bin, path)
}

/// The arguments of each `sbatch` call the stand-in logged, by job id.
fn sbatch_calls(dir: &Path) -> Vec<(u64, Vec<String>)> {
    let mut calls: Vec<(u64, Vec<String>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let id = name.strip_prefix("sbatch.")?.parse().ok()?;
            let args = std::fs::read_to_string(e.path()).unwrap();
            Some((id, args.lines().map(str::to_string).collect()))
        })
        .collect();
    calls.sort();
    calls
}

fn arg<'a>(args: &'a [String], key: &str) -> Option<&'a str> {
    args.iter().find_map(|a| a.strip_prefix(key))
}

#[test]
fn submit_chains_the_jobs_and_its_commands_build_the_tables() {
    let root = scratch("submit");
    let (bin, path) = slurm_stand_ins("submit");
    let dir = root.to_str().unwrap();
    let submit = |extra: &[&str]| -> (bool, String, String) {
        let mut a = vec!["tb", "submit", "--option", "Pieces=4", "--dir", dir];
        a.extend_from_slice(extra);
        let o = morris(&a, Some(&path));
        let (out, err) = text(&o);
        (o.status.success(), out, err)
    };
    let (good, out, err) = submit(&[
        "--slurm-opt=--partition=test",
        "--slurm-opt",
        "--time=1:00:00",
    ]);
    assert!(good, "{out}\n{err}");
    let calls = sbatch_calls(&bin);
    let jobs = plan_order(&["--option", "Pieces=4"]);
    let names: Vec<Sector> = calls
        .iter()
        .map(|(_, a)| Sector::parse(arg(a, "--job-name=morris-").unwrap()).unwrap())
        .collect();
    assert!(names.iter().all(|n| jobs.contains(n)));
    assert!(
        out.contains(&format!("submitted {} jobs", calls.len())),
        "{out}"
    );
    for (id, a) in &calls {
        assert_eq!(a[0], "--parsable");
        assert!(out.contains(&format!("submitted job {id}: ")), "{out}");
        // The user's options come after the generated ones.
        let n = a.len();
        assert_eq!(a[n - 3..n - 1], ["--partition=test", "--time=1:00:00"]);
        if let Some(d) = arg(a, "--dependency=afterok:") {
            for dep in d.split(':') {
                assert!(dep.parse::<u64>().unwrap() < *id, "{id} waits for {dep}");
            }
        }
    }
    // The jobs' commands, run in submission order, make the same tables as
    // one local run.
    for (_, a) in &calls {
        let wrap = arg(a, "--wrap=").unwrap();
        let o = Command::new("sh").args(["-c", wrap]).output().unwrap();
        assert!(o.status.success(), "{wrap}: {:?}", text(&o));
    }
    let local = scratch("submit-local");
    ok(&[
        "tb",
        "generate",
        "--phase",
        "all",
        "--option",
        "Pieces=4",
        "--dir",
        local.to_str().unwrap(),
    ]);
    let rules = pieces(4);
    for (a, b) in [
        (movement_dir(&root, &rules), movement_dir(&local, &rules)),
        (placement_dir(&root, &rules), placement_dir(&local, &rules)),
    ] {
        assert_eq!(files(&a), files(&b));
        for f in files(&a) {
            assert!(
                std::fs::read(a.join(&f)).unwrap() == std::fs::read(b.join(&f)).unwrap(),
                "{f}"
            );
        }
    }
    // Everything is there: nothing more to submit.
    let (good, out, _) = submit(&[]);
    assert!(good);
    assert!(out.contains("submitted 0 jobs"), "{out}");
    assert_eq!(sbatch_calls(&bin).len(), calls.len());

    // Three tables gone; in the queue the job of the first still pending,
    // that of the second failed, that of the third waiting for it for
    // ever: the first is kept, the third cancelled, the second and third
    // submitted again, each after the one it reads.
    let mdir = movement_dir(&root, &rules);
    for t in ["3-3", "4-3", "4-4"] {
        std::fs::remove_file(mdir.join(format!("{t}.mtb"))).unwrap();
    }
    let comment = |name: &str| {
        let folder = std::fs::canonicalize(&mdir).unwrap();
        format!("morris-tb {} {name}", folder.display())
    };
    std::fs::write(
        bin.join("queue"),
        format!(
            "77|PENDING|Resources|{}\n78|FAILED|NonZeroExitCode|{}\n\
             79|PENDING|DependencyNeverSatisfied|{}\n80|RUNNING|None|other work\n",
            comment("3-3"),
            comment("4-3"),
            comment("4-4")
        ),
    )
    .unwrap();
    let before = sbatch_calls(&bin).len();
    let (good, out, err) = submit(&[]);
    assert!(good, "{out}\n{err}");
    assert!(out.contains("kept job 77: 3-3"), "{out}");
    assert!(out.contains("cancelled job 79: 4-4"), "{out}");
    assert_eq!(
        std::fs::read_to_string(bin.join("scancel.log"))
            .unwrap()
            .trim(),
        "79"
    );
    // The placement tables that read them are there: not submitted.
    let calls = sbatch_calls(&bin);
    assert_eq!(calls.len(), before + 2, "{out}");
    let (id43, a43) = &calls[before];
    assert_eq!(arg(a43, "--job-name=morris-"), Some("4-3"));
    assert_eq!(arg(a43, "--dependency=afterok:"), Some("77"));
    let (_, a44) = &calls[before + 1];
    assert_eq!(arg(a44, "--job-name=morris-"), Some("4-4"));
    assert_eq!(
        arg(a44, "--dependency=afterok:"),
        Some(id43.to_string().as_str())
    );
    let status = morris(
        &[
            "tb", "status", "--slurm", "--option", "Pieces=4", "--dir", dir,
        ],
        Some(&path),
    );
    let (status, _) = text(&status);
    assert!(
        status.contains("missing, job 77 PENDING (Resources)"),
        "{status}"
    );
}

#[test]
fn submit_refuses_bad_input_and_submits_nothing() {
    let root = scratch("refuse");
    let (bin, path) = slurm_stand_ins("refuse");
    let dir = root.to_str().unwrap();
    // No sbatch on the PATH.
    let empty = scratch("refuse-empty");
    let err = fails(
        &["tb", "submit", "--option", "Pieces=4", "--dir", dir],
        Some(empty.to_str().unwrap()),
    );
    assert!(err.contains("sbatch not found on the PATH"), "{err}");
    // Rules the tables do not cover.
    let err = fails(
        &["tb", "submit", "--variant", "onetime", "--dir", dir],
        Some(&path),
    );
    assert!(
        err.contains("not covered") || err.contains("OneTimeMill"),
        "{err}"
    );
    // A folder that cannot be written: below a plain file.
    let file = root.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let below = file.join("tables");
    let err = fails(
        &[
            "tb",
            "submit",
            "--option",
            "Pieces=4",
            "--dir",
            below.to_str().unwrap(),
        ],
        Some(&path),
    );
    assert!(
        err.contains("cannot write to") && err.contains("nothing submitted"),
        "{err}"
    );
    // A placement plan whose movement tables are neither there nor queued.
    let err = fails(
        &[
            "tb",
            "submit",
            "--phase",
            "placement",
            "--option",
            "Pieces=4",
            "--dir",
            dir,
        ],
        Some(&path),
    );
    assert!(
        err.contains("is read by the plan but is not there"),
        "{err}"
    );
    assert!(sbatch_calls(&bin).is_empty());
}
