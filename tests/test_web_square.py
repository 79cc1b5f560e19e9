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


def test_the_page_draws_the_square_board_and_plays_on_it(browser, othello_board,  # noqa: F811
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
