"""Square boards: the unmodified firmware referees Othello on an 8x8 map and Io on 9x9 and 7x7
maps, with simulated hands that act on what the LEDs show: they set out Othello's start where
disks are asked for, place, turn every disk that alternates between its two colours, and clear
the board at the end."""

import json
import random
from pathlib import Path

import pytest

from gameboard import archive, boardmap, palette
from gameboard.controller import Controller, _coin
from gameboard.referee import SETTLE_MS
from gameboard.layout import Layout
from host_sim.simboard import SimBoard
from iago import othello, record

ROOT = Path(__file__).resolve().parent.parent
SQUARE8 = ROOT / "hardware" / "boards" / "square8.json"
SQUARE9 = ROOT / "hardware" / "boards" / "square9.json"
SQUARE7 = ROOT / "hardware" / "boards" / "square7.json"
DISK = {palette.DARK: "D", palette.LIGHT: "L"}
HINT = {1: palette.HINT_DARK, 2: palette.HINT_LIGHT}
DISK_COLOUR = {1: palette.DARK, 2: palette.LIGHT}


def looks(board):
    """What each square shows over one slow blink (400 ms on, 400 off): {square: the
    colours seen, in turn}, from sixteen looks at the LEDs' colours 50 ms apart."""
    ctl = board.app.controller
    seen = [[] for _ in range(ctl.n)]
    for i in range(16):
        if i:
            board.advance(50)
        for c in range(ctl.n):
            seen[c].append(ctl.view.colours[c])
    return dict(enumerate(seen))


def asked_for(seen):
    """Squares blinking slowly in a disk's colour and dark (each seen 0.3 s on end; the turn
    corners' flashes last 0.1 s): put a disk there with that face up."""
    out = {}
    for c, colours in seen.items():
        others = set(colours) - {palette.OFF}
        if palette.OFF in colours and len(others) == 1 and others <= set(DISK):
            colour = others.pop()
            if any(colours[i:i + 6] == [colour] * 6 for i in range(len(colours))):
                out[c] = DISK[colour]
    return out


def turn_these(seen):
    """Squares alternating between the two disk colours: turn those disks."""
    return sorted(c for c, colours in seen.items() if set(colours) == {palette.DARK,
                                                                         palette.LIGHT})


def glowing(board, colour):
    return sorted(c for c in range(board.app.controller.n)
                  if board.app.controller.view.colours[c] == colour)


def events(log, kind):
    return [m for m in log if m.get("event") == kind]


