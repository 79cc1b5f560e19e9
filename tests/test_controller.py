"""The board controller on its own: debounced switch events and a fake clock, no hardware."""

import random

import pytest

import iago
from gameboard import palette
from gameboard.controller import Controller
from gameboard.referee import OVER, PLAY, SETTLE_MS, STARTUP_MS, TAKEBACK_HOLD_MS
from gameboard.settings import Settings

C = iago.parse_cell


class Table:
    """Players at the board: they move disks; the controller sees debounced switch events."""

    def __init__(self, settings=None):
        self.now = 0
        self.ctl = Controller(settings, now=0)
        self.advance(STARTUP_MS + 10)
        self.events = []

    def advance(self, ms, step=5):
        end = self.now + ms
        while self.now < end:
            self.now = min(end, self.now + step)
            self.ctl.tick(self.now)
        self.drain()

    def drain(self):
        if hasattr(self, "events"):
            self.events.extend(self.ctl.outbox)
        self.ctl.outbox.clear()

    def place(self, name, rest=SETTLE_MS + 20):
        self.ctl.switch(C(name), True, self.now)
        self.drain()
        self.advance(rest)

    def lift(self, name, hold=50):
        self.ctl.switch(C(name), False, self.now)
        self.drain()
        self.advance(hold)

    def put_back(self, name, rest=50):
        self.place(name, rest)

    def flip(self, name):
        self.lift(name, 200)
        self.put_back(name, 100)

    def do_flips(self):
        for c in self.ctl.flips_pending():
            self.flip(iago.cell_name(c))

    def kinds(self):
        return [e["event"] for e in self.events]

    def colour(self, name, now=None):
        self.ctl.compose(self.now if now is None else now)
        i = C(name) * 3
        return tuple(self.ctl.frame[i:i + 3])


def pal(index):
    return palette.rgb(palette.STANDARD, index)


def test_startup_light_check_then_play():
    table = Table.__new__(Table)
    table.now = 0
    table.ctl = Controller(now=0)
    table.ctl.compose(10)
    assert table.ctl.frame[0] == 60 and table.ctl.frame[2] == 0   # red first
    table.ctl.compose(STARTUP_MS - 10)
    assert table.ctl.frame[2] == 60                                # blue last
    table.events = []
    table.advance(STARTUP_MS + 10)
    assert table.ctl.referee.phase == PLAY
    assert table.kinds() == ["startup"]


def test_legal_placement_is_played_and_lights_at_once():
    table = Table()
    table.ctl.switch(C("E4"), True, table.now)
    assert table.ctl.game.move_stack == [C("E4")]           # played at once ...
    assert table.ctl.referee.tentative == C("E4")                   # ... but not yet settled
    assert table.colour("E4") == pal(palette.DARK)
    table.advance(SETTLE_MS - 10)
    assert "tentative" in table.kinds() and "move" not in table.kinds()   # not yet a move
    table.advance(20)
    assert table.ctl.referee.tentative == 255
    assert table.ctl.save_due
    assert table.kinds()[-1] == "move"


def test_sliding_disk_never_plays_a_move():
    table = Table()
    # A disk slid from E4 across E3 to D2: each switch closes briefly as it passes.
    for name in ("E4", "E3"):
        table.ctl.switch(C(name), True, table.now)
        table.advance(60)
        table.ctl.switch(C(name), False, table.now)
        table.advance(20)
    assert table.ctl.game.ply() == 0
    assert not table.ctl.save_due
    table.place("D2")
    assert table.ctl.game.move_stack == [C("D2")]


def test_illegal_placement_blinks_error_until_lifted():
    table = Table()
    table.place("E5")                                        # the centre is not legal at first
    assert table.ctl.game.ply() == 0
    colours = {table.colour("E5", t) for t in range(0, 500, 60)}
    assert pal(palette.ERROR) in colours and pal(palette.OFF) in colours
    table.lift("E5")
    assert table.colour("E5") != pal(palette.ERROR)


def capture_table():
    """Loose rules, dark D4 and light D5 on the board: dark on D6 would capture D5."""
    table = Table(Settings(rules="loose"))
    for name in ("D4", "D5"):
        table.place(name)
    return table


