"""The simulated board of the web page, run by the Web Worker (static/boardworker.js) under
MicroPython: host_sim's own SimBoard and SimDriver on the page's small hardware fakes.

The worker calls, never concurrently:
    driver = PageDriver(map_path, kept_disks_json)   # powers on: the firmware boots from /flash
    driver.turn(real_ms)        # what `iago serve --sim`'s thread does every 10 ms; returns news
    driver.act(action, body)    # a POST /api/ACTION of docs/web.md, as JSON text both ways
    driver.record_json()        # the game so far as a record
and, for a real board over Web Serial, `board_view(state)` and `board_leds(...)`: the disks,
scores and LED colours a host works out from the board's `state` (host_sim/web/ledview.py).

Every answer is JSON text, so the worker hands strings across and nothing else.
"""

import io
import json
import sys
import time

from host_sim import simboard
from host_sim.fakes.machine import PWRON_RESET
from host_sim.render import turned_faces
from host_sim.web import api, ledview, records, simdriver
from host_sim.web.api import ApiError
from host_sim.web.driver import board_snapshot
from host_sim.web.inpage.circuit import PageCircuit

MAX_TURN_MS = 250            # real time lost beyond this (a busy tab) is not caught up
HAND_ACTIONS = ("place", "lift", "flip")
CONTACT_MS = 4
MAX_FAULTS = 3


# SimBoard builds its circuit through this name: in the page, the one with the quicker read.
simboard.Circuit = PageCircuit


def _body(text):
    """A request's body: a JSON object, as the server's POSTs take (400 otherwise)."""
    try:
        body = json.loads(text)
    except ValueError:
        raise api.bad("the body is not JSON")
    if not isinstance(body, dict):
        raise api.bad("the body must be a JSON object")
    return body


def _refusal(exc):
    return json.dumps({"ok": False, "status": exc.status, "error": exc.message})


class PageSerial(simboard.SimSerial):
    def read(self):
        if not self.inbound:
            return None
        data = bytes(self.inbound[:64])
        self.inbound = self.inbound[64:]      # MicroPython's bytearray takes no slice deletion
        return data


class PageBoard(simboard.SimBoard):
    """A SimBoard whose disks may outlive the page: those kept in the browser's storage lie
    on the board at its first power-on, so a reload is a power cut, not a cleared board."""

    def __init__(self, kept_disks, **options):
        self._kept = kept_disks
        self.kept_error = None
        super().__init__(**options)

    def power_on(self, cause=PWRON_RESET):
        if not isinstance(self.serial, PageSerial):
            self.serial = PageSerial()
        kept, self._kept = self._kept, None
        if kept:
            try:
                self.disks.update(self._checked_disks(kept))
            except (ValueError, TypeError) as exc:
                self.kept_error = str(exc)
        super().power_on(cause)

    def _checked_disks(self, kept):
        if not isinstance(kept, dict):
            raise ValueError("the disks are not a table of hexes")
        faces = turned_faces(self.layout.flip)
        disks = {}
        for name, face in kept.items():
            if face not in faces:
                raise ValueError("%r is no face of a disk (on %r)" % (face, name))
            disks[self.layout.parse_cell(name)] = face
        return disks


class PageHub:
    """The hub of host_sim/web/hub.py for one page in one thread: what changed since the
    worker last asked, as one JSON text."""

    def __init__(self):
        self._state = None
        self._state_text = None
        self._leds = ""
        self._news = {}
        self._seq = 0

    def publish_state(self, snapshot):
        text = json.dumps(snapshot)
        if text == self._state_text:
            return False
        self._state, self._state_text = snapshot, text
        self._news["state"] = text
        return True

    def publish_leds(self, hexes):
        if hexes == self._leds:
            return False
        self._leds = self._news["leds"] = hexes
        return True

    def log(self, direction, message, source="board"):
        if not isinstance(message, str):
            message = json.dumps(message)
        self._seq += 1
        self._news.setdefault("log", []).append({
            "seq": self._seq, "dir": direction, "text": message, "from": source,
            "at": time.strftime("%H:%M:%S")})

    def state(self):
        return self._state

    def news(self):
        """What changed since the last call: {"state": JSON text, "leds": ..., "log": [...]}."""
        news, self._news = self._news, {}
        if "state" in news:
            news["state"] = json.loads(news["state"])
        return json.dumps(news)


