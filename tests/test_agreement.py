"""The board's promise under any sequence of hands: a stateful, shrinking fuzzer of physical
play on the simulated board (the unmodified firmware), checking the invariants of
tests/physical_play.py after every step.

The players mostly follow the LEDs (mend what is asked, place on a legal hex) but also make
every mistake people make: a disk put down early, the wrong disk lifted, a disk bumped off and
put back, take-backs at any moment (holding the last disk off, the select button, the host
link), slides (overlapping, at varied speeds, with pauses), switch bounce, crosstalk, power
cuts at any instant, at paces from brisk to slow.

`make test` runs a seeded budget of examples; `make soak` runs many more (AGREEMENT_EXAMPLES).
The fuzzer and every regression test run on both runtimes: the firmware on MicroPython's
hardware layer and on CircuitPython's (gameboard/cphw.py, docs/circuitpython.md); each of the
fuzzer's runs draws whether the board has an FRAM (the game in progress saved there,
gameboard/framsaves.py) or saves on the flash.
"""

import os

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from physical_play import Table

EXAMPLES = int(os.environ.get("AGREEMENT_EXAMPLES", "60"))
STEPS = int(os.environ.get("AGREEMENT_STEPS", "60"))
# `make test` is seeded (derandomized: the same runs every time); `make soak` sets
# AGREEMENT_RANDOM=1 for new runs each time, a failure printing the blob that replays it.
RANDOM = os.environ.get("AGREEMENT_RANDOM") == "1"

pace = st.sampled_from([50, 90, 140, 400, 1200])


RUNTIMES = pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])