def test_capture_blinks_until_each_flip_is_done_then_turn_passes():
    table = capture_table()
    table.place("D6")
    assert table.ctl.flips_pending() == [C("D5")]
    # "turn this to red": alternates between its current face and the captive's red
    shades = {table.colour("D5", t) for t in range(0, 1000, 100)}
    assert shades == {pal(palette.LIGHT), pal(palette.LIGHT_CAPTIVE)}
    table.place("E2")                                        # not accepted while flips pend
    assert table.ctl.game.ply() == 3
    table.lift("E2")
    table.flip("D5")
    assert table.ctl.flips_pending() == []
    assert "flips_done" in table.kinds()
    assert table.colour("D5") == pal(palette.LIGHT_CAPTIVE)
    table.place("E2")
    assert table.ctl.game.ply() == 4


def test_lifting_the_placed_disk_while_flips_pend_takes_the_move_back():
    table = capture_table()
    table.place("D6")
    table.lift("D6")
    assert table.ctl.game.ply() == 2
    assert table.ctl.flips_pending() == []
    assert table.ctl.referee.agrees()


def test_take_back_after_some_flips_guides_undoing_them():
    table = Table(Settings(rules="loose"))
    # Dark D3 and D7 around light D4 D5 D6? Build: dark D3, light D4, dark E1, light D5,
    # dark E2, light D6 -> dark D7 captures D4 D5 D6.
    for name in ("D3", "D4", "E3", "D5", "E2", "D6"):
        table.place(name)
        table.do_flips()
    table.place("D7")
    assert sorted(table.ctl.flips_pending()) == [C("D4"), C("D5"), C("D6")]
    table.flip("D4")
    table.lift("D7")                                         # take the move back
    assert table.ctl.game.ply() == 6
    assert table.ctl.flips_pending() == [C("D4")]            # turn D4 back
    assert table.events[-1]["flips_to_undo"] == ["D4"]
    table.flip("D4")
    assert table.ctl.referee.agrees()


def test_lifted_disk_blinks_in_its_expected_state_and_blocks_play():
    table = Table()
    table.place("E4")
    table.place("E6")
    table.lift("E4")
    shades = {table.colour("E4", t) for t in range(0, 1000, 100)}
    assert shades == {pal(palette.DARK), pal(palette.OFF)}
    table.place("D2")
    assert table.ctl.game.ply() == 2                         # the board disagrees: no play
    table.put_back("E4")
    assert table.ctl.game.ply() == 3                         # D2 is taken once it agrees


def test_holding_the_last_disk_off_takes_back_moves_one_by_one():
    table = Table()
    for name in ("E4", "E6", "D2"):
        table.place(name)
    table.lift("D2", hold=TAKEBACK_HOLD_MS + 50)
    assert table.ctl.game.ply() == 2
    table.lift("E6", hold=TAKEBACK_HOLD_MS + 50)
    assert table.ctl.game.ply() == 1
    assert table.ctl.referee.agrees()
    take_backs = [e for e in table.events if e["event"] == "take_back"]
    assert [e["cell"] for e in take_backs] == ["D2", "E6"]


def test_a_whole_game_played_physically_ends_with_the_result_and_clearing_starts_anew():
    rng = random.Random(7)
    table = Table(Settings(rules="standard"))
    while table.ctl.referee.phase == PLAY:
        moves = list(table.ctl.game.legal_moves)
        table.place(iago.cell_name(rng.choice(moves)))
        table.do_flips()
        table.advance(20)
    assert table.ctl.referee.phase == OVER
    outcome = table.ctl.game.outcome()
    over = [e for e in table.events if e["event"] == "game_over"][0]
    assert over["winner"] == iago.side_name(outcome.winner)
    assert table.ctl.finished is not None
    for c in range(61):
        if table.ctl.referee.present[c]:
            table.ctl.switch(c, False, table.now)
    table.advance(20)
    assert table.ctl.referee.phase == PLAY and table.ctl.game.ply() == 0


def test_penalty_claim_by_tapping_the_missed_disk():
    table = Table(Settings(rules="standard", penalty=True))
    for name in ("D4", "D5"):                                # dark D4, light D5
        table.place(name)
    # dark can capture D5 on D6 but plays B2: a miss
    table.place("B2")
    assert any(e["event"] == "miss" for e in table.events)
    table.lift("B2", hold=100)
    table.put_back("B2")
    assert table.ctl.game.has_free_placement()
    table.place("A1")                                        # anywhere, outer ring included
    assert table.ctl.game.peek() == C("A1")


