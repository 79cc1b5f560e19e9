// "Play someone remotely" (docs/web.md): the panel's box for `iago serve --remote`, drawn from
// the snapshot's `remote` (host_sim/remote/session.py `snapshot`), its buttons posting the
// remote/... actions; and "Watch a remote game", which opens this page as a spectator
// (?watch=CODE&broker=URL: watch.js). A spectator's `remote` is watch.js's.
import { $ } from "./dom.js";
import { notice } from "./actions.js";
import { page } from "./state.js";

const ago = (ms) => {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return s < 60 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
};

async function act(action, body, done) {
  const reply = await page.board.post("remote/" + action, body || {});
  if (!reply.ok) notice(reply.error, true);
  else if (done) done(reply);
  return reply;
}

export function renderRemote(snap) {
  const remote = snap && snap.remote;
  $("remote-box").hidden = !remote;
  if (!remote) return;
  const watching = remote.phase === "watching";
  const inGame = remote.phase !== "idle";
  $("remote-start").hidden = inGame;
  $("remote-game").hidden = !inGame;
  $("remote-box").querySelector("summary").textContent = watching ? "Watching a remote game" : "Play someone remotely";
  if (!inGame) {
    $("remote-broker").textContent = brokerLine(remote);
    return;
  }
  $("remote-code-shown").textContent = remote.code;
  $("remote-side-line").hidden = watching;
  $("remote-side-shown").textContent = remote.side || "";
  $("remote-opponent").textContent = watching ? presenceBoth(remote) : presence(remote);
  $("remote-last").textContent = lastLine(remote);
  $("remote-actions").hidden = watching;
  if (!watching) renderPlayer(remote);
  renderNotices(remote.notices || []);
}

function presence(remote) {
  const other = remote.side === "dark" ? "light" : "dark";
  const opp = remote.opponent || {};
  if (opp.online === null || opp.online === undefined) return `Waiting for ${other} to join (give them the code).`;
  return opp.online ? `${capital(other)} is here.` : `${capital(other)} is away (offline${opp.since ? " since " + ago(opp.since) : ""}).`;
}

function presenceBoth(remote) {
  const word = (side) => remote.presence[side] === true ? "here" : remote.presence[side] === false ? "away" : "not seen";
  return `Dark is ${word("dark")}, light is ${word("light")} · showing ${remote.board_of}'s board.`;
}

function lastLine(remote) {
  if (remote.phase === "watching") {
    const end = remote.resigned ? `${capital(remote.resigned)} resigned.` : remote.result
      ? `Game over: ${remote.result.winner} wins, dark ${remote.result.dark}, light ${remote.result.light}.` : "";
    return `${remote.moves.length} moves${remote.last_move ? ", the last " + remote.last_move : ""}. ${end}`;
  }
  const game = remote.game || {};
  const parts = [];
  if (remote.last_move) parts.push(`Last move: ${remote.last_move.side} ${remote.last_move.cell}.`);
  if (remote.lit) parts.push(`Put the disk on ${remote.lit} (lit on the board).`);
  if (game.outcome) {
    const o = game.outcome;
    parts.push(o.how === "resigned" ? `${capital(o.winner === "dark" ? "light" : "dark")} resigned: ${o.winner} wins.`
      : `Game over: ${o.winner} wins, dark ${o.dark}, light ${o.light}.`);
  } else if (game.turn) {
    parts.push(game.turn === remote.side ? "Your move." : `${capital(game.turn)}'s move, at the other board.`);
  }
  return parts.join(" ");
}

function renderPlayer(remote) {
  const game = remote.game || {};
  const asked = game.their_ask;
  $("remote-asked").hidden = !asked;
  if (asked) $("remote-asked-text").textContent = `The other player asks to take back ${game.moves[asked.to]}.`;
  const conflict = remote.phase === "conflict" ? remote.conflict : null;
  $("remote-conflict").hidden = !conflict;
  if (conflict) $("remote-conflict-why").textContent = `Your board and the remote game disagree: ${conflict.why}.`;
  const over = !!game.outcome || remote.phase === "over";
  $("remote-take-back").disabled = over || !(game.moves || []).length || !!game.ask;
  $("remote-take-back").textContent = game.ask ? "Take-back asked…" : "Ask to take back";
  $("remote-resign").disabled = over;
  $("remote-leave").textContent = over ? "Close the game" : "Leave";
  $("remote-broker").textContent = brokerLine(remote) + (remote.topic ? ` · spectators: ${watchLink(remote)}` : "");
}

function brokerLine(remote) {
  const link = remote.link || {};
  return `Broker ${link.broker || "?"}: ${link.connected ? "connected" : link.error || "connecting…"}`;
}

function watchLink(remote) {
  const url = new URL(location.href);
  url.search = "";
  url.hash = "";
  url.searchParams.set("watch", remote.code);
  return url.toString();
}

function renderNotices(notices) {
  const list = $("remote-notices");
  list.replaceChildren();
  for (const n of notices.slice(-6).reverse()) {
    const item = document.createElement("li");
    item.textContent = n.text;
    item.classList.toggle("fault", n.kind === "fault");
    list.appendChild(item);
  }
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export function bindRemote() {
  $("remote-create").addEventListener("click", () =>
    act("create", { side: $("remote-side").value }, (r) => notice(`Game ${r.code}: give the other player this code.`)));
  $("remote-join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    act("join", { code: $("remote-code").value });
  });
  $("remote-take-back").addEventListener("click", () => act("take-back"));
  $("remote-accept").addEventListener("click", () => act("answer", { accept: true }));
  $("remote-refuse").addEventListener("click", () => act("answer", { accept: false }));
  $("remote-resign").addEventListener("click", () => { if (confirm("Resign this game?")) act("resign"); });
  $("remote-leave").addEventListener("click", () => act("leave"));
  $("remote-set-up").addEventListener("click", () => act("choose", { choice: "set_up" }));
  $("remote-keep").addEventListener("click", () => act("choose", { choice: "leave" }));
  $("watch-broker").value = `ws://${location.hostname || "localhost"}:9001/`;
  $("watch-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const url = new URL(location.href);
    url.search = "";
    url.searchParams.set("watch", $("watch-code").value.trim());
    url.searchParams.set("broker", $("watch-broker").value.trim());
    location.assign(url.toString());
  });
}

// The spectator's code and broker from the page's address (?watch=CODE&broker=URL), or null.
export function watchRequest() {
  const params = new URLSearchParams(location.search);
  const code = params.get("watch");
  if (!code) return null;
  return { code, broker: params.get("broker") || `ws://${location.hostname || "localhost"}:9001/` };
}
