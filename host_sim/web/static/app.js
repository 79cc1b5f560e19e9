// The Iago board page: draws the board from its live state and sends the player's gestures and
// commands, through one board interface (board.js) whose back end is the server, the firmware
// running in this page, or a real board over Web Serial. No build step, no libraries.
"use strict";

const ROWS = "ABCDEFGHI";
const R = 20;                      // hex circumradius, SVG units
const W = Math.sqrt(3) * R;        // hex width across flats
const DISK_R = R * 0.68;           // disks are drawn to the same scale as the hexes
const SVG_NS = "http://www.w3.org/2000/svg";
const LONG_PRESS_MS = 550;
const NARROW = matchMedia("(max-width: 520px)");
const FACE_NAMES = { D: "dark disk", L: "light disk", d: "captive (red side up), hidden colour dark",
                     l: "captive (red side up), hidden colour light", "?": "a disk the game does not have" };

// The settings hexes (docs/board.md, "Settings"), in the order of the firmware's settings: the
// key printed on the board's diagram and what each sets. Their values are named as the panel's
// own controls name them (settingWords), so the words live in one place, index.html.
const SETTING_KEYS = [["rules", "R", "rules"], ["penalty", "P", "penalty option"],
                      ["hints", "H", "hints"], ["brightness", "B", "brightness"],
                      ["palette", "C", "palette"], ["computer", "K", "computer plays"],
                      ["level", "V", "computer's level"]];

const $ = (id) => document.getElementById(id);
let snap = null;                   // the latest state snapshot from the server
let leds = "";
let focusIndex = 30;               // E5: where the keyboard starts
let engineChoice = null;           // the last computer_move / suggestion event: {event, cell, side}
let cells = [];                    // {name, row, num, x, y, outer, centre, g}: in cell order
let byName = {};
// The board's shape: the 61-hex board unless the simulated board's map is a square one
// (snapshot.layout: Othello 8x8, Io 7x7); then cells are squares named a1 ... h8.
let layout = { kind: "hex", size: 9, game: "iago", title: "Iago", side_names: { dark: "dark", light: "light" } };

// --- geometry ---------------------------------------------------------------------------------

function firstNumber(row) { return row < 4 ? 1 : row - 3; }
function lastNumber(row) { return row > 4 ? 9 : row + 5; }

function makeCells() {
  cells = [];
  byName = {};
  if (layout.kind === "square") {
    const n = layout.size;
    for (let i = 0; i < n * n; i++) {
      const name = layout.names[i];
      // rank 1 at the bottom, file a on the left, as `iago show` draws it
      cells.push({ name, row: Math.floor(i / n), num: i % n, index: i, x: (i % n) * 2 * R,
                   y: (n - 1 - Math.floor(i / n)) * 2 * R, outer: false, centre: false });
    }
  } else {
    for (let row = 0; row < 9; row++) {
      for (let num = firstNumber(row); num <= lastNumber(row); num++) {
        const name = ROWS[row] + num;
        cells.push({
          name, row, num, index: cells.length,
          x: W * (num - row / 2), y: (8 - row) * 1.5 * R,
          outer: row === 0 || row === 8 || num === firstNumber(row) || num === lastNumber(row),
          centre: name === "E5",
        });
      }
    }
  }
  for (const cell of cells) byName[cell.name] = cell;
  if (focusIndex >= cells.length) focusIndex = Math.floor(cells.length / 2);
}
makeCells();

function squarePoints(r) {
  return [[-r, -r], [r, -r], [r, r], [-r, r]].map(([x, y]) => x.toFixed(2) + "," + y.toFixed(2)).join(" ");
}

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push((cx + r * Math.cos(a)).toFixed(2) + "," + (cy + r * Math.sin(a)).toFixed(2));
  }
  return pts.join(" ");
}

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const key in attrs) node.setAttribute(key, attrs[key]);
  if (parent) parent.appendChild(node);
  return node;
}

// --- drawing the board once -------------------------------------------------------------------

function buildBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const square = layout.kind === "square";
  svg.setAttribute("aria-label", square
    ? `the ${cells.length} squares of the ${layout.title} board; Enter places or lifts, F turns a disk over, arrows move`
    : "the 61 hexes of the board; Enter places or lifts, F turns a disk over, arrows move");
  const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
  const pad = R * 2.2;
  // On a phone the frame's side corners are cut off, so the hexes are large enough to tap.
  const padX = !square && NARROW.matches ? W / 2 + 4 : pad;
  const minX = Math.min(...xs) - padX, minY = Math.min(...ys) - pad;
  svg.setAttribute("viewBox", [minX, minY, Math.max(...xs) - minX + padX, Math.max(...ys) - minY + pad]
    .map((v) => v.toFixed(1)).join(" "));
  const defs = el("defs", {}, svg);
  const blur = el("filter", { id: "glow", x: "-60%", y: "-60%", width: "220%", height: "220%" }, defs);
  el("feGaussianBlur", { stdDeviation: R * 0.28 }, blur);
  const shade = el("radialGradient", { id: "shade", cx: "40%", cy: "35%", r: "70%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#fff", "stop-opacity": "0.25" }, shade);
  el("stop", { offset: "100%", "stop-color": "#000", "stop-opacity": "0.25" }, shade);

  if (square) {
    // The frame around the squares, files a... below and ranks 1... beside, as on the board.
    const n = layout.size, side = 2 * R * n;
    el("rect", { x: -R * 1.3, y: -R * 1.3, width: side + R * 0.6, height: side + R * 0.6, class: "frame" }, svg);
    for (let i = 0; i < n; i++) {
      const file = el("text", { class: "coord", x: i * 2 * R, y: (n - 1) * 2 * R + R * 1.85 }, svg);
      file.textContent = layout.names[i].replace(/[0-9]/g, "");
      const rank = el("text", { class: "coord", x: -R * 1.75, y: (n - 1 - i) * 2 * R + R * 0.3 }, svg);
      rank.textContent = String(i + 1);
    }
  } else {
    // The board's frame: a hexagon around the corner hexes, as on the printed board.
    const centre = byName.E5;
    const corners = ["I5", "I9", "E9", "A5", "A1", "E1"].map((n) => byName[n]);
    const frame = corners.map((c) => {
      const dx = c.x - centre.x, dy = c.y - centre.y, d = Math.hypot(dx, dy);
      const k = (d + R * 1.55) / d;
      return (centre.x + dx * k).toFixed(1) + "," + (centre.y + dy * k).toFixed(1);
    }).join(" ");
    el("polygon", { points: frame, class: "frame" }, svg);
  }

  for (const cell of cells) {
    const g = el("g", {
      class: "hex" + (square ? " sq" : cell.outer ? " outer" : " inner") + (cell.centre ? " centre" : ""),
      "data-cell": cell.name, tabindex: cell.index === focusIndex ? "0" : "-1",
      role: "gridcell", transform: `translate(${cell.x.toFixed(2)},${cell.y.toFixed(2)})`,
    }, svg);
    const shape = square ? squarePoints(R * 0.97) : hexPoints(0, 0, R * 0.97);
    el("polygon", { class: "base", points: shape }, g);
    cell.light = el("polygon", { class: "light", points: shape }, g);
    if (cell.centre) el("circle", { class: "mark", r: R * 0.82 }, g);
    cell.glow = el("circle", { class: "glow", r: R * 0.86, filter: "url(#glow)" }, g);
    cell.ghost = el("circle", { class: "ghost", r: DISK_R }, g);
    cell.disk = el("g", { class: "disk" }, g);
    cell.face = el("circle", { class: "face", r: DISK_R }, cell.disk);
    el("circle", { class: "sheen", r: DISK_R, fill: "url(#shade)" }, cell.disk);
    el("circle", { class: "hidden", r: DISK_R * 0.42 }, cell.disk);
    // The computer's or a suggestion's hex: a steady ring, as the LED's blink goes dark half the time.
    el("circle", { class: "choice", r: R * 0.8 }, g);
    el("circle", { class: "last-mark", r: R * 0.2 }, g);     // the last placement, as on the table
    cell.label = el("text", { class: "label", y: R * 0.72 }, g);
    cell.label.textContent = cell.name;
    cell.key = el("text", { class: "setting-key", y: -R * 0.38 }, g);   // a settings hex's key
    cell.title = el("title", {}, g);
    cell.g = g;
    bindGestures(cell);
  }
}

