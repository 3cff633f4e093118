//! `morris` without a subcommand: the engine on stdin/stdout.

use morris::protocol::{self, Output};

pub fn run() {
    protocol::run(std::io::stdin().lock(), Output::new(std::io::stdout()));
}
