// The player's actions sent to the board, and the notice line that answers them.
import { $ } from "./dom.js";
import { page } from "./state.js";

const notices = { timer: null, isError: false, ends: null };

// An action of docs/web.md's HTTP API, through the back end: its answer, or null when refused
// (the refusal shown in the notice line).
export async function post(action, body) {
  const data = page.board ? await page.board.post(action, body) : { ok: false, error: "no board yet" };
  if (!data.ok) notice(data.error || "refused", true);
  else if (notices.isError) notice("");      // an error belongs to the past once an action succeeds
  return data.ok ? data : null;
}

export function command(cmd, fields) {
  return post("command", Object.assign({ cmd }, fields || {}));
}

// A notice shows for 6 s, or until endsWhen(snapshot) says what it told is over.
export function notice(text, error, endsWhen) {
  const node = $("notice");
  node.textContent = text;
  notices.isError = !!error;
  notices.ends = endsWhen || null;
  clearTimeout(notices.timer);
  notices.timer = setTimeout(() => { node.textContent = ""; notices.isError = false; notices.ends = null; }, 6000);
}

// A new snapshot: a notice whose news is over goes.
export function noticeFollows(snap) {
  if (notices.ends && notices.ends(snap)) notice("");
}

function canTouch() {
  if (!page.snap) return false;
  if (!page.snap.gestures) {
    notice("This is a real board: move its disks by hand (commands still work).");
    return false;
  }
  return true;
}

export function activate(name) {
  if (!canTouch()) return;
  if (name in page.snap.disks) post("lift", { cell: name });
  else post("place", { cell: name });
}

export function flipGesture(name) {
  if (!canTouch()) return;
  if (!(name in page.snap.disks)) { notice(`There is no disk on ${name} to turn over.`, true); return; }
  post("flip", { cell: name });
}

// A new game, then on the simulated board the hands take the old game's disks off. The board's
// answer comes first: a board that refuses (no power, the demo) keeps its game and its disks.
export async function newGame(fields) {
  if (!(await command("new_game", fields))) return;
  const snap = page.snap;
  if (snap && snap.mode === "sim" && Object.keys(snap.disks).length) post("clear");
}

// The placements a new game or a loaded record would throw away: those of a game in progress
// (not over, not a replay, which is the record's game, not the demo's).
export function movesAtStake() {
  const snap = page.snap;
  const state = snap && snap.state;
  return state && !state.outcome && !snap.replay && state.phase !== "demo" ? state.moves.length : 0;
}
