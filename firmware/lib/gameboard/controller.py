"""The game's controller: the table around the referee. Debounced switch events in, an LED
frame and host events out; pure logic, stepping on `tick(now_ms)`, it never touches hardware.

What the disks say against the game, and the placements they make, are the referee's
(gameboard/referee.py). The controller keeps what the table adds: the settings and the
settings hexes stepped before the first placement, the computer's search and suggestions,
the demo asked for by a disk held on the centre, the new game asked for when a game's board
is cleared, the game's end, the host link's events and commands, the saves due, and the
view the painter draws (gameboard/painter.py). It is the game's mode (gameboard/modes.py).
"""

import iago
from gameboard import NO_CELL, elapsed, palette
from gameboard.painter import FACE_COLOUR, BoardView, compose
from gameboard.referee import OVER, PHASE_NAMES, PLAY, STARTUP, STARTUP_MS, Referee

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_SETTING_HOLD_MS = const(400)  # a disk resting on a settings hex this long steps the setting
_FLASH_MS = const(600)        # brief feedback on one hex
# Also the new game's: a game's board this long empty asks for one, a disk held this long on
# the centre confirms it; and before the first placement the computer plays only once the
# board has stood still this long (a disk stepping B1 passes through dark to light).
_DEMO_HOLD_MS = const(2000)
# The computer's search runs between the board's ticks, layout.think_nodes positions at a
# time, within layout.board_nodes (capped so a level-5 move takes at most 2 s on a Pico).


