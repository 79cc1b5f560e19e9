"""Demo mode for tabletop demos: the computer plays both sides on the LEDs alone.

No disks are needed: every hex shows the disk the demo game has there. Each placement lights
first, its flips blink for a moment and turn, then after a pause the next side thinks (in
slices between ticks, so the LEDs keep animating). A finished game shows its result and a new
one starts. Any disk put down on the board stops the demo (`stopped`); the app then gives the
board back to the game it left (App.hand_over). It is a mode (gameboard/modes.py).
"""

import iago
from gameboard import elapsed, palette
from gameboard.layout import hex_layout
from gameboard.modes import NotPlaying
from gameboard.painter import FACE_COLOUR, paint
from gameboard.settings import Settings

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_SHOW_FLIPS_MS = const(900)   # a placement's flips blink this long before they turn
_PAUSE_MS = const(1200)       # then the board rests before the next side thinks
_RESULT_MS = const(5000)      # a finished game's result stays this long
_DEMO_LEVEL = const(3)

_THINK = const(0)
_FLIPS = const(1)
_PAUSE = const(2)
_RESULT = const(3)


class Demo(NotPlaying):
    busy = "the demo is running: put a disk on the board to stop it first"
    # The game's controller keeps seeing the switches meanwhile: the disk that stops the demo
    # is then on the board it returns to.
    shares_board = True

    def __init__(self, settings, now, frame=None, seed=0, layout=None):
        self.settings = settings
        self.layout = layout or hex_layout()
        n = self.n = self.layout.cells
        self.frame = frame if frame is not None else bytearray(n * 3)
        self.outbox = []
        self.dirty = True
        self.stopped = False
        self.seed = seed
        self._colours = bytearray(n)
        self._flipped = bytearray(n)      # 1 = flipped by the last placement (blinking)
        self.games = 0
        self._new_game(now)
        self.outbox.append({"event": "demo", "running": True})

    def _new_game(self, now):
        # The demo plays the settings' rules without the penalty option.
        self.game = self.layout.new_board(Settings(self.settings.rules))
        self.search = None
        self.stage = _THINK
        self.since = now
        self.games += 1

    # --- the app's and the link's interface -------------------------------------------------

    def switch(self, cell, closed, now, ambiguous=False):
        if closed and not self.stopped:
            self.stopped = True
            self.outbox.append({"event": "demo", "running": False,
                                "stopped_by": self.layout.cell_name(cell)})

    def tick(self, now):
        if self.stopped:
            return
        game = self.game
        if self.stage == _THINK:
            if self.search is None:
                from iago import games
                self.search = games.search(game, _DEMO_LEVEL, seed=self.seed + game.ply(),
                                           nodes=self.layout.board_nodes[_DEMO_LEVEL - 1])
            if self.search.step(self.layout.think_nodes):
                cell = self.search.best()
                self.search = None
                game.push(cell)
                for c in range(self.n):
                    self._flipped[c] = 0
                for c in game.last_flips():
                    self._flipped[c] = 1
                self._enter(_FLIPS, now)
        elif self.stage == _FLIPS and elapsed(now, self.since) >= _SHOW_FLIPS_MS:
            for c in range(self.n):
                self._flipped[c] = 0
            self._enter(_RESULT if game.is_game_over() else _PAUSE, now)
            if game.is_game_over():
                outcome = game.outcome()
                self.outbox.append({"event": "demo_game_over",
                                    "winner": iago.side_name(outcome.winner),
                                    "dark": outcome.dark_score, "light": outcome.light_score})
        elif self.stage == _PAUSE and elapsed(now, self.since) >= _PAUSE_MS:
            self._enter(_THINK, now)
        elif self.stage == _RESULT and elapsed(now, self.since) >= _RESULT_MS:
            self._new_game(now)
            self.dirty = True

    def _enter(self, stage, now):
        self.stage = stage
        self.since = now
        self.dirty = True

    def compose(self, now):
        self.dirty = False
        cells = self.game.cell_states
        flipped = self._flipped
        colours = self._colours
        slow = (now // 300) & 1
        last = self.game.peek()
        winner = 0
        if self.stage == _RESULT:
            winner = self.game.outcome().winner if (now // 800) & 1 else 0
        flip = self.layout.flip
        for c in range(self.n):
            v = cells[c]
            colour = FACE_COLOUR[v]
            if flipped[c] and not slow:
                colour = FACE_COLOUR[v ^ flip]            # still showing the face before the flip
            elif c == last and self.stage == _FLIPS and not slow:
                colour = palette.OFF                # the new disk blinks as it lands
            elif winner and v == winner:
                colour = palette.WIN
            colours[c] = colour
        paint(colours, palette.PALETTES[self.settings.palette], self.frame)

    def show(self, game):
        """Show `game`'s disks alone, as between two placements: a host painting a board's
        demo from its `state` (host_sim/web/ledview.py)."""
        self.game = game
        self.stage = -1

    def state(self):
        return {"phase": "demo", "game": self.layout.game, "position": self.game.text(),
                "rules": self.game.rules.name(),
                "moves": [self.layout.cell_name(c) for c in self.game.move_stack],
                "games": self.games, "settings": self.settings.as_dict()}
