"""Square boards: the unmodified firmware referees Othello on an 8x8 map and Io on a 7x7 one,
with simulated hands placing and turning disks and the LEDs read off the wire."""

import json
from pathlib import Path

import pytest

from gameboard import boardmap, palette
from gameboard.controller import Controller
from gameboard.layout import Layout
from host_sim.simboard import SimBoard
from iago import othello, search

ROOT = Path(__file__).resolve().parent.parent
SQUARE8 = ROOT / "hardware" / "boards" / "square8.json"
SQUARE7 = ROOT / "hardware" / "boards" / "square7.json"


def events(board, kind):
    return [m for m in board.received() if m.get("event") == kind]


def put_down_the_start(board):
    """The players set out the start position the LEDs ask for (the missing disks blink)."""
    game = board.app.controller.game
    state = board.command({"cmd": "state"})["state"]
    assert sorted(state["missing"]) == sorted(
        game.grid.cell_name(c) for c in range(game.grid.CELLS) if game.cell(c))
    for name in state["missing"]:
        cell = game.grid.parse_cell(name)
        board.place(name, "D" if game.cell(cell) == 1 else "L")
    assert board.app.controller.agrees()


def test_a_whole_physical_game_of_othello_on_the_8x8_map():
    with SimBoard(map_path=SQUARE8, seed=3) as board:
        board.advance(1200)
        assert board.app.controller.game.GAME == "othello"
        put_down_the_start(board)
        passes = 0
        placements = 0
        log = []
        while True:
            ctl = board.app.controller
            game = ctl.game
            if game.is_game_over():
                break
            # A player looks at the hinted squares: exactly the legal moves, in the mover's colour.
            hint = palette.HINT_DARK if game.turn == 1 else palette.HINT_LIGHT
            board.advance(30)
            assert sorted(c for c in range(64) if ctl._colours[c] == hint) == sorted(game.legal_moves)
            move = search.choose_move(game, 1, seed=game.ply())
            mover = game.turn
            board.place(game.grid.cell_name(move))
            log += board.received()
            placed = [m for m in log if m.get("event") == "move"][-1]
            assert placed["cell"] == game.grid.cell_name(move) and placed["released"] == []
            # Every outflanked disk blinks until turned; the hands turn them.
            assert sorted(placed["captured"]) == sorted(
                game.grid.cell_name(c) for c in ctl.flips_pending())
            for name in placed["captured"]:
                board.flip(name)
            board.advance(400)
            log += board.received()
            assert ctl.agrees() and ctl.flips_pending() == []
            placements += 1
            if ctl.game.turn == mover and not ctl.game.is_game_over():
                passes += 1
        board.advance(600)
        log += board.received()
        over = [m for m in log if m.get("event") == "game_over"]
        outcome = board.app.controller.game.outcome()
        assert over and over[-1]["dark"] == outcome.dark_score
        assert board.command({"cmd": "state"})["state"]["phase"] == "over"
        # Every disk on the board matches the game's colours.
        for cell, face in board.disks.items():
            assert face == "DL"[board.app.controller.game.cell(cell) - 1]
        assert placements == board.app.controller.game.ply() >= 30
        assert len([m for m in log if m.get("event") == "pass"]) == passes
        # The finished game is kept as an Othello record.
        games = board.command({"cmd": "games"})
        assert games["games"], games


def test_the_coin_decides_who_starts_and_a_pass_is_announced():
    firsts = set()
    for bit in (0, 1):
        ctl = Controller(layout=Layout("square", 8), coin=lambda: bit)
        firsts.add(ctl.game.turn)
    assert firsts == {1, 2}
    ctl = Controller(layout=Layout("square", 8), coin=lambda: 0)
    ctl.game = othello.Board("DL6/8/8/8/8/8/8/DL6 D")
    ctl._game_changed()
    ctl.tick(1000)
    for cell in range(64):
        if ctl.game.cell(cell):
            ctl.switch(cell, True, 1000)
    ctl.switch(othello.GRID.parse_cell("c8"), True, 1100)   # (rank 1 holds the settings)
    passed = [e for e in ctl.outbox if e["event"] == "pass"]
    assert passed == [{"event": "pass", "side": "light"}]


def test_settings_on_rank_1_before_the_first_placement():
    with SimBoard(map_path=SQUARE8) as board:
        board.advance(1200)
        hints = board.app.controller.settings.hints
        board.place("a1")               # the hints square
        board.advance(600)
        assert board.app.controller.settings.hints is (not hints)
        board.lift("a1")
        board.place("d1")               # the computer square: none -> dark
        board.advance(600)
        assert board.app.controller.settings.computer == "dark"


def test_io_opening_on_the_7x7_map():
    with SimBoard(map_path=SQUARE7) as board:
        board.advance(1200)
        ctl = board.app.controller
        assert ctl.game.GAME == "io" and ctl.game.rules.name() == "7x7"
        for name in ("d4", "e5", "b2", "a1"):       # white first, black bound + free, white bound
            assert name in [ctl.game.grid.cell_name(c) for c in ctl.game.legal_moves]
            board.place(name)
            board.advance(400)
        assert ctl.game.move_stack == [ctl.game.grid.parse_cell(n) for n in ("d4", "e5", "b2", "a1")]
        assert ctl.game.turn == 2 and ctl.game.phase == 2     # white's free stone next


def test_a_saved_othello_game_survives_a_power_cut(tmp_path):
    with SimBoard(map_path=SQUARE8, root=tmp_path) as board:
        board.advance(1200)
        put_down_the_start(board)
        game = board.app.controller.game
        move = sorted(game.legal_moves)[0]
        board.place(game.grid.cell_name(move))
        board.advance(500)
        text = board.app.controller.game.text()
        board.power_cut()
        board.power_on()
        board.advance(1200)
        assert board.app.controller.game.text() == text
        assert board.app.controller.game.GAME == "othello"


@pytest.mark.parametrize("edit,message", [
    (lambda d: d.update(geometry={"kind": "square", "size": 10}), "7, 8 or 9 squares a side"),
    (lambda d: d.update(geometry={"kind": "round"}), "geometry must be"),
    (lambda d: d["cells"].pop("h8"), "missing h8"),
    (lambda d: d["cells"].update(i9={"row": 0, "col": 0, "led": 0}), "unknown cell \"i9\""),
    (lambda d: d["cells"]["a1"].update(led=64), "LED 64 is out of range (0-63)"),
])
def test_broken_square_maps_are_refused(edit, message):
    data = json.loads(SQUARE8.read_text())
    edit(data)
    with pytest.raises(boardmap.BoardMapError, match=message.replace("(", r"\(").replace(")", r"\)")):
        boardmap.check(data)
