//! `morris record`: game records converted between dialects (ours,
//! PlayOK's, Sanmill's), each checked by replaying it through the rules
//! core.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::args::{dialect, read_input};
use super::stdout::out;
use morris::rules::RuleOptionId;
use morris::tools::{InputError, RecordDialect, parse_records};

const RECORD_HELP: &str = "\
DIALECTS:
  morris: ours (rule tags named as our options, our position string).
  playok: PlayOK's records, moves on points numbered 1 (a7) to 24 (g1), left to
    right, top to bottom: 12 a placement, 12-13 a move, x5 a removal. Read as
    our preset nine (the standard game with flying) unless the tags say other.
  sanmill: the other public app's PGN: its rule-set names (Variant \"Nine Men's
    Morris\" is our nine-app, also when the tag is missing) and its position
    string in FEN; variations and NAGs are skipped.
  Each record's dialect is told from its tags and moves; several records, of
  any dialects, may share a file.

EXAMPLES:
  morris record --to sanmill games.pgn > for-sanmill.pgn
  morris record playok-game.txt | morris analyze";

/// Arguments of `morris record`.
#[derive(Args, Debug)]
#[command(after_help = RECORD_HELP)]
pub struct RecordArgs {
    /// Game records in any dialect; `-` or none: stdin.
    pub input: Option<PathBuf>,
    /// The dialect written: morris, playok or sanmill.
    #[arg(long, default_value = "morris", value_parser = dialect)]
    pub to: RecordDialect,
    /// Rules of every record instead of those its tags imply (a preset).
    #[arg(long)]
    pub variant: Option<String>,
    /// A rule option of every record as Name=Value (repeatable), applied
    /// after its preset.
    #[arg(long = "option", value_name = "Name=Value")]
    pub options: Vec<String>,
}

/// `morris record`.
pub fn run(args: &RecordArgs) -> Result<(), CliError> {
    let (name, text) = read_input(args.input.as_deref())?;
    let error = |source| InputError::Record {
        name: name.clone(),
        source,
    };
    let mut records = parse_records(&text).map_err(error)?;
    if records.is_empty() {
        return Err(InputError::Empty {
            name,
            what: "game record",
        }
        .into());
    }
    for record in &mut records {
        if let Some(v) = &args.variant {
            record.tags.retain(|(k, _)| RuleOptionId::find(k).is_none());
            record.set_tag("Variant", v);
        }
        for setting in &args.options {
            let (k, v) = setting
                .split_once('=')
                .ok_or_else(|| format!("--option {setting}: not Name=Value"))?;
            record.set_tag(k.trim(), v.trim());
        }
        out!("{}", record.write(args.to).map_err(error)?);
    }
    Ok(())
}
