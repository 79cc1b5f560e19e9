"""The self-test of a fresh build: on its own with a fake clock, under MicroPython with the heap
locked, and on the simulated board, where it must find a stuck and a swapped switch."""

import json

import pytest

import iago
import mpvm
from gameboard import palette
from gameboard.selftest import (ALL_ON, ALL_ON_MS, ASK_MS, BOARD, CHAIN_STEP_MS, CHECKLIST,
                                COLOUR_UP, DONE, EMPTY, LIGHTS, RED_UP, ROUNDS, SETTLE_MS,
                                SelfTest)
from gameboard.settings import Settings
from host_sim.simboard import DEFAULT_MAP, SimBoard

C = iago.parse_cell
NAMES = [iago.cell_name(c) for c in range(iago.CELLS)]
LIGHTS_MS = CHAIN_STEP_MS * iago.CELLS + ALL_ON_MS
RED = palette.rgb(palette.STANDARD, palette.ERROR)
GREEN = palette.rgb(palette.STANDARD, palette.SETTING_ON)
SERPENTINE = DEFAULT_MAP.parent / "boards" / "serpentine.json"


class Person:
    """A person testing the board: disks on and off hexes; the SelfTest sees debounced
    switch events on a fake clock."""

    def __init__(self, chain=None, closed=None, ask_ms=ASK_MS):
        self.now = 0
        self.st = SelfTest(Settings(), 0, chain, closed=closed, ask_ms=ask_ms)
        self.events = []

    def advance(self, ms, step=5):
        end = self.now + ms
        while self.now < end:
            self.now = min(end, self.now + step)
            self.st.tick(self.now)
        self.drain()

    def drain(self):
        self.events.extend(self.st.outbox)
        self.st.outbox.clear()

    def close(self, name, closed=True, after=100):
        self.st.switch(C(name), closed, self.now)
        self.drain()
        self.advance(after)

    def tap(self, name):
        """A disk put on the hex and taken off again."""
        self.close(name, True)
        self.close(name, False)

    def colour(self, name):
        self.st.compose(self.now)
        i = C(name) * 3
        return tuple(self.st.frame[i:i + 3])

    def of(self, kind):
        return [e for e in self.events if e["event"] == kind]


def lit_cells(st, now):
    st.compose(now)
    return [c for c in range(iago.CELLS) if any(st.frame[c * 3:c * 3 + 3])]


def test_the_class_has_its_docstring():
    # A string after the first statement of a class body is an expression, not its __doc__.
    assert SelfTest.__doc__.startswith("The self-test, with the controller's interface")


def test_lights_each_led_alone_in_chain_order_then_all_low_white():
    chain = bytes(reversed(range(iago.CELLS)))      # I9 first
    st = SelfTest(Settings(), 1000, chain)
    assert st.save_due is False and st.dirty
    for i in range(iago.CELLS):
        now = 1000 + i * CHAIN_STEP_MS + CHAIN_STEP_MS // 2
        st.tick(now)
        assert st.phase == LIGHTS
        assert lit_cells(st, now) == [chain[i]], i
    now = 1000 + iago.CELLS * CHAIN_STEP_MS + 10
    st.tick(now)
    assert st.phase == ALL_ON
    st.compose(now)
    assert len(set(st.frame)) == 1 and 0 < st.frame[0] < 128        # every LED, dim white
    st.tick(now + ALL_ON_MS)
    assert st.phase == CHECKLIST and st.asked == C("A1")
    assert [e["event"] for e in st.outbox] == ["selftest_start", "selftest_ask"]
    assert st.save_due is False


