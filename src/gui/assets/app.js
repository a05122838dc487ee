// The board page. The server holds every game; this script draws the state it streams
// (server-sent events) and sends the person's requests. The only thing kept here is the
// stones clicked for a turn not yet confirmed.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const LETTERS = "ABCDEFGHIJKLMNOPQRS";
let state = null;
let mode = (location.hash || "#play").slice(1);
let pending = [];
// The empty board from `/defaults`, drawn until a mode has a game of its own.
let emptyBoard = null;
// A click on the empty board in Play starts a game; further clicks wait for it.
let starting = false;
// The engine's view on the board (expected line, threats), hidden by its switch.
let overlayOn = true;
// How many turns of the losing turn's forced line are drawn ("[" and "]" step it).
let lineShown = Infinity;
// The analysis whose line is stepped: another one starts with its whole line.
let lineFor = null;

const $ = (id) => document.getElementById(id);

function say(text) {
  $("message").textContent = text || "";
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  say(response.ok ? "" : answer.error);
  return response.ok;
}

function formObject(form) {
  const out = {};
  for (const [k, v] of new FormData(form).entries()) {
    if (String(v).trim() !== "") out[k] = String(v);
  }
  return out;
}

function setMode(next) {
  mode = ["play", "watch", "review"].includes(next) ? next : "play";
  location.hash = mode;
  for (const tab of document.querySelectorAll(".tab")) {
    tab.classList.toggle("active", tab.dataset.mode === mode);
  }
  for (const name of ["play", "watch", "review"]) {
    $("panel-" + name).classList.toggle("active", name === mode);
  }
  render();
}

function occupied(game) {
  const cells = new Set();
  for (const t of game.turns.slice(0, game.upto)) {
    for (let i = 0; i < t.cells.length; i += 2) cells.add(t.cells.slice(i, i + 2));
  }
  return cells;
}

function circle(group, x, y, r, cls) {
  const c = document.createElementNS(SVG_NS, "circle");
  c.setAttribute("cx", x);
  c.setAttribute("cy", y);
  c.setAttribute("r", r);
  c.setAttribute("class", cls);
  group.appendChild(c);
  return c;
}

// The cells of a turn in protocol letters ("JJKK": JJ and KK).
function cellsOf(turn) {
  const out = [];
  for (let i = 0; i + 1 < turn.length; i += 2) out.push(turn.slice(i, i + 2));
  return out;
}

// The engine's expected line as ghost stones for the position on the board: `search` is the
// panel's reading of the log; a line that starts with the turn just played starts after it.
// Each ghost is numbered with the turn it would be, from `next` on.
function ghostsOf(search, lastTurn, toMove, next) {
  const pv = (search && search.pv) || [];
  const line = pv.length && pv[0] === lastTurn ? pv.slice(1) : pv;
  const depths = ((search && search.iterations) || []).map((i) => `depth ${i.depth}: ${i.best}`);
  return line.length ? { turns: line, color: toMove, depths, next } : null;
}

// Threat cells (one turn from six) as diamonds, and the expected line as numbered ghost
// stones; none of it takes clicks.
function drawOverlay(top, game, ghosts, at) {
  if (!overlayOn) return;
  const threats = game.threats || {};
  for (const side of ["black", "white"]) {
    for (const cell of threats[side] || []) {
      const x = at(LETTERS.indexOf(cell[0]));
      const y = at(LETTERS.indexOf(cell[1]));
      const d = game.step / 4;
      const mark = document.createElementNS(SVG_NS, "polygon");
      mark.setAttribute("points", `${x},${y - d} ${x + d},${y} ${x},${y + d} ${x - d},${y}`);
      mark.setAttribute("class", `threat threat-${side}`);
      mark.setAttribute("data-threat", cell);
      top.appendChild(mark);
    }
  }
  if (!ghosts) return;
  const taken = occupied(game);
  let color = ghosts.color;
  ghosts.turns.forEach((turn, i) => {
    for (const cell of cellsOf(turn)) {
      if (taken.has(cell)) continue;
      taken.add(cell);
      const x = at(LETTERS.indexOf(cell[0]));
      const y = at(LETTERS.indexOf(cell[1]));
      const stone = circle(top, x, y, game.step / 2 - 2, `ghost ghost-${color}`);
      stone.setAttribute("data-ghost", String(ghosts.next + i));
      const title = document.createElementNS(SVG_NS, "title");
      title.textContent = `expected turn ${ghosts.next + i}: ${color} ${turn}` + (i === 0 && ghosts.depths.length ? `\nbest by depth: ${ghosts.depths.join(", ")}` : "");
      stone.appendChild(title);
      const n = document.createElementNS(SVG_NS, "text");
      n.setAttribute("x", x);
      n.setAttribute("y", y + 5);
      n.setAttribute("class", `ghost-number ghost-number-${color}`);
      n.textContent = String(ghosts.next + i);
      top.appendChild(n);
    }
    color = color === "black" ? "white" : "black";
  });
}