// --- gestures -----------------------------------------------------------------------------------

function bindGestures(cell) {
  const g = cell.g;
  let timer = null, longPressed = false;
  g.addEventListener("pointerdown", (e) => {
    longPressed = false;
    clearTimeout(timer);
    timer = null;
    if (e.button !== 0) return;
    timer = setTimeout(() => { timer = null; longPressed = true; flipGesture(cell.name); }, LONG_PRESS_MS);
  });
  g.addEventListener("pointerup", (e) => {
    if (e.button !== 0) return;
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (!longPressed) activate(cell.name);
    setFocus(cell.index, false);
  });
  for (const kind of ["pointerleave", "pointercancel"]) {
    g.addEventListener(kind, () => { clearTimeout(timer); timer = null; });
  }
  g.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    clearTimeout(timer);
    timer = null;
    // A touch long-press may bring both the timer and this event: one flip only.
    if (!longPressed) { longPressed = true; flipGesture(cell.name); }
  });
  g.addEventListener("keydown", (e) => onKey(e, cell));
}

function onKey(e, cell) {
  if (e.key.startsWith("Arrow")) {
    const next = neighbour(cell, e.key);
    if (next) setFocus(next.index, true);
    e.preventDefault();
  } else if (e.key === "Enter" || e.key === " ") {
    activate(cell.name);
    e.preventDefault();
  } else if (e.key === "f" || e.key === "F") {
    flipGesture(cell.name);
    e.preventDefault();
  }
}

// The cell an arrow key leads to from `cell`, or undefined at the edge.
function neighbour(cell, key) {
  if (layout.kind === "square") {
    const n = layout.size;
    const [dr, df] = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [1, 0], ArrowDown: [-1, 0] }[key] || [0, 0];
    const rank = cell.row + dr, file = cell.num + df;
    return rank >= 0 && rank < n && file >= 0 && file < n ? cells[rank * n + file] : undefined;
  }
  const moves = {
    ArrowLeft: [0, -1], ArrowRight: [0, 1],
    ArrowUp: [1, byName[ROWS[cell.row + 1] + (cell.num + 1)] ? 1 : 0],
    ArrowDown: [-1, byName[ROWS[cell.row - 1] + (cell.num - 1)] ? -1 : 0],
  };
  const [dr, dn] = moves[key] || [0, 0];
  return byName[(ROWS[cell.row + dr] || "") + (cell.num + dn)];
}

function setFocus(index, move) {
  cells[focusIndex].g.setAttribute("tabindex", "-1");
  focusIndex = index;
  cells[index].g.setAttribute("tabindex", "0");
  if (move) cells[index].g.focus();
}

function canTouch() {
  if (!snap) return false;
  if (!snap.gestures) {
    notice("This is a real board: move its disks by hand (commands still work).");
    return false;
  }
  return true;
}

function activate(name) {
  if (!canTouch()) return;
  if (name in snap.disks) post("lift", { cell: name });
  else post("place", { cell: name });
}

function flipGesture(name) {
  if (!canTouch()) return;
  if (!(name in snap.disks)) { notice(`There is no disk on ${name} to turn over.`, true); return; }
  post("flip", { cell: name });
}

// --- talking to the board -----------------------------------------------------------------------

// The static site (`make site`) marks its page: the board is then the firmware in the page, or a
// real one over Web Serial; served by `iago serve`, it is the server's.
const STATIC_SITE = !!document.querySelector('meta[name="iago-board"][content="page"]');
let board = null;                  // the back end (board.js)
let boardGeneration = 0;           // a replaced back end's late news is ignored

async function post(action, body) {
  const data = board ? await board.post(action, body) : { ok: false, error: "no board yet" };
  if (!data.ok) notice(data.error || "refused", true);
  else if (noticeIsError) notice("");      // an error belongs to the past once an action succeeds
  return data.ok ? data : null;
}

function command(cmd, fields) {
  return post("command", Object.assign({ cmd }, fields || {}));
}

let noticeTimer = null, noticeIsError = false, noticeEnds = null;
// A notice shows for 6 s, or until endsWhen(snapshot) says what it told is over.
function notice(text, error, endsWhen) {
  const node = $("notice");
  node.textContent = text;
  noticeIsError = !!error;
  noticeEnds = endsWhen || null;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { node.textContent = ""; noticeIsError = false; noticeEnds = null; }, 6000);
}

let link = { kind: "connecting", text: "connecting…" };   // openLink()'s status (link.js)
let heartbeat = null;              // the server's latest heartbeat (docs/web.md)
let faultSeen = null;              // the id of the simulator's latest fault this page knows of

