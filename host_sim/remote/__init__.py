"""Remote play: two boards in two homes play one game through an MQTT broker (docs/remote.md).

`iago serve --remote` gives its board a RemoteSession (session.py): the page's "Play someone
remotely" creates or joins a game by its code (codes.py), the agreed game is kept from both
sides' views (game.py), the board is kept in step with it (sync.py), and the broker is reached
through paho-mqtt (mqttlink.py).
"""

import os
from pathlib import Path


def attach(driver, hub, args):
    """With `iago serve --remote`, give `driver` (SimDriver or SerialDriver) a remote session
    from the options (its owner starts it after the driver); SystemExit(2) with one line for a
    bad broker address."""
    if not getattr(args, "remote", False):
        return None
    import sys

    from host_sim.remote.mqttlink import BrokerAddress
    from host_sim.remote.session import RemoteSession
    from host_sim.web.records import default_games_dir
    try:
        broker = BrokerAddress(args.broker)
    except ValueError as exc:
        sys.stderr.write("iago serve: --broker: %s\n" % exc)
        raise SystemExit(2)
    password = args.broker_password
    if password is None:
        password = os.environ.get("IAGO_BROKER_PASSWORD")
    credentials = {}
    if args.broker_user is not None:
        credentials.update(username=args.broker_user, password=password)
    if args.broker_ca is not None:
        credentials["ca_file"] = args.broker_ca
    store = Path(args.remote_dir or default_games_dir().parent / "remote") / "game.json"
    driver.remote = RemoteSession(
        driver.remote_command, lambda: spectator_view(hub),
        lambda text: hub.log("note", text, "remote"), broker, store, credentials)
    return driver.remote


# What spectators see of a board: its game and disks, nothing of this computer (paths, ports).
SPECTATOR_FIELDS = ("state", "layout", "disks", "areas", "movers", "board", "firmware")


def spectator_view(hub):
    """(snapshot, leds) of the board for the spectators' page, or (None, None) before any."""
    snap = hub.state()
    if not snap or not snap.get("state"):
        return None, None
    view = {key: snap.get(key) for key in SPECTATOR_FIELDS}
    view.update(mode="watch", connected=True, powered=True, gestures=False, hand={},
                flipping=[], replay=None, saved=[], games_dir=None, sim=None, fault=None)
    return view, hub.leds()
