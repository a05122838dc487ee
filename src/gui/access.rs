//! Who may ask. The server starts programs and reads files for whoever asks, so it answers
//! only its own page:
//!
//! - the `Host` must be `localhost` or an IP literal, with this server's port, whatever the
//!   address it listens on: a web page elsewhere that renames itself to this address (DNS
//!   rebinding) sends its own host name;
//! - an `Origin`, when sent, must be this host;
//! - every route but the static script and style wants the run's secret token: the banner
//!   prints the page's address with it (`/?token=...`), the page loaded that way gets it as a
//!   `SameSite=Strict` cookie, and scripts may send it as `X-Connect6-Token`;
//! - a POST must be JSON, which a foreign page cannot send without the browser asking the
//!   server first (a CORS preflight, which this server never grants).

use super::http::{Request, Response};
use std::io;
use std::net::{IpAddr, Ipv6Addr};

/// The run's token and the port it guards.
pub struct Guard {
    token: String,
    port: u16,
}

/// 128 bits from the operating system's random source, as 32 hex digits.
pub fn new_token() -> io::Result<String> {
    let bytes = random_bytes()?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(unix)]
fn random_bytes() -> io::Result<[u8; 16]> {
    use std::io::Read;
    let mut bytes = [0; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes)
}

/// Where there is no `/dev/urandom` (Windows): std seeds each thread's `RandomState` keys
/// from the operating system's generator (`ProcessPrng`), and SipHash under secret keys is a
/// pseudo-random function, so hashes under two fresh states are unpredictable without those
/// keys. The time and process id only make the two inputs differ.
#[cfg(not(unix))]
fn random_bytes() -> io::Result<[u8; 16]> {
    use std::hash::{BuildHasher, Hasher};
    let mut bytes = [0; 16];
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(now);
        hasher.write_u32(std::process::id());
        hasher.write_usize(i);
        chunk.copy_from_slice(&hasher.finish().to_le_bytes());
    }
    Ok(bytes)
}

/// Compares without stopping at the first difference, so the time taken does not say how
/// much of a guess was right.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0, |acc, (x, y)| acc | (x ^ y))
            == 0
}

impl Guard {
    pub fn new(token: String, port: u16) -> Guard {
        Guard { token, port }
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// The cookie's name: one per port, as two servers on one machine share a cookie jar.
    fn cookie_name(&self) -> String {
        format!("connect6-{}", self.port)
    }

    /// The cookie the page gets when it is loaded with the token.
    pub fn cookie(&self) -> String {
        format!(
            "{}={}; Path=/; HttpOnly; SameSite=Strict",
            self.cookie_name(),
            self.token
        )
    }

    /// Whether the request's query string holds the token (`/?token=...`).
    pub fn in_query(&self, request: &Request) -> bool {
        request.query.split('&').any(|pair| {
            pair.strip_prefix("token=")
                .is_some_and(|t| same(t, &self.token))
        })
    }

    fn has_token(&self, request: &Request) -> bool {
        let name = self.cookie_name();
        let in_cookie = request.cookie.split(';').any(|pair| {
            pair.trim()
                .split_once('=')
                .is_some_and(|(n, v)| n == name && same(v, &self.token))
        });
        in_cookie
            || same(&request.token, &self.token)
            || (request.path == "/" && self.in_query(request))
    }

    /// Whether `host` (a `Host` header) names this server: `localhost` or an IP literal, and
    /// this port (which a browser leaves out only for port 80).
    fn own_host(&self, host: &str) -> bool {
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
                (name, port.parse::<u16>().ok())
            }
            _ => (host, Some(80)),
        };
        let literal = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
            Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
            None => name.parse::<IpAddr>().is_ok_and(|ip| ip.is_ipv4()),
        };
        (literal || name.eq_ignore_ascii_case("localhost")) && port == Some(self.port)
    }

    /// The answer to a request that may not be served, or `None` when it may.
    pub fn refusal(&self, request: &Request) -> Option<Response> {
        let host = request.host.as_str();
        if !self.own_host(host) {
            let shown = host.escape_debug().take(60).collect::<String>();
            return Some(Response::error(
                403,
                format!("host '{shown}' is not this server"),
            ));
        }
        if !request.origin.is_empty() && request.origin != format!("http://{host}") {
            let shown = request.origin.escape_debug().take(60).collect::<String>();
            return Some(Response::error(
                403,
                format!("requests from {shown} are not served"),
            ));
        }
        let open = request.method == "GET" && ["/app.js", "/app.css"].contains(&&*request.path);
        if !open && !self.has_token(request) {
            return Some(Response::error(
                403,
                "no or wrong token: open the address the server printed when it started \
                 (http://.../?token=...)",
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(host: &str, headers: &[(&str, &str)]) -> Request {
        let mut r = Request {
            method: "GET".into(),
            path: "/state".into(),
            host: host.into(),
            ..Request::default()
        };
        for &(name, value) in headers {
            match name {
                "origin" => r.origin = value.into(),
                "cookie" => r.cookie = value.into(),
                "token" => r.token = value.into(),
                "query" => r.query = value.into(),
                "path" => r.path = value.into(),
                _ => unreachable!(),
            }
        }
        r
    }

    /// The check does not depend on the address listened on: a server bound to every
    /// interface refuses a foreign host name as one on loopback does.
    #[test]
    fn only_this_server_with_its_token_is_served() {
        let token = new_token().unwrap();
        assert_eq!(token.len(), 32);
        assert_ne!(token, new_token().unwrap());
        let guard = Guard::new(token.clone(), 8066);
        let cookie = format!("x=1; connect6-8066={token}");
        let served = |host: &str, extra: &[(&str, &str)]| {
            let mut headers = vec![("cookie", cookie.as_str())];
            headers.extend_from_slice(extra);
            guard.refusal(&request(host, &headers)).map(|r| r.status)
        };
        for host in [
            "127.0.0.1:8066",
            "localhost:8066",
            "[::1]:8066",
            "10.1.2.3:8066",
        ] {
            assert_eq!(served(host, &[]), None, "{host}");
        }
        for host in [
            "evil.example:8066",
            "127.0.0.1.evil.example:8066",
            "localhost:80",
            "127.0.0.1",
            "[::1]",
            "::1:8066",
            "",
        ] {
            assert_eq!(served(host, &[]), Some(403), "{host}");
        }
        let origin = [("origin", "http://evil.example")];
        assert_eq!(served("127.0.0.1:8066", &origin), Some(403));
        let own = [("origin", "http://127.0.0.1:8066")];
        assert_eq!(served("127.0.0.1:8066", &own), None);
        // The token: cookie, header, or (for the page only) the query string.
        let host = "127.0.0.1:8066";
        let bare = |headers: &[(&str, &str)]| guard.refusal(&request(host, headers));
        assert_eq!(bare(&[]).map(|r| r.status), Some(403));
        let wrong = format!("connect6-8066={}", "0".repeat(32));
        assert_eq!(bare(&[("cookie", &wrong)]).map(|r| r.status), Some(403));
        let other_port = format!("connect6-8067={token}");
        assert_eq!(
            bare(&[("cookie", &other_port)]).map(|r| r.status),
            Some(403)
        );
        assert!(bare(&[("token", &token)]).is_none());
        let query = format!("token={token}");
        assert_eq!(bare(&[("query", &query)]).map(|r| r.status), Some(403));
        assert!(bare(&[("query", &query), ("path", "/")]).is_none());
        assert!(bare(&[("path", "/app.js")]).is_none());
    }
}
