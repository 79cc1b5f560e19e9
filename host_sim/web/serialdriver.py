"""A real board on its USB serial port: the page fed by the firmware's host link (pyserial).

The reader thread parses the board's lines: replies wake the command that waits for them,
events go to the console and make the worker ask for the state again. The worker publishes the
state with the disks and LED colours worked out from it (ledview), recomposed every FRAME_S so
blinking shows: what the board shows, up to timing and brief flashes.

Disks cannot be moved from the page (the board is physical); commands work as on the sim. A
`saved_game` event makes the worker fetch the finished game's record and keep it in games_dir.
Unplugging is survived: the port is reopened every second.

The board's shape follows the game its state reports: the hex board's Iago, or Othello and Io
on a square board, drawn as squares. The LED colours are worked out with the board map given
(`--map`) when it is of that shape, else with the project's map of that shape
(hardware/board.json, hardware/boards/squareN.json).
"""

import json
import threading
import time

from gameboard import boardmap as boardmaps
from gameboard.layout import Layout

from host_sim.simboard import DEFAULT_MAP, ROOT
from host_sim.web import api, records
from host_sim.web.api import ApiError, conflict
from host_sim.web.driver import ACTION_NAMES, Driver, board_snapshot
from host_sim.web.ledview import derived_leds, inferred_disks, layout_of

REOPEN_S = 1.0
STATE_EVERY_S = 2.0          # the state is asked for at least this often
FRAME_S = 0.04               # LED colours are recomposed this often (blinking)
REPLY_S = 3.0


