"""`make bench`: remote play under load (docs/benchmarks.md, "Remote play through one broker").

Many games at once through one local Mosquitto (tests/remote_harness.py starts it on free
ports): each game two simulated hosts, no boards, each a paho client (a connection) of its own with
the game's real keys, views and checks (host_sim/remote: AgreedGame, GameKeys, MqttLink), their
network loops in one thread (Reactor). Each
side answers the other's move after THINK_S with a random legal move. Per step, with more
games at once each time: the move latency (the mover's publish to the other host having
checked and merged it), p50 and p99; the moves a second; the broker's CPU (its /proc utime and
stime over the step); and whatever broke: a host that could not connect, a move refused, p99
over BREAK_MS. The steps stop at the first that breaks.

    .venv/bin/python tests/bench/remote_load.py [MAX_GAMES]
"""

import os
import random
import resource
import select
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from host_sim.remote.codes import GameKeys, new_code  # noqa: E402
from host_sim.remote.game import AgreedGame, Refused, other  # noqa: E402
from host_sim.remote.mqttlink import BrokerAddress, MqttLink  # noqa: E402
from remote_harness import Broker, Serve, play_to_the_end, start_game  # noqa: E402

STEPS = (10, 25, 50, 100, 200, 400, 800)
STEP_S = 8.0                 # each step plays this long once every host is connected
THINK_S = 0.5                # a simulated player's time to move
BREAK_MS = 1000.0            # a p99 over this breaks the step
SETUP = {"game": "iago", "rules": "standard", "start": "5/6/7/8/9/8/7/6/5 D"}


class SimHost:
    """One side's host of one game, without a board: it moves when its turn comes."""

    def __init__(self, keys, side, broker, stats):
        self.keys, self.side, self.stats = keys, side, stats
        self.game = AgreedGame(SETUP, side, "%s-%s" % (keys.game_id[:6], side))
        self.lock = threading.Lock()
        self.due = None
        self.link = MqttLink(broker, keys.topic("view", other(side)), self.message, lambda: None)
        self.link.client.connect(broker.host, broker.port, 30)   # served by Reactor

    def message(self, topic, payload):
        try:
            view = self.keys.open(topic, payload)
            with self.lock:
                changes = self.game.merge(view)
                if changes:
                    self.stats.latency(time.time() * 1000 - view["at"])
                    self.due = time.monotonic() + THINK_S
        except (ValueError, Refused) as exc:
            self.stats.error("%s: %s" % (self.side, exc))

    def step(self, rng, now):
        with self.lock:
            if self.game.over():
                self.game = AgreedGame(SETUP, self.side, self.game.host)   # a new game
                self.game.their_host = "%s-%s" % (self.keys.game_id[:6], other(self.side))
            if self.game.turn() != self.side or (self.due is not None and now < self.due):
                return
            if self.due is None and self.game.ply():
                return
            cell = rng.choice(sorted(self.game.board.grid.cell_name(c)
                                     for c in self.game.board.legal_moves))
            self.game.add(cell, self.side)
            view = self.game.view(self.keys.game_id)
            self.due = None
        topic = self.keys.topic("view", self.side)
        self.link.publish(topic, self.keys.sign(topic, view))
        self.stats.moves += 1

    def stop(self):
        self.link.client.disconnect()


class Reactor:
    """paho's network loop for every host in one thread (select on their sockets), as a
    thread a client (MqttLink.start) would be 800 threads at the top step: the simulated
    hosts' own process would then be what breaks, not the broker."""

    def __init__(self, hosts):
        self.clients = [h.link.client for h in hosts]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.is_set():
            poll = select.poll()           # not select(): past 1024 descriptors at 800 games
            by_fd = {}
            for client in self.clients:
                sock = client.socket()
                if sock is not None:
                    by_fd[sock.fileno()] = client
                    poll.register(sock, select.POLLIN | (select.POLLOUT if client.want_write()
                                                         else 0))
            for fd, events in poll.poll(10):
                if events & (select.POLLIN | select.POLLERR | select.POLLHUP):
                    by_fd[fd].loop_read()
                if events & select.POLLOUT:
                    by_fd[fd].loop_write()
            for client in self.clients:
                client.loop_misc()

    def close(self):
        self.stop.set()
        self.thread.join(5)


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = []
        self.errors = []
        self.moves = 0

    def latency(self, ms):
        with self.lock:
            self.latencies.append(ms)

    def error(self, text):
        with self.lock:
            self.errors.append(text)


