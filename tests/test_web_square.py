"""The page on a simulated square board: `iago serve --sim --map hardware/boards/square8.json`
runs the unmodified firmware refereeing Othello (square7.json and square9.json: Io 7x7 and 9x9)
on an 8x8 reed matrix,
and the page draws it as squares."""

import pytest

from iago import record
from test_web_api import ROOT, Server
from test_web_e2e import browser, keep, open_page  # noqa: F401  (the browser fixture)

SQUARE8 = str(ROOT / "hardware" / "boards" / "square8.json")
SQUARE7 = str(ROOT / "hardware" / "boards" / "square7.json")
SQUARE9 = str(ROOT / "hardware" / "boards" / "square9.json")


def playing(snap):
    return snap["state"] is not None and snap["state"]["phase"] == "play"


@pytest.fixture(scope="module")
def othello_board(tmp_path_factory):
    with Server("--sim", "--map", SQUARE8, games_dir=tmp_path_factory.mktemp("games")) as srv:
        srv.wait(playing, timeout=20, what="the light check")
        yield srv
        assert srv.alive()


def set_up_othello(server):
    """A new game with the four centre disks put down as the board asks."""
    server.post("clear")
    server.post("command", {"cmd": "new_game"})
    snap = server.wait(lambda s: playing(s) and s["state"]["moves"] == [] and
                       sorted(s["state"]["missing"]) == ["d4", "d5", "e4", "e5"],
                       what="a new game")
    for cell in snap["state"]["missing"]:
        server.post("place", {"cell": cell})
    return server.wait(lambda s: s["state"]["legal"], what="the centre disks")


def test_othello_on_the_square_board(othello_board):
    server = othello_board
    snap = set_up_othello(server)
    layout = snap["layout"]
    assert (layout["kind"], layout["size"], layout["game"], layout["title"]) == \
        ("square", 8, "othello", "Othello")
    assert layout["names"][:3] == ["a1", "b1", "c1"] and len(layout["names"]) == 64
    assert layout["side_names"] == {"dark": "black", "light": "white"}
    assert snap["areas"] is None and len(server.leds()) == 64 * 6
    state = snap["state"]
    assert snap["disks"] == {"d4": "L", "e4": "D", "d5": "D", "e5": "L"}
    first = state["turn"]          # the board tossed a coin
    assert sorted(state["legal"]) == ["c4", "d3", "e6", "f5"] if first == "dark" else \
        ["c5", "d6", "e3", "f4"]
    # Faces are colours here: no red side; a hex name is no square.
    reply = server.post("place", {"cell": "a1", "face": "d"}, expect=400)
    assert "D or L" in reply["error"]
    reply = server.post("place", {"cell": "I9"}, expect=400)
    assert "I9" in reply["error"]
    cell = state["legal"][0]
    server.post("place", {"cell": cell})
    snap = server.wait(lambda s: s["state"]["flips_pending"], what="the flips asked for")
    for flip in snap["state"]["flips_pending"]:
        reply = server.post("flip", {"cell": flip})
        assert reply["face"] == {"dark": "D", "light": "L"}[first]
    snap = server.wait(lambda s: s["state"]["legal"] and s["state"]["moves"] == [cell],
                       what="the placement played")
    assert snap["movers"] == [first] and snap["state"]["turn"] != first
    assert snap["state"]["scores"] == ([4, 1] if first == "dark" else [1, 4])
    status, text = server.get("/api/record")
    assert status == 200 and '[Game "Othello"]' in text
    game = record.parse(text)
    assert [game.board().grid.cell_name(c) for c in game.moves] == [cell]
    reply = server.post("replay/load", {"record": text}, expect=409)
    assert "table page" in reply["error"]


@pytest.mark.parametrize("board_map,size", [(SQUARE7, 7), (SQUARE9, 9)])
def test_io_on_the_square_board(tmp_path, board_map, size):
    with Server("--sim", "--map", board_map, games_dir=tmp_path) as server:
        snap = server.wait(playing, timeout=20, what="the light check")
        assert (snap["layout"]["size"], snap["layout"]["game"]) == (size, "io")
        assert len(snap["layout"]["names"]) == size * size
        assert snap["state"]["turn"] == "light" and len(snap["state"]["legal"]) == size * size
        server.post("place", {"cell": "d4"})
        snap = server.wait(lambda s: s["state"]["moves"] == ["d4"] and s["state"]["legal"],
                           what="White's first stone")
        assert snap["disks"] == {"d4": "L"} and snap["movers"] == ["light"]
        assert sorted(snap["state"]["legal"]) == ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]


