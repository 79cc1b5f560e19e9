"""gameboard.hw on the fakes: the reed matrix scanned through a simulated circuit (with and
without diodes), the LED chain, buttons, the watchdog; and the fakes themselves."""

import importlib
import json
import random
import sys
from pathlib import Path

import pytest

from gameboard.boardmap import check, load
from gameboard.leds import LedOutput
from host_sim.fakes import machine, mptime
from host_sim.fakes.install import install
from host_sim.fakes.machine import Circuit, MachineReset, Pin
from host_sim.fakes.mptime import Clock

MAP_FILE = Path(__file__).resolve().parent.parent / "hardware" / "board.json"
BMAP = load(MAP_FILE)
# The same board with its column lines on scattered GPIOs: scanned pin by pin instead of
# through the one register read that consecutive GPIOs allow.
SCATTERED = check(dict(json.loads(MAP_FILE.read_text()), cols=[7, 0, 6, 1, 5, 2, 4, 3]))
MAPS = pytest.mark.parametrize("bmap", [BMAP, SCATTERED], ids=["register-read", "pin-reads"])


class Board:
    """A simulated board with the fakes installed and gameboard.hw imported on them."""

    def __init__(self, diodes=True, bmap=BMAP, chip="RP2040"):
        self.clock = Clock()
        self.circuit = Circuit.for_board(bmap, diodes=diodes)
        self.circuit.chip = chip
        self.uninstall = install(self.circuit, self.clock)
        self.hw = importlib.import_module("gameboard.hw")
        self.matrix = self.hw.ReedMatrix(bmap.row_pins, bmap.col_pins)
        self.raw = bytearray(bmap.lines)

    def scan(self):
        self.matrix.scan(self.raw)
        return [(r, c) for r in range(len(self.raw)) for c in range(8) if self.raw[r] >> c & 1]


@pytest.fixture
def board():
    boards = []

    def make(**kw):
        boards.append(Board(**kw))
        return boards[-1]
    yield make
    for b in reversed(boards):
        b.uninstall()


def closed_switches(circuit):
    return [(r, c) for r in range(len(circuit.switches)) for c in range(8)
            if circuit.switches[r] >> c & 1]


def ghosted(switches):
    """What a diode-less matrix reads: row r sees column c when a path of closed switches
    joins them (rows and columns as the nodes of a graph, switches as its edges)."""
    parent = {}

    def root(node):
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node
    for r, c in switches:
        parent[root(("row", r))] = root(("col", c))
    return sorted((r, c) for r in range(BMAP.lines) for c in range(8)
                  if ("row", r) in parent and ("col", c) in parent
                  and root(("row", r)) == root(("col", c)))


@MAPS
def test_scan_reads_exactly_the_closed_switches_with_diodes(board, bmap):
    b = board(bmap=bmap)
    assert b.scan() == []
    rng = random.Random(7)
    for _ in range(200):
        cells = rng.sample(range(61), rng.randrange(0, 62))
        b.circuit.set_cells(cells)
        got = b.scan()
        assert got == closed_switches(b.circuit)
        assert sorted(bmap.cell_of_crossing[r * 8 + c] for r, c in got) == sorted(cells)
    assert b.circuit.contention == 0


@MAPS
def test_rectangle_of_three_ghosts_the_fourth_without_diodes(board, bmap):
    b = board(diodes=False, bmap=bmap)
    for r, c in [(1, 2), (1, 5), (4, 2)]:
        b.circuit.set_switch(r, c)
    assert b.scan() == [(1, 2), (1, 5), (4, 2), (4, 5)]      # (4, 5) is a ghost
    assert b.circuit.contention == 0        # idle rows are released, so nothing shorts


@MAPS
def test_rectangle_of_three_reads_true_with_diodes(board, bmap):
    b = board(bmap=bmap)
    for r, c in [(1, 2), (1, 5), (4, 2)]:
        b.circuit.set_switch(r, c)
    assert b.scan() == [(1, 2), (1, 5), (4, 2)]


@MAPS
def test_random_sets_ghost_as_the_graph_says_without_diodes(board, bmap):
    b = board(diodes=False, bmap=bmap)
    rng = random.Random(11)
    ghosts = 0
    for _ in range(100):
        b.circuit.set_cells(rng.sample(range(61), rng.randrange(0, 12)))
        switches = closed_switches(b.circuit)
        got = b.scan()
        assert got == ghosted(switches)
        ghosts += len(got) - len(switches)
    assert ghosts > 50