def test_a_clean_board_turns_all_green_and_reports_every_switch_by_name():
    t = Person()
    t.advance(LIGHTS_MS)
    for name in NAMES:
        assert t.st.asked == C(name)
        t.tap(name)
        assert t.colour(name) == GREEN or name == "I9"
    assert t.st.phase == BOARD and not t.st.done
    t.advance(ASK_MS)                            # nothing moves: the full board is skipped
    assert all(t.colour(n) == GREEN for n in NAMES)
    assert t.st.phase == DONE and t.st.done and t.st.clean
    switches = t.of("selftest")
    assert [(e["cell"], e["closed"], e["asked"]) for e in switches[:4]] == [
        ("A1", True, "A1"), ("A1", False, "A2"), ("A2", True, "A2"), ("A2", False, "A3")]
    assert len(switches) == 2 * iago.CELLS
    assert [e["cell"] for e in t.of("selftest_ask")] == NAMES
    assert t.of("selftest_done") == [{"event": "selftest_done", "stuck": [], "swapped": [],
                                      "silent": [], "passed": 61, "held": [], "open": [],
                                      "board": "skipped"}]
    assert all(t.colour(n) == GREEN for n in NAMES)
    assert t.st.save_due is False


def test_the_asked_hex_blinks_and_a_closed_switch_lights_during_the_lights():
    t = Person()
    t.close("E5", True, after=200)
    assert t.colour("E5") == palette.rgb(palette.STANDARD, palette.DARK)
    t.close("E5", False, after=0)
    t.advance(LIGHTS_MS)
    seen = set()
    for _ in range(20):
        t.advance(50)
        seen.add(t.colour("A1"))
    assert seen == {(0, 0, 0), palette.rgb(palette.STANDARD, palette.LIGHT)}
    assert t.of("selftest_fault") == []          # E5 opened again: a disk, not a stuck switch


def test_stuck_swapped_and_silent_switches_are_found():
    t = Person(ask_ms=3000)
    t.close("C2", True, after=0)               # stuck closed from the start
    t.advance(LIGHTS_MS)
    assert t.of("selftest_fault") == [{"event": "selftest_fault", "fault": "stuck",
                                       "cell": "C2"}]
    for name in NAMES:
        if name == "C2":
            continue
        assert t.st.asked == C(name), name
        if name == "D4":
            t.tap("D5")                          # D4's disk closes D5's switch
        elif name == "D5":
            t.tap("D4")                          # ... and the other way round
        elif name == "G7":
            t.advance(3000)                      # never closes
        else:
            t.tap(name)
    t.advance(3000)                              # the full board skipped
    done = t.of("selftest_done")
    assert done == [{"event": "selftest_done", "stuck": ["C2"],
                     "swapped": [["D4", "D5"], ["D5", "D4"]], "silent": ["G7"], "passed": 57,
                     "held": [], "open": [], "board": "skipped"}]
    faults = [(e["fault"], e["cell"], e.get("seen")) for e in t.of("selftest_fault")]
    assert faults == [("stuck", "C2", None), ("swapped", "D4", "D5"), ("swapped", "D5", "D4"),
                      ("silent", "G7", None)]
    assert C("C2") not in [C(e["cell"]) for e in t.of("selftest_ask")]
    for name in NAMES:
        expected = RED if name in ("C2", "D4", "D5", "G7") else (0, 0, 0)
        assert t.colour(name) == expected, name
    assert not t.st.clean


def test_the_silent_timeout_defaults_to_20_seconds():
    t = Person()
    t.advance(LIGHTS_MS)
    t.advance(ASK_MS - 100)
    assert t.st.asked == C("A1") and not t.of("selftest_fault")
    t.advance(200)
    assert t.of("selftest_fault") == [{"event": "selftest_fault", "fault": "silent",
                                       "cell": "A1"}]
    assert t.st.asked == C("A2")


def test_entered_from_a_game_a_disk_already_down_counts_as_stuck():
    closed = bytearray(iago.CELLS)
    closed[C("E5")] = 1
    t = Person(closed=closed)
    t.advance(LIGHTS_MS)
    assert t.st.summary()["stuck"] == ["E5"]
    assert t.st.state()["closed"] == ["E5"] and t.st.state()["selftest"] == "checklist"


