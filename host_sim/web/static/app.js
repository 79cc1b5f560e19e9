// The Iago board page, its one entry module: draws the board from its live state and sends the
// player's gestures and commands, through one board interface (board.js) whose back end is the
// server, the firmware running in this page, or a real board over Web Serial (serialboard.js).
// Native ES modules, no build step, no libraries (docs/web.md, "The page's modules").
import { $ } from "./dom.js";
import { makeCells, shape } from "./geometry.js";
import { noticeFollows, notice } from "./actions.js";
import { pageBoard, serverBoard } from "./board.js";
import { NARROW, buildBoard, renderCells, renderLeds, renderSettingsLegend } from "./boardview.js";
import { bindControls } from "./controls.js";
import { appendConsole, clearConsole, followFaults, followPlacements, followSettings } from "./news.js";
import { renderGame, renderMoves, renderSettings, renderSim, showGame } from "./panel.js";
import { bindRemote, renderRemote, watchRequest } from "./remote.js";
import { serialBoard, serialSupported } from "./serialboard.js";
import { page } from "./state.js";
import { linkTrouble } from "./status.js";
import { watchBoard } from "./watch.js";

// The static site (`make site`) marks its page: the board is then the firmware in the page, or a
// real one over Web Serial; served by `iago serve`, it is the server's.
const STATIC_SITE = !!document.querySelector('meta[name="iago-board"][content="page"]');
let boardGeneration = 0;           // a replaced back end's late news is ignored

function render() {
  const trouble = linkTrouble();
  const snap = page.snap;
  document.body.classList.toggle("stale", !!trouble);
  $("link").textContent = trouble && page.link.kind === "live" ? "board not responding" : page.link.text;
  $("link").classList.toggle("off", !!trouble);
  if (!snap) {
    if (trouble) [$("turn").textContent, $("status").textContent] = trouble;
    return;
  }
  const layout = shape.layout;
  if (snap.layout && (!layout || snap.layout.kind !== layout.kind || snap.layout.size !== layout.size)) {
    makeCells(snap.layout);
    buildBoard();
    renderLeds();
  }
  if (snap.layout) showGame(snap.layout);
  const state = snap.state;
  document.body.classList.toggle("sim-mode", snap.mode === "sim");
  document.body.classList.toggle("power-off", !snap.powered);
  $("source").textContent = snap.mode === "sim"
    ? `simulated board${page.board && page.board.kind === "page" ? " in this page" : ""} · firmware ${snap.firmware}`
    : `${snap.port}${snap.connected ? " · " + (snap.board || "board") + " · firmware " + (snap.firmware || "?") : " · not connected"}`;
  renderCells(state);
  renderSettingsLegend(state);
  renderGame(state);
  renderMoves(state);
  renderSettings(state);
  renderSim();
  renderRemote(snap);
  $("help").hidden = !snap.gestures;
}

// The handlers a back end reports to; those of a replaced one do nothing.
function boardHandlers() {
  const generation = ++boardGeneration;
  const live = (f) => (...args) => { if (generation === boardGeneration) f(...args); };
  return {
    state: live((next) => {
      const before = page.snap;
      page.snap = next;
      followPlacements(before, next);
      followSettings(before, next);
      noticeFollows(next);
      render();
    }),
    leds: live((hexes) => { page.leds = hexes; renderLeds(); }),
    log: live(appendConsole),
    viewers: live((n) => { $("viewers").textContent = n === 1 ? "1 page" : n + " pages"; }),
    heartbeat: live((beat) => {
      const before = page.heartbeat;
      page.heartbeat = beat;
      followFaults();
      if (!before || before.board !== beat.board) render();
    }),
    link: live((status) => { page.link = status; render(); }),
    notice: live(notice),
  };
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
  if (page.board && page.board.close) page.board.close();
  page.snap = null;
  page.leds = "";
  clearConsole();
  page.board = serialBoard(boardHandlers(), port);
  $("board-source").value = "serial";
}

page.render = render;
// The page's state for a browser's console and the browser tests: iagoPage.snap, iagoPage.board.
window.iagoPage = page;
document.body.classList.toggle("static-site", STATIC_SITE);
$("board-choice").hidden = !STATIC_SITE;
$("game-choice").closest("label").hidden = STATIC_SITE;   // the other games need the server
NARROW.addEventListener("change", () => { buildBoard(); renderLeds(); render(); });
bindControls(connectSerial);
bindRemote();
// A spectator (?watch=CODE): the remote game from its broker, read-only (watch.js).
const watching = watchRequest();
document.body.classList.toggle("watch-mode", !!watching);
page.board = watching ? watchBoard(boardHandlers(), watching.code, watching.broker)
  : STATIC_SITE ? pageBoard(boardHandlers()) : serverBoard(boardHandlers());
