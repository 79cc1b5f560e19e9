"""The other games in the page: the table's API (/api/table/...) for Othello, Io 7x7 and 9x9
and the number line, served by `iago serve` in a child process, and the page in Chromium."""

import json
import time

import pytest

from iago import games, iogame, numberline, othello, record
from test_web_api import Events, Server, random_game
from test_web_e2e import browser, keep, open_page  # noqa: F401  (the browser fixture)

# (game, rules, the start's position text, grid kind, size, cells)
GAMES = [
    ("othello", "standard", othello.STARTING_TEXT, "square", 8, 64),
    ("io", "7x7", "7/7/7/7/7/7/7 L first", "square", 7, 49),
    ("io", "9x9", iogame.STARTING_TEXT, "square", 9, 81),
    ("numberline", "standard", numberline.STARTING_TEXT, "line", 10, 10),
]
IDS = ["othello", "io7", "io9", "numberline"]
# Othello from the start with a pass: after white's c1 black has no placement, white goes on.
PASS_GAME = ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with Server("--sim", games_dir=tmp_path_factory.mktemp("games")) as server:
        yield server
        assert server.alive()


@pytest.fixture
def table(served):
    served.post("table/computer", {"side": "none", "level": 2})
    served.post("table/new", {"game": "othello"})
    return served


def snap(server):
    status, reply = server.get("/api/table/state")
    assert status == 200
    return reply["snapshot"]


