"""What the broker brings a remote session, and what it sends (session.py's worker runs these):
each message checked (its topic, its signature with the game's key, its side) and then taken
(presence, the other side's view, our own views put right when a stale or foreign one took
their place on the broker); and this side's view and board, published when they changed."""

import json
import time

from host_sim.remote import sync
from host_sim.remote.codes import SIDES
from host_sim.remote.game import Refused, other

BOARD_VIEW_S = 1.0           # the spectators' board is published at most this often

time = getattr(time, "_host_time", time)   # a simulated board's `time` is virtual


def seq_of(view):
    seq = view.get("seq")
    return seq if type(seq) is int else -1


def message(session, topic, payload):
    keys = session.keys
    if keys is None or not topic.startswith(keys.root + "/"):
        return
    kind, _, side = topic[len(keys.root) + 1:].partition("/")
    if kind not in ("view", "presence", "board") or side not in SIDES:
        session.say("a message on an unknown topic %s was ignored" % topic[:80], "fault")
        return
    try:
        body = keys.open(topic, payload)
    except ValueError as exc:
        session.say("refused a message on %s's %s topic: %s" % (side, kind, exc), "fault")
        if side == session.side:
            session.published = None          # put our own retained message right
        return
    if body.get("side") != side:
        session.say("refused a message on %s's topic that says it is %r's" % (
            side, body.get("side")), "fault")
        return
    if kind == "presence":
        their_presence(session, side, body)
    elif kind == "view" and session.game is not None:
        if side == session.side:
            if seq_of(body) != session.game.seq:
                session.published = None      # an old or foreign view of ours: put right
                if seq_of(body) > session.game.seq:
                    session.say("another host plays %s with this game's code: its messages "
                             "are refused" % side, "fault")
        else:
            merge(session, body)

def their_presence(session, side, body):
    if side == session.side:
        if body.get("online") is False and session.link is not None and session.link.connected:
            topic, payload = session.presence(True)     # an old will of ours: put right
            session.link.publish(topic, payload, retain=True)
        return
    online = body.get("online") is True
    if session.opponent["online"] == online:
        return
    with session.lock:
        session.opponent = {"online": online, "since": body.get("at")}
    if session.game is not None:
        session.say("%s is %s" % (side, "here" if online else "away (offline)"))

def merge(session, view):
    try:
        changes = session.game.merge(view, sync.settled_moves(session))
    except Refused as exc:
        session.say("refused %s's message: %s" % (other(session.side), exc), "fault")
        return
    for change, value in changes:
        sync.news(session, change, value, view)

def publish(session):
    """This side's view and the spectators' board, when they changed."""
    link, game, keys = session.link, session.game, session.keys
    if link is None or game is None or keys is None or not link.connected:
        return
    now_view = (game.epoch, game.moves, game.ask, game.answer, game.resigned, game.result)
    if now_view != session.published:
        topic = keys.topic("view", session.side)
        link.publish(topic, keys.sign(topic, game.view(keys.game_id)), retain=True)
        session.published = now_view
    snapshot, leds = session.board_view()
    if snapshot is None:
        return
    text = json.dumps(snapshot, sort_keys=True)
    last, when = session.board_sent
    if text != last and time.monotonic() - when >= BOARD_VIEW_S:
        topic = keys.topic("board", session.side)
        link.publish(topic, keys.sign(topic, {"game": keys.game_id, "side": session.side,
                                              "snapshot": snapshot, "leds": leds,
                                              "at": session.clock()}), retain=True)
        session.board_sent = (text, time.monotonic())