class PhysicalPlay(RuleBasedStateMachine):
    """One board, many hands."""

    runtime = "micropython"

    @initialize(rules=st.sampled_from([("standard", False), ("loose+simple", False),
                                       ("standard", True)]),
                fram=st.booleans())
    def start(self, rules, fram):
        self.table = Table(runtime=self.runtime, fram=fram)     # with an FRAM, or without
        if rules != ("standard", False):
            self.table.command({"cmd": "settings",
                                "settings": {"rules": rules[0], "penalty": rules[1]}})

    def teardown(self):
        table = getattr(self, "table", None)
        if table is not None:
            try:
                table.calm()          # (d) at the end of every run too
            finally:
                table.close()

    # --- reading the board ------------------------------------------------------------------

    def _state(self):
        if not self.table.board.powered:
            self.table.board.power_on()
            self.table.board.advance(1300)
        return self.table.state()

    def _pick(self, data, cells):
        cells = sorted(cells)
        return cells[data.draw(st.integers(0, len(cells) - 1))] if cells else None

    # --- following the LEDs -----------------------------------------------------------------

    @rule(data=st.data(), rest=pace)
    def place_a_legal_disk(self, data, rest):
        state = self._state()
        if state is None:                 # the demo: the next rule's disk stops it
            return
        parse = self.table.layout.parse_cell
        cell = self._pick(data, [parse(n) for n in state["legal"]])
        if cell is not None and cell not in self.table.board.disks:
            self.table.place(cell, rest_ms=rest)

    @rule(brisk=st.booleans(), times=st.integers(1, 6))
    def mend(self, brisk, times):
        for _ in range(times):
            if not self.table.mend_once(brisk=brisk):
                break
            self.table.check()

    @rule(ms=st.sampled_from([20, 120, 350, 1000, 2500]))
    def wait(self, ms):
        self.table.wait(ms)

    # --- mistakes ---------------------------------------------------------------------------

    @rule(data=st.data(), rest=pace)
    def place_early_or_anywhere(self, data, rest):
        """A disk put down where the game would take one, whatever the board shows now (early,
        while flips are pending), or on any empty hex."""
        game = self.table.ctl.game if self._state() else None
        if game is None:
            return
        empty = [c for c in range(self.table.layout.cells) if c not in self.table.board.disks]
        wanted = [c for c in game.legal_moves if c not in self.table.board.disks]
        cell = self._pick(data, wanted if wanted and data.draw(st.booleans()) else empty)
        if cell is not None:
            self.table.place(cell, rest_ms=rest)

    @rule(data=st.data(), hold=st.sampled_from([30, 80, 300, 900, 1700]),
          turn=st.booleans())
    def lift_a_disk_and_put_it_back(self, data, hold, turn):
        """A bump, the wrong disk picked up (and put back as the LEDs show), or a flip."""
        if self._state() is None:
            return
        cell = self._pick(data, self.table.board.disks)
        if cell is None:
            return
        state = self.table.state()
        asked = state is not None and self.table.layout.cell_name(cell) in state["flips_pending"]
        face = self.table.lift(cell, hold)
        if self.table.board.powered and self.table.state() is not None:
            shown = self.table.face_shown(cell)
            # A reed switch cannot see a face: the one discipline the players keep is that a
            # disk asked to turn goes back with the face its LED shows (turn: any disk does).
            if (turn or asked) and shown is not None:
                face = shown
        self.table.put_back(cell, face)

    @rule(data=st.data())
    def lift_a_disk_and_leave_it_off(self, data):
        if self._state() is None:
            return
        cell = self._pick(data, self.table.board.disks)
        if cell is not None:
            self.table.lift(cell, 40)

    @rule(hold=st.sampled_from([1600, 2200]), put_back=st.booleans())
    def take_back_by_holding_the_last_disk_off(self, hold, put_back):
        state = self._state()
        if not state or not state["moves"]:
            return
        cell = self.table.layout.parse_cell(state["moves"][-1])
        if cell not in self.table.board.disks:
            return
        face = self.table.lift(cell, hold)
        if put_back:
            self.table.put_back(cell, face)

    @rule(how=st.sampled_from(["link", "button"]))
    def take_back(self, how):
        if self._state() is None:
            return
        if how == "link":
            self.table.command({"cmd": "take_back"})
        else:
            self.table.press_select()

    @rule(data=st.data(), length=st.integers(2, 5),
          steps=st.lists(st.sampled_from([15, 40, 120, 250]), min_size=4, max_size=4),
          overlap=st.sampled_from([0, 5, 15, 30]),
          end=st.sampled_from(["legal", "illegal", "occupied", "any"]))
    def slide_a_disk(self, data, length, steps, overlap, end):
        """A disk slid across the board at varied speeds, pausing on the way (less than the
        0.3 s that plays a placement), each switch on its way closing before the last one
        opens (a magnet between two hexes) or after it, and coming to rest on a hex legal for
        the mover, an illegal one, or one whose disk is off the board."""
        if self._state() is None:
            return
        table = self.table
        disks = table.board.disks
        game = table.ctl.game
        empty = [c for c in range(table.layout.cells) if c not in disks]
        if end == "legal":
            ends = [c for c in game.legal_moves if c not in disks]
        elif end == "illegal":
            legal = set(game.legal_moves)
            ends = [c for c in empty if not game.cell(c) and c not in legal]
        elif end == "occupied":
            ends = [c for c in empty if game.cell(c)]
        else:
            ends = empty
        last = self._pick(data, ends)
        if last is None:
            return
        grid = table.layout.grid
        directions = len(grid.NEIGHBOURS) // table.layout.cells
        path = [last]
        for _ in range(length - 1):
            nexts = [n for n in (grid.neighbour(path[-1], d) for d in range(directions))
                     if n is not None and n not in disks and n not in path]
            if not nexts:
                break
            path.append(self._pick(data, nexts))
        if len(path) > 1:
            path.reverse()
            table.slide(path, steps[:len(path) - 1], overlap)

    @rule(bounce=st.sampled_from([0, 0, 3, 8]), crosstalk=st.sampled_from([0.0, 0.0, 0.3]))
    def switches_misbehave(self, bounce, crosstalk):
        self.table.board.bounce_ms = bounce
        self.table.board.crosstalk = crosstalk
        self.table.note("switches", bounce, crosstalk)

    @rule(after=st.integers(0, 400), off=st.sampled_from([5, 300]))
    def power_cut(self, after, off):
        """The plug pulled at any instant of the firmware's work (mid-save included)."""
        self.table.wait(after)
        self.table.power_cut(off)

    @rule(nth=st.integers(1, 3))
    def power_cut_in_the_middle_of_a_save(self, nth):
        """The fake flash tears the write: a save cut short, the old one kept."""
        if self._state() is not None:
            self.table.cut_in_save(nth)

    @rule(hold=st.sampled_from([1500, 2300]), put_back=st.booleans())
    def new_game_by_clearing_the_board(self, hold, put_back):
        """Every disk lifted, then a disk held on the centre and lifted (a new game once the
        board asked and the disk stayed 2 s); or a disk put back instead (the game goes on)."""
        state = self._state()
        if state is None:
            return
        table = self.table
        for cell in sorted(table.board.disks):
            table.lift(cell, 5)
        table.wait(2100)
        centre = table.layout.demo_cell
        if put_back:
            self.mend(True, 1)
            return
        table.place(centre, rest_ms=hold)
        asked = getattr(table.ctl, "asking", False)
        playing = state["phase"] == "play" and state["moves"]
        table.lift(centre, 30)
        state = table.state()
        if state is not None and asked and hold >= 2000 and playing:
            assert state["moves"] == [] and state["phase"] == "play", state

    @precondition(lambda self: getattr(self, "table", None) is not None)
    @rule()
    def new_game_by_command(self):
        if self._state() is None:
            return
        self.table.command({"cmd": "new_game"})

    # --- after every step -------------------------------------------------------------------

    @invariant()
    def the_board_keeps_its_promise(self):
        table = getattr(self, "table", None)
        if table is not None and table.board.powered:
            table.check()

    @precondition(lambda self: getattr(self, "table", None) is not None)
    @rule()
    def a_way_forward(self):
        self.table.calm()


