"""Self-test of a freshly built board: every LED in chain order, every switch by name, then
every switch on a full board.

`SelfTest` is a mode (gameboard/modes.py) in the game's place: the app feeds it the same
debounced switch events, ticks it and shows its `frame`, and sends its `outbox` on the host
link. It never plays and never saves. Four stages:

1. Lights (about 10 s): the LEDs light one at a time in chain order, 150 ms each, then all in
   a low white for a second. A dark LED, or one lit out of turn, shows where the chain or the
   board map is wrong. The board must be empty meanwhile.
2. Checklist: the board asks for a disk on each hex in order A1, A2, ... I9 by blinking it.
   The switch that closes must be the asked hex's: the hex then turns green. A closure on any
   other hex is a swapped or miswired switch (both names are reported, both hexes turn red); an
   asked hex that does not close within `ask_ms` (20 s) is silent (red) and skipped. A switch
   that was still closed when the checklist began, on the empty board, is stuck (red) and is
   not asked.
3. Full board (the hex board): 18 rounds, two a row of hexes from A to I. In a round every
   other hex of that row is to be left empty and every other hex covered, the rows above with
   the disks' coloured face up, that row and those below with the red face up: with every
   magnet glued the same way round (hardware/README.md), the poles that add up along the
   empty hexes' switches, the worst pattern the sensing check finds. Covered hexes still to
   fill blink in the face's colour (warm white: a coloured face up; the captive red: the red
   face up). Once every covered hex reads closed and the board has been still for a second,
   each empty hex must read open: one still closed after `ask_ms` is held by its neighbours'
   fields (named as `held`); a hex to cover that stays open while nothing moves for `ask_ms`
   does not close under the full board (`open`). Leaving the board (nearly) bare for
   `ask_ms` when the stage begins skips it.
4. Done: every hex green if nothing was found, else the faulty hexes red and the rest dark.

Every switch change is reported on the host link as it happens:
`{"event": "selftest", "cell": "C3", "closed": true}` (with `"asked": "C3"` during the
checklist); each asked hex as `selftest_ask`, each fault as `selftest_fault` and the end as
`{"event": "selftest_done", "stuck": [...], "swapped": [[asked, seen], ...], "silent": [...],
"passed": n, "held": [...], "open": [...], "board": "done" | "skipped" | "none"}`, each full-board
round as `{"event": "selftest_board", "round": k, "rounds": 18, "row": "B", "empty": [...]}`
(docs/board.md). Pure logic, time as an argument; steady ticks and frames allocate nothing.
"""

from gameboard import elapsed, palette
from gameboard.layout import hex_layout
from gameboard.modes import NotPlaying
from gameboard.settings import Settings

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

NONE = const(255)
CHAIN_STEP_MS = const(150)   # each LED alone, in chain order
ALL_ON_MS = const(1000)      # then every LED in a low white
ASK_MS = const(20000)        # an asked hex that does not close within this is silent
_BLINK_MS = const(300)

SETTLE_MS = const(1000)      # the full board still this long before its empty hexes count
ROUNDS = const(18)           # the full board: two rounds a row, A to I

# Stages.
LIGHTS = const(0)
ALL_ON = const(1)
CHECKLIST = const(2)
DONE = const(3)
BOARD = const(4)
PHASE_NAMES = ("lights", "all_on", "checklist", "done", "board")

# What a full-board round wants on a hex.
EMPTY = const(0)
COLOUR_UP = const(1)         # a disk, its coloured (dark or light) face up
RED_UP = const(2)            # a disk, its red face up

# What the checklist found for a hex.
UNTESTED = const(0)
PASSED = const(1)
STUCK = const(2)
SWAPPED = const(3)
SILENT = const(4)
# ... and the full board (`under`).
HELD = const(1)              # closed while it had to be empty: its neighbours' fields
OPEN = const(2)              # open while it had to be covered

