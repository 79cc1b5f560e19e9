// A real board on USB, straight from the browser over Web Serial (Chrome, Edge, Opera): the
// page speaks the host link itself, asks for the state as the server does, and works out the
// board's disks and LEDs in a worker running the host's own code (boardworker.js, {type: "host"}).
// The board interface it answers is board.js's.
import { startWorker } from "./board.js";
import { HEX_BOARD } from "./hexboard.js";

const SERIAL_STATE_MS = 2000;      // the state is asked for at least this often, as the server does
const SERIAL_FRAME_MS = 40;        // the LED colours are recomposed this often (blinking)
const SERIAL_REPLY_MS = 3000;
const SERIAL_LINE_MAX = 4096;      // a longer line is no line of the host link: dropped, said once
const COMMAND_ROOM = 500;          // the board drops lines of 512 bytes and more

// The board before the page has worked out a view of its state: the hex board, no disks,
// nothing in hand (its own layout replaces it with its first view).
const NO_VIEW = { mode: "board", layout: HEX_BOARD, disks: {}, hand: {}, flipping: [], replay: null,
                  gestures: false, sim: null, score_screen: null };

export function serialSupported() { return "serial" in navigator; }

export function serialBoard(on, port) {
  const board = new SerialBoard(on, port);
  setInterval(() => { if (board.connected) board.poll(); }, SERIAL_STATE_MS);
  setInterval(() => board.frame(), SERIAL_FRAME_MS);
  setInterval(() => on.heartbeat({ server_ms: Date.now(), board: board.connected ? "connected" : "disconnected",
                                   clock_ms: null, stalled_ms: null, fault: 0 }), 1000);
  board.publish();
  board.connect();
  return {
    kind: "serial",
    post: (action, body) => board.post(action, body),
    record: () => board.record(),
  };
}

class SerialBoard {
  constructor(on, port) {
    this.on = on;
    this.port = port;
    this.views = startWorker({ type: "host" }, (msg) => {
      if (msg.type === "ready") { this.hostReady = true; this.refresh(); }
      if (msg.type === "failed") on.notice("The page cannot work out the board's LEDs: " + msg.error, true);
    });
    this.hostReady = false;
    this.writer = null;
    this.connected = false;
    this.error = null;
    this.info = {};
    this.state = null;
    this.view = null;
    this.shown = null;             // the state the page shows: always the one `view` was worked out from
    this.startupSince = null;
    this.seq = 0;
    this.waiting = new Map();
    this.kept = [];                // finished games fetched from the board: {id, record}
    this.polling = false;
    this.pollAgain = false;
    this.logSeq = 0;
  }

  // The snapshot the host's code built from the board's state (driver.board_snapshot, in the
  // worker), with what the page knows of the connection over it.
  snapshot() {
    const view = this.view && !this.view.error ? this.view.snapshot : NO_VIEW;
    const connected = this.connected;
    return Object.assign({}, view, {
      connected, powered: connected, port: "USB (Web Serial)", error: this.error,
      board: this.info.board || null, firmware: this.info.firmware || null,
      state: connected ? this.shown : null, disks: connected ? view.disks : {},
      saved: this.kept.map((g) => g.id), kept_games: this.kept,
    });
  }

  publish() { this.on.state(this.snapshot()); }

  log(dir, text, from) {
    this.on.log([{ seq: ++this.logSeq, dir, text, from: from || "board", at: new Date().toTimeString().slice(0, 8) }]);
  }

  async send(msg, source) {
    if (!this.connected) return { ok: false, error: "the board is not connected" + (this.error ? " (" + this.error + ")" : "") };
    this.seq += 1;
    const id = "web-" + this.seq;
    const line = JSON.stringify(Object.assign({}, msg, { id }));
    if (new TextEncoder().encode(line).length >= COMMAND_ROOM) return { ok: false, error: "the command is longer than the board's line limit (512 bytes)" };
    const reply = new Promise((resolve) => {
      const timer = setTimeout(() => { this.waiting.delete(id); resolve(null); }, SERIAL_REPLY_MS);
      this.waiting.set(id, { source, done: (r) => { clearTimeout(timer); resolve(r); } });
    });
    try {
      await this.writer.write(new TextEncoder().encode(line + "\n"));
    } catch (err) {
      this.waiting.delete(id);
      this.lost(err);
      return { ok: false, error: "the board went away: " + err.message };
    }
    if (source !== "poll") this.log("out", line, source);
    const r = await reply;
    return r || { ok: false, error: `the board did not answer ${msg.cmd} within ${SERIAL_REPLY_MS / 1000} s` };
  }

