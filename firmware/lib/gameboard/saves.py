"""Saved games on the board's flash, surviving a power cut at any instant.

The game in progress lives in `game.json`: one JSON line (settings, start position, moves,
penalty claims, flips still pending) and a `crc` line. It is written to `game.tmp` first and
renamed over `game.json`, so a cut leaves either the old save or the new one, never half of
one. A save that fails its check is renamed to `game.bad` and reported, never a crash.
Finished games are kept in `games/` by gameboard/archive.py.
"""

import json
import os
from binascii import crc32

from gameboard import forget

FORMAT = 1


class SaveError(Exception):
    """A save that cannot be read back."""


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class Saves:
    def __init__(self, root):
        self.root = root if root.endswith("/") else root + "/"
        self.game_path = self.root + "game.json"
        self.games_dir = self.root + "games"
        if not _exists(self.games_dir):
            os.mkdir(self.games_dir)

    # --- the game in progress --------------------------------------------------------------

    def save(self, settings, game, flips_pending, but_last=False):
        """Save the game (`but_last`: without its last placement, which has not settled)."""
        name = game.grid.cell_name
        moves = game.move_stack
        data = {"format": FORMAT, "settings": settings.as_dict(), "start": game.start_text,
                "moves": [name(moves[i]) for i in range(len(moves) - (1 if but_last else 0))],
                "claims": list(game.claims),
                "flips": [name(c) for c in flips_pending]}
        if game.GAME != "iago":
            data["game"] = game.GAME
        body = json.dumps(data)
        tmp = self.root + "game.tmp"
        with open(tmp, "w") as f:
            f.write(body)
            f.write("\ncrc %08x\n" % (crc32(body.encode()) & 0xFFFFFFFF))
        os.rename(tmp, self.game_path)

    def load(self, layout=None):
        """(settings, game, flips pending) of the saved game, or None if there is none.
        `layout` (gameboard/layout.py; default the hex board's) says which game the board
        plays: a saved game of another one is set aside like a damaged one.

        Raises SaveError, after setting the file aside as game.bad, if it cannot be read or
        played on: bad bytes, wrong types, any size (gameboard/savedgame.py).
        """
        try:
            os.stat(self.game_path)
        except OSError:
            return None
        # Read once at start-up: the reading code is forgotten after (no heap in play).
        try:
            from gameboard import savedgame
            return savedgame.load(self, layout)
        finally:
            forget("gameboard.savedgame")
