//! Headless Chromium under chromedriver, driven over WebDriver (fantoccini),
//! for tests that use a page as a person would. Without a browser or its
//! driver a test does not run and says so loudly on stderr, with the
//! command that installs them; where `MORRIS_BROWSER_TESTS=required` (set
//! by `.ci/run`, which installs them) their absence fails the test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

const INSTALL: &str = "the browser tests need headless Chromium and its WebDriver: \
    on Debian `apt-get install chromium chromium-driver` (.ci/run installs them)";

const BROWSER: [&str; 2] = ["chromium", "chromium-browser"];
const DRIVER: [&str; 1] = ["chromedriver"];

/// The first of `names` on `PATH`.
fn lookup(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

fn find_program(names: &[&str]) -> PathBuf {
    lookup(names).unwrap_or_else(|| panic!("none of {names:?} on PATH: {INSTALL}"))
}

/// Whether a browser test can run here. When it cannot, says why on
/// stderr past the test harness's capture (so a passing run shows it),
/// or fails when the environment requires the browser tests.
pub fn available(test: &str) -> bool {
    let missing: Vec<&str> = [&BROWSER[..], &DRIVER[..]]
        .into_iter()
        .filter(|names| lookup(names).is_none())
        .map(|names| names[0])
        .collect();
    if missing.is_empty() {
        return true;
    }
    let why = format!("{} not on PATH; {INSTALL}", missing.join(" and "));
    if std::env::var("MORRIS_BROWSER_TESTS").is_ok_and(|v| v == "required") {
        panic!("MORRIS_BROWSER_TESTS=required, but {why}");
    }
    let banner = "*".repeat(72);
    let _ = writeln!(
        std::io::stderr(),
        "\n{banner}\n{test}: NOT RUN: {why}\n{banner}\n"
    );
    false
}

/// Chromium's switches: headless, and every request off this machine's
/// loopback fails (names resolve nowhere, and anything not bypassed goes to
/// a proxy on a closed port), so the page is seen as it is offline.
const ARGS: [&str; 8] = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    // Containers often have a small /dev/shm, which crashes the renderer.
    "--disable-dev-shm-usage",
    "--window-size=1100,900",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--proxy-server=127.0.0.1:9",
    "--no-first-run",
];

/// A chromedriver process in a process group of its own, so that dropping
/// it also ends the browsers it started, whatever state the test left.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        let program = find_program(&DRIVER);
        let mut child = Command::new(&program)
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}; {INSTALL}", program.display()));
        // "ChromeDriver was started successfully on port N."
        let mut port = None;
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            if let Some(rest) = line.split(" on port ").nth(1)
                && line.contains("started successfully")
            {
                port = Some(rest.trim_end_matches('.').parse().unwrap());
                break;
            }
        }
        let port = port.unwrap_or_else(|| panic!("chromedriver did not start; {INSTALL}"));
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group this test created: chromedriver and its browsers.
        let group = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) with a negative pid only signals that group.
        unsafe { libc::kill(-group, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// One message of the browser's console log.
#[derive(Debug)]
pub struct LogEntry {
    pub level: String,
    pub message: String,
}

/// A browser session; the driver and browser end when it is dropped.
pub struct Browser {
    pub client: Client,
    driver: Driver,
}

impl Browser {
    pub async fn start() -> Browser {
        let chromium = find_program(&BROWSER);
        let driver = Driver::start();
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": ARGS},
            "goog:loggingPrefs": {"browser": "ALL"},
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!("an object literal")
        };
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await
            .unwrap_or_else(|e| panic!("no browser session: {e}; {INSTALL}"));
        Browser { client, driver }
    }

    /// The console messages since the last call, from chromedriver's log
    /// endpoint (which fantoccini does not wrap).
    pub async fn console(&self) -> Vec<LogEntry> {
        let session = self.client.session_id().await.unwrap().unwrap();
        let body = json!({"type": "browser"}).to_string();
        let mut stream = TcpStream::connect(("127.0.0.1", self.driver.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "POST /session/{session}/se/log HTTP/1.1\r\nHost: 127.0.0.1\r\n\
             Connection: close\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        // The driver keeps the connection open: read as far as its length.
        let mut reader = BufReader::new(stream);
        let mut length = None;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = Some(value.trim().parse().unwrap());
            }
        }
        let mut json = vec![0; length.expect("a Content-Length")];
        reader.read_exact(&mut json).unwrap();
        let value: Value = serde_json::from_slice(&json)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&json)));
        value["value"]
            .as_array()
            .unwrap_or_else(|| panic!("no log: {value}"))
            .iter()
            .map(|e| LogEntry {
                level: e["level"].as_str().unwrap_or_default().to_string(),
                message: e["message"].as_str().unwrap_or_default().to_string(),
            })
            .collect()
    }

    /// Ends the session (the browser exits), then the driver.
    pub async fn close(self) {
        let Browser { client, driver } = self;
        client.close().await.unwrap();
        drop(driver);
    }
}