PhysicalPlay.TestCase.settings = settings(
    max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
    derandomize=not RANDOM, database=None,
    suppress_health_check=list(HealthCheck), print_blob=True,
    phases=list(Phase) if os.environ.get("AGREEMENT_SHRINK", "1") == "1" else
    [Phase.explicit, Phase.reuse, Phase.generate])
test_physical_play = PhysicalPlay.TestCase


class PhysicalPlayCircuitPython(PhysicalPlay):
    """The same hands on the firmware under CircuitPython (gameboard/cphw.py)."""

    runtime = "circuitpython"


PhysicalPlayCircuitPython.TestCase.settings = PhysicalPlay.TestCase.settings
test_physical_play_circuitpython = PhysicalPlayCircuitPython.TestCase


# --- what the fuzzer found, as plain regression tests -----------------------------------------

@RUNTIMES
def test_a_disk_waiting_its_turn_keeps_it_when_the_next_side_puts_one_down(runtime):
    """E4, then B2 (light) still resting when B3 (dark, early) is put down: B3 waits its turn,
    blinking dark. Light slides a disk to B4 meanwhile: B3 is played first, then B4 as
    light's, and every disk shows what the game has. (The fuzzer's slide once took dark's face
    for B4, as the game's turn said while B3 waited; and the board, seeing two new disks, let
    B3 stop waiting and played whichever was left after a lift for the wrong side.)"""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        table.place(parse("E4"))
        table.place(parse("B2"), rest_ms=30)
        table.place(parse("B3"), rest_ms=30)
        state = table.state()
        assert state["tentative"] == "B2" and state["waiting"] == "B3"
        assert table.board.mover_face() == "L"      # the side after the disk that waits
        table.slide([parse(n) for n in ("B6", "B5", "B4")], 120)
        table.wait(400)
        state = table.state()
        assert state["moves"] == ["E4", "B2", "B3", "B4"] and not state["extra"]
        assert table.board.disks[parse("B4")] == "L"
        table.calm()
    finally:
        table.close()


