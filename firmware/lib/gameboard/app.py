"""The board's main loop, built from the board map; main.py runs `main()`.

`App` wires the pieces and runs one loop iteration per `step()`, phase by phase: scan the
reed matrix, debounce it, hand the switch news to whoever has the board (a disk that will be
played lit at its first contact), let its timers run, refresh the LEDs when something changed
(at once, so a placed disk lights within milliseconds) or an animation is due, serve the host
link, save, and the housekeeping (a finished game's record, the heap, the watchdog, the loop's
pace). The board is the game's controller's, the demo's or the self-test's (gameboard/modes.py):
`hand_over` gives it from one to another. All hardware and the clock are passed in, so the
simulator runs this very file.
"""

import gc
import json

from gameboard import NO_CELL, elapsed, forget
from gameboard.controller import Controller
from gameboard.debounce import CLOSED, CONTACT, CROSSING, KIND, LOST, Debouncer
from gameboard.layout import Layout
from gameboard.leds import LedOutput
from gameboard.link import Link
from gameboard.palette import PALETTES

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

FIRMWARE_VERSION = "0.5.1"
# Private consts are inlined by MicroPython: no global, no interned name.
_SCAN_PERIOD_MS = const(2)
_ANIMATION_MS = const(20)   # blinking hexes are redrawn at 50 Hz
_BUTTON_DEBOUNCE_MS = const(30)
# A collection of the heap stops the scans 13-15 ms on a Pico, so it comes where no disk is
# likely to land: every _COLLECT_AFTER switch changes (before MicroPython must collect in
# whatever step allocates, a placement's perhaps: 31 ms), in a step that does little (under
# _LIGHT_STEP_MS) within _AFTER_CHANGE_MS of a change: a hand that has just moved a disk
# does not move again so soon. Not once the switches have been still a while (brisk players
# put the next disk down 0.4-0.7 s after the last) but after _IDLE_COLLECT_MS (a player
# thinking; the search's or the link's garbage), or anywhere from _COLLECT_ANYWAY changes.
_IDLE_COLLECT_MS = const(3000)
_COLLECT_AFTER = const(24)
_COLLECT_ANYWAY = const(72)
_AFTER_CHANGE_MS = const(30)
_LIGHT_STEP_MS = const(4)
# A step's long phases (a placement's referee, a frame, a save: 3-5 ms each on a Pico) are
# followed by a scan once the last is this old (ms: CircuitPython's us clock allocates).
_POLL_MS = const(2)
_RETRY_MS = const(5000)     # a failed save is tried again this long after
# littlefs compacts the saves' directory about every 16th save: a sector erase that stops the
# Pico for 45 ms and a save's step for about 80. Once the players have been still this long,
# the last save is written again until that compaction happens, so that it falls while they
# think, not on a placement: from the _PAD_FROM-th save after the last one, at most until
# the _PAD_UNTIL-th (a file system that never takes that long stops being padded).
_PAD_IDLE_MS = const(1000)
_PAD_FROM = const(6)
_PAD_UNTIL = const(24)
_COMPACTED_MS = const(30)   # a save that took this long erased a sector


