"""The firmware's CircuitPython side on the host: the fakes of CircuitPython's modules against
its documented behaviour, gameboard/cphw.py on them with the real Adafruit NeoPixel library,
the choice of hardware layer, boot.py, and `iago serve --runtime`. The saves' power-cut
guarantee is tests/test_circuitpython_saves.py; whole games on both runtimes are
tests/test_agreement.py and tests/test_soak.py."""

import importlib
import json
import random
import runpy
import sys
import types
from pathlib import Path

import pytest

from gameboard.boardmap import check, load
from gameboard.leds import LedOutput
from host_sim.fakes import keypad, microcontroller, supervisor, usb_cdc
from host_sim.fakes.install import install_circuitpython
from host_sim.fakes.machine import Circuit, MachineReset
from host_sim.fakes.mptime import Clock

ROOT = Path(__file__).resolve().parent.parent
MAP_FILE = ROOT / "hardware" / "board.json"
BMAP = load(MAP_FILE)


class Pico:
    """A Pico under CircuitPython: the fakes installed, gameboard.cphw imported on them."""

    def __init__(self, diodes=True, bmap=BMAP):
        self.clock = Clock()
        self.bmap = bmap
        self.circuit = Circuit.for_board(bmap, diodes=diodes)
        self.uninstall = install_circuitpython(self.circuit, self.clock)
        microcontroller.boot(True)
        keypad.boot()
        self.hw = importlib.import_module("gameboard.cphw")
        self.hw.clock = self.hw.Clock()

    def matrix(self):
        return self.hw.ReedMatrix(self.bmap.row_pins, self.bmap.col_pins)


@pytest.fixture
def pico():
    picos = []

    def make(**kw):
        picos.append(Pico(**kw))
        return picos[-1]
    yield make
    for p in reversed(picos):
        p.uninstall()


def closed(raw):
    return sorted((r, c) for r in range(len(raw)) for c in range(8) if raw[r] >> c & 1)


# --- the fakes: CircuitPython's documented behaviour -----------------------------------------

def test_supervisor_ticks_wrap_at_2_29_65_seconds_after_power_on(pico):
    p = pico()
    assert supervisor.ticks_ms() == 2**29 - 65536
    p.clock.advance(65535)
    assert supervisor.ticks_ms() == 2**29 - 1
    p.clock.advance(1)
    assert supervisor.ticks_ms() == 0


def test_circuitpython_time_has_no_ticks(pico):
    pico()
    import time
    assert not hasattr(time, "ticks_ms") and not hasattr(time, "ticks_diff")
    assert not hasattr(time, "sleep_ms") and callable(time.monotonic_ns)
    with pytest.raises(ImportError):
        import machine  # noqa: F401


def test_keymatrix_numbers_keys_row_by_row_and_timestamps_events(pico):
    p = pico()
    rows = [getattr(sys.modules["board"], "GP%d" % g) for g in BMAP.row_pins]
    cols = [getattr(sys.modules["board"], "GP%d" % g) for g in BMAP.col_pins]
    km = keypad.KeyMatrix(rows, cols, columns_to_anodes=True, interval=0.005)
    assert km.key_count == 8 * len(BMAP.row_pins) and km.row_column_to_key_number(2, 3) == 19
    assert km.key_number_to_row_column(19) == (2, 3)
    p.circuit.set_switch(2, 3)
    p.clock.sleep_us(4000)
    assert km.events.get() is None                    # not scanned yet: every 5 ms
    p.clock.sleep_us(1000)
    event = keypad.Event()
    assert km.events.get_into(event) and event.key_number == 19 and event.pressed
    assert event.timestamp == (5 + 2**29 - 65536) % 2**29
    assert not km.events.get_into(event) and event.key_number == 19   # untouched
    p.circuit.set_switch(2, 3, False)
    p.clock.sleep_us(5000)
    assert km.events.get() == keypad.Event(19, False)
    with pytest.raises(ValueError, match="in use"):
        sys.modules["digitalio"].DigitalInOut(rows[0])
    km.deinit()
    sys.modules["digitalio"].DigitalInOut(rows[0])    # free again


