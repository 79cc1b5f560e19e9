"""Remote play's faults (docs/remote.md, "Faults"), injected into one whole Iago game between
two `iago serve --sim --remote` processes through a real Mosquitto: the broker restarted (its
retained messages lost), messages duplicated, delayed and reordered, a forged move, a third
client with the code trying to move, a board's power cut while a move is lit, a host killed
and restarted, and a board whose game parted from the remote one. After each the game goes
on with the boards in step (compared after every move), and each fault is named to the
players; the game ends with both boards showing the same score."""

import json
import random
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from host_sim.remote.codes import GameKeys, new_code
from remote_harness import (Broker, Serve, in_step, play_move, play_to_the_end, set_up,
                            start_game, wait_for)


class Chaos:
    """A third client of the broker, on the game's topics: it keeps every message it sees and
    publishes what a faulty network or a stranger would."""

    def __init__(self, broker, root):
        self.root = root
        self.port = broker.port
        self.seen = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="chaos")
        self.client.on_message = self._message
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(root + "/#", qos=1)
        self.client.reconnect_delay_set(0.25, 2)
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def _message(self, client, userdata, msg):
        with self.lock:
            self.seen.append((msg.topic, bytes(msg.payload)))

    def captured(self, suffix):
        with self.lock:
            return [payload for topic, payload in self.seen if topic.endswith(suffix)]

    def publish(self, topic, payload, retain=False):
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def retained(self, topic):
        """The message the broker now keeps on `topic`."""
        got = []
        probe = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        probe.on_message = lambda c, u, m: got.append(bytes(m.payload))
        probe.connect("127.0.0.1", self.port)
        probe.subscribe(topic, qos=1)
        probe.loop_start()
        wait_for(lambda: got, 5, "the retained message on " + topic)
        probe.loop_stop()
        probe.disconnect()
        return got[0]

    def stop(self):
        self.client.loop_stop()
        self.client.disconnect()


def seq_of(payload):
    return json.loads(json.loads(payload)["body"])["seq"]


def named(board, words, timeout=20):
    """`words` said to the players on `board`'s page since the last fault was injected."""
    wait_for(lambda: any(words in n["text"] for n in board.remote()["notices"]
                         if n["at"] >= named.since), timeout, "%r said to the players" % words)


def injected():
    named.since = int(time.time() * 1000)


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path / "broker")
    yield b
    b.stop()


