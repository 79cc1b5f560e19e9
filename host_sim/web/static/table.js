// The other games of the family (Othello, Io, the number line) on the page's table:
// the server referees (host_sim/web/tabledriver.py); this page draws and sends clicks.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let state = null;
let focus = 0;

async function post(action, body) {
  const res = await fetch("/api/table/" + action, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body || {}),
  });
  const reply = await res.json().catch(() => ({ok: false, error: res.statusText}));
  $("notice").textContent = reply.ok ? "" : reply.error;
  return reply;
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const key in attrs) node.setAttribute(key, attrs[key]);
  if (parent) parent.appendChild(node);
  return node;
}

// Cell geometry: a square grid (rank 1 at the bottom) or one row of marks.
function layout(grid) {
  const pos = [];
  if (grid.kind === "line") {
    for (let c = 0; c < grid.cells; c++) pos.push([c * 60 + 40, 60]);
    return {pos, width: grid.cells * 60 + 20, height: 120, r: 22};
  }
  const n = grid.size;
  for (let c = 0; c < grid.cells; c++) {
    pos.push([(c % n) * 50 + 45, (n - 1 - Math.floor(c / n)) * 50 + 25]);
  }
  return {pos, width: n * 50 + 40, height: n * 50 + 40, r: 20};
}

function draw() {
  const svg = $("board");
  const g = state.grid;
  const {pos, width, height, r} = layout(g);
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  svg.replaceChildren();
  const legal = new Set(state.legal);
  const flipped = new Set(state.flipped);
  if (g.kind === "line") {
    el("line", {x1: 20, y1: 60, x2: width - 20, y2: 60, class: "numberline"}, svg);
  }
  for (let c = 0; c < g.cells; c++) {
    const name = g.names[c];
    const [x, y] = pos[c];
    const v = state.cells[c];
    const cell = el("g", {class: "cell", "data-cell": name, role: "gridcell", "aria-label": name}, svg);
    if (g.kind === "square") {
      el("rect", {x: x - 25, y: y - 25, width: 50, height: 50, class: "square"}, cell);
    } else {
      el("rect", {x: x - 28, y: 30, width: 56, height: 85, class: "hit"}, cell);
      el("line", {x1: x, y1: 50, x2: x, y2: 70, class: "tick"}, cell);
      const label = el("text", {x: x, y: 105, class: "mark"}, cell);
      label.textContent = name;
    }
    if (v === 8) {
      el("circle", {cx: x, cy: y, r: r, class: "hole"}, cell);
    } else if (v === 1 || v === 2) {
      el("circle", {cx: x, cy: y, r: r, class: "disk " + (v === 1 ? "dark" : "light") +
                    (flipped.has(name) ? " flipped" : "")}, cell);
    } else if (legal.has(name) && !state.thinking) {
      el("circle", {cx: x, cy: y, r: 6, class: "legal " + state.turn}, cell);
    }
    if (name === state.last) el("circle", {cx: x, cy: y, r: 5, class: "last"}, cell);
    if (name === state.suggestion) el("circle", {cx: x, cy: y, r: r, class: "suggestion"}, cell);
    if (c === focus) el("rect", {x: x - r - 4, y: y - r - 4, width: 2 * r + 8, height: 2 * r + 8, class: "focus"}, cell);
    cell.addEventListener("click", () => post("place", {cell: name}));
  }
  if (g.kind === "square") {
    for (let f = 0; f < g.size; f++) {
      const t = el("text", {x: f * 50 + 45, y: height - 2, class: "mark"}, svg);
      t.textContent = "abcdefghi"[f];
    }
    for (let k = 0; k < g.size; k++) {
      const t = el("text", {x: 10, y: (g.size - 1 - k) * 50 + 30, class: "mark"}, svg);
      t.textContent = String(k + 1);
    }
  }
}

function show() {
  $("title").textContent = state.title;
  const names = state.side_names;
  $("who-dark").textContent = "Dark (" + names.dark + ")";
  $("who-light").textContent = "Light (" + names.light + ")";
  $("score-dark").textContent = state.scores[0];
  $("score-light").textContent = state.scores[1];
  const turn = $("turn");
  turn.className = "turn " + (state.outcome ? "" : state.turn);
  if (state.outcome) {
    turn.textContent = state.outcome.winner === "draw" ? "A draw" : state.outcome.winner + " wins";
  } else {
    turn.textContent = state.turn + " (" + names[state.turn] + ") to place" +
      (state.phase ? ": " + state.phase + " placement" : "");
  }
  $("status").textContent = state.message || (state.thinking ? "The computer is thinking…" : "");
  const moves = $("moves");
  moves.replaceChildren(...state.moves.map((m) => { const li = document.createElement("li"); li.textContent = m; return li; }));
  $("computer").value = state.computer;
  $("level").value = String(state.level);
  $("demo").classList.toggle("active", state.demo);
  $("coin").hidden = state.game !== "othello";
  $("numberline-options").hidden = state.game !== "numberline";
  const choice = state.game === "io" ? "io:" + state.rules : state.game;
  if ($("game").value !== choice) $("game").value = choice;
  draw();
}

function rulesFor(game) {
  if (game !== "numberline") return undefined;
  const parts = [];
  if ($("ties-to-2").checked) parts.push("ties-to-2");
  const holes = $("holes").value.trim();
  if (holes) parts.push("holes=" + holes.replace(/\s+/g, ""));
  return parts.join("+") || "standard";
}

function newGame(call) {
  const [game, rules] = $("game").value.split(":");
  const body = {game};
  const r = rules || rulesFor(game);
  if (r) body.rules = r;
  if (call) body.call = call;
  return post("new", body);
}

$("game").addEventListener("change", () => {
  if ($("game").value === "iago") { location.href = "/"; return; }
  newGame();
});
$("new-game").addEventListener("click", () => newGame());
$("take-back").addEventListener("click", () => post("take-back"));
$("suggest").addEventListener("click", () => post("suggest"));
$("demo").addEventListener("click", () => post("demo", {on: !state.demo}));
for (const b of document.querySelectorAll("[data-call]")) {
  b.addEventListener("click", () => newGame(b.dataset.call));
}
$("computer").addEventListener("change", () => post("computer", {side: $("computer").value}));
$("level").addEventListener("change", () => post("computer", {level: Number($("level").value)}));
$("ties-to-2").addEventListener("change", () => newGame());
$("holes").addEventListener("change", () => newGame());
$("load").addEventListener("change", async () => {
  const file = $("load").files[0];
  if (file) await post("load", {record: await file.text()});
  $("load").value = "";
});
document.addEventListener("keydown", (e) => {
  if (!state || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const g = state.grid;
  const n = g.kind === "line" ? g.cells : g.size;
  const moves = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: g.kind === "line" ? 0 : n, ArrowDown: g.kind === "line" ? 0 : -n};
  if (e.key in moves) {
    focus = Math.min(g.cells - 1, Math.max(0, focus + moves[e.key]));
    draw();
    e.preventDefault();
  } else if (e.key === "Enter") {
    post("place", {cell: g.names[focus]});
  }
});

function connect() {
  const source = new EventSource("/api/table/events");
  source.addEventListener("state", (e) => { state = JSON.parse(e.data); show(); });
  source.onopen = () => { $("link").textContent = "live"; $("link").className = "pill"; };
  source.onerror = () => { $("link").textContent = "offline"; $("link").className = "pill off"; };
}
const wanted = new URLSearchParams(location.search).get("game");
connect();
if (wanted) { $("game").value = wanted; newGame(); }