def first_row(board):
    """The pin of the map's row line 0 (the simulated circuit's switch (0, 0) joins them)."""
    return getattr(board, "GP%d" % BMAP.row_pins[0])


def first_col(board):
    return getattr(board, "GP%d" % BMAP.col_pins[0])


def test_keys_held_when_the_scanner_starts_are_reported_after_reset(pico):
    p = pico()
    p.circuit.set_switch(0, 0)
    board = sys.modules["board"]
    km = keypad.KeyMatrix([first_row(board)], [first_col(board)], interval=0.001)
    p.clock.sleep_us(3000)
    assert km.events.get() is None
    km.reset()
    p.clock.sleep_us(1000)
    assert km.events.get() == keypad.Event(0, True)


def test_keymatrix_queue_overflows_and_clear_resets_the_flag(pico):
    p = pico()
    board = sys.modules["board"]
    km = keypad.KeyMatrix([first_row(board)], [first_col(board)], interval=0.001, max_events=3)
    for i in range(5):
        p.circuit.set_switch(0, 0, i % 2 == 0)
        p.clock.sleep_us(1000)
    assert len(km.events) == 3 and km.events.overflowed
    km.events.clear()
    assert not km.events and not km.events.overflowed


def test_keymatrix_debounce_threshold_ignores_a_one_scan_bounce(pico):
    p = pico()
    board = sys.modules["board"]
    km = keypad.KeyMatrix([first_row(board)], [first_col(board)], interval=0.001,
                          debounce_threshold=3)
    p.circuit.set_switch(0, 0)
    p.clock.sleep_us(1000)
    p.circuit.set_switch(0, 0, False)
    p.clock.sleep_us(2000)
    assert km.events.get() is None
    p.circuit.set_switch(0, 0)
    p.clock.sleep_us(3000)
    assert km.events.get() == keypad.Event(0, True)


def test_nvm_programs_erased_bytes_and_erases_the_sector_for_anything_else(pico):
    pico()
    nvm = microcontroller.Nvm()
    nvm[0:3] = b"abc"
    nvm[300:302] = b"xy"
    assert (nvm.erases, nvm.pages) == (0, 2) and bytes(nvm[0:3]) == b"abc"
    nvm[1] = ord("B")                                  # not erased: the whole sector again
    assert (nvm.erases, nvm.pages) == (1, 18)
    assert bytes(nvm[0:3]) == b"aBc" and bytes(nvm[300:302]) == b"xy"
    assert len(nvm) == 4096


def test_watchdog_resets_unless_fed_and_says_why(pico):
    p = pico()
    hw = p.hw
    dog = hw.Watchdog(20000)
    assert microcontroller.watchdog.timeout == pytest.approx(8.388)
    dog.feed()
    p.clock.sleep_us(8_000_000)
    dog.feed()
    with pytest.raises(MachineReset):
        p.clock.sleep_us(9_000_000)
    p.circuit.reset(3)
    microcontroller.boot(False)
    assert hw.restarted() and microcontroller.cpu.reset_reason == "WATCHDOG"
    with pytest.raises(MachineReset):
        hw.restart()
    microcontroller.boot(False)
    assert hw.restarted() and microcontroller.cpu.reset_reason == "SOFTWARE"
    p.circuit.reset(1)
    microcontroller.boot(True)
    assert not hw.restarted()


# --- the hardware layer ------------------------------------------------------------------------

