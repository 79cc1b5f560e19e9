"""The simulated board, live: the unmodified firmware on a SimBoard whose clock follows real time.

One thread, the sim thread, owns the SimBoard: the firmware is not thread-safe and the board's
fakes are process-wide. It loops every TICK_S: runs the jobs the web server queued (`call()`
waits for their result), advances virtual time by the real time passed times the speed factor
(nothing while paused), runs the hands' timed actions (a flip puts its disk back HAND_MS after
lifting it), routes the host-link lines, performs auto-flips and replay steps, and publishes the
state and the LED colours to the hub.

Host-link commands of the page carry ids "page-N" and are answered at once: the board is stepped
(virtual time moves on a few milliseconds, even while paused) until its reply is in. With `pty`,
the board's USB serial port is also offered as a pseudo-terminal, so another program (`iago
serve --port`, a terminal) talks to the simulated board as to a real one; its replies go back
to it only, events go to both.

A bug in the sim thread never stops it: the exception is logged and reported to the pages (the
snapshot's `fault`, docs/web.md), and the board restarts into its saved game as a real board's
watchdog would. After MAX_FAULTS within FAULT_WINDOW_S the simulator gives up; from then on,
and while the thread is stuck, every request is answered at once with a 503.
"""

import heapq
import json
import os
import queue
import random
import sys
import threading
import time as _time
import traceback

import iago
from gameboard.controller import NONE, STARTUP

from host_sim.fakes.machine import WDT_RESET
from host_sim.render import FACES, turned_faces
from host_sim.web import api, records
from host_sim.web.api import ApiError, bad, conflict
from host_sim.web.ledview import layout_dict
from host_sim.web.ptylink import PtyLink
from host_sim.web.replay import Replay

# A SimBoard replaces sys.modules["time"] by a module on virtual time whose sleep() returns at
# once; should this module be imported after one was made, take CPython's own from it.
_time = getattr(_time, "_host_time", _time)

TICK_S = 0.01                # the sim thread's period in real time
MAX_LAG_S = 0.25             # real time lost beyond this (a busy machine) is not caught up
LED_PERIOD_S = 0.03          # LED colours are published at most this often
HAND_MS = 350                # a flip by hand: the disk is off its hex this long
AUTO_HAND_MS = 200           # an auto-flip is quicker
AUTO_GAP_MS = 120            # between two auto-flips
AUTO_WAIT_MS = 150           # before the first auto-flip of a placement
REPLY_MS = 500               # virtual time a command may take to answer
CLEARED_MS = 100             # a cleared board is seen empty before a replay's new game
JOB_TIMEOUT_S = 20
STUCK_S = 3.0                # the sim thread is stuck when a turn takes longer (real time)
MAX_FAULTS = 3               # faults within FAULT_WINDOW_S the board restarts after
FAULT_WINDOW_S = 60.0
SPEED_RANGE = (0.25, 8.0)
# The POST /api/... actions of the simulated board (the real one takes only "command").
ACTION_NAMES = ("place", "lift", "flip", "put-away", "clear", "command", "autoflip", "speed",
                "pause", "power", "fault/bounce", "fault/crosstalk", "fault/stick", "fault/lift",
                "replay/load", "replay/step", "replay/stop")


class _Job:
    def __init__(self, func, body):
        self.func = func
        self.body = body
        self.done = threading.Event()
        self.result = None
        self.error = None
        self._lock = threading.Lock()
        self._state = "queued"       # then "running", or "abandoned" by a caller gone

    def claim(self, state):
        """Move a queued job to `state`; False if it was taken already."""
        with self._lock:
            if self._state != "queued":
                return False
            self._state = state
            return True