class SerialDriver(Driver):
    mode = "board"

    def __init__(self, hub, port, games_dir=None, baud=115200, map_path=None, opener=None):
        self.hub = hub
        self.port_name = port
        self.games_dir = games_dir
        self.baud = baud
        given = boardmaps.load(str(map_path or DEFAULT_MAP))
        self._given_map = given
        # (state, its board's layout, the board map for its LED colours), replaced as one.
        self._seen = (None, Layout(given.geometry, given.size), given)
        self._opener = opener
        self.port = None
        self.info = {}
        self.saved = []
        self._write_lock = threading.Lock()
        self._waiting = {}
        self._seq = 0
        self._seq_lock = threading.Lock()
        self._refresh = threading.Event()
        self._followups = []
        self._stop = threading.Event()
        self._threads = []
        self._startup_since = None
        self._last_error = None
        self.actions = {"command": self._command_action}

    def start(self):
        self._publish()
        for name, target in (("serial-reader", self._read_loop), ("serial-worker", self._work)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def close(self):
        self._stop.set()
        for thread in self._threads:
            thread.join(5)
        self._close_port()

    @property
    def state(self):
        return self._seen[0]

    def describe(self):
        return "the board on %s" % self.port_name

    def pulse(self):
        """The link's health, for the pages' heartbeat (docs/web.md)."""
        return {"board": "connected" if self.port is not None else "disconnected",
                "clock_ms": None, "stalled_ms": None, "fault": 0}

    # --- the web server's side -----------------------------------------------------------

    def unknown(self, action):
        if action in ACTION_NAMES:
            return conflict("this is a real board: move its disks by hand (only the simulated "
                            "board takes %r from the page)" % action)
        return Driver.unknown(self, action)

    def record(self):
        state, layout, _ = self._seen
        if state is None:
            raise conflict("the board has not reported a game yet")
        return records.record_text(state, "%s board (%s)" % (layout.module.TITLE,
                                                             self.info.get("board", "?")))

    def _command_action(self, body):
        msg = api.host_command(body)      # what the board would refuse never reaches it
        if self.remote is not None:
            self.remote.check_command(msg)
        reply = self.command(msg)
        if not reply.get("ok"):
            raise ApiError(400, "the board refused %s: %s" % (msg["cmd"], reply.get("error")))
        self._refresh.set()
        return reply

    def remote_command(self, msg, quiet=False):
        """A host-link command of the remote session, answered by the board; `quiet`: its
        polls of the state, not written to the console."""
        return self.command(msg, source="poll" if quiet else "remote")

    def command(self, msg, timeout=REPLY_S, source="page"):
        """Send a command and wait for its reply (ApiError if the board is away or silent)."""
        with self._seq_lock:
            self._seq += 1
            rid = "web-%d" % self._seq
        line = api.host_line(msg, rid)
        waiter = [threading.Event(), None, source]
        self._waiting[rid] = waiter
        try:
            self._send(line, source)
            if not waiter[0].wait(timeout):
                raise ApiError(504, "the board did not answer %s within %g s" % (
                    msg.get("cmd"), timeout))
            return waiter[1]
        finally:
            self._waiting.pop(rid, None)

    def _send(self, line, source):
        port = self.port
        if port is None:
            raise conflict("the board is not connected (%s)" % (self._last_error or
                                                                 "opening %s" % self.port_name))
        try:
            with self._write_lock:
                port.write(line.encode() + b"\n")
                port.flush()
        except Exception as exc:   # pyserial raises SerialException (an OSError) and others
            self._lost(exc)
            raise conflict("the board went away: %s" % exc)
        if source != "poll":
            self.hub.log("out", line, source)

    # --- the port ----------------------------------------------------------------------------

    def _open(self):
        if self._opener is not None:
            return self._opener(self.port_name)
        import serial
        return serial.serial_for_url(self.port_name, self.baud, timeout=0.2, write_timeout=2)

    def _close_port(self):
        port, self.port = self.port, None
        if port is not None:
            try:
                port.close()
            except Exception:
                pass

    def _lost(self, exc):
        if self.port is not None:
            self._close_port()
            self._last_error = str(exc)
            self.hub.log("note", "lost %s: %s" % (self.port_name, exc), "server")

    def _read_loop(self):
        buffer = bytearray()
        while not self._stop.is_set():
            if self.port is None:
                if not self._try_open():
                    self._stop.wait(REOPEN_S)
                    continue
                buffer.clear()
            try:
                data = self.port.read(max(1, self.port.in_waiting))
            except Exception as exc:
                self._lost(exc)
                self._publish()
                continue
            buffer.extend(data)
            while b"\n" in buffer:
                line, _, rest = bytes(buffer).partition(b"\n")
                buffer = bytearray(rest)
                self._on_line(line.decode("utf-8", "replace").strip())

    def _try_open(self):
        try:
            port = self._open()
            port.reset_input_buffer()
        except Exception as exc:
            if str(exc) != self._last_error:
                self._last_error = str(exc)
                self.hub.log("note", "cannot open %s: %s (retrying every %g s)" % (
                    self.port_name, exc, REOPEN_S), "server")
                self._publish()
            return False
        self.port = port
        self._last_error = None
        self.hub.log("note", "connected to %s" % self.port_name, "server")
        self._followups.append(("version", None))
        self._refresh.set()
        return True

    def _on_line(self, line):
        if not line:
            return
        try:
            msg = json.loads(line)
        except ValueError:
            self.hub.log("in", line)        # the REPL or a traceback: shown, not parsed
            return
        if not isinstance(msg, dict):
            self.hub.log("in", line)
            return
        rid = msg.get("id")
        waiter = self._waiting.get(rid) if isinstance(rid, str) else None
        if "reply" in msg and waiter is not None:
            if waiter[2] != "poll":
                self.hub.log("in", line)
            waiter[1] = msg
            waiter[0].set()
            return
        self.hub.log("in", line)
        if msg.get("event") == "saved_game":
            self._followups.append(("game", msg.get("game")))
        if "event" in msg:
            self._refresh.set()
            if self.remote is not None:
                self.remote.board_event(msg)

    # --- the worker: state, finished games, LED colours --------------------------------------

    def _work(self):
        last_poll = 0.0
        while not self._stop.is_set():
            self._refresh.wait(FRAME_S)
            now = time.monotonic()
            if self.port is not None and (self._refresh.is_set() or
                                          now - last_poll >= STATE_EVERY_S):
                self._refresh.clear()
                last_poll = now
                self._poll_state()
            while self._followups and self.port is not None:
                kind, arg = self._followups.pop(0)
                self._followup(kind, arg)
            self._publish()
            self.hub.publish_leds(self._led_hexes())

    def _poll_state(self):
        try:
            reply = self.command({"cmd": "state"}, source="poll")
        except ApiError:
            return
        if reply.get("ok") and isinstance(reply.get("state"), dict):
            state = reply["state"]
            self._seen = (state,) + self._shape_of(state)
            if state.get("phase") == "startup":
                if self._startup_since is None:
                    self._startup_since = time.monotonic()
            else:
                self._startup_since = None

    def _shape_of(self, state):
        """(layout, board map) of the board `state` comes from: the map given if it is of
        that shape, else the project's map of it."""
        _, layout, bmap = self._seen
        try:
            fresh = layout_of(state)
        except Exception as exc:     # a state this host cannot read: keep the last shape
            self.hub.log("note", "cannot read the board's state: %s" % exc, "server")
            return layout, bmap
        if (fresh.kind, fresh.size) == (layout.kind, layout.size):
            return layout, bmap
        given = self._given_map
        if (given.geometry, given.size) == (fresh.kind, fresh.size):
            return fresh, given
        path = DEFAULT_MAP if fresh.kind == "hex" else (
            ROOT / "hardware" / "boards" / ("square%d.json" % fresh.size))
        self.hub.log("note", "the board plays %s on a %s board: its LEDs are drawn with %s "
                     "(give its own map with --map)" % (
                         fresh.module.TITLE, "hex" if fresh.kind == "hex" else
                         "%dx%d" % (fresh.size, fresh.size), path.relative_to(ROOT)), "server")
        return fresh, boardmaps.load(str(path))

    def _followup(self, kind, arg):
        try:
            if kind == "version":
                reply = self.command({"cmd": "version"}, source="server")
                self.info = {k: reply.get(k) for k in ("firmware", "board", "protocol", "game")}
            elif kind == "game" and self.games_dir is not None:
                reply = self.command({"cmd": "game", "game": arg}, source="server")
                if reply.get("ok"):
                    path = records.keep_finished(self.games_dir, reply["record"],
                                                 self.info.get("board"), arg)
                    self.saved = (self.saved + [path.name])[-5:]
                    self.hub.log("note", "finished game kept as %s" % path, "server")
        except (ApiError, OSError, KeyError) as exc:
            self.hub.log("note", "%s %s: %s" % (kind, arg if arg is not None else "", exc),
                         "server")

    def _publish(self):
        state, layout, _ = self._seen
        if self.port is None:
            state = None
        connected = self.port is not None
        self.hub.publish_state(board_snapshot(
            self.mode, state, layout,
            connected=connected, powered=connected, port=self.port_name, error=self._last_error,
            board=self.info.get("board"), firmware=self.info.get("firmware"),
            disks=inferred_disks(state, layout) if state else {},
            games_dir=str(self.games_dir) if self.games_dir else None, saved=self.saved,
            remote=self.remote.snapshot() if self.remote is not None else None))

    def _led_hexes(self):
        state, layout, bmap = self._seen
        if self.port is None or state is None:
            return "000000" * layout.cells
        since = self._startup_since
        colours = derived_leds(state, bmap, int(time.monotonic() * 1000),
                               int(since * 1000) if since else 0, layout)
        return "".join("%02x%02x%02x" % c for c in colours)