// Draws a game's SVG (the empty board without one); with `onCell`, every point of the grid
// takes clicks; `marks` are cells drawn as rings (the pending turn, or the engine's suggestion);
// `ghosts` the engine's expected line.
function drawBoard(game, onCell, marks, markClass, ghosts) {
  const box = $("board");
  game = game || emptyBoard;
  if (!game) {
    box.innerHTML = "";
    return;
  }
  box.innerHTML = game.svg.replace(/^<\?xml[^>]*>\s*/, "");
  const svg = box.querySelector("svg");
  if (!svg) return;
  const at = (i) => game.margin + i * game.step;
  const top = document.createElementNS(SVG_NS, "g");
  drawOverlay(top, game, ghosts, at);
  for (const cell of marks || []) {
    const x = at(LETTERS.indexOf(cell[0]));
    const y = at(LETTERS.indexOf(cell[1]));
    circle(top, x, y, game.step / 2 - 2, markClass).setAttribute("data-mark", cell);
  }
  if (onCell) {
    for (let row = 0; row < 19; row++) {
      for (let col = 0; col < 19; col++) {
        const cell = LETTERS[col] + LETTERS[row];
        const spot = circle(top, at(col), at(row), game.step / 2, "spot");
        spot.setAttribute("data-cell", cell);
        spot.addEventListener("click", () => onCell(cell));
      }
    }
  }
  svg.appendChild(top);
  const style = document.createElementNS(SVG_NS, "style");
  style.textContent =
    ".pending{fill:rgba(40,120,220,0.55);stroke:#1050a0;stroke-width:2}" +
    ".suggestion{fill:none;stroke:#1050a0;stroke-width:3;stroke-dasharray:5 4}" +
    ".ghost,.threat,.ghost-number{pointer-events:none}" +
    ".ghost-black{fill:rgba(22,22,22,0.42)}.ghost-white{fill:rgba(250,250,245,0.6);stroke:#555}" +
    ".ghost-number{font-size:13px;font-weight:bold;text-anchor:middle}" +
    ".ghost-number-black{fill:#fff}.ghost-number-white{fill:#111}" +
    ".threat-black{fill:rgba(20,20,20,0.75)}.threat-white{fill:rgba(255,255,255,0.95);stroke:#333}";
  svg.appendChild(style);
}

// The score graph under the board (the server draws it); a click on a turn's column calls
// `onTurn` with its number.
function drawGraph(graph, onTurn) {
  const box = $("graph");
  box.innerHTML = graph && graph.svg ? graph.svg : "";
  if (!onTurn) return;
  for (const el of box.querySelectorAll("[data-turn]")) {
    el.addEventListener("click", () => onTurn(Number(el.dataset.turn)));
  }
}

function graphStatus(graph) {
  if (!graph) return "";
  const what = `${graph.time} s a position` + (graph.depth ? `, depth cap ${graph.depth}` : "");
  if (graph.status === "running") return `engine pass: ${graph.done} of ${graph.total} turns (${what})...`;
  if (graph.status === "stopped") return `pass stopped after ${graph.done} of ${graph.total} turns`;
  if (graph.status === "cached") return `kept from an earlier pass (${what})`;
  return `engine pass done: ${graph.done} turns (${what})`;
}

