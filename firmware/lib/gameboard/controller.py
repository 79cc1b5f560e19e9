"""The board controller: debounced switch events in, an LED frame and host events out.

Pure logic, stepping on `tick(now_ms)`; it never touches hardware. A reed switch only tells
whether a disk is on its hex, never which face is up, so:
- a placement is a switch closing on an empty hex;
- a flip is a lift and a put-back of a disk the board asked to turn (`face_ok` is 0 for it);
- the game goes on only while every hex agrees with the game (`agrees()`); every hex that
  does not is shown on the LEDs until the players mend it.

A disk slid across the board closes the switches it passes. A placement is therefore played at
once (its flips and the next legal moves lit within milliseconds) but is tentative until its
disk has rested _SETTLE_MS; a disk that leaves earlier withdraws it; only settled placements
are saved or reported as moves. The board's survey is gameboard/survey.py's.
"""

import iago
from gameboard import elapsed, forget, palette, survey
from gameboard.painter import (FACE_COLOUR, NONE, OVER, PLAY, SETTINGS_HEX, STARTUP,
                               STARTUP_MS, compose)


try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_TYPE_CHECKING = const(0)   # see iago/__init__.py
if _TYPE_CHECKING:
    from typing import Any

    from gameboard.layout import Layout
    from gameboard.painter import BoardView
    from gameboard.settings import Settings

_SETTLE_MS = const(300)      # a placement counts once its disk has rested this long
# A disk between two hexes closes both switches: a tentative placement's disk that leaves
# its hex at most this long after another closed has slid there (docs/board.md, "Moves").
_SLIDE_MS = const(40)
_TAKEBACK_HOLD_MS = const(1500)  # holding the last-placed disk off its hex takes the move back
_TAP_MS = const(700)          # lifting it and putting it back within this is a penalty claim
_SETTING_HOLD_MS = const(400)  # a disk resting on a settings hex this long steps the setting
_FLASH_MS = const(600)        # brief feedback on one hex
# Also the new game's: a game's board this long empty asks for one, a disk held this long on
# the same hex confirms it; and before the first placement the computer plays only once the
# board has stood still this long (a disk stepping B1 passes through dark to light).
_DEMO_HOLD_MS = const(2000)
# The computer's search runs between the board's ticks, layout.think_nodes positions at a
# time, within layout.board_nodes (capped so a level-5 move takes at most 2 s on a Pico).

# The controller's timers: when each began, in Controller.since (ms; -1: not running).
_PLACED = const(0)      # the tentative placement's disk landed: it settles after _SETTLE_MS
_LIFTED = const(1)      # the last-placed disk left: held off, a take-back; back soon, a claim
_SETTING = const(2)     # a disk came to rest on a settings hex: it steps the setting once
_FLASH = const(3)       # the feedback on one hex began (view.flash_cell)
_CENTRE = const(4)      # a disk landed on the demo cell: held there, the demo or a new game;
                        # -1 once it started the demo, until it leaves
_ACTIVE = const(5)      # a switch last changed
_LANDED = const(6)      # a new disk last landed (where the game has none)


