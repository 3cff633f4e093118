//! The tables a tool has open, through their life: opened for the rules
//! in force (reading nothing until probed), reopened to see what was
//! written since, the missing ones built (now, or in the background with
//! the tables reopened when it has made some), and the files found
//! unusable collected for whoever reports them. Each front end holds one
//! (through the engine layer's `Oracle`).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::error::{Faults, TableFault};
use crate::fingerprint::Fingerprint;
use crate::format::atomic::remove_temporaries_being_written;
use crate::generator::auto;
use crate::generator::auto::{Background, Event};
use crate::probe::tables::Tablebases;
use morris_rules::Rules;

/// A tool's open tables.
pub struct OpenTables {
    /// The root folder (`None`: no tables).
    root: Option<PathBuf>,
    faults: Arc<Faults>,
    current: Option<Arc<Tablebases>>,
    build: Build,
    /// The rules `build_for` last built for (in the caller's thread).
    built: Option<Fingerprint>,
}

/// The background build: what it builds, and its count of ready tables
/// when the tables were last reopened.
#[derive(Default)]
struct Build {
    key: Option<(Option<PathBuf>, Fingerprint, u8)>,
    background: Option<Background>,
    seen: usize,
}

/// What `build_in_background` did.
#[derive(Debug, PartialEq, Eq)]
pub enum Building {
    /// A build for these rules, folder and size goes on (or has ended).
    Unchanged,
    /// A new build started (the previous one, if any, cancelled).
    Started,
    /// Nothing to build: the size is 0.
    Off,
    /// Nothing to build into: there is no folder.
    NoFolder,
}

impl OpenTables {
    /// The tables under `root` (`None`: no tables), none open yet.
    pub fn new(root: Option<PathBuf>) -> OpenTables {
        OpenTables {
            root,
            faults: Arc::default(),
            current: None,
            build: Build::default(),
            built: None,
        }
    }

    /// The root folder the tables are read from (`None`: no tables).
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// Another root folder: the tables open are closed.
    pub fn set_root(&mut self, root: Option<PathBuf>) {
        if root != self.root {
            self.root = root;
            self.current = None;
        }
    }

    /// The tables open now.
    pub fn current(&self) -> Option<&Arc<Tablebases>> {
        self.current.as_ref()
    }

    /// The tables for `rules`: those open when they serve these rules,
    /// else newly opened (nothing is read until a probe needs it).
    fn for_rules(&mut self, rules: &Rules) -> Option<Arc<Tablebases>> {
        let root = self.root.as_ref()?;
        if !self.current.as_ref().is_some_and(|t| t.serves(rules)) {
            self.current = Some(Arc::new(Tablebases::open_reporting(
                root,
                rules,
                Arc::clone(&self.faults),
            )));
        }
        self.current.clone()
    }

    /// `for_rules`, reopened to see the tables written since they were
    /// opened (those loaded stay loaded).
    pub fn reopened_for(&mut self, rules: &Rules) -> Option<Arc<Tablebases>> {
        if let Some(t) = self.current.as_ref().filter(|t| t.serves(rules)) {
            self.current = Some(Arc::new(t.refreshed()));
        }
        self.for_rules(rules)
    }

    /// Builds the missing tables for `rules` up to `max` stones a side in
    /// this thread, as `TablebaseAuto` does in the background (what
    /// happens goes to `event`), and opens them; nothing under
    /// `MillReform`, which the tables do not serve.
    pub fn build_for(&mut self, rules: &Rules, max: u8, event: impl FnMut(Event)) {
        if rules.mill_reform {
            return;
        }
        let fingerprint = Fingerprint::of(rules);
        if self.built.as_ref() == Some(&fingerprint)
            && self.current.as_ref().is_some_and(|t| t.serves(rules))
        {
            return;
        }
        let Some(root) = self.root.as_ref() else {
            return;
        };
        let never = AtomicBool::new(false);
        auto::build(root, rules, max, &self.faults, &never, event);
        self.built = Some(fingerprint);
        // Reopened: the tables opened before the build do not see its own.
        self.reopened_for(rules);
    }