_WHITE = (255, 255, 255)
_LOW_WHITE = (100, 100, 100)   # about 9% of full power after gamma: 61 LEDs stay in budget
_OFF = (0, 0, 0)
# The palettes a colour a tuple, as _put takes them (built once: compose allocates nothing).
_PALETTES = tuple(tuple(palette.rgb(pal, k) for k in range(len(pal) // 3))
                  for pal in palette.PALETTES)


def _put(frame, cell, rgb):
    i = cell * 3
    frame[i] = rgb[0]
    frame[i + 1] = rgb[1]
    frame[i + 2] = rgb[2]


class SelfTest(NotPlaying):
    """The self-test, with the controller's interface (switch, tick, compose, frame, outbox,
    dirty, settings).

    settings    the board's Settings (brightness and palette are used)
    now         the time it starts, in ms
    chain       the cells in LED chain order: the board map's cell_of_led (default: cell order)
    frame       the bytearray(3 per cell) to compose into (default: a new one); pass the one the LED
                output already reads, e.g. the controller's frame
    closed      the switches already closed when it starts (a byte a cell, 1 = closed), e.g.
                the controller's `present` when entered from a game
    layout      the board's shape (gameboard/layout.py; default the hex board)
    ask_ms      how long an asked hex may stay open before it counts as silent
    """

    busy = "the board is in its self-test: restart it to play"

    def __init__(self, settings=None, now=0, chain=None, frame=None, closed=None, ask_ms=ASK_MS,
                 layout=None):
        self.settings = settings or Settings()
        layout = layout or hex_layout()
        self.name = layout.cell_name
        _CELLS = self.n = layout.cells
        if chain is None:
            chain = bytes(range(_CELLS))
        if len(chain) != _CELLS or sorted(chain) != list(range(_CELLS)):
            raise ValueError("chain must list each of the %d cells once, in LED order" % _CELLS)
        self.chain = bytes(chain)
        if frame is None:
            frame = bytearray(_CELLS * 3)
        if not isinstance(frame, bytearray) or len(frame) != _CELLS * 3:
            raise ValueError("frame must be a bytearray of %d bytes (RGB for each hex)"
                             % (_CELLS * 3))
        self.frame = frame
        if type(ask_ms) is not int or ask_ms < 1:
            raise ValueError("ask_ms must be a whole number of milliseconds, at least 1")
        self.ask_ms = ask_ms
        self.present = bytearray(_CELLS)   # 1 = the switch is closed now
        if closed is not None:
            if len(closed) != _CELLS:
                raise ValueError("closed must hold one byte for each of the %d hexes" % _CELLS)
            for c in range(_CELLS):
                self.present[c] = 1 if closed[c] else 0
        self.result = bytearray(_CELLS)    # UNTESTED, PASSED, STUCK, SWAPPED or SILENT
        self.fault = bytearray(_CELLS)     # 1 = shown red: stuck, silent, or in a swapped pair
        self.swapped = []                  # [asked cell, seen cell] in the order found
        self.outbox = []
        self.phase = LIGHTS
        self.phase_since = now
        self.step = 0                      # the LED lit alone (LIGHTS)
        self.asked = NONE
        self.asked_since = now
        self.dirty = True
        self.done = False                  # the self-test is over
        self.clean = False                 # ... and found nothing
        # The full board: only the hex board's (its rows and the PCB's switches' direction).
        self.rows = layout.grid.ROW_OF if layout.kind == "hex" else b""
        self.under = bytearray(_CELLS)     # HELD or OPEN, found on the full board
        self.round = 0
        self.changed = now                 # the last switch change
        self.holding = -1                  # when the empty hexes' wait began (-1: not yet)
        self.board = "done" if self.rows else "none"
        self._emit({"event": "selftest_start", "ask_ms": ask_ms})

    # --- inputs ------------------------------------------------------------------------

    def switch(self, cell, closed, now, ambiguous=False):
        """A debounced switch event on `cell`; `ambiguous` (a matrix without diodes) is not
        used: the checklist moves one disk at a time."""
        closed = 1 if closed else 0
        if self.present[cell] == closed:
            return
        self.present[cell] = closed
        self.dirty = True
        self.changed = now
        event = {"event": "selftest", "cell": self.name(cell), "closed": closed == 1}
        asked = self.asked
        if self.phase == CHECKLIST:
            event["asked"] = self.name(asked)
        self._emit(event)
        if self.phase != CHECKLIST or not closed:
            return
        if cell == asked:
            self.result[cell] = PASSED
        else:
            self.result[asked] = SWAPPED
            self.fault[asked] = 1
            self.fault[cell] = 1
            self.swapped.append([asked, cell])
            self._emit({"event": "selftest_fault", "fault": "swapped",
                        "cell": self.name(asked), "seen": self.name(cell)})
        self._ask_next(now)

    def tick(self, now):
        """Timers: the lights, the asked hex's timeout. Allocates nothing unless a stage ends
        or a hex times out."""
        phase = self.phase
        if phase == LIGHTS:
            step = elapsed(now, self.phase_since) // CHAIN_STEP_MS
            if step != self.step:
                self.step = step
                self.dirty = True
            if step >= self.n:
                self._enter(ALL_ON, now)
        elif phase == ALL_ON:
            if elapsed(now, self.phase_since) >= ALL_ON_MS:
                self._begin_checklist(now)
        elif phase == CHECKLIST:
            if elapsed(now, self.asked_since) >= self.ask_ms:
                asked = self.asked
                self.result[asked] = SILENT
                self.fault[asked] = 1
                self._emit({"event": "selftest_fault", "fault": "silent",
                            "cell": self.name(asked)})
                self._ask_next(now)
        elif phase == BOARD:
            self._board_tick(now)

    # --- state -------------------------------------------------------------------------

    def cells_with(self, result):
        """The cells the checklist found `result` for, in cell order."""
        return [c for c in range(self.n) if self.result[c] == result]

    def faults(self):
        """How many hexes are shown red."""
        n = 0
        for c in range(self.n):
            n += self.fault[c]
        return n

    def summary(self):
        """What was found so far, as JSON-ready data (the selftest_done event's fields)."""
        names = self.name
        return {"stuck": [names(c) for c in self.cells_with(STUCK)],
                "swapped": [[names(a), names(s)] for a, s in self.swapped],
                "silent": [names(c) for c in self.cells_with(SILENT)],
                "passed": len(self.cells_with(PASSED)),
                "held": [names(c) for c in range(self.n) if self.under[c] == HELD],
                "open": [names(c) for c in range(self.n) if self.under[c] == OPEN],
                "board": self.board}

    def state(self):
        """For the host link's `state` command."""
        out = self.summary()
        out["phase"] = "selftest"
        out["selftest"] = PHASE_NAMES[self.phase]
        out["asked"] = self.name(self.asked) if self.asked != NONE else None
        out["closed"] = [self.name(c) for c in range(self.n) if self.present[c]]
        if self.phase == BOARD:
            out["round"] = self.round
        return out

    # --- LED frame -----------------------------------------------------------------------

    def compose(self, now):
        """Write the LED frame for `now` into self.frame (RGB in cell order); no allocation."""
        self.dirty = False
        pal = _PALETTES[self.settings.palette]
        frame = self.frame
        present = self.present
        phase = self.phase
        if phase == LIGHTS or phase == ALL_ON:
            alone = self.chain[self.step] if phase == LIGHTS and self.step < self.n else NONE
            for c in range(self.n):
                if present[c]:
                    rgb = pal[palette.DARK]
                elif phase == ALL_ON:
                    rgb = _LOW_WHITE
                elif c == alone:
                    rgb = _WHITE
                else:
                    rgb = _OFF
                _put(frame, c, rgb)
            return
        if phase == DONE:
            clean = self.clean
            for c in range(self.n):
                if self.fault[c]:
                    rgb = pal[palette.ERROR]
                elif clean:
                    rgb = pal[palette.SETTING_ON]
                else:
                    rgb = _OFF
                _put(frame, c, rgb)
            return
        blink = (now // _BLINK_MS) & 1
        if phase == BOARD:
            self._compose_board(pal, blink, (now // (_BLINK_MS // 3)) & 1)
            return
        asked = self.asked
        result = self.result
        fault = self.fault
        for c in range(self.n):
            if c == asked:
                rgb = pal[palette.LIGHT] if blink else _OFF
            elif fault[c]:
                rgb = pal[palette.ERROR]
            elif result[c] == PASSED:
                rgb = pal[palette.SETTING_ON]
            elif present[c]:
                rgb = pal[palette.DARK]
            else:
                rgb = _OFF
            _put(frame, c, rgb)

    # --- internals -----------------------------------------------------------------------

    def _emit(self, event):
        if len(self.outbox) < 64:
            self.outbox.append(event)

    def _enter(self, phase, now):
        self.phase = phase
        self.phase_since = now
        self.dirty = True

    def _begin_checklist(self, now):
        self._enter(CHECKLIST, now)
        # The board is empty now: a closed switch is stuck (or a disk was left on it).
        for c in range(self.n):
            if self.present[c]:
                self.result[c] = STUCK
                self.fault[c] = 1
                self._emit({"event": "selftest_fault", "fault": "stuck",
                            "cell": self.name(c)})
        self.asked = NONE
        self._ask_next(now)

    def _ask_next(self, now):
        """Ask for the next untested hex after the asked one, or end."""
        c = 0 if self.asked == NONE else self.asked + 1
        while c < self.n and self.result[c] != UNTESTED:
            c += 1
        self.dirty = True
        if c == self.n:
            self.asked = NONE
            if not self.rows:
                self._finish(now)
            else:
                self._enter(BOARD, now)
                self._start_round(0, now)
            return
        self.asked = c
        self.asked_since = now
        self._emit({"event": "selftest_ask", "cell": self.name(c)})

    def _finish(self, now):
        self._enter(DONE, now)
        self.done = True
        self.clean = self.faults() == 0
        event = self.summary()
        event["event"] = "selftest_done"
        self._emit(event)

    # --- the full board ------------------------------------------------------------------

    def target(self, cell):
        """What this full-board round wants on `cell`: EMPTY, COLOUR_UP or RED_UP. Every
        other hex of the round's row is empty; the rows above carry the coloured face up,
        that row and those below the red face: the poles adding up along the empty hexes'
        switches, which point toward row I."""
        row = self.round >> 1
        own = self.rows[cell]
        if own == row and (cell & 1) == (self.round & 1):
            return EMPTY
        return COLOUR_UP if own > row else RED_UP

    def _start_round(self, k, now):
        self.round = k
        self.changed = now
        self.holding = -1
        self.dirty = True
        row = k >> 1
        rows = self.rows
        self._emit({"event": "selftest_board", "round": k, "rounds": ROUNDS,
                    "row": self.name(self._first_of_row(row))[:1],
                    "empty": [self.name(c) for c in range(self.n)
                              if rows[c] == row and self.target(c) == EMPTY]})

    def _first_of_row(self, row):
        c = 0
        while self.rows[c] != row:
            c += 1
        return c

    def _board_tick(self, now):
        """Wait for the round's disks, then for its empty hexes to read open."""
        present = self.present
        if self.holding >= 0:
            if self._empties_closed() == 0:
                self._next_round(now)
            elif elapsed(now, self.holding) >= self.ask_ms:
                self._mark(HELD, 1, now)
                self._next_round(now)
            return
        still = elapsed(now, self.changed)
        waiting = 0
        covered = 0
        for c in range(self.n):
            if self.target(c) != EMPTY:
                covered += 1
                if not present[c]:
                    waiting += 1
        if self.round == 0 and still >= self.ask_ms and waiting * 2 > covered:
            self.board = "skipped"        # the board not laid out: the tester skips it
            self._finish(now)
        elif waiting == 0 and still >= SETTLE_MS:
            self._judge(now)
        elif waiting and still >= self.ask_ms:
            self._mark(OPEN, 0, now)
            self._judge(now)

    def _empties_closed(self):
        n = 0
        for c in range(self.n):
            if self.present[c] and self.target(c) == EMPTY:
                n += 1
        return n

    def _judge(self, now):
        if self._empties_closed():
            self.holding = now
            self.dirty = True
        else:
            self._next_round(now)

    def _mark(self, finding, closed, now):
        """Every hex that reads `closed` where it must not: a fault `finding`."""
        for c in range(self.n):
            wanted = 0 if self.target(c) == EMPTY else 1
            if self.present[c] == closed and wanted != closed and not self.under[c]:
                self.under[c] = finding
                self.fault[c] = 1
                self._emit({"event": "selftest_fault", "fault": PHASE_FAULTS[finding],
                            "cell": self.name(c)})

    def _next_round(self, now):
        if self.round + 1 < ROUNDS:
            self._start_round(self.round + 1, now)
        else:
            self._finish(now)

    def _compose_board(self, pal, blink, fast):
        frame = self.frame
        present = self.present
        holding = self.holding >= 0
        for c in range(self.n):
            want = self.target(c)
            if want == EMPTY:
                if present[c]:
                    rgb = pal[palette.ERROR] if fast or not holding else _OFF
                else:
                    rgb = _OFF
            else:
                rgb = pal[palette.LIGHT] if want == COLOUR_UP else pal[palette.LIGHT_CAPTIVE]
                if not present[c] and not blink:
                    rgb = _OFF
            _put(frame, c, rgb)


PHASE_FAULTS = (None, "held", "open")

