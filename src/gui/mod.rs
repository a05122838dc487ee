//! `connect6 gui`: a board in the browser, served by this program on loopback. Play an engine
//! with the mouse, watch a match live, step through records (README, "A board in the
//! browser"). The page and its script are compiled in: nothing is fetched from the network.
//!
//! - [`http`]: the small HTTP/1.1 and server-sent events it speaks; [`access`]: who may ask
//!   (this host, its origin, the run's token);
//! - [`hub`]: the one state, and its followers;
//! - [`routes`]: the page's routes, each request parsed before it is applied;
//! - [`play`], [`watch`], [`review`]: the three modes, and [`tasks`] the threads that
//!   play, watch and analyse for them; [`engine`]: an engine process with its
//!   log; [`board`]: a game as the page draws it; [`graph`]: the score graph's state;
//!   [`overlay`]: the threats marked on the board.

pub mod access;
pub mod board;
pub mod engine;
pub mod graph;
pub mod http;
pub mod hub;
pub mod overlay;
pub mod panel;
pub mod play;
pub mod review;
pub mod routes;
pub mod tasks;
pub mod watch;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Connections served at once (event streams included: one per open page). Past this a
/// connection is answered 503 and closed, so a crowd of idle sockets cannot take every
/// thread and file descriptor.
pub const MAX_CONNECTIONS: usize = 64;
/// How long to wait after a failed accept (out of file descriptors, say) before the next:
/// the failure repeats at once otherwise, and the loop would spin.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);
/// A run of failed accepts is logged once per this.
const ACCEPT_LOG_EVERY: Duration = Duration::from_secs(60);

/// Options of `connect6 gui`.
#[derive(Clone, Debug, clap::Args)]
pub struct GuiArgs {
    /// Port to listen on; 0 picks a free one (the banner says which).
    #[arg(long, value_name = "P", default_value_t = 8066)]
    pub port: u16,
    /// Address to listen on. Anything but loopback lets other machines that have the
    /// banner's token play your engines.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
}

/// The banner's word on who can reach the server.
fn reach(address: IpAddr) -> String {
    if address.is_loopback() {
        "loopback only: other machines cannot reach it".to_string()
    } else {
        let which = if address.is_unspecified() {
            "every network interface of this machine".to_string()
        } else {
            format!("{address}")
        };
        format!(
            "NOT loopback: listening on {which}, so any machine that can reach this port and \
             has the token in this address can start programs and read files here"
        )
    }
}

/// Counts a connection while it is served.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Answers a connection past the cap without a thread: 503, written without waiting.
fn turn_away(stream: TcpStream) {
    let _ = stream.set_nonblocking(true);
    let busy = http::Response::error(
        503,
        format!("too many connections (at most {MAX_CONNECTIONS}): try again"),
    );
    let _ = busy.write_to(&stream);
}

/// Entry point: binds, prints where to open the page, and serves until killed. Exit code 2
/// when the address cannot be bound or no token can be drawn.
pub fn run(args: GuiArgs) -> ExitCode {
    let listener = match TcpListener::bind((args.bind, args.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "connect6 gui: error: cannot listen on {}:{}: {e}",
                args.bind, args.port
            );
            return ExitCode::from(2);
        }
    };
    let address = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("connect6 gui: error: {e}");
            return ExitCode::from(2);
        }
    };
    let token = match access::new_token() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("connect6 gui: error: cannot draw a random token: {e}");
            return ExitCode::from(2);
        }
    };
    let guard = Arc::new(access::Guard::new(token, address.port()));
    // Tests and scripts read this line for the port and the token: keep its shape.
    println!(
        "connect6 gui: open http://{address}/?token={} in a browser ({})",
        guard.token(),
        reach(address.ip())
    );
    serve(&listener, address, &guard);
    ExitCode::SUCCESS
}

fn serve(listener: &TcpListener, address: SocketAddr, guard: &Arc<access::Guard>) {
    let hub = Arc::new(hub::Hub::default());
    let live = Arc::new(AtomicUsize::new(0));
    let mut logged: Option<Instant> = None;
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            Err(e) => {
                if logged.is_none_or(|t| t.elapsed() >= ACCEPT_LOG_EVERY) {
                    log::warn!(
                        "cannot accept connections on {address}: {e}; retrying every {} ms \
                         (said once a minute)",
                        ACCEPT_PAUSE.as_millis()
                    );
                    logged = Some(Instant::now());
                }
                std::thread::sleep(ACCEPT_PAUSE);
                continue;
            }
        };
        if live.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            log::debug!("{MAX_CONNECTIONS} connections served: one turned away");
            turn_away(stream);
            continue;
        }
        live.fetch_add(1, Ordering::SeqCst);
        let slot = Slot(Arc::clone(&live));
        let (hub, guard) = (Arc::clone(&hub), Arc::clone(guard));
        let spawned = std::thread::Builder::new()
            .name("gui-connection".into())
            .spawn(move || {
                let _slot = slot;
                routes::handle(&hub, stream, &guard);
            });
        // The closure, slot and stream with it, is dropped: the connection closes, counted out.
        if let Err(e) = spawned {
            log::warn!("cannot start a thread for a connection: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_says_what_another_bind_exposes() {
        assert!(reach(IpAddr::V4(Ipv4Addr::LOCALHOST)).starts_with("loopback only"));
        let all = reach("0.0.0.0".parse().unwrap());
        assert!(all.starts_with("NOT loopback"), "{all}");
        assert!(all.contains("every network interface"), "{all}");
        assert!(all.contains("has the token"), "{all}");
        assert!(reach("::".parse().unwrap()).contains("every network interface"));
        let one = reach("192.168.1.7".parse().unwrap());
        assert!(one.contains("listening on 192.168.1.7"), "{one}");
    }
}
