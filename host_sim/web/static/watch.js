// The spectator's back end (docs/web.md, "Watching a remote game"): a remote game followed by
// its code, read-only, straight from the broker over MQTT on WebSockets (mqtt.js, loaded only
// here). Each host of the game publishes its board as the page draws it (`board/<side>`,
// retained) and its view of the game (`view/<side>`); every message is checked against the
// game's key (gamecode.js) and one that fails is ignored and said once. The newest board of
// the two is shown, with who is here, the last move and the result.
import { gameKeys, openSigned } from "./gamecode.js";

const SIDES = ["dark", "light"];

export function watchBoard(on, code, broker) {
  const seen = { board: {}, view: {}, presence: {}, refused: 0, keys: null };
  on.link({ kind: "connecting", text: `watching ${code}: connecting to ${broker}…` });
  const publish = () => {
    const boards = SIDES.map((s) => seen.board[s]).filter(Boolean);
    if (!boards.length) return;
    const newest = boards.reduce((a, b) => (b.at > a.at ? b : a));
    on.state(Object.assign({}, newest.snapshot, { port: `remote game ${seen.keys.code}`, remote: watchedGame(seen, newest) }));
    if (newest.leds) on.leds(newest.leds);
  };
  const start = async () => {
    seen.keys = await gameKeys(code);
    const { default: mqtt } = await import("./vendor/mqtt.esm.js");
    const client = mqtt.connect(broker, { reconnectPeriod: 1000, connectTimeout: 5000 });
    client.on("connect", () => {
      client.subscribe(seen.keys.root + "/#", { qos: 1 });
      on.link({ kind: "live", text: `watching ${seen.keys.code}` });
    });
    client.on("offline", () => on.link({ kind: "offline", text: `the broker ${broker} cannot be reached` }));
    client.on("error", (err) => on.link({ kind: "offline", text: `broker ${broker}: ${err.message}` }));
    client.on("message", async (topic, payload) => {
      const [kind, side] = topic.slice(seen.keys.root.length + 1).split("/");
      const body = await openSigned(seen.keys, topic, payload);
      if (!body || body.side !== side || !SIDES.includes(side) || !(kind in seen)) {
        if (seen.refused++ === 0) on.notice("A message not signed with this game's code was ignored.", true);
        return;
      }
      const held = seen[kind][side];
      if (held && (held.seq ?? held.at) > (body.seq ?? body.at)) return;    // older: ignored
      seen[kind][side] = body;
      publish();
    });
  };
  start().catch((err) => on.link({ kind: "offline", text: `cannot watch ${code}: ${err.message}` }));
  on.viewers(1);
  return {
    kind: "watch",
    async post() { return { ok: false, error: "a spectator only watches" }; },
    async record() { throw new Error("a spectator cannot save the game's record"); },
  };
}

// The snapshot's `remote` for a spectator: who is here, the moves, the last one, the end.
function watchedGame(seen, newest) {
  const views = SIDES.map((s) => seen.view[s]).filter(Boolean);
  const longest = views.reduce((a, b) => (!a || b.moves.length > a.moves.length ? b : a), null);
  const moves = longest ? longest.moves : [];
  const resigned = views.map((v) => v.resigned).find(Boolean) || null;
  const result = views.map((v) => v.result).find(Boolean) || null;
  return {
    phase: "watching", code: seen.keys.code, side: null, board_of: newest.side,
    presence: Object.fromEntries(SIDES.map((s) => [s, seen.presence[s] ? seen.presence[s].online : null])),
    moves, last_move: moves.length ? moves[moves.length - 1] : null, resigned, result,
  };
}
