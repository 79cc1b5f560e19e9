"""The board map, checked once and read back from its checked copy at every later start.

Checking a map (gameboard.boardmap) takes about 10 KB of heap, and the names its code interns
stay in the heap after the module is dropped (about 4 KB in play on the emulated Pico). So
the first start after the map changes checks it and keeps the result beside the saves, with
the SHA-256 of the map's bytes and of the checker's own file; while that still matches, later
starts read the copy back without the checker. An edited map, or new firmware, is checked
again, so a mistake in the map is still reported. The copy is one JSON line and its checksum
line, as the saved game is: a copy damaged in any way (bad bytes, any size) is not read back
but made again from the map.
"""

import binascii
import hashlib
import json
import os

import gameboard

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

FORMAT = 2   # of the checked copy (1: the same without the checksum line)
_MAX_COPY = const(16384)   # a copy is under 2 KB; a larger file is damage, not read into the heap
# The tables the scan and LED paths index: bytearrays; the other lists are tuples.
_TABLES = ("cell_of_crossing", "crossing_of_cell", "led_of_cell", "cell_of_led")


class CheckedMap:
    """A board map read back from its checked copy: the entries of boardmap.BoardMap. It has
    no methods, so nothing in it refers to this module, which can then be dropped."""


def forget():
    """Drop this module from the heap, and the map checker it may have imported
    (gameboard.forget); the map it loaded keeps only its tables."""
    gameboard.forget(__name__, "gameboard.boardmap")


def _read_back(entries):
    bmap = CheckedMap()
    for key in entries:
        value = entries[key]
        if isinstance(value, list):
            value = bytearray(value) if key in _TABLES else tuple(value)
        setattr(bmap, key, value)
    return bmap


# True once load() has checked the map and kept a copy that reads back: a start after that
# runs without the checker in the heap (gameboard.app.main restarts for it).
kept_now = False


def load(map_path, checked_path):
    """The board map at `map_path`, its checked copy kept at `checked_path`. Raises
    boardmap.BoardMapError (a ValueError) for a map it cannot use: missing, unreadable (bad
    bytes, too large for the heap) or wrong."""
    global kept_now
    kept_now = False
    try:
        with open(map_path, "rb") as f:
            raw = f.read()
        digest = _digest(raw)
        bmap = _read(checked_path, digest)
        if bmap is not None:
            return bmap
        from gameboard import boardmap
        bmap = boardmap.parse(raw.decode(), map_path)
    except Exception as exc:
        from gameboard import boardmap
        if isinstance(exc, boardmap.BoardMapError):
            raise
        raise boardmap.BoardMapError("board map: %s cannot be read (%s)" % (
            map_path, str(exc) or exc.__class__.__name__))
    raw = b""        # the map's bytes are done with: their heap is the copy's now
    body = json.dumps({"format": FORMAT, "sha256": digest, "map": boardmap.checked_copy(bmap)})
    try:
        with open(checked_path + ".tmp", "w") as f:
            f.write(body)
            f.write("\n" + _crc_line(body.encode()) + "\n")
        os.rename(checked_path + ".tmp", checked_path)
    except OSError:
        return bmap      # a full or read-only flash: the map is checked at every start instead
    kept_now = _read(checked_path, digest) is not None
    return bmap


def _digest(raw):
    """What the checked copy is of: the map's bytes and the checker's code. CircuitPython on a
    Pico has no SHA-256 (hashlib.new refuses it): a CRC-32 of the same bytes tells a changed
    map or checker there."""
    if hasattr(hashlib, "sha256"):
        hasher = hashlib.sha256(raw)
        hasher.update(_checker())
        return binascii.hexlify(hasher.digest()).decode()
    return "crc32-%08x" % (binascii.crc32(_checker(), binascii.crc32(raw)) & 0xFFFFFFFF)


def _crc_line(body):
    return "crc %08x" % (binascii.crc32(body) & 0xFFFFFFFF)


def _read(path, digest):
    """The checked copy at `path` if it is of the map and checker of `digest`, else None."""
    try:
        if os.stat(path)[6] > _MAX_COPY:
            return None
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        if len(lines) == 3 and not lines[2] and lines[1] == _crc_line(lines[0]).encode():
            kept = json.loads(lines[0].decode())
            if kept["format"] == FORMAT and kept["sha256"] == digest:
                return _read_back(kept["map"])
    except Exception:
        pass        # none kept yet, or damaged in any way (even too large for the heap)
    return None


def _checker():
    """The bytes of gameboard/boardmap (.mpy on a Pico, .py on a host), found beside this
    module without importing it."""
    here = __file__
    cut = max(here.rfind("/"), here.rfind("\\"))
    for name in ("boardmap.mpy", "boardmap.py"):
        try:
            with open(here[:cut + 1] + name, "rb") as f:
                return f.read()
        except OSError:
            pass
    return b""