class App:
    def __init__(self, boardmap, saves, matrix, pixels, clock, serial=None, watchdog=None,
                 buttons=None, coin=None):
        """The board firmware on `boardmap` (a checked BoardMap) with its saves, the hardware
        (matrix, pixels, clock; the host link's serial port, the watchdog and the buttons if
        any) and Othello's coin toss (`coin`: coin() -> 0 or 1; default the system's random
        bits)."""
        self.boardmap = boardmap
        self.saves = saves               # gameboard.saves.Saves (cpsaves on CircuitPython)
        self.matrix = matrix             # the hardware layer's (hw.py, cphw.py)
        self.pixels = pixels
        self.clock = clock               # time, or the hardware layer's ticks
        self.serial = serial
        self.watchdog = watchdog
        # Optional push buttons, debounced like the switches: bit 0 select takes back the last
        # placement, bit 1 confirm claims a penalty.
        self.buttons = buttons
        self.button_raw = 0
        self.button_state = 0
        self.button_since = 0
        self.raw = bytearray(boardmap.lines)   # one byte of column bits a row line, as scanned
        self.diodes = boardmap.diodes
        # Without diodes a closing may be a ghost until debounced: no light at first contact.
        self.debouncer = Debouncer(boardmap.debounce_ms, rows=boardmap.lines,
                                   contacts=boardmap.diodes)
        # Closings lit at first contact, before their debounce ends (one bit a crossing).
        self.contact_lit = bytearray(boardmap.lines)
        self.redraw = False              # a contact lit came to nothing: draw the frame again
        now = clock.ticks_ms()
        self.last_frame = now
        self.frames = 0
        self.active_at = now             # a switch last changed
        self.scanned_at = now            # the last scan began
        self.flash_error = None          # why the last save failed, until one succeeds
        self.flash_error_at = 0
        self.collected = False           # the heap was collected since
        self.changes = 0                 # switch changes since the last collection
        self.commits = 0                 # saves since the last one that erased a sector
        self.layout = Layout(boardmap.geometry, boardmap.size)
        from gameboard import start      # forgotten again once read (start-up code)
        settings, game, flips, problem = start.saved_game(saves, self.layout)
        forget("gameboard.start")
        self.controller = Controller(settings, now, self.layout, coin)
        if game is not None:
            self.controller.restore(game, flips)
        self.mode = self.controller      # who has the board: the game, the demo, the self-test
        self.leds = LedOutput(boardmap, self.controller.frame)
        self.link = Link(self.controller, saves, self.write,
                         {"firmware": FIRMWARE_VERSION, "board": boardmap.name,
                          "game": self.layout.game}, self.hand_over)
        if problem:
            self.link.send_event({"event": "save_error", "error": problem})
        self._flash_ok()                 # an FRAM given up at start, told
        if buttons is not None and buttons.pressed() & 1:   # select held at power-on
            self.hand_over("selftest", now)

    def hand_over(self, to, now):
        """Give the board to "game", "demo" (the computer plays both sides on the LEDs until
        a disk is put down) or "selftest" (select held at power-on, or the host link);
        returns the mode that has it now. The demo's and the self-test's code is imported
        only for them, and the demo's forgotten with the engine it played with when the
        board comes back to the game (unless the game's computer searches now)."""
        game = self.controller
        if to == "demo":
            from gameboard.demo import Demo
            mode = Demo(game.settings, now, game.frame, seed=now, layout=self.layout)
        elif to == "selftest":
            from gameboard.selftest import SelfTest
            # Modes share an interface, not a class (gameboard/modes.py).
            mode = SelfTest(game.settings, now, self.boardmap.cell_of_led,  # type: ignore[assignment]
                            game.frame, game.referee.present, layout=self.layout)
        else:
            self.link.pump()             # the demo's last events
            game.resume()
            mode = game                  # type: ignore[assignment]
            forget("gameboard.demo", "gameboard.modes")
            if game.search is None:
                forget("iago.games", "iago.engine", "iago.searchcore", "iago.search")
        self.mode = mode                 # type: ignore[assignment]
        self.link.serve(mode)
        return mode

    def write(self, text):
        if self.serial is not None:
            self.serial.write(text)

    def step(self):
        """One loop iteration; allocates nothing when nothing happens. `now`: the last scan's."""
        start = self.clock.ticks_ms()
        self.sense(start)            # scan, debounce, to the mode (a placement: 3-4 ms)
        if self.buttons is not None:
            self._read_buttons(start)
        mode = self.tick(start)                             # its timers
        self.poll()
        now = self.scanned_at
        if mode.dirty or self.redraw or elapsed(now, self.last_frame) >= _ANIMATION_MS:
            self.refresh(now)                               # the LED frame
        if self.serial is not None:                         # the host link
            data = self.serial.read()
            if data:
                self.link.feed(data, now)
                # Drawn before the save it causes stops the loop (up to 130 ms; CP: 60 ms).
                if self.mode.dirty:
                    self.refresh(now)
        if mode.outbox:
            self.link.pump()
        self.poll()
        self.save(self.scanned_at, mode)                    # saves
        self._finish(start)                                 # records, heap, watchdog, pace

    def poll(self):
        """After a long phase, a scan if the last is _POLL_MS old: a disk put down meanwhile lights
        at once, news is handed on and drawn; twice at most (chatter cannot hold the step)."""
        clock = self.clock
        for _ in range(2):
            now = clock.ticks_ms()
            if clock.ticks_diff(now, self.scanned_at) < _POLL_MS:
                return
            self.sense(now)
            if not (self.mode.dirty or self.redraw):
                return
            self.refresh(now)

    # --- the phases of a step -------------------------------------------------------------

    def sense(self, now):
        """Scan the reed matrix, debounce it and hand the switch news on."""
        self.scanned_at = now
        self.matrix.scan(self.raw)
        self.debouncer.update(self.raw, now)
        self._switch_events(now)

    def _switch_events(self, now):
        """The switch news to the mode that has the board (and to the game's, the demo's
        stopping disk): a first contact lit if the game will play it, a contact lost painted
        over, a debounced change handed on."""
        mode = self.mode
        game = self.controller
        lit = self.contact_lit
        cell_of = self.boardmap.cell_of_crossing
        events = self.debouncer.events
        while True:
            event = events.get()
            if event < 0:
                return
            crossing = event & CROSSING
            kind = event & KIND
            row = crossing >> 3
            bit = 1 << (crossing & 7)
            if kind == CONTACT:
                if self._light_first(crossing, True):
                    lit[row] |= bit
                continue
            first_lit = lit[row] & bit
            lit[row] &= ~bit
            if kind == LOST:
                if first_lit:
                    self.redraw = True      # lit at contact, come to nothing: painted over
                continue
            cell = cell_of[crossing]
            self.active_at = now
            self.collected = False
            self.changes += 1
            if cell != NO_CELL:
                closed = 1 if kind == CLOSED else 0
                ghost = closed and not self.diodes and self.debouncer.ghostly(crossing)
                if closed and not ghost and not first_lit:
                    self._light_first(crossing, False)
                mode.switch(cell, closed, now, ghost)
                if mode is not game and mode.shares_board:
                    game.switch(cell, closed, now, ghost)   # the demo's stopping disk

    def tick(self, now):
        """The mode's timers; who has the board next (the demo starts or stops)."""
        mode = self.mode
        mode.tick(now)
        if mode is self.controller:
            if mode.wants_demo():
                return self.hand_over("demo", now)
        elif mode.stopped:
            return self.hand_over("game", now)
        return mode

    def refresh(self, now):
        """Compose the frame and send it to the LEDs if it changed."""
        mode = self.mode
        self.redraw = False
        self.last_frame = now
        mode.compose(now)
        if any(self.contact_lit):
            self._keep_contacts(mode)
        leds = self.leds
        leds.brightness = mode.settings.brightness_level()
        sent = leds.render()
        if sent:
            self.pixels.show(leds.wire)
            self.frames += 1
        self.timed(sent)

    def save(self, now, mode):
        """The game at a save point, never while a switch changes (a save blocks the loop for
        70-130 ms on a Pico); else, once the players are still, a save written again to bring
        littlefs's compaction forward (_PAD_FROM)."""
        if (mode.save_due and not self.debouncer.busy() and
                (self.flash_error is None or elapsed(now, self.flash_error_at) >= _RETRY_MS)):
            try:
                mode.save(self.saves)
                self._flash_ok()
                self._count_commit(now)
            except (OSError, MemoryError) as exc:
                # Tried again later (it is still due); play goes on meanwhile.
                self._flash_failed(now, "the game cannot be saved", exc)
        elif (_PAD_FROM <= self.commits < _PAD_UNTIL and self.flash_error is None and
              elapsed(now, self.active_at) >= _PAD_IDLE_MS and
              self.controller.referee.tentative == NO_CELL):
            try:
                self.saves.save_again()
                self._count_commit(now)
            except (OSError, MemoryError):
                self.commits = _PAD_UNTIL    # the next real save reports it

    def _finish(self, now):
        """A finished game's record, then its score; the heap collected in a quiet step; the
        watchdog fed; the step timed for `stats`, and the loop kept to its pace."""
        game = self.controller
        if game.finished is not None or (self.mode is game and game.score_due()):
            # A finished game's record kept, and a step later its score for the LEDs, which
            # show it until the board is cleared: each takes tens of milliseconds on a Pico.
            from gameboard import archive
            if game.finished is not None:
                try:
                    game_id = archive.save_finished(self.saves, game.record_due(),
                                                    game.settings)
                    self.link.send_event({"event": "saved_game", "game": game_id})
                except (OSError, MemoryError) as exc:
                    self._flash_failed(now, "the finished game's record cannot be kept", exc)
            else:
                try:
                    game.show_score(archive.score(game.game, self.layout))
                except MemoryError:
                    game.show_score(b"")           # the winner's disks alone, then
            archive.forget()
        clock = self.clock
        if not self.collected and self._collect_now(now):
            self.collected = True
            self.changes = 0
            gc.collect()
        if self.watchdog is not None:
            self.watchdog.feed()
        spent = clock.ticks_diff(clock.ticks_ms(), now)
        timing = self.link.timing
        if timing is not None:
            if timing.step_max_ms < 0:
                timing.step_max_ms = 0   # the step that answered `stats` (see Link.stats)
            elif spent > timing.step_max_ms:
                timing.step_max_ms = spent
        if spent < _SCAN_PERIOD_MS:
            clock.sleep_ms(_SCAN_PERIOD_MS - spent)

    def _collect_now(self, now):
        """Collect now? (_IDLE_COLLECT_MS) In a quiet step, just after a change or long after."""
        clock = self.clock
        at = clock.ticks_ms()
        if (clock.ticks_diff(at, now) >= _LIGHT_STEP_MS or self.mode.dirty or self.redraw or
                self.debouncer.busy()):
            return False
        since = clock.ticks_diff(at, self.active_at)
        return ((self.changes >= _COLLECT_AFTER and since < _AFTER_CHANGE_MS) or
                since >= _IDLE_COLLECT_MS or self.changes >= _COLLECT_ANYWAY)

    # --- the light at first contact ---------------------------------------------------------

    def _light_first(self, crossing, pending):
        """A disk that will be played lights at once, before the controller plays it (4 ms
        on a Pico) and the frame is composed; the full frame follows in this step. True if
        it was lit. `pending`: at its first contact, before its debounce ends."""
        timing = self.link.timing    # the stats time from the closing (None until asked)
        if timing is not None and timing.closed_at_us < 0:
            timing.closed_at_us = self.clock.ticks_us()
        game = self.controller
        cell = self.boardmap.cell_of_crossing[crossing]
        colour = -1
        if cell != NO_CELL and self.mode is game:
            colour = game.placement_colour(cell)
        if colour >= 0:
            self.pixels.show(self.leds.light(cell, PALETTES[game.settings.palette], colour))
            self.timed(True)
            return True
        if pending and timing is not None:
            timing.closed_at_us = -1     # timed when debounced, if ever
        return False

    def _keep_contacts(self, mode):
        """The frames composed while a lit contact is being debounced keep it lit."""
        lit = self.contact_lit
        cell_of = self.boardmap.cell_of_crossing
        pal = PALETTES[mode.settings.palette]
        for r in range(len(lit)):
            bits = lit[r]
            c = 0
            while bits:
                if bits & 1:
                    cell = cell_of[(r << 3) + c]
                    colour = (mode.placement_colour(cell) if mode is self.controller
                              else -1)
                    if colour < 0:
                        lit[r] &= ~(1 << c)
                    else:
                        self.leds.put(cell, pal, colour)
                bits >>= 1
                c += 1

    def timed(self, sent):
        """The LED frame or light of a closing timed for `stats` sent (or unchanged)."""
        timing = self.link.timing
        if timing is not None and timing.closed_at_us >= 0:
            clock = self.clock
            self.link.timed(clock.ticks_diff(clock.ticks_us(), timing.closed_at_us)
                            if sent else -1)

    # --- saves, buttons, ghosts -------------------------------------------------------------

    def _count_commit(self, now):
        if self.clock.ticks_diff(self.clock.ticks_ms(), now) >= _COMPACTED_MS:
            self.commits = 0
        else:
            self.commits += 1

    def _flash_failed(self, now, what, exc):
        """A full or read-only flash, or a file where a folder belongs: reported once on the
        link and shown on the LEDs (a red pulse on the corners); the game goes on unsaved."""
        first = self.flash_error is None
        self.flash_error = "%s: %r" % (what, exc)
        self.flash_error_at = now
        self.controller.show_flash_fault(True)
        if first:
            self.link.send_event({"event": "save_error", "error": self.flash_error})

    def _flash_ok(self):
        news = self.saves.news           # the FRAM given up (gameboard/framsaves.py)
        if news is not None:
            self.saves.news = None
            self.link.send_event({"event": "store", "store": "flash", "error": news})
        if self.flash_error is not None:
            self.flash_error = None
            self.controller.show_flash_fault(False)
            self.link.send_event({"event": "saved", "recovered": True})

    def _read_buttons(self, now):
        raw = self.buttons.pressed()
        if raw != self.button_raw:
            self.button_raw = raw
            self.button_since = now
        elif raw != self.button_state and elapsed(now, self.button_since) >= _BUTTON_DEBOUNCE_MS:
            pressed = raw & ~self.button_state
            self.button_state = raw
            if pressed & 1:
                self.mode.take_back(now)
            if pressed & 2:
                self.mode.claim(now)


