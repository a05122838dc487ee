//! The page's routes. Every request body is read into a typed request first; only a request
//! that reads whole is applied, and a refused one leaves the state as it was. Anything but
//! these routes is a 404.

use super::http::{self, Request, Response};
use super::hub::Hub;
use super::play::PlayConfig;
use super::tasks::{self, think, wake_of};
use super::{review, watch};
use crate::rules::board::Color;
use crate::rules::coord::Turn;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;
use std::io::Write;
use std::net::{IpAddr, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

const PAGE: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/app.css");

/// How often an idle event stream sends a keep-alive (and finds a closed page).
const KEEPALIVE: Duration = Duration::from_secs(15);
/// Our engine's move time in Play and Review unless the page asks for another.
const DEFAULT_MOVE_TIME: f64 = 2.0;

/// The command that runs this program as an engine: Play's and Review's default.
pub fn own_command() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| {
            shlex::try_quote(&p.to_string_lossy())
                .ok()
                .map(|q| q.into_owned())
        })
        .unwrap_or_else(|| "connect6".to_string())
}

/// A number as the page's form sends it (text) or as a program sends it (a number).
#[derive(Deserialize, Debug)]
#[serde(untagged)]
enum Field {
    Number(f64),
    Text(String),
}

impl Field {
    fn text(&self) -> String {
        match self {
            Field::Number(n) => n.to_string(),
            Field::Text(t) => t.trim().to_string(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayNew {
    engine: Option<String>,
    human: Option<String>,
    move_time: Option<Field>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayMove {
    cells: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WatchStart {
    engine_a: String,
    engine_b: String,
    move_time: Option<Field>,
    game_time: Option<Field>,
    games: Option<Field>,
    openings: Option<String>,
    records: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewOpen {
    path: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewGoto {
    upto: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewSelect {
    index: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewEngine {
    engine: Option<String>,
    move_time: Option<Field>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

fn body<T: DeserializeOwned>(request: &Request) -> Result<T, Response> {
    let text = if request.body.is_empty() {
        b"{}".as_slice()
    } else {
        &request.body
    };
    serde_json::from_slice(text).map_err(|e| Response::error(400, format!("request body: {e}")))
}

/// Positive seconds, as `match` and the engine take them; `default` when not given.
fn seconds(field: Option<&Field>, default: f64) -> Result<Duration, Response> {
    match field {
        None => Ok(Duration::from_secs_f64(default)),
        Some(f) => crate::arena::seconds(&f.text())
            .map_err(|e| Response::error(400, format!("move time '{}': {e}", f.text()))),
    }
}

/// The engine command (ours when blank) and the move time of a form that starts an engine.
fn engine_and_time(
    engine: Option<String>,
    move_time: Option<&Field>,
) -> Result<(String, Duration), Response> {
    let move_time = seconds(move_time, DEFAULT_MOVE_TIME)?;
    let command = engine
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(own_command);
    Ok((command, move_time))
}

fn ok() -> Response {
    Response::json(200, &json!({ "ok": true }))
}

fn play_new(hub: &Arc<Hub>, r: PlayNew) -> Response {
    let human = match r.human.as_deref().map(str::trim) {
        None | Some("black") => Color::Black,
        Some("white") => Color::White,
        Some(other) => return Response::error(400, format!("colour '{other}': black or white")),
    };
    let (command, move_time) = match engine_and_time(r.engine, r.move_time.as_ref()) {
        Ok(both) => both,
        Err(e) => return e,
    };
    let config = PlayConfig {
        command,
        human,
        move_time,
    };
    let wake = wake_of(hub);
    match hub.apply(|m| m.play.start(config, wake)) {
        Ok(job) => {
            think(hub, job);
            ok()
        }
        Err(e) => Response::error(e.status(), e),
    }
}

fn play_move(hub: &Arc<Hub>, r: PlayMove) -> Response {
    let turn = match Turn::parse(r.cells.trim()) {
        Ok(t) => t,
        Err(e) => return Response::error(422, format!("illegal turn '{}': {e}", r.cells)),
    };
    match hub.apply(|m| m.play.human_move(turn)) {
        Ok(job) => {
            think(hub, job);
            ok()
        }
        Err(e) => Response::error(e.status(), e),
    }
}

fn watch_start(hub: &Arc<Hub>, r: WatchStart) -> Response {
    let mut words = vec![r.engine_a, r.engine_b];
    let options = [
        ("--move-time", r.move_time.map(|f| f.text())),
        ("--game-time", r.game_time.map(|f| f.text())),
        ("--games", r.games.map(|f| f.text())),
        ("--openings", r.openings),
        ("--records", r.records),
    ];
    for (flag, value) in options {
        if let Some(v) = value.filter(|v| !v.trim().is_empty()) {
            words.push(format!("{flag}={}", v.trim()));
        }
    }
    let config = match watch::parse_options(&words) {
        Ok(c) => c,
        Err(e) => return Response::error(400, e),
    };
    match tasks::watch(hub, config) {
        Ok(()) => ok(),
        Err(e) => Response::error(409, e),
    }
}

fn review_engine(hub: &Arc<Hub>, r: ReviewEngine) -> Response {
    let (command, move_time) = match engine_and_time(r.engine, r.move_time.as_ref()) {
        Ok(both) => both,
        Err(e) => return e,
    };
    match tasks::ask_engine(hub, command, move_time) {
        Ok(()) => ok(),
        Err(e) => Response::error(409, e),
    }
}

/// Applies a parsed request and answers it.
fn with<T: DeserializeOwned>(request: &Request, apply: impl FnOnce(T) -> Response) -> Response {
    match body::<T>(request) {
        Ok(r) => apply(r),
        Err(e) => e,
    }
}

fn review_result(result: Result<(), review::ReviewError>) -> Response {
    match result {
        Ok(()) => ok(),
        Err(e @ review::ReviewError::Open(_)) => Response::error(422, e),
        Err(e) => Response::error(409, e),
    }
}

/// The answer to one request, except the event stream.
fn respond(hub: &Arc<Hub>, request: &Request) -> Response {
    let path = request.path.as_str();
    match (request.method.as_str(), path) {
        ("GET", "/") => Response::new(200, "text/html; charset=utf-8", PAGE),
        ("GET", "/app.js") => Response::new(200, "text/javascript; charset=utf-8", SCRIPT),
        ("GET", "/app.css") => Response::new(200, "text/css; charset=utf-8", STYLE),
        ("GET", "/state") => Response::json(200, &hub.snapshot().1),
        ("GET", "/defaults") => Response::json(
            200,
            &json!({ "engine": own_command(), "move_time": DEFAULT_MOVE_TIME }),
        ),
        ("POST", "/play/new") => with(request, |r| play_new(hub, r)),
        ("POST", "/play/move") => with(request, |r| play_move(hub, r)),
        ("POST", "/play/undo") => with(request, |_: Empty| match hub.apply(|m| m.play.undo()) {
            Ok(()) => ok(),
            Err(e) => Response::error(e.status(), e),
        }),
        ("POST", "/play/resign") => {
            with(request, |_: Empty| match hub.apply(|m| m.play.resign()) {
                Ok(()) => ok(),
                Err(e) => Response::error(e.status(), e),
            })
        }
        ("POST", "/watch/start") => with(request, |r| watch_start(hub, r)),
        ("POST", "/watch/stop") => with(request, |_: Empty| {
            match hub.apply(|m| m.watch.request_stop()) {
                Ok(()) => ok(),
                Err(e) => Response::error(409, e),
            }
        }),
        ("POST", "/review/open") => with(request, |r: ReviewOpen| {
            review_result(hub.apply(|m| m.review.open(&PathBuf::from(r.path.trim()))))
        }),
        ("POST", "/review/goto") => with(request, |r: ReviewGoto| {
            review_result(hub.apply(|m| m.review.goto(r.upto)))
        }),
        ("POST", "/review/select") => with(request, |r: ReviewSelect| {
            review_result(hub.apply(|m| m.review.select(r.index)))
        }),
        ("POST", "/review/losing") => {
            with(request, |_: Empty| review_result(tasks::find_losing(hub)))
        }
        ("POST", "/review/engine") => with(request, |r| review_engine(hub, r)),
        (_, "/" | "/app.js" | "/app.css" | "/state" | "/defaults" | "/events") => {
            Response::error(405, format!("{} is not allowed on {path}", request.method))
        }
        (_, p)
            if p.starts_with("/play/") || p.starts_with("/watch/") || p.starts_with("/review/") =>
        {
            if ROUTES.contains(&p) {
                Response::error(405, format!("{} is not allowed on {path}", request.method))
            } else {
                Response::error(404, format!("no such page: {path}"))
            }
        }
        _ => Response::error(404, format!("no such page: {path}")),
    }
}

/// The POST routes, for telling a wrong method from an unknown path.
const ROUTES: &[&str] = &[
    "/play/new",
    "/play/move",
    "/play/undo",
    "/play/resign",
    "/watch/start",
    "/watch/stop",
    "/review/open",
    "/review/goto",
    "/review/select",
    "/review/losing",
    "/review/engine",
];

/// Follows the state until the page goes away.
fn events(hub: &Hub, mut stream: &TcpStream) -> std::io::Result<()> {
    http::start_events(stream)?;
    let (mut seen, state) = hub.snapshot();
    http::send_event(stream, &state.to_string())?;
    loop {
        match hub.wait_change(seen, KEEPALIVE) {
            Some((version, state)) => {
                seen = version;
                http::send_event(stream, &state.to_string())?;
            }
            None => http::send_keepalive(stream)?,
        }
        stream.flush()?;
    }
}

/// Who may ask. The server starts programs and reads files for whoever asks, so a web page
/// from elsewhere, open in the same browser, must not: its requests name another host (DNS
/// rebinding) or another origin, or cannot send JSON without the browser asking the server
/// first (a CORS preflight, which this server never grants).
fn refusal(request: &Request, bound: IpAddr) -> Option<Response> {
    let host = request.host.as_str();
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    let own = match bound {
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    };
    let local = ["localhost", "127.0.0.1", "[::1]"].contains(&name) || name == own;
    if !local && !bound.is_unspecified() {
        return Some(Response::error(
            403,
            format!("host '{host}' is not this server"),
        ));
    }
    if !request.origin.is_empty() && request.origin != format!("http://{host}") {
        let origin = &request.origin;
        return Some(Response::error(
            403,
            format!("requests from {origin} are not served"),
        ));
    }
    if request.method == "POST" && !request.content_type.starts_with("application/json") {
        return Some(Response::error(
            415,
            "requests must be JSON (application/json)",
        ));
    }
    None
}

/// Serves one connection to a server bound to `bound`.
pub fn handle(hub: &Arc<Hub>, stream: TcpStream, bound: IpAddr) {
    let request = match http::read_request(&stream) {
        Ok(r) => r,
        Err(http::HttpError::Io(e)) => {
            log::debug!("connection dropped: {e}");
            return;
        }
        Err(e) => {
            let _ = Response::error(400, &e).write_to(&stream);
            return;
        }
    };
    if let Some(refused) = refusal(&request, bound) {
        let _ = refused.write_to(&stream);
        return;
    }
    if request.method == "GET" && request.path == "/events" {
        if let Err(e) = events(hub, &stream) {
            log::debug!("event stream closed: {e}");
        }
        return;
    }
    let response = respond(hub, &request);
    if let Err(e) = response.write_to(&stream) {
        log::debug!("cannot answer {}: {e}", request.path);
    }
}