def test_scan_releases_every_row_and_takes_settling_time(board):
    b = board()
    b.circuit.set_cell(30)
    before = b.clock.us
    b.scan()
    assert b.clock.us - before == len(BMAP.row_pins) * b.hw._SETTLE_US
    for gpio in BMAP.row_pins:
        assert b.circuit.pad(gpio) == (machine.OPEN_DRAIN, 0, 1)    # released
    for gpio in BMAP.col_pins:
        assert b.circuit.pad(gpio) == (machine.IN, machine.PULL_UP, 0)


def test_register_read_is_used_only_for_consecutive_columns(board):
    b = board()
    assert b.matrix.shift == BMAP.col_pins[0] == 0     # GP0-7: the register's low byte
    assert b.hw.ReedMatrix(SCATTERED.row_pins, SCATTERED.col_pins).shift == -1
    with pytest.raises(NotImplementedError):
        machine.mem32[0xD0000000]


def test_scan_with_fewer_lines_clears_the_unused_rows(board):
    b = board()
    matrix = b.hw.ReedMatrix(BMAP.row_pins[:3], BMAP.col_pins)
    raw = bytearray(b"\xff" * 8)
    b.circuit.set_switch(2, 7)
    b.circuit.set_switch(5, 0)            # on a row line this scan does not drive
    matrix.scan(raw)
    assert list(raw) == [0, 0, 0x80, 0, 0, 0, 0, 0]


def test_pixels_show_the_rendered_frame(board):
    b = board()
    leds = LedOutput(BMAP)
    pixels = b.hw.Pixels(BMAP.led_pin, len(BMAP.led_of_cell), BMAP.bpp)
    rng = random.Random(3)
    for i in range(183):
        leds.frame[i] = rng.randrange(0, 40)      # within the budget: no scaling
    leds.render()
    before = b.clock.us
    pixels.show(leds.wire)
    assert b.circuit.led_writes == 1
    assert b.clock.us - before == 183 * machine.BITSTREAM_US_PER_BYTE
    colours = b.circuit.led_colours()
    for cell in range(61):
        assert colours[cell] == tuple(leds.level(v) for v in leds.frame[cell * 3:cell * 3 + 3])
    assert b.circuit.led_current_ma() == pytest.approx(leds.ma, abs=1)
    leds.frame[0] = 255
    leds.render()
    pixels.show(leds.wire)
    assert b.circuit.led_colours()[0][0] == 255 and b.circuit.led_writes == 2
    with pytest.raises(ValueError):
        b.hw.Pixels(BMAP.led_pin, 10).show(leds.wire)


def test_buttons(board):
    b = board()
    buttons = b.hw.Buttons([BMAP.buttons["select"], BMAP.buttons["confirm"]])
    assert buttons.pressed() == 0
    b.circuit.press(BMAP.buttons["confirm"])
    assert buttons.pressed() == 0b10
    b.circuit.press(BMAP.buttons["select"])
    b.circuit.press(BMAP.buttons["confirm"], down=False)
    assert buttons.pressed() == 0b01


def test_watchdog_resets_the_board_unless_fed(board):
    b = board()
    dog = b.hw.Watchdog(4000)
    time = sys.modules["time"]
    for _ in range(10):
        time.sleep_ms(3000)
        dog.feed()
    with pytest.raises(MachineReset) as info:
        time.sleep_ms(4001)
    assert info.value.cause == machine.WDT_RESET and b.circuit.watchdog_resets == 1
    b.circuit.reset(info.value.cause)
    assert machine.reset_cause() == machine.WDT_RESET
    time.sleep_ms(10_000)                   # the watchdog is off after a reset
    assert b.hw.Watchdog(10_000).wdt is not None    # clamped to the RP2040's 8388 ms
    assert b.circuit.watchdog_timeout_ms == 8388


CHIPS = pytest.mark.parametrize("chip", ["RP2040", "RP2350"])


