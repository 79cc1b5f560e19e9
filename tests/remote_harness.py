"""Remote play's test bench: a real Mosquitto on free ports (TCP and WebSockets listeners),
`iago serve --sim --remote` processes as users start them, and the hands that play a game
across two of them (tests/test_remote_play.py, tests/bench/remote_load.py)."""

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import iago

ROOT = Path(__file__).resolve().parent.parent
MOSQUITTO = Path("/usr/sbin/mosquitto")
IAGO = Path(sys.executable).parent / "iago"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, timeout=20.0, what="the condition", every=0.02):
    """check()'s first true value within `timeout` s; AssertionError naming `what` if none."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("timed out after %g s waiting for %s" % (timeout, what))
        time.sleep(every)


class Broker:
    """Debian's mosquitto on two free ports of 127.0.0.1: MQTT over TCP and over WebSockets;
    no persistence, so a restart loses every retained message (the worst case)."""

    def __init__(self, folder):
        if not MOSQUITTO.exists():
            raise AssertionError("%s is missing: `make test` installs Debian's mosquitto "
                                 "(or: apt-get install mosquitto)" % MOSQUITTO)
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.ws_port = free_port()
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text("listener %d 127.0.0.1\nlistener %d 127.0.0.1\nprotocol websockets\n"
                             "allow_anonymous true\npersistence false\n" % (
                                 self.port, self.ws_port))
        self.proc = None
        self.start()

    @property
    def url(self):
        return "mqtt://127.0.0.1:%d" % self.port

    @property
    def ws_url(self):
        return "ws://127.0.0.1:%d/" % self.ws_port

    def start(self):
        log = open(self.folder / "mosquitto.log", "ab")
        self.proc = subprocess.Popen([str(MOSQUITTO), "-c", str(self.conf)], stdout=log,
                                     stderr=subprocess.STDOUT)
        log.close()

        def listening():
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                socket.create_connection(("127.0.0.1", self.ws_port), 0.2).close()
                return True
            except OSError:
                return False
        wait_for(listening, 10, "mosquitto to listen")

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def restart(self, down_s=1.0):
        self.stop()
        time.sleep(down_s)
        self.start()


class Serve:
    """`iago serve --sim --remote` in a child process, its flash and remote game kept in
    `folder` (so a restart comes back to them); posts and snapshots through its HTTP API."""

    def __init__(self, folder, broker_url, map_path=None, speed=8, remote=True, extra=(),
                 env=None, port=None):
        self.folder = Path(folder)
        board = ["--port", port] if port else [
            "--sim", "--speed", str(speed), "--flash-dir", str(self.folder / "flash")]
        self.args = [str(IAGO), "serve"] + board + (["--remote"] if remote else []) + [
                     "--broker", broker_url, "--http-port", "0",
                     "--remote-dir", str(self.folder / "remote"),
                     "--games-dir", str(self.folder / "games")]
        if map_path:
            self.args += ["--map", str(map_path)]
        self.args += list(extra)
        self.env = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
        self.proc = None
        self.url = None
        self.start()

    def start(self):
        self.folder.mkdir(parents=True, exist_ok=True)
        err = open(self.folder / "serve.err", "ab")
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=err, text=True,
                                     env=self.env)
        err.close()
        line = self.proc.stdout.readline()
        assert line.startswith("Iago board: "), (line, (self.folder / "serve.err").read_text())
        self.url = line.split()[-1].rstrip("/")

    def kill(self):
        """The host killed at once (SIGKILL): no goodbye to the broker."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def post(self, action, body=None):
        req = urllib.request.Request(self.url + "/api/" + action, json.dumps(body or {}).encode(),
                                     {"Content-Type": "application/json",
                                      "Prefer": "refusal=answer"})
        with urllib.request.urlopen(req, timeout=40) as res:
            return json.loads(res.read())

    def snap(self):
        with urllib.request.urlopen(self.url + "/api/state", timeout=20) as res:
            return json.loads(res.read())["snapshot"]

    def remote(self):
        return self.snap()["remote"]

    def console(self):
        with urllib.request.urlopen(self.url + "/api/state", timeout=20) as res:
            return [line["text"] for line in json.loads(res.read())["console"]]

    def notices(self, kind=None):
        return [n["text"] for n in self.remote()["notices"] if kind in (None, n["kind"])]


