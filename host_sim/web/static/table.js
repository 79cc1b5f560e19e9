// The other games of the family (Othello, Io, the number line) on the page's table: the server
// referees (host_sim/web/tabledriver.py); this page draws its state and sends the clicks.
import { $, capital, el, keepsNoGame } from "./dom.js";
import { openLink, postJson, serverTrouble } from "./link.js";

const SQUARE = 50;                 // a square's side, SVG units
const MARK_GAP = 64;               // between two marks of the number line
let state = null;
let shape = "";                    // the grid the board was built for: rebuilt when it changes
let cells = [];                    // {name, x, y, g, content}
let focusIndex = 0;
let wanted = new URLSearchParams(location.search).get("game");

async function post(action, body) {
  const reply = await postJson("/api/table/" + action, body);
  $("notice").textContent = reply.ok ? "" : reply.error;
  return reply;
}

// Whether `what` may go ahead: it throws away the game in progress (placements made, not over,
// not the demo's) only if the player says so.
function keepsNoGameHere(what) {
  return keepsNoGame(what, state && !state.outcome && !state.demo ? state.moves.length : 0);
}

function text(x, y, value, cls, parent) {
  el("text", {x, y, class: cls}, parent).textContent = value;
}

// --- the board ---------------------------------------------------------------------------------

// Builds the cells of a square grid (rank 1 at the bottom, file a on the left, labelled on
// both) or of the number line (its marks left to right), each a focusable <g data-cell>.
function build(grid) {
  const svg = $("board");
  svg.replaceChildren();
  cells = [];
  const line = grid.kind === "line";
  const n = grid.size;
  let width, height;
  if (line) {
    width = grid.cells * MARK_GAP + 20;
    height = 130;
    el("line", {x1: 14, y1: 60, x2: width - 14, y2: 60, class: "numberline"}, svg);
  } else {
    width = n * SQUARE + 40;
    height = n * SQUARE + 40;
    el("rect", {x: 28, y: 8, width: n * SQUARE + 4, height: n * SQUARE + 4, class: "frame"}, svg);
    for (let f = 0; f < n; f++) {
      text(f * SQUARE + 30 + SQUARE / 2, height - 10, grid.names[f].replace(/[0-9]/g, ""), "mark", svg);
    }
    for (let k = 0; k < n; k++) {
      text(14, (n - 1 - k) * SQUARE + 10 + SQUARE / 2 + 5, grid.names[k * n].replace(/[a-z]/g, ""), "mark", svg);
    }
  }
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  for (let c = 0; c < grid.cells; c++) {
    const name = grid.names[c];
    const x = line ? c * MARK_GAP + 10 + MARK_GAP / 2 : (c % n) * SQUARE + 30 + SQUARE / 2;
    const y = line ? 60 : (n - 1 - Math.floor(c / n)) * SQUARE + 10 + SQUARE / 2;
    const g = el("g", {class: "cell", "data-cell": name, role: "gridcell", tabindex: "-1"}, svg);
    if (line) {
      el("rect", {x: x - MARK_GAP / 2 + 2, y: 22, width: MARK_GAP - 4, height: 100, class: "hit"}, g);
      el("line", {x1: x, y1: 50, x2: x, y2: 70, class: "tick"}, g);
      text(x, 112, name, "mark", g);
    } else {
      el("rect", {x: x - SQUARE / 2, y: y - SQUARE / 2, width: SQUARE, height: SQUARE, class: "square"}, g);
    }
    const cell = {name, x, y, g, content: el("g", {}, g), title: el("title", {}, g)};
    g.addEventListener("click", () => { setFocus(c, false); place(name); });
    g.addEventListener("keydown", (e) => onKey(e, c));
    cells.push(cell);
  }
  if (focusIndex >= cells.length) focusIndex = 0;
  cells[focusIndex].g.setAttribute("tabindex", "0");
}

function draw() {
  const g = state.grid;
  const key = g.kind + g.size + ":" + g.cells;
  if (key !== shape) { build(g); shape = key; }
  const line = g.kind === "line";
  const r = line ? 24 : 20;
  const legal = new Set(yourTurn() ? state.legal : []);
  const flipped = new Set(state.flipped);
  const sides = state.side_names;
  for (let c = 0; c < cells.length; c++) {
    const cell = cells[c];
    const {x, y, name} = cell;
    const v = state.cells[c];
    const layer = el("g", {});
    let what = "empty";
    if (v === 8) {
      el("circle", {cx: x, cy: y, r: r, class: "hole"}, layer);
      what = "a black hole: no one may place here";
    } else if (v === 1 || v === 2) {
      const side = v === 1 ? "dark" : "light";
      el("circle", {cx: x, cy: y, r: r, class: "disk " + side + (flipped.has(name) ? " flipped" : "")}, layer);
      if (line) text(x, y + 5, side === "dark" ? "1¢" : "10¢", "coin " + side, layer);
      what = sides[side] + (flipped.has(name) ? ", just turned" : "");
    } else if (legal.has(name)) {
      el("circle", {cx: x, cy: y, r: 6, class: "legal " + state.turn}, layer);
      what = "empty, legal for " + sides[state.turn];
    }
    if (name === state.bound_to) el("circle", {cx: x, cy: y, r: r + 3, class: "anchor"}, layer);
    // The last placement: a red dot on the disk (above the coin on the line, not on its value).
    if (name === state.last) el("circle", {cx: x, cy: line ? y - r - 9 : y, r: 5, class: "last"}, layer);
    if (name === state.suggestion) el("circle", {cx: x, cy: y, r: r + 1, class: "suggestion"}, layer);
    cell.content.replaceWith(layer);
    cell.content = layer;
    cell.g.setAttribute("aria-label", name + ": " + what);
    cell.g.classList.toggle("is-legal", legal.has(name));
  }
}