@RUNTIMES
def test_a_disk_put_down_after_one_that_waits_is_never_played_for_its_side_once_that_one_leaves(
        runtime):
    """E4 settled, then lifted (light to move, the board not ready): light's disk on a legal
    hex waits its turn; dark's disk goes down after it, for the turn after. The waiting disk
    is lifted and E4 put back: dark's disk is not light's move, whatever hex it is on; it must
    leave and come back first. (The soak once saw the board play it for light, so a dark disk
    lay where the game had a light one.)"""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        e4 = parse("E4")
        table.place(e4)
        light_hexes = [parse(name) for name in table.state()["legal"]]
        table.lift(e4, 30)
        table.put_back(light_hexes[0], None, 30)
        assert table.state()["waiting"] == table.layout.cell_name(light_hexes[0])
        table.put_back(light_hexes[1], None, 30)
        assert table.board.disks[light_hexes[1]] == "D"   # the side after the one that waits
        table.lift(light_hexes[0], 30)
        table.put_back(e4, "D", 30)
        table.wait(600)
        state = table.state()
        assert state["moves"] == ["E4"] and state["waiting"] is None, state
        assert state["extra"] == [table.layout.cell_name(light_hexes[1])], state
        table.lift(light_hexes[1], 30)
        table.put_back(light_hexes[1], None)            # down again: now it is light's
        table.wait(400)
        assert table.state()["moves"] == ["E4", table.layout.cell_name(light_hexes[1])]
        assert table.board.disks[light_hexes[1]] == "L"
        table.calm()
    finally:
        table.close()


@RUNTIMES
def test_a_placement_lifted_just_after_another_disk_is_not_slid_onto_the_disk_that_waits(
        runtime):
    """E4, then light's B2 still tentative and dark's B3 put down early (it waits); E4 is
    lifted and, within the 40 ms a slide takes, B2. B2 is withdrawn, but no disk landed just
    before it left: B3, put down for dark's turn, is not B2 slid on, so it is never played for
    light (it was: the slide's test took any change for a landing)."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        name = table.layout.cell_name
        e4 = parse("E4")
        table.place(e4)
        first, second = [parse(n) for n in table.state()["legal"][:2]]
        table.place(first, rest_ms=20)
        table.put_back(second, None, 20)
        state = table.state()
        assert state["tentative"] == name(first) and state["waiting"] == name(second), state
        assert table.board.disks[second] == "D"
        table.lift(e4, 5)
        table.lift(first, 5)
        table.put_back(e4, "D", 30)
        table.wait(600)
        state = table.state()
        assert state["moves"] == ["E4"] and state["extra"] == [name(second)], state
        table.calm()
    finally:
        table.close()


@RUNTIMES
def test_a_disk_turned_back_after_a_take_back_never_takes_a_second_move_back(runtime):
    """E4 E6 D5 C4 (C4 captures D5), D5 turned; take_back: lift C4 and turn D5 back. Turning
    D5 back first, while C4 is still down, is mending, not a take-back of D5."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        for name in ("E4", "E6", "D5", "C4"):
            table.place(parse(name))
        assert table.state()["flips_pending"] == ["D5"]
        table.turn(parse("D5"))
        table.wait(400)
        table.command({"cmd": "take_back"})
        state = table.state()
        assert state["moves"] == ["E4", "E6", "D5"]
        assert state["extra"] == ["C4"] and state["flips_pending"] == ["D5"]
        table.turn(parse("D5"))                 # turned back while C4 is still down
        table.wait(500)
        state = table.state()
        assert state["moves"] == ["E4", "E6", "D5"] and state["extra"] == ["C4"]
        assert state["flips_pending"] == [] and state["legal"] == []
        table.lift(parse("C4"))
        table.wait(100)
        assert table.state()["legal"] and table.calm()
    finally:
        table.close()