def test_the_clock_keeps_micropythons_ticks_across_supervisors_wrap(pico):
    p = pico()
    clock = p.hw.clock
    before = clock.ticks_ms()
    marks = [before]
    for _ in range(140):                   # 70 s: past supervisor.ticks_ms's wrap at 65 s
        p.clock.advance(500)
        marks.append(clock.ticks_ms())
    for a, b in zip(marks, marks[1:]):
        assert clock.ticks_diff(b, a) == 500 and 0 <= b < 2**30
    assert clock.ticks_diff(marks[-1], before) == 70000
    assert clock.ticks_diff(before, marks[-1]) == -70000
    assert clock.ticks_add(2**30 - 1, 1) == 0


@pytest.mark.parametrize("diodes", [True, False])
def test_reed_matrix_reads_what_micropythons_scan_reads(pico, diodes):
    """keypad's scan and hw.ReedMatrix's drive the same lines: the same bits, ghosts and all
    on a board without diodes (tests/test_matrix_electrical.py has MicroPython's)."""
    from host_sim.fakes import machine
    p = pico(diodes=diodes)
    matrix = p.matrix()
    raw = bytearray(BMAP.lines)
    rng = random.Random(7)
    for _ in range(30):
        cells = rng.sample(range(61), rng.randint(0, 6))
        p.circuit.set_cells(cells)
        p.clock.sleep_us(2000)
        matrix.scan(raw)
        want = bytearray(BMAP.lines)
        for r, pin in enumerate(BMAP.row_pins):
            p.circuit._configure(pin, machine.OPEN_DRAIN, machine.PULL_UP, 0)
            levels = p.circuit.gpio_in()
            p.circuit._configure(pin, machine.IN, machine.PULL_UP, None)
            for c, col in enumerate(BMAP.col_pins):
                if not levels >> col & 1:
                    want[r] |= 1 << c
        assert raw == want
        if diodes:
            assert closed(raw) == closed(p.circuit.switches[:BMAP.lines])


def test_reed_matrix_reports_disks_down_at_power_on_and_recovers_from_an_overflow(pico):
    p = pico()
    p.circuit.set_cells([0, 30, 60])
    matrix = p.matrix()
    raw = bytearray(BMAP.lines)
    p.clock.sleep_us(2000)
    matrix.scan(raw)
    assert closed(raw) == closed(p.circuit.switches[:BMAP.lines])
    # More than 64 changes while the loop looks away (a flash erase): the queue overflows.
    for i in range(70):
        p.circuit.set_cells([i % 61] if i % 2 else [])
        p.clock.advance_us(2000)
        matrix.keys._catch_up()
    assert matrix.keys.events.overflowed
    p.circuit.set_cells([5, 6])
    matrix.scan(raw)                                  # the last bits stand meanwhile
    p.clock.sleep_us(2000)
    matrix.scan(raw)
    assert closed(raw) == closed(p.circuit.switches[:BMAP.lines])


@pytest.mark.parametrize("bpp", [3, 4])
def test_pixels_send_the_wire_bytes_through_the_adafruit_library(pico, bpp):
    bmap = check(dict(json.loads(MAP_FILE.read_text()),
                      led_type="SK6812-RGBW" if bpp == 4 else "WS2812B",
                      colour_order="GRBW" if bpp == 4 else "GRB"))
    p = pico(bmap=bmap)
    neopixel = sys.modules["neopixel"]
    assert "circuitpython-lib" in neopixel.__file__        # the PyPI library, not a fake
    pixels = p.hw.Pixels(bmap.led_pin, len(bmap.led_of_cell), bmap.bpp)
    assert isinstance(pixels.np, neopixel.NeoPixel)
    leds = LedOutput(bmap, bytearray(61 * 3))
    assert len(leds.wire) == 61 * bpp
    rng = random.Random(bpp)
    for _ in range(5):
        leds.frame[:] = bytes(rng.randrange(256) for _ in range(61 * 3))
        leds.render()
        pixels.show(leds.wire)
        assert p.circuit.led_buffers[bmap.led_pin] == bytes(leds.wire)
    wire = bytearray(leds.wire)
    wire[7] ^= 0x55                                    # one pixel changes: one pixel set
    pixels.show(wire)
    assert p.circuit.led_buffers[bmap.led_pin] == bytes(wire)
    with pytest.raises(ValueError):
        pixels.show(bytes(3))