@CHIPS
def test_the_watchdog_stops_for_the_repl_on_either_chip(board, chip):
    """A Pico 2's watchdog is at 0x400d8000, not the RP2040's 0x40058000: the stop must
    clear ENABLE in its own chip's register (the fake has only that chip's registers)."""
    b = board(chip=chip)
    b.hw.Watchdog(4000)
    assert b.circuit.watchdog_timeout_ms == 4000
    b.hw.watchdog.stop()
    assert b.circuit.watchdog_timeout_ms is None
    sys.modules["time"].sleep_ms(20_000)         # no reset: stopped


@CHIPS
def test_the_matrix_is_read_through_its_chips_register(board, chip):
    b = board(chip=chip)
    assert b.matrix.shift == 0
    b.circuit.set_cell(30)
    assert b.scan() == [(BMAP.crossing_of_cell[30] >> 3, BMAP.crossing_of_cell[30] & 7)]


def test_a_chip_not_in_the_table_touches_no_register(board):
    b = board(chip="RP2999")
    assert b.hw.chip() is None and b.hw.registers() is None
    matrix = b.hw.ReedMatrix(BMAP.row_pins, BMAP.col_pins)
    assert matrix.shift == -1                      # pin by pin
    cell = BMAP.crossing_of_cell[12]
    b.circuit.set_switch(cell >> 3, cell & 7)
    raw = bytearray(BMAP.lines)
    matrix.scan(raw)
    assert raw[cell >> 3] == 1 << (cell & 7)
    b.hw.Watchdog(4000)
    assert b.hw.watchdog.stop() is False and b.circuit.watchdog_timeout_ms == 4000


@pytest.mark.parametrize("name, chip", [
    ("Raspberry Pi Pico with RP2040", "RP2040"), ("Raspberry Pi Pico2 with RP2350", "RP2350"),
    ("Raspberry Pi Pico2 with RP2350-RISCV", "RP2350"), ("linux [GCC 12.2.0] version", None),
    ("", None)])
def test_the_chip_is_read_from_micropythons_machine_name(name, chip):
    from gameboard import hw
    assert hw.chip_of(name) == chip


def test_restart_and_soft_reset_cannot_be_caught_as_exceptions(board):
    b = board()
    with pytest.raises(MachineReset) as info:
        try:
            b.hw.restart()
        except Exception:
            pytest.fail("firmware code caught a reset")
    assert info.value.cause == machine.WDT_RESET
    with pytest.raises(SystemExit):
        machine.soft_reset()


def test_fault_reports_and_blinks_forever(board, capsys):
    b = board()

    class Stop(BaseException):
        pass

    def stop_after_5s(clock):
        if clock.ms >= 5000:
            raise Stop
    b.clock.sleep_hooks.append(stop_after_5s)
    with pytest.raises(Stop):
        b.hw.fault("board map: cells: missing E5")
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3              # repeated every 2 s
    assert json.loads(lines[0]) == {"v": 2, "event": "error",
                                    "error": "board map: cells: missing E5"}
    assert b.circuit.pad(25)[0] == machine.OUT


# --- the fakes ------------------------------------------------------------------------------

def test_pin_semantics_follow_the_rp2_port():
    circuit = Circuit()
    previous = machine.use(circuit)
    try:
        assert Pin(3).value() == 0                       # reset state: pull-down
        p = Pin(3, Pin.IN, Pin.PULL_UP)
        assert p.value() == 1 and p() == 1
        p.init(Pin.IN)                                    # pull given as None: no pull
        assert circuit.pad(3)[1] == 0 and p.value() == 0  # floating reads 0
        out = Pin(4, Pin.OUT, value=1)
        assert out.value() == 1
        out.off()
        assert out.value() == 0
        out.toggle()
        assert out.value() == 1
        od = Pin(5, Pin.OPEN_DRAIN, Pin.PULL_UP)
        assert od.value() == 1 and circuit.pad(5)[2] == 1   # open drain starts released
        od(0)
        assert od.value() == 0
        assert Pin(6, -1, -1).value() == 0                # -1: not given
        assert Pin("LED").gpio == 25
        circuit.press(7)
        assert Pin(7, Pin.IN, Pin.PULL_UP).value() == 0
        assert "PULL_UP" in repr(Pin(3, Pin.IN, Pin.PULL_UP))
        for bad in (30, -1, "GP3", 2.0):
            with pytest.raises(ValueError):
                Pin(bad)
        with pytest.raises(ValueError):
            Pin(3, Pin.ALT)
        with pytest.raises(ValueError):
            machine.WDT(timeout=9000)
        with pytest.raises(ValueError):
            machine.WDT(id=1)
        assert machine.unique_id() == circuit.unique_id and len(machine.unique_id()) == 8
        assert machine.freq() == 125_000_000 and machine.reset_cause() == machine.PWRON_RESET
    finally:
        machine.use(previous)