class PageDriver(simdriver.SimDriver):
    """`iago serve --sim`'s driver without its thread: the worker calls `turn` in its loop and
    `act` for each action of the page, one at a time."""

    def __init__(self, map_path, kept_disks="{}", seed=0):
        super().__init__(PageHub(), flash_dir="/flash", seed=seed, map_path=map_path)
        try:
            kept = json.loads(kept_disks)
        except ValueError:
            kept = "not JSON"
        self.board = PageBoard(kept, map_path=map_path, root="/flash", strict=False, seed=seed)
        self.layout = self.board.layout
        self.flipped = turned_faces(self.layout.flip)
        self.stopped = False
        self._leds_at = 0.0
        self.hub.log("note", "simulated board %s in this page, firmware %s (MicroPython %s)" % (
            self.board.boardmap.name, simdriver.firmware_version(),
            ".".join(str(n) for n in sys.implementation.version[:3])), "page")
        if self.board.kept_error:
            self.hub.log("note", "the disks kept in this browser were set aside: %s" %
                         self.board.kept_error, "page")
        self._publish_state()
        self.hub.publish_leds(self._led_hexes())

    def _running(self):
        return not self.stopped

    def turn(self, real_ms):
        """Run the board `real_ms` of real time on (times the speed) and everything the sim
        thread does in a turn; returns the hub's news."""
        if not self.stopped:
            try:
                self._pace(min(real_ms, MAX_TURN_MS) / 1000)
                self._drain()
                self._after_messages()
                self._autoflip()
                if self.replay is not None:
                    self.replay.tick(self)
                now = time.perf_counter()
                self._turned = now
                self._measure_speed(now)
                self._publish_state()
                if now - self._leds_at >= simdriver.LED_PERIOD_S:
                    self._leds_at = now
                    self.hub.publish_leds(self._led_hexes())
            except Exception as exc:      # a bug: reported, and the board restarts
                self.stopped = not self._recover(exc)
        return self.hub.news()

    def act(self, action, body_text):
        """A page's action (docs/web.md, "The HTTP API"): {"ok": true, ...} or {"ok": false,
        "status": 4xx, "error": ...}, as JSON text; a refused action changes nothing."""
        try:
            body = _body(body_text)
            func = self.actions.get(action)
            if func is None:
                raise ApiError(404, "unknown action %r" % action)
            if self.stopped:
                raise ApiError(503, self._stopped_message())
            result = func(body)
            if action in HAND_ACTIONS:
                # The hand's disk meets its switch now: the firmware scans it and lights its
                # hex (two scan periods), and those LEDs go out with the worker's next news.
                self._advance_to(self.board.clock.us + CONTACT_MS * 1000)
                self._leds_at = time.perf_counter()
                self.hub.publish_leds(self._led_hexes())
            self._publish_state()
            reply = {"ok": True}
            reply.update(result)
            return json.dumps(reply)
        except ApiError as exc:
            return _refusal(exc)
        except Exception as exc:        # a bug here must not stop the board
            self.hub.log("note", "page error on %s: %r" % (action, exc), "page")
            return json.dumps({"ok": False, "status": 500, "error": "internal error: %s" % exc})

    def news(self):
        return self.hub.news()

    def record_json(self):
        try:
            return json.dumps({"ok": True, "record": self.record()})
        except ApiError as exc:
            return _refusal(exc)

    def record(self):
        return records.record_text(self._state_or_fail(), "%s board (simulated in a web page)" %
                                   self._title())

    def pulse_json(self):
        return json.dumps(self.pulse())

    def disks_json(self):
        """The disks on the board, for the browser's storage."""
        return json.dumps({self._name(c): f for c, f in self.board.disks.items()})

    def _recover(self, exc):
        """As SimDriver's: a fault of the driver is reported once and the board restarts into
        its saved game; after MAX_FAULTS the page's simulator stops. MicroPython keeps no
        traceback object, so the place is read from the printed one."""
        text = io.StringIO()
        sys.print_exception(exc, text)
        lines = [line.strip() for line in text.getvalue().splitlines() if line.strip()]
        where = lines[-2] if len(lines) > 1 else "?"
        count = (self.fault["id"] if self.fault else 0) + 1
        restarted = count <= MAX_FAULTS
        if restarted:
            self._restart_board()
        self.fault = {"id": count, "error": ("%s: %s" % (type(exc).__name__, exc))[:300],
                      "where": where.replace('File "/lib/', "").replace('"', ""),
                      "at_ms": int(time.time() * 1000), "clock_ms": self.board.clock.ms,
                      "restarted": restarted}
        self.hub.log("note", "simulator fault: %s (%s)" % (self.fault["error"],
                                                            self.fault["where"]), "page")
        self.hub.publish_state(dict(self.hub.state() or {}, fault=self.fault))
        return restarted


# --- a real board over Web Serial: what the host works out from its state -----------------

_MAPS = {}


def _map_of(layout):
    """The project's board map of the board's shape (the LED colours are worked out with it)."""
    from gameboard import boardmap
    path = ("/hardware/board.json" if layout.kind == "hex" else
            "/hardware/boards/square%d.json" % layout.size)
    if path not in _MAPS:
        _MAPS[path] = boardmap.load(path)
    return _MAPS[path]


def _state(state_text):
    state = json.loads(state_text)
    if not isinstance(state, dict):
        raise ValueError("a board's state is a JSON object")
    return state


def board_view(state_text):
    """{"snapshot": the snapshot of a real board's `state` over Web Serial} as the server's
    serial driver publishes it (driver.board_snapshot; the page sets what it knows of the
    connection over it), or {"error": why} for a state it cannot read."""
    try:
        state = _state(state_text)
        layout = ledview.layout_of(state)
        return json.dumps({"snapshot": board_snapshot(
            "board", state, layout, disks=ledview.inferred_disks(state, layout))})
    except Exception as exc:
        return json.dumps({"error": "%s: %s" % (type(exc).__name__, exc)})


def board_leds(state_text, now_ms, startup_ms):
    """The LED colours (`rrggbb` a cell) the firmware shows for a real board's `state` at
    `now_ms`, composed by its own painter; "" for a state it cannot read."""
    try:
        state = _state(state_text)
        layout = ledview.layout_of(state)
        colours = ledview.derived_leds(state, _map_of(layout), int(now_ms), int(startup_ms),
                                       layout)
        return "".join("%02x%02x%02x" % tuple(c) for c in colours)
    except Exception:
        return ""


def checked_command(body_text):
    """A page's command for a real board over Web Serial, checked as `iago serve --port` checks
    it (host_sim/web/api.py): {"ok": true, "msg": the command} or the refusal."""
    try:
        return json.dumps({"ok": True, "msg": api.host_command(_body(body_text))})
    except ApiError as exc:
        return _refusal(exc)


def state_record(state_text, site):
    """The game record of a real board's `state`, as `iago serve --port` writes it."""
    try:
        return json.dumps({"ok": True, "record": records.record_text(_state(state_text), site)})
    except Exception as exc:
        return json.dumps({"ok": False, "error": "no record of this state: %s" % exc})