def wait(server, predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while True:
        s = snap(server)
        if predicate(s):
            return s
        assert time.monotonic() < deadline, json.dumps(s)[:1500]
        time.sleep(0.05)


def settled(s):
    """Nobody is thinking and it is a person's turn (or the game is over)."""
    return not s["thinking"] and (s["outcome"] or s["computer"] != s["turn"])


def place_first_legal(server, count):
    for _ in range(count):
        server.post("table/place", {"cell": snap(server)["legal"][0]})


# --- every game --------------------------------------------------------------------------------

@pytest.mark.parametrize("game, rules, start, kind, size, cells", GAMES, ids=IDS)
def test_each_game_new_place_refuse_and_take_back(table, game, rules, start, kind, size, cells):
    table.post("table/new", {"game": game, "rules": rules})
    s = snap(table)
    assert (s["game"], s["rules"], s["position"]) == (game, rules, start)
    assert s["grid"]["kind"] == kind and s["grid"]["size"] == size
    assert s["grid"]["cells"] == cells == len(s["grid"]["names"]) == len(s["cells"])
    assert s["choice"] == (game + ":" + rules if game == "io" else game)
    assert s["moves"] == [] and s["outcome"] is None and s["legal"]
    first = s["turn"]
    cell = s["legal"][0]
    reply = table.post("table/place", {"cell": cell})
    assert reply["ok"] and reply["position"] != start
    s = snap(table)
    assert s["moves"] == [cell] and s["last"] == cell and s["history"][0]["cell"] == cell
    assert s["history"][0]["side"] == first and sum(s["scores"]) >= 1
    taken = s["grid"]["names"].index(cell)
    assert s["cells"][taken] == (1 if first == "dark" else 2)
    # A cell that is not legal now: 409 naming it and the legal ones; a name that is no cell: 400.
    illegal = next(n for n in s["grid"]["names"] if n not in s["legal"])
    reply = table.post("table/place", {"cell": illegal}, expect=409)
    assert reply["ok"] is False and illegal in reply["error"] and "legal: " in reply["error"]
    reply = table.post("table/place", {"cell": "z99"}, expect=400)
    assert "z99" in reply["error"]
    table.post("table/place", {"cell": 5}, expect=400)
    assert snap(table)["moves"] == [cell]
    table.post("table/take-back")
    s = snap(table)
    assert s["moves"] == [] and s["position"] == start and s["turn"] == first
    reply = table.post("table/take-back", expect=409)
    assert "nothing to take back" in reply["error"]


@pytest.mark.parametrize("game, rules", [g[:2] for g in GAMES], ids=IDS)
def test_each_game_against_the_computer(table, game, rules):
    table.post("table/new", {"game": game, "rules": rules})
    person = snap(table)["turn"]
    place_first_legal(table, 1)
    other = snap(table)["turn"]
    table.post("table/computer", {"side": other, "level": 1})
    s = wait(table, lambda s: settled(s) and len(s["moves"]) >= 2)
    assert s["history"][1]["side"] == other and s["history"][-1]["side"] == other
    assert s["turn"] == person and s["legal"]
    reply = table.post("table/place", {"cell": s["legal"][0]})
    assert reply["ok"]
    # Take back goes back to the person's turn: before the computer's reply and theirs.
    s = wait(table, settled)
    table.post("table/take-back")
    s = wait(table, settled)
    assert s["turn"] == person and s["history"][-1]["side"] == other


@pytest.mark.parametrize("game, rules", [g[:2] for g in GAMES], ids=IDS)
def test_each_game_record_save_and_load(table, game, rules):
    table.post("table/new", {"game": game, "rules": rules})
    place_first_legal(table, 4)
    played = snap(table)
    status, text = table.get("/api/table/record")
    assert status == 200
    parsed = record.parse(text)
    module = games.module(game)
    assert parsed.header("Game") == module.TITLE and parsed.rules().name() == rules
    assert [module.Board.grid_for(parsed.rules()).cell_name(c) for c in parsed.moves] == \
        played["moves"]
    other = "numberline" if game != "numberline" else "othello"
    table.post("table/new", {"game": other})
    reply = table.post("table/load", {"record": text})
    assert reply["moves"] == 4
    s = snap(table)
    assert (s["game"], s["rules"], s["moves"], s["position"]) == \
        (game, rules, played["moves"], played["position"])


def test_bad_requests_get_a_4xx_with_a_message_and_change_nothing(table):
    table.post("table/place", {"cell": "d3"})
    before = snap(table)["position"]
    bad = [
        ("table/new", {"game": "chess"}, 400, "unknown game 'chess'"),
        ("table/new", {"game": "iago"}, 400, "simulated board"),
        ("table/new", {"game": 7}, 400, "must be a string"),
        ("table/new", {"game": "io", "rules": "8x8"}, 400, "'8x8'"),
        ("table/new", {"game": "numberline", "rules": "holes=31"}, 400, "'31'"),
        ("table/new", {"game": "numberline", "call": "heads"}, 400, "coin toss"),
        ("table/new", {"game": "othello", "call": "edge"}, 400, "heads or tails"),
        ("table/place", {}, 400, "missing field 'cell'"),
        ("table/computer", {"level": 9}, 400, "level must be 1-5"),
        ("table/computer", {"side": "blue"}, 400, "none, dark or light"),
        ("table/computer", {"level": "5"}, 400, "whole number"),
        ("table/demo", {"on": "yes"}, 400, "true or false"),
        ("table/load", {"record": "[Game \"Othello\"]\n\n1. a1 *\n"}, 400, "a1 is not a legal"),
        ("table/load", {"record": random_game(1)}, 400, "Iago record"),
        ("table/load", {}, 400, "missing field 'record'"),
        ("table/launch", {}, 404, "unknown table action 'launch'"),
    ]
    for action, body, status, fragment in bad:
        reply = table.post(action, body, expect=status)
        assert reply["ok"] is False and fragment in reply["error"], (action, body, reply)
    status, reply = table.request("POST", "/api/table/place", b"[1]")
    assert status == 400 and "object" in reply["error"]
    s = snap(table)
    assert s["position"] == before and s["game"] == "othello" and s["computer"] == "none"


# --- each game's own points --------------------------------------------------------------------

def test_othello_flips_at_once_and_announces_a_pass(table):
    table.post("table/place", {"cell": "d3"})
    s = snap(table)
    assert s["flipped"] == ["d4"] and s["turn"] == "light" and s["scores"] == [4, 1]
    assert s["history"] == [{"cell": "d3", "side": "dark", "flips": 1, "pass": False}]
    for cell in PASS_GAME[1:]:
        table.post("table/place", {"cell": cell})
    s = snap(table)
    assert s["turn"] == "light" and s["history"][-1]["pass"] is True
    assert s["message"] == "Black (dark) cannot place and passes."
    table.post("table/place", {"cell": s["legal"][0]})
    assert snap(table)["message"] == ""


def test_the_coin_toss_decides_who_starts(table):
    other = {"dark": "light", "light": "dark"}
    for computer, caller in (("none", "dark"), ("dark", "light")):
        table.post("table/computer", {"side": computer, "level": 1})
        seen = set()
        for _ in range(40):
            reply = table.post("table/new", {"game": "othello", "call": "heads"})
            coin = reply["coin"]
            first = caller if coin["shows"] == "heads" else other[caller]
            assert coin == {"caller": caller, "call": "heads", "shows": coin["shows"],
                            "first": first}
            s = wait(table, settled)
            assert s["coin"] == coin
            assert (s["history"][0]["side"] if s["history"] else s["turn"]) == first
            seen.add(coin["shows"])
            if len(seen) == 2:
                break
        assert seen == {"heads", "tails"}
    table.post("table/computer", {"side": "none"})
    reply = table.post("table/new", {"game": "othello", "call": "Tails"})   # as DOS wrote it
    s = snap(table)
    assert s["message"] == "Black (dark) called tails, the coin shows %s: %s places first." % (
        reply["coin"]["shows"], "black (dark)" if reply["coin"]["shows"] == "tails" else
        "white (light)")


def test_io_shows_the_phase_and_the_bound_stone(table):
    table.post("table/new", {"game": "io", "rules": "7x7"})
    s = snap(table)
    assert (s["phase"], s["turn"], len(s["legal"])) == ("first", "light", 49)
    table.post("table/place", {"cell": "d4"})
    s = snap(table)
    assert (s["phase"], s["turn"], s["bound_to"]) == ("bound", "dark", "d4")
    assert s["legal"] == ["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]
    table.post("table/place", {"cell": "c3"})
    s = snap(table)
    assert (s["phase"], s["turn"], s["bound_to"]) == ("free", "dark", None)
    assert "a1" not in s["legal"] and "b2" not in s["legal"] and "a5" in s["legal"]
    table.post("table/place", {"cell": "a5"})
    s = snap(table)
    assert (s["phase"], s["turn"], s["bound_to"]) == ("bound", "light", "a5")
    assert [h["side"] for h in s["history"]] == ["light", "dark", "dark"]


def test_number_line_capture_and_options(table):
    table.post("table/new", {"game": "numberline"})
    for cell in ("25", "27", "28", "23"):     # a dime on 23 takes the penny on 25 (the rule text)
        table.post("table/place", {"cell": cell})
    s = snap(table)
    assert s["flipped"] == ["25"] and s["scores"] == [1, 3]
    assert s["side_names"] == {"dark": "pennies", "light": "dimes"}
    table.post("table/new", {"game": "numberline", "rules": "ties-to-2+holes=22,26"})
    s = snap(table)
    assert s["rules"] == "ties-to-2+holes=22,26" and s["cells"][2] == s["cells"][6] == 8
    assert "22" not in s["legal"] and "26" not in s["legal"] and len(s["legal"]) == 8
    reply = table.post("table/place", {"cell": "22"}, expect=409)
    assert "22" in reply["error"]


def test_suggest_and_the_demo(table):
    table.post("table/suggest")
    s = wait(table, lambda s: s["suggestion"] is not None)
    assert s["suggestion"] in s["legal"] and s["moves"] == []
    table.post("table/place", {"cell": s["suggestion"]})
    assert snap(table)["suggestion"] is None
    table.post("table/new", {"game": "numberline"})
    table.post("table/demo", {"on": True})
    s = wait(table, lambda s: len(s["moves"]) >= 2)
    assert s["demo"]
    table.post("table/suggest", expect=409)
    table.post("table/place", {"cell": s["legal"][0]})
    s = snap(table)
    assert not s["demo"]
    time.sleep(1.2)
    assert snap(table)["moves"] == s["moves"]      # the demo stopped for good


def test_the_computer_gives_up_a_stale_search(table):
    """A new game while the computer thinks: the search of the old game never plays."""
    table.post("table/new", {"game": "io", "rules": "9x9"})
    table.post("table/computer", {"side": "light", "level": 5})
    table.post("table/new", {"game": "numberline"})
    table.post("table/computer", {"side": "none"})
    time.sleep(0.5)
    s = wait(table, lambda s: not s["thinking"])
    assert s["game"] == "numberline" and s["moves"] == []


def test_two_pages_see_the_same_game(table):
    pages = [Events(table, "/api/table/events"), Events(table, "/api/table/events")]
    try:
        for page in pages:
            page.wait_for(lambda name, data: name == "viewers" and data >= 2)
        table.post("table/place", {"cell": "d3"})
        table.post("table/place", {"cell": "c5"})
        for page in pages:
            page.wait_for(lambda n, d: n == "state" and d["moves"] == ["d3", "c5"])
    finally:
        for page in pages:
            page.close()


# --- the page in Chromium ----------------------------------------------------------------------

def test_the_page_plays_othello_and_a_number_line_capture(browser, served, tmp_path):
    served.post("table/computer", {"side": "none"})
    served.post("table/new", {"game": "numberline"})
    context, page, errors = open_page(browser, served.url, 1200, 800)
    page.on("dialog", lambda dialog: dialog.accept())   # yes, leave each game for the next
    page.select_option("#game-choice", "othello")       # the Iago page's chooser
    page.wait_for_url("**/table?game=othello")
    page.wait_for_selector('#board [data-cell="d3"] .legal')
    assert page.inner_text("#title") == "Othello" and page.inner_text("#moves") == ""
    page.click('#board [data-cell="d3"]')
    page.wait_for_selector('#board [data-cell="d4"] .disk.dark.flipped')
    assert page.inner_text("#score-dark") == "4" and page.inner_text("#score-light") == "1"
    assert "Light (white) to place" in page.inner_text("#turn")
    # White answers by keyboard: from d3 two cells up to d5, one left to c5, Enter.
    for key in ("ArrowUp", "ArrowUp", "ArrowLeft", "Enter"):
        page.keyboard.press(key)
    page.wait_for_selector('#board [data-cell="c5"] .disk.light')
    page.wait_for_selector('#board [data-cell="d5"] .disk.light.flipped')
    assert page.locator("#moves li").count() == 2
    # An illegal click is refused with the reason.
    page.click('#board [data-cell="a1"]')
    page.wait_for_function("document.querySelector('#notice').textContent.includes('a1')")
    keep(tmp_path, page, "othello")
    page.select_option("#game", "numberline")
    page.wait_for_selector('#board [data-cell="29"]')
    page.wait_for_function("document.querySelector('#title').textContent === 'Number line'")
    for cell in ("21", "25", "27", "28"):      # pennies 21 27, dimes 25 28 ...
        page.click('#board [data-cell="%s"]' % cell)
        page.wait_for_selector('#board [data-cell="%s"] .disk' % cell)
    page.click('#board [data-cell="29"]')      # ... a penny on 29 takes 25 and 28
    page.wait_for_selector('#board [data-cell="28"] .disk.dark.flipped')
    page.wait_for_selector('#board [data-cell="25"] .disk.dark.flipped')
    assert page.inner_text("#score-dark") == "5" and page.inner_text("#score-light") == "0"
    keep(tmp_path, page, "numberline")
    # The options: a black hole drawn dark, chosen in the page.
    page.fill("#holes", "22")
    page.press("#holes", "Enter")
    page.wait_for_selector('#board [data-cell="22"] .hole')
    assert snap(served)["rules"] == "holes=22"
    # Io 7x7: the phase and the stone the next placement is bound to.
    page.select_option("#game", "io:7x7")
    page.wait_for_selector('#board [data-cell="g7"]')
    page.click('#board [data-cell="d4"]')
    page.wait_for_selector('#board [data-cell="d4"] .anchor')
    assert "bound" in page.inner_text("#phase") and "d4" in page.inner_text("#phase")
    keep(tmp_path, page, "io")
    context.close()
    assert not errors, errors


def test_the_heading_is_a_sentence_and_the_move_list_fills_the_panel(browser, served):
    """Issue: the Othello page's heading read "dark (black) to place", and its move list was
    a small scroll box with empty space below it."""
    served.post("table/computer", {"side": "none"})
    served.post("table/new", {"game": "othello"})
    place_first_legal(served, 30)
    context, page, errors = open_page(browser, served.url + "table?game=othello", 1360, 900)
    page.wait_for_function("document.querySelectorAll('#moves li').length === 30")
    assert page.inner_text("#turn")[0].isupper(), page.inner_text("#turn")
    panel = page.locator("#panel").bounding_box()
    moves = page.locator("#moves").bounding_box()
    # The list reaches the panel's foot (its padding), taller than the old box of 11 rem.
    assert panel["y"] + panel["height"] - (moves["y"] + moves["height"]) < 32, (panel, moves)
    rem = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert moves["height"] > 11 * rem + 50, (moves, rem)
    context.close()
    assert not errors, errors
