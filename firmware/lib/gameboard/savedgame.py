"""Reading back the game in progress from `game.sav` (gameboard/saves.py writes it; or the
`game.json` of older firmware): used
once at start-up, then forgotten (gameboard.forget), so it takes no heap in play. A save that
cannot be played on, whatever is wrong with it, is set aside as `game.bad` and reported.
The formats it reads are the writer's: `formats` is saves.py's (FORMAT, LEGACY_FORMAT)."""

import os
from binascii import crc32, unhexlify

import iago
from gameboard.settings import Settings

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# A save is one short line and its checksum: a game of 100 placements with every claim and
# flip is under 2 KB. A larger file is damage, refused before it is read into the heap.
_MAX_BYTES = const(8192)


def load(saves, layout, formats):
    """(settings, game, flips pending) of the save of `saves` (a Saves). Raises ValueError
    saying why, after setting the file aside, for any damage: bad bytes, wrong types, any
    size, any error reading it."""
    path = saves.game_path
    try:
        os.stat(path)
    except OSError:
        path = saves.legacy_path
    try:
        size = os.stat(path)[6]
        if size > _MAX_BYTES:
            raise ValueError("%d bytes, too large to be one" % size)
        with open(path, "rb") as f:
            raw = f.read()
        return parse(raw, layout, formats)
    except Exception as exc:
        why = str(exc) or exc.__class__.__name__    # a MemoryError has no message
        if len(why) > 60:
            why = why[:57] + "..."
        where = "set aside as game.bad"
        try:
            os.rename(path, saves.root + "game.bad")
        except OSError:      # game.bad cannot be replaced: never read this one again
            where = "removed"
            try:
                os.remove(path)
            except OSError:
                where = "left in place: the flash refused to move it"
        raise ValueError("saved game is damaged (%s); %s" % (why, where))


def parse(raw, layout, formats):
    """(settings, game, flips pending) of a save's bytes `raw`; raises ValueError (or any
    other error of damaged data) for a save that cannot be played on. `layout`
    (gameboard/layout.py; None: the hex board's) says which game the board plays."""
    if isinstance(raw, str):
        raw = raw.encode()
    if raw[:1] == b"{":
        settings, saved_name, start, moves, claims, flips = _legacy_fields(raw, formats[1])
    else:
        settings, saved_name, start, moves, claims, flips = _fields(raw, formats[0])
    game_name = layout.game if layout else "iago"
    if saved_name != game_name:
        raise ValueError("it is a game of %s, and this board plays %s" % (
            saved_name[:12] if type(saved_name) is str else "nothing known", game_name))
    for ply in claims:
        if ply < 0:
            raise ValueError("a claim before move %d" % (ply + 1))
    if layout is None:
        game = iago.Board(start, settings.rules_object())
    else:
        game = layout.board(start, settings)
    for ply in range(len(moves)):
        if ply in claims and not game.claim_penalty():
            raise ValueError("claim before move %d refused" % (ply + 1))
        game.play(moves[ply])
    if len(moves) in claims:
        game.claim_penalty()
    # A claim past the moves is of a placement not saved (it had not settled): dropped.
    cells = []
    for cell in flips:
        # A name in older firmware's game.json; a cell index in a save line.
        cell = game.grid.parse_cell(cell) if type(cell) is str else cell
        name = game.grid.cell_name(cell)        # raises for a cell off the board
        if not game.cell(cell) or cell in cells:
            raise ValueError("a flip pending on %s, empty or named twice" % name)
        cells.append(cell)
    return settings, game, cells


def _fields(raw, version):
    """The fields of a save line (gameboard/saves.py), exactly as Saves.save writes it."""
    end = raw.rfind(b"|")
    if end < 0 or raw[end:] != ("|%08x\n" % (crc32(raw[:end]) & 0xFFFFFFFF)).encode():
        raise ValueError("checksum mismatch")
    fields = raw[:end].decode().split("|")
    if len(fields) != 7:
        raise ValueError("%d fields, not 7" % len(fields))
    if fields[0] != str(version):
        raise ValueError("unknown format")
    return (Settings.from_code(fields[2]), fields[1], fields[3], _cells(fields[4]),
            _cells(fields[5]), _cells(fields[6]))


def _cells(field):
    """Two hex digits a cell (or ply) -> a list of ints."""
    if len(field) % 2 or not all(c in "0123456789abcdef" for c in field):
        raise ValueError("not two hex digits a cell")
    return list(unhexlify(field))


def _legacy_fields(raw, version):
    """The fields of older firmware's game.json: its JSON body, its checksum line."""
    import json
    lines = raw.split(b"\n")
    if len(lines) != 3 or lines[2]:
        raise ValueError("not a body and a checksum line")
    body = lines[0]
    if lines[1] != ("crc %08x" % (crc32(body) & 0xFFFFFFFF)).encode():
        raise ValueError("checksum mismatch")
    data = json.loads(body.decode())
    if not isinstance(data, dict):
        raise ValueError("not an object")
    if type(data.get("format")) is not int or data["format"] != version:
        raise ValueError("unknown format")
    settings = Settings.from_dict(data.get("settings"))
    start = data["start"]
    moves = data["moves"]
    claims = data.get("claims", [])
    flips = data.get("flips", [])
    # Lists of str (of int for the claims) only: true and false are not ints here.
    wrong = type(start) is not str
    for items, kind in ((moves, str), (claims, int), (flips, str)):
        if type(items) is not list:
            wrong = True
        else:
            for item in items:
                wrong = wrong or type(item) is not kind
    if wrong:
        raise ValueError("a field of the wrong type")
    return settings, data.get("game", "iago"), start, moves, claims, flips
