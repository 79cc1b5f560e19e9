"""The host link's less frequent commands (docs/protocol.md): imported by gameboard/link.py
when one is sent and forgotten after, so their code takes no heap in play. Each takes the
Link, the command's message and the time, and returns the reply's fields (a ValueError,
KeyError or TypeError is the refusal, its message the reply's error). Every field is checked
here, before anything changes: a command that is refused changes nothing and saves nothing.
"""

import json

import iago
from gameboard import NO_CELL
from gameboard.referee import PHASE_NAMES, PLAY
from gameboard.settings import Settings

# The fields each command takes besides "cmd" and "id". Any other is refused, so a misspelt
# field is never silently ignored (a new game with the default settings, say).
FIELDS = {"new_game": ("rules", "settings", "first"), "settings": ("settings",),
          "game": ("game",), "play": ("move",)}


def run(link, msg, now, frequent=None):
    """The reply's fields for `msg` once its command and fields are checked; `frequent` is
    the link's own handler of a frequent command (state, stats) sent with fields besides
    "id"."""
    cmd = msg.get("cmd")
    if frequent is None and not (type(cmd) is str and cmd in HANDLERS):
        # A list or object is neither shown nor echoed: one nested deep enough would
        # overflow the Pico's stack when written back.
        raise ValueError("unknown command %s (known: %s)" % (
            json.dumps(cmd) if not isinstance(cmd, (list, dict)) else
            "of type " + type(cmd).__name__, ", ".join(COMMANDS)))
    takes = FIELDS.get(cmd, ())
    for key in msg:
        if key != "cmd" and key != "id" and key not in takes:
            raise ValueError("%s takes %s, not %s" % (
                cmd, " or ".join(['"%s"' % name for name in takes]) or "no fields",
                '"%s"' % key[:20]))
    if frequent is not None:
        return frequent(link, msg, now)
    return HANDLERS[cmd](link, msg, now)


def ping(link, msg, now):
    return {"pong": now}


def version(link, msg, now):
    out = {}
    for key in link.info:
        out[key] = link.info[key]
    return out


def rules_settings(name):
    """The rules and penalty settings a `new_game` rules name asks for: "simple+penalty" is
    simple with the penalty option (the inverse of Settings.rules_object's name)."""
    penalty = name.endswith("+penalty")
    return (name[:-8] if penalty else name), penalty


def new_game(link, msg, now):
    ctl = link.mode
    settings = None
    first = msg.get("first")
    if "first" in msg:
        # A remote game's two boards start alike: the side that places first is the other
        # board's coin toss, not this board's.
        if first not in ("dark", "light"):
            raise ValueError("first is \"dark\" or \"light\"")
        if not getattr(ctl.game, "COIN_TOSS", False):   # the demo's game is no game
            raise ValueError("%s has no coin toss: dark places first" % ctl.layout.game)
        first = iago.LIGHT if first == "light" else iago.DARK
    if "settings" in msg:
        if "rules" in msg:
            raise ValueError("new_game takes \"rules\" or \"settings\", not both")
        settings = Settings.from_dict(msg["settings"])
    elif "rules" in msg:
        data = ctl.settings.as_dict()
        rules = msg["rules"]
        if type(rules) is not str:
            raise ValueError("rules must be a name such as \"standard\"")
        data["rules"], data["penalty"] = rules_settings(rules)
        settings = Settings.from_dict(data)
    if first is None:
        ctl.new_game(now, "command", settings)
    else:
        ctl.new_game(now, "command", settings, first)
    return {"state": ctl.state()}


def settings(link, msg, now):
    data = link.mode.settings.as_dict()
    changes = msg.get("settings")
    if not isinstance(changes, dict):
        raise ValueError("settings needs an object \"settings\"")
    for key in changes:
        data[key] = changes[key]
    link.mode.change_settings(Settings.from_dict(data), now)
    return {"settings": link.mode.settings.as_dict()}


def take_back(link, msg, now):
    if not link.mode.take_back(now):
        raise ValueError("nothing to take back")
    return {"state": link.mode.state()}


def claim(link, msg, now):
    return {"granted": link.mode.claim(now)}


def suggest(link, msg, now):
    if not link.mode.suggest(now):
        raise ValueError("no placement to suggest now (game over, not a game, or the remote "
                         "player's turn)")
    return {}


def play(link, msg, now):
    """The remote player's move, sent by the host: lit as the computer's is, for the player
    at the board to put its disk down (gameboard/referee.py, `playable`)."""
    ctl = link.mode
    name = msg["move"]
    if type(name) is not str:
        raise ValueError("play needs a \"move\", a cell name such as \"%s\"" %
                         ctl.name(ctl.n // 2))
    remote = ctl.settings.remote
    if not remote:
        raise ValueError("no side is remote (the settings' \"remote\")")
    side = iago.side_name(remote)
    referee = getattr(ctl, "referee", None)     # the demo and the self-test have none
    if referee is None:
        raise ValueError("no game in play (the board is busy)")
    game = ctl.game
    if referee.phase != PLAY or game.is_game_over():
        raise ValueError("no game in play (%s)" % PHASE_NAMES[referee.phase])
    if game.turn != remote:
        raise ValueError("it is %s's turn: the remote player plays %s" % (
            iago.side_name(game.turn), side))
    cell = ctl.layout.parse_cell(name)
    if cell not in game.legal_moves:
        raise ValueError("%s is not a legal placement for %s (legal: %s)" % (
            ctl.name(cell), side, " ".join([ctl.name(c) for c in game.legal_moves])))
    chosen = referee.chosen
    if chosen != NO_CELL and chosen != cell:
        raise ValueError("the remote player's %s is lit already" % ctl.name(chosen))
    ctl.emit({"event": "remote_move", "cell": ctl.name(cell), "side": side})
    referee.choose(cell, now)     # a disk already waiting on the hex is played
    return {}


def demo(link, msg, now):
    if link.hand_over is None:
        raise ValueError("this board cannot run the demo")
    if link.mode.settings.remote:
        raise ValueError("no demo in a remote game: the remote player's moves would be lost")
    link.hand_over("demo", now)
    return {}


def selftest(link, msg, now):
    if link.hand_over is None:
        raise ValueError("this board cannot run its self-test")
    link.hand_over("selftest", now)
    return {}


def games(link, msg, now):
    from gameboard import archive
    ids = archive.finished_ids(link.saves)
    archive.forget()
    return {"games": ids}


def game(link, msg, now):
    game_id = msg.get("game")
    if type(game_id) is not int:    # true is an int to CPython, and 1.0 is no id
        raise ValueError("game needs an integer \"game\" id (see the games command)")
    from gameboard import archive
    try:
        return {"game": game_id, "record": archive.read_finished(
            link.saves, game_id, getattr(link.mode, "layout", None))}
    except KeyError:
        raise ValueError("no saved game %d (kept: %s)" % (
            game_id, " ".join(str(i) for i in archive.finished_ids(link.saves)) or "none"))
    finally:
        archive.forget()


HANDLERS = {
    "ping": ping,
    "version": version,
    "new_game": new_game,
    "settings": settings,
    "take_back": take_back,
    "claim": claim,
    "suggest": suggest,
    "play": play,
    "demo": demo,
    "selftest": selftest,
    "games": games,
    "game": game,
}
# Every command the board takes: these and the frequent ones of gameboard/link.py.
COMMANDS = tuple(sorted(["state", "stats"] + list(HANDLERS)))