def test_survives_a_clock_wrap():
    start = 0x3FFFFFFF - 500
    st = SelfTest(Settings(), start)
    st.tick((start + 600) & 0x3FFFFFFF)
    assert st.phase == LIGHTS and st.step == 4


def test_it_plays_nothing_and_refuses_game_commands():
    st = SelfTest()
    assert st.take_back(0) is False and st.claim(0) is False and st.flips_pending() == []
    with pytest.raises(ValueError, match="self-test"):
        st.new_game(0)
    with pytest.raises(ValueError, match="self-test"):
        st.change_settings(Settings(), 0)


def test_bad_arguments_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="chain"):
        SelfTest(chain=bytes(60))
    with pytest.raises(ValueError, match="chain"):
        SelfTest(chain=bytes(61))
    with pytest.raises(ValueError, match="frame"):
        SelfTest(frame=bytearray(10))
    with pytest.raises(ValueError, match="ask_ms"):
        SelfTest(ask_ms=0)
    with pytest.raises(ValueError, match="closed"):
        SelfTest(closed=bytes(3))


def test_uses_the_colour_blind_palette():
    st = SelfTest(Settings(palette=1), 0)
    for now in range(0, LIGHTS_MS + 10, 5):
        st.tick(now)
    st.switch(C("A1"), True, LIGHTS_MS + 10)
    st.compose(LIGHTS_MS + 10)
    assert tuple(st.frame[0:3]) == palette.rgb(palette.COLOUR_BLIND, palette.SETTING_ON)


# --- the full board ----------------------------------------------------------------------

ROW = "ABCDEFGHI"


def through_checklist(t):
    t.advance(LIGHTS_MS)
    for name in NAMES:
        t.tap(name)
    assert t.st.phase == BOARD and t.st.round == 0


def lay(t, held=(), never=(), after=SETTLE_MS + 50):
    """The tester lays the round's pattern: a disk on every hex to cover (but `never`), none
    on the empty ones; the switches of `held` read closed all the same."""
    st = t.st
    for c in range(iago.CELLS):
        want = st.target(c) != EMPTY
        closed = (want and iago.cell_name(c) not in never) or iago.cell_name(c) in held
        if st.present[c] != closed:
            st.switch(c, closed, t.now)
    t.drain()
    t.advance(after)


def test_the_full_board_takes_every_hex_empty_once_under_its_worst_poles():
    st = SelfTest(Settings(), 0)
    empties = []
    for k in range(ROUNDS):
        st.round = k
        row = k // 2
        targets = [st.target(c) for c in range(iago.CELLS)]
        empty = [c for c in range(iago.CELLS) if targets[c] == EMPTY]
        # Every other hex of the round's row, so each empty hex keeps both neighbours in its
        # row: the six around it are covered.
        assert {hexgridrow(c) for c in empty} == {row}
        for c in empty:
            assert all(targets[n] != EMPTY for n in neighbours(c))
        for c in range(iago.CELLS):
            if targets[c] != EMPTY:
                assert targets[c] == (COLOUR_UP if hexgridrow(c) > row else RED_UP)
        empties += empty
    assert sorted(empties) == list(range(iago.CELLS))          # each hex empty once


def hexgridrow(c):
    from iago import hexgrid
    return hexgrid.ROW_OF[c]


def neighbours(c):
    from iago import hexgrid
    return [n for n in (hexgrid.neighbour(c, d) for d in range(6)) if n is not None]


def test_a_good_board_passes_every_round_of_the_full_board():
    t = Person()
    through_checklist(t)
    for k in range(ROUNDS):
        assert t.st.round == k and t.st.phase == BOARD
        lay(t)
    rounds = t.of("selftest_board")
    assert [e["round"] for e in rounds] == list(range(ROUNDS))
    assert rounds[8] == {"event": "selftest_board", "round": 8, "rounds": 18, "row": "E",
                         "empty": ["E1", "E3", "E5", "E7", "E9"]}
    assert rounds[9]["empty"] == ["E2", "E4", "E6", "E8"]
    assert t.st.phase == DONE and t.st.clean
    assert t.of("selftest_done")[0]["board"] == "done"
    assert t.of("selftest_fault") == []


