//! The text of the engine protocol in both directions: the commands a
//! front end sends (read by the engine, written by the match runner) and
//! the engine's replies (written by the engine, read by the match runner).
//! Each message has one writer and one reader, so both sides agree. The
//! other engine family's spelling, which only the match runner speaks, is
//! in `sanmill`.

mod command;
mod declaration;
mod gbgp;
mod go;
mod reply;
pub mod sanmill;

pub use command::{Command, CommandError, PositionArgs, parse as parse_command};
pub use declaration::{Declaration, DeclaredKind};
pub use gbgp::GbgpError;
pub(crate) use gbgp::parse_pos;
pub use go::{GoArgs, GoError};
pub use reply::{BestMove, EngineLine, InfoLine, ReplyError};

/// The engine's answer to `isready`.
pub const READY_OK: &str = "readyok";

/// The protocol's two spellings: the UCI-like one, and the Generic Board
/// Game Protocol (Nine Morris 3D and kin). They differ only in a few words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// The UCI-like dialect: `uci`, `uciok`, `score cp`/`mate`,
    /// `bestmove (none)`.
    Uci,
    /// The GBGP dialect: `gbgp`, `gbgpok`, `score eval`/`win`,
    /// `bestmove none`.
    Gbgp,
}

impl Dialect {
    /// Both dialects, UCI first.
    pub const ALL: [Dialect; 2] = [Dialect::Uci, Dialect::Gbgp];

    /// The handshake command, which also names the dialect (`proto=uci|gbgp`).
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Gbgp => "gbgp",
        }
    }

    /// The dialect of a handshake word or `proto=` setting.
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The last line of the engine's answer to the handshake.
    pub fn hello_ok(self) -> &'static str {
        match self {
            Dialect::Uci => "uciok",
            Dialect::Gbgp => "gbgpok",
        }
    }

    /// The command announcing a new game.
    pub fn new_game(self) -> &'static str {
        match self {
            Dialect::Uci => "ucinewgame",
            Dialect::Gbgp => "newgame",
        }
    }

    /// The `bestmove` word for "no move".
    pub fn null_move(self) -> &'static str {
        match self {
            Dialect::Uci => "(none)",
            Dialect::Gbgp => "none",
        }
    }

    /// The score words: centipawns, then a forced win in N moves.
    pub(crate) fn score_words(self) -> [&'static str; 2] {
        match self {
            Dialect::Uci => ["cp", "mate"],
            Dialect::Gbgp => ["eval", "win"],
        }
    }
}