def test_every_fault_survived_in_step_and_named(broker, tmp_path):
    boards = {side: Serve(tmp_path / side, broker.url) for side in ("dark", "light")}
    dark, light = boards["dark"], boards["light"]
    rng = random.Random(5)
    outcomes = []
    try:
        code = start_game(boards)
        keys = GameKeys(code)
        chaos = Chaos(broker, keys.root)
        for _ in range(3):
            play_move(boards, rng)

        # The broker restarted mid-game: its retained messages are gone.
        injected()
        broker.restart()
        for board in boards.values():
            named(board, "connected to the broker again")
        wait_for(lambda: chaos.retained(keys.topic("view", "dark")), 10, "dark's view again")
        play_move(boards, rng)
        outcomes.append("broker restarted: both hosts reconnected, retained views republished")

        # Every message so far duplicated, then the oldest views put back (delayed, reordered),
        # dark's as the retained one: nobody plays a move twice, dark's host puts its own right.
        injected()
        chaos.client.reconnect()
        time.sleep(0.5)
        for side in ("dark", "light"):
            for payload in chaos.captured("/view/" + side):
                chaos.publish(keys.topic("view", side), payload)
        oldest = chaos.captured("/view/dark")[0]
        chaos.publish(keys.topic("view", "dark"), oldest, retain=True)
        newest = dark.remote()
        wait_for(lambda: seq_of(chaos.retained(keys.topic("view", "dark"))) > seq_of(oldest),
                 10, "dark's host to put its retained view right")
        assert in_step(dark, light) and dark.remote()["game"] == newest["game"]
        play_move(boards, rng)
        outcomes.append("duplicated, delayed, reordered: ignored by seq; the stale retained "
                        "view replaced by its owner")

        # A forged move: light's topic, a move, signed with another game's key.
        injected()
        forger = GameKeys(new_code())
        topic = keys.topic("view", "light")
        view = json.loads(json.loads(chaos.captured("/view/light")[-1])["body"])
        view.update(seq=view["seq"] + 10**9, moves=view["moves"] + ["A1"])
        chaos.publish(topic, forger.sign(topic, view), retain=True)
        named(dark, "refused a message on light's view topic: not signed with this game's code")
        named(light, "refused a message on light's view topic: not signed")
        play_move(boards, rng)
        outcomes.append("forged move: refused by both hosts and named; light's host restored "
                        "its retained view")

        # A third client that knows the code tries to move for the side to move.
        injected()
        turn = dark.remote()["game"]["turn"]
        state = (dark if turn == "dark" else light).snap()["state"]
        intruder = dict(json.loads(json.loads(chaos.captured("/view/" + turn)[-1])["body"]))
        intruder.update(host="intruder", seq=intruder["seq"] + 10**9,
                        moves=dark.remote()["game"]["moves"] + [state["legal"][0]])
        topic = keys.topic("view", turn)
        chaos.publish(topic, keys.sign(topic, intruder))
        other = light if turn == "dark" else dark
        named(other, "another host (intruder) plays %s" % turn)
        named(boards[turn], "another host plays %s with this game's code" % turn)
        assert other.remote()["lit"] is None
        play_move(boards, rng)
        outcomes.append("third client with the code: refused (not the host that plays %s) and "
                        "named on both pages" % turn)

        # A board's power cut while the other side's move is lit on it.
        def cut_power(board, cell):
            assert board.post("power", {"on": False})["ok"]
            time.sleep(0.5)
            assert board.post("power", {"on": True})["ok"]
            named(board, "the board started again")
            wait_for(lambda: board.remote()["lit"] == cell, 20, "%s lit again" % cell)
        injected()
        play_move(boards, rng, before_follow=cut_power)
        outcomes.append("board power cut with a move lit: the board restarted into its game, "
                        "remote set again, the move lit again")

        # A host killed (and its simulated board with it), then restarted.
        injected()
        light.kill()
        named(dark, "light is away (offline)", 30)
        light.start()
        light.post("autoflip", {"on": True})
        named(light, "back in game %s as light" % code)
        set_up(light)
        named(dark, "light is here")
        wait_for(lambda: in_step(dark, light), 30, "the boards in step after the restart")
        play_move(boards, rng)
        outcomes.append("host killed and restarted: the other page said it was away, then "
                        "back; the game came back from its own retained view and the board's "
                        "flash")

        # The board's game parted from the remote one while its host was away: a move of
        # the remote side played on it by hand. The players are asked, and choose.
        turn = dark.remote()["game"]["turn"]
        assert turn == "dark" or play_move(boards, rng)
        injected()
        light.stop()
        plain = Serve(tmp_path / "light", broker.url, remote=False)
        try:
            set_up(plain)
            cell = wait_for(lambda: plain.snap()["state"]["legal"], what="a legal move")[0]
            assert plain.post("place", {"cell": cell})["ok"]
            time.sleep(0.5)
        finally:
            plain.stop()
        light.start()
        light.post("autoflip", {"on": True})
        set_up(light)
        named(light, "the board and the remote game disagree: the board has %s for dark" % cell)
        assert light.remote()["phase"] == "conflict" and light.remote()["conflict"]
        assert light.post("remote/choose", {"choice": "set_up"})["ok"]
        named(light, "clear the board")
        assert light.post("clear")["ok"]
        catch_up(light, dark)
        outcomes.append("board parted from the game: named, the choice offered; set up again "
                        "from the remote game's moves, lit one by one")

        injected()
        play_to_the_end(boards, 6)
        for board in boards.values():
            named(board, "both boards show the same score")
        chaos.stop()
    finally:
        for board in boards.values():
            board.stop()
    print("\n".join("fault: " + line for line in outcomes))


def catch_up(board, other):
    """The lit moves put down one by one until the board is in step with the other."""
    while not in_step(board, other):
        lit = board.remote()["lit"]
        state = board.snap()["state"]
        if lit and not state["tentative"] and not state["flips_pending"] and \
                lit not in state["moves"]:
            board.post("place", {"cell": lit})
        time.sleep(0.05)
