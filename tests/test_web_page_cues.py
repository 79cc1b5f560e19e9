"""The page's cues and safeguards in Chromium, at a desktop's size and a phone's (390 x 844):
a server gone or stuck is shown, switch bounce leaves no switch stuck, a draw on the table, no
game thrown away without asking, the table's game kept in the address, the last placement and
the computer's choice marked, a reason for an illegal placement, captives' hidden colour
without hovering, a phone-sized page, and notices that belong to the present (docs/web.md).

Chromium must be installed, as for tests/test_web_e2e.py.
"""

import re
import signal
import subprocess
import threading
import time

import pytest

from gameboard import palette
from host_sim.web.api import ApiError
from test_web_api import Server, ready
from test_web_e2e import browser, expect_text, face_shows, hexagon, keep, wire  # noqa: F401
from test_web_e2e import TIMEOUT_MS

SIZES = {"desktop": (1360, 900), "phone": (390, 844)}
# The number line ending in a draw, 5-5 (docs/rules.md, "Other games of the family").
DRAW = ["27", "29", "28", "23", "25", "26", "21", "20", "24", "22"]


@pytest.fixture(params=sorted(SIZES))
def size(request):
    return request.param


@pytest.fixture
def server(tmp_path):
    with Server("--sim", games_dir=tmp_path / "games") as srv:
        srv.wait(ready, what="the light check")
        yield srv


@pytest.fixture
def opened(browser, size):
    """open(url) -> a page at this size (a phone: touch, no mouse to hover); throws nothing."""
    contexts, pages = [], []

    def open_(url):
        width, height = SIZES[size]
        phone = size == "phone"
        context = browser.new_context(viewport={"width": width, "height": height},
                                      has_touch=phone, is_mobile=phone)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.goto(url)
        contexts.append(context)
        pages.append(page)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not [e for p in pages for e in p.errors], "the page threw"


def status(page):
    return page.locator("#status").inner_text()


def click(page, cell):
    hexagon(page, cell).click()


def cell_on_table(page, cell):
    page.click('#board [data-cell="%s"]' % cell)


def moves(server):
    return server.state()["moves"]


# --- defect 1: a server gone or stuck -------------------------------------------------------

def test_a_page_says_offline_within_seconds_when_its_server_is_gone(opened, server):
    page = opened(server.url)
    expect_text(page, "#turn", "Dark to move")
    server.proc.kill()
    server.proc.wait()
    page.wait_for_function("document.querySelector('#turn').textContent === 'Offline'",
                           timeout=6000)
    assert "cannot be reached" in status(page)
    assert page.locator("#link").inner_text() == "offline"
    assert "stale" in page.locator("body").get_attribute("class")


def test_a_page_says_not_responding_when_its_server_is_stuck(opened, server):
    board = opened(server.url)
    table = opened(server.url + "table")
    expect_text(board, "#turn", "Dark to move")
    expect_text(table, "#turn", "to place")
    server.proc.send_signal(signal.SIGSTOP)        # the process holds its connections, silent
    try:
        for page in (board, table):
            page.wait_for_function(
                "document.querySelector('#turn').textContent === 'Not responding'", timeout=9000)
            assert "not responding" in status(page)
    finally:
        server.proc.send_signal(signal.SIGCONT)
    expect_text(board, "#turn", "Dark to move")
    expect_text(board, "#link", "live")
    expect_text(table, "#turn", "to place")


@pytest.fixture
def in_process(tmp_path):
    """The server in this process, so a fault can be injected into its simulator's thread."""
    from host_sim.web.hub import Hub
    from host_sim.web.server import App
    from host_sim.web.simdriver import SimDriver
    hub = Hub()
    app = App(SimDriver(hub, flash_dir=str(tmp_path / "flash"), seed=0), hub, port=0).start()
    yield app
    app.close()