def build(root="/", map_path="/board.json", serial=None, coin=None, restart_after_check=False,
          hw=None):
    """The App for the board described by the map at `map_path`, with its saves under `root`
    (`coin`: see App); the map's checked copy is kept there too (gameboard/checkedmap.py).
    `restart_after_check` (main's start on a Pico): once the map is checked and its copy kept,
    soft-reset the Pico, so play starts without the checker's code in the heap; and count a
    start that follows a crash or a hang (gameboard/archive.py, count_restart), which may set
    the saved game aside or stop the board with a fault.

    `hw`: the hardware layer (default: start.hardware()); it may bring its own clock and saves.

    Raises boardmap.BoardMapError (a ValueError) if the map is missing, unreadable or wrong.
    A saved game that cannot be read is set aside and reported (`save_error`), never raised.
    """
    from gameboard import start
    try:
        return start.build(App, root, map_path, serial, coin, restart_after_check, hw)
    finally:
        forget("gameboard.start")


def main(root="/", map_path="/board.json"):
    """Run the board until power-off; an uncaught exception restarts into the saved game.

    Never a boot loop: a broken board map stops the board with a fault on the link and the
    Pico's LED (hw.fault); a crash while starting restarts like one in play; restarts in a row,
    each within 10 s of the last, first set the saved game aside, then stop the board with a
    fault (build counts them; a start that lasts 10 s, or that the REPL interrupts, ends the
    row)."""
    import os
    import time

    from gameboard import start
    hw = start.hardware()
    serial = start.serial(hw)
    del start        # build() forgets the module once the App stands
    clock = getattr(hw, "clock", time)
    root = root if root.endswith("/") else root + "/"
    app = None
    try:
        app = build(root, map_path, serial, restart_after_check=True, hw=hw)
        started = clock.ticks_ms()
        left = None
        try:
            while clock.ticks_diff(clock.ticks_ms(), started) < 10000:
                app.step()
        except KeyboardInterrupt as exc:
            left = exc      # the REPL takes over (make deploy): not a start that failed
        try:
            os.remove(root + "restarts")    # archive.count_restart's: this start ends the row
        except OSError:
            pass
        if left is not None:
            raise left
        while True:
            app.step()
    except KeyboardInterrupt:
        # The REPL has the board now (make deploy, make repl): no watchdog may reset it.
        running = getattr(hw, "watchdog", None)
        if running is not None:
            running.stop()
        raise
    except Exception as exc:
        # By its name: importing the checker again could fail where the heap ran short.
        if app is None and exc.__class__.__name__ == "BoardMapError":
            hw.fault("%s (%s)" % (exc, map_path))    # never returns
        try:
            from gameboard import archive
            archive.log_exception(root if app is None else app.saves, exc)
        except Exception:
            pass                    # no heap to load it: restart all the same
        try:
            serial.write(json.dumps({"v": 2, "event": "error",
                                     "error": str(exc) or exc.__class__.__name__}) + "\n")
        except Exception:
            pass                    # no heap left to tell: restart all the same
        hw.restart()
