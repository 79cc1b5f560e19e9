"""The board playing a side for its host (docs/protocol.md, `remote` and `play`): the remote
player's move lit as the computer's is and played only where it was sent, every refusal of
`play`, the local player's moves out as `move` events, no take-back but by the host, and the
setting lost at a restart (the host sets it again). Both runtimes, the firmware unmodified."""

import pytest

import iago
from gameboard import palette
from host_sim.simboard import ROOT, SimBoard

C = iago.parse_cell
RUNTIMES = ["micropython", "circuitpython"]


def events(board, name):
    return [m for m in board.received() if m.get("event") == name]


def wire(board, index):
    return tuple(board.app.leds.level(v) for v in palette.rgb(palette.STANDARD, index))


def remote_board(tmp_path, runtime, side="light"):
    board = SimBoard(root=tmp_path, runtime=runtime)
    board.advance(1200)
    reply = board.command({"cmd": "settings", "settings": {"remote": side}})
    assert reply["ok"] and reply["settings"]["remote"] == side
    board.received()
    return board


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_remote_move_is_lit_as_the_computers_and_played_only_there(tmp_path, runtime):
    with remote_board(tmp_path, runtime) as board:
        board.place("D4")
        moves = events(board, "move")
        assert [(m["cell"], m["side"]) for m in moves] == [("D4", "dark")]   # the local move
        assert board.command({"cmd": "suggest"})["ok"] is False   # the remote player's turn
        reply = board.command({"cmd": "play", "move": "F6"})
        assert reply["ok"], reply
        lit = events(board, "remote_move")
        assert [(m["cell"], m["side"]) for m in lit] == [("F6", "light")]
        colours = set()
        for _ in range(20):
            board.advance(50)
            colours.add(board.led(C("F6")))
        assert wire(board, palette.LIGHT) in colours          # its hex blinks in light's colour
        other = next(c for c in board.controller.game.legal_moves if c != C("F6"))
        board.place(other, "L")                  # anywhere else is not the remote player's move
        assert board.controller.game.ply() == 1
        board.lift(other)
        board.place("F6", "L")
        assert board.controller.game.move_stack == [C("D4"), C("F6")]
        assert [m["cell"] for m in events(board, "move")] == ["F6"]
        assert board.controller.referee.chosen == 255           # lit no more once played


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_play_is_refused_with_a_reason_and_changes_nothing(tmp_path, runtime):
    with SimBoard(root=tmp_path, runtime=runtime) as board:
        board.advance(1200)
        no_side = board.command({"cmd": "play", "move": "E4"})
        assert not no_side["ok"] and "no side is remote" in no_side["error"]
        board.command({"cmd": "settings", "settings": {"remote": "light"}})
        cases = [
            ({"cmd": "play", "move": "E4"}, "it is dark's turn: the remote player plays light"),
            ({"cmd": "play"}, "missing field"),
            ({"cmd": "play", "move": 5}, "cell name"),
            ({"cmd": "play", "move": "E4", "side": "light"}, 'play takes "move", not "side"'),
        ]
        for msg, why in cases:
            reply = board.command(msg)
            assert not reply["ok"] and why in reply["error"], (msg, reply)
        board.place("D4")
        for msg, why in [({"cmd": "play", "move": "Z9"}, "Z9"),
                         ({"cmd": "play", "move": "E5"}, "not a legal placement for light"),
                         ({"cmd": "play", "move": "D4"}, "not a legal placement")]:
            reply = board.command(msg)
            assert not reply["ok"] and why in reply["error"], (msg, reply)
        assert board.controller.referee.chosen == 255           # nothing lit by a refusal
        assert board.command({"cmd": "play", "move": "F6"})["ok"]
        assert board.command({"cmd": "play", "move": "F6"})["ok"]   # sent again: the same
        again = board.command({"cmd": "play", "move": "D5"})
        assert not again["ok"] and "F6 is lit already" in again["error"]
        same = board.command({"cmd": "settings", "settings": {"computer": "light"}})
        assert not same["ok"] and "cannot both play light" in same["error"]


def test_no_take_back_by_hand_in_a_remote_game_only_by_the_host(tmp_path):
    with remote_board(tmp_path, "micropython") as board:
        board.place("D4")
        board.lift("D4")
        board.advance(2500)                  # held off: a take-back in a game at one table
        assert board.controller.game.ply() == 1 and not events(board, "take_back")
        board.place("D4", "D")
        reply = board.command({"cmd": "take_back"})
        assert reply["ok"] and [m["why"] for m in events(board, "take_back")] == ["command"]
        assert board.controller.game.ply() == 0


def test_settings_hexes_and_the_demo_are_off_in_a_remote_game(tmp_path):
    """A setting stepped at one board would part the two boards' games."""
    with remote_board(tmp_path, "micropython", side="dark") as board:
        board.place("A1", rest_ms=1000)      # the rules' hex, before the first placement
        assert board.controller.settings.rules == "standard"
        assert not events(board, "settings")
        board.lift("A1")
        board.place("E5", rest_ms=2500)      # held on the centre: the demo at one table
        board.lift("E5")
        board.advance(1000)
        assert not events(board, "demo")


def test_the_remote_side_is_not_saved_a_restart_plays_both_sides(tmp_path):
    with remote_board(tmp_path, "micropython") as board:
        board.place("D4")
        board.advance(500)
        board.power_cut()
        board.power_on()
        board.advance(1500)
        state = board.command({"cmd": "state"})["state"]
        assert state["moves"] == ["D4"] and state["settings"]["remote"] == "none"


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_new_game_takes_who_places_first_on_a_coin_toss_game(tmp_path, runtime):
    othello = str(ROOT / "hardware" / "boards" / "square8.json")
    with SimBoard(root=tmp_path, runtime=runtime, map_path=othello) as board:
        board.advance(1200)
        for first in ("light", "dark", "light"):
            reply = board.command({"cmd": "new_game", "first": first})
            assert reply["ok"] and reply["state"]["turn"] == first, reply
        bad = board.command({"cmd": "new_game", "first": "red"})
        assert not bad["ok"] and "first is" in bad["error"]
    with SimBoard(root=tmp_path / "hex", runtime=runtime) as board:
        board.advance(1200)
        reply = board.command({"cmd": "new_game", "first": "light"})
        assert not reply["ok"] and "no coin toss" in reply["error"]