def test_a_fault_and_a_stuck_simulator_are_shown_on_the_page(opened, in_process, monkeypatch):
    from host_sim.web import simdriver
    sim = in_process.driver
    page = opened(in_process.url)
    expect_text(page, "#turn", "Dark to move")
    own = sim._autoflip

    def boom():
        sim._autoflip = own
        raise RuntimeError("injected")

    sim._autoflip = boom                         # once: the board restarts into its game
    expect_text(page, "#notice", "The simulator failed (RuntimeError: injected")
    expect_text(page, "#notice", "restarted into its saved game")
    expect_text(page, "#turn", "Dark to move")
    later = opened(in_process.url)               # old news to a page opened after it
    expect_text(later, "#turn", "Dark to move")
    later.wait_for_timeout(1500)
    assert later.locator("#notice").inner_text() == ""

    monkeypatch.setattr(simdriver, "STUCK_S", 0.5)

    def hang():                                  # a turn of the sim thread that takes 4 s
        with pytest.raises(ApiError):            # its caller is told so (503)
            sim.call(lambda body: time.sleep(4))

    hung = threading.Thread(target=hang, daemon=True)
    hung.start()
    page.wait_for_function("document.querySelector('#turn').textContent === 'Not responding'",
                           timeout=3500)
    assert "simulated board is not responding" in status(page)
    expect_text(page, "#turn", "Dark to move")
    hung.join(5)


# --- defect 2: switch bounce ------------------------------------------------------------------

def test_a_lift_after_bounce_is_switched_off_is_seen(opened, server):
    page = opened(server.url)
    expect_text(page, "#turn", "Dark to move")
    # Chatter scheduled past a bounce window once left the switch forced (about 70% of
    # changes): three rounds make a pass by chance unlikely.
    for _round in range(3):
        page.select_option("#bounce", "20")
        server.wait(lambda s: s["sim"]["bounce_ms"] == 20)
        click(page, "E4")                    # placed, then put back in later rounds
        expect_text(page, "#status", "Light to move")
        page.select_option("#bounce", "0")
        server.wait(lambda s: s["sim"]["bounce_ms"] == 0)
        click(page, "E4")                    # lifted: the board must see it
        expect_text(page, "#status", "Put back the disk on E4")


# --- defect 3: a draw on the table ------------------------------------------------------------

def test_a_draw_on_the_table_says_so(opened, server):
    server.post("table/new", {"game": "othello"})
    page = opened(server.url + "table?game=numberline")
    page.wait_for_function("document.querySelector('#title').textContent === 'Number line'")
    for cell in DRAW:
        cell_on_table(page, cell)
        page.wait_for_selector('#board [data-cell="%s"] .disk' % cell)
    expect_text(page, "#turn", "A draw 5-5")
    assert server.get("/api/table/state")[1]["snapshot"]["outcome"]["winner"] == "draw"
    assert "undefined" not in page.inner_text("#turn")


# --- defect 4: no game lost without a word ----------------------------------------------------

def test_new_game_and_load_record_ask_before_discarding_a_game(opened, server, tmp_path):
    page = opened(server.url)
    expect_text(page, "#turn", "Dark to move")
    click(page, "E4")
    expect_text(page, "#turn", "Light to move")
    asked = []

    def answer(accept):
        def handle(dialog):
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()
        page.once("dialog", handle)

    answer(False)
    page.locator("#new-game").click()
    page.wait_for_timeout(500)
    assert asked and "1 placement" in asked[-1] and moves(server) == ["E4"]
    record = tmp_path / "opening.iago"
    record.write_text("1. D4 D5 *\n")
    answer(False)
    page.locator("#load").set_input_files(str(record))
    page.wait_for_timeout(500)
    assert len(asked) == 2 and "opening.iago" in asked[-1]
    assert server.snapshot()["replay"] is None and moves(server) == ["E4"]
    answer(True)
    page.locator("#new-game").click()
    server.wait(lambda s: s["state"]["moves"] == [] and not s["disks"], what="the new game")
    # With no placement made there is nothing to lose: no question.
    page.locator("#load").set_input_files(str(record))
    expect_text(page, "#replay-pos", "0 / 2")
    assert len(asked) == 3