def test_a_switch_held_by_its_neighbours_fields_is_named():
    t = Person(ask_ms=3000)
    through_checklist(t)
    for k in range(ROUNDS):
        if k == 8:                                  # E5 empty, its neighbours all covered
            lay(t, held=("E5",), after=SETTLE_MS + 100)
            assert t.st.round == 8                   # waiting for E5 to open
            assert t.colour("E5") in (RED, (0, 0, 0))                # blinking fast
            t.advance(3000)
        else:
            lay(t)
    assert t.of("selftest_fault") == [{"event": "selftest_fault", "fault": "held",
                                       "cell": "E5"}]
    done = t.of("selftest_done")[0]
    assert done["held"] == ["E5"] and done["open"] == [] and done["board"] == "done"
    assert t.colour("E5") == RED and not t.st.clean


def test_a_stray_disk_taken_off_in_time_is_no_fault():
    t = Person(ask_ms=3000)
    through_checklist(t)
    lay(t, held=("A1",), after=SETTLE_MS + 100)    # a disk left on A1, to be empty
    assert t.st.round == 0
    t.close("A1", False)                            # the tester takes it off
    assert t.st.round == 1 and t.of("selftest_fault") == []


def test_a_hex_that_stays_open_under_the_full_board_is_named():
    t = Person(ask_ms=3000)
    through_checklist(t)
    lay(t, never=("C4",), after=3000 + 50)        # nothing moves for ask_ms: C4 is open
    assert t.of("selftest_fault") == [{"event": "selftest_fault", "fault": "open",
                                       "cell": "C4"}]
    assert t.st.round == 1


def test_the_full_board_shows_each_hex_its_face_and_a_stray_disk_red():
    t = Person()
    through_checklist(t)
    # Round 0: row A's first, third, ... hexes empty; row A's others red face up, the rows
    # above coloured face up.
    t.close("B2", True, after=0)                   # to cover, coloured face up: there
    t.close("A4", True, after=0)                   # to cover, red face up: there
    t.close("A3", True, after=0)                   # to be empty: a stray disk
    light = palette.rgb(palette.STANDARD, palette.LIGHT)
    captive = palette.rgb(palette.STANDARD, palette.LIGHT_CAPTIVE)
    seen = {n: set() for n in ("I9", "B2", "A2", "A4", "A3", "A1")}
    for _ in range(12):
        t.advance(50)
        for n in seen:
            seen[n].add(t.colour(n))
    assert seen["I9"] == {light, (0, 0, 0)}         # to cover, coloured face up: blinking
    assert seen["B2"] == {light}                    # covered: steady
    assert seen["A2"] == {captive, (0, 0, 0)}       # to cover, red face up: blinking
    assert seen["A4"] == {captive}
    assert seen["A3"] == {RED}                      # a disk where none belongs
    assert seen["A1"] == {(0, 0, 0)}                # to be empty: dark


def test_a_square_board_has_no_full_board_stage():
    from gameboard.layout import Layout

    st = SelfTest(Settings(), 0, layout=Layout("square", 8), ask_ms=1000)
    now = 0
    while st.phase < CHECKLIST:
        now += 5
        st.tick(now)
    for c in range(64):
        st.switch(c, True, now)
        st.switch(c, False, now)
    assert st.phase == DONE and st.done and st.summary()["board"] == "none"


# --- under MicroPython ---------------------------------------------------------------------

