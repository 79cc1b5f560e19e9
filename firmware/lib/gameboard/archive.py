"""What the board keeps besides the game in progress: the last KEEP_FINISHED finished games as
game records (docs/rules.md) in `games/` under the saves' root, the crash log `error.log`, and
the count of restarts in a row, each soon after the one before (gameboard.app.main).

Used at the end of a game, for the host link's `games` and `game` commands and after a crash,
so the board imports it only then and forgets it after (gameboard.forget), with iago.record,
which writes the records: neither takes heap while a game is played.
"""

import os

KEEP_FINISHED = 20
# Restarts in a row, each within 10 s of the one before, before the saved game is set aside
# (it may be what crashes the firmware), and before the board stops with a fault, not a loop.
SET_ASIDE_AFTER = 2
STOP_AFTER = 4
RESTARTS = "restarts"     # the count's file under the root (main removes it once a start lasts)


def finished_ids(saves):
    """Ids of the kept finished games, oldest first."""
    ids = []
    for name in os.listdir(saves.games_dir):
        if name.endswith(".iago") and name[:-5].isdigit():
            ids.append(int(name[:-5]))
    ids.sort()
    return ids


def _finished_path(saves, game_id):
    return "%s/%06d.iago" % (saves.games_dir, game_id)


def save_finished(saves, game, headers=None):
    """Write a finished game's record; keeps the last KEEP_FINISHED. Returns its id. The
    newest record kept already, if it is this very game: a board restored into a finished
    game after a power cut writes its record again, unless it was kept before the cut."""
    from iago import record
    ids = finished_ids(saves)
    game_id = ids[-1] + 1 if ids else 1
    text = record.write(game, headers)
    if ids:
        try:
            if read_finished(saves, ids[-1]) == text:
                return ids[-1]
        except (KeyError, OSError, ValueError):
            pass
    tmp = saves.games_dir + "/new.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, _finished_path(saves, game_id))
    ids.append(game_id)
    while len(ids) > KEEP_FINISHED:
        os.remove(_finished_path(saves, ids.pop(0)))
    return game_id


def read_finished(saves, game_id):
    """The record text of a kept game; raises KeyError for an unknown id, ValueError for a
    record that cannot be read back (damaged on the flash)."""
    try:
        with open(_finished_path(saves, game_id), "rb") as f:
            raw = f.read()
    except OSError:
        raise KeyError(game_id)
    try:
        return raw.decode()
    except ValueError:
        raise ValueError("the record of game %d is damaged (not text)" % game_id)


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


def count_restart(root):
    """Count a start that follows a restart (the last run crashed or hung) in the file
    RESTARTS under `root`, which main removes once a start has run a while. From
    SET_ASIDE_AFTER restarts in a row on, the saved game is set aside as game.bad (it may be
    what crashes the board): returns what to report then, else None. At STOP_AFTER the board
    stops with a fault (hw.fault) instead."""
    path = root + RESTARTS
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
    if count >= STOP_AFTER:
        from gameboard import hw
        hw.fault("the firmware restarted %d times in a row, each within seconds of the last; "
                 "error.log has why. Power the board off and on to try again" % count)
    if count < SET_ASIDE_AFTER:
        return None
    for name in ("game.sav", "game.json"):     # and older firmware's save
        try:
            os.rename(root + name, root + "game.bad")
            break
        except OSError:
            pass
    else:
        return None         # no saved game (or none that can be moved)
    return ("the firmware restarted %d times in a row, each within seconds of the last: the "
            "saved game was set aside as game.bad and a new game begins" % count)
