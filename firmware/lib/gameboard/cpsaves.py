"""The game in progress on CircuitPython: a log of save lines in `microcontroller.nvm`.

Why not a file: CircuitPython's drive is FAT, which has no journal; a power cut while FAT
rewrites a sector of its table or a folder can cost every file on the drive, the firmware
included. So play never writes the drive. `microcontroller.nvm` is one 4 KB flash sector
outside it, which CircuitPython writes in two ways (ports/raspberrypi/common-hal/nvm): bytes
that are all erased (0xFF) on the flash are programmed page by page, with no erase; any other
write copies the sector, erases it and programs it whole.

The sector holds a log of records, each b"G", the length (2 bytes, big-endian) and a save
line of gameboard/saves.py (with its CRC-32). A save appends its record to the erased end:
pages are only programmed, so the records before it are never touched, and a cut while it is
written leaves a record that fails its checksum, read past. The newest record that passes is
the saved game. A record of length 0 sets the game before it aside (a damaged save, reported
once). When the log is full, or while the players think (save_again, gameboard/app.py's
padding: the first still second after six saves), the log starts anew: the last line is
written at the start of an erased sector. That erase (about 45 ms, the sector's only risk)
is what a cut can tear: the saved game is then lost, detected by its checksum, reported, and
the board starts a new game; never a wrong game, and never the drive.

A save line in `game.sav` on the drive (a game carried over from a MicroPython board, or put
there by hand) is read when the sector holds nothing at all, and removed once its game is
saved in the sector. Finished games, the crash log and the restart count stay files under the
root (gameboard/archive.py): written once a game or after a crash, when boot.py has given the
firmware the drive (docs/circuitpython.md).
"""

from binascii import crc32

from gameboard import forget
from gameboard.saves import FORMATS, SaveError, Saves, exists

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_MAGIC = const(0x47)      # b"G"
_HEAD = const(3)


