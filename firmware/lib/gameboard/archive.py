"""What the board keeps besides the game in progress: the last KEEP_FINISHED finished games as
game records (docs/rules.md) in `games/` under the saves' root, and the crash log `error.log`.

Used at the end of a game, for the host link's `games` and `game` commands and after a crash,
so the board imports it only then and forgets it after (gameboard.forget), with iago.record,
which writes the records: neither takes heap while a game is played.
"""

import os

KEEP_FINISHED = 20


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
    """Write a finished game's record; keeps the last KEEP_FINISHED. Returns its id."""
    from iago import record
    ids = finished_ids(saves)
    game_id = ids[-1] + 1 if ids else 1
    text = record.write(game, headers)
    tmp = saves.games_dir + "/new.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, _finished_path(saves, game_id))
    ids.append(game_id)
    while len(ids) > KEEP_FINISHED:
        os.remove(_finished_path(saves, ids.pop(0)))
    return game_id


def read_finished(saves, game_id):
    """The record text of a kept game; raises KeyError for an unknown id."""
    try:
        with open(_finished_path(saves, game_id)) as f:
            return f.read()
    except OSError:
        raise KeyError(game_id)


def log_error(saves, text, limit=4096):
    """Append to error.log, keeping only the newest `limit` bytes."""
    path = saves.root + "error.log"
    old = ""
    try:
        with open(path) as f:
            old = f.read()
    except OSError:
        pass
    text = (old + text)[-limit:]
    with open(path, "w") as f:
        f.write(text)
