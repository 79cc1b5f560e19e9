"""What the board keeps besides the game in progress: the last 20 finished games in
`games/` under the saves' root, the crash log `error.log`, and the count of restarts in a
row, each soon after the one before (gameboard.app.main). And the score a finished game
shows on the LEDs (`score`).

A finished game is kept as its save line (gameboard/saves.py, `NNNNNN.sav`) and written as a
game record (docs/rules.md) only when a host asks for it (`game`): the record writer
(iago.record) interns about 56 names, which MicroPython never frees, and at a game's end they
would push every later game's heap past a new pool of names (3.9 KB). Records kept by older
firmware (`NNNNNN.iago`) are read as they are.

Used at the end of a game, for the host link's `games` and `game` commands and after a crash,
so the board imports it only then and forgets it after (`forget`): it takes no heap while a
game is played.
"""

import os

import gameboard

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Private consts are inlined: no global and no interned name on a Pico.
_KEEP_FINISHED = const(20)
# Restarts in a row, each within 10 s of the one before, before the saved game is set aside
# (it may be what crashes the firmware), and before the board stops with a fault, not a loop.
_SET_ASIDE_AFTER = const(2)
_STOP_AFTER = const(4)


def forget():
    """Drop this module from the heap, and the save reader and record writer it may have
    imported (gameboard.forget); call it when done."""
    gameboard.forget(__name__, "gameboard.savedgame", "iago.record")


def finished_ids(saves):
    """Ids of the kept finished games, oldest first."""
    ids = []
    for name in os.listdir(saves.games_dir):
        stem, _, kind = name.partition(".")
        if kind in ("sav", "iago") and stem.isdigit():
            ids.append(int(stem))
    ids.sort()
    return ids


def _finished_path(saves, game_id, kind="sav"):
    return "%s/%06d.%s" % (saves.games_dir, game_id, kind)


def _read(saves, game_id):
    """(kind, bytes) of a kept game; raises KeyError for an unknown id."""
    for kind in ("sav", "iago"):
        try:
            with open(_finished_path(saves, game_id, kind), "rb") as f:
                return kind, f.read()
        except OSError:
            pass
    raise KeyError(game_id)


def save_finished(saves, game, settings=None):
    """Keep a finished game (its settings: default Settings()); keeps the last 20.
    Returns its id. The newest game kept already, if it is this very game: a board restored
    into a finished game after a power cut keeps it again, unless it was kept before the
    cut."""
    if settings is None:
        from gameboard.settings import Settings
        settings = Settings()
    ids = finished_ids(saves)
    game_id = ids[-1] + 1 if ids else 1
    line = saves.line(settings, game)
    if ids:
        try:
            if _read(saves, ids[-1]) == ("sav", line.encode()):
                return ids[-1]
        except KeyError:
            pass
    tmp = saves.games_dir + "/new.tmp"
    with open(tmp, "w") as f:
        f.write(line)
    os.rename(tmp, _finished_path(saves, game_id))
    ids.append(game_id)
    while len(ids) > _KEEP_FINISHED:
        old = ids.pop(0)
        for kind in ("sav", "iago"):
            try:
                os.remove(_finished_path(saves, old, kind))
            except OSError:
                pass
    return game_id


def read_finished(saves, game_id, layout=None):
    """The game record (text) of a kept game; `layout` (gameboard/layout.py; default the hex
    board's) says which game the board plays. Raises KeyError for an unknown id, ValueError
    for one that cannot be read back (damaged on the flash). Loads iago.record and
    gameboard.savedgame: forget them after."""
    kind, raw = _read(saves, game_id)
    try:
        if kind == "iago":
            return raw.decode()
        from gameboard import savedgame
        from gameboard.saves import FORMATS
        from iago import record
        return record.write(savedgame.parse(raw, layout, FORMATS)[1])
    except MemoryError:
        raise
    except Exception as exc:
        raise ValueError("the record of game %d is damaged (%s)" % (
            game_id, str(exc)[:40] or exc.__class__.__name__))