// The engine panel: `search` is the server's reading of the engine's log (see
// src/gui/panel.rs), `color` the side the engine searched for.
function fillPanel(prefix, search, color) {
  const s = (search && search.summary) || null;
  const its = (search && search.iterations) || [];
  const deepest = its.length ? its[its.length - 1] : null;
  const score = s ? s.score : deepest && deepest.score;
  const depth = s ? s.depth : deepest && deepest.depth;
  $(prefix + "-score").textContent =
    score == null ? "-" : `${score > 0 ? "+" : ""}${score} for ${color}` + (s ? "" : " (so far)");
  $(prefix + "-depth").textContent =
    depth == null ? "-" : String(depth) + (s ? `, ${s.nodes.toLocaleString("en-US")} nodes in ${s.time}` : "");
  $(prefix + "-nps").textContent = s && s.nps != null ? `${s.nps.toLocaleString("en-US")} nodes/s` : "-";
  const pv = (search && search.pv) || [];
  $(prefix + "-pv").textContent = pv.length ? pv.join(" ") : "-";
  const threats = $(prefix + "-threats");
  threats.innerHTML = "";
  let sentences = (search && search.threats) || [];
  const log = (search && search.log) || [];
  if (!sentences.length && s) sentences = ["No threat sequence reported."];
  else if (!sentences.length && !deepest && log.length) sentences = ["This engine does not report its search here: see the log."];
  for (const t of sentences) {
    const li = document.createElement("li");
    li.textContent = t;
    threats.appendChild(li);
  }
  $(prefix + "-log").textContent = log.join("\n");
}

