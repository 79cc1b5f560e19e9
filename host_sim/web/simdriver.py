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
import os
import queue
import random
import sys
import threading
import time as _time
import traceback

import iago

from host_sim.fakes.machine import WDT_RESET
from host_sim.render import turned_faces
from host_sim.web import records
from host_sim.web.api import ApiError, conflict
from host_sim.web.driver import ACTION_NAMES, Driver, board_snapshot
from host_sim.web.ledview import score_screen
from host_sim.web.ptylink import PtyLink
from host_sim.web.simcontrols import SimControls
from host_sim.web.simhands import SimHands
from host_sim.web.simlink import SimLink

# A SimBoard replaces sys.modules["time"] by a module on virtual time whose sleep() returns at
# once; should this module be imported after one was made, take CPython's own from it.
_time = getattr(_time, "_host_time", _time)

TICK_S = 0.01                # the sim thread's period in real time
MAX_LAG_S = 0.25             # real time lost beyond this (a busy machine) is not caught up
LED_PERIOD_S = 0.03          # LED colours are published at most this often
JOB_TIMEOUT_S = 20
STUCK_S = 3.0                # the sim thread is stuck when a turn takes longer (real time)
MAX_FAULTS = 3               # faults within FAULT_WINDOW_S the board restarts after
FAULT_WINDOW_S = 60.0


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


class SimDriver(SimLink, SimHands, SimControls, Driver):
    """The simulated board behind `iago serve --sim` (driver.py's interface); its actions run
    in the sim thread. Here its life, its thread and what the pages see; its host link, its
    hands and the simulation's controls are parts of their own (simlink.py, simhands.py,
    simcontrols.py) working on the state declared here."""

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
        """Run an API action in the sim thread and return its JSON-ready result (a remote
        play's action in the remote session's thread, which asks the sim thread in turn)."""
        if action.startswith("remote/") and self.remote is not None:
            return self.remote.handle(action[len("remote/"):], body)
        func = self.actions.get(action)
        if func is None:
            raise self.unknown(action)
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

    def remote_command(self, msg, quiet=False):
        """A host-link command of the remote session, answered by the board; `quiet`: its
        polls of the state, not written to the console."""
        return self.call(lambda body: self.command(msg, "poll" if quiet else "remote"))

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
            self.board.boardmap.name, firmware_version()), "server")
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

    # --- what the pages see -------------------------------------------------------------------

    def _state_or_fail(self):
        state = self._last_state
        if state is None:
            raise conflict("the board has not reported a game yet")
        return state

    def _publish_state(self):
        board = self.board
        self._tidy_hand()
        mode = board.mode
        state = mode.state() if mode is not None else None
        if state is not None:
            self._last_state = state
        shown = score_screen(mode, board.app.clock.ticks_ms()) if (
            mode is not None and mode is board.controller) else None
        self.hub.publish_state(board_snapshot(
            self.mode, state, self.layout,
            board=board.boardmap.name, powered=board.powered, firmware=firmware_version(),
            disks={self._name(c): f for c, f in sorted(board.disks.items())},
            hand={self._name(c): f for c, f in sorted(self.hand.items())},
            flipping=sorted(self._name(c) for c in self.flipping),
            replay=self.replay.as_dict() if self.replay else None,
            games_dir=str(self.games_dir) if self.games_dir else None,
            saved=self.saved, fault=self.fault, gestures=True, sim=self._sim_view(),
            score_screen=shown,
            remote=self.remote.snapshot() if self.remote is not None else None))

    def _sim_view(self):
        """The snapshot's `sim`: the simulation's speed, clock and faults."""
        board = self.board
        return {
            "speed": self.speed, "paused": self.paused, "autoflip": self.autoflip,
            "actual_speed": self.actual_speed, "clock_s": board.clock.ms // 1000,
            "bounce_ms": board.bounce_ms, "crosstalk": board.crosstalk,
            "stuck": sorted(self._name(c) for c in board.stuck),
            "restarts": board.restarts,
            # Where the game in progress is kept: "fram", "flash" (and whether one is fitted).
            "store": board.app.saves.store if board.app is not None else None,
            "fram": board.fram is not None,
            "pty": self.pty.path if self.pty is not None else None,
        }

    def _led_hexes(self):
        colours = self.board.circuit.led_colours()
        return "".join("%02x%02x%02x" % tuple(colours[c]) for c in range(self.layout.cells))


def firmware_version():
    """The firmware's version, as its host link's `version` reports it (the page's board too)."""
    from gameboard.app import FIRMWARE_VERSION
    return FIRMWARE_VERSION
