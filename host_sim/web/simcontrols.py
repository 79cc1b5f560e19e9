"""The simulation's own controls of the simulated board (simdriver.py): its speed, pause and
power, the faults it can be given (switch bounce, crosstalk, a stuck switch, a disk knocked
off) and the replay of a record. A part of SimDriver, split out by concern: it works on the
driver's board, hub and replay (SimDriver.__init__ declares them all) and runs in its sim
thread."""

from host_sim.web import api
from host_sim.web.api import conflict
from host_sim.web.replay import Replay

CLEARED_MS = 100             # a cleared board is seen empty before a replay's new game
SPEED_RANGE = (0.25, 8.0)


class SimControls:
    """The simulation's actions of SimDriver: autoflip, speed, pause, power, fault/..., and
    replay/...."""

    def _set_autoflip(self, body):
        self.autoflip = api.flag(body, "on")
        return {"autoflip": self.autoflip}

    def _set_speed(self, body):
        self.speed = api.number(body, "speed", *SPEED_RANGE)
        return {"speed": self.speed}

    def _set_pause(self, body):
        self.paused = api.flag(body, "paused")
        return {"paused": self.paused}

    def _power(self, body):
        on = api.flag(body, "on")
        if on and not self.board.powered:
            self.board.power_on()
            self.hub.log("note", "power on", "sim")
        elif not on and self.board.powered:
            self.board.power_cut()
            self._replies.clear()
            self._asked.clear()
            self.hub.log("note", "power cut", "sim")
        return {"powered": self.board.powered}

    def _bounce(self, body):
        self.board.bounce_ms = api.number(body, "ms", 0, 50)
        return {"bounce_ms": self.board.bounce_ms}

    def _crosstalk(self, body):
        self.board.crosstalk = api.number(body, "chance", 0, 1)
        return {"crosstalk": self.board.crosstalk}

    def _stick(self, body):
        cell = self._cell(body)
        stuck = api.flag(body, "stuck", True, required=False)
        self.board.stick(cell, stuck)
        self.hub.log("note", "%s switch %s" % (self._name(cell),
                                                "stuck closed" if stuck else "mended"), "sim")
        return {"stuck": sorted(self._name(c) for c in self.board.stuck)}

    def _unexpected_lift(self, body):
        cells = sorted(c for c in self.board.disks if c not in self.flipping)
        if not cells:
            raise conflict("there is no disk on the board to knock off")
        cell = self.rng.choice(cells)
        face = self.board.lift(cell, hold_ms=0)
        self.hand[cell] = face
        self.hub.log("note", "a disk was knocked off %s" % self._name(cell), "sim")
        return {"cell": self._name(cell), "face": face}

    # --- replay -----------------------------------------------------------------------------

    def _replay_load(self, body):
        """Load a record to replay; with "check": true only read and check it (the page asks
        before a game in progress is thrown away only for a record it can replay)."""
        check = api.flag(body, "check", False, required=False)
        if self.layout.kind != "hex":
            raise conflict("the square board tosses its own coin for who starts, so it replays "
                           "no record: load it on the table page (the game chooser) instead")
        replay = Replay.from_text(api.field(body, "record", str))
        if not self.board.powered:
            raise conflict("the board has no power")
        if check:
            return {"moves": len(replay.moves), "rules": replay.rules}
        self._clear({})
        # As a hand would, before the new game: else the new game would see the old disks
        # still there (a disk left on the centre long enough would start the demo).
        self._advance_to(self.board.clock.us + CLEARED_MS * 1000)
        self.command({"cmd": "new_game", "rules": replay.rules})
        self.replay = replay
        self.hub.log("note", "replaying a record of %d placements (%s)" % (
            len(replay.moves), replay.rules), "sim")
        return {"moves": len(replay.moves)}

    def _replay_step(self, body):
        if self.replay is None:
            raise conflict("no record is loaded for replay")
        return {"target": self.replay.aim(body)}

    def _replay_stop(self, body):
        self.replay = None
        return {"replay": None}
