"""The simulated board's hands (simdriver.py): the disks the page places, lifts and turns
over, the hand that holds a lifted disk, and the auto-flip that turns the disks the board asks
for. A part of SimDriver, split out by concern: it works on the driver's board, layout, hand,
flipping, remove_asked and timeline (SimDriver.__init__ declares them all) and runs in its sim
thread."""

import iago
from gameboard import NO_CELL
from gameboard.referee import STARTUP

from host_sim.render import FACES
from host_sim.web import api, records
from host_sim.web.api import bad, conflict

HAND_MS = 350                # a flip by hand: the disk is off its hex this long
AUTO_HAND_MS = 200           # an auto-flip is quicker
AUTO_GAP_MS = 120            # between two auto-flips
AUTO_WAIT_MS = 150           # before the first auto-flip of a placement


class SimHands:
    """The hands' actions of SimDriver (place, lift, flip, put-away, clear) and the auto-flip."""

    def _game(self):
        """The game's controller (None without power): the demo or the self-test may have the
        board's LEDs, but never its game."""
        return self.board.controller if self.board.powered else None

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
        ctl = self._game()
        if self.board.mode is not ctl or ctl.referee.phase == STARTUP:
            return                                  # the demo, the self-test, the light check
        for cell in list(self.remove_asked):
            if cell in self.board.disks and ctl.game.cell(cell) == iago.EMPTY:
                self.board.lift(cell, hold_ms=0)
            self.remove_asked.discard(cell)
        if ctl.referee.tentative != NO_CELL:
            return
        pending = [c for c in ctl.flips_pending() if c in self.board.disks]
        for i, cell in enumerate(pending):
            self._schedule(AUTO_WAIT_MS + i * (AUTO_HAND_MS + AUTO_GAP_MS), self._auto_flip_one,
                           cell)

    def _auto_flip_one(self, cell, _face):
        ctl = self.board.mode
        if (ctl is not None and cell in self.board.disks and cell not in self.flipping and
                cell in ctl.flips_pending()):
            self._start_flip(cell, AUTO_HAND_MS)