@RUNTIMES
def test_a_disk_resting_on_a_settings_hex_steps_nothing_once_a_game_began(runtime):
    """A disk slid onto a settings hex rested there while another disk was played: the
    setting's timer used to fire after the first placement and crash the board."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        table.board.place(parse("A2"), "D", rest_ms=100)      # the penalty hex, pregame
        table.place(parse("E4"), rest_ms=600)
        state = table.state()
        assert state["moves"] == ["E4"] and state["settings"]["penalty"] is False
        assert state["extra"] == ["A2"]                      # now just a disk to lift
    finally:
        table.close()


@RUNTIMES
def test_a_flip_saved_after_the_next_disk_landed_never_saves_that_disk(runtime):
    """A flip's save waits while a switch is changing; when the next disk landed at once, the
    save ran with that disk still tentative and wrote it as a move: after a power cut it came
    back as a move nobody settled."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        for name in ("E4", "E6", "D5", "C4"):
            table.place(parse(name))
        board = table.board
        board.lift(parse("D5"), 350)
        board.put(parse("D5"), "d", rest_ms=3)             # the flip, and at once ...
        board.place(parse("C3"), "D", rest_ms=120)         # ... dark's next disk, tentative
        assert table.state()["tentative"] == "C3"
        table.power_cut(300)
        state = table.state()
        assert state["moves"] == ["E4", "E6", "D5", "C4"] and state["flips_pending"] == []
        assert state["extra"] == ["C3"]
    finally:
        table.close()


@RUNTIMES
def test_a_power_cut_during_the_last_flips_ends_the_game_with_its_record(runtime):
    """A cut while the players turned the last placement's disks restored straight into game
    over with flips pending: no game_over, no record, and clearing the board then took the last
    move back and resumed the old game."""
    import random
    rng = random.Random(3)
    table = Table(runtime=runtime)
    try:
        board = table.board
        parse = table.layout.parse_cell
        while True:
            state = table.calm()
            game = table.ctl.game
            moves = [parse(n) for n in state["legal"]]
            table.place(rng.choice(moves))
            if table.ctl.game.is_game_over():
                break
        assert table.state()["flips_pending"], "this seed's last placement turns disks"
        table.wait(400)                                  # settled, flips still to do
        table.turn(parse(table.state()["flips_pending"][0]))
        board.received()
        table.power_cut(300)
        state = table.state()
        assert state["phase"] == "play" and state["moves"][-1:] == [
            table.layout.cell_name(game.peek())]
        table.calm()
        events = [m for m in board.received() if "event" in m]
        assert [m["event"] for m in events if m["event"] in ("game_over", "saved_game")] == [
            "game_over", "saved_game"]
        assert table.state()["phase"] == "over"
        assert len(board.command({"cmd": "games"})["games"]) == 1
        for cell in list(board.disks):                   # clearing starts a new game
            table.lift(cell, 5)
        table.wait(100)
        assert table.state()["moves"] == [] and table.state()["phase"] == "play"
        assert len(board.command({"cmd": "games"})["games"]) == 1
    finally:
        table.close()


@RUNTIMES
def test_a_finished_game_keeps_one_record_however_often_the_power_goes(runtime):
    """Restored into a finished game, the board makes sure its record is kept (the cut may
    have come between the save and the record), and never keeps it twice."""
    import random
    rng = random.Random(5)
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        while table.state()["phase"] != "over":
            state = table.calm()
            if state["phase"] == "over":
                break
            table.place(rng.choice([parse(n) for n in state["legal"]]))
        table.wait(200)
        for _ in range(3):
            table.power_cut(300)
            assert table.state()["phase"] == "over"
        assert len(table.board.command({"cmd": "games"})["games"]) == 1
    finally:
        table.close()


