"""This host's remote game, kept on its disk (its code and side), so a host that restarts comes
back to its game without the players typing the code again. The code is the game's key: the
file is the user's alone (0600)."""

import json
import secrets

from host_sim.remote.codes import SIDES, GameKeys


def kept(path):
    """{"code", "side"} of the game kept at `path`, or None (none, or not readable)."""
    try:
        data = json.loads(path.read_text())
        GameKeys(data["code"])
        if data["side"] in SIDES:
            return data
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def host_id(session, code=None):
    """This host's id in the game `code`: the one kept if it is that game's, else a new one."""
    data = kept(session.store)
    if code is not None and data and data["code"] == code and isinstance(data.get("host"), str):
        return data["host"]
    return secrets.token_hex(6)


def keep(session, data):
    """Keep `data` ({"code", "side"}; None: forget the game) at the session's store."""
    path = session.store
    try:
        if data is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(data))
            path.chmod(0o600)
    except OSError as exc:
        session.say("cannot keep the game's code in %s: %s" % (path, exc), "fault")
