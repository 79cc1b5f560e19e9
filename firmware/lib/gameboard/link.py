"""Host link: newline-delimited JSON over the USB serial port (docs/protocol.md).

The board sends every controller event as `{"v": 2, "event": ...}` and answers each command
`{"cmd": ..., "id": optional}` with `{"v": 2, "reply": cmd, "ok": true, ...}` or
`{"v": 2, "reply": cmd, "ok": false, "error": "..."}`. A malformed or unknown message gets an
error reply and never disturbs the game. Bytes are fed in as they arrive, so reading the port
never blocks the scan loop; a line longer than _MAX_LINE is dropped with an error.
"""

import json

from gameboard import forget

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_VERSION = const(2)         # of the protocol (docs/protocol.md)
_MAX_LINE = const(512)


class Link:
    def __init__(self, mode, saves, write, info=None, hand_over=None):
        """The link to a host for `mode` (the mode that has the board, gameboard/modes.py),
        with the board's `saves`; `write(str)` sends a line's text; `info`: the version
        reply's fields besides the protocol; `hand_over(to, now)`: the App's, which gives
        the board to the demo or the self-test (None: this board cannot)."""
        self.mode = mode
        self.saves = saves
        self.write = write
        self.info = {"protocol": _VERSION}
        for key in info or ():
            self.info[key] = info[key]
        self.hand_over = hand_over
        self.line = bytearray(_MAX_LINE)
        self._length = 0
        self._overflow = False
        # Set by the first `stats` command: [ticks_us of the switch closing being timed or
        # -1, last, longest, count] of closing -> LED frame sent, kept by the main loop.
        self.timing = None

    def feed(self, data, now):
        """Bytes from the port; complete lines are handled at once."""
        for byte in data:
            if byte == 10:  # newline
                if self._overflow:
                    self.send({"v": _VERSION, "reply": None, "ok": False,
                                "error": "line longer than %d bytes dropped" % _MAX_LINE})
                elif self._length:
                    self.handle(bytes(self.line[:self._length]), now)
                self._length = 0
                self._overflow = False
            elif byte != 13:
                if self._length < _MAX_LINE:
                    self.line[self._length] = byte
                    self._length += 1
                else:
                    self._overflow = True

    def serve(self, mode):
        """Commands go to `mode` from now on: it has the board."""
        self.mode = mode

    def pump(self):
        """Send the pending events of the mode that has the board."""
        outbox = self.mode.outbox
        while outbox:
            event = outbox.pop(0)
            event["v"] = _VERSION
            self.send(event)

    def send_event(self, event):
        event["v"] = _VERSION
        self.send(event)

    def handle(self, line, now):
        cmd = None
        msg_id = None
        try:
            try:
                msg = json.loads(line.decode())
            except ValueError:  # UnicodeError is one too
                raise ValueError("not JSON: %s" % _clip(line))
            if not isinstance(msg, dict):
                raise ValueError("a command is a JSON object with a \"cmd\" field")
            msg_id = msg.get("id")
            name = msg.get("cmd")
            if isinstance(name, str):
                cmd = name      # anything else is not echoed (see commands.run)
            handler = _FREQUENT.get(cmd or "")
            if handler is None or len(msg) > 1 + ("id" in msg):
                # The rarer commands, and every refusal of a command or its fields.
                try:
                    from gameboard import commands
                    reply = commands.run(self, msg, now, handler)
                finally:
                    forget("gameboard.commands")
            else:
                reply = handler(self, msg, now)
            reply = reply or {}
        except (ValueError, KeyError, TypeError, MemoryError, OSError) as exc:
            # Short of heap or a flash error: a refusal like any other, the board plays on.
            reply = {"ok": False, "error": message(exc)}
        else:
            reply["ok"] = True
        reply["v"] = _VERSION
        reply["reply"] = cmd
        if msg_id is not None:
            reply["id"] = msg_id
        try:
            self.send(reply)
        except Exception as exc:    # no heap for a long reply, an id nested too deep
            self.send({"v": _VERSION, "reply": cmd, "ok": False, "error": message(exc)})

    def send(self, obj):
        self.write(json.dumps(obj) + "\n")

    # --- commands --------------------------------------------------------------------------

    def state(self, msg, now):
        return {"state": self.mode.state()}

    def stats(self, msg, now):
        # Diagnostics: the heap in use after a collection, the debounced switch closing
        # -> LED frame sent times since the first stats command (no timing before it), and
        # the main loop's longest step since the last one (the switches and LEDs wait that
        # long; the computer's search runs in slices between steps).
        import gc
        if self.timing is None:
            self.timing = Timing()
        timing = self.timing
        out = {"closing_to_frame_us": timing.last_us, "closing_to_frame_max_us": timing.max_us,
               "closings_timed": timing.count, "step_max_ms": max(timing.step_max_ms, 0)}
        saves = self.saves
        if saves is not None:
            out["store"] = saves.store      # where the game in progress is kept
            if saves.fallen is not None:
                out["store_error"] = saves.fallen
        timing.step_max_ms = -1  # the step answering this (and collecting) does not count
        gc.collect()
        if hasattr(gc, "mem_alloc"):  # MicroPython
            out["mem_alloc"] = gc.mem_alloc()
            out["mem_free"] = gc.mem_free()
        return out

    def timed(self, us):
        """The main loop sent the LED frame of the timed closing `us` microseconds after it
        (-1: the frame did not change, nothing to time)."""
        timing = self.timing
        if timing is None:
            return
        timing.closed_at_us = -1
        if us < 0:
            return
        timing.last_us = us
        if us > timing.max_us:
            timing.max_us = us
        timing.count += 1


class Timing:
    """What the `stats` command reports, kept by the main loop from the first `stats` on.
    Its fields are small ints, so updating them allocates nothing."""

    def __init__(self):
        self.closed_at_us = -1   # ticks_us of the switch closing being timed; -1: none
        self.last_us = 0         # the last closing -> its frame
        self.max_us = 0          # the longest of them
        self.count = 0           # closings timed
        self.step_max_ms = -1    # the longest loop step; -1: the step answering `stats`


# The commands a host sends often; the others are in gameboard/commands.py, imported when
# sent and forgotten after, so their code takes no heap in play.
_FREQUENT = {"state": Link.state, "stats": Link.stats}


def _clip(line):
    try:
        text = line.decode()
    except ValueError:
        return "%d bytes that are not UTF-8 text" % len(line)
    return text if len(text) <= 60 else text[:57] + "..."


def message(exc):
    if isinstance(exc, KeyError):
        return "missing field %s" % exc
    if isinstance(exc, MemoryError):
        return "out of memory"
    if isinstance(exc, OSError):
        return "flash error (%s)" % exc
    return str(exc) or exc.__class__.__name__
