// The page's one board interface, with three back ends, so the drawing and the panels never
// fork (docs/web.md, "Three ways to show a board"):
//   serverBoard(): `iago serve --sim` or `--port`, over Server-Sent Events and JSON POSTs;
//   pageBoard():   the firmware itself in this page (a Web Worker, boardworker.js);
//   serialBoard(): a real board on USB, straight from the browser over Web Serial.
// Each is opened with handlers {state(snapshot), leds(hexes), log(entries), viewers(n),
// heartbeat(beat), link(status), notice(text, error)} and answers
//   post(action, body) -> Promise of {ok: true, ...} or {ok: false, error}
//   record() -> Promise of the game record's text (or throws with the reason)
// The snapshot, the LED string and the console entries are those of docs/web.md's HTTP API.
"use strict";

// --- the server -------------------------------------------------------------------------------

function serverBoard(on) {
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
    async post(action, body) {
      try {
        const res = await fetch("/api/" + action, {
          method: "POST", headers: POST_HEADERS, body: JSON.stringify(body || {}),
        });
        let data;
        try { data = await res.json(); } catch (err) { data = { ok: false, error: res.status + " " + res.statusText }; }
        if (!res.ok) data.ok = false;
        return data;
      } catch (err) {
        return { ok: false, error: "the server cannot be reached (" + err.message + ")" };
      }
    },
    async record() {
      const res = await fetch("/api/record");
      const text = await res.text();
      if (!res.ok) throw new Error(JSON.parse(text).error);
      return text;
    },
  };
}

// --- a worker of the page's own: the firmware, or a real board's views -----------------------

function startWorker(first, onMessage) {
  const worker = new Worker("static/boardworker.js", { type: "module" });
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
    try { localStorage.setItem(key + ".bad", text); } catch (err) { /* no room: it stays where it is */ }
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
    } catch (err) {
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
    } catch (err) {
      setAside(DISKS_KEY, disksText, "disks");
    }
  }
  return { flash, disks };
}

