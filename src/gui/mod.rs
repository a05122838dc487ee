//! `connect6 gui`: a board in the browser, served by this program on loopback. Play an engine
//! with the mouse, watch a match live, step through records (README, "A board in the
//! browser"). The page and its script are compiled in: nothing is fetched from the network.
//!
//! - [`http`]: the small HTTP/1.1 and server-sent events it speaks;
//! - [`hub`]: the one state, and its followers;
//! - [`routes`]: the page's routes, each request parsed before it is applied;
//! - [`play`], [`watch`], [`review`]: the three modes, and [`tasks`] the threads that
//!   play, watch and analyse for them; [`engine`]: an engine process with its
//!   log; [`board`]: a game as the page draws it.

pub mod board;
pub mod engine;
pub mod http;
pub mod hub;
pub mod play;
pub mod review;
pub mod routes;
pub mod tasks;
pub mod watch;

use std::net::{IpAddr, Ipv4Addr, TcpListener};
use std::process::ExitCode;
use std::sync::Arc;

/// Options of `connect6 gui`.
#[derive(Clone, Debug, clap::Args)]
pub struct GuiArgs {
    /// Port to listen on; 0 picks a free one (the banner says which).
    #[arg(long, value_name = "P", default_value_t = 8066)]
    pub port: u16,
    /// Address to listen on. Anything but loopback lets other machines play your engines.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
}

/// The banner's word on who can reach the server.
fn reach(address: IpAddr) -> &'static str {
    if address.is_loopback() {
        "loopback only: other machines cannot reach it"
    } else {
        "NOT loopback: other machines on the network can reach it, and through it start \
         programs and read files here"
    }
}

/// Entry point: binds, prints where to open the page, and serves until killed. Exit code 2
/// when the address cannot be bound.
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
    // Tests and scripts read this line for the port: keep its shape.
    println!(
        "connect6 gui: open http://{address}/ in a browser ({})",
        reach(address.ip())
    );
    let hub = Arc::new(hub::Hub::default());
    let bound = address.ip();
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                let hub = Arc::clone(&hub);
                std::thread::spawn(move || routes::handle(&hub, stream, bound));
            }
            Err(e) => log::warn!("connection refused: {e}"),
        }
    }
    ExitCode::SUCCESS
}
