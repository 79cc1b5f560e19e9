"""What the hands tell a board with no host (docs/board.md, "Gestures"), on the simulated board
with the firmware unmodified, under both runtimes: a new game in the middle of a game."""

import pytest

from gameboard import palette
from host_sim.simboard import SimBoard

RUNTIMES = pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])


@pytest.fixture
def board(request):
    with SimBoard(runtime=request.param) as b:
        b.advance(1200)
        for name in ("E4", "E6", "E2"):
            b.place(name)
        b.received()
        yield b


def both(test):
    return pytest.mark.parametrize("board", ["micropython", "circuitpython"],
                                   indirect=True)(test)


def state(board):
    return board.command({"cmd": "state"})["state"]


def colours(board, name, ms=600, step=20):
    seen = set()
    for _ in range(ms // step):
        board.advance(step)
        seen.add(board.led(name))
    return seen


def wire(board, index):
    return tuple(board.app.leds.level(v) for v in palette.rgb(palette.STANDARD, index))


def clear(board):
    for name in sorted(board.disks):
        board.lift(name, 30)


@both
def test_a_cleared_board_asks_for_a_new_game_and_a_disk_held_on_the_centre_confirms(board):
    """Clearing a game's board only took back its last placement and then asked for the other
    disks back: the only way to a new game without a host was taking back every move."""
    clear(board)
    board.advance(2100)
    assert state(board)["moves"] == ["E4", "E6", "E2"]        # nothing taken back
    green = wire(board, palette.SETTING_ON)
    assert colours(board, "E5") == {green, (0, 0, 0)}        # new game? E5 blinks green
    board.place("E5", "D", rest_ms=1000)
    assert state(board)["moves"] == ["E4", "E6", "E2"]
    board.advance(1100)
    assert colours(board, "E5", 400) == {green}              # held 2 s: steady
    board.lift("E5")
    after = state(board)
    assert after["moves"] == [] and after["phase"] == "play" and not after["extra"]
    new = [m for m in board.received() if m.get("event") == "new_game"]
    assert [m["why"] for m in new] == ["cleared"]
    board.advance(3000)
    assert not board.mode.shares_board                       # the disk started no demo
    board.place("E4")
    assert state(board)["moves"] == ["E4"]


@both
def test_putting_a_disk_back_cancels_and_the_game_goes_on(board):
    clear(board)
    board.advance(2500)
    assert board.controller.asking
    board.place("E6", "L")                                    # a disk put back: play on
    assert not board.controller.asking
    assert wire(board, palette.SETTING_ON) not in colours(board, "E5")
    board.place("E4", "D")
    board.place("E2", "D")
    after = state(board)
    assert after["moves"] == ["E4", "E6", "E2"] and after["legal"] and not after["missing"]


@both
def test_a_disk_knocked_off_never_starts_a_new_game(board):
    """Only a disk held 2 s on the centre of a board that asked, and lifted, confirms."""
    clear(board)
    board.advance(10000)
    assert state(board)["moves"] == ["E4", "E6", "E2"]
    board.place("E5", "D", rest_ms=1500)                     # lifted too soon
    board.lift("E5")
    board.advance(3000)
    assert state(board)["moves"] == ["E4", "E6", "E2"]
    board.place("D4", "D", rest_ms=2500)                     # not on the centre
    board.lift("D4")
    assert state(board)["moves"] == ["E4", "E6", "E2"]
    board.place("E5", "D", rest_ms=2500)                     # too soon: the board had not asked
    board.lift("E5")
    assert state(board)["moves"] == ["E4", "E6", "E2"]
    board.advance(2100)
    assert board.controller.asking
    board.place("E5", "D", rest_ms=2500)                     # the centre, once the board asks
    board.place("E4", "D", rest_ms=100)                      # but a disk put back meanwhile
    board.lift("E5")
    assert state(board)["moves"] == ["E4", "E6", "E2"]


@both
def test_holding_the_last_disk_off_takes_back_only_when_it_is_the_only_disk_off(board):
    board.lift("E4", 50)                                     # knocked off
    board.lift("E2", 1600)                                   # the last one, held off
    assert state(board)["moves"] == ["E4", "E6", "E2"]
    board.place("E4", "D")
    board.place("E2", "D")
    board.lift("E2", 1600)                                   # alone: a take-back
    assert state(board)["moves"] == ["E4", "E6"]


@RUNTIMES
def test_a_restored_game_on_an_empty_board_asks_for_a_new_game(runtime, tmp_path):
    """A board switched on with a saved game and no disk on it: the game, or a new one."""
    with SimBoard(root=tmp_path, runtime=runtime) as board:
        board.advance(1200)
        for name in ("E4", "E6"):
            board.place(name)
        board.power_cut()
        board.disks.clear()
        board.power_on()
        board.advance(1200 + 2100)
        assert board.controller.asking and state(board)["moves"] == ["E4", "E6"]
        board.place("E5", "D", rest_ms=2100)
        board.lift("E5")
        assert state(board)["moves"] == []