class Controller:
    """The game's mode (gameboard/modes.py): it referees, through its Referee."""

    shares_board = False
    stopped = False

    def __init__(self, settings=None, now=0, layout=None, coin=None):
        """`settings` (default Settings()), the time, the board's Layout (default the hex
        board's) and Othello's coin toss (`coin() -> 0 or 1`: default random bits)."""
        from gameboard.layout import hex_layout
        from gameboard.settings import Settings
        self.layout = layout = layout or hex_layout()
        self.n = layout.cells
        self.coin = coin or _coin
        self.settings = settings or Settings()
        self.view = BoardView(layout, self.settings)    # what the LEDs draw (painter.py)
        self.frame = self.view.frame    # RGB in cell order, read by the LED output
        self.outbox = []                # host-link events, drained by the link
        self.dirty = True               # the frame must be drawn again
        self.save_due = False           # the game or settings changed at a save point
        self.finished = None            # a finished game awaiting its record
        # The engine (imported only when needed: it costs heap): the computer's move, or a
        # suggestion for the side to move (`suggesting`, also while lit), found in slices
        # between ticks; the hex it chose is the referee's `chosen`.
        self.search = None
        self.suggesting = False
        self.setting_cell = NO_CELL     # a disk resting on a settings hex ...
        self.setting_since = -1         # ... since (-1: it stepped its setting already)
        self.flash_since = 0            # the flash on view.flash_cell began
        # A disk landed on the demo cell (the centre): held there, the demo or a new game;
        # -1 once it started the demo, until it leaves. A disk there at power-on: since 0.
        self.held_since = 0
        # Every disk of a game in progress lifted: the board asks for a new game, which a
        # disk held on the centre and lifted confirms (docs/board.md, "Gestures").
        self.asking = False
        self.demo_requested = False     # the app starts the demo (gameboard/demo.py)
        self.game = self._new_board()   # the board of the game's rules module
        self.referee = Referee(layout, self, self.game, now)
        self.referee.take(self.game)

    def name(self, cell):
        return self.layout.names[cell]

    # --- inputs ------------------------------------------------------------------------

    def switch(self, cell, closed, now, ambiguous=False):
        """A debounced switch event: a disk arrived on (closed) or left `cell`. `ambiguous`:
        the closure may be a ghost of three others (a matrix without diodes)."""
        referee = self.referee
        if not referee.sense(cell, closed, now, ambiguous):
            return
        self.dirty = True
        if referee.phase == STARTUP:
            return
        if closed:
            self._rested(cell, now)
        elif self._confirmed(cell, now):
            return
        referee.moved(cell, closed, now)

    def _rested(self, cell, now):
        """A disk put down: on a settings hex before the first placement, on the demo cell,
        or elsewhere while a new game is asked (the game goes on)."""
        if self.referee.is_reserved(cell) and self.layout.setting_at(cell):
            self.setting_cell = cell
            self.setting_since = now
        if cell == self.layout.demo_cell:
            self.held_since = now
        elif self.asking:
            self._stop_asking()

    def _confirmed(self, cell, now):
        """A disk lifted: the new game confirmed (True), or a settings hex left."""
        held = self.held_since
        if (self.asking and cell == self.layout.demo_cell and held >= 0 and
                elapsed(now, held) >= _DEMO_HOLD_MS):
            self.new_game(now, "cleared")
            return True
        if cell == self.setting_cell:
            self.setting_cell = NO_CELL
        return False

    def tick(self, now):
        """As time passes: the light check ends, a placement settles, a take-back is held, a
        setting steps, a new game is asked, a flash ends, the computer thinks, the game ends."""
        referee = self.referee
        if referee.phase == STARTUP:
            if elapsed(now, referee.phase_since) < STARTUP_MS:
                return
            self._startup(now)
        referee.tick(now)
        if (self.setting_cell != NO_CELL and self.setting_since >= 0 and
                elapsed(now, self.setting_since) >= _SETTING_HOLD_MS and referee.pregame()):
            self.setting_since = -1      # once a disk comes to rest
            self.step_setting(self.setting_cell, now)
        if (not self.asking and referee.phase == PLAY and
                elapsed(now, referee.changed_at) >= _DEMO_HOLD_MS and
                not any(referee.present) and self.game.ply() and
                not self.game.is_game_over()):
            self.asking = True
        if self.asking:
            self._ask(now)
        view = self.view
        if view.flash_cell != NO_CELL and elapsed(now, self.flash_since) >= _FLASH_MS:
            view.flash_cell = NO_CELL
            self.dirty = True
        if referee.phase == PLAY:
            self._think(now)
            if self.game.is_game_over() and referee.settled():
                self._end(now)
        if referee.phase == OVER and not any(referee.present):
            self.new_game(now, "cleared")

    def _ask(self, now):
        """New game? The demo cell blinks green; held there 2 s, a disk turns it steady, and
        lifted then, starts a new game (switch)."""
        cell = self.layout.demo_cell
        colour = palette.SETTING_ON
        if self.referee.present[cell] and elapsed(now, self.held_since) >= _DEMO_HOLD_MS:
            colour |= 0x80
        view = self.view
        if view.flash_cell != cell or view.flash_colour != colour:
            self.dirty = True
        self.blink(cell, colour, now)

    def _end(self, now):
        """The game is over and every flip done: its result shows, its record is due."""
        game = self.game
        outcome = game.outcome()
        self.view.winner = outcome.winner
        self.view.result = None          # made by the app a step later (score)
        self.referee.enter(OVER, now)
        self.finished = game.copy()
        self.save_due = True
        self.emit({"event": "game_over", "winner": iago.side_name(outcome.winner),
                   "dark": outcome.dark_score, "light": outcome.light_score,
                   "tie_break": outcome.tie_break})

    # --- the computer ----------------------------------------------------------------------

    def suggest(self, now):
        """Ask the engine for the side to move's best placement (not the remote player's)."""
        if (self.referee.phase != PLAY or self.game.is_game_over() or
                self.game.turn == self.settings.remote):
            return False
        self.forget_engine()
        self.suggesting = True
        return True

    def _think(self, now):
        game = self.game
        referee = self.referee
        pregame = referee.pregame()
        if (pregame and referee.present[self.layout.demo_cell] and not self.demo_requested and
                self.held_since >= 0 and elapsed(now, self.held_since) >= _DEMO_HOLD_MS):
            self.demo_requested = True
            self.held_since = -1   # once the demo stops, this disk does not restart it
        if (game.is_game_over() or not referee.settled() or game.turn == self.settings.remote
                or pregame and elapsed(now, referee.changed_at) < _DEMO_HOLD_MS):
            return      # on the remote player's turn the host's move stays lit (commands.play)
        computer = game.turn == self.settings.computer_side()
        if referee.chosen != NO_CELL:
            # `suggesting` stays set while a suggestion is lit. The computer's choice and a
            # suggestion on a player's turn stay lit; a suggestion gives way to the computer's
            # own choice on its turn, and the computer's choice goes dark where it plays no more.
            if computer != self.suggesting:
                return
            self.forget_engine()
        if not self.suggesting and not computer:
            return
        if self.search is None:
            from iago import games
            level = self.settings.level
            self.search = games.search(game, level, seed=game.ply(),
                                       nodes=self.layout.board_nodes[level - 1])
        if self.search.step(self.layout.think_nodes):
            cell = self.search.best()
            self.search = None
            self.emit({"event": "computer_move" if computer else "suggestion",
                       "cell": self.name(cell), "side": iago.side_name(game.turn)})
            self.suggesting = not computer
            referee.choose(cell, now)    # a disk already waiting on the chosen hex is played

    def wants_demo(self):
        """The demo was asked for (a disk held on the centre before the first placement):
        True once, when the app is to hand the board over."""
        asked = self.demo_requested
        self.demo_requested = False
        return asked

    def forget_engine(self):
        """The search, and the hex it chose, are for a position gone (the referee's too)."""
        self.search = None
        self.suggesting = False
        if self.referee.unchoose():
            self.dirty = True

    # --- commands (host link, buttons) --------------------------------------------------

    def new_game(self, now, why="command", settings=None, first=None):
        """A new game (with `settings` if given; `first`: the side that places first where a
        coin toss would choose, iago.DARK or iago.LIGHT); every disk on the board is one of
        the old game, to lift, never played."""
        if settings is not None:
            self.settings = settings
        self.game = self._new_board(first)
        referee = self.referee
        referee.take(self.game)         # every hex empty: every face right
        referee.strays_suspect()
        if self.held_since >= 0:
            self.held_since = now
        self._stop_asking()
        self.forget_engine()
        self.view.result = None
        if referee.phase != STARTUP:
            referee.enter(PLAY, now)
        self.save_due = True
        event = {"event": "new_game", "why": why, "rules": self.game.rules.name()}
        self._first(event)
        self.emit(event)
        referee.read(now)

    def take_back(self, now):
        """Take back the last placement (its disk must then be removed); False if none."""
        return self.referee.take_back(now)

    def claim(self, now):
        """A penalty claimed for the last placement (it missed a forced capture), by a
        button, the host or the tap of its disk: granted or refused, the disk's hex flashes
        the answer (steady: a fast red blink says "lift this disk"); True if granted."""
        game = self.game
        granted = game.claim_penalty()
        last = game.peek()
        if last is not None:
            self.blink(last, (palette.SETTING_ON if granted else palette.ERROR) | 0x80, now)
        if granted:
            self.referee.position_changed()
            self.game_changed(now, False)
            self.save_due = True
            self.referee.read(now)
        self.emit({"event": "claim", "granted": granted})
        return granted

    def change_settings(self, settings, now, event=None):
        """New settings; a change of rules needs an empty game, so it starts a new one.
        `event`: the fields of the `settings` event besides the settings themselves."""
        rules_change = (self.layout.rules_name is None and
                        settings.rules_object() != self.game.rules)
        if rules_change and self.game.ply():
            raise ValueError("rules can change only before the first placement "
                             "(start a new game)")
        self.settings = settings
        if rules_change:
            self.game = self._new_board()
            self.referee.take(self.game)
            self.game_changed(now, False)
        self.save_due = True
        self.dirty = True
        event = event or {}
        event["event"] = "settings"
        event["settings"] = settings.as_dict()
        self.emit(event)
        self.referee.read(now)

    def step_setting(self, cell, now):
        """A disk came to rest on the settings hex `cell` before the first placement: its
        setting steps, the hex flashes green (or red where the step is refused)."""
        which = self.layout.setting_at(cell)
        changed = self.settings.step(which)
        self.blink(cell, palette.SETTING_ON if changed else palette.ERROR, now)
        # The host hears which setting was stepped and its value now (the same if refused).
        self.change_settings(self.settings, now, {
            "name": which, "value": self.settings.as_dict()[which], "cell": self.name(cell)})

    def restore(self, game, flips_pending):
        """Resume a saved game after power-on: `flips_pending` lists cells still to turn."""
        self.game = game
        if self.layout.rules_name is None:
            # Iago's rules setting is their name without the penalty option, a setting of its own.
            from gameboard.settings import RULE_CHOICES
            rules = game.rules
            name = iago.Rules(rules.forced_capture, rules.release, rules.scoring).name()
            self.settings.rules = name if name in RULE_CHOICES else "standard"
            self.settings.penalty = rules.penalty
        self.referee.take(game, flips_pending)
        self.game_changed(0, False)
        self.emit({"event": "restored", "moves": game.ply(),
                   "flips_pending": len(flips_pending)})

    def resume(self):
        """The board back from the demo: the disk that stopped it, whatever face it shows,
        and any other where the game has none, must leave before it is played."""
        self.referee.strays_suspect()
        self.dirty = True

    def _startup(self, now):
        """The light check is over: play, or the end of a game finished before a power cut;
        the `startup` event says what the switches show."""
        referee = self.referee
        if referee.start(now):
            self.view.winner = self.game.outcome().winner
            self.finished = self.game.copy()   # its record, unless already kept
        extra, missing, flips = referee.differences()
        name = self.name
        event = {"event": "startup", "moves": self.game.ply(),
                 "closed": [name(c) for c in range(self.n) if referee.present[c]],
                 "unexpected": [name(c) for c in extra],
                 "missing": [name(c) for c in missing],
                 "flips_pending": [name(c) for c in flips]}
        self._first(event)
        self.emit(event)
        referee.read(now)

    # --- what the referee and the app tell it ------------------------------------------

    def emit(self, event):
        """An event for the host link (at most 64 wait; the link drains them every step)."""
        if len(self.outbox) < 64:
            self.outbox.append(event)

    def changed(self, save=False):
        """The frame must be drawn again; `save`: the game is at a save point."""
        self.dirty = True
        if save:
            self.save_due = True

    def game_changed(self, now, dropped):
        """The position changed under the engine and the new-game question (a take-back, a
        penalty granted, new rules). `dropped`: a placement taken back, so a disk on the
        demo cell is held from now on."""
        self._stop_asking()
        self.forget_engine()
        if dropped and self.held_since >= 0:
            self.held_since = now

    def blink(self, cell, colour, now):
        """Feedback on one hex: `cell` blinks fast in `colour` (palette.py; bit 7 set:
        steady) for _FLASH_MS; drawn with the next frame."""
        view = self.view
        view.flash_cell = cell
        view.flash_colour = colour
        self.flash_since = now

    def show_flash_fault(self, fault):
        """The flash cannot be written (or can again): a red pulse on the corners."""
        if self.view.flash_fault != fault:
            self.view.flash_fault = fault
            self.dirty = True

    def _stop_asking(self):
        self.asking = False
        if self.view.flash_cell == self.layout.demo_cell:
            self.view.flash_cell = NO_CELL
            self.dirty = True

    # --- LED frame, saves, host ------------------------------------------------------------

    def compose(self, now):
        """Write the LED frame for `now` into self.frame (gameboard/painter.py); no
        allocation."""
        self.dirty = False
        self.view.settings = self.settings
        compose(self.view, self.referee, now)

    def placement_colour(self, cell):
        """The colour (gameboard/palette.py) a disk arriving on empty `cell` will light if it is
        played as the next placement, or -1 if it will not be: the app sends that hex to the
        LEDs before the placement is played and the frame composed (light first)."""
        if not self.referee.would_play(cell):
            return -1
        return FACE_COLOUR[self.game.turn]

    def save(self, saves):
        """Write the game to `saves` (gameboard/saves.py). Never a placement that has not
        settled: it may be a slide. Before it the board agreed, so nothing was left to turn."""
        if self.referee.tentative != NO_CELL:
            saves.save(self.settings, self.game, (), True)
        else:
            saves.save(self.settings, self.game, self.flips_pending())
        self.save_due = False     # still due if the save raised: tried again later

    def record_due(self):
        """The finished game whose record is to be kept, forgotten here once handed out."""
        game = self.finished
        self.finished = None
        return game

    def score_due(self):
        """The finished game's score (gameboard/archive.py) is to be made for the LEDs."""
        return self.referee.phase == OVER and self.view.result is None

    def show_score(self, result):
        """The score the LEDs show until the board is cleared (archive.score's bytes; b"":
        the winner's disks alone)."""
        self.view.result = result
        self.dirty = True

    def flips_pending(self):
        return self.referee.flips_pending()

    def state(self):
        """Everything a host needs to draw the board, as JSON-ready data."""
        game = self.game
        referee = self.referee
        extra, missing, flips = referee.differences()
        names = self.name
        outcome = game.outcome()
        return {
            "game": self.layout.game,
            "start": game.start_text,
            "position": game.text(),
            "rules": game.rules.name(),
            "settings": self.settings.as_dict(),
            "phase": PHASE_NAMES[referee.phase],
            "turn": iago.side_name(game.turn),
            "moves": [names(c) for c in game.move_stack],
            "claims": list(game.claims),
            "tentative": names(referee.tentative) if referee.tentative != NO_CELL else None,
            "waiting": names(referee.waiting) if referee.waiting != NO_CELL else None,
            "flips_pending": [names(c) for c in flips],
            "extra": [names(c) for c in extra],
            "missing": [names(c) for c in missing],
            "legal": [names(c) for c in game.legal_moves] if referee.ready else [],
            "scores": list(game.scores()),
            "can_claim": game.can_claim(),
            "asking": self.asking,
            # A disk held 2 s on the centre while asking: lifting it now starts a new game.
            "confirm": self.asking and self.view.flash_colour > 127,
            "outcome": None if outcome is None else {
                "winner": iago.side_name(outcome.winner), "dark": outcome.dark_score,
                "light": outcome.light_score, "tie_break": outcome.tie_break},
        }

    # --- internals -----------------------------------------------------------------------

    def _new_board(self, first=None):
        module = self.layout.module
        if module.Board.COIN_TOSS:
            if first is None:
                first = iago.LIGHT if self.coin() else iago.DARK
            return module.new_board(first=first)
        return self.layout.new_board(self.settings)

    def _first(self, event):
        """Before the first placement of a game with a coin toss: who it chose to place first."""
        if self.game.COIN_TOSS and not self.game.ply():
            event["first"] = iago.side_name(self.game.turn)


def _coin():
    """A fair coin: 0 or 1 from the system's random bits."""
    import os
    return os.urandom(1)[0] & 1
