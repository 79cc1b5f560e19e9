// The page's live link to the server, shared by the board page and the table: Server-Sent
// Events, watched. A browser's EventSource says nothing when the server stops answering (a
// stopped process keeps the connection open) and only "reconnecting" when it is gone, so the
// board would go on showing "Dark to move". The server sends a heartbeat every second
// (docs/web.md, "Server heartbeat and faults"); a stream silent for 3 s is probed with a plain
// request: a failed probe means offline, an unanswered one not responding.
"use strict";

// The page's POSTs ask for the board's refusals (400, 409) as answers, {"ok": false, ...} with
// a 200, so the browser's console does not log each refused move as a failed request.
const POST_HEADERS = { "Content-Type": "application/json", Prefer: "refusal=answer" };

const LINK_SILENT_MS = 3000;       // a stream quiet this long is checked with a probe
const LINK_PROBE_MS = 3000;        // a probe unanswered this long: the server is not responding
const LINK_DOWN_MS = 1500;         // a stream not open this long: offline

// openLink({events, probe, on: {name: handler(event)}, change(status)}): status is
// {kind: "live" | "connecting" | "offline" | "stuck", text}; change() hears every new kind.
function openLink(opts) {
  let source = null;
  let heard = performance.now();   // the last sign of life: an event, an open, a probe answered
  let downSince = null;            // when the stream stopped being open
  let probing = false;
  let status = { kind: "connecting", text: "connecting…" };

  const set = (kind, text) => {
    if (status.kind === kind && status.text === text) return;
    status = { kind, text };
    opts.change(status);
  };
  const alive = () => {
    heard = performance.now();
    downSince = null;
    set("live", "live");
  };
  const open = () => {
    if (source) source.close();
    source = new EventSource(opts.events);
    source.addEventListener("open", alive);
    source.addEventListener("error", () => { if (downSince === null) downSince = performance.now(); });
    for (const name of new Set(Object.keys(opts.on).concat("heartbeat"))) {
      source.addEventListener(name, (e) => { alive(); if (opts.on[name]) opts.on[name](e); });
    }
  };
  const probe = async () => {
    probing = true;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), LINK_PROBE_MS);
    try {
      const res = await fetch(opts.probe, { cache: "no-store", signal: abort.signal });
      await res.text();
      if (source.readyState === EventSource.OPEN) {
        heard = performance.now();
        if (status.kind !== "live") set("live", "live");
      } else {
        open();                    // the server answers again: a new stream at once
      }
    } catch (err) {
      if (abort.signal.aborted) set("stuck", "not responding");
      else set("offline", "offline");
    } finally {
      clearTimeout(timer);
      probing = false;
    }
  };
  setInterval(() => {
    const now = performance.now();
    if (source.readyState === EventSource.CLOSED) {
      set("offline", "offline");
      if (!probing) probe();
      return;
    }
    if (source.readyState !== EventSource.OPEN) {
      if (downSince === null) downSince = now;
      if (now - downSince > LINK_DOWN_MS && status.kind !== "stuck") set("offline", "offline");
      return;
    }
    if (now - heard > LINK_SILENT_MS && !probing) probe();
  }, 1000);
  open();
  return { status: () => status };
}
