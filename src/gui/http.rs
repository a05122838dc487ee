//! The little HTTP/1.1 the board needs, over `std::net`: one request per connection
//! (`Connection: close`), bodies by `Content-Length`, and server-sent events written straight
//! to the socket. A page on loopback with a handful of routes does not pay for an async stack.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Request heads and bodies past these are refused: the page's own requests are tiny.
const MAX_HEAD: usize = 16 * 1024;
const MAX_BODY: usize = 64 * 1024;
/// The whole request, head and body, must arrive within this from the connection's start: a
/// limit per read would let a client that sends a byte now and then hold its thread forever.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(10);

/// Sent with every answer: the page may not be framed by another site (whose page could
/// then click its buttons), nor an answer read as another type than it says.
const GUARD_HEADERS: &str = "X-Frame-Options: DENY\r\n\
     Content-Security-Policy: frame-ancestors 'none'\r\n\
     X-Content-Type-Options: nosniff\r\n\
     Referrer-Policy: no-referrer\r\n";

/// A request as the routes see it.
#[derive(Debug, Default)]
pub struct Request {
    pub method: String,
    /// The path without the query string, and the query string (empty when absent).
    pub path: String,
    pub query: String,
    /// The `Host`, `Origin`, `Content-Type`, `Cookie` and `X-Connect6-Token` headers, empty
    /// when absent.
    pub host: String,
    pub origin: String,
    pub content_type: String,
    pub cookie: String,
    pub token: String,
    pub body: Vec<u8>,
}

/// Why a request could not be read.
#[derive(Debug)]
pub enum HttpError {
    /// The connection failed or the deadline passed: nobody to answer.
    Io(io::Error),
    /// Not `METHOD PATH HTTP/1.x`, a bad header, not UTF-8, or too large (400).
    Bad(String),
    /// A request this server does not speak (501).
    Unsupported(&'static str),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::Io(e) => write!(f, "connection: {e}"),
            HttpError::Bad(why) => write!(f, "bad request: {why}"),
            HttpError::Unsupported(what) => write!(f, "not supported: {what}"),
        }
    }
}

impl From<io::Error> for HttpError {
    fn from(e: io::Error) -> Self {
        HttpError::Io(e)
    }
}

/// The socket, read against one deadline: each read may wait only for what is left of it.
struct Timed<'a> {
    stream: &'a TcpStream,
    deadline: Instant,
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the request took longer than its deadline",
            ));
        }
        self.stream.set_read_timeout(Some(left))?;
        (&mut &*self.stream).read(buf)
    }
}

/// Reads one request from `stream`, all of it within [`REQUEST_DEADLINE`].
pub fn read_request(stream: &TcpStream) -> Result<Request, HttpError> {
    let deadline = Instant::now() + REQUEST_DEADLINE;
    let mut reader = BufReader::new(Timed { stream, deadline });
    let mut head = 0;
    let mut next_line = |reader: &mut BufReader<Timed>| -> Result<String, HttpError> {
        let mut line = Vec::new();
        let n = reader
            .by_ref()
            .take((MAX_HEAD + 1 - head) as u64)
            .read_until(b'\n', &mut line)?;
        head += n;
        if n == 0 || head > MAX_HEAD || line.last() != Some(&b'\n') {
            return Err(HttpError::Bad("request head cut short or too long".into()));
        }
        String::from_utf8(line).map_err(|_| HttpError::Bad("the request head is not UTF-8".into()))
    };
    let line = next_line(&mut reader)?;
    let mut words = line.split_whitespace();
    let (Some(method), Some(target), Some(version)) = (words.next(), words.next(), words.next())
    else {
        let shown = line.trim().escape_debug().take(80).collect::<String>();
        return Err(HttpError::Bad(format!("request line '{shown}'")));
    };
    if !version.starts_with("HTTP/1.") {
        let shown = version.escape_debug().take(20).collect::<String>();
        return Err(HttpError::Bad(format!("version '{shown}'")));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut request = Request {
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        ..Request::default()
    };
    let mut length = 0usize;
    loop {
        let line = next_line(&mut reader)?;
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            let shown = header.escape_debug().take(80).collect::<String>();
            return Err(HttpError::Bad(format!("header '{shown}'")));
        };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        match name.as_str() {
            "content-length" => {
                length = value
                    .parse()
                    .map_err(|_| HttpError::Bad("content length is not a number".into()))?;
            }
            // Bodies are read by their length only: a chunked body taken as headers or as
            // the next request would be read as something it is not.
            "transfer-encoding" => {
                return Err(HttpError::Unsupported(
                    "Transfer-Encoding (send the body with Content-Length)",
                ));
            }
            "host" => request.host = value.to_string(),
            "origin" => request.origin = value.to_string(),
            "content-type" => request.content_type = value.to_ascii_lowercase(),
            "cookie" => request.cookie = value.to_string(),
            "x-connect6-token" => request.token = value.to_string(),
            _ => {}
        }
    }
    if length > MAX_BODY {
        return Err(HttpError::Bad(format!(
            "a body of {length} bytes is too large"
        )));
    }
    request.body = vec![0; length];
    reader.read_exact(&mut request.body)?;
    Ok(request)
}

/// A whole response.
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// A `Set-Cookie` header's value, when the answer sets one.
    pub set_cookie: Option<String>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            body: body.into(),
            set_cookie: None,
        }
    }

    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response::new(status, "application/json", value.to_string())
    }

    /// An error the page shows as it is: `{"error": "..."}`.
    pub fn error(status: u16, message: impl fmt::Display) -> Response {
        Response::json(status, &serde_json::json!({ "error": message.to_string() }))
    }

    pub fn write_to(&self, mut out: impl Write) -> io::Result<()> {
        let cookie = self
            .set_cookie
            .as_ref()
            .map_or_else(String::new, |c| format!("Set-Cookie: {c}\r\n"));
        // The head in one write: `write!` straight to a socket sends each piece apart.
        let head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Cache-Control: no-store\r\n{GUARD_HEADERS}{cookie}Connection: close\r\n\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        out.write_all(head.as_bytes())?;
        out.write_all(&self.body)?;
        out.flush()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Starts a server-sent event stream on `out`.
pub fn start_events(mut out: impl Write) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
         {GUARD_HEADERS}Connection: close\r\n\r\n"
    );
    out.write_all(head.as_bytes())?;
    out.flush()
}

/// One event whose data is `data` (a JSON text: one line, as the format needs).
pub fn send_event(mut out: impl Write, data: &str) -> io::Result<()> {
    out.write_all(format!("data: {data}\n\n").as_bytes())?;
    out.flush()
}

/// A comment line: keeps proxies quiet and finds out that a reader has gone.
pub fn send_keepalive(mut out: impl Write) -> io::Result<()> {
    out.write_all(b": keepalive\n\n")?;
    out.flush()
}