def broker_cpu_s(pid):
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


def run_step(broker, games):
    stats = Stats()
    address = BrokerAddress(broker.url)
    codes = [GameKeys(new_code()) for _ in range(games)]
    hosts = []
    for keys in codes:
        for side in ("dark", "light"):
            hosts.append(SimHost(keys, side, address, stats))
    reactor = Reactor(hosts)
    deadline = time.monotonic() + 30
    while not all(h.link.connected for h in hosts) and time.monotonic() < deadline:
        time.sleep(0.1)
    unconnected = sum(not h.link.connected for h in hosts)
    rng = random.Random(games)
    cpu0, wall0 = broker_cpu_s(broker.proc.pid), time.monotonic()
    end = wall0 + STEP_S
    while time.monotonic() < end:
        now = time.monotonic()
        for host in hosts:
            host.step(rng, now)
        time.sleep(0.02)
    time.sleep(THINK_S)
    wall = time.monotonic() - wall0
    cpu = broker_cpu_s(broker.proc.pid) - cpu0
    for host in hosts:
        host.stop()
    time.sleep(0.5)
    reactor.close()
    p50, p99 = percentile(stats.latencies, 0.5), percentile(stats.latencies, 0.99)
    broke = []
    if unconnected:
        broke.append("%d hosts could not connect" % unconnected)
    if stats.errors:
        broke.append("%d messages refused (%s)" % (len(stats.errors), stats.errors[0]))
    if p99 > BREAK_MS:
        broke.append("p99 %.0f ms over %.0f ms" % (p99, BREAK_MS))
    return {"games": games, "clients": len(hosts), "moves_s": stats.moves / wall,
            "p50": p50, "p99": p99, "cpu": 100 * cpu / wall, "broke": "; ".join(broke)}


def board_to_board(broker, folder):
    """A whole Iago game between two `iago serve --sim --remote` at real speed: per move, the
    time from the mover's host sending it to the other board lighting it (the sessions'
    `latency_ms`), and as the test's hands see it, from the placement to the other board's
    lit hex (the board's 300 ms settling and auto-flips included, polled every 20 ms)."""
    boards = {side: Serve(Path(folder) / side, broker.url, speed=1) for side in ("dark", "light")}
    try:
        start_game(boards)
        played = play_to_the_end(boards, 7)
        hosts = [ms for b in boards.values() for ms in b.remote()["latency_ms"]]
    finally:
        for board in boards.values():
            board.stop()
    hands = [1000 * s for _, s in played]
    print("%-14s %-30s %6d moves  p50 %6.1f ms  p99 %6.1f ms" % (
        "remote-boards", "host sent -> other board lit", len(hosts), percentile(hosts, 0.5),
        percentile(hosts, 0.99)), flush=True)
    print("%-14s %-30s %6d moves  p50 %6.1f ms  p99 %6.1f ms" % (
        "remote-boards", "placed -> other board lit", len(hands), percentile(hands, 0.5),
        percentile(hands, 0.99)), flush=True)


def main(argv):
    top = int(argv[1]) if len(argv) > 1 else STEPS[-1]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))   # a socket a host
    with tempfile.TemporaryDirectory() as folder:
        broker = Broker(Path(folder))
        try:
            board_to_board(broker, folder)
            print("%-14s %6s %7s %8s %9s %9s %10s  %s" % (
                "instrument", "games", "clients", "moves/s", "p50 ms", "p99 ms", "broker CPU",
                "broke"), flush=True)
            for games in [g for g in STEPS if g <= top]:
                r = run_step(broker, games)
                print("%-14s %6d %7d %8.1f %9.1f %9.1f %9.1f%%  %s" % (
                    "remote-load", r["games"], r["clients"], r["moves_s"], r["p50"], r["p99"],
                    r["cpu"], r["broke"] or "-"), flush=True)
                if r["broke"]:
                    break
        finally:
            broker.stop()


if __name__ == "__main__":
    main(sys.argv)
