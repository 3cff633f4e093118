//! The command line described for shells and for `man`, generated from
//! clap's own definitions so that neither drifts from the commands:
//! `morris completions SHELL` and `morris man`.

use clap::Args;
use clap_complete::Shell;

use super::CliError;
use super::stdout::out;

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: Shell,
}

/// Prints the completion script of `command` for a shell (for example
/// `morris completions bash > /etc/bash_completion.d/morris`).
pub fn completions(a: &CompletionsArgs, mut command: clap::Command) -> Result<(), CliError> {
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut command, "morris", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    Ok(())
}

/// Prints the manual page of `command` in roff (`morris man | man -l -`).
pub fn man(command: clap::Command) -> Result<(), CliError> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut page)
        .map_err(|e| CliError::Message(format!("cannot render the manual page: {e}")))?;
    out!("{}", String::from_utf8_lossy(&page));
    Ok(())
}