def settled(state):
    moves = list(state["moves"])
    if state.get("tentative") and moves:
        moves.pop()
    return moves


def in_step(a, b):
    """Both boards' games the same, settled, every flip done, and the same as the game both
    hosts agree on; their snapshots then."""
    sa, sb = a.snap(), b.snap()
    for s in (sa, sb):
        state, remote = s["state"], s["remote"]
        if (not state or state["tentative"] or state["flips_pending"] or state["waiting"] or
                remote["game"] is None or settled(state) != remote["game"]["moves"]):
            return None
    if (sa["state"]["position"] != sb["state"]["position"] or
            sa["remote"]["game"]["moves"] != sb["remote"]["game"]["moves"]):
        return None
    return sa, sb


def play_move(boards, rng, before_follow=None):
    """One move of the game between `boards` ({"dark": Serve, "light": Serve}): the side to
    move puts a disk on a legal hex of its choice, the other board lights it
    (`before_follow(board, cell)` then) and its player puts it there. Returns the move and
    the seconds from the first board's placement to the other's lighting it, as the test
    sees them."""
    turn = boards["dark"].remote()["game"]["turn"]
    mover, follower = boards[turn], boards["light" if turn == "dark" else "dark"]
    state = wait_for(lambda: (lambda s: s if s["legal"] else None)(mover.snap()["state"]),
                     what="%s's board to be ready" % turn)
    cell = rng.choice(state["legal"])
    reply = mover.post("place", {"cell": cell})
    assert reply["ok"], reply
    start = time.monotonic()
    wait_for(lambda: follower.remote()["lit"] == cell, what="%s lit on the other board" % cell)
    lit_after = time.monotonic() - start
    if before_follow is not None:
        before_follow(follower, cell)
    reply = follower.post("place", {"cell": cell})
    assert reply["ok"], reply
    wait_for(lambda: in_step(boards["dark"], boards["light"]), 30,
             "both boards in step after %s" % cell)
    return cell, lit_after


def set_up(board):
    """The disks the board's game has and the board lacks put on it, as its players do: the
    start's (Othello's four), or those of a simulated board whose process was killed (its
    disks were in that process)."""
    from host_sim.web.records import position_board
    state = board.snap()["state"]
    position = position_board(state)
    for name in state["missing"]:
        value = position.cell_states[position.grid.parse_cell(name)]
        face = "D" if value & 3 == 1 else "L"
        if position.FLIP == iago.CAPTIVE and value & iago.CAPTIVE:
            face = face.lower()                 # a captive lies red side up
        assert board.post("place", {"cell": name, "face": face})["ok"]


def start_game(boards, map_path=None):
    """Dark's host creates the game, light's joins it by its code; both boards set up and in
    step."""
    for board in boards.values():
        assert board.post("autoflip", {"on": True})["ok"]
    created = boards["dark"].post("remote/create", {"side": "dark"})
    assert created["ok"], created
    joined = boards["light"].post("remote/join", {"code": created["code"]})
    assert joined["ok"] and joined["side"] == "light", joined
    for board in boards.values():
        set_up(board)
    wait_for(lambda: in_step(boards["dark"], boards["light"]), what="the boards in step")
    return created["code"]


def play_to_the_end(boards, seed=1, each=None):
    rng = random.Random(seed)
    played = []
    while boards["dark"].remote()["game"]["outcome"] is None:
        played.append(play_move(boards, rng))
        if each is not None:
            each(len(played))
    return played
