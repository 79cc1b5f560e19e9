"""The game in progress on the board's FRAM, when one is fitted (hardware/pcb: an MB85RC256V,
32 KB, on I2C1).

Why: a save on the Pico's flash now and then erases a sector, and the Pico runs nothing while
its flash erases (45 ms: the loop's step 70-85 ms, a disk put down then lights late). An FRAM
takes a save line in about 2 ms at 1 MHz, with no erase and no write delay, wears 10^12 writes,
and keeps its contents without power, across a UF2 too (which rewrites the whole flash).

The store drives a byte device, `read_into(address, buf)` and `write(address, data)`:
gameboard/hw.py and cphw.py make one on the I2C bus, the host's fakes and tests others, so
they all run this very code. Two slots of _SLOT bytes, at 0 and at _SLOT, each one record:

    b"IG", sequence number (4 bytes, big-endian), length n (2 bytes), a save line of
    gameboard/saves.py (n bytes), the CRC-32 of everything before it (4 bytes)

The newest record that passes its check is the game; one of length 0 says "no game" (set
aside, or carried elsewhere). A save writes the slot that does not hold the newest record,
with the next sequence number. Why a cut after any byte is safe: the newest record is never
written over, and the slot being written holds either the whole new record (newer: read) or a
mix of new and older bytes, which fails its CRC-32 (unless it is exactly the older record,
whose sequence number loses): the old game is read. Two slots, not a log: an FRAM needs no
erase and does not wear out at a save a placement, so nothing is gained by spreading saves.

An I2C error in a save gives the FRAM up at once: that save and every one after it go to the
flash store (`fallen` says why; gameboard/app.py tells the host link, `stats` shows `store`),
so nothing is lost. A game on the flash when the board starts is always the newest, as the
flash holds one only from before an FRAM was fitted or after it failed: it is written to the
FRAM, then removed from the flash (a cut between the two carries it again). Finished games,
the crash log and the restart count stay files on the flash (gameboard/archive.py).
"""

from binascii import crc32

from gameboard import forget
from gameboard.saves import FORMATS, SaveError

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_SLOT = const(4096)        # a save line is under 2 KB (gameboard/savedgame.py)
_HEAD = const(8)           # b"IG", sequence (4), length (2)
_CRC = const(4)


