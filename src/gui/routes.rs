//! The page's routes. Every request body is read into a typed request first; only a request
//! that reads whole is applied, and a refused one leaves the state as it was. Anything but
//! these routes is a 404.

use super::access::Guard;
use super::http::{self, Request, Response};
use super::hub::Hub;
use super::play::PlayConfig;
use super::tasks::{self, think, wake_of};
use super::{review, watch};
use crate::rules::board::Color;
use crate::rules::coord::Turn;
use crate::tools::pass::PassSettings;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;
use std::io::Write;
use std::net::TcpStream;
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
/// The longest move time the board takes (Play, Watch, Review): each engine it starts may
/// think that long, and its thread wait that long for the reply.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(60);

/// The refusal of a move time past [`MAX_MOVE_TIME`].
fn too_long(shown: &str) -> Response {
    Response::error(
        400,
        format!(
            "move time '{shown}': at most {} s in the board",
            MAX_MOVE_TIME.as_secs()
        ),
    )
}

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
struct ReviewGraph {
    time: Option<Field>,
    depth: Option<Field>,
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
        Some(f) => {
            let text: String = f.text().chars().take(20).collect();
            match crate::seconds::option(&f.text()) {
                Ok(t) if t > MAX_MOVE_TIME => Err(too_long(&text)),
                Ok(t) => Ok(t),
                Err(e) => Err(Response::error(400, format!("move time '{text}': {e}"))),
            }
        }
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
    if config.move_time > MAX_MOVE_TIME {
        return too_long(&format!("{}", config.move_time.as_secs_f64()));
    }
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

/// The quick pass's settings: seconds a position (the pass's default when blank) and a
/// depth cap (the search's own when blank).
fn review_graph(hub: &Arc<Hub>, r: ReviewGraph) -> Response {
    let defaults = PassSettings::default();
    let time = match seconds(r.time.as_ref(), defaults.time.as_secs_f64()) {
        Ok(t) => t,
        Err(e) => return e,
    };
    let depth = match r.depth.as_ref().map(Field::text).filter(|t| !t.is_empty()) {
        None => defaults.depth,
        Some(text) => match text.parse::<u8>() {
            Ok(d) => d,
            Err(_) => {
                let shown: String = text.chars().take(20).collect();
                return Response::error(400, format!("depth '{shown}': a whole number"));
            }
        },
    };
    let settings = match PassSettings::new(time, depth) {
        Ok(s) => s,
        Err(e) => return Response::error(400, e),
    };
    review_result(tasks::score_pass(hub, settings))
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
            &json!({
                "engine": own_command(),
                "move_time": DEFAULT_MOVE_TIME,
                "board": super::board::empty_view(),
            }),
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
        // Files are read and parsed off the lock: a slow disk holds up this request only.
        ("POST", "/review/open") => with(request, |r: ReviewOpen| {
            let loaded = review::load(&PathBuf::from(r.path.trim()));
            review_result(loaded.and_then(|(files, game)| {
                hub.apply(|m| {
                    m.review.show(files, 0, game);
                    Ok(())
                })
            }))
        }),
        ("POST", "/review/goto") => with(request, |r: ReviewGoto| {
            review_result(hub.apply(|m| m.review.goto(r.upto)))
        }),
        ("POST", "/review/select") => with(request, |r: ReviewSelect| {
            let file = hub.read(|m| m.review.file(r.index));
            review_result(file.and_then(|(seen, path)| {
                let game = review::read(&path)?;
                hub.apply(|m| m.review.select(seen, r.index, game))
            }))
        }),
        ("POST", "/review/losing") => {
            with(request, |_: Empty| review_result(tasks::find_losing(hub)))
        }
        ("POST", "/review/engine") => with(request, |r| review_engine(hub, r)),
        ("POST", "/review/graph") => with(request, |r| review_graph(hub, r)),
        ("POST", "/review/stop") => with(request, |_: Empty| {
            review_result(hub.apply(|m| m.review.stop_pass()))
        }),
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
    "/review/graph",
    "/review/stop",
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

/// A client that reads nothing for this long is dropped: a page that stops reading its
/// event stream would otherwise hold its thread (and a connection slot) for good.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves one connection.
pub fn handle(hub: &Arc<Hub>, stream: TcpStream, guard: &Guard) {
    if let Err(e) = stream.set_write_timeout(Some(WRITE_TIMEOUT)) {
        log::debug!("connection dropped: {e}");
        return;
    }
    let request = match http::read_request(&stream) {
        Ok(r) => r,
        Err(http::HttpError::Io(e)) => {
            log::debug!("connection dropped: {e}");
            return;
        }
        Err(e @ http::HttpError::Unsupported(_)) => {
            let _ = Response::error(501, &e).write_to(&stream);
            return;
        }
        Err(e) => {
            let _ = Response::error(400, &e).write_to(&stream);
            return;
        }
    };
    if let Some(refused) = guard.refusal(&request) {
        let _ = refused.write_to(&stream);
        return;
    }
    if request.method == "GET" && request.path == "/events" {
        if let Err(e) = events(hub, &stream) {
            log::debug!("event stream closed: {e}");
        }
        return;
    }
    let mut response = respond(hub, &request);
    if request.path == "/" && guard.in_query(&request) {
        response.set_cookie = Some(guard.cookie());
    }
    if let Err(e) = response.write_to(&stream) {
        log::debug!("cannot answer {}: {e}", request.path);
    }
}