def test_the_page_draws_the_square_board_and_plays_on_it(browser, othello_board,
                                                         tmp_path):
    server = othello_board
    server.post("clear")
    server.post("command", {"cmd": "new_game"})
    server.wait(lambda s: playing(s) and s["state"]["moves"] == [], what="a new game")
    context, page, errors = open_page(browser, server.url)
    page.wait_for_function("document.querySelector('#title').textContent === 'Othello board'")
    assert page.locator("#board g[data-cell]").count() == 64
    assert page.locator('#board g[data-cell="h8"]').count() == 1
    assert "Othello (simulated board)" in page.inner_text("#game-choice")
    page.check("#autoflip")
    for cell in ("d4", "e4", "d5", "e5"):          # the board says which face: a click puts it
        page.click('#board g[data-cell="%s"]' % cell)
    snap = server.wait(lambda s: s["state"]["legal"], what="the centre disks")
    assert page.get_attribute('#board g[data-cell="d4"]', "data-disk") == "L"
    first = snap["state"]["turn"]
    # The first placement by keyboard: focus its square, Enter.
    cell = snap["state"]["legal"][0]
    page.focus('#board g[data-cell="%s"]' % cell)
    page.keyboard.press("Enter")
    server.wait(lambda s: s["state"]["moves"] == [cell] and s["state"]["legal"] and
                not s["state"]["flips_pending"], what="the placement and its auto-flip")
    face = "D" if first == "dark" else "L"
    page.wait_for_function("Array.from(document.querySelectorAll('#board g[data-disk=\"%s\"]'))"
                           ".length === 4" % face)
    assert page.inner_text("#moves").strip().endswith(cell)
    keep(tmp_path, page, "square-othello")
    context.close()
    assert not errors, errors


def test_a_real_square_board_on_a_serial_port_is_drawn_as_squares(tmp_path):
    """A real board over USB (here the simulated 8x8 board's serial port on a pty): the host
    follows the game the board reports, with no --map, and draws its squares, disks and LEDs."""
    import re

    from test_web_api import _close_leds
    with Server("--sim", "--pty", "--map", SQUARE8, games_dir=tmp_path / "sim") as board:
        set_up_othello(board)
        found = re.search(r"USB serial port is (\S+)", board.banner())
        assert found, board.banner()
        with Server("--port", found.group(1), games_dir=tmp_path / "host") as host:
            snap = host.wait(lambda s: s["connected"] and s["state"] and s["state"]["legal"]
                             and s["layout"]["kind"] == "square", what="the serial link")
            assert (snap["layout"]["size"], snap["layout"]["game"]) == (8, "othello")
            assert snap["disks"] == {"d4": "L", "e4": "D", "d5": "D", "e5": "L"}
            cell = snap["state"]["legal"][0]
            board.post("place", {"cell": cell})
            snap = host.wait(lambda s: s["state"]["moves"] == [cell] and
                             s["state"]["flips_pending"], what="the flips")
            first = snap["movers"][0]
            assert snap["disks"][cell] == {"dark": "D", "light": "L"}[first]
            for flip in snap["state"]["flips_pending"]:    # shown as still to turn: the
                assert snap["disks"][flip] == {"dark": "L", "light": "D"}[first]  # old face
            leds = host.leds()
            assert len(leds) == 64 * 6 and _close_leds(leds, board.leds(), 64)
            _, reply = host.get("/api/state")
            assert any("hardware/boards/square8.json" in line["text"]
                       for line in reply["console"])
            status, text = host.get("/api/record")
            kept = record.parse(text)
            assert status == 200 and kept.header("Game") == "Othello"
            assert kept.header("Site").startswith("Othello board (")
        assert board.alive()


def test_derived_leds_match_the_simulated_square_boards():
    from host_sim.simboard import SimBoard
    from host_sim.web.ledview import derived_leds, inferred_disks, layout_of
    for path, cells in ((SQUARE8, ("d4", "e5", "d5", "e4")), (SQUARE9, ("e5", "d4"))):
        with SimBoard(map_path=path, seed=1) as board:
            board.advance(1200)
            layout = board.layout
            for name in cells:          # Othello's start as set out, then Io's stones
                board.place(name, {1: "D", 2: "L"}.get(
                    board.controller.game.cell(layout.parse_cell(name))))
            if layout.game == "othello":     # a placement whose flips wait: they blink
                board.place(sorted(board.controller.game.legal_moves)[0], rest_ms=100)
                assert board.controller.flips_pending()
            for _ in range(5):
                board.advance(97)
                state = board.controller.state()
                assert layout_of(state).cells == layout.cells
                faces = {layout.cell_name(c): f for c, f in board.disks.items()}
                assert inferred_disks(state) == faces
                assert derived_leds(state, board.boardmap, board.app.last_frame) == \
                    [tuple(c) for c in board.circuit.led_colours()]


def test_a_broken_map_for_a_real_board_is_one_clear_line(tmp_path):
    import subprocess
    import sys
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    proc = subprocess.run([sys.executable, "-m", "host_sim.cli", "serve", "--port",
                           str(tmp_path / "tty"), "--map", str(bad), "--http-port", "0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == "iago serve: %s: board map: missing entry \"format\"" % bad