def test_buttons_read_low_as_pressed(pico):
    p = pico()
    buttons = p.hw.Buttons([20, None, 21])
    assert buttons.pressed() == 0
    p.circuit.press(21)
    assert buttons.pressed() == 4
    p.circuit.press(20)
    assert buttons.pressed() == 5


def test_the_link_reads_only_what_waits_and_falls_back_to_the_console(pico):
    pico()
    link = sys.modules["gameboard.cphw"].UsbSerial()
    assert link.port is usb_cdc.data and link.port.timeout == 0
    assert link.read() is None
    usb_cdc.data.inbound.extend(b"x" * 100)
    assert bytes(link.read()) == b"x" * 64 and bytes(link.read()) == b"x" * 36
    assert link.read() is None
    link.write('{"v": 2}\n')
    assert usb_cdc.data.outbound == [b'{"v": 2}\n']
    usb_cdc.enable(console=True, data=False)
    assert sys.modules["gameboard.cphw"].UsbSerial().port is usb_cdc.console


def test_fault_repeats_its_message_on_the_link_and_feeds_the_watchdog(pico):
    p = pico()
    p.hw.Watchdog(1000)

    class Enough(BaseException):
        pass

    def stop(clock):
        if clock.us > 5_000_000:
            raise Enough()
    p.clock.sleep_hooks.append(stop)
    with pytest.raises(Enough):
        p.hw.fault("board map: cells: missing E5")
    lines = [json.loads(b) for b in usb_cdc.data.outbound]
    assert len(lines) == 3 and lines[0]["error"] == "board map: cells: missing E5"
    assert p.circuit.watchdog_resets == 0


# --- choosing the layer, and the files CircuitPython runs ---------------------------------------

def test_the_running_implementation_chooses_the_hardware_layer(pico, monkeypatch):
    pico()
    from gameboard import start
    implementation = types.SimpleNamespace(**vars(sys.implementation))
    implementation.name = "circuitpython"
    monkeypatch.setattr(sys, "implementation", implementation)
    saved = sys.modules.pop("gameboard.hw", None)
    try:
        import gameboard
        had = gameboard.__dict__.get("hw")
        hw = start.hardware()
        assert hw is sys.modules["gameboard.cphw"] and sys.modules["gameboard.hw"] is hw
        from gameboard import hw as named
        assert named is hw            # archive's `from gameboard import hw` finds it too
    finally:
        if saved is not None:
            sys.modules["gameboard.hw"] = saved
        else:
            sys.modules.pop("gameboard.hw", None)
        if had is not None:
            gameboard.hw = had
        else:
            gameboard.__dict__.pop("hw", None)


def run_boot_py(monkeypatch, map_file):
    """Run firmware/boot.py with `map_file` as /board.json; returns its storage.remount calls."""
    remounts = []
    storage = types.ModuleType("storage")
    storage.remount = lambda path, readonly=False: remounts.append((path, readonly))
    monkeypatch.setitem(sys.modules, "storage", storage)
    usb_cdc.enable(console=True, data=False)
    real_open = open

    def board_open(path, *args):
        return real_open(map_file if path == "/board.json" else path, *args)
    monkeypatch.setattr("builtins.open", board_open)
    runpy.run_path(str(ROOT / "firmware" / "boot.py"))
    return remounts


@pytest.mark.parametrize("held", [False, True])
def test_boot_py_gives_the_drive_to_the_firmware_unless_select_is_held(pico, monkeypatch,
                                                                       tmp_path, held):
    p = pico()
    if held:
        p.circuit.press(BMAP.buttons["select"])
    remounts = run_boot_py(monkeypatch, MAP_FILE)
    assert usb_cdc.data is not None                      # the host link's port
    assert remounts == ([] if held else [("/", False)])
    p.hw.Buttons([BMAP.buttons["select"]])               # boot.py let go of the pin