// Whether a person may place now: not during the demo, not on the computer's turn, not over.
function yourTurn() {
  return !state.outcome && !state.demo && state.computer !== state.turn;
}

function place(name) {
  if (!state) return;
  post("place", {cell: name});
}

function onKey(e, index) {
  const g = state.grid;
  const n = g.kind === "line" ? g.cells : g.size;
  const col = g.kind === "line" ? index : index % n;
  const moves = {
    ArrowLeft: col > 0 ? -1 : 0, ArrowRight: col < n - 1 ? 1 : 0,
    ArrowUp: g.kind === "line" ? 0 : n, ArrowDown: g.kind === "line" ? 0 : -n,
    Home: -col, End: n - 1 - col,
  };
  if (e.key in moves) {
    const next = index + moves[e.key];
    if (next >= 0 && next < cells.length) setFocus(next, true);
    e.preventDefault();
  } else if (e.key === "Enter" || e.key === " ") {
    place(cells[index].name);
    e.preventDefault();
  }
}

function setFocus(index, move) {
  if (cells[focusIndex]) cells[focusIndex].g.setAttribute("tabindex", "-1");
  focusIndex = index;
  cells[index].g.setAttribute("tabindex", "0");
  if (move) cells[index].g.focus();
}

// --- the panel ---------------------------------------------------------------------------------

function sideLabel(side) {
  return side + " (" + state.side_names[side] + ")";
}

function phaseText() {
  if (state.game !== "io" || state.outcome) return "";
  const who = state.side_names[state.turn];
  switch (state.phase) {
    case "first": return "Opening: " + who + " places the first stone, anywhere.";
    case "bound": return "Opening, bound: " + who + " places next to " + state.bound_to +
      " (the opponent's last stone), straight or diagonally.";
    case "free": return "Opening, free: " + who + " places where all eight neighbours are empty " +
      "(no corner).";
    default: return "Single placements: one stone on any empty cell.";
  }
}

function show() {
  $("title").textContent = state.title;
  document.title = state.title + " — the table";
  const names = state.side_names;
  for (const side of ["dark", "light"]) {
    $("who-" + side).textContent = side[0].toUpperCase() + side.slice(1) + " (" + names[side] + ")" +
      (state.computer === side ? " · computer" : "");
    $("score-" + side).textContent = state.scores[side === "dark" ? 0 : 1];
    $("box-" + side).classList.toggle("to-move", !state.outcome && state.turn === side);
  }
  const turn = $("turn");
  turn.className = "turn " + (state.outcome ? "" : state.turn);
  const trouble = serverTrouble(link, "table");
  document.body.classList.toggle("stale", !!trouble);
  if (trouble) {
    turn.className = "turn";
    turn.textContent = trouble[0];
  } else if (state.outcome) {
    const o = state.outcome;
    turn.textContent = (o.winner === "draw" ? "A draw" : capital(sideLabel(o.winner)) + " wins") +
      " " + o.dark + "-" + o.light;
  } else {
    turn.textContent = capital(sideLabel(state.turn)) + " to place";
  }
  const phase = phaseText();
  $("phase").hidden = !phase;
  $("phase").textContent = phase;
  let status = state.message;
  if (state.demo) status = (status ? status + " " : "") + "Demo: the computer plays both sides; click a cell to stop.";
  else if (state.thinking && !status) status = state.computer === state.turn ? "The computer is thinking…" : "Looking for a suggestion…";
  else if (state.suggestion && !status) status = "Suggestion for " + names[state.turn] + ": " + state.suggestion;
  $("status").textContent = trouble ? trouble[1] : status;
  showMoves();
  $("computer").value = state.computer;
  $("level").value = String(state.level);
  $("demo").classList.toggle("active", state.demo);
  $("demo").textContent = state.demo ? "Stop demo" : "Demo";
  $("take-back").disabled = state.moves.length === 0;
  $("suggest").disabled = !yourTurn();
  $("coin").hidden = state.game !== "othello";
  const coin = state.coin;
  $("coin-result").hidden = !coin;
  if (coin) {
    $("coin-result").textContent = "The toss: " + state.side_names[coin.caller] + " called " + coin.call +
      ", the coin showed " + coin.shows + ", so " + state.side_names[coin.first] + " placed first.";
  }
  $("numberline-options").hidden = state.game !== "numberline";
  if (state.game === "numberline") showOptions();
  if ($("game").value !== state.choice) $("game").value = state.choice;
  keepInUrl(state.choice);
  draw();
}

