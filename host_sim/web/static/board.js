// The page's one board interface, with three back ends, so the drawing and the panels never
// fork (docs/web.md, "Three ways to show a board"):
//   serverBoard(): `iago serve --sim` or `--port`, over Server-Sent Events and JSON POSTs;
//   pageBoard():   the firmware itself in this page (a Web Worker, boardworker.js);
//   serialBoard(): a real board on USB, straight from the browser over Web Serial (serialboard.js).
// Each is opened with handlers {state(snapshot), leds(hexes), log(entries), viewers(n),
// heartbeat(beat), link(status), notice(text, error)} and answers
//   post(action, body) -> Promise of {ok: true, ...} or {ok: false, error}
//   record() -> Promise of the game record's text (or throws with the reason)
// The snapshot, the LED string and the console entries are those of docs/web.md's HTTP API.
import { openLink, postJson } from "./link.js";

// --- the server -------------------------------------------------------------------------------

export function serverBoard(on) {
  openLink({
    events: "/api/events", probe: "/api/state",
    on: {
      state: (e) => on.state(JSON.parse(e.data)),
      leds: (e) => on.leds(JSON.parse(e.data)),
      log: (e) => on.log(JSON.parse(e.data)),
      viewers: (e) => on.viewers(Number(e.data)),
      heartbeat: (e) => on.heartbeat(JSON.parse(e.data)),
    },
    change: on.link,
  });
  return {
    kind: "server",
    post(action, body) { return postJson("/api/" + action, body); },
    async record() {
      const res = await fetch("/api/record");
      const text = await res.text();
      if (!res.ok) throw new Error(JSON.parse(text).error);
      return text;
    },
  };
}

// --- a worker of the page's own: the firmware, or a real board's views -----------------------

export function startWorker(first, onMessage) {
  const worker = new Worker(new URL("./boardworker.js", import.meta.url), { type: "module" });
  const waiting = new Map();
  let next = 0;
  worker.onmessage = (e) => {
    const msg = e.data;
    if (msg.type === "reply") {
      const done = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (done) done(msg.result);
    } else {
      onMessage(msg);
    }
  };
  worker.onerror = (e) => onMessage({ type: "failed", error: e.message || "the board's worker failed to load" });
  worker.postMessage(first);
  return {
    close() { worker.terminate(); },
    ask(msg) {
      return new Promise((resolve) => {
        next += 1;
        waiting.set(next, resolve);
        worker.postMessage(Object.assign({ id: next }, msg));
      });
    },
  };
}

// --- the firmware in the page -------------------------------------------------------------------

const FLASH_KEY = "iago-page-flash";        // {format: 1, files: {path: base64}}
const DISKS_KEY = "iago-page-disks";        // {"E4": "D", ...}: the disks lie on as after a power cut
const FLASH_NAME = /^[A-Za-z0-9_.-]{1,64}(\/[A-Za-z0-9_.-]{1,64})?$/;
const FLASH_MAX = 2 * 1024 * 1024;

// What the browser's storage kept, checked: anything unreadable is set aside under KEY.bad (never
// thrown away) and the board starts without it, saying so.
function keptInStorage(on) {
  const setAside = (key, text, why) => {
    try { localStorage.setItem(key + ".bad", text); } catch { /* no room: it stays where it is */ }
    localStorage.removeItem(key);
    on.notice(`The board's ${why} kept in this browser could not be read, so it was set aside (as ${key}.bad) and the board starts without it.`, true);
  };
  let flash = {}, disks = "{}";
  const flashText = localStorage.getItem(FLASH_KEY);
  if (flashText !== null) {
    try {
      const kept = JSON.parse(flashText);
      if (!kept || kept.format !== 1 || typeof kept.files !== "object" || !kept.files) throw new Error("not a flash");
      for (const [name, data] of Object.entries(kept.files)) {
        if (!FLASH_NAME.test(name) || name.split("/").includes("..") || typeof data !== "string") throw new Error("bad file " + name);
        atob(data);                                 // throws on anything but base64
      }
      if (flashText.length > FLASH_MAX) throw new Error("too large");
      flash = kept.files;
    } catch {
      setAside(FLASH_KEY, flashText, "flash (its saved game)");
    }
  }
  const disksText = localStorage.getItem(DISKS_KEY);
  if (disksText !== null) {
    try {
      const kept = JSON.parse(disksText);
      if (!kept || typeof kept !== "object" || Array.isArray(kept) ||
          !Object.values(kept).every((face) => typeof face === "string")) throw new Error("not disks");
      disks = disksText;
    } catch {
      setAside(DISKS_KEY, disksText, "disks");
    }
  }
  return { flash, disks };
}

export function pageBoard(on) {
  let ready = false;
  const { flash, disks } = keptInStorage(on);
  on.link({ kind: "connecting", text: "starting the firmware…" });
  const worker = startWorker({ type: "boot", flash, disks }, (msg) => {
    if (msg.type === "news") {
      const news = JSON.parse(msg.news);
      if (news.log) on.log(news.log);
      if (news.state) on.state(news.state);
      if (news.leds) on.leds(news.leds);
    } else if (msg.type === "ready") {
      ready = true;
      on.viewers(1);
      on.link({ kind: "live", text: "in this page" });
    } else if (msg.type === "pulse") {
      on.heartbeat(Object.assign({ server_ms: Date.now() }, JSON.parse(msg.pulse)));
    } else if (msg.type === "flash") {
      try {
        localStorage.setItem(FLASH_KEY, JSON.stringify({ format: 1, files: msg.files }));
        localStorage.setItem(DISKS_KEY, msg.disks);
      } catch {
        on.notice("The browser's storage is full: the game is not kept across a reload.", true);
      }
    } else if (msg.type === "failed") {
      on.link({ kind: "offline", text: msg.error });
    }
  });
  return {
    kind: "page",
    async post(action, body) {
      if (!ready) return { ok: false, error: "the board is still starting" };
      return JSON.parse(await worker.ask({ type: "act", action, body: JSON.stringify(body || {}) }));
    },
    async record() {
      const reply = JSON.parse(await worker.ask({ type: "record" }));
      if (!reply.ok) throw new Error(reply.error);
      return reply.record;
    },
    close() { worker.close(); },
  };
}