@pytest.mark.parametrize("select", [23, 24, 29, "20", None])
def test_boot_py_with_a_map_the_checker_refuses_still_gives_the_drive(pico, monkeypatch,
                                                                      tmp_path, select):
    # GP23 and GP24 are wired on the Pico itself: CircuitPython's `board` has no GP23/GP24,
    # and the map checker refuses them. boot.py must still remount the drive, so the firmware
    # can report the broken map, not stop with an AttributeError before the remount.
    pico()
    broken = tmp_path / "board.json"
    broken.write_text(json.dumps({"buttons": {"select": select}}))
    assert run_boot_py(monkeypatch, broken) == [("/", False)]


def test_iago_serve_runtime_chooses_the_simulated_boards_firmware(monkeypatch):
    from host_sim import cli, simboard
    from host_sim.web import server
    seen = []
    monkeypatch.setattr(server, "main", lambda args: seen.append(simboard.DEFAULT_RUNTIME))
    monkeypatch.setattr(simboard, "DEFAULT_RUNTIME", "micropython")
    cli.main(["serve", "--sim", "--runtime", "circuitpython"])
    assert seen == ["circuitpython"]
    board = simboard.SimBoard()
    try:
        assert board.runtime == "circuitpython"
        assert type(board.app.matrix).__module__ == "gameboard.cphw"
        assert type(board.app.saves).__name__ == "NvmSaves"
    finally:
        board.close()


def test_the_simulated_circuitpython_board_plays_and_saves_in_nvm():
    from host_sim.simboard import SimBoard
    with SimBoard(runtime="circuitpython") as board:
        board.advance(1300)
        board.place("E4")
        assert board.position() == "5/6/7/8/3D5/8/7/6/5 L"
        assert board.led("E4") != (0, 0, 0)
        assert board.nvm.pages >= 1 and not list(Path(board.root).glob("game.sav"))
        assert board.command({"cmd": "state"})["state"]["moves"] == ["E4"]
        board.power_cut()
        board.advance(100)
        board.power_on()
        board.advance(1300)
        assert board.controller.game.move_stack == [board.layout.parse_cell("E4")]


def test_the_computer_searches_a_share_of_micropythons_budget_on_circuitpython():
    from host_sim.simboard import SimBoard
    with SimBoard(runtime="micropython") as mp, SimBoard(runtime="circuitpython") as cp:
        full, less = mp.app.layout, cp.app.layout
        share = sys.modules["gameboard.cphw"].SEARCH_SHARE
        assert 0 < share < 100
        top = full.board_nodes[-1] * share // 100
        assert less.board_nodes == tuple(min(n, top) for n in full.board_nodes)
        assert less.board_nodes[-1] < full.board_nodes[-1]
        assert less.board_nodes[:3] == full.board_nodes[:3]       # the low levels as they were
        assert less.think_nodes == full.think_nodes * share // 100


def test_the_loop_reads_no_microsecond_clock_on_circuitpython_until_stats_asks():
    """cphw.Clock.ticks_us makes a long integer from time.monotonic_ns(): garbage at every
    call. The loop's own timing (its scans between phases, its pace, its collections) is in
    milliseconds, so a game played without `stats` never reads it."""
    from host_sim.simboard import SimBoard

    with SimBoard(runtime="circuitpython", strict=True) as board:
        board.advance(1300)
        clock = board.app.clock
        calls = []
        ticks_us = clock.ticks_us
        clock.ticks_us = lambda: calls.append(1) or ticks_us()
        game = board.app.controller
        for _ in range(6):
            board.place(game.name(sorted(game.game.legal_moves)[0]), rest_ms=320)
            for cell in game.flips_pending():
                board.flip(cell)
            board.advance(700)
        assert game.game.ply() == 6
        assert calls == []
