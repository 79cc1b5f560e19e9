"""Saved games on the board's flash, surviving a power cut at any instant.

The game in progress lives in `game.sav`, one line of fields split by `|` and ended by the
CRC-32 of the rest:

    2|iago|0012002|5/6/7/8/9/8/7/6/5 D|1d1f1614|03|16|6c1f3a0e

(format, game, the settings as Settings.code() digits, start position, then as two hex digits
each: the moves' cells (E4 E6 D5 C4 here: cells 0x1d 0x1f 0x16 0x14, as the game's grid numbers
them), the plies of penalty claims, the cells whose flips are pending). Hex digits because
naming 60 cells takes a Pico 16 ms, and hexlify well under one. It is written over the old
save in place: the board's file
system (littlefs, on MicroPython's rp2 port) commits a file's new contents only when it is
closed, so a cut leaves the old save or the new one, never half of one; and a line this short
stays inline in littlefs's directory, so a save seldom erases a flash sector (a rewrite and
rename erased one in most saves, and a Pico runs nothing while it erases: 45 ms). A save that
fails its check is renamed to `game.bad` and reported, never a crash. A `game.json` of older
firmware (FORMAT 1: JSON, then a `crc` line) is read once and replaced by the first save.
Finished games are kept in `games/` by gameboard/archive.py.
"""

import os
from binascii import crc32, hexlify

from gameboard import forget

FORMAT = 2
LEGACY_FORMAT = 1     # game.json of firmware 0.4 and older
FORMATS = (FORMAT, LEGACY_FORMAT)    # what gameboard/savedgame.py reads


class SaveError(Exception):
    """A save that cannot be read back."""


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class Saves:
    store = "flash"     # where the game in progress is kept (gameboard/framsaves.py: "fram")
    news = None         # what the host link must hear about that store (framsaves)
    fallen = None       # why the FRAM was given up (framsaves)

    def __init__(self, root):
        self.root = root if root.endswith("/") else root + "/"
        self.game_path = self.root + "game.sav"
        self.legacy_path = self.root + "game.json"
        self._legacy = exists(self.legacy_path)   # removed by the first save
        self._last = None           # the line last saved
        self.games_dir = self.root + "games"
        if not exists(self.games_dir):
            os.mkdir(self.games_dir)

    # --- the game in progress --------------------------------------------------------------

    def line(self, settings, game, flips_pending=(), but_last=False):
        """The save line of a game (the module's note), its checksum and newline included."""
        moves = bytes(game.move_stack)
        if but_last:
            moves = moves[:-1]
        body = "%d|%s|%s|%s|%s|%s|%s" % (
            FORMAT, game.GAME, settings.code(), game.start_text, hexlify(moves).decode(),
            hexlify(bytes(game.claims)).decode(), hexlify(bytes(flips_pending)).decode())
        return "%s|%08x\n" % (body, crc32(body.encode()) & 0xFFFFFFFF)

    def save(self, settings, game, flips_pending, but_last=False):
        """Save the game (`but_last`: without its last placement, which has not settled)."""
        self._write(self.line(settings, game, flips_pending, but_last))
        if self._legacy:
            self._legacy = False
            try:
                os.remove(self.legacy_path)
            except OSError:
                pass

    def save_again(self):
        """Write the last save again, the same line (gameboard/app.py: to let littlefs compact
        its directory while nobody plays); nothing if nothing was saved yet."""
        if self._last is not None:
            self._write(self._last)

    def _write(self, line):
        # In place, in one write (see the module's note): no temporary file, no rename.
        with open(self.game_path, "w") as f:
            f.write(line)
        self._last = line

    def discard(self):
        """The saved game removed (carried onto the FRAM, gameboard/framsaves.py)."""
        for path in (self.game_path, self.legacy_path):
            try:
                os.remove(path)
            except OSError:
                pass
        self._legacy = False
        self._last = None

    def set_aside(self):
        """The saved game renamed game.bad (gameboard/archive.py's count_restart): True, or
        None if there is none (or the flash refused)."""
        for path in (self.game_path, self.legacy_path):
            try:
                os.rename(path, self.root + "game.bad")
                self._legacy = False
                return True
            except OSError:
                pass
        return None

    def load(self, layout=None):
        """(settings, game, flips pending) of the saved game, or None if there is none.
        `layout` (gameboard/layout.py; default the hex board's) says which game the board
        plays: a saved game of another one is set aside like a damaged one.

        Raises SaveError, after setting the file aside as game.bad, if it cannot be read or
        played on: bad bytes, wrong types, any size (gameboard/savedgame.py).
        """
        if not exists(self.game_path) and not self._legacy:
            return None
        # Read once at start-up: the reading code is forgotten after (no heap in play).
        try:
            from gameboard import savedgame
            return savedgame.load(self, layout, FORMATS)
        except ValueError as exc:
            raise SaveError(str(exc))
        finally:
            forget("gameboard.savedgame")
