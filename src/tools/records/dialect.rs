//! Whose records a text follows: ours, PlayOK's or Sanmill's (told
//! apart as it is read, `records::read`; written in any, `Record::write`).

/// Whose records a record's text follows.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum RecordDialect {
    /// Ours: rule tags named as our options, our position string.
    #[default]
    Morris,
    /// PlayOK's: `[Site "PlayOK"]` or moves in its numbers, the standard
    /// game with flying (our preset `nine`, unless the tags say otherwise).
    PlayOk,
    /// Sanmill's: `[Site "Sanmill"]`, its `Variant` names (its standard
    /// game is our `nine-app`, also when the tag is missing) or its
    /// position string.
    Sanmill,
}

impl RecordDialect {
    /// The dialect named `name` (any case): morris, playok, sanmill.
    pub fn find(name: &str) -> Option<RecordDialect> {
        [
            RecordDialect::Morris,
            RecordDialect::PlayOk,
            RecordDialect::Sanmill,
        ]
        .into_iter()
        .find(|d| d.name().eq_ignore_ascii_case(name))
    }

    /// Its name on the command line (`record --to`, `analyze
    /// --out-dialect`): morris, playok or sanmill.
    pub fn name(self) -> &'static str {
        match self {
            RecordDialect::Morris => "morris",
            RecordDialect::PlayOk => "playok",
            RecordDialect::Sanmill => "sanmill",
        }
    }
}
