//! The board in a real browser: headless Chromium, driven through chromedriver's WebDriver
//! HTTP API, plays a game by clicking, watches a match and reviews a record, and takes a
//! screenshot of each mode. The screenshots go to the test's scratch folder, or to the folder
//! named by CONNECT6_SCREENSHOTS (`docs` refreshes the README's pictures).
//!
//! Without Debian's `chromium` and `chromium-driver` the test is skipped with a note on
//! stderr, unless CONNECT6_BROWSER_TEST=required (CI sets it): then it fails.

mod gui_support;

use base64::Engine as _;
use gui_support::{BIN, Server, ghost_cells, next_turn, request, stones};
use serde_json::{Value, json};
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";
const WAIT: Duration = Duration::from_secs(90);
/// The key WebDriver names an element by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    address: String,
    session: String,
    profile: PathBuf,
}

impl Driver {
    fn start(scratch: &Path) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        // A process group of its own: the browser it starts is in it, and goes with it.
        let child = Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let address = format!("127.0.0.1:{port}");
        let began = Instant::now();
        while std::net::TcpStream::connect(&address).is_err() {
            assert!(began.elapsed() < WAIT, "chromedriver does not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        // A fresh profile: nothing of an earlier run, and nothing fetched (the network is
        // closed here, and the test must not depend on it anywhere).
        let profile = scratch.join(format!("chromium-profile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let mut driver = Driver {
            child,
            address,
            session: String::new(),
            profile: profile.clone(),
        };
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,950",
        ]
        .map(String::from)
        .into_iter()
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
        }}});
        let answer = driver.call("POST", "/session", caps);
        driver.session = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        driver
    }

    /// One WebDriver command; its `value`, or a failure with the driver's error.
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let body = if method == "GET" {
            String::new()
        } else {
            body.to_string()
        };
        let (status, text) = request(&self.address, method, path, &body);
        let value: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        assert_eq!(status, 200, "{method} {path}: {text}");
        value["value"].clone()
    }

    fn session(&self, method: &str, path: &str, body: Value) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn open(&self, url: &str) {
        self.session("POST", "/url", json!({ "url": url }));
    }

    fn find(&self, css: &str) -> String {
        let found = self.session(
            "POST",
            "/element",
            json!({ "using": "css selector", "value": css }),
        );
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string()
    }

    /// Clicks the element `css` finds now. A click that lands while the page redraws the
    /// board meets a replaced element; it is found again and clicked once more.
    fn click(&self, css: &str) {
        for _ in 0..3 {
            let id = self.find(css);
            let path = format!("/session/{}/element/{id}/click", self.session);
            let (status, _) = request(&self.address, "POST", &path, "{}");
            if status == 200 {
                return;
            }
        }
        panic!("cannot click {css}");
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.session("POST", &format!("/element/{id}/clear"), json!({}));
        self.session(
            "POST",
            &format!("/element/{id}/value"),
            json!({ "text": text }),
        );
    }

    fn script(&self, code: &str) -> Value {
        self.session(
            "POST",
            "/execute/sync",
            json!({ "script": code, "args": [] }),
        )
    }

    fn text(&self, css: &str) -> String {
        let code = format!("return document.querySelector({css:?}).textContent;");
        self.script(&code).as_str().unwrap_or("").to_string()
    }

    /// Waits until the page's `css` text contains `words`.
    fn wait_text(&self, css: &str, words: &str) -> String {
        let began = Instant::now();
        loop {
            let text = self.text(css);
            if text.contains(words) {
                return text;
            }
            assert!(
                began.elapsed() < WAIT,
                "{css} never said '{words}': '{text}'"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screenshot(&self, to: &Path) {
        let data = self.session("GET", "/screenshot", Value::Null);
        let png = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap_or(""))
            .expect("the screenshot is base64");
        assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
        std::fs::write(to, png).expect("the screenshot is written");
        eprintln!("screenshot: {}", to.display());
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = request(&self.address, "DELETE", &path, "");
        }
        // The whole group: a browser the session did not close is not left behind.
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Whether the browser is here; a missing one skips the test, or fails it when required.
fn browser_present() -> bool {
    let present = Path::new(CHROMIUM).exists() && Path::new(DRIVER).exists();
    if !present {
        let required = std::env::var("CONNECT6_BROWSER_TEST").is_ok_and(|v| v == "required");
        assert!(
            !required,
            "CONNECT6_BROWSER_TEST=required but {CHROMIUM} or {DRIVER} is missing"
        );
        // Straight to the stream, not `eprintln!`: the test harness would hide that.
        let _ = writeln!(
            std::io::stderr(),
            "browser test SKIPPED: {CHROMIUM} or {DRIVER} is missing \
             (apt-get install chromium chromium-driver; CONNECT6_BROWSER_TEST=required makes this a failure)"
        );
    }
    present
}

fn shots() -> PathBuf {
    let dir = match std::env::var("CONNECT6_SCREENSHOTS") {
        Ok(dir) if !dir.is_empty() => Path::new(env!("CARGO_MANIFEST_DIR")).join(dir),
        _ => PathBuf::from(env!("CARGO_TARGET_TMPDIR")),
    };
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    dir
}

/// Waits until the engine has moved and the page shows every turn: then clicks are judged
/// on the position the server has. The game's state.
fn synced(server: &Server, driver: &Driver) -> Value {
    let began = Instant::now();
    loop {
        let play = server.state()["play"].clone();
        let turns = play["game"]["turns"].as_array().map_or(0, Vec::len) as u64;
        let shown = driver.script("return document.querySelectorAll('#play-turns li').length;");
        if play["thinking"] == false && shown.as_u64() == Some(turns) {
            return play;
        }
        assert!(
            began.elapsed() < WAIT,
            "the page does not follow the game: {play}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until the page's script `code` returns `want`; what it returned last otherwise.
fn wait_script(driver: &Driver, code: &str, want: Value) {
    let began = Instant::now();
    loop {
        let got = driver.script(code);
        if got == want {
            return;
        }
        assert!(began.elapsed() < WAIT, "{code} gave {got}, not {want}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Opened fresh, each mode shows the empty board with its grid and coordinates, before
/// any click; in Play every point of it takes a click.
fn the_board_is_there_at_once(server: &Server, driver: &Driver) {
    for mode in ["#watch", "#review", "#play"] {
        // Another page first: a new fragment alone would not load the page afresh.
        driver.open("about:blank");
        driver.open(&server.page_url(mode));
        let count = |css: &str| format!("return document.querySelectorAll('{css}').length;");
        wait_script(driver, &count("#board svg .grid line"), json!(38));
        wait_script(
            driver,
            &count("#board svg .coordinates text"),
            json!(4 * 19),
        );
        let cells = if mode == "#play" { 361 } else { 0 };
        wait_script(driver, &count("#board [data-cell]"), json!(cells));
    }
}

/// The person's game, by clicks: black against the random player, to the end. The first
/// click, on the empty board, starts the game and is the first stone.
fn play_by_clicking(server: &Server, driver: &Driver) {
    driver.open(&server.page_url("#play"));
    driver.wait_text("#connection", "live");
    driver.type_into("#play-engine", &format!("{BIN} --player random --seed 5"));
    assert_eq!(server.state()["play"]["active"], false);
    driver.click("[data-cell='JJ']");
    driver.wait_text("#play-status", "Your turn (black)");
    wait_script(
        driver,
        "return document.querySelectorAll(\"#board [data-mark='JJ']\").length;",
        json!(1),
    );
    driver.click("#play-confirm");
    synced(server, driver);
    assert_eq!(server.state()["play"]["game"]["turns"][0]["cells"], "JJ");
    // A click on a taken cell is refused on the page, with the reason.
    driver.click("[data-cell='JJ']");
    assert_eq!(driver.text("#message"), "illegal: JJ is occupied");
    // One stone where a turn takes two: the server's reason is shown.
    let free = next_turn(&server.state()["play"]["game"], "black");
    driver.click(&format!("[data-cell='{}']", free[0]));
    driver.click("#play-confirm");
    driver.wait_text("#message", "takes 2 stone(s), got 1");
    driver.click("#play-clear");
    for round in 0..120 {
        if round == 2 {
            // A reload finds the game where it was: it lives on the server.
            driver.open(&server.page_url("#play"));
            driver.wait_text("#connection", "live");
        }
        let play = synced(server, driver);
        if play["over"] == true {
            break;
        }
        let turns = play["game"]["turns"].as_array().map_or(0, Vec::len);
        for cell in next_turn(&play["game"], "black") {
            driver.click(&format!("[data-cell='{cell}']"));
        }
        driver.click("#play-confirm");
        let began = Instant::now();
        while server.state()["play"]["game"]["turns"]
            .as_array()
            .map_or(0, Vec::len)
            == turns
        {
            assert!(
                began.elapsed() < WAIT,
                "the turn was not taken: {}",
                driver.text("#message")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let status = driver.wait_text("#play-status", "Game over");
    assert_eq!(status, "Game over: black wins with six in a row");
    // The board the page shows is the game's: every stone, the six drawn through.
    let play = server.state()["play"].clone();
    let on_page = driver.script("return document.querySelectorAll('#board circle.stone').length;");
    assert_eq!(on_page.as_u64(), Some(stones(&play["game"]).len() as u64));
    let six = driver.script("return document.querySelectorAll('#board line.six').length;");
    assert_eq!(six.as_u64(), Some(1));
}

#[test]
fn the_board_in_chromium() {
    if !browser_present() {
        return;
    }
    let dir = shots();
    let server = Server::start();
    let driver = Driver::start(Path::new(env!("CARGO_TARGET_TMPDIR")));
    the_board_is_there_at_once(&server, &driver);
    play_by_clicking(&server, &driver);
    // The picture of Play: our engine, with its search beside the board.
    driver.type_into("#play-engine", BIN);
    driver.type_into("#play-move-time", "0.5");
    driver.click("#play-new");
    driver.wait_text("#play-status", "click one stone");
    for cell in ["JJ", "KK", "LL"] {
        driver.click(&format!("[data-cell='{cell}']"));
        if cell != "KK" {
            driver.click("#play-confirm");
            synced(&server, &driver);
        }
    }
    engine_panel(&server, &driver);
    let play = server.state()["play"].clone();
    let last = play["game"]["turns"][3]["cells"]
        .as_str()
        .unwrap_or("")
        .to_string();
    overlays(&driver, &play["game"], &play["search"], &last);
    driver.screenshot(&dir.join("gui-play.png"));

    // Watch: a short match from the page's form, followed to its summary.
    driver.click("#tab-watch");
    driver.type_into("#watch-a", &format!("{BIN} --player greedy --name Greedy"));
    driver.type_into("#watch-b", &format!("{BIN} --player random --name Random"));
    driver.click("#watch-start");
    driver.wait_text("#watch-summary", "2 game(s): Greedy (A) vs Random (B)");
    assert!(driver.text("#watch-status").contains("Match over"));
    driver.screenshot(&dir.join("gui-watch.png"));
    review(&server, &driver, &dir);
}

/// Review: a folder of lost games, gone through and stepped back by keys, then the losing
/// turn with its forced line, the score graph, and the engine's view.
fn review(server: &Server, driver: &Driver, dir: &Path) {
    driver.click("#tab-review");
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/losses");
    driver.type_into("#review-path", &folder.display().to_string());
    driver.click("#review-open");
    driver.wait_text("#review-status", "Turn 20 of 20");
    let key = |code: &str| {
        let keys = json!({ "actions": [{ "type": "key", "id": "keys", "actions": [
            { "type": "keyDown", "value": code }, { "type": "keyUp", "value": code },
        ]}]});
        driver.session("POST", "/actions", keys);
    };
    let shown = || driver.script("return document.querySelector('#review-files').value;");
    key("\u{E00F}"); // PageDown
    let began = Instant::now();
    while shown() != "1" {
        assert!(
            began.elapsed() < WAIT,
            "PageDown did not open the next record"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    key("\u{E00E}"); // PageUp
    while shown() != "0" {
        assert!(
            began.elapsed() < WAIT,
            "PageUp did not open the first record"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    driver.wait_text("#review-status", "Turn 20 of 20");
    key("\u{E012}"); // left arrow
    driver.wait_text("#review-status", "Turn 19 of 20");
    driver.click("#review-losing");
    driver.wait_text("#review-losing-text", "lost after turn");
    let turn = server.state()["review"]["losing"]["turn"]
        .as_u64()
        .expect("a losing turn");
    driver.wait_text("#review-status", &format!("Turn {turn} of 20"));
    forced_line(server, driver, &key);
    score_graph(server, driver, turn);
    driver.type_into("#review-engine", &format!("{BIN} --move-time 1"));
    driver.click("#review-ask");
    driver.wait_text("#review-view", "the engine plays");
    driver.wait_text("#review-nps", "nodes/s");
    let review = server.state()["review"].clone();
    // The engine's line, or the forced line when the engine's view has none.
    let mut search = review["engine"]["search"].clone();
    if search["pv"].as_array().is_none_or(Vec::is_empty) {
        search = json!({ "pv": review["losing"]["line"] });
    }
    overlays(driver, &review["game"], &search, "");
    // Before white's six, white's window of four or five is marked as a threat.
    driver.click("#graph circle[data-turn='19']");
    driver.wait_text("#review-status", "Turn 19 of 20");
    let review = server.state()["review"].clone();
    assert!(
        !review["game"]["threats"]["white"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{}",
        review["game"]["threats"]
    );
    overlays(driver, &review["game"], &Value::Null, "");
    driver.click(&format!("#graph circle[data-turn='{turn}']"));
    driver.wait_text("#review-status", &format!("Turn {turn} of 20"));
    driver.screenshot(&dir.join("gui-review.png"));
}

/// The score graph under the board: a quick pass from the page's form, its progress shown
/// to the end; a click on a point moves the board to that turn, and one on the losing turn's
/// point (marked) back there.
fn score_graph(server: &Server, driver: &Driver, losing: u64) {
    driver.type_into("#review-graph-time", "0.05");
    driver.type_into("#review-graph-depth", "3");
    driver.click("#review-graph-run");
    driver.wait_text("#review-graph-status", "engine pass done: 20 turns");
    let count = "return document.querySelectorAll('#graph circle.point').length;";
    assert_eq!(driver.script(count), json!(20));
    let marked = "return document.querySelector('#graph circle.losing').dataset.turn;";
    assert_eq!(driver.script(marked), json!(losing.to_string()));
    driver.click("#graph [data-turn='5']");
    driver.wait_text("#review-status", "Turn 5 of 20");
    assert_eq!(server.state()["review"]["game"]["upto"], 5);
    driver.click(&format!("#graph circle[data-turn='{losing}']"));
    driver.wait_text("#review-status", &format!("Turn {losing} of 20"));
}

/// At the losing turn the winner's forced line (the analysis's) is drawn as ghost stones;
/// "[" takes its last turn away and "]" brings it back.
fn forced_line(server: &Server, driver: &Driver, key: &dyn Fn(&str)) {
    let review = server.state()["review"].clone();
    let line: Vec<&str> = review["losing"]["line"]
        .as_array()
        .map(|l| l.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(!line.is_empty(), "a forced line: {}", review["losing"]);
    let count = "return document.querySelectorAll('#board .ghost').length;";
    let whole = ghost_cells(&review["game"], &line);
    wait_script(driver, count, json!(whole));
    key("[");
    let fewer = ghost_cells(&review["game"], &line[..line.len() - 1]);
    assert!(fewer < whole);
    wait_script(driver, count, json!(fewer));
    key("]");
    wait_script(driver, count, json!(whole));
}

/// The engine's view on the board: the threat cells of each side as the server lists them,
/// the expected line (after `last`, the turn it starts with when that was just played) as
/// numbered ghost stones on the free cells; the switch hides them all and brings them back.
fn overlays(driver: &Driver, game: &Value, search: &Value, last: &str) {
    let mut line: Vec<&str> = search["pv"]
        .as_array()
        .map(|pv| pv.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if line.first() == Some(&last) {
        line.remove(0);
    }
    let ghosts = ghost_cells(game, &line);
    let threats = ["black", "white"]
        .map(|side| game["threats"][side].as_array().map_or(0, Vec::len))
        .map(|n| json!(n));
    let count = |css: &str| format!("return document.querySelectorAll('#board {css}').length;");
    for (i, on) in [true, false, true].into_iter().enumerate() {
        let n = |v: Value| if on { v } else { json!(0) };
        wait_script(driver, &count(".ghost"), n(json!(ghosts)));
        wait_script(driver, &count(".ghost-number"), n(json!(ghosts)));
        wait_script(driver, &count(".threat-black"), n(threats[0].clone()));
        wait_script(driver, &count(".threat-white"), n(threats[1].clone()));
        if i < 2 {
            driver.click("#overlay-toggle");
        }
    }
    // The first ghost's tooltip names the best turn of each depth searched.
    let deepest = search["iterations"].as_array().and_then(|i| i.last());
    if let (true, Some(it)) = (ghosts > 0, deepest) {
        let title = driver.text("#board .ghost title");
        let by_depth = format!(
            "depth {}: {}",
            it["depth"],
            it["best"].as_str().unwrap_or("")
        );
        assert!(title.contains(&by_depth), "{title}");
    }
}

/// The engine panel shows the search the server read from the log, and the log itself is
/// folded until its switch is clicked.
fn engine_panel(server: &Server, driver: &Driver) {
    driver.wait_text("#play-nps", " nodes/s");
    let search = server.state()["play"]["search"].clone();
    let summary = &search["summary"];
    let score = summary["score"].as_i64().expect("a score");
    let sign = if score > 0 { "+" } else { "" };
    assert_eq!(
        driver.text("#play-score"),
        format!("{sign}{score} for white")
    );
    let depth = driver.text("#play-depth");
    assert!(
        depth.starts_with(&format!("{}, ", summary["depth"])),
        "{depth}"
    );
    let pv: Vec<&str> = search["pv"]
        .as_array()
        .expect("a line")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // No line when the engine played a turn no completed iteration chose (the threat
    // solver's, say): the panel shows a dash then.
    let line = if pv.is_empty() {
        "-".to_string()
    } else {
        pv.join(" ")
    };
    assert_eq!(driver.text("#play-pv"), line, "{search}");
    assert!(
        driver
            .script("return document.querySelectorAll('#play-threats li').length;")
            .as_u64()
            >= Some(1)
    );
    let shown = "return document.querySelector('#play-log').checkVisibility();";
    assert_eq!(
        driver.script("return document.querySelector('#play-log-switch').open;"),
        json!(false)
    );
    assert_eq!(driver.script(shown), json!(false), "the log is folded");
    driver.click("#play-log-switch summary");
    assert_eq!(
        driver.script(shown),
        json!(true),
        "the switch unfolds the log"
    );
    assert!(
        driver.text("#play-log").contains(" score "),
        "the raw lines"
    );
    // Still open after the page redraws on the next state.
    driver.script("render(); return 0;");
    assert_eq!(driver.script(shown), json!(true));
    driver.click("#play-log-switch summary");
    assert_eq!(driver.script(shown), json!(false));
}
