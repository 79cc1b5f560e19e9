"""Fan-out of the board to every page: the latest state, the latest LED colours and the console.

The driver publishes; each Server-Sent Events connection runs `stream()` in its own server
thread. State and LEDs are versioned snapshots, not queues: a slow page skips frames and always
gets the newest, so no page can make the board or another page wait. The console is a ring of
the last LOG_KEEP lines of the host link, numbered, so a page that falls behind by more than
that is told how many it missed. Every HEARTBEAT_S each page also gets a `heartbeat`: the
server's time and the driver's health (`pulse`), so a page notices within seconds that its
server is gone (no heartbeat) or its simulator stuck (docs/web.md, "Server heartbeat and
faults").
"""

import collections
import json
import threading
import time

LOG_KEEP = 1000
LOG_ON_CONNECT = 300     # console lines a newly connected page gets
HEARTBEAT_S = 1.0


class Hub:
    def __init__(self):
        self._cond = threading.Condition()
        self._state = None
        self._state_json = None
        self._state_version = 0
        self._leds = ""
        self._leds_version = 0
        self._log = collections.deque(maxlen=LOG_KEEP)
        self._log_seq = 0
        self._viewers = 0
        self._viewers_version = 0
        self.closed = False
        self.pulse = None        # () -> dict: the driver's health, sent with each heartbeat

    # --- publishing (the driver) -------------------------------------------------------------

    def publish_state(self, snapshot):
        """A new snapshot (a JSON-ready dict); pages hear of it only if it changed."""
        text = json.dumps(snapshot, separators=(",", ":"), sort_keys=True)
        with self._cond:
            if text == self._state_json:
                return False
            self._state = snapshot
            self._state_json = text
            self._state_version += 1
            self._cond.notify_all()
        return True

    def publish_leds(self, hexes):
        """The LED colours: a string of 61 `rrggbb` groups in cell order (A1 first)."""
        with self._cond:
            if hexes == self._leds:
                return False
            self._leds = hexes
            self._leds_version += 1
            self._cond.notify_all()
        return True

    def log(self, direction, message, source="board"):
        """A console line: `direction` is "in" (from the board), "out" (to it) or "note"."""
        if not isinstance(message, str):
            message = json.dumps(message, separators=(", ", ": "))
        with self._cond:
            self._log_seq += 1
            self._log.append({"seq": self._log_seq, "dir": direction, "text": message,
                              "from": source, "at": time.strftime("%H:%M:%S")})
            self._cond.notify_all()

    def close(self):
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    # --- reading -----------------------------------------------------------------------------

    def state(self):
        with self._cond:
            return self._state

    def leds(self):
        with self._cond:
            return self._leds

    def console(self, limit=LOG_KEEP):
        with self._cond:
            return list(self._log)[-limit:]

    @property
    def viewers(self):
        with self._cond:
            return self._viewers

    def heartbeat(self):
        """The server's time in ms since 1970 and the driver's health (its `pulse`)."""
        beat = {"server_ms": int(time.time() * 1000)}
        if self.pulse is not None:
            beat.update(self.pulse())
        return beat

    def stream(self, write, heartbeat=HEARTBEAT_S):
        """Send Server-Sent Events to one page through `write(bytes)` until the hub closes or
        `write` raises OSError (the page went away)."""
        with self._cond:
            self._viewers += 1
            self._viewers_version += 1
            self._cond.notify_all()
            sent = [0, 0, max(0, self._log_seq - LOG_ON_CONNECT), 0]
        beat_at = time.monotonic()      # the first heartbeat at once
        try:
            write(b"retry: 1000\n\n")
            while True:
                with self._cond:
                    self._cond.wait_for(lambda: self.closed or self._news(sent),
                                        max(0.0, beat_at - time.monotonic()))
                    if self.closed:
                        return
                    chunk = self._collect(sent)
                if time.monotonic() >= beat_at:
                    beat_at = time.monotonic() + heartbeat
                    chunk += _event("heartbeat", json.dumps(self.heartbeat()))
                if chunk:
                    write(chunk)
        except OSError:
            return
        finally:
            with self._cond:
                self._viewers -= 1
                self._viewers_version += 1
                self._cond.notify_all()

    def _news(self, sent):
        return (sent[0] != self._state_version or sent[1] != self._leds_version or
                sent[2] != self._log_seq or sent[3] != self._viewers_version)

    def _collect(self, sent):
        out = []
        if sent[0] != self._state_version and self._state_json is not None:
            out.append(_event("state", self._state_json))
        if sent[1] != self._leds_version:
            out.append(_event("leds", json.dumps(self._leds)))
        if sent[2] != self._log_seq:
            lines = [entry for entry in self._log if entry["seq"] > sent[2]]
            missed = self._log_seq - sent[2] - len(lines)
            if missed > 0:
                lines.insert(0, {"seq": 0, "dir": "note", "from": "server", "at": "",
                                 "text": "%d console lines skipped (page too slow)" % missed})
            out.append(_event("log", json.dumps(lines, separators=(",", ":"))))
        if sent[3] != self._viewers_version:
            out.append(_event("viewers", str(self._viewers)))
        sent[:] = [self._state_version, self._leds_version, self._log_seq, self._viewers_version]
        return b"".join(out)


def _event(name, data):
    return ("event: %s\ndata: %s\n\n" % (name, data)).encode()
