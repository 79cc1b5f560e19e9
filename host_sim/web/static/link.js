// The page's live link to the server, shared by the board page and the table: Server-Sent
// Events, watched. A browser's EventSource says nothing when the server stops answering (a
// stopped process keeps the connection open) and only "reconnecting" when it is gone, so the
// board would go on showing "Dark to move". The server sends a heartbeat every second
// (docs/web.md, "Server heartbeat and faults"); a stream silent for 3 s is probed with a plain
// request: a failed probe means offline, an unanswered one not responding.
// The page's POSTs ask for the board's refusals (400, 409) as answers, {"ok": false, ...} with
// a 200, so the browser's console does not log each refused move as a failed request.
export const POST_HEADERS = { "Content-Type": "application/json", Prefer: "refusal=answer" };

const LINK_SILENT_MS = 3000;       // a stream quiet this long is checked with a probe
const LINK_PROBE_MS = 3000;        // a probe unanswered this long: the server is not responding
const LINK_DOWN_MS = 1500;         // a stream not open this long: offline

// A JSON POST to the server: its answer, {ok: true, ...} or {ok: false, error}, never a throw.
export async function postJson(url, body) {
  try {
    const res = await fetch(url, { method: "POST", headers: POST_HEADERS, body: JSON.stringify(body || {}) });
    let data;
    try { data = await res.json(); } catch { data = { ok: false, error: res.status + " " + res.statusText }; }
    if (!res.ok) data.ok = false;
    return data;
  } catch (err) {
    return { ok: false, error: "the server cannot be reached (" + err.message + ")" };
  }
}

// What a page says instead of its game while what it shows is no longer the present, for a
// link's status (openLink's `kind`) and what the page shows ("board" or "table"); null if
// the server answers.
export function serverTrouble(link, what) {
  if (link.kind === "offline") return ["Offline", `Offline: the server cannot be reached. The ${what} shown is as it was; the page reconnects by itself.`];
  if (link.kind === "stuck") return ["Not responding", `The server is not responding: the ${what} shown may be out of date.`];
  return null;
}

// openLink({events, probe, on: {name: handler(event)}, change(status)}): status is
// {kind: "live" | "connecting" | "offline" | "stuck", text}; change() hears every new kind.
export function openLink(opts) {
  const link = new Link(opts);
  setInterval(() => link.watch(), 1000);
  link.open();
  return { status: () => link.status };
}

class Link {
  constructor(opts) {
    this.opts = opts;
    this.source = null;
    this.heard = performance.now();   // the last sign of life: an event, an open, a probe answered
    this.downSince = null;            // when the stream stopped being open
    this.probing = false;
    this.status = { kind: "connecting", text: "connecting…" };
  }

  set(kind, text) {
    if (this.status.kind === kind && this.status.text === text) return;
    this.status = { kind, text };
    this.opts.change(this.status);
  }

  alive() {
    this.heard = performance.now();
    this.downSince = null;
    this.set("live", "live");
  }

  open() {
    const on = this.opts.on;
    if (this.source) this.source.close();
    const source = this.source = new EventSource(this.opts.events);
    source.addEventListener("open", () => this.alive());
    source.addEventListener("error", () => { if (this.downSince === null) this.downSince = performance.now(); });
    for (const name of new Set(Object.keys(on).concat("heartbeat"))) {
      source.addEventListener(name, (e) => { this.alive(); if (on[name]) on[name](e); });
    }
  }

  async probe() {
    this.probing = true;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), LINK_PROBE_MS);
    try {
      const res = await fetch(this.opts.probe, { cache: "no-store", signal: abort.signal });
      await res.text();
      if (this.source.readyState === EventSource.OPEN) {
        this.heard = performance.now();
        if (this.status.kind !== "live") this.set("live", "live");
      } else {
        this.open();               // the server answers again: a new stream at once
      }
    } catch {
      if (abort.signal.aborted) this.set("stuck", "not responding");
      else this.set("offline", "offline");
    } finally {
      clearTimeout(timer);
      this.probing = false;
    }
  }

  watch() {
    const now = performance.now();
    if (this.source.readyState === EventSource.CLOSED) {
      this.set("offline", "offline");
      if (!this.probing) this.probe();
      return;
    }
    if (this.source.readyState !== EventSource.OPEN) {
      if (this.downSince === null) this.downSince = now;
      if (now - this.downSince > LINK_DOWN_MS && this.status.kind !== "stuck") this.set("offline", "offline");
      return;
    }
    if (now - this.heard > LINK_SILENT_MS && !this.probing) this.probe();
  }
}
