"""Replaying a game record on the simulated board, placement by placement, forwards and back.

The board does the replay: a step forward places the next disk and turns every disk the board
then asks for; a step back sends `take_back`, lifts the disk and turns the others back. The
LEDs thus show each position as the firmware computes it. One step per turn of the sim thread,
so every page sees every position.
"""

import iago
from gameboard.referee import STARTUP

from host_sim.web import api, records
from host_sim.web.api import ApiError, conflict


class Replay:
    def __init__(self, game):
        self.moves = [iago.cell_name(c) for c in game.moves]
        self.claims = list(game.claims)
        self.result = game.result
        self.headers = {key: value for key, value in game.headers}
        self.rules = game.rules().name()
        self.index = 0           # placements on the board
        self.target = 0          # where the pages asked to go
        self.error = None

    @classmethod
    def from_text(cls, text):
        return cls(records.parse_for_replay(text))

    def as_dict(self):
        return {"moves": self.moves, "claims": self.claims, "result": self.result,
                "headers": self.headers, "index": self.index, "target": self.target,
                "error": self.error}

    def aim(self, body):
        """Set the target from {"to": n} or {"delta": +-n}."""
        count = len(self.moves)
        if "to" in body:
            target = int(api.number(body, "to", 0, count))
        else:
            target = self.target + int(api.number(body, "delta", -count, count))
        self.target = max(0, min(count, target))
        self.error = None
        return self.target

    def tick(self, driver):
        """One step towards the target, if the board is where the replay left it."""
        board = driver.board
        if self.index == self.target or not board.powered or driver.flipping:
            return
        ctl = board.mode
        if ctl is not board.controller:                    # the demo or the self-test
            self.error = ("the board left the game for %s: load the record again once "
                          "it is back (a disk put down stops the demo)" % (
                              "its demo" if ctl.state().get("phase") == "demo" else
                              "its self-test"))
            self.target = self.index
            return
        if ctl.referee.phase == STARTUP:                   # the light check
            return
        played = [iago.cell_name(c) for c in ctl.game.move_stack]
        if played != self.moves[:self.index] or not ctl.referee.agrees():
            self.error = ("the board left the record (it shows %d placements, the replay "
                          "expected %d in place): load the record again" % (
                              len(played), self.index))
            self.target = self.index
            return
        try:
            if self.target > self.index:
                self._forward(driver)
            else:
                self._back(driver)
        except ApiError as exc:
            self.error = exc.message
            self.target = self.index

    def _forward(self, driver):
        board = driver.board
        if self.index in self.claims:
            driver.command({"cmd": "claim"})
        board.place(iago.parse_cell(self.moves[self.index]))   # rests 400 ms, as a hand does
        for cell in board.controller.flips_pending():
            board.flip(cell)
        self.index += 1

    def _back(self, driver):
        board = driver.board
        reply = driver.command({"cmd": "take_back"})
        if not reply.get("ok"):
            raise conflict("the board refused to take back: %s" % reply.get("error"))
        cell = iago.parse_cell(self.moves[self.index - 1])
        if cell in board.disks:
            board.lift(cell, hold_ms=100)
        for other in board.controller.flips_pending():
            board.flip(other)
        driver.remove_asked.discard(cell)
        self.index -= 1