  async poll() {
    if (this.polling) { this.pollAgain = true; return; }
    this.polling = true;
    try {
      do {
        this.pollAgain = false;
        const reply = await this.send({ cmd: "state" }, "poll");
        if (reply.ok && reply.state && typeof reply.state === "object" && !Array.isArray(reply.state)) {
          this.state = reply.state;
          if (this.state.phase !== "startup") this.startupSince = null;
          else if (this.startupSince === null) this.startupSince = performance.now();
          await this.refresh();
        }
      } while (this.pollAgain && this.connected);
    } finally {
      this.polling = false;
    }
  }

  async refresh() {
    if (!this.hostReady || !this.state) { this.publish(); return; }     // no game shown without its disks
    const asked = this.state;
    this.view = JSON.parse(await this.views.ask({ type: "view", state: JSON.stringify(asked) }));
    this.shown = asked;
    if (this.view.error) this.log("note", "cannot read the board's state: " + this.view.error, "page");
    this.publish();
  }

  async frame() {
    if (!this.hostReady || !this.connected || !this.state) return;
    const startup = this.startupSince === null ? 0 : this.startupSince;
    const hexes = await this.views.ask({ type: "leds", state: JSON.stringify(this.state),
                                         now: Math.round(performance.now()), startup: Math.round(startup) });
    if (hexes) this.on.leds(hexes);
  }

  async keepGame(id) {
    const reply = await this.send({ cmd: "game", game: id }, "page");
    if (reply.ok && typeof reply.record === "string") {
      this.kept.push({ id, record: reply.record });
      this.log("note", `finished game ${id} fetched from the board: Save it from the panel`, "page");
      this.publish();
    }
  }

  onLine(text) {
    const line = text.trim();
    if (!line) return;
    let msg;
    try { msg = JSON.parse(line); } catch { this.log("in", line); return; }   // the REPL, a traceback: shown
    if (!msg || typeof msg !== "object" || Array.isArray(msg)) { this.log("in", line); return; }
    const waiter = typeof msg.id === "string" ? this.waiting.get(msg.id) : undefined;
    if ("reply" in msg && waiter) {
      this.waiting.delete(msg.id);
      if (waiter.source !== "poll") this.log("in", line);
      waiter.done(msg);
      return;
    }
    this.log("in", line);
    if (msg.event === "saved_game" && Number.isInteger(msg.game)) this.keepGame(msg.game);
    if ("event" in msg) this.poll();
  }

  lost(err) {
    if (!this.connected) return;
    this.connected = false;
    this.error = String(err && err.message || err);
    this.log("note", "lost the board: " + this.error, "page");
    this.on.link({ kind: "offline", text: "disconnected" });
    this.publish();
  }

  async readLoop() {
    const decoder = new TextDecoder();
    let buffer = "", dropping = false;
    const reader = this.port.readable.getReader();
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
          this.onLine(line);
        }
        if (buffer.length > SERIAL_LINE_MAX) {
          if (!dropping) this.log("note", `a line of over ${SERIAL_LINE_MAX} characters from the board was dropped`, "page");
          buffer = "";
          dropping = true;
        }
      }
      this.lost("the port closed");
    } catch (err) {
      this.lost(err);
    } finally {
      reader.releaseLock();
    }
  }

  async connect() {
    const on = this.on;
    on.link({ kind: "connecting", text: "opening the port…" });
    try {
      await this.port.open({ baudRate: 115200 });
    } catch (err) {
      this.error = err.message;
      on.link({ kind: "offline", text: "not connected" });
      on.notice("The port could not be opened: " + err.message, true);
      this.publish();
      return;
    }
    this.writer = this.port.writable.getWriter();
    this.connected = true;
    this.error = null;
    on.viewers(1);
    on.link({ kind: "live", text: "live" });
    this.log("note", "connected to the board over Web Serial", "page");
    this.readLoop();
    const version = await this.send({ cmd: "version" }, "page");
    if (version.ok) this.info = { firmware: version.firmware, board: version.board, protocol: version.protocol, game: version.game };
    await this.poll();
  }

  async post(action, body) {
    if (action !== "command") {
      return { ok: false, error: `this is a real board: move its disks by hand (only the simulated board takes "${action}" from the page)` };
    }
    if (!this.hostReady) return { ok: false, error: "the page is still starting" };
    const checked = JSON.parse(await this.views.ask({ type: "check", body: JSON.stringify(body || {}) }));
    if (!checked.ok) return checked;
    const reply = await this.send(checked.msg, "page");
    if (reply.reply === undefined) return reply;               // not sent, or no answer
    if (!reply.ok) return { ok: false, error: `the board refused ${checked.msg.cmd}: ${reply.error}` };
    this.poll();
    return reply;
  }

  async record() {
    if (!this.state) throw new Error("the board has not reported a game yet");
    const reply = JSON.parse(await this.views.ask({ type: "record", state: JSON.stringify(this.state),
                                                    site: `board ${this.info.board || "?"} (Web Serial)` }));
    if (!reply.ok) throw new Error(reply.error);
    return reply.record;
  }
}