class NvmSaves(Saves):
    """Saves (gameboard/saves.py) whose game in progress lives in `nvm` (a bytearray-like
    of flash with CircuitPython's write rules: microcontroller.nvm on a Pico)."""

    def __init__(self, root, nvm):
        try:
            Saves.__init__(self, root)
        except OSError:
            pass            # a drive the firmware may not write: finished games are not kept
        self.nvm = nvm
        self.file_path = self.root + "game.sav"   # read once if the sector is empty
        self.game_path = "nvm"
        self._legacy = False
        self._from_file = False
        self._end = None    # where the next record goes; None: start the log anew
        self._records = 0   # records in the log since it started anew
        self.rollovers = 0  # sector erases made by saves

    def _write(self, line):
        data = line.encode()
        n = len(data)
        size = len(self.nvm)
        if n + _HEAD > size:
            raise OSError(28, "a save of %d bytes does not fit in nvm" % n)
        record = bytearray(n + _HEAD)
        record[0] = _MAGIC
        record[1] = n >> 8
        record[2] = n & 0xFF
        record[_HEAD:] = data
        end = self._end
        if end is not None and end + len(record) <= size:
            self.nvm[end:end + len(record)] = record
            self._end = end + len(record)
            self._records += 1
        else:
            self._start_log(record)
        self._last = line
        if self._from_file:
            self._from_file = False
            try:
                import os
                os.remove(self.file_path)
            except OSError:
                pass            # a drive the firmware may not write: read again, harmless

    def _start_log(self, record):
        size = len(self.nvm)
        image = bytearray(b"\xff" * size)
        image[:len(record)] = record
        self.nvm[0:size] = image       # erased, then programmed whole
        self._end = len(record)
        self._records = 1
        self.rollovers += 1

    def save_again(self):
        """While the players think (gameboard/app.py), start the log anew with the last line,
        so that the erase falls now and not on a placement; nothing if the log holds only it."""
        if self._last is not None and self._records > 1:
            self._write_fresh(self._last)

    def _write_fresh(self, line):
        self._end = None
        self._write(line)

    def records(self):
        """[(offset, line bytes or None for a tombstone)] of the log's records that pass their
        checks, and the offset where the log ends: None if a record failed its check or what
        follows the last is neither a record nor erased (torn)."""
        nvm = self.nvm
        size = len(nvm)
        found = []  # type: list
        torn = False
        at = 0
        while at + _HEAD <= size:
            head = nvm[at:at + _HEAD]
            if head[0] == 0xFF and head[1] == 0xFF and head[2] == 0xFF:
                return found, None if torn else at
            n = (head[1] << 8) | head[2]
            if head[0] != _MAGIC or at + _HEAD + n > size:
                return found, None
            if n == 0:
                found.append((at, None))
            else:
                line = bytes(nvm[at + _HEAD:at + _HEAD + n])
                if _checks(line):
                    found.append((at, line))
                else:
                    torn = True
            at += _HEAD + n
        return found, (at if at <= size and not torn else None)

    def load(self, layout=None):
        """As Saves.load, from the log: (settings, game, flips pending), None if no game is
        saved, or SaveError after setting a damaged one aside (a tombstone record)."""
        found, end = self.records()
        self._records = len(found)
        self._end = end
        if found:
            line = found[-1][1]
            if line is None:
                return None
            why = None
            try:
                from gameboard import savedgame
                result = savedgame.parse(line, layout, FORMATS)
                self._last = line.decode()
                return result
            except Exception as exc:
                why = str(exc) or exc.__class__.__name__
            finally:
                forget("gameboard.savedgame")
        elif end == 0 and exists(self.file_path):
            return self._load_file(layout)
        elif end is not None:
            return None             # an erased sector, or one set aside: nothing saved
        else:
            why = "torn by a power cut while its flash sector was erased"
        if len(why) > 60:
            why = why[:57] + "..."
        try:
            self._tombstone()
            where = "set aside"
        except OSError:
            where = "left in place: the flash refused a write"
        raise SaveError("saved game is damaged (%s); %s" % (why, where))

    def set_aside(self):
        """Set the game in nvm aside (gameboard/archive.py's count_restart): its line copied to
        game.bad on the drive (where the drive is the firmware's), then a tombstone record.
        True once done; None if neither nvm nor the drive holds a game."""
        found, self._end = self.records()
        self._records = len(found)
        if not found or found[-1][1] is None:
            try:        # a game.sav on the drive, if any
                import os
                os.rename(self.file_path, self.root + "game.bad")
                return True
            except OSError:
                return None
        try:
            with open(self.root + "game.bad", "wb") as f:
                f.write(found[-1][1])
        except OSError:
            pass            # the drive is the computer's: the game goes, not the board
        self._tombstone()
        return True

    def discard(self):
        """The saved game removed (carried onto the FRAM, gameboard/framsaves.py): a
        tombstone after a game in nvm, and the drive's game.sav."""
        found, self._end = self.records()
        self._records = len(found)
        if found and found[-1][1] is not None:
            self._tombstone()
        try:
            import os
            os.remove(self.file_path)
        except OSError:
            pass

    def _load_file(self, layout):
        # gameboard/savedgame.py reads it as on MicroPython, and sets a damaged one aside.
        self.game_path = self.file_path
        try:
            from gameboard import savedgame
            result = savedgame.load(self, layout, FORMATS)
            self._from_file = True
            return result
        except ValueError as exc:
            raise SaveError(str(exc))
        finally:
            self.game_path = "nvm"
            forget("gameboard.savedgame")

    def _tombstone(self):
        record = bytes((_MAGIC, 0, 0))
        end = self._end
        if end is not None and end + _HEAD <= len(self.nvm):
            self.nvm[end:end + _HEAD] = record
            self._end = end + _HEAD
            self._records += 1
        else:
            self._start_log(record)
        self._last = None


def _checks(line):
    """True if a save line's CRC-32 (its last field) matches the rest."""
    end = line.rfind(b"|")
    return (end >= 0 and line[-1:] == b"\n" and
            line[end + 1:-1] == ("%08x" % (crc32(line[:end]) & 0xFFFFFFFF)).encode())
