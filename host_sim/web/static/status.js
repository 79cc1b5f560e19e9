// The status line's words: what the board asks of the player, why a placement is refused, and
// what the page says instead when what it shows is no longer the present.
import { capital } from "./dom.js";
import { game, shape } from "./geometry.js";
import { serverTrouble } from "./link.js";
import { placements } from "./news.js";
import { page } from "./state.js";

// The hex the computer chose, or the suggestion, while it waits for its disk.
export function chosenCell(state) {
  const choice = page.engineChoice;
  if (!state || !choice || choice.side !== state.turn || choice.cell in page.snap.disks) return null;
  return choice.cell;
}

// Why the rules refuse a disk on `name` (docs/rules.md, "Which placements are legal").
function whyIllegal(name, state) {
  if (state.outcome) return `The game is over: no placement on ${name}.`;
  const seen = placements.legalSeen;
  const legal = seen.position === state.position ? seen.legal : [];
  if (legal.includes(name)) return "";
  const s = state.settings || {};
  const layout = game();
  const cell = shape.byName[name];
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
export function linkTrouble() {
  const link = page.link;
  if (page.board && page.board.kind === "page" && link.kind === "offline") return ["Stopped", "The board in this page stopped: " + link.text];
  const trouble = serverTrouble(link, "board");
  if (trouble) return trouble;
  if (link.kind === "connecting") return ["Connecting…", "Connecting to the server…"];
  const health = page.heartbeat && page.heartbeat.board;
  if (health === "stuck") return ["Not responding", "The simulated board is not responding: its thread is stuck."];
  if (health === "stopped") return ["Stopped", "The simulator stopped after repeated faults: restart iago serve."];
  return null;
}

// The self-test's progress (docs/board.md, "Self-test"); the board plays nothing meanwhile.
function describeSelftest(state) {
  const faults = (state.stuck || []).length + (state.swapped || []).length + (state.silent || []).length;
  const found = faults ? `${faults} fault${faults === 1 ? "" : "s"} found so far` : "no fault found so far";
  if (state.selftest === "checklist" && state.asked) return `Self-test: put a disk on ${state.asked} (${state.passed} passed, ${found}).`;
  if (state.selftest === "done") return `Self-test done: ${state.passed} passed, ${faults ? found.replace(" so far", "") : "no fault"}. Power off and on to play.`;
  return "Self-test: every LED lights in turn.";
}

// What the board shows while no game is played: not connected, no power, starting, the demo.
function describeNoGame(state) {
  const snap = page.snap;
  if (snap.mode === "board" && !snap.connected) return "Not connected: " + (snap.error || "opening the port…");
  if (!snap.powered) return "Power off: the LEDs are dark; the disks stay where they are.";
  if (!state) return "Waiting for the board…";
  if (state.phase === "startup") return "Light check…";
  if (state.phase === "demo") return "Demo: the computer plays both sides. Place a disk to stop.";
  if (state.phase === "selftest") return describeSelftest(state);
  return null;
}

// "the disk on C4" or "the disks on C4, E4".
function disksOn(names) {
  return `the disk${names.length === 1 ? "" : "s"} on ${names.join(", ")}`;
}

// Every disk of a game lifted: the board asks for a new game (docs/board.md, "Gestures"), its
// centre blinking green; a disk held there 2 s turns it steady (`confirm`): lift it now.
function describeAsking(state) {
  if (!state.asking) return null;
  const centre = game().demo || "E5";
  const goOn = "put the disks back to go on";
  if (state.confirm) return `Lift the disk on ${centre} now: a new game begins. Or ${goOn}.`;
  if ((state.extra || []).includes(centre)) {
    return `Keep the disk on ${centre}: at 2 s it turns steady green, then lift it for a new game; or ${goOn}.`;
  }
  return `New game? Hold a disk on ${centre} for 2 s, then lift it; ${goOn}.`;
}

// What the disks on the board must do before the game goes on, or null when they agree.
function describeMending(state) {
  const parts = [];
  const extra = state.extra || [], missing = state.missing || [], flips = state.flips_pending || [];
  if (extra.length) parts.push("remove " + disksOn(extra));
  if (missing.length) parts.push("put back " + disksOn(missing));
  if (flips.length) parts.push("turn over " + flips.join(", "));
  if (!parts.length) return null;
  const why = [...placements.misplaced].filter((n) => extra.includes(n)).map((n) => whyIllegal(n, state));
  return [capital(parts.join("; ")) + "."].concat(why).filter(Boolean).join(" ");
}

// Which of the score's screens the LEDs show now (the snapshot's `score_screen`, docs/web.md).
function scoreCaption(screen) {
  if (!screen) return "";
  if (screen.what === "winner") return " The LEDs show who won: the winner's disks green.";
  const what = { inner: "inner count", outer: "outer count", score: "score", count: "count of disks" }[screen.what];
  const digit = screen.digit === null ? "" : screen.digits > 1
    ? `: its ${["1st", "2nd", "3rd"][screen.place - 1]} digit, ${screen.digit}` : "";
  return ` The LEDs show ${screen.side}'s ${what}, ${screen.number}${digit}.`;
}

export function describe(state) {
  const idle = describeNoGame(state);
  if (idle !== null) return idle;
  const asking = describeAsking(state);
  if (asking !== null) return asking;
  const mending = describeMending(state);
  if (mending !== null) return mending;
  if (state.outcome) {
    const o = state.outcome;
    const why = o.tie_break ? ` (tied at ${o.dark}; ${o.tie_break} decides)` : "";
    return `Game over: dark ${o.dark}, light ${o.light}${why}.` + scoreCaption(page.snap.score_screen) +
      " Clear the board for a new game.";
  }
  if (state.tentative) return `${state.tentative} placed…`;
  const choice = page.engineChoice;
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