    /// Stops the background build for a tool that is ending, and removes
    /// the table it was writing: the thread stops only between pairs, and
    /// the process does not wait for it, so no partial file is left.
    pub fn stop_building(&mut self) {
        self.build = Build::default();
        remove_temporaries_being_written();
    }

    /// Builds the missing tables for `rules` up to `max` stones a side in
    /// a background thread, unless a build for the same folder, rules and
    /// size was started before; a build for others is cancelled. Its
    /// events go to `event`.
    pub fn build_in_background(
        &mut self,
        rules: &Rules,
        max: u8,
        event: impl FnMut(Event) + Send + 'static,
    ) -> io::Result<Building> {
        let key = (self.root.clone(), Fingerprint::of(rules), max);
        if self.build.key.as_ref() == Some(&key) {
            return Ok(Building::Unchanged);
        }
        // Dropping the old build cancels it.
        self.build = Build {
            key: Some(key),
            ..Build::default()
        };
        match (&self.root, max) {
            (_, 0) => Ok(Building::Off),
            (None, _) => Ok(Building::NoFolder),
            (Some(root), _) => {
                let faults = Arc::clone(&self.faults);
                self.build.background =
                    Some(Background::spawn(root.clone(), *rules, max, faults, event)?);
                Ok(Building::Started)
            }
        }
    }

    /// Reopens the tables open if the background build has made tables
    /// since they were last reopened.
    pub fn reopen_if_built(&mut self) {
        let ready = self.build.background.as_ref().map_or(0, Background::ready);
        if ready == self.build.seen {
            return;
        }
        let Some(current) = self.current.as_ref() else {
            return;
        };
        self.current = Some(Arc::new(current.refreshed()));
        self.build.seen = ready;
    }

    /// The unusable table files found and not reported yet.
    pub fn take_faults(&self) -> Vec<TableFault> {
        self.faults.take()
    }

    /// Where faults are collected, for a thread that reports them.
    pub fn faults(&self) -> Arc<Faults> {
        Arc::clone(&self.faults)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::generate::{self, GenerateOptions};
    use crate::sector::Subspace;
    use morris_rules::Position;

    #[test]
    fn reopening_sees_tables_written_since_and_builds_are_keyed() {
        let root = std::env::temp_dir().join(format!("morris-open-tables-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let rules = Rules::default();
        let mut tables = OpenTables::new(Some(root.clone()));
        let pos = Position::from_fen("W2/W2/W2/6/3/BB1/B2 w 0 0 0 1", &rules).unwrap();
        let before = tables.for_rules(&rules).unwrap();
        assert_eq!(before.probe(&pos), None);
        let options = GenerateOptions {
            threads: 1,
            ..GenerateOptions::default()
        };
        generate::generate(&root, &rules, &[Subspace::new(3, 3)], &options).unwrap();
        // The same tables until reopened.
        assert!(Arc::ptr_eq(&before, &tables.for_rules(&rules).unwrap()));
        assert!(tables.reopened_for(&rules).unwrap().probe(&pos).is_some());
        // Other rules: other tables.
        let twelve = Rules::with_settings("twelve", &[] as &[&str]).unwrap();
        assert!(tables.for_rules(&twelve).unwrap().serves(&twelve));

        let quiet = |_: Event| {};
        assert_eq!(
            tables.build_in_background(&rules, 0, quiet).unwrap(),
            Building::Off
        );
        assert_eq!(
            tables.build_in_background(&rules, 0, quiet).unwrap(),
            Building::Unchanged
        );
        tables.set_root(None);
        assert!(tables.for_rules(&rules).is_none());
        assert_eq!(
            tables.build_in_background(&rules, 3, quiet).unwrap(),
            Building::NoFolder
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