def log_exception(saves, exc):
    """Write the traceback of `exc` to error.log (best effort: never raises)."""
    try:
        import io
        import sys
        out = io.StringIO()
        if hasattr(sys, "print_exception"):
            sys.print_exception(exc, out)
        else:
            import traceback  # type: ignore[import-not-found]  # CPython only
            traceback.print_exception(type(exc), exc, exc.__traceback__, file=out)
        log_error(saves, out.getvalue())
    except Exception:
        pass


def log_error(saves, text, limit=4096):
    """Append to error.log, keeping only the newest `limit` bytes. `saves`: the Saves, or its
    root folder when the start failed before there were any."""
    path = getattr(saves, "root", saves) + "error.log"
    old = b""
    try:
        size = os.stat(path)[6]
        with open(path, "rb") as f:        # bytes: a damaged log must not stop the logging
            if size > limit:
                f.seek(size - limit)
            old = f.read()
    except OSError:
        pass
    data = (old + text.encode())[-limit:]
    with open(path, "wb") as f:
        f.write(data)


def count_restart(saves):
    """Count a start that follows a restart (the last run crashed or hung) in the file
    "restarts" under the saves' root, which main removes once a start has run a while. From
    _SET_ASIDE_AFTER restarts in a row on, the saved game is set aside as game.bad (it may be
    what crashes the board; `saves.set_aside`, wherever the game is kept):
    returns what to report then, else None. At _STOP_AFTER the board stops with a fault
    (hw.fault) instead."""
    path = saves.root + "restarts"    # main removes it once a start lasts
    count = 0
    try:
        with open(path, "rb") as f:
            count = int(f.read(8).decode())
    except Exception:       # none yet, or damaged: count afresh
        pass
    count = max(count, 0) + 1
    try:
        with open(path, "w") as f:
            f.write(str(count))
    except OSError:
        pass
    if count >= _STOP_AFTER:
        from gameboard import hw
        hw.fault("the firmware restarted %d times in a row, each within seconds of the last; "
                 "error.log has why. Power the board off and on to try again" % count)
    if count < _SET_ASIDE_AFTER:
        return None
    moved = saves.set_aside()   # game.sav, CircuitPython's nvm, the FRAM (their modules)
    if not moved:
        return None         # no saved game (or none that can be moved)
    return ("the firmware restarted %d times in a row, each within seconds of the last: the "
            "saved game was set aside as game.bad and a new game begins" % count)


# The score's screens (docs/board.md, "The score at the end"), in tenths of a second: who won
# (24); then each number's digits in turn, each lit 0.7 s (gameboard/painter.py) and followed
# by its marks alone, 0.2 s between two digits (9), 0.7 s after a number's last (14). Which
# number it is, the marks beside the digit say (`draw`'s mode): the inner count 0, the outer
# count 1, the score (or any count) 2. Literal numbers, not consts: on the unix VM each name
# stays interned (tests/test_app_micropython.py, the names' budget).


