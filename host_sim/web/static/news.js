// What the page follows from one snapshot to the next and from the board's events: disks put
// down where the rules refuse them, settings stepped, the computer's choice, the simulator's
// faults; and the host-link console.
import { $, capital } from "./dom.js";
import { positionCells } from "./geometry.js";
import { notice } from "./actions.js";
import { SETTING_KEYS, page } from "./state.js";

const SETTING_NEWS_MS = 8000;

export const placements = {
  legalSeen: { position: "", legal: [] },   // the legal placements of the game's position
  misplaced: new Set(),                     // disks just put down where the rules refuse them
};
let settingNews = null;            // a setting just changed: {text, until, moves}
let takeBackNews = null;           // a placement just taken back: {text, moves}
let faultSeen = null;              // the id of the simulator's latest fault this page knows of
let consoleSeq = 0;                // the last console line shown: a reconnected stream resends some

// The board reports an illegal placement only as a disk to remove, and its legal list is empty
// until the board agrees again: so the page remembers the position's legal placements and which
// extra disks were put down on an empty hex of the game (not a disk left from an earlier game).
export function followPlacements(before, now) {
  const state = now.state;
  const old = before && before.state;
  if (!state || !old || !state.position || !old.position) { placements.misplaced = new Set(); return; }
  if (state.legal && state.legal.length) placements.legalSeen = { position: state.position, legal: state.legal };
  const extra = new Set(state.extra || []);
  const had = new Set(old.extra || []);
  const game = positionCells(old.position);
  const misplaced = placements.misplaced;
  for (const name of extra) if (!had.has(name) && !(name in game)) misplaced.add(name);
  for (const name of misplaced) if (!extra.has(name)) misplaced.delete(name);
}

// A setting stepped on the board (or changed from a page) is said in the status line: which
// setting, its value now and its hex. A board that names the setting it stepped (a `settings`
// event with `name`, `value` and `cell`, docs/board.md) is heard in followEvents; for any board
// the page also compares the state's settings, old and new.
export function followSettings(before, now) {
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
  const state = page.snap && page.snap.state;
  settingNews = { text, until: performance.now() + SETTING_NEWS_MS, moves: state && state.moves ? state.moves.length : 0 };
  setTimeout(() => page.render(), SETTING_NEWS_MS + 50);
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
export function settingWords(name, settings) {
  const value = settings[name];
  if (typeof value === "boolean") return value ? "on" : "off";
  const control = $("set-" + name);
  const option = control && [...control.options].find((o) => o.value === String(value));
  return option ? option.textContent : String(value);
}

// The status line, led by a setting's change while it is news (until a placement, or 8 s).
export function withSettingNews(text, state) {
  const news = settingNews;
  if (!news || !state || performance.now() > news.until || (state.moves || []).length !== news.moves) return text;
  return news.text + " " + text;
}

// A placement taken back, by a gesture or a button (the board's `take_back` event), is said in
// the status line until the next placement: which, how, and what to mend.
const TAKE_BACK_WAYS = {
  held: "its disk kept off the board 1.5 s", lifted: "its disk lifted before its flips were done",
  command: "take back",
};

function sayTakenBack(msg) {
  const moves = (page.snap && page.snap.state && page.snap.state.moves) || [];
  // The moves once it is taken back: the snapshot may still hold it, last.
  const after = moves[moves.length - 1] === msg.cell ? moves.length - 1 : moves.length;
  takeBackNews = { text: `${msg.cell} taken back (${TAKE_BACK_WAYS[msg.why] || msg.why}).`, moves: after };
}

// The status line, led by the news of a take-back until the next placement.
export function withTakeBackNews(text, state) {
  const news = takeBackNews;
  if (!news || !state || (state.moves || []).length !== news.moves || state.outcome) return text;
  return news.text + " " + text;
}

// A fault of the simulator's thread is told once, to the pages open when it happened.
export function followFaults() {
  const id = page.heartbeat.fault || 0;
  const snap = page.snap;
  if (faultSeen !== null && id > faultSeen) {
    const fault = snap && snap.fault && snap.fault.id === id ? snap.fault : null;
    notice("The simulator failed" + (fault ? ` (${fault.error}, ${fault.where})` : "") +
      (fault && !fault.restarted ? " and stopped." : " and restarted into its saved game, as a board's watchdog would."), true);
  }
  faultSeen = id;
}

const CHOICE_ENDS = ["tentative", "move", "withdrawn", "take_back", "new_game", "startup", "restored", "demo",
                     "settings"];

// The board's events that the status line follows: the computer's choice and suggestions.
// The console's history, sent to a page as it opens, sets the status line but raises no
// notice: a demo stopped before the page was opened is no news.
function followEvents(entries, news) {
  let changed = false;
  for (const entry of entries) {
    if (entry.dir !== "in" || !entry.text.includes('"event"')) continue;
    let msg;
    try { msg = JSON.parse(entry.text); } catch { continue; }
    if (msg.event === "computer_move" || msg.event === "suggestion") {
      page.engineChoice = { event: msg.event, cell: msg.cell, side: msg.side };
      changed = true;
    }
    if (msg.event === "settings" && typeof msg.name === "string" && news) {
      sayStepped(msg);
      changed = true;
    }
    if (msg.event === "take_back" && typeof msg.cell === "string" && news) {
      sayTakenBack(msg);
      changed = true;
    }
    if (msg.event === "new_game") takeBackNews = null;
    if (CHOICE_ENDS.includes(msg.event)) {
      if (page.engineChoice) changed = true;
      page.engineChoice = null;
      if (msg.event === "demo" && !msg.running && msg.stopped_by && news) notice(`Demo stopped by the disk on ${msg.stopped_by}.`);
    }
  }
  if (changed) page.render();
}

export function appendConsole(entries) {
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

// A new back end's console starts empty.
export function clearConsole() {
  consoleSeq = 0;
  $("console").replaceChildren();
}
