//! The little HTTP/1.1 the board needs, over `std::net`: one request per connection
//! (`Connection: close`), bodies by `Content-Length`, and server-sent events written straight
//! to the socket. A page on loopback with a handful of routes does not pay for an async stack.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Request heads and bodies past these are refused: the page's own requests are tiny.
const MAX_HEAD: usize = 16 * 1024;
const MAX_BODY: usize = 64 * 1024;
/// A client that sends nothing for this long is dropped, so a stuck socket frees its thread.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A request as the routes see it.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    /// The path without the query string.
    pub path: String,
    /// The `Host`, `Origin` and `Content-Type` headers, empty when absent.
    pub host: String,
    pub origin: String,
    pub content_type: String,
    pub body: Vec<u8>,
}

/// Why a request could not be read.
#[derive(Debug)]
pub enum HttpError {
    Io(io::Error),
    /// Not `METHOD PATH HTTP/1.x`, a bad header, or too large.
    Bad(String),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::Io(e) => write!(f, "connection: {e}"),
            HttpError::Bad(why) => write!(f, "bad request: {why}"),
        }
    }
}

impl From<io::Error> for HttpError {
    fn from(e: io::Error) -> Self {
        HttpError::Io(e)
    }
}

/// Reads one request from `stream`.
pub fn read_request(stream: &TcpStream) -> Result<Request, HttpError> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    let mut reader = BufReader::new(stream);
    let mut head = 0;
    let mut line = String::new();
    let mut next_line = |reader: &mut BufReader<&TcpStream>, line: &mut String| {
        line.clear();
        let n = reader.by_ref().take(MAX_HEAD as u64).read_line(line)?;
        head += n;
        if n == 0 || head > MAX_HEAD {
            return Err(HttpError::Bad("request head cut short or too long".into()));
        }
        Ok::<(), HttpError>(())
    };
    next_line(&mut reader, &mut line)?;
    let mut words = line.split_whitespace();
    let (Some(method), Some(target), Some(version)) = (words.next(), words.next(), words.next())
    else {
        return Err(HttpError::Bad(format!("request line '{}'", line.trim())));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(HttpError::Bad(format!("version '{version}'")));
    }
    let method = method.to_string();
    let path = target.split('?').next().unwrap_or(target).to_string();
    let mut length = 0usize;
    let (mut host, mut origin, mut content_type) = (String::new(), String::new(), String::new());
    loop {
        next_line(&mut reader, &mut line)?;
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(HttpError::Bad(format!("header '{header}'")));
        };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        match name.as_str() {
            "content-length" => {
                length = value
                    .parse()
                    .map_err(|_| HttpError::Bad(format!("content length '{value}'")))?;
            }
            "host" => host = value.to_string(),
            "origin" => origin = value.to_string(),
            "content-type" => content_type = value.to_ascii_lowercase(),
            _ => {}
        }
    }
    if length > MAX_BODY {
        return Err(HttpError::Bad(format!(
            "a body of {length} bytes is too large"
        )));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Request {
        method,
        path,
        host,
        origin,
        content_type,
        body,
    })
}

/// A whole response.
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            body: body.into(),
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
        write!(
            out,
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Cache-Control: no-store\r\nConnection: close\r\n\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        )?;
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
        _ => "Status",
    }
}

/// Starts a server-sent event stream on `out`.
pub fn start_events(mut out: impl Write) -> io::Result<()> {
    out.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
          Connection: close\r\n\r\n",
    )?;
    out.flush()
}

/// One event whose data is `data` (a JSON text: one line, as the format needs).
pub fn send_event(mut out: impl Write, data: &str) -> io::Result<()> {
    write!(out, "data: {data}\n\n")?;
    out.flush()
}

/// A comment line: keeps proxies quiet and finds out that a reader has gone.
pub fn send_keepalive(mut out: impl Write) -> io::Result<()> {
    out.write_all(b": keepalive\n\n")?;
    out.flush()
}
