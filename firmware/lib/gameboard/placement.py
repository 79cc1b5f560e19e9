"""The controller's survey of the board and its placements (gameboard/controller.py).

The board is `ready` for the next placement only when every hex agrees with the game; only
then are legal moves reported and hinted. A disk put down early on a legal hex (while flips are
pending, say) is `waiting`: shown as such, and played the moment the board is ready. It keeps
its turn when another disk is put down after it (the next side's, early too): that one is extra
until the waiting one is played. A placement is reported to the host as a move once settled.
"""

import iago
from gameboard.painter import FACE_COLOUR, NONE, PLAY, SETTINGS_HEX

PHASE_NAMES = ("startup", "play", "over")   # of the phases STARTUP, PLAY, OVER (painter.py)


class Placement:
    """The Controller's base: what the board holds against the game, and which disk is the
    next placement. The state is the Controller's."""

    def agrees(self):
        """True when every hex holds what the game says and every flip is done."""
        cells = self.game.cell_states
        for c in range(self.n):
            if (cells[c] != 0) != (self.present[c] == 1) or not self.view.face_ok[c]:
                return False
        return True

    def differences(self):
        """(extra disks, missing disks, flips pending) as lists of cells."""
        extra = []
        missing = []
        flips = []
        cells = self.game.cell_states
        pregame = self._pregame()
        for c in range(self.n):
            if cells[c] and not self.present[c]:
                missing.append(c)
            elif not cells[c] and self.present[c] and c != self.view.waiting and not (
                    pregame and self.view.special[c] & SETTINGS_HEX and c != self.engine_move):
                extra.append(c)
            if cells[c] and not self.view.face_ok[c]:
                flips.append(c)
        return extra, missing, flips

    def flips_pending(self):
        return [c for c in range(self.n) if self.game.cell(c) and not self.view.face_ok[c]]

    def _pending(self):
        cells = self.game.cell_states
        face_ok = self.view.face_ok
        n = 0
        for c in range(self.n):
            if cells[c] and not face_ok[c]:
                n += 1
        return n

    def _settled(self):
        return self.tentative == NONE and self._pending() == 0

    def _pregame(self):
        return self.game.ply() == 0 and self.phase == PLAY

    def _fresh_hints(self):
        """The hint table for the position now. Computed on demand: hints are not shown
        while a placement is tentative, so a placement's frame does not wait for them."""
        if self.hints_stale:
            self.hints_stale = False
            hint = self.view.hint
            for c in range(self.n):
                hint[c] = 0
            for c in self.game.legal_moves:
                hint[c] = 1
        return self.view.hint

    def _try_place(self, now):
        """Survey the board: is it `ready` (every hex agrees with the game), is a new disk
        `waiting`; and play the one new disk if the board is otherwise ready and it is legal."""
        ready = self.phase == PLAY and not self.game.is_game_over()
        cells = self.game.cell_states
        present = self.present
        face_ok = self.view.face_ok
        pregame = self._pregame()
        special = self.view.special
        new = NONE
        extra = 0
        for c in range(self.n):
            if present[c] and not cells[c]:
                if pregame and special[c] & SETTINGS_HEX and c != self.engine_move:
                    continue
                new = c
                extra += 1
            elif cells[c] and (not present[c] or not face_ok[c]):
                ready = False
        keep = self.view.waiting
        if extra > 1 and keep != NONE and present[keep] and not cells[keep]:
            new = keep      # the first disk down keeps its turn; those after it are extra
        elif extra != 1:
            new = NONE
        before = self.extra
        self.extra = NONE
        if new != NONE and (self.phase != PLAY or self.suspect[new]):
            new = NONE
        elif new != NONE and not self._playable(new):
            if (ready and extra == 1 and self.tentative == NONE and
                    self.game.turn != self.settings.computer_side()):
                self.extra = new        # refused
            new = NONE
        if self.extra != before:
            self.dirty = True
        self.ready = ready and not extra and self.tentative == NONE
        if new == NONE or not ready or self.tentative != NONE:
            if self.view.waiting != new:
                self.view.waiting = new
                self.dirty = True
            return
        self.view.waiting = NONE
        self._play(new, now)

    def placement_colour(self, cell):
        """The colour (gameboard/palette.py) a disk arriving on empty `cell` will light if it is
        played as the next placement, or -1 if it will not be: the app sends that hex to the
        LEDs before the placement is played and the frame composed (light first)."""
        if (not self.ready or self.suspect[cell] or self.present[cell] or
                self.game.cell_states[cell] or (self._pregame() and self.view.special[cell] &
                                            SETTINGS_HEX and cell != self.engine_move) or
                not self._playable(cell)):
            return -1
        return FACE_COLOUR[self.game.turn]

    def _playable(self, cell):
        """A legal placement for the side to move (on the computer's turn only the hex it
        chose, once it has chosen)."""
        game = self.game
        if game.is_game_over() or not self._fresh_hints()[cell]:
            return False
        return game.turn != self.settings.computer_side() or cell == self.engine_move

    def _move_event(self, kind):
        """The last placement as an event: its disk and the disks it turned. After the
        placement a captured disk is a captive and a released one is face up; where a turned
        disk shows the other colour (Board.FLIP), every turned disk is captured."""
        game = self.game
        cells = game.cell_states
        cell = game.peek()
        flipped = game.last_flips()
        flip = game.FLIP     # the captive bit; or 3, which every disk's state has a bit of
        name = self.name
        return {"event": kind, "cell": name(cell), "side": iago.side_name(cells[cell] & 3),
                "captured": [name(c) for c in flipped if cells[c] & flip],
                "released": [name(c) for c in flipped if not cells[c] & flip]}

    def _report_move(self):
        """The tentative placement settled: now it is a move, for the host too."""
        game = self.game
        event = self._move_event("move")
        self._emit(event)
        if self.tentative_miss:
            self._emit({"event": "miss", "cell": event["cell"]})
        mover = game.cell_states[game.peek()] & 3
        if game.PASSES and game.turn == mover and not game.is_game_over():
            self._emit({"event": "pass", "side": iago.side_name(mover ^ 3)})

    def state(self):
        """Everything a host needs to draw the board, as JSON-ready data."""
        game = self.game
        extra, missing, flips = self.differences()
        names = self.name
        outcome = game.outcome()
        return {
            "game": self.layout.game,
            "start": game.start_text,
            "position": game.text(),
            "rules": game.rules.name(),
            "settings": self.settings.as_dict(),
            "phase": PHASE_NAMES[self.phase],
            "turn": iago.side_name(game.turn),
            "moves": [names(c) for c in game.move_stack],
            "claims": list(game.claims),
            "tentative": names(self.tentative) if self.tentative != NONE else None,
            "waiting": names(self.view.waiting) if self.view.waiting != NONE else None,
            "flips_pending": [names(c) for c in flips],
            "extra": [names(c) for c in extra],
            "missing": [names(c) for c in missing],
            "legal": [names(c) for c in game.legal_moves] if self.ready else [],
            "scores": list(game.scores()),
            "can_claim": game.can_claim(),
            "asking": self.asking,
            "outcome": None if outcome is None else {
                "winner": iago.side_name(outcome.winner), "dark": outcome.dark_score,
                "light": outcome.light_score, "tie_break": outcome.tie_break},
        }
