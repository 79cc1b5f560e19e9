"""main.py's path: the USB transport never blocks, a broken board map is shown as a fault, and an
uncaught exception is logged before the board resets."""

import contextlib
import io
import json
import os
import subprocess
from pathlib import Path

import pytest

import mpvm
from fake_pico import fake_pico, usb_port  # noqa: F401  (usb_port: a fixture)
from host_sim.fakes.machine import MachineReset, SoftReset

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "hardware" / "board.json"

USB_PROGRAM = """
import sys
from gameboard.usbserial import UsbSerial
port = UsbSerial()
empty = 0
while empty < 2000:              # 2000 polls with nothing waiting: none may block
    if port.read() is None:
        empty += 1
port.write("idle\\n")
got = b""
while not got.endswith(b"\\n"):
    data = port.read()
    if data:
        got += bytes(data)
port.write("got " + got.decode())
"""


@pytest.mark.micropython
def test_usb_serial_read_never_blocks_and_returns_what_arrives(tmp_path):
    program = tmp_path / "usb.py"
    program.write_text(USB_PROGRAM)
    env = dict(os.environ, MICROPYPATH=str(ROOT / "firmware" / "lib"))
    proc = subprocess.Popen([mpvm.unix_binary(), str(program)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=env)
    try:
        assert proc.stdout.readline() == b"idle\n"    # it got here without any input
        proc.stdin.write(b'{"cmd": "ping"}\n')
        proc.stdin.flush()
        assert proc.stdout.readline() == b'got {"cmd": "ping"}\n'
    finally:
        proc.kill()
        proc.wait()


class Stop(Exception):
    pass


@pytest.fixture(autouse=True)
def usbserial_port(usb_port):
    """Every test here writes the link to stdout."""


def test_a_broken_board_map_is_shown_as_a_fault(tmp_path):
    data = json.loads(MAP.read_text())
    data["cells"]["C3"]["led"] = data["cells"]["C4"]["led"]
    bad = tmp_path / "board.json"
    bad.write_text(json.dumps(data))
    out = io.StringIO()
    with fake_pico() as (circuit, clock):
        def stop_after_a_while(clock):
            if clock.ms > 5000:
                raise Stop()
        clock.sleep_hooks.append(stop_after_a_while)
        from gameboard import app
        with contextlib.redirect_stdout(out), pytest.raises(Stop):
            app.main(str(tmp_path) + "/", str(bad))
        on_board_led = circuit.pad(25)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) >= 2 and all(m["event"] == "error" for m in lines)
    assert "C4" in lines[0]["error"] or "C3" in lines[0]["error"]
    assert on_board_led[0] is not None                 # the Pico's LED is blinking


def test_an_uncaught_exception_is_logged_and_the_pico_resets(tmp_path, monkeypatch):
    from gameboard import boardmap
    bmap = boardmap.load(str(MAP))
    out = io.StringIO()
    with fake_pico(bmap):
        from gameboard import app, controller

        def broken(self, now):
            if now > 1500:
                raise ZeroDivisionError("simulated fault in the game loop")
        monkeypatch.setattr(controller.Controller, "tick", broken)
        with pytest.raises(SoftReset):        # the first start checks the map (see below)
            app.main(str(tmp_path) + "/", str(MAP))
        with contextlib.redirect_stdout(out), pytest.raises(MachineReset):
            app.main(str(tmp_path) + "/", str(MAP))
    log = (tmp_path / "error.log").read_text()
    assert "ZeroDivisionError" in log and "simulated fault" in log
    events = [json.loads(line) for line in out.getvalue().splitlines() if line.startswith("{")]
    assert events[-1]["event"] == "error" and "simulated fault" in events[-1]["error"]


def test_the_first_start_after_a_map_change_checks_it_then_restarts_without_the_checker(
        tmp_path, monkeypatch):
    """The checker's code stays off the heap in play: the start that checks the map keeps
    its copy and soft-resets; the next start reads the copy (gameboard/checkedmap.py)."""
    from gameboard import boardmap
    with fake_pico(boardmap.load(str(MAP))):
        from gameboard import app, checkedmap, controller
        with pytest.raises(SoftReset):
            app.main(str(tmp_path) + "/", str(MAP))
        assert (tmp_path / "board-checked.json").exists()

        class Playing(BaseException):
            """Raised from the first tick: the board got to play."""

        def playing(self, now):
            raise Playing()
        monkeypatch.setattr(controller.Controller, "tick", playing)
        monkeypatch.setattr(boardmap, "parse", None)      # not called again
        with pytest.raises(Playing):
            app.main(str(tmp_path) + "/", str(MAP))
        assert checkedmap.kept_now is False
