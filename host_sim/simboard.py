"""A simulated board: the unmodified firmware on fake hardware, with physical disks and hands.

The firmware's own `gameboard.app.build()` makes the App, so everything from the board map to
the LED bytes runs as on a Pico; only the hardware modules are the fakes of host_sim/fakes,
and the flash is a folder. `runtime` chooses the Pico's firmware: "micropython" (fakes of
`machine`, `neopixel` and `time`; gameboard.hw) or "circuitpython" (fakes of `board`,
`digitalio`, `keypad`, `microcontroller`, `supervisor`, `usb_cdc`, `neopixel_write` and `time`
under the real adafruit-circuitpython-neopixel; gameboard.cphw, the game saved in the fake
`microcontroller.nvm`). The world around the Pico is modelled here: disks
(with their faces), players' hands with human timing, switch bounce, crosstalk (a magnet
briefly closing a neighbour's switch), stuck switches, keen switches (held closed by their
neighbours' fields when those add up) and power cuts.

    board = SimBoard()
    board.place("E4")            # a disk of the side to move, at rest
    board.flip("D5")             # lift, turn over, put back
    board.leds()["E4"]           # the colour its LED shows
    board.send({"cmd": "state"}); board.replies()
"""

import heapq
import json
import random
import shutil
import tempfile
from pathlib import Path

import iago
from gameboard import NO_CELL
from host_sim.fakes.fram import FramChip, FramPowerCut
from host_sim.fakes.install import install, install_circuitpython
from host_sim.fakes.machine import PWRON_RESET, WDT_RESET, Circuit, MachineReset
from host_sim.fakes.microcontroller import PowerCut as NvmPowerCut
from host_sim.fakes.mptime import Clock
from host_sim.render import turned_faces

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MAP = ROOT / "hardware" / "board.json"
HAND_MS = 350          # a hand lifting a disk, turning it and putting it back
REST_MS = 400          # a placed disk left alone long enough to count
RUNTIMES = ("micropython", "circuitpython")
# The runtime of a SimBoard made without one (`iago serve --sim --runtime` sets it).
DEFAULT_RUNTIME = "micropython"
# Whether a SimBoard made without saying has an FRAM fitted, where its map wires one
# (`iago serve --sim --fram` sets it).
DEFAULT_FRAM = False


class _PowerCut(Exception):
    """The power went in the middle of a flash write (SimBoard.cut_in_save)."""


class SimSerial:
    """The USB serial port as the host sees it."""

    def __init__(self):
        self.inbound = bytearray()
        self.lines = []

    def read(self):
        if not self.inbound:
            return None
        data = bytes(self.inbound[:64])
        del self.inbound[:64]
        return data

    def write(self, text):
        for line in text.splitlines():
            if line.strip():
                self.lines.append(line)