// The handlers a back end reports to; those of a replaced one do nothing.
function boardHandlers() {
  const generation = ++boardGeneration;
  const live = (f) => (...args) => { if (generation === boardGeneration) f(...args); };
  return {
    state: live((next) => {
      const before = snap;
      snap = next;
      followPlacements(before, snap);
      followSettings(before, snap);
      if (noticeEnds && noticeEnds(snap)) notice("");
      render();
    }),
    leds: live((hexes) => { leds = hexes; renderLeds(); }),
    log: live(appendConsole),
    viewers: live((n) => { $("viewers").textContent = n === 1 ? "1 page" : n + " pages"; }),
    heartbeat: live((beat) => {
      const before = heartbeat;
      heartbeat = beat;
      followFaults();
      if (!before || before.board !== heartbeat.board) render();
    }),
    link: live((status) => { link = status; render(); }),
    notice: live(notice),
  };
}

function connect() {
  board = STATIC_SITE ? pageBoard(boardHandlers()) : serverBoard(boardHandlers());
}

// A real board over Web Serial (Chrome, Edge, Opera: on https or localhost) takes the page's
// place of the simulated one; the in-page board's game stays kept for the next visit.
async function connectSerial() {
  if (!serialSupported()) {
    notice("This browser has no Web Serial (Chrome, Edge and Opera have it, on https or localhost): " +
           "to show a real board here, run `iago serve --port PORT` and open the page it prints.", true);
    return;
  }
  let port;
  try {
    port = await navigator.serial.requestPort();
  } catch (err) {
    notice("No port chosen: " + err.message, true);
    return;
  }
  if (board && board.close) board.close();
  snap = null;
  leds = "";
  consoleSeq = 0;
  $("console").replaceChildren();
  board = serialBoard(boardHandlers(), port);
  $("board-source").value = "serial";
}

