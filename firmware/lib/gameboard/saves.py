"""Saved games on the board's flash, surviving a power cut at any instant.

The game in progress lives in `game.json`: one JSON line (settings, start position, moves,
penalty claims, flips still pending) and a `crc` line. It is written to `game.tmp` first and
renamed over `game.json`, so a cut leaves either the old save or the new one, never half of
one. A save that fails its check is renamed to `game.bad` and reported, never a crash.
Finished games are kept as game records (docs/rules.md) in `games/`, the last KEEP_FINISHED.
"""

import json
import os
from binascii import crc32

import iago
from gameboard.settings import Settings

FORMAT = 1
KEEP_FINISHED = 20


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

    def save(self, settings, game, flips_pending):
        name = game.grid.cell_name
        data = {"format": FORMAT, "settings": settings.as_dict(), "start": game.start_text,
                "moves": [name(c) for c in game.move_stack],
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

        Raises SaveError, after setting the file aside as game.bad, if it is corrupt.
        """
        try:
            with open(self.game_path) as f:
                text = f.read()
        except OSError:
            return None
        try:
            return self._parse(text, layout)
        except Exception as exc:  # any damage at all: set it aside, report, carry on
            os.rename(self.game_path, self.root + "game.bad")
            raise SaveError("saved game is damaged (%s); set aside as game.bad" % exc)

    def _parse(self, text, layout):
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

    # --- finished games -------------------------------------------------------------------

    def finished_ids(self):
        """Ids of the kept finished games, oldest first."""
        ids = []
        for name in os.listdir(self.games_dir):
            if name.endswith(".iago") and name[:-5].isdigit():
                ids.append(int(name[:-5]))
        ids.sort()
        return ids

    def _finished_path(self, game_id):
        return "%s/%06d.iago" % (self.games_dir, game_id)

    def save_finished(self, game, headers=None):
        """Write a finished game's record; keeps the last KEEP_FINISHED. Returns its id."""
        from iago import record
        ids = self.finished_ids()
        game_id = ids[-1] + 1 if ids else 1
        text = record.write(game, headers)
        tmp = self.games_dir + "/new.tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.rename(tmp, self._finished_path(game_id))
        ids.append(game_id)
        while len(ids) > KEEP_FINISHED:
            os.remove(self._finished_path(ids.pop(0)))
        return game_id

    def read_finished(self, game_id):
        """The record text of a kept game; raises KeyError for an unknown id."""
        try:
            with open(self._finished_path(game_id)) as f:
                return f.read()
        except OSError:
            raise KeyError(game_id)

    # --- crash log ------------------------------------------------------------------------

    def log_error(self, text, limit=4096):
        """Append to error.log, keeping only the newest `limit` bytes."""
        path = self.root + "error.log"
        old = ""
        try:
            with open(path) as f:
                old = f.read()
        except OSError:
            pass
        text = (old + text)[-limit:]
        with open(path, "w") as f:
            f.write(text)