class FramSaves:
    """The saves (gameboard/saves.py's interface) with the game in progress on `fram` (a byte
    device), and finished games, and the game whenever the FRAM fails, on `flash` (a Saves,
    or cpsaves.NvmSaves on CircuitPython)."""

    def __init__(self, flash, fram):
        self.flash = flash
        self.fram = fram             # None once given up
        self.root = flash.root
        self.games_dir = flash.games_dir
        self.game_path = "fram"
        self.store = "fram"          # where the game in progress goes: "fram" or "flash"
        self.fallen = None           # why the FRAM was given up
        self.news = None             # that, until gameboard/app.py has told the host link
        self._seq = 0                # of the newest record
        self._next = 0               # the slot the next save writes
        self._head = bytearray(_HEAD)

    def line(self, settings, game, flips_pending=(), but_last=False):
        return self.flash.line(settings, game, flips_pending, but_last)

    def save(self, settings, game, flips_pending, but_last=False):
        """Save the game on the FRAM; on the flash if it fails (or failed before)."""
        if self.fram is not None:
            try:
                self.write_line(self.line(settings, game, flips_pending, but_last))
                return
            except OSError as exc:
                self.give_up(exc)
        self.flash.save(settings, game, flips_pending, but_last)

    def save_again(self):
        """The flash's padding (gameboard/app.py) once its store has the game; an FRAM needs
        none."""
        if self.fram is None:
            self.flash.save_again()

    def give_up(self, exc):
        self.fram = None
        self.store = "flash"
        self.fallen = self.news = "the FRAM failed (%s): the game is saved on the flash" % (
            str(exc) or exc.__class__.__name__)

    def write_line(self, line):
        """Write a save line (str or bytes; empty: no game) as the newest record."""
        data = line.encode() if isinstance(line, str) else line
        n = len(data)
        if n + _HEAD + _CRC > _SLOT:
            raise OSError(28, "a save of %d bytes does not fit an FRAM slot" % n)
        seq = self._seq + 1
        record = bytearray(_HEAD + n + _CRC)
        record[0] = 0x49
        record[1] = 0x47
        for i in range(4):
            record[2 + i] = (seq >> (24 - 8 * i)) & 0xFF
        record[6] = n >> 8
        record[7] = n & 0xFF
        record[_HEAD:_HEAD + n] = data
        crc = crc32(memoryview(record)[:_HEAD + n]) & 0xFFFFFFFF
        for i in range(4):
            record[_HEAD + n + i] = (crc >> (24 - 8 * i)) & 0xFF
        self.fram.write(self._next * _SLOT, record)
        self._seq = seq
        self._next ^= 1

    def read_slot(self, slot):
        """(sequence, line bytes) of a slot's record, or None if it fails its check."""
        head = self._head
        self.fram.read_into(slot * _SLOT, head)
        n = (head[6] << 8) | head[7]
        if head[0] != 0x49 or head[1] != 0x47 or n + _HEAD + _CRC > _SLOT:
            return None
        body = bytearray(n + _CRC)
        self.fram.read_into(slot * _SLOT + _HEAD, body)
        crc = crc32(memoryview(body)[:n], crc32(head)) & 0xFFFFFFFF
        if crc != (body[n] << 24) | (body[n + 1] << 16) | (body[n + 2] << 8) | body[n + 3]:
            return None
        seq = (head[2] << 24) | (head[3] << 16) | (head[4] << 8) | head[5]
        return seq, bytes(body[:n])

    def newest(self):
        """The newest record's line (b"" for none) or None if no slot holds a record; sets
        where the next save goes."""
        best = None
        for slot in (0, 1):
            found = self.read_slot(slot)
            if found is not None and (best is None or found[0] > best[0]):
                best = found
                self._next = slot ^ 1
        if best is None:
            self._seq = 0
            self._next = 0
            return None
        self._seq = best[0]
        return best[1]

    def load(self, layout=None):
        """As Saves.load: (settings, game, flips pending), None if no game is saved, or
        SaveError after setting a damaged one aside. The flash's game, if any, first: it is
        carried onto the FRAM. An FRAM that fails here is given up (`news` says so)."""
        try:
            line = self.newest()
        except OSError as exc:
            self.give_up(exc)
            return self.flash.load(layout)
        try:
            loaded = self.flash.load(layout)
        except SaveError:
            if line:                   # the flash's damaged game was newer than the FRAM's
                self.set_aside(line, False)
            raise
        if loaded is not None:
            self.carry(loaded)
            return loaded
        if not line:
            return None
        try:
            from gameboard import savedgame
            return savedgame.parse(line, layout, FORMATS)
        except Exception as exc:
            why = str(exc) or exc.__class__.__name__
        finally:
            forget("gameboard.savedgame")
        self.set_aside(line)
        raise SaveError("saved game is damaged (%s); set aside as game.bad" % why[:60])

    def carry(self, loaded):
        """The flash's game written onto the FRAM, then removed from the flash."""
        settings, game, flips = loaded
        try:
            self.write_line(self.line(settings, game, flips))
        except OSError as exc:
            self.give_up(exc)
            return
        self.flash.discard()

    def set_aside(self, line=None, keep=True):
        """The saved game set aside as game.bad (gameboard/archive.py's count_restart, a
        damaged save): the flash's if it holds one (the newer), else the FRAM's (`line`, if
        read already; `keep` False: not copied), then "no game" written on the FRAM. True
        once done, None if neither holds a game."""
        moved = self.flash.set_aside()
        if line is None and self.fram is not None:
            try:
                line = self.newest()
            except OSError:
                return moved
        if not line:
            return moved
        if keep and not moved:
            try:
                with open(self.root + "game.bad", "wb") as f:
                    f.write(line)
            except OSError:
                pass            # the game goes, not the board
        try:
            self.write_line(b"")
        except OSError as exc:
            self.give_up(exc)
        return True
