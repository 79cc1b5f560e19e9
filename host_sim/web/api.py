"""Checking what a page sends: every problem becomes an ApiError with an HTTP status."""

import json

import iago
from gameboard.commands import FIELDS, rules_settings
from gameboard.commands import COMMANDS as BOARD_COMMANDS
from gameboard.settings import RULE_CHOICES, Settings

# The host-link commands a page may send (docs/protocol.md); the board also knows `selftest`
# and `stats`, which are not the page's business.
COMMANDS = ("ping", "version", "state", "new_game", "settings", "take_back", "claim", "games",
            "game", "suggest", "demo")
assert set(COMMANDS) <= set(BOARD_COMMANDS)
LINE_ROOM = 500              # bytes of a command's line: the board drops lines over 512


class ApiError(Exception):
    """A request the server refuses; `status` is the HTTP status (4xx), the text the reason."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


def bad(message):
    return ApiError(400, message)


def conflict(message):
    """The request is well formed but the board cannot do it now."""
    return ApiError(409, message)


def field(body, name, kind, default=None, required=True):
    """body[name], checked to be of `kind` (a type or a tuple of types)."""
    if name not in body:
        if required:
            raise bad("missing field %r" % name)
        return default
    value = body[name]
    if kind in (int, float) and isinstance(value, bool):
        raise bad("%r must be a number, not %s" % (name, _json_type(value)))
    if kind is float and isinstance(value, int):
        value = float(value)
    if not isinstance(value, kind):
        raise bad("%r must be %s, not %s" % (name, _kind_name(kind), _json_type(value)))
    return value


def cell(body, name="cell", parse=iago.parse_cell):
    """A cell name such as "E4" from body[name], as the cell number (`parse`: the board's
    geometry, the hex board's by default)."""
    text = field(body, name, str)
    try:
        return parse(text)
    except iago.IagoError as exc:
        raise bad(str(exc))


def number(body, name, low, high, default=None, required=True):
    value = field(body, name, float, default, required)
    if value is None:
        return None
    if not low <= value <= high:
        raise bad("%r must be between %g and %g, not %g" % (name, low, high, value))
    return value


def flag(body, name, default=None, required=True):
    return field(body, name, bool, default, required)


def host_command(body):
    """The host-link command of a page's {"cmd": ..., fields}, checked as the firmware checks
    it (gameboard/commands.py, settings.py): the command, its fields, their types and values.
    What the board would refuse is refused here (400) and never reaches a real board; what
    depends on the game (a take-back, a saved game's id) is left to the board."""
    cmd = body.get("cmd")
    if not isinstance(cmd, str):
        raise bad("a command needs a \"cmd\" string (one of %s)" % ", ".join(COMMANDS))
    if cmd not in COMMANDS:
        raise bad("unknown command %r (known: %s)" % (cmd[:40], ", ".join(COMMANDS)))
    msg = {key: value for key, value in body.items() if key != "id"}
    host_line(msg, "page-000000")
    takes = FIELDS.get(cmd, ())
    for key in msg:
        if key != "cmd" and key not in takes:
            raise bad("%s takes %s, not %r" % (
                cmd, " or ".join('"%s"' % name for name in takes) or "no fields", key[:20]))
    if cmd == "new_game" and "rules" in msg and "settings" in msg:
        raise bad("new_game takes \"rules\" or \"settings\", not both")
    if "rules" in msg:
        rules = field(msg, "rules", str)
        if rules_settings(rules)[0] not in RULE_CHOICES:
            raise bad("unknown rules %r (known: %s, any of them +penalty where allowed)" % (
                rules[:40], ", ".join(RULE_CHOICES)))
    if "settings" in msg or cmd == "settings":
        # One setting at a time on the defaults, which allow any single change: a
        # combination the game forbids is for the board to refuse.
        for key, value in field(msg, "settings", dict).items():
            try:
                Settings.from_dict({key: value})
            except ValueError as exc:
                raise bad(str(exc))
    if cmd == "game" and type(msg.get("game")) is not int:   # true and 1.0 are no id
        raise bad("game needs an integer \"game\" id (see the games command)")
    return msg


def host_line(msg, rid):
    """The host-link line of command `msg` with its id `rid`, refused if the board would drop
    it as too long."""
    line = json.dumps(dict(msg, id=rid))
    if len(line.encode()) >= LINE_ROOM:
        raise bad("the command is longer than the board's line limit (512 bytes)")
    return line


def _kind_name(kind):
    names = {str: "a string", bool: "true or false", float: "a number", int: "a whole number",
             dict: "an object", list: "a list"}
    return names.get(kind, getattr(kind, "__name__", str(kind)))


def _json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
