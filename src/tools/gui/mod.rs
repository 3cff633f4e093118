//! A board in the browser (`morris gui`): a small HTTP server on the
//! loopback interface serving one page and a JSON API over one game, with
//! the engine as a child process driven through the protocol like `morris
//! match`'s. Every asset is compiled into the binary.
//!
//! Requests are answered by a few threads at once; the engine searches in
//! a thread of its own, so the page is answered while it thinks.
//!
//! DNS rebinding is refused by checking every request's `Host` against
//! the loopback names of the bound port, and a POST's `Origin` (when
//! given) against the same; nothing is read from the file system.
//!
//! The files, and where a change goes (each part owns its fields; only the
//! board sees them all, and the imports run one way: `api` → `board` →
//! the parts, never back):
//! - `api.rs`: HTTP routes, request checks, JSON bodies in; a new route.
//! - `board.rs`: the requests, composing the parts under one lock, the
//!   exact values shown (`known`), the search threads; a new request.
//! - `game.rs`: the game's record (moves, view, scores, notes, the end).
//! - `orders.rs`: what the engine is told to do (sides, strength, pause,
//!   analysis); a new engine setting.
//! - `scheduler.rs`: which search runs, its start and cancellation, the
//!   engine process; how the engine is talked to.
//! - `clock.rs`, `coach.rs`: the clocks; the coach's judgement.
//! - `view.rs`: the JSON the page is sent, from values handed to it.
//! - `error.rs`: why a request failed, and its HTTP status.

mod api;
mod board;
mod clock;
mod coach;
mod error;
mod game;
mod orders;
mod scheduler;
mod view;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tiny_http::Server;

use crate::tools::matches::engine_spec::EngineSpec;
use board::Board;

/// Threads answering requests.
const REQUEST_THREADS: usize = 4;

/// The server, bound but not yet serving.
pub struct Gui {
    server: Arc<Server>,
    addr: SocketAddr,
    board: Arc<Board>,
}

impl Gui {
    /// Binds 127.0.0.1:`port` (0: a free port), the engine to be started
    /// from `engine` when first asked to move.
    pub fn bind(port: u16, engine: EngineSpec) -> io::Result<Gui> {
        let server = Server::http(("127.0.0.1", port)).map_err(io::Error::other)?;
        let addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| io::Error::other("not an IP address"))?;
        Ok(Gui {
            server: Arc::new(server),
            addr,
            board: Board::new(engine),
        })
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Answers requests until `stop` is set, then stops the engine's
    /// search and shuts the engine process down.
    pub fn serve(self, stop: &AtomicBool) {
        let port = self.addr.port();
        std::thread::scope(|scope| {
            for _ in 0..REQUEST_THREADS {
                scope.spawn(|| {
                    while !stop.load(Ordering::Relaxed) {
                        match self.server.recv_timeout(Duration::from_millis(200)) {
                            Ok(Some(request)) => api::answer(&self.board, port, request),
                            Ok(None) => {}
                            Err(e) => log::warn!("gui: {e}"),
                        }
                    }
                });
            }
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(50));
                }
                // A request waiting for the engine ends with its search.
                self.board.shut_down();
            });
        });
    }
}