def test_a_whole_physical_game_of_othello_on_the_8x8_map():
    board = SimBoard(map_path=SQUARE8, seed=0)        # the sim's coin: light places first
    with board:
        board.advance(1200)
        log = board.received()
        ctl = board.app.controller
        game = ctl.game
        grid = game.grid
        name = grid.cell_name
        assert game.GAME == "othello" and board.command({"cmd": "version"})["game"] == "othello"
        (startup,) = events(log, "startup")
        assert startup["first"] == "light" and game.turn == 2
        corners = [grid.parse_cell(n) for n in ("h1", "a8", "h8")]   # a1 shows a setting now
        # The coin toss shows on the corners (in flashes of light's colour); no hints until
        # the start is set out.
        board.advance(1500 - board.clock.us // 1000 % 1500 + 50)
        assert glowing(board, palette.HINT_LIGHT) == []
        assert [ctl.view.colours[c] for c in corners] == [palette.LIGHT] * 3

        # Setting out the start: four disks blink, each in the colour it must show.
        asked = asked_for(looks(board))
        assert {name(c): f for c, f in asked.items()} == {"d4": "L", "e5": "L", "d5": "D",
                                                          "e4": "D"}
        assert sorted(name(c) for c in ctl.referee.differences()[1]) == ["d4", "d5", "e4", "e5"]
        for cell, face in asked.items():
            board.place(cell, face)
        assert ctl.referee.agrees()
        board.advance(1500 - board.clock.us // 1000 % 1500 + 40)   # the corners' flash
        assert glowing(board, palette.HINT_LIGHT) == sorted(game.legal_moves)
        assert [ctl.view.colours[c] for c in corners] == [palette.LIGHT] * 3

        rng = random.Random(13)
        passes = 0
        while not game.is_game_over():
            mover = game.turn
            board.advance(1500 - board.clock.us // 1000 % 1500 + 40)   # the corners' flash
            # The legal moves glow in the mover's colour; the other empty corners flash its
            # disk colour.
            empty_corners = {c for c in (0, 7, 56, 63) if not game.cell(c)}
            if not game.ply():
                empty_corners.discard(0)        # a1 shows its setting until the first placement
            assert set(glowing(board, HINT[mover])) == set(game.legal_moves)
            assert {ctl.view.colours[c] for c in empty_corners - set(game.legal_moves)} <= {
                DISK_COLOUR[mover]}
            move = rng.choice(sorted(game.legal_moves))
            board.place(move)
            log = board.received()
            (placed,) = events(log, "move")
            assert placed["cell"] == name(move) and placed["side"] == ("dark", "light")[mover - 1]
            # The hand turns every disk that alternates between dark and light, and only those.
            flips = turn_these(looks(board))
            assert [name(c) for c in flips] == sorted(placed["captured"], key=grid.parse_cell)
            assert flips and placed["released"] == []
            for cell in flips:
                board.flip(cell)
            board.advance(400)
            log += board.received()
            assert ctl.referee.agrees() and ctl.flips_pending() == []
            if game.is_game_over():
                break
            if game.turn == mover:
                passes += 1
                assert events(log, "pass") == [{"v": 2, "event": "pass",
                                                "side": ("light", "dark")[mover - 1]}]
            else:
                assert events(log, "pass") == []
        board.advance(100)
        log += board.received()
        outcome = game.outcome()
        (over,) = events(log, "game_over")
        assert (over["winner"], over["dark"], over["light"]) == ("dark", 46, 18)
        assert passes == 2 and game.ply() == 60
        assert board.command({"cmd": "state"})["state"]["phase"] == "over"
        # The result on the LEDs (docs/board.md, "The score at the end"): the winner's disks
        # turn green, then each side's count of disks, a digit at a time, in its colour.
        result = ctl.view.result
        times = [t & 0x7F for t in result[3:3 + result[0]]]
        starts = [sum(times[:k]) for k in range(len(times))]

        def reach(tenth):                       # a tenth of a second into the display
            now = (board.app.clock.ticks_ms() - ctl.referee.phase_since) & 0x3FFFFFFF
            board.advance((tenth * 100 + 50 - now) % (result[2] * 100))

        reach(starts[0] + 5)
        dark = [c for c in range(64) if game.cell(c) == 1]
        assert all(ctl.view.colours[c] == palette.WIN for c in dark) and outcome.winner == 1
        screen = 1
        for side, count, colour in ((1, 46, palette.DARK), (2, 18, palette.LIGHT)):
            for d in str(count):
                reach(starts[screen] + 3)       # inside the digit's 0.7 s
                drawn = archive.draw(ctl.layout, int(d), 2)
                if side == 2:
                    drawn = drawn[::-1]         # upright for light's player
                assert [c for c in range(64) if ctl.view.colours[c] == colour] == [
                    c for c in range(64) if drawn[c] == 1]
                screen += 1
        assert screen == len(times)
        for cell, face in board.disks.items():
            assert face == "DL"[game.cell(cell) - 1]
        # The finished game is kept as an Othello record that replays to the same end.
        (saved,) = events(log, "saved_game")
        text = board.command({"cmd": "game", "game": saved["game"]})["record"]
        kept = record.parse(text)
        assert kept.header("Game") == "Othello" and kept.board().text() == game.text()
        # Clearing the board starts a new game with a new coin toss.
        board.clear()
        board.advance(100)
        (new,) = events(board.received(), "new_game")
        assert new["why"] == "cleared" and new["first"] in ("dark", "light")
        assert board.app.controller.game.ply() == 0


def test_the_coin_decides_who_places_first_and_the_corners_show_it():
    for bit, side, colour in ((0, 1, palette.DARK), (1, 2, palette.LIGHT)):
        ctl = Controller(layout=Layout("square", 8), coin=lambda bit=bit: bit)
        assert ctl.game.turn == side
        ctl.tick(1000)
        ctl.compose(1500)                   # the corners' flash
        assert [e["first"] for e in ctl.outbox if e["event"] == "startup"] == [
            ("dark", "light")[side - 1]]
        assert [ctl.view.colours[c] for c in (7, 56, 63)] == [colour] * 3
        ctl.new_game(1100)
        assert ctl.outbox[-1]["event"] == "new_game" and "first" in ctl.outbox[-1]
    assert {_coin() for _ in range(64)} == {0, 1}          # the system's random bits
    firsts = set()
    for seed in range(4):
        with SimBoard(map_path=SQUARE8, seed=seed) as board:
            firsts.add(board.app.controller.game.turn)
    assert firsts == {1, 2}


def othello_set_out(text):
    """A controller of an 8x8 board whose game is at `text`, every disk of it on the board,
    after dark places on c8 (not on rank 1, which holds the settings before a placement)."""
    ctl = Controller(layout=Layout("square", 8), coin=lambda: 0)
    ctl.restore(othello.Board(text), [])
    ctl.tick(1000)
    for cell in range(64):
        if ctl.game.cell(cell):
            ctl.switch(cell, True, 1000)
    ctl.switch(othello.GRID.parse_cell("c8"), True, 1100)
    ctl.tick(1100 + SETTLE_MS)
    return ctl


def test_a_pass_is_announced_and_the_same_side_places_again():
    ctl = othello_set_out("DL6/8/8/8/8/8/8/DL6 D")
    assert [e for e in ctl.outbox if e["event"] == "pass"] == [{"event": "pass", "side": "light"}]
    assert ctl.game.turn == 1


def test_othello_ends_when_neither_side_can_place_before_the_board_is_full():
    ctl = othello_set_out("DL6/8/8/8/8/8/8/8 D")
    ctl.tick(1400)
    ctl.switch(othello.GRID.parse_cell("b8"), False, 1500)    # the flip: lift, turn, put back
    ctl.switch(othello.GRID.parse_cell("b8"), True, 1800)
    ctl.tick(1900)
    over = [e for e in ctl.outbox if e["event"] == "game_over"]
    assert over == [{"event": "game_over", "winner": "dark", "dark": 3, "light": 0,
                     "tie_break": None}]
    assert ctl.game.ply() == 1


def test_settings_on_rank_1_and_the_demo_square_before_the_first_placement():
    with SimBoard(map_path=SQUARE8) as board:
        board.advance(1200)
        ctl = board.app.controller
        hints = ctl.settings.hints
        board.place("a1")               # the hints square
        board.advance(600)
        assert ctl.settings.hints is (not hints)
        board.lift("a1")
        board.place("d1")               # the computer square: none -> dark
        board.advance(600)
        assert ctl.settings.computer == "dark"
        board.lift("d1")
        board.command({"cmd": "settings", "settings": {"computer": "none"}})
        board.received()
        board.place("g1", rest_ms=100)  # the demo square: no placement, no red blink
        assert ctl.view.colours[6] == palette.OFF and ctl.referee.differences()[0] == []
        board.advance(2000)
        board.lift("g1")
        board.advance(100)
        assert any(m.get("event") == "demo" and m["running"] for m in board.received())


def test_an_io_opening_on_the_9x9_map():
    with SimBoard(map_path=SQUARE9) as board:
        board.advance(1200)
        ctl = board.app.controller
        game = ctl.game
        grid = game.grid
        assert game.GAME == "io" and game.rules.name() == "9x9" and ctl.n == 81
        assert board.command({"cmd": "version"})["game"] == "io"
        corners = {0, 8, 72, 80}
        # White places first; every square glows but rank 1's settings squares.
        board.advance(40)
        assert set(glowing(board, palette.HINT_LIGHT)) == set(range(9, 81)) | {5, 6, 8}
        # White's stone, then each side a bound stone (next to the opponent's last) and a free
        # one (no stone around it): the same side places twice, as the board's turn says.
        sides = []
        for name in ("e5", "d4", "h8", "g7", "b2", "c3", "g2", "f3"):
            cell = grid.parse_cell(name)
            mover = game.turn
            board.advance(1500 - board.clock.us // 1000 % 1500 + 40)   # the corners' pulse
            hinted = set(glowing(board, HINT[mover]))
            reserved = {0, 1, 2, 3, 4, 7} if not game.ply() else set()   # settings, demo
            assert hinted - corners == set(game.legal_moves) - corners - reserved
            assert cell in hinted
            board.place(name)
            board.advance(100)
            sides.append(mover)
            assert game.peek() == cell and ctl.referee.agrees()
        assert sides == [2, 1, 1, 2, 2, 1, 1, 2]
        assert game.turn == 2 and game.text().endswith("free")
        # A stone where the rules allow none (not free: next to a stone) blinks red fast and
        # is not played; lifted, the game goes on.
        board.place("e6")
        assert game.ply() == 8 and grid.cell_name(ctl.referee.differences()[0][0]) == "e6"
        shown = set()
        for _ in range(8):
            board.advance(30)
            shown.add(ctl.view.colours[grid.parse_cell("e6")])
        assert shown == {palette.ERROR, palette.OFF}
        board.lift("e6")
        assert ctl.referee.agrees()


def test_the_computers_first_io_stone_may_fall_on_a_settings_square():
    """White's first stone goes anywhere in Io; a person's disk on a1-e1 before the first
    placement steps a setting, but the square the computer chose takes its stone."""
    ctl = Controller(layout=Layout("square", 9))
    ctl.tick(1000)
    ctl.referee.chosen = 0            # as if the computer, playing White, chose a1
    ctl.switch(0, True, 1100)
    ctl.tick(1500)
    assert ctl.game.move_stack == [0] and ctl.settings.hints is True


def test_an_io_opening_on_the_7x7_map():
    with SimBoard(map_path=SQUARE7) as board:
        board.advance(1200)
        ctl = board.app.controller
        assert ctl.game.GAME == "io" and ctl.game.rules.name() == "7x7"
        for name in ("d4", "e5", "b2", "a1"):       # white first, black bound + free, white bound
            assert name in [ctl.game.grid.cell_name(c) for c in ctl.game.legal_moves]
            board.place(name)
            board.advance(400)
        played = [ctl.game.grid.parse_cell(n) for n in ("d4", "e5", "b2", "a1")]
        assert ctl.game.move_stack == played
        assert ctl.game.turn == 2 and ctl.game.phase == 2     # white's free stone next


def test_a_saved_othello_game_survives_a_power_cut(tmp_path):
    with SimBoard(map_path=SQUARE8, root=tmp_path, seed=1) as board:
        board.advance(1200)
        for cell, face in asked_for(looks(board)).items():
            board.place(cell, face)
        game = board.app.controller.game
        first = game.turn
        move = sorted(game.legal_moves)[0]
        board.place(game.grid.cell_name(move))
        board.advance(500)
        text = board.app.controller.game.text()
        saved = (tmp_path / "game.sav").read_text().split("|")
        assert saved[1] == "othello" and saved[3].endswith("DL"[first - 1])
        board.power_cut()
        board.power_on()
        board.advance(1200)
        assert board.app.controller.game.GAME == "othello"
        assert board.app.controller.game.text() == text


def test_a_saved_game_of_another_board_is_set_aside(tmp_path):
    with SimBoard(map_path=SQUARE8, root=tmp_path) as board:
        board.advance(1200)
        board.command({"cmd": "new_game"})
        board.advance(200)
    with SimBoard(map_path=SQUARE9, root=tmp_path) as board:
        board.advance(1200)
        (problem,) = events(board.received(), "save_error")
        assert "a game of othello, and this board plays io" in problem["error"]
        assert board.app.controller.game.GAME == "io"


def _edit_cells(data, pairs):
    for name, entry in pairs.items():
        data["cells"][name] = entry


@pytest.mark.parametrize("path,edit,message", [
    (SQUARE8, lambda d: d.update(geometry={"kind": "square", "size": 10}),
     "7, 8 or 9 squares a side"),
    (SQUARE8, lambda d: d.update(geometry={"kind": "square", "size": 9}), "missing i1"),
    (SQUARE8, lambda d: d.update(geometry={"kind": "round"}), "geometry must be"),
    (SQUARE8, lambda d: d.update(geometry={"kind": "square"}), "geometry must be"),
    (SQUARE8, lambda d: d["cells"].pop("h8"), "missing h8"),
    (SQUARE8, lambda d: d["cells"].update(i9={"row": 0, "col": 0, "led": 0}),
     "unknown cell \"i9\""),
    (SQUARE8, lambda d: d["cells"].update(H8=d["cells"].pop("h8")), "unknown cell \"H8\""),
    (SQUARE8, lambda d: d["cells"]["a1"].update(led=64), "LED 64 is out of range (0-63)"),
    (SQUARE8, lambda d: d["cells"]["b1"].update(led=0), "a1 and b1 both use LED 0"),
    (SQUARE9, lambda d: d["cells"]["i9"].update(row=9, col=7),
     "i8 and i9 both use the crossing of row 9 and col 7"),
    (SQUARE9, lambda d: d["rows"].pop(), "i9: row 10 is not a position in rows (0-9)"),
    (SQUARE9, lambda d: d["cols"].append(19), "cols must be a list of 1-8"),
    (SQUARE9, lambda d: d["rows"].extend(range(19, 23)) or d["rows"].extend((26, 27)),
     "rows must be a list of 1-16"),
    (SQUARE9, lambda d: d.update(current_budget_ma=81), "does not cover the LEDs' idle draw"),
    (SQUARE7, lambda d: d["cells"].update(h8={"row": 0, "col": 0, "led": 0}),
     "unknown cell \"h8\" (cells are a1-g7)"),
])
def test_broken_square_maps_are_refused(path, edit, message):
    data = json.loads(path.read_text())
    edit(data)
    with pytest.raises(boardmap.BoardMapError) as caught:
        boardmap.check(data)
    assert message in str(caught.value)


def test_the_square_maps_are_good_and_use_every_crossing_once():
    for path, size, lines in ((SQUARE7, 7, 8), (SQUARE8, 8, 8), (SQUARE9, 9, 11)):
        bmap = boardmap.load(str(path))
        assert (bmap.geometry, bmap.size, bmap.cells, bmap.lines) == ("square", size, size * size,
                                                                      lines)
        assert sorted(bmap.led_of_cell) == list(range(size * size))
        used = [x for x in bmap.cell_of_crossing if x != boardmap.NO_CELL]
        assert sorted(used) == list(range(size * size))


@pytest.mark.parametrize("size,nodes,step", [(7, 520, 8), (8, 180, 3), (9, 340, 6)])
def test_the_computer_keeps_to_the_square_boards_caps(monkeypatch, size, nodes, step):
    """A Pico searches Othello and Io far slower than Iago: level 5 is capped so a move takes
    at most 2 s there, in slices of about 30 ms (docs/engine.md, "On the board")."""
    from gameboard.settings import Settings
    from iago import games
    asked = []
    real = games.search

    def spy(board, level, seed=0, nodes=None):
        search = real(board, level, seed=seed, nodes=nodes)
        step_of = search.step
        asked.append([nodes])

        def step(max_nodes):
            asked[-1].append(max_nodes)
            return step_of(max_nodes)

        search.step = step
        return search

    monkeypatch.setattr(games, "search", spy)
    ctl = Controller(Settings(computer="light", level=5), 0, Layout("square", size),
                     coin=lambda: 1)
    for cell in range(ctl.n):
        if ctl.game.cell(cell):
            ctl.switch(cell, True, 0)
    now = 1000
    while ctl.referee.chosen == 255 and now < 100000:
        ctl.tick(now)
        now += 10
    moves = [e for e in ctl.outbox if e["event"] == "computer_move"]
    assert moves and moves[0]["side"] == "light"
    assert ctl.layout.parse_cell(moves[0]["cell"]) in ctl.game.legal_moves
    (search,) = asked
    assert search[0] == nodes and set(search[1:]) == {step}
    assert len(search) - 1 >= nodes // step     # the whole budget, slice by slice


def test_a_square_boards_demo_state_names_its_game_and_a_host_paints_it():
    """The demo's state had no "game": a host read a square board's demo as Iago's."""
    from host_sim.web import ledview
    with SimBoard(map_path=SQUARE8) as board:
        board.advance(1200)
        assert board.command({"cmd": "demo"})["ok"]
        board.advance(3000)
        state = board.command({"cmd": "state"})["state"]
        assert state["phase"] == "demo" and state["game"] == "othello"
        colours = ledview.derived_leds(state, board.boardmap, 5000)
        assert len(colours) == 64 and sum(1 for c in colours if sum(c)) >= 4