SETUP = """
import gc
import micropython
import iago
from gameboard.selftest import SelfTest, CHECKLIST, DONE, BOARD, EMPTY

def steady(st, now, n):
    i = 0
    while i < n:
        i += 1
        now += 7
        st.tick(now)
        st.compose(now)
    return now

def locked(st, now, n):
    gc.collect()
    micropython.heap_lock()
    try:
        now = steady(st, now, n)
    finally:
        micropython.heap_unlock()
    return now

st = SelfTest(None, 0, bytes(reversed(range(61))), ask_ms=100000)
now = 0
st.outbox.clear()
"""

STAGES = {
    # Each stage: set-up, then ticks and frames with the heap locked.
    "lights": "now = locked(st, now, 1200)\nassert st.phase == 0, st.phase\n",
    "all on": "now = steady(st, now, 61 * 150 // 7 + 2)\nst.outbox.clear()\n"
              "now = locked(st, now, 100)\nassert st.phase == 1, st.phase\n",
    "checklist": "now = steady(st, now, 10200 // 7 + 2)\n"
                 "for c in range(5):\n"
                 "    st.switch(c, True, now); st.switch(c, False, now)\n"
                 "st.switch(20, True, now)\n"
                 "st.outbox.clear()\n"
                 "now = locked(st, now, 400)\nassert st.phase == CHECKLIST\n",
    "board": "now = steady(st, now, 10200 // 7 + 2)\n"
             "for c in range(61):\n"
             "    st.switch(c, True, now); st.switch(c, False, now)\n"
             "for c in range(61):\n"
             "    st.switch(c, st.target(c) != EMPTY and c != 7, now)\n"
             "st.switch(3, True, now)\n"
             "st.outbox.clear()\n"
             "now = locked(st, now, 400)\nassert st.phase == BOARD and st.round == 0\n",
    "board, waiting for an empty hex": "now = steady(st, now, 10200 // 7 + 2)\n"
             "for c in range(61):\n"
             "    st.switch(c, True, now); st.switch(c, False, now)\n"
             "for c in range(61):\n"
             "    st.switch(c, st.target(c) != EMPTY or c == 0, now)\n"
             "now = steady(st, now, 1200 // 7 + 2)\n"
             "st.outbox.clear()\n"
             "now = locked(st, now, 400)\nassert st.holding >= 0 and st.round == 0\n",
    "done": "now = steady(st, now, 10200 // 7 + 2)\n"
            "for c in range(61):\n"
            "    st.switch(c, True, now); st.switch(c, False, now)\n"
            "now = steady(st, now, 100000 // 7 + 2)\n"
            "st.outbox.clear()\n"
            "now = locked(st, now, 400)\nassert st.phase == DONE\n",
}


@pytest.mark.micropython
@pytest.mark.parametrize("stage", sorted(STAGES))
def test_steady_ticks_and_frames_allocate_nothing(stage):
    out = mpvm.run_unix(SETUP + STAGES[stage] + "print('ok')\n", heap="256k")
    assert out.split() == ["ok"]


@pytest.mark.micropython
def test_the_same_findings_under_micropython():
    program = """
import json
import iago
from gameboard.selftest import SelfTest, EMPTY
st = SelfTest(None, 0, None, ask_ms=2000)
now = 0
seen = []
st.switch(iago.parse_cell('B2'), True, 5)
while st.phase < 2:
    now += 5
    st.tick(now)
while not st.done:
    now += 50
    if st.phase == 2:
        asked = st.asked
        if asked != iago.parse_cell('C3'):
            hit = {iago.parse_cell('D1'): iago.parse_cell('D2'),
                   iago.parse_cell('D2'): iago.parse_cell('D1')}.get(asked, asked)
            st.switch(hit, True, now)
            st.switch(hit, False, now + 1)
    else:
        # The full board, every round laid out; but D4 held closed by its neighbours when
        # it is to be empty, and C6 never closing once covered.
        for c in range(61):
            want = st.target(c) != EMPTY and c != iago.parse_cell('C6')
            if c == iago.parse_cell('D4'):
                want = True
            if st.present[c] != want:
                st.switch(c, want, now)
    st.tick(now + 2)
    seen.extend(e for e in st.outbox if e['event'] == 'selftest_done')
    st.outbox.clear()
print(json.dumps(seen[0]))
"""
    out = mpvm.run_unix(program, heap="256k")
    assert json.loads(out) == {"event": "selftest_done", "stuck": ["B2"],
                               "swapped": [["D1", "D2"], ["D2", "D1"]], "silent": ["C3"],
                               "passed": 57, "held": ["D4"], "open": ["C6"], "board": "done"}


