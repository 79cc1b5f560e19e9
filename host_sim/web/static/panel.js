// The panel beside the board: whose turn, the scores, the moves, the replay, the settings, the
// simulation, and which of the panel's actions can happen now.
import { $, capital, download } from "./dom.js";
import { game } from "./geometry.js";
import { post } from "./actions.js";
import { nameCells } from "./boardview.js";
import { withSettingNews, withTakeBackNews } from "./news.js";
import { FACE_NAMES, SETTING_KEYS, page } from "./state.js";
import { describe, linkTrouble } from "./status.js";

export function renderGame(state) {
  const turn = $("turn");
  const status = $("status");
  [turn.textContent, turn.className] = turnLine(state);
  const trouble = linkTrouble();
  if (trouble) {
    turn.textContent = trouble[0];
    turn.className = "turn";
  }
  status.textContent = trouble ? trouble[1] : withSettingNews(withTakeBackNews(describe(state), state), state);
  nameCells(status.textContent);
  document.title = game().title + " board · " + turn.textContent;
  for (const side of ["dark", "light"]) renderScore(side, state);
  $("score-rule").textContent = scoreRule();
  renderActions(state);
  renderKeptGames();
  renderHand();
}

// [the turn line's text, its class] for `state`.
function turnLine(state) {
  const snap = page.snap;
  const over = state && state.outcome;
  if (!state) return [snap.mode === "sim" ? "Power off" : (snap.connected ? "Waiting for the board…" : "Not connected"), "turn"];
  if (state.phase === "demo") return [`Demo, game ${state.games || 1}`, "turn"];
  if (over) {
    const high = Math.max(over.dark, over.light), low = Math.min(over.dark, over.light);
    return [over.winner === "draw" ? `A draw, ${high} to ${low}` : `${capital(over.winner)} wins ${high} to ${low}`,
            "turn " + (over.winner === "draw" ? "" : over.winner)];
  }
  if (state.phase === "selftest") return ["Self-test", "turn"];
  // The next side moves only once the board agrees with the game: say so, as the status
  // line says what to mend.
  const mend = (state.flips_pending || []).length ? " after the flips"
    : (state.extra || []).length || (state.missing || []).length ? " once the disks are in place" : "";
  return [`${capital(state.turn)} to move${mend}`, "turn " + state.turn];
}

// How the scores above are counted (docs/rules.md, "Score"), in words under them.
function scoreRule() {
  if (game().game !== "iago") return "Most disks wins.";
  if (page.snap.areas && page.snap.areas.scoring === "count") return "Simple rules: every face-up disk counts one.";
  return "Score = your face-up disks in the inner area × on the outer ring; an area with none of them counts as 1.";
}

function renderScore(side, state) {
  const snap = page.snap;
  const box = $("score-" + side);
  const area = snap.areas ? snap.areas[side] : [0, 0];
  const score = state && state.scores ? state.scores[side === "dark" ? 0 : 1] : "–";
  box.querySelector("b").textContent = score;
  if (game().game !== "iago") {
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
  box.classList.toggle("to-move", !!state && !state.outcome && state.turn === side);
}

function renderHand() {
  const snap = page.snap;
  const hand = Object.keys(snap.hand || {}).filter((n) => !(snap.flipping || []).includes(n));
  $("hand").hidden = hand.length === 0;
  if (!hand.length) return;
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

export function renderMoves(state) {
  const snap = page.snap;
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
  scrollToCurrent(list);
  renderReplay(replay);
}

function scrollToCurrent(list) {
  const cur = list.querySelector(".current");
  if (!cur) return;
  // scroll the list only, never the page
  const top = cur.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top - list.clientHeight / 2;
  }
}

function renderReplay(replay) {
  $("replay").hidden = !replay;
  if (!replay) return;
  $("replay-pos").textContent = `${replay.index} / ${replay.moves.length}` +
    (replay.target !== replay.index ? ` → ${replay.target}` : "");
  const h = replay.headers || {};
  $("replay-title").textContent = [h.Dark, h.Light].filter(Boolean).join(" – ") + ` ${replay.result}`;
  $("replay-error").textContent = replay.error || "";
}

export function renderSettings(state) {
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

export function renderSim() {
  const snap = page.snap;
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
    (sim.pty ? ` · USB serial on ${sim.pty}` : "") + storeText(sim);
  if (document.activeElement !== $("bounce")) $("bounce").value = String(sim.bounce_ms);
  if (document.activeElement !== $("crosstalk")) $("crosstalk").value = String(sim.crosstalk);
  if (page.asked.autoflip === sim.autoflip) delete page.asked.autoflip;   // the board has it
  $("autoflip").checked = page.asked.autoflip ?? sim.autoflip;
  $("stuck").textContent = sim.stuck.length ? "Stuck switches: " + sim.stuck.join(", ") : "";
  $("power").textContent = snap.powered ? "Cut power" : "Power on";
  $("power").classList.toggle("danger", snap.powered);
}

// Where the board keeps the game in progress (docs/web.md): its FRAM, or the flash (no FRAM
// fitted, or the FRAM failed and the board moved the game).
function storeText(sim) {
  if (!sim.store) return "";
  if (sim.store === "fram") return " · game kept on the FRAM";
  return " · game kept on the flash" + (sim.fram ? " (the FRAM failed)" : "");
}

function formatClock(s) {
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

// The panel's actions that can happen now, from the board's state (docs/web.md, "When a button
// is off"): a board without power, not connected or not yet reporting answers no command; the
// demo and the self-test have no game to act on.
export function actionsNow(state) {
  const snap = page.snap;
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
  $("load-label").hidden = page.snap.mode !== "sim";
  $("load").disabled = !can.record;
  $("load-label").classList.toggle("disabled", !can.record);
  for (const b of document.querySelectorAll("[data-replay]")) b.disabled = !can.replay && b.dataset.replay !== "stop";
  $("knock").disabled = !can.knock;
  $("send-form").querySelector("button").disabled = !can.command;
}

// A real board over Web Serial: the finished games fetched from it, each to save as a record.
function renderKeptGames() {
  const games = page.snap.kept_games || [];
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

// The game of the simulated board: its title, its sides' names, the settings it has.
export function showGame(lay) {
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