@RUNTIMES
def test_a_disk_left_on_the_centre_starts_the_demo_once(runtime):
    """The disk that started the demo, still on the centre when a disk put down stopped it,
    restarted the demo at once, again and again: the board never came back to the game."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        table.board.place(parse(table.layout.cell_name(table.layout.demo_cell)), "D", 2300)
        assert table.ctl.shares_board                         # the demo runs
        table.board.place(parse("B3"), "D", 200)             # any disk stops it
        table.wait(3000)
        state = table.state()
        assert state is not None and state["phase"] == "play"
    finally:
        table.close()


@RUNTIMES
def test_a_disk_on_the_centre_at_a_new_game_is_held_from_the_new_game_on(runtime):
    """A disk left on E5 (an illegal placement) for 2 s, then `new_game`: the demo's 2 s hold
    was timed from when the disk landed in the old game, so the demo took the board at once."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        table.place(parse("E4"))
        table.board.place(parse("E5"), "L", 2500)            # left there, blinking red
        table.command({"cmd": "new_game"})
        table.wait(500)
        assert not table.ctl.shares_board                     # the game, not the demo
        assert table.state()["phase"] == "play"
    finally:
        table.close()


@RUNTIMES
def test_a_flash_that_cannot_be_written_is_reported_and_play_goes_on(runtime):
    """A full or read-only flash, or a file where a folder belongs, crashed every save."""
    import os
    import shutil
    table = Table(runtime=runtime)
    try:
        board = table.board
        parse = table.layout.parse_cell
        # A folder where the save goes: every save fails with an OSError, as on a full or
        # read-only flash; on CircuitPython a flash sector that refuses writes.
        if runtime == "circuitpython":
            board.nvm.fail = OSError(5, "EIO")
        else:
            os.mkdir(os.path.join(board.root, "game.sav"))
        table.place(parse("E4"))
        table.place(parse("E6"))
        errors = [m for m in board.received() if m.get("event") == "save_error"]
        assert len(errors) == 1 and "cannot be saved" in errors[0]["error"]
        assert table.state()["moves"] == ["E4", "E6"] and table.ctl.view.flash_fault
        corner = parse("E1")
        colours = set()
        for _ in range(60):
            board.advance(25)
            colours.add(board.circuit.led_colours()[corner])
        assert len(colours) == 3                             # turn pulse, red pulse, off
        if runtime == "circuitpython":
            board.nvm.fail = None
        else:
            shutil.rmtree(os.path.join(board.root, "game.sav"))
        table.wait(5100)                                     # the next try succeeds
        assert not table.ctl.view.flash_fault
        assert [m for m in board.received() if m.get("event") == "saved"]
        table.power_cut(300)
        assert table.state()["moves"] == ["E4", "E6"]
    finally:
        table.close()


@RUNTIMES
def test_a_placement_that_settles_while_a_cut_waits_for_its_save_is_kept(runtime):
    """Found by `make soak`: the fuzzer compared the moves after a cut with those before it
    was armed, but play goes on until the save it tears: a placement settling meanwhile is
    saved by an earlier save and rightly kept. The model now takes the moves of its last
    check before the cut, and the placement then settling."""
    import iago
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        table.place(parse("E4"))
        game = table.ctl.game
        # Light's placement that turns nothing, then a legal one for dark after it.
        for x in sorted(game.legal_moves):
            after = game.copy()
            after.push(x)
            if not after.last_flips() and after.legal_moves:
                y = sorted(after.legal_moves)[0]
                break
        table.place(x, rest_ms=50)                  # still settling
        table.place(y, rest_ms=50)                  # early: waits, then plays
        table.cut_in_save(2)                        # x's save, then y's, which is torn
        assert table.state()["moves"][:2] == ["E4", table.layout.cell_name(x)]
        assert iago.parse_cell("E4") in table.settled
    finally:
        table.close()