class Controller:
    """The game's mode (gameboard/modes.py): it referees."""

    shares_board = False
    stopped = False

    if _TYPE_CHECKING:   # the controller's state, set by start.controller
        layout: Layout
        n: int                   # cells
        coin: Any                # Othello's coin toss: coin() -> 0 (dark first) or 1
        settings: Settings
        view: BoardView          # what the LEDs show (painter.py): its buffers are these
        present: bytearray       # debounced: 1 = a disk is on the hex
        frame: bytearray         # RGB in cell order, read by the LED output
        game: Any                # the board of the game's rules module
        suspect: bytearray       # never played until it opens once (start.controller)
        phase: int               # STARTUP, PLAY, OVER (painter.py); since view.phase_since
        since: list              # the timers, _PLACED to _LANDED (-1: not running)
        tentative: int           # the last placement, until it has settled
        tentative_miss: bool     # it missed a forced capture (penalty option)
        flips_of_last: bool      # the flips pending are the last placement's own
        ready: bool              # every hex agrees: the next placement may come
        setting_cell: int        # a disk resting on a settings hex
        search: Any              # the engine's search in progress, or None
        suggesting: bool         # a suggestion is searched or lit (view.chosen)
        asking: bool             # every disk lifted: the board asks for a new game
        demo_requested: bool     # the app starts the demo (gameboard/demo.py)
        outbox: list             # host-link events, drained by the app
        save_due: bool           # the game or settings changed at a save point
        finished: Any            # a finished game awaiting its record
        dirty: bool

    def __init__(self, settings=None, now=0, layout=None, coin=None):
        """`settings` (default Settings()), the time, the board's Layout (default the hex
        board's) and Othello's coin toss (`coin() -> 0 or 1`: default random bits)."""
        # The state, by concern, is set by start.controller, whose code a Pico drops after:
        # set here, its code would stay in the heap in play, where the 64 KB budget has no
        # room for it (docs/benchmarks.md). The block above names it for type checkers.
        since = self.since = [now] * 7   # the timers, _PLACED to _LANDED
        since[_LIFTED] = since[_SETTING] = -1
        since[_CENTRE] = 0               # a disk on the demo cell at power-on: held since
        from gameboard import start
        start.controller(self, settings, now, layout, coin)
        forget("gameboard.start")

    def name(self, cell):
        return self.layout.cell_name(cell)

    # --- inputs ------------------------------------------------------------------------

    def switch(self, cell, closed, now, ambiguous=False):
        """A debounced switch event: a disk arrived on (closed) or left `cell`.

        `ambiguous`: the closure may be a ghost of three others (a matrix without diodes);
        such a hex is never played until its switch opens again."""
        closed = 1 if closed else 0
        if self.present[cell] == closed:
            return
        self.present[cell] = closed
        if ambiguous and closed and self.game.cell(cell) == iago.EMPTY:
            self.suspect[cell] = 1
            self._emit({"event": "ghost", "cell": self.name(cell)})
        self.dirty = True
        self._emit({"event": "placed" if closed else "lifted", "cell": self.name(cell)})
        if self.phase == STARTUP:
            return
        if closed:
            self.placed(cell, now)
        elif self.lifted(cell, now):
            return
        self.since[_ACTIVE] = now
        survey.try_place(self, now)

    def placed(self, cell, now):
        """A disk put down on `cell` in play: a flip done, the last placement's disk put back
        (soon: a penalty claim), a new disk, a disk on a settings hex or the demo cell."""
        game = self.game
        face_ok = self.view.face_ok
        if game.cell(cell) == iago.EMPTY:
            self.since[_LANDED] = now
        elif not face_ok[cell]:
            face_ok[cell] = 1
            self._emit({"event": "flip_done", "cell": self.name(cell)})
            if survey.pending(self) == 0:
                self._emit({"event": "flips_done"})
            # Saved after every flip, so a power cut never asks to turn a disk twice.
            self.save_due = self.tentative == NONE
        since = self.since[_LIFTED]
        if cell == game.peek() and since >= 0:
            self.since[_LIFTED] = -1
            if elapsed(now, since) <= _TAP_MS and game.rules.penalty:
                self.claim(now)
        if (self.view.special[cell] & SETTINGS_HEX and self._pregame() and
                cell != self.view.chosen and self.layout.setting_at(cell)):
            self.setting_cell = cell
            self.since[_SETTING] = now
        if cell == self.layout.demo_cell:
            self.since[_CENTRE] = now
        elif self.asking:
            self._stop_asking()          # a disk put back: the game goes on

    def lifted(self, cell, now):
        """A disk lifted from `cell` in play: a slide, a take-back begun or done, a setting
        left; True if it confirmed a new game."""
        game = self.game
        held = self.since[_CENTRE]
        if (self.asking and cell == self.layout.demo_cell and held >= 0 and
                elapsed(now, held) >= _DEMO_HOLD_MS):
            self.since[_ACTIVE] = now
            self.new_game(now, "cleared")
            return True
        self.suspect[cell] = 0
        if cell == self.setting_cell:
            self.setting_cell = NONE
        if game.cell(cell) != iago.EMPTY and cell == game.peek() and self.view.face_ok[cell]:
            if self.tentative != NONE:
                self._undo(now, "slid")
            elif self.settings.remote:
                pass    # a move sent to the remote player: taken back by agreement only
            elif self.flips_of_last and survey.pending(self):
                # Lifting the disk just placed while its own flips are pending takes the
                # placement back (a disk a take-back asked to turn is only turning).
                self._undo(now, "lifted")
            elif self.phase == PLAY and not survey.pending(self):
                self.since[_LIFTED] = now
        return False

    def tick(self, now):
        """As time passes: the light check ends, a placement settles, a take-back is held, a
        setting steps, a new game is asked, a flash ends, the computer thinks, the game ends."""
        if self.phase == STARTUP:
            if elapsed(now, self.view.phase_since) < STARTUP_MS:
                return
            # The light check is over: play, or a finished game's end (its code is start.py's:
            # it runs once).
            from gameboard import start
            start.startup(self, now)
            forget("gameboard.start")
        since = self.since
        if self.tentative != NONE and elapsed(now, since[_PLACED]) >= _SETTLE_MS:
            self.tentative = NONE
            self.dirty = True
            self.save_due = True
            survey.report_move(self)
            survey.try_place(self, now)   # a disk put down meanwhile is the next placement
        if (since[_LIFTED] >= 0 and elapsed(now, since[_LIFTED]) >= _TAKEBACK_HOLD_MS and
                self.phase == PLAY):
            self.since[_LIFTED] = -1
            # Other disks off too: the board is being cleared, or a disk was knocked off.
            if len(survey.differences(self)[1]) == 1:
                self._undo(now, "held")
        if (self.setting_cell != NONE and since[_SETTING] >= 0 and
                elapsed(now, since[_SETTING]) >= _SETTING_HOLD_MS and self._pregame()):
            self.since[_SETTING] = -1      # once a disk comes to rest
            from gameboard import start    # a setting steps now and then: start.py's code
            start.step_setting(self, self.setting_cell, now)
            forget("gameboard.start")
        if (not self.asking and self.phase == PLAY and
                elapsed(now, self.since[_ACTIVE]) >= _DEMO_HOLD_MS and not any(self.present) and
                self.game.ply() and not self.game.is_game_over()):
            self.asking = True
        if self.asking:
            # New game? The demo cell blinks green; held there 2 s, a disk turns it steady
            # (painter: flash_colour's bit 7), and lifted then, starts a new game (switch).
            cell = self.layout.demo_cell
            colour = palette.SETTING_ON
            if self.present[cell] and elapsed(now, since[_CENTRE]) >= _DEMO_HOLD_MS:
                colour |= 0x80
            view = self.view
            if view.flash_cell != cell or view.flash_colour != colour:
                self.dirty = True
            self.blink(cell, colour, now)
        if self.view.flash_cell != NONE and elapsed(now, self.since[_FLASH]) >= _FLASH_MS:
            self.view.flash_cell = NONE
            self.dirty = True
        if self.phase == PLAY:
            self._think(now)
        if self.phase == PLAY and self.game.is_game_over() and self._settled():
            self._enter(OVER, now)
            outcome = self.game.outcome()
            self.finished = self.game.copy()
            self.save_due = True
            self._emit({"event": "game_over", "winner": iago.side_name(outcome.winner),
                        "dark": outcome.dark_score, "light": outcome.light_score,
                        "tie_break": outcome.tie_break})
        if self.phase == OVER and not any(self.present):
            self.new_game(now, "cleared")

    # --- commands (host link, buttons) --------------------------------------------------

    def suggest(self, now):
        """Ask the engine for the side to move's best placement (not the remote player's)."""
        if (self.phase != PLAY or self.game.is_game_over() or
                self.game.turn == self.settings.remote):
            return False
        self._forget_engine()
        self.suggesting = True
        return True

    def _think(self, now):
        game = self.game
        since = self.since
        if (self._pregame() and self.present[self.layout.demo_cell] and
                not self.demo_requested and since[_CENTRE] >= 0 and
                elapsed(now, since[_CENTRE]) >= _DEMO_HOLD_MS):
            self.demo_requested = True
            since[_CENTRE] = -1   # once the demo stops, this disk does not restart it
        if (game.is_game_over() or not self._settled() or game.turn == self.settings.remote
                or self._pregame() and elapsed(now, since[_ACTIVE]) < _DEMO_HOLD_MS):
            return      # on the remote player's turn the host's move stays lit (commands.play)
        computer = game.turn == self.settings.computer_side()
        view = self.view
        if view.chosen != NONE:
            # `suggesting` stays set while a suggestion is lit. The computer's choice and a
            # suggestion on a player's turn stay lit; a suggestion gives way to the computer's
            # own choice on its turn, and the computer's choice goes dark where it plays no more.
            if computer != self.suggesting:
                return
            self._forget_engine()
        if not self.suggesting and not computer:
            return
        if self.search is None:
            from iago import games
            level = self.settings.level
            self.search = games.search(game, level, seed=game.ply(),
                                       nodes=self.layout.board_nodes[level - 1])
        if self.search.step(self.layout.think_nodes):
            view.chosen = self.search.best()
            self.search = None
            self.dirty = True
            self._emit({"event": "computer_move" if computer else "suggestion",
                        "cell": self.name(view.chosen),
                        "side": iago.side_name(game.turn)})
            self.suggesting = not computer
            survey.try_place(self, now)   # a disk already waiting on the chosen hex

    def new_game(self, now, why="command", settings=None):
        """A new game (with `settings` if given); its code is start.py's (no heap in play)."""
        from gameboard import start
        start.new_game(self, now, why, settings)
        forget("gameboard.start")

    def take_back(self, now):
        """Take back the last placement (its disk must then be removed); False if none."""
        if self.game.peek() is None or self.phase == STARTUP:
            return False
        self._undo(now, "command")
        return True

    def change_settings(self, settings, now, event=None):
        """New settings; a change of rules needs an empty game, so it starts a new one.
        `event`: the fields of the `settings` event besides the settings themselves. Its code
        is start.py's (settings change now and then)."""
        from gameboard import start
        try:
            start.change_settings(self, settings, now, event)
        finally:
            forget("gameboard.start")

    # --- LED frame -----------------------------------------------------------------------

    def compose(self, now):
        """Write the LED frame for `now` into self.frame (gameboard/painter.py); no
        allocation."""
        view = self.view
        view.game = self.game
        view.settings = self.settings
        view.phase = self.phase
        view.pregame = self._pregame()
        # 2: bright, the reason a disk was refused (hints on or off).
        view.show_hints = 2 if view.extra != NONE else self.settings.hints and self.ready
        if view.show_hints:
            survey.fresh_hints(self)
        compose(view, now)

    # --- internals -----------------------------------------------------------------------

    def blink(self, cell, colour, now):
        """Feedback on one hex: `cell` blinks fast in `colour` (palette.py; bit 7 set:
        steady) for _FLASH_MS."""
        view = self.view
        view.flash_cell = cell
        view.flash_colour = colour
        self.since[_FLASH] = now

    def _emit(self, event):
        if len(self.outbox) < 64:
            self.outbox.append(event)

    def _enter(self, phase, now):
        if phase == OVER:
            self.view.winner = self.game.outcome().winner
        else:
            self.view.result = None       # the score at the end (App.step: archive.score)
        self.phase = phase
        self.view.phase_since = now
        self.dirty = True

    def _no_placement(self, now):
        """None in hand: no placement tentative or its disk lifted, the flips pending not the
        last placement's own; a disk on the demo cell is held from now on."""
        self.tentative = NONE
        since = self.since
        since[_LIFTED] = -1
        self.flips_of_last = False
        if since[_CENTRE] >= 0:
            since[_CENTRE] = now

    def _forget_engine(self):
        self.search = None
        self.suggesting = False
        if self.view.chosen != NONE:
            self.view.chosen = NONE
            self.dirty = True

    def _stop_asking(self):
        self.asking = False
        if self.view.flash_cell == self.layout.demo_cell:
            self.view.flash_cell = NONE
            self.dirty = True

    def _game_changed(self):
        self._stop_asking()
        self._forget_engine()
        cells = self.game.cell_states
        face_ok = self.view.face_ok
        for c in range(self.n):
            if not cells[c]:
                face_ok[c] = 1
        self.view.hints_stale = True
        self.dirty = True

    def _play(self, new, now):
        self.tentative_miss = self.game.is_miss(new)
        self.game.push(new)
        for c in self.game.last_flips():
            self.view.face_ok[c] = 0
        self.view.face_ok[new] = 1
        self.flips_of_last = True
        self.view.hints_stale = True
        self.dirty = True
        self._forget_engine()
        self.tentative = new
        self.since[_PLACED] = now
        self.since[_LIFTED] = -1
        self._emit(survey.move_event(self, "tentative"))

    def _undo(self, now, why):
        """Take back the last placement. A tentative one whose disk slid on is withdrawn: it
        was never a move, so the host hears `withdrawn`, not `take_back`."""
        game = self.game
        flipped = game.last_flips()
        cell = game.pop()
        for c in flipped:
            self.view.face_ok[c] ^= 1
        if self.phase == OVER:
            self._enter(PLAY, now)
        cells = game.cell_states
        # The taken-back disk, and any put down early for the other side's turn, must leave
        # before they are placed again; but a disk slid on (a magnet between two hexes closes
        # both: the one new disk, if its closing was the change just before) is played if it
        # rests there.
        new = NONE
        since = self.since
        if (why == "slid" and since[_ACTIVE] == since[_LANDED] and
                elapsed(now, since[_LANDED]) <= _SLIDE_MS):
            for c in range(self.n):
                if self.present[c] and not cells[c] and not self.suspect[c]:
                    new = c if new == NONE else self.n     # two: neither is sure
        for c in range(self.n):
            if self.present[c] and not cells[c] and c != new:
                self.suspect[c] = 1
        was_move = self.tentative == NONE
        self._no_placement(now)
        self._game_changed()
        if was_move:
            self.save_due = True
        self._emit({"event": "take_back" if was_move else "withdrawn", "cell": self.name(cell),
                    "why": why,
                    "flips_to_undo": [self.name(c) for c in flipped if not self.view.face_ok[c]]})
        survey.try_place(self, now)

    def claim(self, now):
        """A penalty claimed for the last placement (it missed a forced capture): granted or
        refused, the disk's hex flashes the answer."""
        granted = self.game.claim_penalty()
        last = self.game.peek()
        if last is not None:    # steady (bit 7): a fast red blink says "lift this disk"
            self.blink(last, (palette.SETTING_ON if granted else palette.ERROR) | 0x80, now)
        if granted:
            self._game_changed()
            self.save_due = True
            survey.try_place(self, now)
        self._emit({"event": "claim", "granted": granted})
        return granted

    # --- the survey of the board, and a placement's events ------------------------------

    def agrees(self):
        """True when every hex holds what the game says and every flip is done."""
        cells = self.game.cell_states
        for c in range(self.n):
            if (cells[c] != 0) != (self.present[c] == 1) or not self.view.face_ok[c]:
                return False
        return True

    def differences(self):
        return survey.differences(self)   # (extra, missing, flips pending): lists of cells

    def flips_pending(self):
        return [c for c in range(self.n) if self.game.cell(c) and not self.view.face_ok[c]]

    def state(self):
        return survey.state(self)     # everything a host needs to draw the board, as JSON

    def _settled(self):
        return self.tentative == NONE and survey.pending(self) == 0

    def _pregame(self):
        # Not in a remote game: a settings hex stepped at one board only would part the boards.
        return self.game.ply() == 0 and self.phase == PLAY and not self.settings.remote

    def placement_colour(self, cell):
        """The colour (gameboard/palette.py) a disk arriving on empty `cell` will light if it is
        played as the next placement, or -1 if it will not be: the app sends that hex to the
        LEDs before the placement is played and the frame composed (light first)."""
        if (not self.ready or self.suspect[cell] or self.present[cell] or
                self.game.cell_states[cell] or (self._pregame() and self.view.special[cell] &
                                            SETTINGS_HEX and cell != self.view.chosen) or
                not survey.playable(self, cell)):
            return -1
        return FACE_COLOUR[self.game.turn]


def _coin():
    """A fair coin: 0 or 1 from the system's random bits."""
    import os
    return os.urandom(1)[0] & 1