def test_settings_on_the_empty_board():
    table = Table()
    table.place("A3", rest=500)                              # hints off
    assert table.ctl.settings.hints is False
    table.lift("A3")
    table.place("A1", rest=500)                              # rules -> loose
    table.lift("A1")
    assert table.ctl.game.rules.name() == "loose"
    assert table.ctl.save_due
    table.place("A2", rest=500)                              # penalty refused with loose
    assert table.ctl.settings.penalty is False
    table.place("E4")                                        # play starts with A2 still on
    assert table.ctl.game.ply() == 1


@pytest.mark.parametrize("palette_index", [0, 1])
def test_captive_shows_its_hidden_colour_steadily(palette_index):
    table = Table(Settings(rules="loose", palette=palette_index))
    for name in ("D4", "D5", "D6"):
        table.place(name)
    table.do_flips()
    pal_ = palette.PALETTES[palette_index]
    assert table.colour("D5", 1000) == palette.rgb(pal_, palette.LIGHT_CAPTIVE)
    assert table.colour("D5", 4100) == palette.rgb(pal_, palette.LIGHT_CAPTIVE)   # no reveal
    assert palette.rgb(pal_, palette.DARK_CAPTIVE) != palette.rgb(pal_, palette.LIGHT_CAPTIVE)


def test_a_corner_that_is_not_a_legal_move_only_pulses_and_a_legal_move_glows_steadily():
    """Issues: empty corners glowed exactly like legal moves, so players placed on them; then
    they pulsed 250 ms in the legal moves' glow, which a glance still took for one. Now two
    flashes of the mover's disk colour every 1.5 s, none as long as a glance (0.2 s)."""
    table = Table()
    table.advance(STARTUP_MS + 10)
    start = table.now
    samples = [start + t for t in range(0, 3000, 25)]
    corner = [table.colour("E1", t) for t in samples]
    legal = [table.colour("E4", t) == pal(palette.HINT_DARK) for t in samples]
    assert all(legal)
    assert set(corner) == {pal(palette.DARK), pal(palette.OFF)}     # never the legal glow
    lit = "".join("#" if c == pal(palette.DARK) else "." for c in corner)
    assert lit.count("#") * 25 == 2 * 2 * 100                    # 2 x 2 flashes of 100 ms
    assert "#" * 8 not in lit                                    # none lasts 200 ms
    assert lit.count(".#") + lit.startswith("#") == 4


def test_nothing_glows_as_a_legal_move_while_a_disk_is_missing():
    """Issue: with a disk missing, `legal` listed moves and hints glowed that the board then
    refused (docs/protocol.md: `legal` is empty while anything is pending)."""
    table = Table()
    table.advance(STARTUP_MS + 10)
    table.place("E4")
    table.place("E6")
    table.lift("E4")
    assert table.ctl.state()["legal"] == [] and table.ctl.state()["missing"] == ["E4"]
    assert table.colour("D5") == pal(palette.OFF)           # legal for dark, not shown now
    table.put_back("E4")
    assert "D5" in table.ctl.state()["legal"]
    assert table.colour("D5") == pal(palette.HINT_DARK)


def test_a_disk_put_down_before_the_flips_are_done_waits_and_then_plays():
    """docs/board.md: an early disk on a legal hex is shown waiting, not as an error, and is
    played the moment the flips are done."""
    table = Table()
    table.advance(STARTUP_MS + 10)
    for name in ("E4", "E6", "D5", "C4"):
        table.place(name)
    assert table.ctl.state()["flips_pending"] == ["D5"]
    table.place("C3")                                       # dark's next disk, early
    state = table.ctl.state()
    assert state["waiting"] == "C3" and state["extra"] == [] and state["moves"][-1] == "C4"
    assert {table.colour("C3", t) for t in range(table.now, table.now + 800, 50)} == {
        pal(palette.DARK), pal(palette.OFF)}              # the mover's colour, blinking
    table.flip("D5")
    state = table.ctl.state()
    assert state["moves"][-1] == "C3" and state["waiting"] is None
