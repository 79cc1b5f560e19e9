"""Reading back the game in progress from `game.json` (gameboard/saves.py writes it): used
once at start-up, then forgotten (gameboard.forget), so it takes no heap in play."""

import json
from binascii import crc32

import iago
from gameboard.saves import FORMAT
from gameboard.settings import Settings


def parse(text, layout):
    """(settings, game, flips pending) of a save's `text`; raises ValueError (or any other
    error of damaged data) for a save that cannot be played on. `layout`
    (gameboard/layout.py; None: the hex board's) says which game the board plays."""
    lines = text.split("\n")
    if len(lines) < 2 or not lines[1].startswith("crc "):
        raise ValueError("no checksum line")
    body = lines[0]
    if int(lines[1][4:], 16) != crc32(body.encode()) & 0xFFFFFFFF:
        raise ValueError("checksum mismatch")
    data = json.loads(body)
    if data.get("format") != FORMAT:
        raise ValueError("unknown format %r" % (data.get("format"),))
    settings = Settings.from_dict(data["settings"])
    if data.get("game", "iago") != (layout.game if layout else "iago"):
        raise ValueError("it is a game of %s, and this board plays %s" % (
            data.get("game", "iago"), layout.game if layout else "iago"))
    if layout is None:
        game = iago.Board(data["start"], settings.rules_object())
    else:
        game = layout.board(data["start"], settings)
    claims = data.get("claims", [])
    moves = data["moves"]
    for ply in range(len(moves)):
        if ply in claims and not game.claim_penalty():
            raise ValueError("claim before move %d refused" % (ply + 1))
        game.play(moves[ply])
    if len(moves) in claims:
        game.claim_penalty()
    flips = [game.grid.parse_cell(name) for name in data.get("flips", [])]
    return settings, game, flips