function turnItems(list, game) {
  list.innerHTML = "";
  for (const t of game.turns) {
    const li = document.createElement("li");
    const time = t.time == null ? "" : ` ${t.time.toFixed(3)} s`;
    li.textContent = `${t.color} ${t.cells}${time}`;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

// A click on the empty board starts a game with the form's settings; when the person plays
// black, the click is also their first stone, waiting for Confirm like any turn.
async function startByClick(cell) {
  if (starting) return;
  starting = true;
  const settings = formObject($("play-form"));
  pending = [];
  try {
    if (await post("/play/new", settings) && (settings.human || "black") === "black") pending = [cell];
  } finally {
    starting = false;
  }
  render();
}

function clickPlay(cell) {
  if (!state || !state.play.active) return startByClick(cell);
  const play = state.play;
  if (play.over) return say("the game is over: start a new one");
  if (play.thinking) return say("the engine is thinking: wait for its move");
  if (play.to_move !== play.human) return say("it is the engine's turn");
  if (occupied(play.game).has(cell)) return say(`illegal: ${cell} is occupied`);
  const i = pending.indexOf(cell);
  if (i >= 0) pending.splice(i, 1);
  else if (pending.length < (play.game.turns.length === 0 ? 1 : 2)) pending.push(cell);
  else return say("a turn has two stones: confirm or clear them");
  say("");
  render();
}

function renderPlay() {
  const play = state.play;
  if (!play.active) {
    drawBoard(null, clickPlay);
    drawGraph(null);
    $("play-status").textContent = "No game yet: click the board to start one with these settings (as black, the click is your first stone), or press New game.";
    return;
  }
  const last = play.game.turns.length ? play.game.turns[play.game.turns.length - 1].cells : "";
  const ghosts = play.over ? null : ghostsOf(play.search, last, play.to_move, play.game.turns.length + 1);
  drawBoard(play.game, clickPlay, pending, "pending", ghosts);
  let status;
  if (play.over) status = "Game over: " + play.ending;
  else if (play.thinking) status = `The engine (${play.to_move}) is thinking...`;
  else status = `Your turn (${play.human}): click ${play.game.turns.length === 0 ? "one stone" : "two stones"}, then confirm.`;
  $("play-status").textContent = status;
  // The person's clock runs on the page between updates, from the server's reading.
  playClock = play.human_turn_began == null ? null : { began: play.human_turn_began, total: play.human_total };
  showPlayClock(play);
  $("play-search").textContent = `engine time ${play.engine_total.toFixed(3)} s, cap ${play.move_time} s a move`;
  fillPanel("play", play.search, play.human === "black" ? "white" : "black");
  drawGraph(play.graph);
  turnItems($("play-turns"), play.game);
}

let playClock = null;

function showPlayClock(play) {
  let text = `your time ${play.human_total.toFixed(1)} s`;
  if (playClock) {
    const run = Math.max(0, Date.now() - playClock.began) / 1000;
    text = `your time ${(playClock.total + run).toFixed(1)} s, this turn ${run.toFixed(1)} s`;
  }
  $("play-clock").textContent = text;
}

setInterval(() => {
  if (playClock && mode === "play" && state && state.play && state.play.active) showPlayClock(state.play);
}, 200);

function renderWatch() {
  const w = state.watch;
  drawBoard(w.live ? w.live.game : null);
  drawGraph(w.live && w.live.graph);
  const lines = [];
  if (w.running) lines.push(`Playing: ${w.names[0]} (A) vs ${w.names[1]} (B), ${w.results.length}/${w.planned} games done` + (w.stopping ? "; stopping: no new game starts" : ""));
  else if (w.summary) lines.push(`Match over: ${w.results.length} games`);
  else if (w.error) lines.push("Match stopped: " + w.error);
  else lines.push("No match yet.");
  if (w.running || w.summary) lines.push(`Score: ${w.names[0]} ${w.points[0]} - ${w.points[1]} ${w.names[1]}`);
  if (w.live) {
    const g = w.live;
    // Each side's thinking so far, and what is left of its game budget when there is one.
    const clock = (used) => `${used.toFixed(2)} s` + (w.game_time ? ` (${Math.max(0, w.game_time - used).toFixed(2)} s left)` : "");
    lines.push(`Game ${g.number}: ${g.game.black} (black) ${clock(g.clock[0])}, ${g.game.white} (white) ${clock(g.clock[1])}` + (g.ending ? ": " + g.ending : ""));
    lines.push(`Move time ${w.move_time} s`);
  }
  if (w.records) lines.push("Records: " + w.records);
  $("watch-status").textContent = lines.join("\n");
  const list = $("watch-results");
  list.innerHTML = "";
  for (const r of w.results) {
    const li = document.createElement("li");
    li.textContent = `game ${r.game}: ${r.result}` + (r.fault ? ` (fault: ${r.fault})` : "");
    list.appendChild(li);
  }
  $("watch-summary").textContent = w.summary || "";
  $("watch-stop").disabled = !w.running || w.stopping;
}

function renderReview() {
  const r = state.review;
  const files = $("review-files");
  if (files.options.length !== r.files.length) {
    files.innerHTML = "";
    r.files.forEach((name, i) => files.add(new Option(name, i)));
  }
  files.value = String(r.index);
  const view = r.engine;
  const marks = view && view.turn && view.upto === (r.game && r.game.upto) ? [view.turn.slice(0, 2), view.turn.slice(2, 4)].filter((c) => c) : [];
  const shown = view && r.game && view.upto === r.game.upto && view.turn;
  let ghosts = shown ? ghostsOf(view.search, "", view.color, r.game.upto + 1) : null;
  const forced = r.losing && r.game && r.losing.turn === r.game.upto && r.losing.line;
  if (!ghosts && forced && forced.length) {
    // The winner's forced line after the losing turn, as far as the keys have stepped it.
    if (lineFor !== r.losing.text) {
      lineFor = r.losing.text;
      lineShown = Infinity;
    }
    lineShown = Math.max(0, Math.min(lineShown, forced.length));
    const turns = forced.slice(0, lineShown);
    ghosts = turns.length ? { turns, color: r.losing.winner, depths: [], next: r.game.upto + 1 } : null;
  }
  drawBoard(r.game, null, marks, "suggestion", ghosts);
  drawGraph(r.graph, step);
  const g = r.graph;
  const bar = $("review-graph-progress");
  bar.max = g ? Math.max(1, g.total) : 1;
  bar.value = g ? g.done : 0;
  $("review-graph-status").textContent = graphStatus(g);
  $("review-graph-stop").disabled = !(g && g.status === "running");
  $("review-status").textContent = r.game
    ? `Turn ${r.game.upto} of ${r.game.turns.length}` + (r.busy ? " (working...)" : "")
    : "Open a record file or a folder of records.";
  $("review-losing-text").textContent = r.losing ? r.losing.text : "";
  let text = "";
  if (view && view.thinking) text = `asking the engine about turn ${view.upto}...`;
  else if (view && view.error) text = `after turn ${view.upto}: ${view.error}`;
  else if (view) text = `after turn ${view.upto} the engine plays ${view.color} ${view.turn} (${view.time.toFixed(3)} s)`;
  $("review-view").textContent = text;
  const mover = r.game && r.game.upto % 2 === 0 ? "black" : "white";
  fillPanel("review", view && view.search, (view && view.color) || mover);
}

function render() {
  if (!state) {
    drawGraph(null);
    return drawBoard(null, mode === "play" ? clickPlay : null);
  }
  if (mode === "play") renderPlay();
  else if (mode === "watch") renderWatch();
  else renderReview();
}

function step(upto) {
  const game = state && state.review.game;
  if (!game) return;
  const target = Math.max(0, Math.min(game.turns.length, upto));
  if (target !== game.upto) post("/review/goto", { upto: target });
}

function wire() {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => setMode(tab.dataset.mode));
  }
  $("play-form").addEventListener("submit", (e) => {
    e.preventDefault();
    pending = [];
    post("/play/new", formObject(e.target));
  });
  $("play-confirm").addEventListener("click", async () => {
    if (pending.length === 0) return say("click the stones of your turn first");
    const cells = pending.join("");
    if (await post("/play/move", { cells })) pending = [];
    render();
  });
  $("play-clear").addEventListener("click", () => { pending = []; say(""); render(); });
  $("play-undo").addEventListener("click", () => { pending = []; post("/play/undo"); });
  $("play-resign").addEventListener("click", () => { pending = []; post("/play/resign"); });
  $("watch-form").addEventListener("submit", (e) => {
    e.preventDefault();
    post("/watch/start", formObject(e.target));
  });
  $("watch-stop").addEventListener("click", () => post("/watch/stop"));
  $("overlay-toggle").addEventListener("change", (e) => {
    overlayOn = e.target.checked;
    render();
  });
  $("review-form").addEventListener("submit", (e) => {
    e.preventDefault();
    post("/review/open", formObject(e.target));
  });
  $("review-files").addEventListener("change", (e) => post("/review/select", { index: Number(e.target.value) }));
  $("review-engine-form").addEventListener("submit", (e) => {
    e.preventDefault();
    post("/review/engine", formObject(e.target));
  });
  const upto = () => (state && state.review.game ? state.review.game.upto : 0);
  $("review-first").addEventListener("click", () => step(0));
  $("review-prev").addEventListener("click", () => step(upto() - 1));
  $("review-next").addEventListener("click", () => step(upto() + 1));
  $("review-last").addEventListener("click", () => step(1e9));
  $("review-losing").addEventListener("click", () => post("/review/losing"));
  $("review-graph-form").addEventListener("submit", (e) => {
    e.preventDefault();
    post("/review/graph", formObject(e.target));
  });
  $("review-graph-stop").addEventListener("click", () => post("/review/stop"));
  document.addEventListener("keydown", (e) => {
    if (mode !== "review" || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const keys = { ArrowLeft: -1, ArrowRight: 1, Home: -1e9, End: 1e9 };
    if (e.key in keys) {
      e.preventDefault();
      step(Math.abs(keys[e.key]) === 1 ? upto() + keys[e.key] : keys[e.key]);
    } else if (e.key === "l" || e.key === "L") {
      post("/review/losing");
    } else if (e.key === "[" || e.key === "]") {
      // Steps the forced line drawn at the losing turn.
      lineShown = e.key === "]" ? lineShown + 1 : Math.max(0, Math.min(lineShown, 99) - 1);
      render();
    } else if (e.key === "g" || e.key === "G") {
      post("/review/graph", formObject($("review-graph-form")));
    } else if ((e.key === "PageDown" || e.key === "PageUp") && state) {
      // The next or previous record of the folder.
      e.preventDefault();
      const index = state.review.index + (e.key === "PageDown" ? 1 : -1);
      if (index >= 0 && index < state.review.files.length) post("/review/select", { index });
    }
  });
}

function follow() {
  const events = new EventSource("/events");
  events.onopen = () => { $("connection").textContent = "live"; };
  events.onerror = () => { $("connection").textContent = "reconnecting..."; };
  events.onmessage = (e) => {
    state = JSON.parse(e.data);
    render();
  };
}

async function start() {
  wire();
  const defaults = await fetch("/defaults").then((r) => r.json()).catch(() => ({}));
  emptyBoard = defaults.board || null;
  for (const id of ["play-engine", "review-engine", "watch-a", "watch-b"]) {
    $(id).value = defaults.engine || "";
  }
  $("watch-a").value = (defaults.engine || "") + " --move-time 0.5";
  $("watch-b").value = (defaults.engine || "") + " --move-time 0.5 --depth 2 --name Depth2";
  setMode(mode);
  follow();
}

start();