function pageBoard(on) {
  let ready = false;
  let lastNews = performance.now();
  const { flash, disks } = keptInStorage(on);
  on.link({ kind: "connecting", text: "starting the firmware…" });
  const worker = startWorker({ type: "boot", flash, disks }, (msg) => {
    if (msg.type === "news") {
      lastNews = performance.now();
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
      } catch (err) {
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

// --- a real board over Web Serial ---------------------------------------------------------------

const SERIAL_STATE_MS = 2000;      // the state is asked for at least this often, as the server does
const SERIAL_FRAME_MS = 40;        // the LED colours are recomposed this often (blinking)
const SERIAL_REPLY_MS = 3000;
const SERIAL_LINE_MAX = 4096;      // a longer line is no line of the host link: dropped, said once
const COMMAND_ROOM = 500;          // the board drops lines of 512 bytes and more

function serialSupported() { return "serial" in navigator; }

function serialBoard(on, port) {
  const views = startWorker({ type: "host" }, (msg) => {
    if (msg.type === "ready") { hostReady = true; refresh(); }
    if (msg.type === "failed") on.notice("The page cannot work out the board's LEDs: " + msg.error, true);
  });
  let hostReady = false;
  let writer = null;
  let connected = false;
  let error = null;
  let info = {};
  let state = null, view = null;
  let shown = null;                // the state the page shows: always the one `view` was worked out from
  let startupSince = null;
  let seq = 0;
  const waiting = new Map();
  const kept = [];                 // finished games fetched from the board: {id, record}
  let polling = false, pollAgain = false;

  const snapshot = () => ({
    mode: "board", connected, powered: connected, port: "USB (Web Serial)", error,
    board: info.board || null, firmware: info.firmware || null,
    state: connected ? shown : null,
    areas: view && !view.error ? view.areas : null, movers: view && !view.error ? view.movers : null,
    layout: view && !view.error ? view.layout : undefined,
    disks: connected && view && !view.error ? view.disks : {}, hand: {}, flipping: [], replay: null,
    games_dir: null, saved: kept.map((g) => g.id), kept_games: kept, gestures: false, sim: null, fault: null,
  });
  const publish = () => on.state(snapshot());
  let logSeq = 0;
  const log = (dir, text, from) => on.log([{ seq: ++logSeq, dir, text, from: from || "board",
                                             at: new Date().toTimeString().slice(0, 8) }]);

  async function send(msg, source) {
    if (!connected) return { ok: false, error: "the board is not connected" + (error ? " (" + error + ")" : "") };
    seq += 1;
    const id = "web-" + seq;
    const line = JSON.stringify(Object.assign({}, msg, { id }));
    if (new TextEncoder().encode(line).length >= COMMAND_ROOM) return { ok: false, error: "the command is longer than the board's line limit (512 bytes)" };
    const reply = new Promise((resolve) => {
      const timer = setTimeout(() => { waiting.delete(id); resolve(null); }, SERIAL_REPLY_MS);
      waiting.set(id, { source, done: (r) => { clearTimeout(timer); resolve(r); } });
    });
    try {
      await writer.write(new TextEncoder().encode(line + "\n"));
    } catch (err) {
      waiting.delete(id);
      lost(err);
      return { ok: false, error: "the board went away: " + err.message };
    }
    if (source !== "poll") log("out", line, source);
    const r = await reply;
    return r || { ok: false, error: `the board did not answer ${msg.cmd} within ${SERIAL_REPLY_MS / 1000} s` };
  }

  async function poll() {
    if (polling) { pollAgain = true; return; }
    polling = true;
    try {
      do {
        pollAgain = false;
        const reply = await send({ cmd: "state" }, "poll");
        if (reply.ok && reply.state && typeof reply.state === "object" && !Array.isArray(reply.state)) {
          state = reply.state;
          if (state.phase === "startup") { if (startupSince === null) startupSince = performance.now(); } else startupSince = null;
          await refresh();
        }
      } while (pollAgain && connected);
    } finally {
      polling = false;
    }
  }

  async function refresh() {
    if (!hostReady || !state) { publish(); return; }     // no game shown without its disks
    const asked = state;
    view = JSON.parse(await views.ask({ type: "view", state: JSON.stringify(asked) }));
    shown = asked;
    if (view.error) log("note", "cannot read the board's state: " + view.error, "page");
    publish();
  }

  async function keepGame(id) {
    const reply = await send({ cmd: "game", game: id }, "page");
    if (reply.ok && typeof reply.record === "string") {
      kept.push({ id, record: reply.record });
      log("note", `finished game ${id} fetched from the board: Save it from the panel`, "page");
      publish();
    }
  }

  function onLine(text) {
    const line = text.trim();
    if (!line) return;
    let msg;
    try { msg = JSON.parse(line); } catch (err) { log("in", line); return; }   // the REPL, a traceback: shown
    if (!msg || typeof msg !== "object" || Array.isArray(msg)) { log("in", line); return; }
    const waiter = typeof msg.id === "string" ? waiting.get(msg.id) : undefined;
    if ("reply" in msg && waiter) {
      waiting.delete(msg.id);
      if (waiter.source !== "poll") log("in", line);
      waiter.done(msg);
      return;
    }
    log("in", line);
    if (msg.event === "saved_game" && Number.isInteger(msg.game)) keepGame(msg.game);
    if ("event" in msg) poll();
  }

  function lost(err) {
    if (!connected) return;
    connected = false;
    error = String(err && err.message || err);
    log("note", "lost the board: " + error, "page");
    on.link({ kind: "offline", text: "disconnected" });
    publish();
  }

  async function readLoop() {
    const decoder = new TextDecoder();
    let buffer = "", dropping = false;
    const reader = port.readable.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 1);
          if (dropping) { dropping = false; continue; }
          onLine(line);
        }
        if (buffer.length > SERIAL_LINE_MAX) {
          if (!dropping) log("note", `a line of over ${SERIAL_LINE_MAX} characters from the board was dropped`, "page");
          buffer = "";
          dropping = true;
        }
      }
      lost("the port closed");
    } catch (err) {
      lost(err);
    } finally {
      reader.releaseLock();
    }
  }

  async function connect() {
    on.link({ kind: "connecting", text: "opening the port…" });
    try {
      await port.open({ baudRate: 115200 });
    } catch (err) {
      error = err.message;
      on.link({ kind: "offline", text: "not connected" });
      on.notice("The port could not be opened: " + err.message, true);
      publish();
      return;
    }
    writer = port.writable.getWriter();
    connected = true;
    error = null;
    on.viewers(1);
    on.link({ kind: "live", text: "live" });
    log("note", "connected to the board over Web Serial", "page");
    readLoop();
    const version = await send({ cmd: "version" }, "page");
    if (version.ok) info = { firmware: version.firmware, board: version.board, protocol: version.protocol, game: version.game };
    await poll();
  }

  setInterval(() => { if (connected) poll(); }, SERIAL_STATE_MS);
  setInterval(async () => {
    if (!hostReady || !connected || !state) return;
    const startup = startupSince === null ? 0 : startupSince;
    const hexes = await views.ask({ type: "leds", state: JSON.stringify(state), now: Math.round(performance.now()), startup: Math.round(startup) });
    if (hexes) on.leds(hexes);
  }, SERIAL_FRAME_MS);
  setInterval(() => on.heartbeat({ server_ms: Date.now(), board: connected ? "connected" : "disconnected",
                                   clock_ms: null, stalled_ms: null, fault: 0 }), 1000);
  publish();
  connect();

  return {
    kind: "serial",
    async post(action, body) {
      if (action !== "command") {
        return { ok: false, error: `this is a real board: move its disks by hand (only the simulated board takes "${action}" from the page)` };
      }
      if (!hostReady) return { ok: false, error: "the page is still starting" };
      const checked = JSON.parse(await views.ask({ type: "check", body: JSON.stringify(body || {}) }));
      if (!checked.ok) return checked;
      const reply = await send(checked.msg, "page");
      if (reply.reply === undefined) return reply;               // not sent, or no answer
      if (!reply.ok) return { ok: false, error: `the board refused ${checked.msg.cmd}: ${reply.error}` };
      poll();
      return reply;
    },
    async record() {
      if (!state) throw new Error("the board has not reported a game yet");
      const reply = JSON.parse(await views.ask({ type: "record", state: JSON.stringify(state),
                                                 site: `board ${info.board || "?"} (Web Serial)` }));
      if (!reply.ok) throw new Error(reply.error);
      return reply.record;
    },
  };
}
