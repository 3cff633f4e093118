//! A running `morris gui` for the tests (its engine the `morris` under
//! test, its tables in a folder of the test's own, never built in the
//! background), killed when dropped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

pub struct GuiServer {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl GuiServer {
    /// Started with these extra arguments and tables from `dir`.
    pub fn start_in(args: &[&str], dir: &Path) -> GuiServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
            .args(["gui", "--port", "0"])
            .args(args)
            .env("MORRIS", env!("CARGO_BIN_EXE_morris"))
            .env("MORRIS_TB_DIR", dir)
            .env("MORRIS_TB_AUTO", "0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not a URL: {line:?}"))
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        GuiServer { child, addr }
    }

    /// The page's URL, as the server printed it.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for GuiServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