function showMoves() {
  const list = $("moves");
  const items = state.history.map((h, i) => {
    const li = document.createElement("li");
    const move = document.createElement("span");
    move.className = "move " + h.side + (i === state.history.length - 1 ? " current" : "");
    move.textContent = h.cell + (h.flips ? " +" + h.flips : "");
    move.title = state.side_names[h.side] + " on " + h.cell + ", " + h.flips + " turned";
    li.appendChild(move);
    if (h.pass) {
      const note = document.createElement("small");
      note.textContent = " " + state.side_names[h.side === "dark" ? "light" : "dark"] + " passes";
      li.appendChild(note);
    }
    return li;
  });
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

// The number line's options as the current rules say, unless the person is editing them.
function showOptions() {
  const parts = state.rules.split("+");
  $("ties-to-2").checked = parts.includes("ties-to-2");
  if (document.activeElement !== $("holes")) {
    const holes = parts.find((p) => p.startsWith("holes="));
    $("holes").value = holes ? holes.slice(6) : "";
  }
}

function rulesFor(game) {
  if (game !== "numberline") return undefined;
  const parts = [];
  if ($("ties-to-2").checked) parts.push("ties-to-2");
  const holes = $("holes").value.replace(/\s+/g, "");
  if (holes) parts.push("holes=" + holes);
  return parts.join("+") || "standard";
}

// The table's game in the address, so a reload (or a bookmark) comes back to it.
function keepInUrl(choice) {
  if (wanted) return;              // the page's own request is still being answered
  const url = new URL(location.href);
  if (url.searchParams.get("game") === choice) return;
  url.searchParams.set("game", choice);
  history.replaceState(null, "", url);
}

function newGame(call, choice) {
  const [game, rules] = (choice || $("game").value).split(":");
  const body = {game};
  const r = rules || rulesFor(game);
  if (r) body.rules = r;
  if (call) body.call = call;
  return post("new", body);
}

$("game").addEventListener("change", () => {
  if ($("game").value === "iago") { location.href = "/"; return; }
  if (!keepsNoGameHere("Play " + $("game").selectedOptions[0].textContent)) { $("game").value = state.choice; return; }
  newGame();
});
$("new-game").addEventListener("click", () => { if (keepsNoGameHere("Start a new game")) newGame(); });
$("take-back").addEventListener("click", () => post("take-back"));
$("suggest").addEventListener("click", () => post("suggest"));
$("demo").addEventListener("click", () => post("demo", {on: !state.demo}));
for (const b of document.querySelectorAll("[data-call]")) {
  b.addEventListener("click", () => { if (keepsNoGameHere("Start a new game")) newGame(b.dataset.call); });
}
$("computer").addEventListener("change", () => post("computer", {side: $("computer").value}));
$("level").addEventListener("change", () => post("computer", {level: Number($("level").value)}));
const optionsChange = () => {
  if (keepsNoGameHere("Start a new game with these options")) newGame();
  else showOptions();
};
$("ties-to-2").addEventListener("change", optionsChange);
$("holes").addEventListener("change", optionsChange);
$("load").addEventListener("change", async () => {
  const file = $("load").files[0];
  if (file && keepsNoGameHere("Load " + file.name)) await post("load", {record: await file.text()});
  $("load").value = "";
});

let link = {kind: "connecting", text: "connecting…"};   // openLink()'s status (link.js)

function connect() {
  openLink({
    events: "/api/table/events", probe: "/api/table/state",
    on: {
      state: (e) => {
        state = JSON.parse(e.data);
        // /table?game=io:7x7 asks for that game, but a page opened on the game in progress
        // (another tab's) joins it rather than starting over, unless the player says so.
        if (wanted) {
          const choice = wanted;
          wanted = null;
          const label = [...$("game").options].find((o) => o.value === choice);
          if (choice !== state.choice && label && choice !== "iago" &&
              keepsNoGameHere("Play " + label.textContent + " instead of this " + state.title)) {
            wanted = choice;
            newGame(undefined, choice).then(() => { wanted = null; if (state) show(); });
          }
        }
        show();
      },
      viewers: (e) => {
        const n = Number(e.data);
        $("viewers").textContent = n === 1 ? "1 page" : n + " pages";
      },
    },
    change: (status) => {
      link = status;
      $("link").textContent = status.text;
      $("link").className = "pill" + (status.kind === "live" ? "" : " off");
      if (state) show();
    },
  });
}
connect();
// The first choice leads back to the simulated board, whichever game its map makes it play.
fetch("/api/state").then((res) => res.json()).then((reply) => {
  const lay = reply.snapshot && reply.snapshot.layout;
  if (lay) $("game").options[0].textContent = lay.title + " (simulated board)";
}).catch(() => {});