@RUNTIMES
def test_a_take_back_just_before_the_demo_starts_is_kept_across_a_cut(runtime):
    """Found by `make soak`: a take-back to the empty game, a disk resting on the centre, so
    the demo starts; the model stopped following the game's moves while the demo ran and took
    the cut for one that lost the taken-back move. It follows the game's controller now; the
    hold on the centre is counted from the take-back (it was from the disk's landing)."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        table.place(parse("E4"))
        table.board.place(parse("E5"), "L", 100)          # a stray disk on the centre
        table.command({"cmd": "take_back"})
        table.wait(1000)
        assert not table.ctl.shares_board                  # held 1 s since the take-back
        table.wait(1500)
        assert table.ctl.shares_board                      # now the demo
        table.power_cut(5)
        assert table.board.app.controller.state()["moves"] == []
    finally:
        table.close()


@RUNTIMES
def test_a_take_back_by_the_host_link_is_on_the_leds_before_its_save(runtime):
    """Found by `make soak` on CircuitPython (an empty game after a take-back by the host
    link, B2 still glowing as light's legal move): the board answered the command, then saved
    before it drew the frame, and the save erased the flash sector (about 60 ms) with the old
    position's hints on the LEDs. The board draws what a command changed before it saves."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        for name in ("E4", "E6", "D5"):
            table.place(parse(name))
        table.calm()
        board = table.board
        hinted = [parse(n) for n in table.state()["legal"]]
        seen = []
        save = board.app.saves.save

        def save_and_look(*args):
            seen.append([board.led(c) for c in hinted])
            return save(*args)

        board.app.saves.save = save_and_look
        table.command({"cmd": "take_back"})
        assert seen, "the take-back was saved"
        assert all(colour == (0, 0, 0) for colour in seen[0]), seen[0]   # no hint glows
        table.calm()
    finally:
        table.close()


@RUNTIMES
def test_the_hands_of_the_circuitpython_soak_failure_keep_the_board_in_agreement(runtime):
    """The hands `make soak` found on CircuitPython (after them, a take-back by the host link
    while the flash erased its sector), replayed; the invariants are checked after each."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell

        def cells(*names):
            return [parse(n) for n in names]

        table.command({"cmd": "settings", "settings": {"rules": "loose+simple"}})
        table.slide(cells("F6", "F7", "E7", "E6"), 15)
        table.place(parse("E4"))
        table.command({"cmd": "new_game"})
        for name, hold in (("E6", 30), ("E4", 40), ("E6", 1600), ("E6", 300), ("E6", 30)):
            table.lift(parse(name), hold)
            if name == "E6":
                table.put_back(parse(name), "D")
        table.place(parse("F7"))
        table.cut_in_save(1)
        table.wait(257)
        table.power_cut(300)
        table.slide(cells("F2", "E1"), 15)
        table.slide(cells("G3", "H4"), 120)
        for name in ("E1", "F7", "H4"):
            table.lift(parse(name), 20)
        table.slide(cells("A5", "B6", "C7"), 15)
        table.place(parse("I6"))
        table.lift(parse("C7"), 20)
        table.lift(parse("I6"), 20)
        table.command({"cmd": "take_back"})
        table.calm()
    finally:
        table.close()


@RUNTIMES
def test_a_disk_slid_back_onto_its_hex_after_the_held_take_back_is_played_again(runtime):
    """The soak's hands of issue 35, cut down: C4 played, then its disk lifted and kept off
    (a stray disk lies on B5 meanwhile), and a disk slid back onto C4 that arrives after the
    1.5 s that take C4 back. The take-back happens during the slide: the disk lands on a hex
    the game no longer holds, so it is a placement, and the board plays C4 again once B5 is
    gone. (The players' model decided at the slide's start that it was C4's disk put back, and
    so called the replayed C4 a move no hand made.)"""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell
        table.place(parse("C4"))
        assert table.state()["moves"] == ["C4"]
        table.lift(parse("C4"), 40)
        table.place(parse("B5"), rest_ms=100)
        table.wait(400)
        table.board.received()
        table.slide([parse(n) for n in ("B1", "A1", "A2", "B3", "C4")], [250, 250, 250, 250])
        events = [m.get("event") for m in table.board.received()]
        assert events.index("take_back") < events.index("placed", len(events) - 2), events
        state = table.state()
        assert state["moves"] == [] and "C4" in state["extra"], state
        table.lift(parse("B5"), 40)
        table.wait(400)
        assert table.state()["moves"] == ["C4"]
        table.calm()
    finally:
        table.close()


@RUNTIMES
def test_a_disk_slid_while_a_held_take_back_comes_due_lands_in_the_new_movers_colour(runtime):
    """The soak's hands of issue 33: E3 (dark) played, its disk lifted and kept off, and a disk
    slid from G3 to D2 starting while light was to move. The 1.5 s that take E3 back end on
    the way, so the disk lands when dark is to move again and is played as dark. The players'
    model had chosen the disk's face at the slide's start (light), and so found a light disk
    where the game has a dark one: a face is the one thing a reed switch cannot sense, and a
    hand puts a new disk down in the colour of the side to move when it lands."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell

        def cells(*names):
            return [parse(n) for n in names]

        table.slide(cells("E6", "E5", "E4", "E3"), [15, 40, 40], 15)
        assert table.state()["moves"] == ["E3"]
        table.lift(parse("E3"), 40)
        table.wait(120)
        table.slide(cells("F4", "F3", "G3"), [250, 250], 0)
        table.lift(parse("G3"), 40)
        table.wait(350)
        assert table.state()["turn"] == "light" and table.state()["missing"] == ["E3"]
        table.board.received()
        table.slide(cells("G3", "F3", "E3", "D2"), [15, 120, 250], 30)
        events = [m.get("event") for m in table.board.received()]
        assert events.index("take_back") < events.index("move"), events
        assert table.state()["moves"] == ["D2"]
        assert table.board.disks[parse("D2")] == "D"
        table.calm()
    finally:
        table.close()


@RUNTIMES
def test_a_hand_waits_for_the_board_to_see_its_last_move_however_long_that_chattered(runtime):
    """The CircuitPython soak's failure of issue 33 (B5 holds 'D' where the game has 'L'): H4,
    one of two new disks, was lifted while the switches chattered 8 ms, the chatter then fell
    to 3 ms, and the players' model put B5 down 20 ms after the lift, timed by the new chatter.
    The board had not yet seen H4 leave, so the hand gave B5 dark's face; the board then saw
    it, played the other new disk for dark, and B5 for light. A hand's next move waits for the
    end of the last change's own chatter, then the debounce: the board has reported the lift."""
    for seed in range(6):
        table = Table(runtime=runtime, seed=seed)
        try:
            cell = table.layout.parse_cell("F4")
            table.place(cell)
            table.board.received()
            table.board.bounce_ms = 8
            table.lift(cell, 1)
            table.board.bounce_ms = 0
            table.note("ready for the next move")
            lifted = [m.get("cell") for m in table.board.received() if m.get("event") == "lifted"]
            assert lifted == ["F4"], (seed, lifted)
        finally:
            table.close()


@RUNTIMES
def test_a_disk_slid_on_while_flips_are_pending_lands_in_the_colour_it_waits_to_be_played_in(
        runtime):
    """The seeded fuzzer's hands, cut down: C2 captures D2 (a disk to turn), and a disk slides
    from D6 to D4 meanwhile. On E5, on the way, it is already the disk that waits its turn
    (dark's, until D2 is turned); it lands on D4 still dark's, and the board plays it for
    dark once D2 is turned. The players' model had counted the waiting disk as played and
    given the slid disk light's face."""
    table = Table(runtime=runtime)
    try:
        parse = table.layout.parse_cell

        def cells(*names):
            return [parse(n) for n in names]

        table.slide(cells("I8", "I9", "H9", "G9", "G8"), [250, 250, 15, 40], 15)
        table.slide(cells("D1", "E1", "E2"), [120, 250], 0)
        table.slide(cells("D1", "D2"), [40], 30)
        table.slide(cells("C3", "B2", "C2"), [250, 120], 0)
        assert table.state()["flips_pending"] == ["D2"]
        table.slide(cells("D6", "E6", "F6", "E5", "D4"), [120, 40, 40, 40], 30)
        assert table.board.disks[parse("D4")] == "D"
        table.calm()
        assert table.state()["moves"][-1] == "D4"
        assert table.ctl.game.cell(parse("D4")) == table.ctl.game.cell(parse("G8"))  # dark
    finally:
        table.close()
