//! Files written whole or not at all: each goes to a temporary named
//! after its writer's process id, is synced and renamed; the temporaries
//! of interrupted writes are found and removed (a process ending removes
//! its own, a later run those of writers no longer running).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::TablebaseError;

/// Writes a file made of `parts` atomically: temporary file, sync, rename.
pub(crate) fn write_parts_atomically(path: &Path, parts: &[&[u8]]) -> Result<(), TablebaseError> {
    write_atomically(path, parts).map_err(|error| TablebaseError::Io {
        path: path.to_path_buf(),
        error,
    })
}

fn write_atomically(path: &Path, parts: &[&[u8]]) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    let tmp = temporary(path, std::process::id());
    {
        let mut writing = writing();
        if writing.ending {
            return Err(io::Error::other("the process is ending"));
        }
        writing.tables.push(tmp.clone());
    }
    let written = (|| {
        let mut f = io::BufWriter::new(File::create(&tmp)?);
        for part in parts {
            f.write_all(part)?;
        }
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        // A full disk leaves no half-written temporary behind.
        let _ = fs::remove_file(&tmp);
    }
    writing().tables.retain(|p| *p != tmp);
    written
}

/// The temporary a process writes table `path` into before renaming it.
fn temporary(path: &Path, pid: u32) -> PathBuf {
    path.with_extension(format!("tmp{pid}"))
}

/// The temporaries this process is writing now, and whether it is ending
/// (then no write starts).
struct Writing {
    tables: Vec<PathBuf>,
    ending: bool,
}

fn writing() -> std::sync::MutexGuard<'static, Writing> {
    static WRITING: std::sync::Mutex<Writing> = std::sync::Mutex::new(Writing {
        tables: Vec::new(),
        ending: false,
    });
    WRITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the temporaries this process is writing, and fails the writes
/// that would start after: for a process that is ending (a signal, the
/// engine's last command), so that it leaves no partial file.
pub fn remove_temporaries_being_written() {
    let mut writing = writing();
    writing.ending = true;
    for tmp in writing.tables.drain(..) {
        let _ = fs::remove_file(tmp);
    }
}

/// Removes every temporary of table `path`, whoever wrote it: for a job
/// that is the only writer of its tables (one cluster job per table).
pub(crate) fn remove_temporaries_of(path: &Path) {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) else {
        return;
    };
    let prefix = format!("{}.tmp", stem.to_string_lossy());
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// The temporaries of interrupted writes of the tables in `dir`.
pub fn temporaries(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| writer_of(p).is_some())
        .collect();
    found.sort();
    found
}

/// The process id in a temporary's name (`Some(None)`: a temporary whose
/// name has none); `None` for other files.
fn writer_of(path: &Path) -> Option<Option<u32>> {
    path.extension()
        .and_then(|x| x.to_str())
        .and_then(|x| x.strip_prefix("tmp"))
        .map(|pid| pid.parse::<u32>().ok())
}

/// Removes the temporary files of interrupted writes from a rules folder:
/// those of processes no longer running (a temporary is named after its
/// writer's process id).
pub(crate) fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        match writer_of(&path) {
            Some(Some(pid)) if process_alive(pid) => {}
            Some(_) => {
                let _ = fs::remove_file(path);
            }
            None => {}
        }
    }
}

/// Whether a process with this id is running.
pub(crate) fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let found = unsafe { libc::kill(pid, 0) } == 0;
        found || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}