# --- on the simulated board --------------------------------------------------------------

def start_selftest(board, ask_ms=ASK_MS):
    """Put the board into its self-test as the app does (App.hand_over), with `ask_ms`."""
    app = board.app
    st = app.hand_over("selftest", app.clock.ticks_ms())
    st.ask_ms = ask_ms
    return st


def swapped_map(tmp_path, a, b):
    """The default map with the crossings of hexes `a` and `b` exchanged: what the firmware
    believes when two switches were wired to each other's crossing."""
    data = json.loads(DEFAULT_MAP.read_text())
    cells = data["cells"]
    for key in ("row", "col"):
        cells[a][key], cells[b][key] = cells[b][key], cells[a][key]
    path = tmp_path / "swapped.json"
    path.write_text(json.dumps(data))
    return path


def run_checklist(board, st, skip=(), ask_ms=ASK_MS):
    """The tester places a disk on each asked hex and lifts it; hexes in `skip` are left."""
    guard = 0
    while st.phase == CHECKLIST:
        guard += 1
        assert guard < 200, "the checklist does not end"
        asked = iago.cell_name(st.asked)
        if asked in skip:
            board.advance(ask_ms + 20)
            continue
        board.place(asked, "D", rest_ms=60)
        board.lift(asked, hold_ms=20)
    board.advance(40)


def run_full_board(board, st):
    """The tester lays out each round: a disk with the face the LEDs ask for on every hex to
    cover (dark disks with their dark or red face up), none on the empty ones."""
    faces = {COLOUR_UP: "D", RED_UP: "d"}
    guard = 0
    while st.phase == BOARD:
        guard += 1
        assert guard < 40, "the full board does not end"
        k = st.round
        for cell in range(iago.CELLS):
            want = faces.get(st.target(cell))
            have = board.disks.get(cell)
            if have is not None and have != want:
                board.lift(cell, hold_ms=5)
            if want is not None and have != want:
                board.place(cell, want, rest_ms=5)
        waited = 0
        while st.phase == BOARD and st.round == k:
            board.advance(250)
            waited += 250
            assert waited < 60000, "round %d does not end" % k


def test_simulated_board_finds_a_stuck_and_a_swapped_switch(tmp_path):
    firmware_map = swapped_map(tmp_path, "C3", "C4")
    with SimBoard(map_path=firmware_map, wiring_map=DEFAULT_MAP) as board:
        board.stick("E5")
        st = start_selftest(board, ask_ms=2000)
        board.advance(LIGHTS_MS + 100)
        events = [m for m in board.received() if "event" in m]
        assert [e["event"] for e in events[:2]] == ["selftest_start", "selftest"]
        assert events[1]["cell"] == "E5" and events[1]["closed"] is True
        assert {"v": 2, "event": "selftest_fault", "fault": "stuck", "cell": "E5"} in events
        red = tuple(board.app.leds.level(v) for v in RED)
        assert board.led("E5") == red                     # stuck: red through the checklist
        run_checklist(board, st, skip=("H6",), ask_ms=2000)
        board.advance(2100)                       # the full board skipped
        events = [m for m in board.received() if "event" in m]
        swaps = [e for e in events if e["event"] == "selftest" and e["closed"] and
                 e["cell"] != e["asked"]]
        assert [(e["asked"], e["cell"]) for e in swaps] == [("C3", "C4"), ("C4", "C3")]
        done = [e for e in events if e["event"] == "selftest_done"]
        assert done == [{"v": 2, "event": "selftest_done", "stuck": ["E5"],
                         "swapped": [["C3", "C4"], ["C4", "C3"]], "silent": ["H6"],
                         "passed": 57, "held": [], "open": [], "board": "skipped"}]
        board.advance(100)
        for name, colour in board.leds().items():
            assert colour == (red if name in ("C3", "C4", "E5", "H6") else (0, 0, 0)), name
        assert board.app.leds.scale == 4096
        assert board.command({"cmd": "state"})["state"]["selftest"] == "done"
        assert board.command({"cmd": "new_game"})["ok"] is False


