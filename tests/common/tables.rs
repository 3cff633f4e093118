//! Endgame tables made afresh for a test file, in its own folder under
//! the build's temporary directory.

use std::path::PathBuf;

use morris::rules::Rules;
use morris::tablebase::{GenerateOptions, Subspace, generate};

/// A new folder `name` holding, for each (rules, subspace), that subspace
/// with its mirror and what it depends on.
pub fn made(name: &str, tables: &[(Rules, Subspace)]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let options = GenerateOptions {
        threads: 2,
        wdl: false,
        ..GenerateOptions::default()
    };
    for (rules, sub) in tables {
        generate(&dir, rules, &[*sub], &options).unwrap();
    }
    dir
}