def test_the_table_keeps_its_game_in_the_address_and_asks_before_discarding_it(opened, server):
    server.post("table/new", {"game": "othello"})
    page = opened(server.url + "table?game=io:7x7")
    page.wait_for_selector('#board [data-cell="g7"]')
    cell_on_table(page, "d4")
    page.wait_for_selector('#board [data-cell="d4"] .disk')
    page.reload()
    page.wait_for_selector('#board [data-cell="d4"] .disk')
    assert page.inner_text("#title") == "Io" and page.input_value("#game") == "io:7x7"
    # Another game from the chooser asks first; refused, the Io game stays.
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.select_option("#game", "numberline")
    page.wait_for_timeout(500)
    assert page.input_value("#game") == "io:7x7"
    assert server.get("/api/table/state")[1]["snapshot"]["moves"] == ["d4"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.select_option("#game", "numberline")
    page.wait_for_url("**/table?game=numberline")
    page.reload()
    page.wait_for_selector('#board [data-cell="29"]')
    assert page.inner_text("#title") == "Number line"


# --- cues on the board ------------------------------------------------------------------------

def test_the_last_placement_is_marked(opened, server):
    page = opened(server.url)
    expect_text(page, "#turn", "Dark to move")
    click(page, "D4")
    expect_text(page, "#turn", "Light to move")
    page.wait_for_selector('#board g[data-cell="D4"].last .last-mark', state="visible")
    click(page, "D5")
    page.wait_for_selector('#board g[data-cell="D5"].last .last-mark', state="visible")
    assert page.locator("#board g.last").count() == 1
    assert "last placement" in hexagon(page, "D5").get_attribute("aria-label")


def luminance(css):
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


CHOICE_SAMPLE = """(cell) => {
  const g = document.querySelector(`#board g[data-cell='${cell}']`);
  const ring = g.querySelector('.choice');
  const shown = ring && getComputedStyle(ring).display !== 'none'
    && Number(getComputedStyle(ring).opacity) === 1 ? getComputedStyle(ring).stroke : null;
  const glows = [...document.querySelectorAll('#board g[data-cell]')]
    .filter((h) => h !== g && Number(getComputedStyle(h.querySelector('.glow')).opacity) > 0)
    .map((h) => getComputedStyle(h.querySelector('.glow')).fill);
  return [shown, glows];
}"""


def choice_stays_brightest(page, cell):
    """Over the LED's blink, the chosen hex's ring is always drawn and never dimmer than any
    other hex's glow (the legal-move hints among them)."""
    for _ in range(12):
        ring, glows = page.evaluate(CHOICE_SAMPLE, cell)
        assert ring is not None, "the choice on %s is not shown" % cell
        assert all(luminance(ring) >= luminance(g) for g in glows), (ring, glows)
        page.wait_for_timeout(130)


def test_the_computers_choice_and_a_suggestion_are_unmistakable(opened, server):
    page = opened(server.url)
    expect_text(page, "#turn", "Dark to move")
    page.locator("#suggest").click()
    expect_text(page, "#status", "Suggestion for dark")
    chosen = status(page).split(": ")[1].rstrip(".")
    choice_stays_brightest(page, chosen)
    server.post("command", {"cmd": "settings", "settings": {"computer": "light", "level": 1}})
    click(page, chosen)
    expect_text(page, "#status", "Computer (light) chose")
    chosen = status(page).split("chose ")[1].split()[0]
    assert page.locator("#board g.chosen").count() == 1
    choice_stays_brightest(page, chosen)
    click(page, chosen)
    page.wait_for_selector('#board g[data-cell="%s"].last' % chosen)
    assert page.locator("#board g.chosen").count() == 0


def test_an_illegal_placement_gets_a_reason_and_the_cells_named_are_labelled(opened, server):
    page = opened(server.url)
    expect_text(page, "#turn", "Dark to move")
    assert not page.locator("#names").is_checked()
    click(page, "E4")
    expect_text(page, "#status", "Light to move")
    click(page, "E5")                                   # the centre flips nothing here
    expect_text(page, "#status", "Remove the disk on E5")
    expect_text(page, "#status", "E5 is not a legal placement for light: the centre")
    assert hexagon(page, "E5").locator(".label").is_visible()
    assert not hexagon(page, "E6").locator(".label").is_visible()
    click(page, "E5")                                   # lifted: the game goes on
    expect_text(page, "#status", "Light to move")
    assert not hexagon(page, "E5").locator(".label").is_visible()
    click(page, "A1")                                   # an outer hex needs a flip
    expect_text(page, "#status", "A1 is not a legal placement for light: a disk on the outer ring")


def test_a_captives_hidden_colour_shows_without_hovering(opened, server):
    page = opened(server.url)
    expect_text(page, "#turn", "Dark to move")
    page.locator("#autoflip").check()
    # D6 captures D5, a light captive; B4 captures B3, a dark one (auto-flip turns them).
    for cell, side_after in zip(("D4", "D5", "D6", "B2", "B3", "B4"), ("Light", "Dark") * 3):
        click(page, cell)
        expect_text(page, "#status", "%s to move" % side_after)
    assert hexagon(page, "B3").get_attribute("data-disk") == "d"
    page.mouse.move(0, 0)                               # nothing hovered, nothing focused
    page.evaluate("document.activeElement && document.activeElement.blur()")
    face_shows(page, "B3", wire(palette.DARK_CAPTIVE))
    face_shows(page, "D5", wire(palette.LIGHT_CAPTIVE))
    assert "hidden colour dark" in hexagon(page, "B3").get_attribute("aria-label")
    assert "hidden colour light" in hexagon(page, "D5").get_attribute("aria-label")


# --- a phone-sized window -----------------------------------------------------------------------

def renderable(char):
    """Whether an installed font (Debian's defaults here) has a glyph for `char`."""
    out = subprocess.run(["fc-list", ":charset=%x" % ord(char), "family"],
                         capture_output=True, text=True, check=True).stdout
    return bool(out.strip())


def test_the_pages_fit_the_window_and_the_hexes_are_large_enough_to_tap(opened, server, size,
                                                                       tmp_path):
    page = opened(server.url)
    expect_text(page, "#turn", "Dark to move")
    width = SIZES[size][0]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for name in ("A1", "E1", "E9", "I9", "E5"):
        box = hexagon(page, name).locator(".base").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
    # The hex itself, without its outline: across the flats and from corner to corner.
    across, tall = page.evaluate(
        "() => { const p = document.querySelector('#board g[data-cell=E5] .base');"
        " const b = p.getBBox(), m = p.getScreenCTM(); return [b.width * m.a, b.height * m.d]; }")
    assert min(across, tall) >= 40, (across, tall)
    keep(tmp_path, page, "board-" + size)
    # The replay buttons' labels, and every button's, in glyphs the installed fonts have.
    labels = page.evaluate("[...document.querySelectorAll('button, .button')]"
                           ".map((b) => b.textContent)")
    replay = page.evaluate("[...document.querySelectorAll('[data-replay]')]"
                           ".map((b) => b.textContent)")
    assert replay and all(re.search(r"[A-Za-z]", label) for label in replay)
    missing = {ch for label in labels for ch in label if ord(ch) > 127 and not renderable(ch)}
    assert not missing, "no installed font draws %s" % sorted(missing)
    table = opened(server.url + "table?game=othello")
    table.wait_for_selector('#board [data-cell="d3"] .legal')
    assert table.evaluate("document.documentElement.scrollWidth") <= width


# --- notices that belong to the present ---------------------------------------------------------

def test_a_page_opened_after_the_demo_stopped_shows_no_stale_notice(opened, server):
    server.post("command", {"cmd": "demo"})
    server.wait(lambda s: s["state"]["phase"] == "demo", what="the demo")
    server.post("place", {"cell": "C3"})                 # a disk put down stops the demo
    server.wait(lambda s: s["state"]["phase"] == "play", what="the demo stopping")
    page = opened(server.url)
    expect_text(page, "#console", '"stopped_by": "C3"')
    page.wait_for_timeout(1000)
    assert page.locator("#notice").inner_text() == ""


def test_an_error_notice_is_cleared_by_the_next_success(opened, server):
    page = opened(server.url)
    expect_text(page, "#turn", "Dark to move")
    page.fill("#send-text", '{"cmd": "no_such_command"}')
    page.locator("#send-form button").click()
    expect_text(page, "#notice", "no_such_command")
    click(page, "E4")
    page.wait_for_function("document.querySelector('#notice').textContent === ''", timeout=2000)
    expect_text(page, "#turn", "Light to move")