@pytest.mark.parametrize("map_path, runtime", [
    (DEFAULT_MAP, "micropython"), (DEFAULT_MAP, "circuitpython"), (SERPENTINE, "micropython")],
    ids=["default", "default-circuitpython", "serpentine"])
def test_simulated_board_lights_the_chain_in_order_and_passes_a_good_build(map_path, runtime):
    with SimBoard(map_path=map_path, runtime=runtime) as board:
        board.advance(1200)                       # the game's start-up, then the self-test
        board.received()
        st = start_selftest(board)
        start = board.clock.ms
        chain = board.app.boardmap.cell_of_led
        for i in range(0, iago.CELLS, 6):
            board.advance(start + i * CHAIN_STEP_MS + CHAIN_STEP_MS // 2 - board.clock.ms)
            lit = [n for n, colour in board.leds().items() if any(colour)]
            assert lit == [iago.cell_name(chain[i])], i
        board.advance(start + LIGHTS_MS + 50 - board.clock.ms)
        run_checklist(board, st)
        board.advance(ASK_MS + 100)               # the full board skipped
        done = [m for m in board.received() if m.get("event") == "selftest_done"]
        assert done == [{"v": 2, "event": "selftest_done", "stuck": [], "swapped": [],
                         "silent": [], "passed": 61, "held": [], "open": [],
                         "board": "skipped"}]
        green = tuple(board.app.leds.level(v) for v in GREEN)
        assert set(board.leds().values()) == {green} and board.app.leds.scale == 4096


@pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])
def test_simulated_board_names_a_switch_its_neighbours_hold_closed(runtime):
    # E5's switch is so keen that its six neighbours' magnets hold it closed once their
    # poles add up along it: never with one disk at a time, but in the full board's round
    # that empties E5. The self-test names it; every other hex passes.
    with SimBoard(runtime=runtime) as board:
        board.make_keen("E5", 6)
        board.advance(1200)
        board.received()
        st = start_selftest(board, ask_ms=3000)
        board.advance(LIGHTS_MS + 100)
        run_checklist(board, st, ask_ms=3000)
        assert st.phase == BOARD and not st.fault[iago.parse_cell("E5")]
        run_full_board(board, st)
        events = [m for m in board.received() if "event" in m]
        faults = [e for e in events if e["event"] == "selftest_fault"]
        assert faults == [{"v": 2, "event": "selftest_fault", "fault": "held", "cell": "E5"}]
        rounds = [e["round"] for e in events if e["event"] == "selftest_board"]
        assert rounds == list(range(ROUNDS))
        done = [e for e in events if e["event"] == "selftest_done"]
        assert done == [{"v": 2, "event": "selftest_done", "stuck": [], "swapped": [],
                         "silent": [], "passed": 61, "held": ["E5"], "open": [],
                         "board": "done"}]
        board.advance(100)
        red = tuple(board.app.leds.level(v) for v in RED)
        green = tuple(board.app.leds.level(v) for v in GREEN)
        # Done: the faulty hex red, the rest dark (a fault was found).
        assert board.led("E5") == red
        assert {c for n, c in board.leds().items() if n != "E5"} == {(0, 0, 0)}
        assert green != red
