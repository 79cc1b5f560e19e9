"""Remote play with a real board's host (`iago serve --port DEVICE --remote`, SerialDriver):
the board is a simulated one whose USB serial port is a pseudo-terminal (`iago serve --sim
--pty`), so the host talks to it exactly as to a Pico on /dev/ttyACM0; the other side is a
simulated board's host. A game of a dozen moves, in step after every move, and a move
lost to the board's power cut lit again."""

import random
import time

import pytest

from remote_harness import Broker, Serve, in_step, play_move, start_game, wait_for


class RealBoard:
    """One side: the hands on the board process (`board`), the host's page (`host`)."""

    def __init__(self, board, host):
        self.board, self.host = board, host

    def post(self, action, body=None):
        target = self.board if action in ("place", "lift", "flip", "clear", "autoflip",
                                          "power") else self.host
        return target.post(action, body)

    def snap(self):
        return self.host.snap()

    def remote(self):
        return self.host.remote()

    def notices(self, kind=None):
        return self.host.notices(kind)


class PtyBoard(Serve):
    """`iago serve --sim --pty`: the board alone, its serial port a pseudo-terminal."""

    def __init__(self, folder):
        Serve.__init__(self, folder, "mqtt://localhost", remote=False, extra=["--pty"])

    def start(self):
        Serve.start(self)
        line = self.proc.stdout.readline()
        assert "its USB serial port is " in line, line
        self.device = line.rsplit(" ", 1)[1].strip()


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path / "broker")
    yield b
    b.stop()


def test_a_real_boards_host_plays_a_simulated_boards_host(broker, tmp_path):
    pty = PtyBoard(tmp_path / "board")
    host = Serve(tmp_path / "host", broker.url, port=pty.device)
    other = Serve(tmp_path / "light", broker.url)
    boards = {"dark": RealBoard(pty, host), "light": other}
    rng = random.Random(8)
    try:
        wait_for(lambda: host.snap()["state"], 20, "the host to read the board's state")
        start_game(boards)
        for _ in range(6):
            play_move(boards, rng)
        assert in_step(host, other)
        # The real board's power cut while the other side's move is lit on it.
        def cut(board, cell):
            since = int(time.time() * 1000)
            assert pty.post("power", {"on": False})["ok"]
            assert pty.post("power", {"on": True})["ok"]
            # Its restart heard first: until then the host's last state is from before the cut.
            wait_for(lambda: any("the board started again" in n["text"] and n["at"] >= since
                                 for n in host.remote()["notices"]), 30, "the restart heard")
            wait_for(lambda: host.remote()["lit"] == cell and
                     host.snap()["state"]["settings"]["remote"] == "light", 30,
                     "%s lit again on the restarted board" % cell)
        if other.remote()["game"]["turn"] == "dark":
            play_move(boards, rng)
        play_move(boards, rng, before_follow=cut)
        for _ in range(5):
            play_move(boards, rng)
        assert host.snap()["state"]["moves"] == other.snap()["state"]["moves"]
    finally:
        for proc in (other, host, pty):
            proc.stop()
