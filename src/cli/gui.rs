//! `morris gui`: the board in the browser. Serves until interrupted
//! (Ctrl-C or SIGTERM), then shuts the engine down.

use std::sync::atomic::{AtomicBool, Ordering};

use clap::{ArgAction, Args};

use super::CliError;
use super::stdout::outln;
use morris::tools::EngineSpec;
use morris::tools::Gui;

#[derive(Args, Debug)]
pub struct GuiArgs {
    /// Port on 127.0.0.1 (default: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Open the page in the system's browser.
    #[arg(long)]
    pub open: bool,
    /// The engine: cmd=PROGRAM then key=value settings as for `morris match`
    /// (default: this morris); its limit (depth=, movetime=, nodes=, or
    /// tc=SECONDS+INC for a clock) is the first game's.
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append)]
    pub engine: Vec<String>,
}

/// Set by SIGINT and SIGTERM: the server stops and drops its engine.
static STOP: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::Relaxed);
}

/// Stops the server on SIGINT and SIGTERM. Elsewhere an interrupt ends the
/// process, and the engine quits when its input closes.
fn stop_on_signals() {
    #[cfg(unix)]
    {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: the handler only stores to an atomic, which is
        // async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, handler);
            libc::signal(libc::SIGTERM, handler);
        }
    }
}

pub fn run(args: &GuiArgs) -> Result<(), CliError> {
    let spec = if args.engine.is_empty() {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find this program to start it as the engine: {e}"))?;
        EngineSpec::parse(&[format!("cmd={}", exe.display()), "name=morris".into()])?
    } else {
        EngineSpec::parse(&args.engine)?
    };
    let gui = Gui::bind(args.port, spec)
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
    let url = gui.url();
    outln!("{url}");
    stop_on_signals();
    if args.open {
        open_browser(&url);
    }
    gui.serve(&STOP);
    Ok(())
}

/// Starts the system's browser on `url`; failing that, says so (the URL
/// is printed anyway).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("morris: could not start {opener}: {e}; open {url} by hand");
    }
}
