// The panel's controls bound to what they do: the game's buttons, records, the settings, the
// simulation's speed and faults, and the host-link console's command line.
import { $, download, keepsNoGame } from "./dom.js";
import { command, movesAtStake, newGame, notice, post } from "./actions.js";
import { actionsNow } from "./panel.js";
import { page } from "./state.js";

// `connectSerial()` puts a real board over Web Serial in the simulated one's place (app.js).
export function bindControls(connectSerial) {
  bindGame();
  bindRecords(connectSerial);
  bindSettings();
  bindSimulation();
  $("send-form").addEventListener("submit", (e) => {
    e.preventDefault();
    let msg;
    try { msg = JSON.parse($("send-text").value); } catch (err) { notice("Not JSON: " + err.message, true); return; }
    if (!msg || typeof msg !== "object" || Array.isArray(msg)) { notice('A command is an object such as {"cmd": "ping"}', true); return; }
    post("command", msg);
  });
}

function bindGame() {
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
    if (!keepsNoGame("Start a new game", movesAtStake())) return;
    newGame();
  });
  $("take-back").addEventListener("click", () => command("take_back"));
  $("claim").addEventListener("click", () => command("claim"));
  $("suggest").addEventListener("click", () => command("suggest"));
  $("demo").addEventListener("click", () => command("demo"));
  for (const b of document.querySelectorAll("[data-replay]")) {
    b.addEventListener("click", () => {
      const r = page.snap && page.snap.replay;
      if (!r) return;
      const kind = b.dataset.replay;
      if (kind === "stop") post("replay/stop");
      else if (kind === "start") post("replay/step", { to: 0 });
      else if (kind === "end") post("replay/step", { to: r.moves.length });
      else post("replay/step", { delta: kind === "forward" ? 1 : -1 });
    });
  }
}

async function saveRecord() {
  let text;
  try {
    text = await page.board.record();
  } catch (err) {
    notice("No record to save: " + err.message, true);
    return;
  }
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  download(`iago-${stamp}.iago`, text);
}

// A record loaded to replay: read and checked first, so a file the board cannot replay throws
// no game away, and is refused without a question.
async function loadRecord(e) {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  if (file.size > 200000) { notice("That file is too large for a game record.", true); return; }
  const text = await file.text();
  const checked = await page.board.post("replay/load", { record: text, check: true });
  if (!checked.ok) { notice(`${file.name} cannot be replayed: ${checked.error}`, true); return; }
  if (!keepsNoGame(`Load ${file.name}`, movesAtStake())) return;
  if (await post("replay/load", { record: text })) notice(`Loaded ${file.name}: use Next ▶ to replay it on the board.`);
}

function bindRecords(connectSerial) {
  $("save").addEventListener("click", (e) => {
    if (!page.snap || !actionsNow(page.snap.state).record) e.preventDefault();
    else if (page.board.kind !== "server") { e.preventDefault(); saveRecord(); }
  });
  // The static site: the board simulated in the page, or a real one over Web Serial.
  $("board-source").addEventListener("change", (e) => {
    if (e.target.value === "serial") { e.target.value = page.board.kind === "serial" ? "serial" : "page"; connectSerial(); }
    else if (page.board.kind === "serial") location.reload();
  });
  $("connect").addEventListener("click", connectSerial);
  $("load").addEventListener("change", loadRecord);
}

// Only the changed settings are sent: two quick changes must not undo each other. A change of
// the rules after the first placement is a new game, if the player says so.
async function settingsChange(changes) {
  const state = page.snap && page.snap.state;
  if (!state) return;
  const next = Object.assign({}, state.settings, changes);
  const partial = Object.assign({}, changes);
  if (next.rules.startsWith("loose")) next.penalty = partial.penalty = false;
  const rulesChange = next.rules !== state.settings.rules || next.penalty !== state.settings.penalty;
  if (rulesChange && state.moves.length) {
    if (!confirm(`Rules change only before the first placement. Start a new game with ${next.rules}${next.penalty ? " + penalty" : ""}?`)) { page.render(); return; }
    newGame({ settings: next });
  } else {
    command("settings", { settings: partial });
  }
}

function bindSettings() {
  $("set-rules").addEventListener("change", (e) => settingsChange({ rules: e.target.value }));
  $("set-penalty").addEventListener("change", (e) => settingsChange({ penalty: e.target.checked }));
  $("set-hints").addEventListener("change", (e) => settingsChange({ hints: e.target.checked }));
  $("set-brightness").addEventListener("change", (e) => settingsChange({ brightness: Number(e.target.value) }));
  $("set-palette").addEventListener("change", (e) => settingsChange({ palette: Number(e.target.value) }));
  $("set-computer").addEventListener("change", (e) => settingsChange({ computer: e.target.value }));
  $("set-level").addEventListener("change", (e) => settingsChange({ level: Number(e.target.value) }));
}

function bindSimulation() {
  $("autoflip").addEventListener("change", async (e) => {
    // Snapshots carry the old value until the board has it, and its answer may come first:
    // the tick stays until a snapshot shows it (panel.js), or the board refuses it.
    page.asked.autoflip = e.target.checked;
    if (!await post("autoflip", { on: e.target.checked })) {
      delete page.asked.autoflip;
      page.render();
    }
  });
  $("clear").addEventListener("click", () => post("clear"));
  for (const b of document.querySelectorAll("#speeds [data-speed]")) {
    b.addEventListener("click", () => post("speed", { speed: Number(b.dataset.speed) }));
  }
  $("pause").addEventListener("click", () => post("pause", { paused: !(page.snap && page.snap.sim && page.snap.sim.paused) }));
  $("bounce").addEventListener("change", (e) => post("fault/bounce", { ms: Number(e.target.value) }));
  $("crosstalk").addEventListener("change", (e) => post("fault/crosstalk", { chance: Number(e.target.value) }));
  const stuckCell = () => $("stuck-cell").value.trim().toUpperCase() || "E5";
  $("stick").addEventListener("click", () => post("fault/stick", { cell: stuckCell(), stuck: true }));
  $("mend").addEventListener("click", () => post("fault/stick", { cell: stuckCell(), stuck: false }));
  $("knock").addEventListener("click", async () => {
    const r = await post("fault/lift");
    if (r) {
      const powered = page.snap.powered;
      notice(`A disk was knocked off ${r.cell}: click the hex to put it back.`, false,
             (now) => now.powered !== powered || !(r.cell in now.hand));
    }
  });
  $("power").addEventListener("click", () => post("power", { on: !(page.snap && page.snap.powered) }));
}
