//! Drives the built `morris` binary over its stdin/stdout, as a front end does.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Keeps a `morris` process away from the user's table cache: tables under
/// a temporary folder, and none built automatically (a test that wants
/// them sets `MORRIS_TB_AUTO` or `TablebaseAuto` itself).
pub fn isolate(command: &mut Command) -> &mut Command {
    let dir = std::env::temp_dir().join(format!("morris-test-tb-{}", std::process::id()));
    command.env("MORRIS_TB_DIR", dir).env("MORRIS_TB_AUTO", "0")
}

/// Only a guard against hangs, never a speed assertion.
pub const GUARD: Duration = Duration::from_secs(60);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with_args(&[])
    }

    pub fn start_with_args(args: &[&str]) -> Engine {
        Engine::start_with_env(args, &[])
    }

    /// Started with these environment variables over the isolating ones.
    pub fn start_with_env(args: &[&str], vars: &[(&str, &str)]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_morris"));
        isolate(&mut command);
        let mut child = command
            .envs(vars.iter().copied())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start morris");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut e = Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        };
        let banner = e.next_line(GUARD).expect("banner");
        assert!(banner.starts_with("morris "), "banner: {banner}");
        e
    }

    /// Sends raw text (no newline added).
    pub fn send_raw(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(&format!("{line}\n"));
    }

    /// Closes the engine's input (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns all lines read, that one last.
    pub fn read_until(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + GUARD;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_line(left) else {
                panic!(
                    "no expected line; transcript:\n{}",
                    self.transcript.join("\n")
                );
            };
            let done = pred(&line);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    pub fn read_until_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.read_until(|l| l.starts_with(prefix))
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// The whole output of `d`.
    pub fn display(&mut self) -> Vec<String> {
        self.send("d");
        self.sync()
    }

    /// The `Fen:` line of `d`.
    pub fn fen(&mut self) -> String {
        let lines = self.display();
        let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: "));
        fen.unwrap_or_else(|| panic!("no Fen line: {lines:?}"))
            .to_string()
    }

    /// The legal moves the engine lists.
    pub fn moves(&mut self) -> Vec<String> {
        self.send("moves");
        let line = self.read_until_prefix("moves").pop().unwrap();
        line.split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect()
    }

    /// The move of the next `bestmove` line (and the lines before it).
    pub fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.read_until_prefix("bestmove");
        let mv = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (mv, lines)
    }

    /// Whether the process ends within the guard; returns its success.
    pub fn wait_exit(&mut self) -> bool {
        let deadline = Instant::now() + GUARD;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("engine did not exit");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