def score(game, layout):
    """The finished `game`'s result on `layout`'s board as the LEDs show it until the board
    is cleared (docs/board.md, "The score at the end"): the painter's view.result, as bytes:
        [0] k, the number of screens; [1] a cell that flashes on the first screen (the centre
        that broke a tie) or 255; [2] the screens' whole time in tenths of a second;
        [3:3 + k] each screen's time, bit 7 set for light's screens; then screens 1 to k-1,
        two bits a cell, four cells a byte from bit 0 (0 dark, 1 a digit in the side's disk
        colour, 2 a mark, green).
    Screen 0 (who won) is painted from the disks. The rest are each side's numbers, a digit a
    screen, hundreds first: Iago's inner and outer counts and score (under simple rules the
    count), or on a square board the count of disks."""
    n = layout.cells
    outcome = game.outcome()
    data = (bytearray(b"\x18"), bytearray())   # the screens' times (who won 2.4 s), screens
    for side in (1, 2):                     # dark, then light
        if layout.kind == "hex" and game.rules.scoring == "product":
            inner, outer = game.area_counts(side)
            parts = [(inner, 0), (outer, 1), ((inner or 1) * (outer or 1), 2)]
        else:
            parts = [(game.score(side), 2)]
        for number, mode in parts:
            k = 100 if number >= 100 else 10 if number >= 10 else 1    # its first digit's
            while k:
                cells = draw(layout, number // k % 10, mode)
                if side == 2:
                    cells = bytes(reversed(cells))      # the half turn: upright for light
                out = bytearray((n + 3) // 4)
                for c in range(n):
                    out[c >> 2] |= cells[c] << ((c & 3) << 1)
                data[0].append((9 if k > 1 else 14) | (0x80 if side == 2 else 0))
                data[1].extend(out)
                k //= 10
    return bytes((
        len(data[0]),
        layout.demo_cell if outcome.tie_break and layout.kind == "hex" else 255,  # broke a tie
        sum([x & 0x7F for x in data[0]]))) + data[0] + data[1]


def draw(layout, d, mode):
    """A bytearray a cell: digit `d` (1), upright for dark in the middle of the board (hex:
    rows H to B; square: seven ranks of five squares), and the marks of `mode` (2): 0 the
    inner count (E2 and E8), 1 the outer count (the outer ring's hexes no digit takes), 2 the
    score (rows A and I; a square board's ranks above and below the digit, where it has them).
    `d` None: the marks alone."""
    # The digits 0-9, each seven rows from the top down: a bit a cell from the row's left end
    # (bit 0). On the hex board H4-H9, G4-G8, F3-F8, E3-E7, D2-D7, C2-C6, B1-B6 (the rows of
    # six lie half a hex out on each side of the rows of five, so an upright stroke zigzags a
    # quarter of a hex). On a square board a row of six takes its middle four in three
    # columns (the last six bytes: its cell -> a column) and its ends as the ends. Drawn in
    # docs/board.md; tests/test_score_full_board.py reads them back from a full board.
    rows = (b"\x1e\x11\x21\x11\x21\x11\x1e\x0c\x06\x0c\x04\x0c\x04\x1e\x1e\x11\x20\x08\x04\x01"
            b"\x3f\x1e\x11\x20\x0c\x20\x11\x1e\x11\x09\x11\x1f\x10\x08\x10\x3f\x01\x1f\x10\x20"
            b"\x11\x1e\x1e\x01\x01\x0f\x21\x11\x1e\x3f\x10\x10\x08\x08\x04\x04\x1e\x11\x21\x0e"
            b"\x21\x11\x1e\x1e\x11\x21\x1e\x20\x10\x1e\x00\x01\x02\x02\x03\x04")
    cells = bytearray(layout.cells)
    size = layout.size
    grid = layout.grid
    for c in range(layout.cells):
        if layout.kind != "hex":
            lit = (size - 1 - c // size) in ((size - 9) // 2, (size + 7) // 2)
        elif mode == 2:
            lit = grid.ROW_OF[c] in (0, 8)
        elif mode == 1:
            lit = grid.IS_OUTER[c] and grid.ROW_OF[c] not in (1, 7)   # B1 B6 H4 H9: digits
        else:
            lit = grid.ROW_OF[c] == 4 and grid.NUMBER_OF[c] in (2, 8)
        if lit:
            cells[c] = 2
    for x in range(7 if d is not None else 0):
        bits = rows[d * 7 + x]
        row = 7 - x
        for k in range(6):
            if not bits >> k & 1:
                continue
            if layout.kind == "hex":
                cells[grid.cell_at(row, k + 1 + row // 2)] = 1
            else:
                cells[(size - 1 - (size - 7) // 2 - x) * size + (size - 5) // 2 +
                      (rows[70 + k] if row & 1 else k)] = 1
    return cells
