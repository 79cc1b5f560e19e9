"""Host link: newline-delimited JSON over the USB serial port (docs/protocol.md).

The board sends every controller event as `{"v": 1, "event": ...}` and answers each command
`{"cmd": ..., "id": optional}` with `{"v": 1, "reply": cmd, "ok": true, ...}` or
`{"v": 1, "reply": cmd, "ok": false, "error": "..."}`. A malformed or unknown message gets an
error reply and never disturbs the game. Bytes are fed in as they arrive, so reading the port
never blocks the scan loop; a line longer than MAX_LINE is dropped with an error.
"""

import array
import json

from gameboard.settings import Settings

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_VERSION = const(1)         # of the protocol
MAX_LINE = 512


class Link:
    def __init__(self, controller, saves, write, info=None):
        self.controller = controller
        self.saves = saves
        self.write = write               # write(str): sends one line's text
        self.info = info or {}           # firmware version, board map name
        self.selftest = None             # set by the app: starts the self-test
        self.demo = None                 # set by the app: starts the demo
        self._line = bytearray(MAX_LINE)
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
                    self._send({"v": _VERSION, "reply": None, "ok": False,
                                "error": "line longer than %d bytes dropped" % MAX_LINE})
                elif self._length:
                    self.handle(bytes(self._line[:self._length]), now)
                self._length = 0
                self._overflow = False
            elif byte != 13:
                if self._length < MAX_LINE:
                    self._line[self._length] = byte
                    self._length += 1
                else:
                    self._overflow = True

    def pump(self):
        """Send the controller's pending events."""
        outbox = self.controller.outbox
        while outbox:
            event = outbox.pop(0)
            event["v"] = _VERSION
            self._send(event)

    def send_event(self, event):
        event["v"] = _VERSION
        self._send(event)

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
            cmd = msg.get("cmd")
            msg_id = msg.get("id")
            handler = _COMMANDS.get(cmd) if isinstance(cmd, str) else None
            if handler is None:
                raise ValueError("unknown command %s (known: %s)" % (
                    json.dumps(cmd), ", ".join(sorted(_COMMANDS))))
            reply = handler(self, msg, now) or {}
        except (ValueError, KeyError, TypeError) as exc:
            reply = {"ok": False, "error": _message(exc)}
        else:
            reply["ok"] = True
        reply["v"] = _VERSION
        reply["reply"] = cmd
        if msg_id is not None:
            reply["id"] = msg_id
        self._send(reply)

    def _send(self, obj):
        self.write(json.dumps(obj) + "\n")

    # --- commands --------------------------------------------------------------------------

    def _ping(self, msg, now):
        return {"pong": now}

    def _version(self, msg, now):
        out = {"protocol": _VERSION}
        for key in self.info:
            out[key] = self.info[key]
        return out

    def _state(self, msg, now):
        return {"state": self.controller.state()}

    def _stats(self, msg, now):
        # Diagnostics: the heap in use after a collection, the debounced switch closing
        # -> LED frame sent times since the first stats command (no timing before it), and
        # the main loop's longest step since the last one (the switches and LEDs wait that
        # long; the computer's search runs in slices between steps).
        import gc
        if self.timing is None:
            self.timing = array.array("i", (-1, 0, 0, 0, -1))
        timing = self.timing
        out = {"closing_to_frame_us": timing[1], "closing_to_frame_max_us": timing[2],
               "closings_timed": timing[3], "step_max_ms": max(timing[4], 0)}
        timing[4] = -1           # the step answering this (and collecting) does not count
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
        timing[0] = -1
        if us < 0:
            return
        timing[1] = us
        if us > timing[2]:
            timing[2] = us
        timing[3] += 1

    def _new_game(self, msg, now):
        settings = None
        if "settings" in msg:
            settings = Settings.from_dict(msg["settings"])
        elif "rules" in msg:
            data = self.controller.settings.as_dict()
            rules = msg["rules"]
            if not isinstance(rules, str):
                raise ValueError("rules must be a name such as \"standard\"")
            data["penalty"] = rules.endswith("+penalty")
            data["rules"] = rules[:-8] if data["penalty"] else rules
            settings = Settings.from_dict(data)
        self.controller.new_game(now, "command", settings)
        return {"state": self.controller.state()}

    def _settings(self, msg, now):
        data = self.controller.settings.as_dict()
        changes = msg.get("settings")
        if not isinstance(changes, dict):
            raise ValueError("settings needs an object \"settings\"")
        for key in changes:
            data[key] = changes[key]
        self.controller.change_settings(Settings.from_dict(data), now)
        return {"settings": self.controller.settings.as_dict()}

    def _take_back(self, msg, now):
        if not self.controller.take_back(now):
            raise ValueError("nothing to take back")
        return {"state": self.controller.state()}

    def _claim(self, msg, now):
        return {"granted": self.controller.claim(now)}

    def _suggest(self, msg, now):
        if not self.controller.suggest(now):
            raise ValueError("no placement to suggest now (game over, or not a game)")
        return {}

    def _demo(self, msg, now):
        if self.demo is None:
            raise ValueError("this board cannot run the demo")
        self.demo(now)
        return {}

    def _selftest(self, msg, now):
        if self.selftest is None:
            raise ValueError("this board cannot run its self-test")
        self.selftest(now)
        return {}

    def _games(self, msg, now):
        return {"games": self.saves.finished_ids()}

    def _game(self, msg, now):
        game_id = msg.get("game")
        if not isinstance(game_id, int):
            raise ValueError("game needs an integer \"game\" id (see the games command)")
        try:
            return {"game": game_id, "record": self.saves.read_finished(game_id)}
        except KeyError:
            raise ValueError("no saved game %d (kept: %s)" % (
                game_id, " ".join(str(i) for i in self.saves.finished_ids()) or "none"))


_COMMANDS = {
    "suggest": Link._suggest,
    "demo": Link._demo,
    "selftest": Link._selftest,
    "ping": Link._ping,
    "version": Link._version,
    "state": Link._state,
    "stats": Link._stats,
    "new_game": Link._new_game,
    "settings": Link._settings,
    "take_back": Link._take_back,
    "claim": Link._claim,
    "games": Link._games,
    "game": Link._game,
}


def _clip(line):
    try:
        text = line.decode()
    except ValueError:
        return "%d bytes that are not UTF-8 text" % len(line)
    return text if len(text) <= 60 else text[:57] + "..."


def _message(exc):
    if isinstance(exc, KeyError):
        return "missing field %s" % exc
    return str(exc) or exc.__class__.__name__
