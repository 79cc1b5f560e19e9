"""What `iago serve` asks of a board's driver, declared once, and the snapshot of a board the
page draws, built once.

Three drivers follow `Driver`, each behind one page of the server (server.py):

    SimDriver (simdriver.py)        mode "sim": the firmware on a simulated board; every action
                                    of ACTION_NAMES (docs/web.md, "HTTP API")
    SerialDriver (serialdriver.py)  mode "board": a real board on a serial port; "command" only
    TableDriver (tabledriver.py)    mode "table": Othello, Io and the number line on the rules
                                    alone, under /api/table/ (its snapshot is the table's own)

A driver publishes to its hub (hub.py): `publish_state(snapshot)`, `publish_leds(hexes)`, `log`.
The board drivers' snapshot is `board_snapshot`'s, which the page's Web Serial back end gets
too, from the page's worker (inpage/pageboard.py). This module runs in the page's worker under
MicroPython as well (simdriver imports it): plain classes, no abc, no typing at run time.
"""

from host_sim.web import records
from host_sim.web.api import ApiError
from host_sim.web.ledview import layout_dict

# The POST /api/... actions of the simulated board (the real one takes only "command").
ACTION_NAMES = ("place", "lift", "flip", "put-away", "clear", "command", "autoflip", "speed",
                "pause", "power", "fault/bounce", "fault/crosstalk", "fault/stick", "fault/lift",
                "replay/load", "replay/step", "replay/stop")


class Driver:
    """A board (or the table) behind the server. `actions` maps each action's name to its
    handler, handler(body dict) -> the JSON-ready result, raising ApiError to refuse."""

    mode = None                      # "sim", "board" or "table": the snapshot's `mode`
    actions = None                   # {action name: handler(body)}, set by __init__
    remote = None                    # host_sim.remote's session: `iago serve --remote`

    def start(self):
        """Start the driver's threads; raises why the driver cannot start."""

    def close(self):
        """Stop the driver's threads and let go of what it holds (a port, a flash)."""

    def describe(self):
        """What the server shows, in words ("the board on /dev/ttyACM0")."""
        raise NotImplementedError

    def handle(self, action, body):
        """Run the action `action` with its JSON `body`; its JSON-ready result."""
        if action.startswith("remote/") and self.remote is not None:
            return self.remote.handle(action[len("remote/"):], body)
        func = self.actions.get(action)
        if func is None:
            raise self.unknown(action)
        return func(body)

    def unknown(self, action):
        """The refusal of an action the driver does not take."""
        return ApiError(404, "unknown action %r" % action)

    def record(self):
        """The game record of the game in progress (its text); ApiError without one."""
        raise NotImplementedError

    def pulse(self):
        """The driver's health, added to the pages' heartbeat (docs/web.md)."""
        return {}


def board_snapshot(mode, state, layout, **fields):
    """The snapshot of a board the page draws (docs/web.md, "State snapshot"): the board's
    `state` (None: no game reported), the shape and game of its `layout` (gameboard.layout),
    the scores' areas and the movers worked out from the state, and `fields` over the
    defaults of a board that reports only its state (no hand, no replay, no simulation)."""
    counted = bool(state) and "position" in state     # the self-test's state has no position
    snapshot = {
        "mode": mode, "connected": True, "powered": True, "board": None, "firmware": None,
        "state": state,
        "areas": records.areas(state) if counted else None,
        "movers": records.movers(state) if counted else None,
        "layout": layout_dict(layout),
        "disks": {}, "hand": {}, "flipping": [], "replay": None, "games_dir": None, "saved": [],
        "gestures": False, "sim": None, "fault": None, "score_screen": None,
    }
    snapshot.update(fields)
    return snapshot