async function saveRecord() {
  let text;
  try {
    text = await board.record();
  } catch (err) {
    notice("No record to save: " + err.message, true);
    return;
  }
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  download(`iago-${stamp}.iago`, text);
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// A fault of the simulator's thread is told once, to the pages open when it happened.
function followFaults() {
  const id = heartbeat.fault || 0;
  if (faultSeen !== null && id > faultSeen) {
    const fault = snap && snap.fault && snap.fault.id === id ? snap.fault : null;
    notice("The simulator failed" + (fault ? ` (${fault.error}, ${fault.where})` : "") +
      (fault && !fault.restarted ? " and stopped." : " and restarted into its saved game, as a board's watchdog would."), true);
  }
  faultSeen = id;
}

let legalSeen = { position: "", legal: [] };   // the legal placements of the game's position
let misplaced = new Set();                     // disks just put down where the rules refuse them

// The board reports an illegal placement only as a disk to remove, and its legal list is empty
// until the board agrees again: so the page remembers the position's legal placements and which
// extra disks were put down on an empty hex of the game (not a disk left from an earlier game).
function followPlacements(before, now) {
  const state = now.state;
  const old = before && before.state;
  if (!state || !old || !state.position || !old.position) { misplaced = new Set(); return; }
  if (state.legal && state.legal.length) legalSeen = { position: state.position, legal: state.legal };
  const extra = new Set(state.extra || []);
  const had = new Set(old.extra || []);
  const game = positionCells(old.position);
  for (const name of extra) if (!had.has(name) && !(name in game)) misplaced.add(name);
  for (const name of misplaced) if (!extra.has(name)) misplaced.delete(name);
}

let settingNews = null;            // a setting just changed: {text, until, moves}
const SETTING_NEWS_MS = 8000;

// A setting stepped on the board (or changed from a page) is said in the status line: which
// setting, its value now and its hex. A board that names the setting it stepped (a `settings`
// event with `name`, `value` and `cell`, docs/board.md) is heard in followEvents; for any board
// the page also compares the state's settings, old and new.
function followSettings(before, now) {
  const old = before && before.state, state = now.state;
  if (!old || !state || !old.settings || !state.settings) return;
  const changed = SETTING_KEYS.map(([name]) => name)
    .filter((name) => name in state.settings && old.settings[name] !== state.settings[name]);
  sayChanged(changed, state.settings, (now.layout && now.layout.settings) || {});
}

// The status line's news of settings `names` changed to `values`, on hexes `cells` (or `said`).
function sayChanged(names, values, cells, said) {
  if (!names.length && !said) return;
  const what = Object.fromEntries(SETTING_KEYS.map(([name, , words]) => [name, words]));
  const text = said || capital(names.map((name) => `${what[name] || name} now ${settingWords(name, values)}` +
                                         (cells[name] ? ` (${cells[name]})` : "")).join("; ")) + ".";
  const state = snap && snap.state;
  settingNews = { text, until: performance.now() + SETTING_NEWS_MS, moves: state && state.moves ? state.moves.length : 0 };
  setTimeout(render, SETTING_NEWS_MS + 50);
}

// A settings hex stepped, as the board reports it (its `settings` event's name, value and
// cell). The board reports a step it refused too, with the value unchanged: the only one is
// the penalty option under loose rules, which force no capture to miss.
function sayStepped(msg) {
  const cells = typeof msg.cell === "string" ? { [msg.name]: msg.cell } : {};
  const rules = (msg.settings && msg.settings.rules) || "";
  if (msg.name === "penalty" && msg.value === false && rules.startsWith("loose")) {
    sayChanged([], {}, cells, `The penalty option stays off${msg.cell ? ` (${msg.cell})` : ""}: ` +
               "not with loose rules.");
  } else {
    sayChanged([msg.name], { [msg.name]: msg.value }, cells);
  }
}

// A setting's value in the words of the panel's control for it ("on", "full", "colour-blind").
function settingWords(name, settings) {
  const value = settings[name];
  if (typeof value === "boolean") return value ? "on" : "off";
  const control = $("set-" + name);
  const option = control && [...control.options].find((o) => o.value === String(value));
  return option ? option.textContent : String(value);
}

// The status line, led by a setting's change while it is news (until a placement, or 8 s).
function withSettingNews(text, state) {
  const news = settingNews;
  if (!news || !state || performance.now() > news.until || (state.moves || []).length !== news.moves) return text;
  return news.text + " " + text;
}

// Why the rules refuse a disk on `name` (docs/rules.md, "Which placements are legal").
function whyIllegal(name, state) {
  if (state.outcome) return `The game is over: no placement on ${name}.`;
  const legal = legalSeen.position === state.position ? legalSeen.legal : [];
  if (legal.includes(name)) return "";
  const s = state.settings || {};
  const cell = byName[name];
  let why = "";
  if (s.computer && s.computer !== "none" && s.computer === state.turn) why = "it is the computer's turn";
  else if (layout.kind !== "hex" || !cell) why = "";
  else if (cell.centre) why = "the centre takes a disk only where it captures or releases, or as the last empty inner hex";
  else if (cell.outer) why = "a disk on the outer ring must capture or release";
  else if (!(state.rules || "").startsWith("loose")) why = "a capture is forced, and it must be the largest";
  const list = legal.length > 12 ? `${legal.length} hexes` : legal.join(" ");
  return `${name} is not a legal placement for ${(layout.side_names || {})[state.turn] || state.turn}` + (why ? `: ${why}` : "") +
    (list ? `. Legal: ${list}.` : ".");
}

// What the page says instead of the game when what it shows is no longer the present.
function linkTrouble() {
  if (board && board.kind === "page" && link.kind === "offline") return ["Stopped", "The board in this page stopped: " + link.text];
  if (link.kind === "offline") return ["Offline", "Offline: the server cannot be reached. The board shown is as it was; the page reconnects by itself."];
  if (link.kind === "stuck") return ["Not responding", "The server is not responding: the board shown may be out of date."];
  if (link.kind === "connecting") return ["Connecting…", "Connecting to the server…"];
  const health = heartbeat && heartbeat.board;
  if (health === "stuck") return ["Not responding", "The simulated board is not responding: its thread is stuck."];
  if (health === "stopped") return ["Stopped", "The simulator stopped after repeated faults: restart iago serve."];
  return null;
}

// --- rendering ------------------------------------------------------------------------------------

// LED values are the duty the firmware sends (linear light, after its gamma and brightness);
// a screen expects gamma-encoded values, so encode them with the sRGB exponent.
function screenLevel(v) { return Math.round(255 * Math.pow(v / 255, 1 / 2.2)); }

function renderLeds() {
  for (const cell of cells) {
    const hex = leds.substr(cell.index * 6, 6);
    if (hex.length < 6) continue;
    const r = parseInt(hex.substr(0, 2), 16), g = parseInt(hex.substr(2, 2), 16), b = parseInt(hex.substr(4, 2), 16);
    const lit = r + g + b > 0;
    const css = `rgb(${screenLevel(r)},${screenLevel(g)},${screenLevel(b)})`;
    cell.g.dataset.led = `${r},${g},${b}`;
    cell.led = [r, g, b];
    cell.glow.style.fill = css;
    cell.glow.style.opacity = lit ? 1 : 0;
    cell.light.style.fill = css;
    cell.light.style.opacity = lit ? 0.45 : 0;
    tintFace(cell);
  }
}

// A captive's red face is lit from below by its LED, whose colour tells the hidden owner
// (red toward blue or toward orange, docs/board.md). The disk is drawn in the LED's hue at full
// strength, so the owner shows on the disk at any brightness (the glow shows how bright); with
// the LED off, the plain red paint.
function tintFace(cell) {
  const disk = cell.g.dataset.disk;
  const top = cell.led ? Math.max(...cell.led) : 0;
  cell.face.style.fill = (disk === "d" || disk === "l") && top > 0
    ? `rgb(${cell.led.map((v) => screenLevel(v * 255 / top)).join(",")})` : "";
}

function render() {
  const trouble = linkTrouble();
  document.body.classList.toggle("stale", !!trouble);
  $("link").textContent = trouble && link.kind === "live" ? "board not responding" : link.text;
  $("link").classList.toggle("off", !!trouble);
  if (!snap) {
    if (trouble) [$("turn").textContent, $("status").textContent] = trouble;
    return;
  }
  if (snap.layout && (snap.layout.kind !== layout.kind || snap.layout.size !== layout.size)) {
    layout = snap.layout;
    makeCells();
    buildBoard();
    renderLeds();
  }
  if (snap.layout) showGame(snap.layout);
  const state = snap.state;
  document.body.classList.toggle("sim-mode", snap.mode === "sim");
  document.body.classList.toggle("power-off", !snap.powered);
  $("source").textContent = snap.mode === "sim"
    ? `simulated board${board && board.kind === "page" ? " in this page" : ""} · firmware ${snap.firmware}`
    : `${snap.port}${snap.connected ? " · " + (snap.board || "board") + " · firmware " + (snap.firmware || "?") : " · not connected"}`;
  renderCells(state);
  renderSettingsLegend(state);
  renderGame(state);
  renderMoves(state);
  renderSettings(state);
  renderSim();
  $("help").hidden = !snap.gestures;
}

function renderCells(state) {
  const position = state && state.position ? positionCells(state.position) : {};
  const moves = state ? state.moves || [] : [];
  const last = moves.length ? moves[moves.length - 1] : null;
  const chosen = chosenCell(state);
  const flips = new Set(state ? state.flips_pending : []);
  const flipping = new Set(snap.flipping || []);
  const settingOf = settingsHexes();
  const pregame = isPregame(state);
  document.body.classList.toggle("pregame", pregame);
  for (const cell of cells) {
    const face = snap.disks[cell.name];
    const held = snap.hand[cell.name];
    const g = cell.g;
    g.dataset.disk = face || "";
    tintFace(cell);
    g.dataset.hand = held || "";
    g.classList.toggle("has-disk", face !== undefined);
    g.classList.toggle("in-hand", held !== undefined);
    g.classList.toggle("turning", flipping.has(cell.name));
    g.classList.toggle("to-turn", flips.has(cell.name));
    g.classList.toggle("last", cell.name === last && face !== undefined);
    g.classList.toggle("chosen", cell.name === chosen);
    g.dataset.mover = cell.name === chosen ? state.turn : "";
    let text = cell.name + (cell.centre ? " (centre)" : cell.outer ? " (outer ring)" : "");
    if (layout.kind === "square") text = cell.name;
    text += ": " + (face ? FACE_NAMES[face] : held ? "empty, its disk is in hand (" + FACE_NAMES[held] + ")" : "empty");
    if (position[cell.name] && position[cell.name] !== face) text += "; the game has a " + FACE_NAMES[position[cell.name]];
    if (flips.has(cell.name)) text += "; turn it over";
    if (cell.name === last) text += "; the last placement";
    if (cell.name === chosen) text += "; " + (engineChoice.event === "computer_move" ? "the computer's choice" : "the suggestion");
    const setting = settingOf[cell.name];
    g.classList.toggle("setting", !!setting);
    cell.key.textContent = setting ? setting[1] : "";
    if (setting) {
      text += `; settings hex ${setting[1]}: ${setting[2]}` +
        (state && state.settings ? `, now ${settingWords(setting[0], state.settings)}` : "") +
        (pregame ? " (rest a disk on it 0.4 s to step it)" : " (stepped before the first placement)");
    }
    cell.title.textContent = text;
    g.setAttribute("aria-label", text);
  }
}

// {cell name: [setting, key, what]} of the board's settings hexes (docs/board.md, "Settings").
function settingsHexes() {
  const cellOf = (snap && snap.layout && snap.layout.settings) || {};
  const out = {};
  for (const entry of SETTING_KEYS) if (cellOf[entry[0]]) out[cellOf[entry[0]]] = entry;
  return out;
}

// Before the first placement the settings hexes step settings (and the demo hex starts it).
function isPregame(state) {
  return !!state && state.phase === "play" && !(state.moves || []).length && !!state.settings;
}

// The legend of the settings hexes under the board, while they step settings: each hex, its
// key, what it sets and its value now.
function renderSettingsLegend(state) {
  const box = $("settings-legend");
  const settingOf = settingsHexes();
  const names = Object.keys(settingOf);
  box.hidden = !isPregame(state) || !names.length;
  if (box.hidden) return;
  const items = names.map((name) => {
    const [setting, key, what] = settingOf[name];
    const item = document.createElement("li");
    item.dataset.cell = name;
    const mark = document.createElement("b");
    mark.textContent = key;
    item.append(mark, ` ${name} ${what}: ${settingWords(setting, state.settings)}`);
    return item;
  });
  const demo = snap.layout && snap.layout.demo;
  if (demo) {
    const item = document.createElement("li");
    item.textContent = `${demo}: hold a disk 2 s for the demo`;
    items.push(item);
  }
  $("settings-legend-list").replaceChildren(...items);
}

// The hexes the status line names show their names, so "turn over D5" can be found at a glance
// (and on a phone, where the panel's "Cell names" is far below).
function nameCells(text) {
  const named = new Set((text.match(/\b[A-Ia-i][1-9]\b/g) || []).filter((n) => n in byName));
  for (const cell of cells) cell.g.classList.toggle("named", named.has(cell.name));
}

function positionCells(text) {
  // "5/6/7/8/3D1L3/..." rows from I down to A, digits are runs of empty hexes; on a square
  // board "8/8/8/3DL3/..." ranks from the top down, each from file a.
  const out = {};
  const rows = text.split(" ")[0].split("/");
  if (layout.kind === "square") {
    const n = layout.size;
    rows.forEach((rowText, i) => {
      let file = 0;
      for (const ch of rowText.replace(/[0-9]/g, (d) => ".".repeat(Number(d)))) {
        if (ch !== ".") out[layout.names[(n - 1 - i) * n + file]] = ch;
        file += 1;
      }
    });
    return out;
  }
  rows.forEach((rowText, i) => {
    const row = 8 - i;
    let num = firstNumber(row);
    for (const ch of rowText) {
      if (ch >= "0" && ch <= "9") num += Number(ch);
      else { out[ROWS[row] + num] = ch; num += 1; }
    }
  });
  return out;
}

function renderGame(state) {
  const turn = $("turn");
  const status = $("status");
  const over = state && state.outcome;
  const demo = !!state && state.phase === "demo";
  if (!state) {
    turn.textContent = snap.mode === "sim" ? "Power off" : (snap.connected ? "Waiting for the board…" : "Not connected");
    turn.className = "turn";
  } else if (demo) {
    turn.textContent = `Demo, game ${state.games || 1}`;
    turn.className = "turn";
  } else if (over) {
    const high = Math.max(over.dark, over.light), low = Math.min(over.dark, over.light);
    turn.textContent = over.winner === "draw" ? `A draw, ${high} to ${low}` : `${capital(over.winner)} wins ${high} to ${low}`;
    turn.className = "turn " + (over.winner === "draw" ? "" : over.winner);
  } else if (state.phase === "selftest") {
    turn.textContent = "Self-test";
    turn.className = "turn";
  } else {
    // The next side moves only once the board agrees with the game: say so, as the status
    // line says what to mend.
    const mend = (state.flips_pending || []).length ? " after the flips"
      : (state.extra || []).length || (state.missing || []).length ? " once the disks are in place" : "";
    turn.textContent = `${capital(state.turn)} to move${mend}`;
    turn.className = "turn " + state.turn;
  }
  const trouble = linkTrouble();
  if (trouble) {
    turn.textContent = trouble[0];
    turn.className = "turn";
  }
  status.textContent = trouble ? trouble[1] : withSettingNews(describe(state), state);
  nameCells(status.textContent);
  document.title = layout.title + " board · " + turn.textContent;
  for (const side of ["dark", "light"]) {
    const box = $("score-" + side);
    const area = snap.areas ? snap.areas[side] : [0, 0];
    const score = state && state.scores ? state.scores[side === "dark" ? 0 : 1] : "–";
    box.querySelector("b").textContent = score;
    if (layout.game !== "iago") {
      box.querySelector("small").textContent = "disks";
      box.title = "most disks wins";
    } else if (snap.areas && snap.areas.scoring === "count") {
      box.querySelector("small").textContent = `${area[0]} inner + ${area[1]} outer`;
      box.title = "simple rules: every face-up disk counts";
    } else {
      // An area without disks counts 1 (docs/rules.md, "Score"): said, so 1 × 1 = 1 reads right.
      const factor = (n, where) => n ? `${n} ${where}` : `0 ${where} (counts 1)`;
      box.querySelector("small").textContent = `${factor(area[0], "inner")} × ${factor(area[1], "outer")}`;
      box.title = "inner disks × outer disks; an area without any of your face-up disks counts as 1";
    }
    box.classList.toggle("to-move", !!state && !over && state.turn === side);
  }
  renderActions(state);
  renderKeptGames();
  const hand = Object.keys(snap.hand || {}).filter((n) => !(snap.flipping || []).includes(n));
  $("hand").hidden = hand.length === 0;
  if (hand.length) {
    $("hand").innerHTML = "";
    const text = document.createElement("span");
    text.textContent = "In hand: " + hand.map((n) => `${n} (${FACE_NAMES[snap.hand[n]]})`).join(", ") +
      ". Click its hex to put it back. ";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Put away";
    button.addEventListener("click", () => post("put-away"));
    $("hand").append(text, button);
  }
}

// The panel's actions that can happen now, from the board's state (docs/web.md, "When a button
// is off"): a board without power, not connected or not yet reporting answers no command; the
// demo and the self-test have no game to act on.
function actionsNow(state) {
  const phase = state ? state.phase : null;
  const game = phase === "play" || phase === "over";            // not the light check
  const playing = !!state && phase !== "demo" && phase !== "selftest";
  return {
    command: !!snap.powered && snap.connected !== false,
    newGame: playing,
    takeBack: game && state.moves.length > 0,
    claim: phase === "play" && !!state.can_claim,
    suggest: phase === "play" && !state.outcome,
    demo: game,
    record: playing,
    settings: playing,
    replay: !!state,
    knock: Object.keys(snap.disks || {}).some((name) => !(snap.flipping || []).includes(name)),
  };
}

function renderActions(state) {
  const can = actionsNow(state);
  const demo = !!state && state.phase === "demo";
  $("new-game").disabled = !can.newGame;
  $("take-back").disabled = !can.takeBack;
  $("claim").hidden = !state || !state.settings || !state.settings.penalty || demo;
  $("claim").disabled = !can.claim;
  $("suggest").disabled = !can.suggest;
  $("demo").disabled = !can.demo;
  $("demo-note").hidden = !demo;
  $("save").classList.toggle("disabled", !can.record);
  $("save").setAttribute("aria-disabled", String(!can.record));
  $("load-label").hidden = snap.mode !== "sim";
  $("load").disabled = !can.record;
  $("load-label").classList.toggle("disabled", !can.record);
  for (const b of document.querySelectorAll("[data-replay]")) b.disabled = !can.replay && b.dataset.replay !== "stop";
  $("knock").disabled = !can.knock;
  $("send-form").querySelector("button").disabled = !can.command;
}

// A real board over Web Serial: the finished games fetched from it, each to save as a record.
function renderKeptGames() {
  const games = snap.kept_games || [];
  const box = $("kept-games");
  box.hidden = games.length === 0;
  if (box.childElementCount === games.length) return;
  box.replaceChildren(...games.map((game) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Save the board's game ${game.id}`;
    button.addEventListener("click", () => download(`iago-board-game${game.id}.iago`, game.record));
    return button;
  }));
}