class SimDriver:
    """The simulated board behind `iago serve --sim`; `handle(action, body)` is its API."""

    mode = "sim"

    def __init__(self, hub, games_dir=None, flash_dir=None, speed=1.0, seed=None, pty=False,
                 map_path=None):
        self.hub = hub
        self.map_path = map_path     # the board map (None: the hex board of hardware/board.json)
        self.layout = None           # the board's shape and game (gameboard.layout), once built
        self.flipped = turned_faces(iago.CAPTIVE)   # {face: the face turned over}, per layout
        self.games_dir = games_dir
        self.flash_dir = flash_dir
        self.speed = speed
        self.paused = False
        self.autoflip = False
        self.seed = seed
        self.rng = random.Random(seed)
        self.board = None
        self.hand = {}               # cell -> face: disks lifted off their hex by hand
        self.flipping = set()        # cells whose disk is being turned over
        self.remove_asked = set()    # cells of taken-back placements (auto-flip removes them)
        self.replay = None
        self.saved = []              # the latest game records kept in games_dir
        self.pty = None
        self._want_pty = pty
        self._jobs = queue.Queue()
        self._timeline = []          # (virtual us, seq, action, cell, face)
        self._seq = 0
        self._replies = {}
        self._asked = set()          # ids of the page's commands awaiting their replies
        self._followups = []
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._failed = None
        self._thread = None
        self._turned = _time.perf_counter()   # the sim thread last finished a turn
        self._fault_times = []
        self.fault = None            # the latest fault of the sim thread (docs/web.md)
        self._released = False
        self._last_state = None
        self._speed_window = (0.0, 0)
        self._overshoot_us = 0       # how far the board's clock ran past its last target
        self.actual_speed = 0.0
        self.actions = {
            "place": self._place, "lift": self._lift, "flip": self._flip,
            "put-away": self._put_away, "clear": self._clear, "command": self._command_action,
            "autoflip": self._set_autoflip, "speed": self._set_speed, "pause": self._set_pause,
            "power": self._power, "fault/bounce": self._bounce,
            "fault/crosstalk": self._crosstalk, "fault/stick": self._stick,
            "fault/lift": self._unexpected_lift, "replay/load": self._replay_load,
            "replay/step": self._replay_step, "replay/stop": self._replay_stop,
        }
        assert set(self.actions) == set(ACTION_NAMES)   # MicroPython (the page) keeps no key order

    # --- life -----------------------------------------------------------------------------

    def start(self):
        self._thread = threading.Thread(target=self._run, name="sim", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._failed is not None:
            raise self._failed
        if not self._ready.is_set():
            raise RuntimeError("the simulated board did not start within 30 s")

    def close(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
            if not self._thread.is_alive():
                self._release()

    def _release(self):
        if self._released:
            return
        self._released = True
        if self.pty is not None:
            self.pty.close()
        if self.board is not None:
            self.board.close()

    def _running(self):
        return self._thread is not None and self._thread.is_alive()

    def pulse(self):
        """The sim thread's health, for the pages' heartbeat: "running", "stuck" (no turn
        for STUCK_S) or "stopped" (it gave up after repeated faults)."""
        stalled = _time.perf_counter() - self._turned
        board = self.board
        return {"board": ("stopped" if not self._running() else
                          "stuck" if stalled > STUCK_S else "running"),
                "clock_ms": board.clock.ms if board is not None else None,
                "stalled_ms": int(stalled * 1000),
                "fault": self.fault["id"] if self.fault else 0}

    def describe(self):
        text = "the simulated board (firmware on virtual time, speed %gx)" % self.speed
        if self.layout is not None and self.layout.kind != "hex":
            text = "the simulated %s board playing %s (firmware on virtual time, speed %gx)" % (
                self.board.boardmap.name, self.layout.module.TITLE, self.speed)
        if self.pty is not None:
            text += "; its USB serial port is %s" % self.pty.path
        return text

    # --- the web server's side ----------------------------------------------------------

    def handle(self, action, body):
        """Run an API action in the sim thread and return its JSON-ready result."""
        func = self.actions.get(action)
        if func is None:
            raise ApiError(404, "unknown action %r" % action)
        return self.call(func, body)

    def call(self, func, body=None, timeout=JOB_TIMEOUT_S):
        """Run func(body) in the sim thread. A stopped or stuck thread is answered with a 503
        at once, never by waiting out the timeout."""
        if self._stop.is_set():
            raise ApiError(503, "the simulator is shutting down")
        job = _Job(func, body if body is not None else {})
        self._jobs.put(job)
        deadline = _time.perf_counter() + timeout
        while not job.done.wait(0.05):
            if not self._running():
                raise ApiError(503, self._stopped_message())
            stalled = _time.perf_counter() - self._turned
            if stalled > STUCK_S or _time.perf_counter() > deadline:
                job.claim("abandoned")       # never run later, when nobody waits for it
                raise ApiError(503, "the simulator is stuck: no turn for %.1f s" % stalled
                               if stalled > STUCK_S else
                               "the simulator did not answer within %g s" % timeout)
        if job.error is not None:
            raise job.error
        return job.result

    def _stopped_message(self):
        if self._stop.is_set():
            return "the simulator is shutting down"
        if self.fault is not None:
            return "the simulator stopped after repeated faults (the last: %s); restart " \
                   "iago serve" % self.fault["error"]
        return "the simulator stopped"

    def record(self):
        return self.call(lambda body: records.record_text(self._state_or_fail(),
                                                          "%s board (simulated)" % self._title()))

    def _title(self):
        return self.layout.module.TITLE if self.layout is not None else "Iago"

    # --- the sim thread -------------------------------------------------------------------

    def _run(self):
        from host_sim.simboard import SimBoard
        try:
            self.board = SimBoard(map_path=self.map_path, root=self.flash_dir, strict=False,
                                  seed=self.seed if self.seed is not None else 0)
            self.layout = self.board.layout
            self.flipped = turned_faces(self.layout.flip)
            if self._want_pty:
                self.pty = PtyLink(self.hub)
        except Exception as exc:
            self._failed = exc
            self._ready.set()
            return
        self.hub.log("note", "simulated board %s, firmware %s" % (
            self.board.boardmap.name, _firmware_version()), "server")
        self._publish_state()
        self.hub.publish_leds(self._led_hexes())
        self._ready.set()
        try:
            while not self._stop.is_set():
                try:
                    self._turns()
                except Exception as exc:    # a bug: reported, and the board restarts
                    if not self._recover(exc):
                        return
        finally:
            self._fail_pending_jobs()
            if self._stop.is_set():
                self._release()

    def _turns(self):
        last = _time.perf_counter()
        last_leds = 0.0
        self._speed_window = (last, self.board.clock.us)
        while not self._stop.is_set():
            self._turned = _time.perf_counter()
            self._run_jobs(TICK_S)
            now = _time.perf_counter()
            self._pace(min(now - last, MAX_LAG_S))
            last = now
            if self.pty is not None:
                self.board.serial.inbound.extend(self.pty.read())
            self._drain()
            self._after_messages()
            self._autoflip()
            if self.replay is not None:
                self.replay.tick(self)
            self._measure_speed(now)
            self._publish_state()
            if now - last_leds >= LED_PERIOD_S:
                last_leds = now
                self.hub.publish_leds(self._led_hexes())

    def _recover(self, exc):
        """Report a fault of the sim thread and restart the board into its saved game, as a
        real board's watchdog would; False once it keeps failing (the thread then ends)."""
        now = _time.perf_counter()
        self._fault_times = [t for t in self._fault_times if now - t < FAULT_WINDOW_S] + [now]
        give_up = len(self._fault_times) > MAX_FAULTS
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        sys.stderr.write("iago serve: simulator fault\n%s" % "".join(
            traceback.format_exception(exc)))
        if not give_up:
            try:
                self._restart_board()
            except Exception as again:
                sys.stderr.write("iago serve: the board did not restart: %r\n" % again)
                give_up = True
        board = self.board
        self.fault = {
            "id": (self.fault["id"] if self.fault else 0) + 1,
            "error": ("%s: %s" % (type(exc).__name__, exc))[:300],
            "where": "%s:%d in %s" % (os.path.basename(frame.filename), frame.lineno,
                                      frame.name),
            "at_ms": int(_time.time() * 1000),
            "clock_ms": board.clock.ms if board is not None else None,
            "restarted": not give_up,
        }
        self.hub.log("note", "simulator fault: %s (%s); %s" % (
            self.fault["error"], self.fault["where"],
            "the board restarted into its saved game" if not give_up else
            "it keeps failing, so the simulator stopped: restart iago serve"), "server")
        # Not _publish_state: the fault may be in it.
        self.hub.publish_state(dict(self.hub.state() or {}, fault=self.fault))
        return not give_up

    def _restart_board(self):
        """What a watchdog reset leaves: the disks where the hands put them, the firmware
        started again from its flash, the driver's own plans (replay, flips, replies) gone."""
        self._timeline.clear()
        self.flipping.clear()
        self.remove_asked.clear()
        self.replay = None
        self._replies.clear()
        self._asked.clear()
        self._followups.clear()
        if self.board.powered:
            self.board.restarts += 1
            self.board.power_on(WDT_RESET)

    def _run_jobs(self, wait):
        deadline = _time.perf_counter() + wait
        while True:
            remaining = deadline - _time.perf_counter()
            try:
                job = self._jobs.get(timeout=max(0.0, remaining)) if remaining > 0 else \
                    self._jobs.get_nowait()
            except queue.Empty:
                return
            if not job.claim("running"):
                continue
            try:
                job.result = job.func(job.body)
            except ApiError as exc:
                job.error = exc
            except Exception as exc:  # a bug here must not stop the board
                self.hub.log("note", "server error: %r" % exc, "server")
                job.error = ApiError(500, "internal error: %s" % exc)
            job.done.set()
            self._turned = _time.perf_counter()
            self._publish_state()

    def _fail_pending_jobs(self):
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                return
            job.error = ApiError(503, self._stopped_message())
            job.done.set()

    def _advance_to(self, target_us):
        """Run the board up to virtual time `target_us`, with the hands' timed actions."""
        board = self.board
        while True:
            due = self._timeline[0][0] if self._timeline else None
            stop = target_us if due is None or due > target_us else due
            if board.clock.us < stop:
                board.advance((stop - board.clock.us) / 1000)
            if due is not None and due <= board.clock.us:
                _, _, action, cell, face = heapq.heappop(self._timeline)
                action(cell, face)
                continue
            if board.clock.us >= target_us:
                return

    def _pace(self, real_s):
        """Run the board `real_s` seconds of real time on, times the speed (nothing while
        paused). The firmware runs in whole loop iterations, so a run ends a little past its
        target: the next run pays that back, or the board's clock would gain some 7 % on real
        time. Board time spent outside the pacing (a command awaiting its reply, a replay
        step) is not paid back: the board lived it."""
        if self.paused:
            return
        target = self.board.clock.us - self._overshoot_us + int(real_s * self.speed * 1e6)
        self._advance_to(target)
        self._overshoot_us = max(0, self.board.clock.us - target)

    def _schedule(self, after_ms, action, cell, face=None):
        self._seq += 1
        heapq.heappush(self._timeline, (self.board.clock.us + int(after_ms * 1000), self._seq,
                                        action, cell, face))

    def _measure_speed(self, now):
        since, clock = self._speed_window
        if now - since >= 1.0:
            self.actual_speed = round((self.board.clock.us - clock) / 1e6 / (now - since), 2)
            self._speed_window = (now, self.board.clock.us)

    # --- the host link ----------------------------------------------------------------------

    def _drain(self):
        for line in self.board.serial.lines:
            try:
                msg = json.loads(line)
            except ValueError:
                self.hub.log("in", line)
                continue
            if not isinstance(msg, dict):
                self.hub.log("in", line)
                continue
            if "reply" in msg:
                rid = msg.get("id")
                if isinstance(rid, str) and rid in self._asked:
                    self._asked.discard(rid)
                    self._replies[rid] = msg
                    self.hub.log("in", line)
                else:
                    self.hub.log("in", line, "pty")
                    self._to_pty(line)
                continue
            self.hub.log("in", line)
            self._to_pty(line)
            self._on_event(msg)
        self.board.serial.lines = []

    def _on_event(self, msg):
        event = msg.get("event")
        if event == "take_back" and isinstance(msg.get("cell"), str):
            self.remove_asked.add(self.layout.parse_cell(msg["cell"]))
        elif event == "saved_game" and self.games_dir is not None:
            if self._replayed_to_its_end():
                self.hub.log("note", "finished game %s is the record replayed to its end: not "
                             "kept again" % msg.get("game"), "server")
            else:
                self._followups.append(msg.get("game"))
        elif event in ("new_game", "startup"):
            self.remove_asked.clear()

    def _replayed_to_its_end(self):
        """Whether the game on the board is the loaded record's, every placement of it
        replayed: the player has that record already."""
        ctl = self._game()
        return (self.replay is not None and ctl is not None and
                [self._name(c) for c in ctl.game.move_stack] == self.replay.moves)

    def _after_messages(self):
        while self._followups:
            game_id = self._followups.pop(0)
            try:
                reply = self.command({"cmd": "game", "game": game_id})
                path = records.keep_finished(self.games_dir, reply["record"],
                                             self.board.boardmap.name, game_id)
            except (ApiError, OSError, KeyError) as exc:
                self.hub.log("note", "could not keep finished game %s: %s" % (game_id, exc),
                             "server")
                continue
            self.saved = (self.saved + [path.name])[-5:]
            self.hub.log("note", "finished game kept as %s" % path, "server")

    def command(self, msg):
        """Send a host-link command and return the board's reply (ApiError if none)."""
        board = self.board
        if not board.powered:
            raise conflict("the board has no power, so it answers no command")
        self._seq += 1
        rid = "page-%d" % self._seq
        line = api.host_line(msg, rid)
        board.send(line)
        self._asked.add(rid)
        self.hub.log("out", line, "page")
        deadline = board.clock.us + REPLY_MS * 1000
        while rid not in self._replies and board.clock.us < deadline and board.powered:
            self._advance_to(board.clock.us + 2000)
            self._drain()
        reply = self._replies.pop(rid, None)
        self._asked.discard(rid)
        if reply is None:
            raise ApiError(504, "the board did not answer %s" % msg.get("cmd"))
        return reply

    def _command_action(self, body):
        msg = api.host_command(body)
        reply = self.command(msg)
        if not reply.get("ok"):
            raise ApiError(400, "the board refused %s: %s" % (msg["cmd"], reply.get("error")))
        return reply

    def _to_pty(self, line):
        if self.pty is not None:
            self.pty.write(line)

    # --- hands ------------------------------------------------------------------------------

    def _game(self):
        """The game's controller (None without power): the demo or the self-test may have the
        board's LEDs, but never its game."""
        return self.board.app.game if self.board.powered else None

    def _game_face(self, cell):
        """The face the game has on `cell` ("D", "L", "d", "l") or None."""
        ctl = self._game()
        if ctl is not None:
            return FACES.get(ctl.game.cell(cell))
        if self._last_state is not None:
            return FACES.get(records.position_board(self._last_state).cell(cell))
        return None

    def _turn_face(self):
        ctl = self._game()
        if ctl is not None:
            return "D" if ctl.game.turn == iago.DARK else "L"
        if self._last_state is not None:
            return "D" if self._last_state["turn"] == "dark" else "L"
        return "D"

    def _put_down(self, cell, face):
        self.board.place(cell, face, rest_ms=0)

    def _cell(self, body):
        """The cell named in body["cell"] ("E4" on the hex board, "d3" on a square one)."""
        return api.cell(body, parse=self.layout.parse_cell)

    def _name(self, cell):
        return self.layout.cell_name(cell)

    def _place(self, body):
        cell = self._cell(body)
        face = body.get("face")
        if face is not None and face not in self.flipped:
            if "d" not in self.flipped:
                raise bad("face must be D or L, not %r" % (face,))
            raise bad("face must be one of D, L, d, l (red side up: d, l), not %r" % (face,))
        if cell in self.flipping:
            raise conflict("%s: its disk is being turned over" % self._name(cell))
        if cell in self.board.disks:
            raise conflict("%s already holds a disk" % self._name(cell))
        if face is None:
            face = self.hand.get(cell) or self._game_face(cell) or self._turn_face()
        self.hand.pop(cell, None)
        self._put_down(cell, face)
        return {"cell": self._name(cell), "face": face}

    def _lift(self, body):
        cell = self._cell(body)
        face = self._take(cell)
        return {"cell": self._name(cell), "face": face,
                "in_hand": cell in self.hand}

    def _take(self, cell):
        """Lift the disk on `cell`: into the hand if the game has a disk there, else away."""
        if cell in self.flipping:
            raise conflict("%s: its disk is being turned over" % self._name(cell))
        if cell not in self.board.disks:
            raise conflict("%s holds no disk" % self._name(cell))
        face = self.board.lift(cell, hold_ms=0)
        if self._game_face(cell) is not None or not self.board.powered:
            self.hand[cell] = face
        self.remove_asked.discard(cell)
        return face

    def _flip(self, body):
        cell = self._cell(body)
        face = self._start_flip(cell, HAND_MS)
        return {"cell": self._name(cell), "face": self.flipped[face]}

    def _start_flip(self, cell, hand_ms):
        if cell in self.flipping:
            raise conflict("%s: its disk is being turned over" % self._name(cell))
        if cell not in self.board.disks:
            raise conflict("%s holds no disk to turn over" % self._name(cell))
        face = self.board.lift(cell, hold_ms=0)
        self.hand[cell] = face
        self.flipping.add(cell)
        self._schedule(hand_ms, self._finish_flip, cell, self.flipped[face])
        return face

    def _finish_flip(self, cell, face):
        self.flipping.discard(cell)
        if self.hand.pop(cell, None) is not None and cell not in self.board.disks:
            self._put_down(cell, face)

    def _put_away(self, body):
        gone = sorted(self._name(c) for c in self.hand if c not in self.flipping)
        for name in gone:
            del self.hand[self.layout.parse_cell(name)]
        return {"put_away": gone}

    def _clear(self, body):
        self._timeline.clear()
        self.flipping.clear()
        for cell in list(self.board.disks):
            self.board.lift(cell, hold_ms=0)
        self.hand.clear()
        self.remove_asked.clear()
        self.replay = None
        return {"cleared": True}

    def _tidy_hand(self):
        """A disk in hand whose hex the game no longer has goes back in the box."""
        if not self.board.powered:
            return
        for cell in list(self.hand):
            if cell not in self.flipping and (self._game_face(cell) is None or
                                              cell in self.board.disks):
                del self.hand[cell]

    def _autoflip(self):
        if not self.autoflip or not self.board.powered or self._timeline or self.flipping:
            return
        ctl = self.board.controller
        if ctl is not self._game() or ctl.phase == STARTUP:   # the demo, self-test, light check
            return
        for cell in list(self.remove_asked):
            if cell in self.board.disks and ctl.game.cell(cell) == iago.EMPTY:
                self.board.lift(cell, hold_ms=0)
            self.remove_asked.discard(cell)
        if ctl.tentative != NONE:
            return
        pending = [c for c in ctl.flips_pending() if c in self.board.disks]
        for i, cell in enumerate(pending):
            self._schedule(AUTO_WAIT_MS + i * (AUTO_HAND_MS + AUTO_GAP_MS), self._auto_flip_one,
                           cell)

    def _auto_flip_one(self, cell, _face):
        ctl = self.board.controller
        if (ctl is not None and cell in self.board.disks and cell not in self.flipping and
                cell in ctl.flips_pending()):
            self._start_flip(cell, AUTO_HAND_MS)

    # --- settings of the simulation ---------------------------------------------------------

    def _set_autoflip(self, body):
        self.autoflip = api.flag(body, "on")
        return {"autoflip": self.autoflip}

    def _set_speed(self, body):
        self.speed = api.number(body, "speed", *SPEED_RANGE)
        return {"speed": self.speed}

    def _set_pause(self, body):
        self.paused = api.flag(body, "paused")
        return {"paused": self.paused}

    def _power(self, body):
        on = api.flag(body, "on")
        if on and not self.board.powered:
            self.board.power_on()
            self.hub.log("note", "power on", "sim")
        elif not on and self.board.powered:
            self.board.power_cut()
            self._replies.clear()
            self._asked.clear()
            self.hub.log("note", "power cut", "sim")
        return {"powered": self.board.powered}

    def _bounce(self, body):
        self.board.bounce_ms = api.number(body, "ms", 0, 50)
        return {"bounce_ms": self.board.bounce_ms}

    def _crosstalk(self, body):
        self.board.crosstalk = api.number(body, "chance", 0, 1)
        return {"crosstalk": self.board.crosstalk}

    def _stick(self, body):
        cell = self._cell(body)
        stuck = api.flag(body, "stuck", True, required=False)
        self.board.stick(cell, stuck)
        self.hub.log("note", "%s switch %s" % (self._name(cell),
                                                "stuck closed" if stuck else "mended"), "sim")
        return {"stuck": sorted(self._name(c) for c in self.board.stuck)}

    def _unexpected_lift(self, body):
        cells = sorted(c for c in self.board.disks if c not in self.flipping)
        if not cells:
            raise conflict("there is no disk on the board to knock off")
        cell = self.rng.choice(cells)
        face = self.board.lift(cell, hold_ms=0)
        self.hand[cell] = face
        self.hub.log("note", "a disk was knocked off %s" % self._name(cell), "sim")
        return {"cell": self._name(cell), "face": face}

    # --- replay -----------------------------------------------------------------------------

    def _replay_load(self, body):
        """Load a record to replay; with "check": true only read and check it (the page asks
        before a game in progress is thrown away only for a record it can replay)."""
        check = api.flag(body, "check", False, required=False)
        if self.layout.kind != "hex":
            raise conflict("the square board tosses its own coin for who starts, so it replays "
                           "no record: load it on the table page (the game chooser) instead")
        replay = Replay.from_text(api.field(body, "record", str))
        if not self.board.powered:
            raise conflict("the board has no power")
        if check:
            return {"moves": len(replay.moves), "rules": replay.rules}
        self._clear({})
        # As a hand would, before the new game: else the new game would see the old disks
        # still there (a disk left on the centre long enough would start the demo).
        self._advance_to(self.board.clock.us + CLEARED_MS * 1000)
        self.command({"cmd": "new_game", "rules": replay.rules})
        self.replay = replay
        self.hub.log("note", "replaying a record of %d placements (%s)" % (
            len(replay.moves), replay.rules), "sim")
        return {"moves": len(replay.moves)}

    def _replay_step(self, body):
        if self.replay is None:
            raise conflict("no record is loaded for replay")
        return {"target": self.replay.aim(body)}

    def _replay_stop(self, body):
        self.replay = None
        return {"replay": None}

    # --- what the pages see -------------------------------------------------------------------

    def _state_or_fail(self):
        state = self._last_state
        if state is None:
            raise conflict("the board has not reported a game yet")
        return state

    def _publish_state(self):
        board = self.board
        self._tidy_hand()
        ctl = board.controller
        state = ctl.state() if ctl is not None else None
        if state is not None:
            self._last_state = state
        self.hub.publish_state({
            "mode": self.mode,
            "connected": True,
            "powered": board.powered,
            "board": board.boardmap.name,
            "firmware": _firmware_version(),
            "state": state,
            # The self-test's state has no position to count.
            "areas": records.areas(state) if state and "position" in state else None,
            "movers": records.movers(state) if state and "position" in state else None,
            "layout": layout_dict(self.layout),
            "disks": {self._name(c): f for c, f in sorted(board.disks.items())},
            "hand": {self._name(c): f for c, f in sorted(self.hand.items())},
            "flipping": sorted(self._name(c) for c in self.flipping),
            "replay": self.replay.as_dict() if self.replay else None,
            "games_dir": str(self.games_dir) if self.games_dir else None,
            "saved": self.saved,
            "fault": self.fault,
            "gestures": True,
            "sim": {
                "speed": self.speed, "paused": self.paused, "autoflip": self.autoflip,
                "actual_speed": self.actual_speed, "clock_s": board.clock.ms // 1000,
                "bounce_ms": board.bounce_ms, "crosstalk": board.crosstalk,
                "stuck": sorted(self._name(c) for c in board.stuck),
                "restarts": board.restarts,
                "pty": self.pty.path if self.pty is not None else None,
            },
        })

    def _led_hexes(self):
        colours = self.board.circuit.led_colours()
        return "".join("%02x%02x%02x" % tuple(colours[c]) for c in range(self.layout.cells))


def _firmware_version():
    from gameboard.app import FIRMWARE_VERSION
    return FIRMWARE_VERSION