class SimBoard:
    """One simulated board. `strict` makes a firmware exception fail loudly (tests); without
    it the board logs it and restarts, as main.py does on a Pico. `wiring_map`: the map of how
    the board is really wired, when the firmware is given a different (wrong) one in `map_path`.
    `fram`: an FRAM fitted on the map's I2C pins (host_sim/fakes/fram.py), which then keeps the
    game in progress (gameboard/framsaves.py); its chip is `self.fram`."""

    def __init__(self, map_path=None, root=None, diodes=True, seed=0, strict=True,
                 wiring_map=None, runtime=None, fram=None):
        if runtime is None:
            runtime = DEFAULT_RUNTIME
        if runtime not in RUNTIMES:
            raise ValueError("runtime must be one of %s, not %r" % (", ".join(RUNTIMES), runtime))
        self.runtime = runtime
        self.map_path = str(map_path or DEFAULT_MAP)
        self._own_root = root is None
        self.root = str(root or tempfile.mkdtemp(prefix="iago-flash-"))
        Path(self.root).mkdir(parents=True, exist_ok=True)
        self.clock = Clock()
        self.rng = random.Random(seed)
        self.strict = strict
        self.disks = {}            # cell -> face: "D", "L", or "d" / "l" (red side up)
        self.stuck = set()         # cells whose switch is stuck closed
        self.keen = {}             # cell -> how many neighbours' fields adding up close it
        self.bounce_ms = 0         # a switch chatters this long when a disk lands or leaves
        self.crosstalk = 0.0       # chance that a landing disk briefly closes a neighbour
        self.serial = SimSerial()
        self.app = None
        self.restarts = 0
        self._events = []          # (time_us, seq, cell, closed): scheduled switch changes
        self._seq = 0
        self._forced = {}          # cell -> closed, overriding the disk while bouncing
        self._generation = {}      # cell -> count of its switch's changes (stale chatter)
        self.quiet_at_us = 0       # when the chatter of a hand's last change ends
        self._cut_in_save = 0      # the power goes in the middle of this save from now
        self.save_lost = False     # the last start found its saved game torn (CircuitPython)
        from gameboard import boardmap
        self.boardmap = boardmap.load(self.map_path)
        from gameboard.layout import Layout
        self.layout = Layout(self.boardmap.geometry, self.boardmap.size)
        wiring = boardmap.load(str(wiring_map)) if wiring_map else self.boardmap
        self.circuit = Circuit.for_board(wiring, diodes, self.clock)
        self.fram = None           # the FRAM chip, kept across power cuts and reflashing
        if fram is None:
            fram = DEFAULT_FRAM and bool(self.boardmap.fram)
        if fram:
            if not self.boardmap.fram:
                raise ValueError("the board map %s wires no FRAM (its \"fram\" entry)"
                                 % self.map_path)
            self.fram = FramChip(self.boardmap.fram["sda"], self.boardmap.fram["scl"],
                                 clock=self.clock)
            self.circuit.fram = self.fram
        if runtime == "circuitpython":
            from host_sim.fakes.microcontroller import Nvm
            self.nvm = Nvm(clock=self.clock)     # the flash sector: kept across power cuts
            self._uninstall = install_circuitpython(self.circuit, self.clock, self.nvm)
        else:
            self.nvm = None
            self._uninstall = install(self.circuit, self.clock)
        self.power_on()

    # --- power -----------------------------------------------------------------------------

    def power_on(self, cause=PWRON_RESET):
        """Start the firmware as a Pico does at power-on (or after a reset)."""
        from gameboard import app
        self.circuit.reset(cause)
        self._sync_switches()
        hw = serial = None
        if self.runtime == "circuitpython":
            hw, serial = self._circuitpython_boot(cause)
        self.app = app.build(self.root.rstrip("/") + "/", self.map_path,
                             serial or self.serial, self._coin, hw=hw)
        self.save_lost = any('"save_error"' in line and "torn" in line
                             for line in self.serial.lines)
        self._tear_saves(self.app.saves)

    def _circuitpython_boot(self, cause):
        """CircuitPython starting: the port forgets its pins, scanners and watchdog, boot.py
        enables the data port, and the firmware's link reads and writes it."""
        import importlib

        from host_sim.fakes import keypad, microcontroller, usb_cdc
        microcontroller.boot(cause == PWRON_RESET)
        keypad.boot()
        usb_cdc.enable(console=True, data=True)
        usb_cdc.data.inbound = self.serial.inbound      # the host's bytes, as it sends them
        usb_cdc.data.on_write = lambda data: self.serial.write(data.decode())
        hw = importlib.import_module("gameboard.cphw")
        hw.clock = hw.Clock()       # a new VM: the clock's state starts afresh
        return hw, hw.UsbSerial()

    def cut_in_save(self, nth=1):
        """Cut the power in the middle of the firmware's `nth` save of the game from now, and
        leave the board off until power_on(). On MicroPython the save is torn as littlefs
        tears one (the board's file system): a file's new contents are committed only when it
        is closed, so the old save is what the flash keeps. On CircuitPython the power goes
        during one of its flash operations in microcontroller.nvm (_tear_nvm_save)."""
        self._cut_in_save = nth

    def _tear_saves(self, saves):
        write = saves.save

        def save(*args, **kwargs):
            if self._cut_in_save:
                self._cut_in_save -= 1
                if not self._cut_in_save:
                    if saves.store == "fram":
                        self._tear_fram_save(saves, write, args, kwargs)
                    elif self.nvm is not None:
                        self._tear_nvm_save(saves, write, args, kwargs)
                    raise _PowerCut()
            return write(*args, **kwargs)

        saves.save = save

    def _tear_fram_save(self, saves, write, args, kwargs):
        """With an FRAM: the power goes after a byte of the save's record drawn at random (or
        just after its last byte)."""
        size = len(saves.line(*args, **kwargs).encode()) + 12    # framsaves' record
        self.fram.cut_after(self.rng.randint(0, size))
        try:
            write(*args, **kwargs)
        except FramPowerCut:
            pass
        self.fram.cut_after(None)

    def _tear_nvm_save(self, saves, write, args, kwargs):
        """CircuitPython: the power goes during one of the save's flash operations, drawn at
        random (an erase, or a page programmed), leaving it half done (host_sim/fakes/
        microcontroller.Nvm). The save is made once on a copy to count its operations."""
        import copy     # here: the page's MicroPython, which runs this module, has no copy
        nvm = self.nvm
        kept = (bytes(nvm.flash), nvm.erases, nvm.pages, nvm.clock)
        nvm.clock = None
        type(saves).save(copy.copy(saves), *args, **kwargs)   # on a copy: the log's place kept
        operations = nvm.erases + nvm.pages - kept[1] - kept[2]
        nvm.flash[:] = kept[0]
        nvm.erases, nvm.pages, nvm.clock = kept[1:]
        nvm.tear_after(self.rng.randint(1, operations), self.rng)
        try:
            write(*args, **kwargs)
        except NvmPowerCut:
            pass
        nvm.tear_after(0)

    def _coin(self):
        """Othello's coin toss, from the simulation's seeded random numbers (a Pico uses the
        system's random bits)."""
        return self.rng.getrandbits(1)

    def power_cut(self):
        """Cut the power at this instant: the firmware stops, the LEDs go dark; the disks stay
        and the flash keeps what was written."""
        self.app = None
        self.circuit.reset(PWRON_RESET)
        if self.nvm is not None:
            self.nvm.tear_after(0)

    @property
    def powered(self):
        return self.app is not None

    def close(self):
        """Give the fakes back and remove the flash folder if it was made here."""
        self._uninstall()
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- time ------------------------------------------------------------------------------

    def advance(self, ms):
        """Let `ms` milliseconds of virtual time pass, running the firmware if it has power."""
        end = self.clock.us + int(ms * 1000)
        while self.clock.us < end:
            self._apply_due_switches()
            if self.app is None:
                nxt = self._events[0][0] if self._events else end
                self.clock.advance_us(max(1, min(end, nxt) - self.clock.us))
                continue
            try:
                self.app.step()
            except MachineReset as reset:
                self.restarts += 1
                self.power_on(reset.cause)
            except (_PowerCut, NvmPowerCut):
                self.power_cut()
            except Exception as exc:
                if self.strict:
                    raise
                from gameboard.archive import log_exception
                log_exception(self.app.saves, exc)
                self.restarts += 1
                self.power_on(WDT_RESET)

    # --- the players' hands -------------------------------------------------------------------

    def place(self, cell, face=None, rest_ms=REST_MS):
        """Put a disk on an empty hex (default face: the colour of the side to move) and let
        it rest. Raises ValueError if a disk is already there."""
        cell = self._cell(cell)
        if cell in self.disks:
            raise ValueError("%s already holds a disk" % self.layout.cell_name(cell))
        if face is None:
            face = self.mover_face()
        self.disks[cell] = face
        self._switch_changed(cell, True)
        if self.crosstalk and self.rng.random() < self.crosstalk:
            grid = self.layout.grid
            directions = len(grid.NEIGHBOURS) // grid.CELLS
            neighbours = [n for n in (grid.neighbour(cell, d) for d in range(directions))
                          if n is not None and n not in self.disks]
            if neighbours:
                ghost = self.rng.choice(neighbours)
                self._schedule(0, ghost, True)
                self._schedule(self.rng.randint(2, 8), ghost, None)
        self.advance(rest_ms)

    def mover_face(self, waiting=True):
        """The face a player puts up on a disk put down to play: the colour of the side to
        move once a disk already waiting its turn (put down early, blinking in its mover's
        colour) is played (`waiting` False: the side to move now)."""
        if self.app is None:
            return "D"
        referee = self.app.controller.referee
        game = referee.game
        waiting = referee.waiting if waiting else NO_CELL
        if waiting != NO_CELL and not game.cell(waiting):
            game = game.copy()
            game.push(waiting)
        return "D" if game.turn == iago.DARK else "L"

    def lift(self, cell, hold_ms=50):
        """Take a disk off its hex; returns its face. Raises ValueError on an empty hex."""
        cell = self._cell(cell)
        if cell not in self.disks:
            raise ValueError("%s holds no disk" % self.layout.cell_name(cell))
        face = self.disks.pop(cell)
        self._switch_changed(cell, False)
        self.advance(hold_ms)
        return face

    def put(self, cell, face, rest_ms=100):
        self.place(cell, face, rest_ms)

    def flip(self, cell):
        """Lift a disk, turn it over and put it back, at human speed."""
        face = self.lift(cell, HAND_MS)
        self.put(cell, turned_faces(self.layout.flip)[face])

    def slide(self, path, step_ms=40, overlap_ms=0, rest_ms=REST_MS, face=None, arriving=None):
        """Slide a disk (default face: the colour of the side to move) across the hexes of
        `path` and let it rest on the last.

        `step_ms`: how long the disk stays on each hex it passes, one number or one for each
        hex but the last (a slow stretch, a pause). `overlap_ms`: how long before it leaves a
        hex its magnet already closes the next one's switch, as a magnet between two hexes
        does (0: the last one opens as the next one closes). `arriving`: called with the last
        hex just before the disk lands there, as the game may have changed on the way; what it
        returns, if not None, is the face the disk lands with (a hand turns it on the way to
        show what the LED asks for then)."""
        path = [self._cell(c) for c in path]
        steps = step_ms if isinstance(step_ms, (list, tuple)) else [step_ms] * (len(path) - 1)
        if face is None:
            face = self.mover_face()
        self._land(path[0], face)
        for i in range(1, len(path)):
            overlap = min(overlap_ms, steps[i - 1])
            self.advance(steps[i - 1] - overlap)
            if arriving is not None and i == len(path) - 1:
                face = arriving(path[i]) or face
            if overlap:
                self._land(path[i], face)
                self.advance(overlap)
            del self.disks[path[i - 1]]
            self._switch_changed(path[i - 1], False)
            if not overlap:
                self._land(path[i], face)
        self.advance(rest_ms)

    def _land(self, cell, face):
        if cell in self.disks:
            raise ValueError("%s already holds a disk" % self.layout.cell_name(cell))
        self.disks[cell] = face
        self._switch_changed(cell, True)

    def clear(self):
        """Take every disk off the board."""
        for cell in list(self.disks):
            self.lift(cell, 5)
        self.advance(50)

    def stick(self, cell, stuck=True):
        """A switch stuck closed (or mended)."""
        cell = self._cell(cell)
        if stuck:
            self.stuck.add(cell)
        else:
            self.stuck.discard(cell)
        self._sync_switches()

    def make_keen(self, cell, neighbours=6):
        """A switch so sensitive that its neighbours' magnets hold it closed once `neighbours`
        of the six add up along it: the rows toward row I with the disks' coloured face up
        and the others with the red face up, or the other way round (the poles, with every
        magnet glued alike; a reed switch closes for either). None: mended."""
        cell = self._cell(cell)
        if neighbours is None:
            self.keen.pop(cell, None)
        else:
            self.keen[cell] = neighbours
        self._sync_switches()

    def _held_by_field(self, cell):
        grid = self.layout.grid
        row = grid.ROW_OF[cell]
        pull = 0
        for d in range(6):
            n = grid.neighbour(cell, d)
            if n is not None and n in self.disks:
                up = 1 if self.disks[n] in ("D", "L") else -1
                pull += up if grid.ROW_OF[n] > row else -up
        return abs(pull) >= self.keen[cell]

    # --- what one sees ---------------------------------------------------------------------

    def leds(self):
        """{cell name: (r, g, b)} as the LEDs show them now."""
        colours = self.circuit.led_colours()
        return {self.layout.cell_name(c): colours[c] for c in range(self.layout.cells)}

    def led(self, cell):
        return self.circuit.led_colours()[self._cell(cell)]

    @property
    def controller(self):
        """The game's controller (None without power)."""
        return self.app.controller if self.app else None

    @property
    def mode(self):
        """Who has the board: the game's controller, the demo or the self-test."""
        return self.app.mode if self.app else None

    def position(self):
        return self.app.controller.game.text() if self.app else None

    # --- the host link -----------------------------------------------------------------------

    def send(self, message):
        """Send a command (a dict, or a line of text) over the serial port."""
        text = message if isinstance(message, str) else json.dumps(message)
        self.serial.inbound.extend(text.encode() + b"\n")

    def received(self):
        """Every line the board sent since the last call, parsed."""
        lines, self.serial.lines = self.serial.lines, []
        return [json.loads(line) for line in lines]

    def command(self, message, ms=20):
        """Send a command, run `ms`, and return its reply (other messages are kept)."""
        self.send(message)
        self.advance(ms)
        replies = []
        keep = []
        for msg in self.received():
            (replies if "reply" in msg else keep).append(msg)
        self.serial.lines = [json.dumps(m) for m in keep] + self.serial.lines
        if len(replies) != 1:
            raise AssertionError("expected one reply, got %r" % (replies,))
        return replies[0]

    # --- switches ----------------------------------------------------------------------------

    def _schedule(self, after_ms, cell, closed):
        self._seq += 1
        heapq.heappush(self._events, (self.clock.us + int(after_ms * 1000), self._seq, cell,
                                      closed, self._generation.get(cell, 0)))

    def _switch_changed(self, cell, closed):
        # A new change of this switch ends the chatter of the one before: its scheduled
        # flips are stale (else a flip landing after its release would leave it forced).
        self._generation[cell] = self._generation.get(cell, 0) + 1
        self.quiet_at_us = self.clock.us
        self._forced.pop(cell, None)
        if self.bounce_ms:
            # Contacts chatter: a few flips of the opposite state before they settle.
            t = 0.0
            while t < self.bounce_ms:
                t += self.rng.uniform(0.2, 1.5)
                self._schedule(t, cell, not closed)
                t += self.rng.uniform(0.2, 1.5)
                self._schedule(t, cell, closed)
            self._schedule(t + 0.5, cell, None)
            self._forced[cell] = closed
            self.quiet_at_us = self.clock.us + int((t + 0.5) * 1000)
        self._sync_switches()

    def _apply_due_switches(self):
        while self._events and self._events[0][0] <= self.clock.us:
            _, _, cell, closed, generation = heapq.heappop(self._events)
            if generation != self._generation.get(cell, 0):
                continue                  # chatter of a change since superseded
            if closed is None:
                self._forced.pop(cell, None)
            else:
                self._forced[cell] = closed
            self._sync_switches()

    def _sync_switches(self):
        for cell in range(self.layout.cells):
            closed = cell in self.disks or cell in self.stuck
            closed = self._forced.get(cell, closed) or cell in self.stuck
            if cell in self.keen and not closed:
                closed = self._held_by_field(cell)
            self.circuit.set_cell(cell, closed)


    def _cell(self, cell):
        return self.layout.parse_cell(cell) if isinstance(cell, str) else cell