function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

// The game of the simulated board: its title, its sides' names, the settings it has.
function showGame(lay) {
  $("title").textContent = lay.title + " board";
  const names = lay.side_names || { dark: "dark", light: "light" };
  for (const side of ["dark", "light"]) {
    $("score-" + side).querySelector(".who").textContent =
      capital(side) + (names[side] !== side ? " (" + names[side] + ")" : "");
  }
  const choice = $("game-choice").options[0];
  choice.textContent = lay.title + " (simulated board)";
  for (const id of ["set-rules", "set-penalty"]) $(id).closest("label").hidden = lay.game !== "iago";
  if (lay.kind === "square") {
    $("help").textContent = "Click an empty square to place a disk of the side to move; click a disk to " +
      "lift it and click its square again to put it back. Right-click or long-press a disk to turn it " +
      "over (black to white). Keys: arrows move, Enter places or lifts, F turns over.";
  }
}

function describe(state) {
  if (snap.mode === "board" && !snap.connected) return "Not connected: " + (snap.error || "opening the port…");
  if (!snap.powered) return "Power off: the LEDs are dark; the disks stay where they are.";
  if (!state) return "Waiting for the board…";
  if (state.phase === "startup") return "Light check…";
  if (state.phase === "demo") return "Demo: the computer plays both sides. Place a disk to stop.";
  if (state.phase === "selftest") return describeSelftest(state);
  const parts = [];
  const extra = state.extra || [], missing = state.missing || [], flips = state.flips_pending || [];
  if (extra.length) parts.push("remove the disk on " + extra.join(", "));
  if (missing.length) parts.push("put back the disk on " + missing.join(", "));
  if (flips.length) parts.push("turn over " + flips.join(", "));
  if (parts.length) {
    const why = [...misplaced].filter((n) => extra.includes(n)).map((n) => whyIllegal(n, state));
    return [capital(parts.join("; ")) + "."].concat(why).filter(Boolean).join(" ");
  }
  if (state.outcome) {
    const o = state.outcome;
    const why = o.tie_break ? ` (tied at ${o.dark}; ${o.tie_break} decides)` : "";
    return `Game over: dark ${o.dark}, light ${o.light}${why}. Clear the board for a new game.`;
  }
  if (state.tentative) return `${state.tentative} placed…`;
  const choice = engineChoice;
  if (chosenCell(state)) {
    if (choice.event === "computer_move") return `Computer (${choice.side}) chose ${choice.cell} — place its disk there.`;
    return `Suggestion for ${choice.side}: ${choice.cell}.`;
  }
  const s = state.settings || {};
  if (s.computer && s.computer !== "none" && s.computer === state.turn) return `Computer (${s.computer}) is thinking…`;
  const legal = state.legal || [];
  let text = `${capital(state.turn)} to move: ${legal.length} legal placement${legal.length === 1 ? "" : "s"}.`;
  if (state.can_claim) text += " The last placement missed a forced capture: a penalty may be claimed.";
  return text;
}