@pytest.mark.parametrize("seed", range(6))
def test_the_register_read_agrees_with_each_pads_level(seed):
    """gpio_in works the whole register out in one pass; it must read what `level` (the
    electrical model, pad by pad) says, whatever the pads, buttons and switches."""
    rng = random.Random(seed)
    circuit = Circuit.for_board(BMAP, diodes=True)
    for _ in range(300):
        for pad in circuit._pads:
            pad.mode = rng.choice([None, machine.IN, machine.OUT, machine.OPEN_DRAIN,
                                   machine.ALT])
            pad.pull = rng.randrange(4)
            pad.out = rng.randrange(2)
        circuit.grounded = set(rng.sample(range(machine.GPIO_COUNT), rng.randrange(3)))
        circuit.set_cells(rng.sample(range(61), rng.randrange(12)))
        register = circuit.gpio_in()
        assert [register >> gpio & 1 for gpio in range(machine.GPIO_COUNT)] == [
            circuit.level(gpio) for gpio in range(machine.GPIO_COUNT)]
    circuit = Circuit.for_board(BMAP, diodes=True)
    circuit._configure(20, machine.OUT, 0, 1)
    circuit.press(20)
    before = circuit.contention
    assert circuit.gpio_in() >> 20 & 1 == 0 and circuit.contention == before + 1
    assert circuit.gpio_in() >> 20 & 1 == 0 and circuit.contention == before + 2  # a known state


def test_clock_ticks_wrap_like_micropython():
    clock = Clock(ms=(1 << 30) - 3)
    previous = mptime.use(clock)
    try:
        a = mptime.ticks_ms()
        assert a == (1 << 30) - 3
        mptime.sleep_ms(5)
        b = mptime.ticks_ms()
        assert b == 2 and mptime.ticks_diff(b, a) == 5 and mptime.ticks_diff(a, b) == -5
        assert mptime.ticks_add(a, 5) == b and mptime.ticks_add(b, -5) == a
        with pytest.raises(OverflowError):
            mptime.ticks_add(0, 1 << 29)
        assert mptime.ticks_diff(0, 1 << 29) == -(1 << 29)
        before = clock.us
        mptime.sleep_us(250)
        mptime.sleep(0.5)
        mptime.sleep_ms(-3)                       # ignored, as MicroPython does
        assert clock.us - before == 500_250
        assert mptime.ticks_us() == clock.us & ((1 << 30) - 1)
        assert isinstance(mptime.time(), float)  # the rest is CPython's time
        assert mptime.localtime is __import__("time").localtime
    finally:
        mptime.use(previous)


def test_install_and_uninstall_restore_sys_modules():
    real_time = sys.modules["time"]
    had_machine = "machine" in sys.modules
    clock, circuit = Clock(), Circuit()
    uninstall = install(circuit, clock)
    try:
        import machine as m
        import neopixel
        import time
        assert m is machine and time is mptime and neopixel.NeoPixel
        assert circuit.clock is clock and "micropython" not in sys.modules
        np = neopixel.NeoPixel(Pin(22), 2)
        np[1] = (10, 20, 30)
        assert np[1] == (10, 20, 30) and np.buf[3:6] == bytes((20, 10, 30))
        np.fill((1, 2, 3))
        np.write()
        assert circuit.led_buffers[22] == bytes((2, 1, 3, 2, 1, 3)) and len(np) == 2
    finally:
        uninstall()
    assert sys.modules["time"] is real_time and ("machine" in sys.modules) == had_machine
    assert circuit.clock is None and not clock.sleep_hooks


def test_micropython_fake_makes_the_rules_fall_back_to_plain_python():
    uninstall = install(Circuit(), Clock(), micropython_module=True)
    try:
        from micropython import const
        assert const(5) == 5
        sys.modules.pop("iago._kernel", None)
        with pytest.raises(SyntaxError):
            importlib.import_module("iago._kernel")
    finally:
        uninstall()
        sys.modules.pop("iago._kernel", None)
    assert "micropython" not in sys.modules