// The self-test's progress (docs/board.md, "Self-test"); the board plays nothing meanwhile.
function describeSelftest(state) {
  const faults = (state.stuck || []).length + (state.swapped || []).length + (state.silent || []).length;
  const found = faults ? `${faults} fault${faults === 1 ? "" : "s"} found so far` : "no fault found so far";
  if (state.selftest === "checklist" && state.asked) return `Self-test: put a disk on ${state.asked} (${state.passed} passed, ${found}).`;
  if (state.selftest === "done") return `Self-test done: ${state.passed} passed, ${faults ? found.replace(" so far", "") : "no fault"}. Power off and on to play.`;
  return "Self-test: every LED lights in turn.";
}

// The hex the computer chose, or the suggestion, while it waits for its disk.
function chosenCell(state) {
  const choice = engineChoice;
  if (!state || !choice || choice.side !== state.turn || choice.cell in snap.disks) return null;
  return choice.cell;
}

function renderMoves(state) {
  const list = $("moves");
  const replay = snap.replay;
  const moves = replay ? replay.moves : (state && state.moves) || [];
  const claims = new Set(replay ? replay.claims : (state && state.claims) || []);
  const current = replay ? replay.index : moves.length;
  list.innerHTML = "";
  for (let i = 0; i < moves.length; i += 2) {
    const li = document.createElement("li");
    for (let j = i; j < Math.min(i + 2, moves.length); j++) {
      const span = document.createElement("span");
      const mover = snap.movers && !replay ? snap.movers[j] : (j % 2 ? "light" : "dark");
      span.className = "move " + mover;
      span.textContent = (claims.has(j) ? "claim " : "") + moves[j];
      span.dataset.ply = j + 1;
      if (j === current - 1) span.classList.add("current");
      if (j >= current) span.classList.add("future");
      if (!replay && state && state.tentative && j === moves.length - 1) {
        span.classList.add("tentative");   // not a move until its disk rests
        span.title = "placed, not yet a move";
      }
      if (replay && state) {          // without power the board replays nothing
        span.tabIndex = 0;
        span.title = "replay to here";
        span.addEventListener("click", () => post("replay/step", { to: j + 1 }));
      }
      li.appendChild(span);
    }
    list.appendChild(li);
  }
  const cur = list.querySelector(".current");
  if (cur) {   // scroll the list only, never the page
    const top = cur.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
  $("replay").hidden = !replay;
  if (replay) {
    $("replay-pos").textContent = `${replay.index} / ${replay.moves.length}` +
      (replay.target !== replay.index ? ` → ${replay.target}` : "");
    const h = replay.headers || {};
    $("replay-title").textContent = [h.Dark, h.Light].filter(Boolean).join(" – ") + ` ${replay.result}`;
    $("replay-error").textContent = replay.error || "";
  }
}

function renderSettings(state) {
  const off = !actionsNow(state).settings;  // no power, the demo, the self-test: refused
  const s = state && state.settings;
  if (!s) {
    for (const [name] of SETTING_KEYS) $("set-" + name).disabled = true;
    return;
  }
  const set = (id, value, prop) => {
    const node = $(id);
    if (value !== undefined && document.activeElement !== node) node[prop || "value"] = value;
    node.disabled = off;
  };
  set("set-rules", s.rules);
  set("set-penalty", s.penalty, "checked");
  set("set-hints", s.hints, "checked");
  set("set-brightness", String(s.brightness));
  set("set-palette", String(s.palette));
  set("set-computer", s.computer);
  set("set-level", s.level === undefined ? undefined : String(s.level));
  $("set-penalty").disabled = off || s.rules.startsWith("loose");
}

function renderSim() {
  const sim = snap.sim;
  if (!sim) return;
  for (const b of document.querySelectorAll("#speeds [data-speed]")) {
    b.classList.toggle("active", Number(b.dataset.speed) === sim.speed);
    b.setAttribute("aria-pressed", Number(b.dataset.speed) === sim.speed);
  }
  $("pause").textContent = sim.paused ? "Resume" : "Pause";
  $("pause").classList.toggle("active", sim.paused);
  $("clock").textContent = `Board clock ${formatClock(sim.clock_s)}` +
    (sim.paused ? " (paused)" : ` · running at ${sim.actual_speed.toFixed(2)}×`) +
    (sim.restarts ? ` · ${sim.restarts} restart${sim.restarts === 1 ? "" : "s"}` : "") +
    (sim.pty ? ` · USB serial on ${sim.pty}` : "");
  if (document.activeElement !== $("bounce")) $("bounce").value = String(sim.bounce_ms);
  if (document.activeElement !== $("crosstalk")) $("crosstalk").value = String(sim.crosstalk);
  $("autoflip").checked = sim.autoflip;
  $("stuck").textContent = sim.stuck.length ? "Stuck switches: " + sim.stuck.join(", ") : "";
  $("power").textContent = snap.powered ? "Cut power" : "Power on";
  $("power").classList.toggle("danger", snap.powered);
}

function formatClock(s) {
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

// The board's events that the status line follows: the computer's choice and suggestions.
// The console's history, sent to a page as it opens, sets the status line but raises no
// notice: a demo stopped before the page was opened is no news.
function followEvents(entries, news) {
  let changed = false;
  for (const entry of entries) {
    if (entry.dir !== "in" || !entry.text.includes('"event"')) continue;
    let msg;
    try { msg = JSON.parse(entry.text); } catch (err) { continue; }
    if (msg.event === "computer_move" || msg.event === "suggestion") {
      engineChoice = { event: msg.event, cell: msg.cell, side: msg.side };
      changed = true;
    }
    if (msg.event === "settings" && typeof msg.name === "string" && news) {
      sayStepped(msg);
      changed = true;
    }
    if (["tentative", "move", "withdrawn", "take_back", "new_game", "startup", "restored", "demo",
         "settings"].includes(msg.event)) {
      if (engineChoice) changed = true;
      engineChoice = null;
      if (msg.event === "demo" && !msg.running && msg.stopped_by && news) notice(`Demo stopped by the disk on ${msg.stopped_by}.`);
    }
  }
  if (changed) render();
}

let consoleSeq = 0;                 // the last console line shown: a reconnected stream resends some

function appendConsole(entries) {
  const news = consoleSeq > 0;
  entries = entries.filter((entry) => !entry.seq || entry.seq > consoleSeq);
  for (const entry of entries) consoleSeq = Math.max(consoleSeq, entry.seq || 0);
  followEvents(entries, news);
  const list = $("console");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  for (const entry of entries) {
    const li = document.createElement("li");
    li.className = "log " + entry.dir + (entry.text.includes('"event"') ? " event" : "") +
      (entry.text.includes('"ok": false') ? " failed" : "");
    const arrow = entry.dir === "out" ? "→" : entry.dir === "in" ? "←" : "•";
    li.textContent = `${entry.at} ${arrow} ${entry.from !== "board" ? "[" + entry.from + "] " : ""}${entry.text}`;
    list.appendChild(li);
  }
  while (list.children.length > 500) list.removeChild(list.firstChild);
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// --- the panel's controls -------------------------------------------------------------------------

// Whether `what` may go ahead: it throws away the game in progress (placements made, not over,
// not a replay, which is the record's game) only if the player says so.
function keepsNoGame(what) {
  const state = snap && snap.state;
  const moves = state && !state.outcome && !snap.replay && state.phase !== "demo" ? state.moves.length : 0;
  if (!moves) return true;
  return confirm(`${what}? The game in progress (${moves} placement${moves === 1 ? "" : "s"}) will be lost; ` +
                 "Save record keeps it.");
}

// A new game, then on the simulated board the hands take the old game's disks off. The board's
// answer comes first: a board that refuses (no power, the demo) keeps its game and its disks.
async function newGame(fields) {
  if (!(await command("new_game", fields))) return;
  if (snap && snap.mode === "sim" && Object.keys(snap.disks).length) post("clear");
}

function bindControls() {
  // The other games are played on the rules alone, on the page's second view (table.html).
  $("game-choice").addEventListener("change", (e) => {
    if (e.target.value !== "iago") location.href = "/table?game=" + encodeURIComponent(e.target.value);
  });
  $("names").addEventListener("change", (e) => {
    document.body.classList.toggle("show-names", e.target.checked);
    localStorage.setItem("iago-names", e.target.checked ? "1" : "");
  });
  if (localStorage.getItem("iago-names")) { $("names").checked = true; document.body.classList.add("show-names"); }
  $("new-game").addEventListener("click", async () => {
    if (!keepsNoGame("Start a new game")) return;
    newGame();
  });
  $("take-back").addEventListener("click", () => command("take_back"));
  $("claim").addEventListener("click", () => command("claim"));
  $("suggest").addEventListener("click", () => command("suggest"));
  $("demo").addEventListener("click", () => command("demo"));
  $("save").addEventListener("click", (e) => {
    if (!snap || !actionsNow(snap.state).record) e.preventDefault();
    else if (board.kind !== "server") { e.preventDefault(); saveRecord(); }
  });
  // The static site: the board simulated in the page, or a real one over Web Serial.
  $("board-source").addEventListener("change", (e) => {
    if (e.target.value === "serial") { e.target.value = board.kind === "serial" ? "serial" : "page"; connectSerial(); }
    else if (board.kind === "serial") location.reload();
  });
  $("connect").addEventListener("click", connectSerial);
  $("load").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (!file) return;
    if (file.size > 200000) { notice("That file is too large for a game record.", true); return; }
    // Read and checked first: a file the board cannot replay throws no game away, and is
    // refused without a question.
    const text = await file.text();
    const checked = await board.post("replay/load", { record: text, check: true });
    if (!checked.ok) { notice(`${file.name} cannot be replayed: ${checked.error}`, true); return; }
    if (!keepsNoGame(`Load ${file.name}`)) return;
    if (await post("replay/load", { record: text })) notice(`Loaded ${file.name}: use Next ▶ to replay it on the board.`);
  });
  for (const b of document.querySelectorAll("[data-replay]")) {
    b.addEventListener("click", () => {
      const r = snap && snap.replay;
      if (!r) return;
      const kind = b.dataset.replay;
      if (kind === "stop") post("replay/stop");
      else if (kind === "start") post("replay/step", { to: 0 });
      else if (kind === "end") post("replay/step", { to: r.moves.length });
      else post("replay/step", { delta: kind === "forward" ? 1 : -1 });
    });
  }
  $("autoflip").addEventListener("change", (e) => post("autoflip", { on: e.target.checked }));
  $("clear").addEventListener("click", () => post("clear"));

  const settingsChange = async (changes) => {
    const state = snap && snap.state;
    if (!state) return;
    const next = Object.assign({}, state.settings, changes);
    // Only the changed settings are sent: two quick changes must not undo each other.
    const partial = Object.assign({}, changes);
    if (next.rules.startsWith("loose")) next.penalty = partial.penalty = false;
    const rulesChange = next.rules !== state.settings.rules || next.penalty !== state.settings.penalty;
    if (rulesChange && state.moves.length) {
      if (!confirm(`Rules change only before the first placement. Start a new game with ${next.rules}${next.penalty ? " + penalty" : ""}?`)) { render(); return; }
      newGame({ settings: next });
    } else {
      command("settings", { settings: partial });
    }
  };
  $("set-rules").addEventListener("change", (e) => settingsChange({ rules: e.target.value }));
  $("set-penalty").addEventListener("change", (e) => settingsChange({ penalty: e.target.checked }));
  $("set-hints").addEventListener("change", (e) => settingsChange({ hints: e.target.checked }));
  $("set-brightness").addEventListener("change", (e) => settingsChange({ brightness: Number(e.target.value) }));
  $("set-palette").addEventListener("change", (e) => settingsChange({ palette: Number(e.target.value) }));
  $("set-computer").addEventListener("change", (e) => settingsChange({ computer: e.target.value }));
  $("set-level").addEventListener("change", (e) => settingsChange({ level: Number(e.target.value) }));

  for (const b of document.querySelectorAll("#speeds [data-speed]")) {
    b.addEventListener("click", () => post("speed", { speed: Number(b.dataset.speed) }));
  }
  $("pause").addEventListener("click", () => post("pause", { paused: !(snap && snap.sim && snap.sim.paused) }));
  $("bounce").addEventListener("change", (e) => post("fault/bounce", { ms: Number(e.target.value) }));
  $("crosstalk").addEventListener("change", (e) => post("fault/crosstalk", { chance: Number(e.target.value) }));
  const stuckCell = () => $("stuck-cell").value.trim().toUpperCase() || "E5";
  $("stick").addEventListener("click", () => post("fault/stick", { cell: stuckCell(), stuck: true }));
  $("mend").addEventListener("click", () => post("fault/stick", { cell: stuckCell(), stuck: false }));
  $("knock").addEventListener("click", async () => {
    const r = await post("fault/lift");
    if (r) {
      const powered = snap.powered;
      notice(`A disk was knocked off ${r.cell}: click the hex to put it back.`, false,
             (now) => now.powered !== powered || !(r.cell in now.hand));
    }
  });
  $("power").addEventListener("click", () => post("power", { on: !(snap && snap.powered) }));
  $("send-form").addEventListener("submit", (e) => {
    e.preventDefault();
    let msg;
    try { msg = JSON.parse($("send-text").value); } catch (err) { notice("Not JSON: " + err.message, true); return; }
    if (!msg || typeof msg !== "object" || Array.isArray(msg)) { notice('A command is an object such as {"cmd": "ping"}', true); return; }
    post("command", msg);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  document.body.classList.toggle("static-site", STATIC_SITE);
  $("board-choice").hidden = !STATIC_SITE;
  $("game-choice").closest("label").hidden = STATIC_SITE;   // the other games need the server
  buildBoard();
  NARROW.addEventListener("change", () => { buildBoard(); renderLeds(); render(); });
  bindControls();
  connect();
});
