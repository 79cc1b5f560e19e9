"""The page in a real browser: Playwright for Python driving Debian's Chromium, headless.

Plays an opening with a capture by clicking, turns the captured disks by hand (right-click,
long-press, keyboard), checks the LED colours and the scores the page shows, takes a move back,
cuts the power and sees the game resume. Screenshots of the board and the page are kept in the
test's temporary folder (and copied to $IAGO_TEST_ARTIFACTS if set).

Chromium must be installed (`apt-get install chromium`; .ci/run does it): without it these
tests fail, they are not skipped.
"""

import os
import shutil
from pathlib import Path

import pytest

from gameboard import boardmap, palette
from gameboard.leds import LedOutput
from gameboard.settings import BRIGHTNESS_LEVELS
from host_sim.simboard import DEFAULT_MAP
from test_web_api import Server, ready

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
TIMEOUT_MS = 15000


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is not installed at %s: run `apt-get install chromium` "
                    "(.ci/run installs it)" % CHROMIUM, pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed in this environment: run `make venv`",
                    pytrace=False)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def server(tmp_path):
    with Server("--sim", games_dir=tmp_path / "games") as srv:
        srv.wait(ready, what="the light check")
        yield srv
    assert not srv.alive()


@pytest.fixture
def page(browser, server):
    context, page, errors = open_page(browser, server.url, 1360, 900)
    yield page
    context.close()
    assert not errors, "the page threw: %s" % errors


def open_page(browser, url, width=1280, height=860):
    """A page of `url` in a new browser context: (context, page, errors the page threw)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return context, page, errors


def wire(index, level=2):
    """The wire colour "r,g,b" of palette colour `index` at brightness `level`, as the LEDs
    get it from the firmware's pipeline (gamma, brightness)."""
    out = LedOutput(boardmap.load(str(DEFAULT_MAP)), brightness=BRIGHTNESS_LEVELS[level])
    return ",".join(str(out.level(v)) for v in palette.rgb(palette.STANDARD, index))


def hexagon(page, cell):
    return page.locator('#board g[data-cell="%s"]' % cell)


def led_shows(page, cell, colours, timeout_ms=6000):
    """Wait until the hex's LED shows one of `colours` (wire "r,g,b" strings)."""
    page.wait_for_function(
        "([cell, colours]) => colours.includes("
        "document.querySelector(`#board g[data-cell='${cell}']`).dataset.led)",
        arg=[cell, list(colours)], timeout=timeout_ms)


def captive_face(wire_colour):
    """The fill the page gives a captive's face over an LED showing `wire_colour` ("r,g,b"):
    the LED's hue at full strength, encoded for the screen as app.js does (1/2.2)."""
    rgb = [int(v) for v in wire_colour.split(",")]
    top = max(rgb)
    return "rgb(%s)" % ", ".join(str(int(255 * (v / top) ** (1 / 2.2) + 0.5)) for v in rgb)


def face_shows(page, cell, wire_colour, timeout_ms=6000):
    """Wait until the hex's LED shows `wire_colour` and its disk's face the matching fill."""
    page.wait_for_function(
        "([cell, led, fill]) => {"
        " const g = document.querySelector(`#board g[data-cell='${cell}']`);"
        " return g.dataset.led === led"
        " && getComputedStyle(g.querySelector('.face')).fill === fill; }",
        arg=[cell, wire_colour, captive_face(wire_colour)], timeout=timeout_ms)


def expect_text(page, selector, text):
    from playwright.sync_api import expect
    expect(page.locator(selector)).to_contain_text(text, timeout=TIMEOUT_MS)


def moves_shown(page):
    return page.locator("#moves .move").all_inner_texts()


def long_press(page, cell, ms=800):
    box = hexagon(page, cell).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


def keep(tmp_path, page, name):
    board = tmp_path / ("%s-board.png" % name)
    whole = tmp_path / ("%s-page.png" % name)
    page.locator("#board").screenshot(path=str(board))
    page.screenshot(path=str(whole))
    target = os.environ.get("IAGO_TEST_ARTIFACTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        for path in (board, whole):
            shutil.copy(path, Path(target) / path.name)
    assert board.stat().st_size > 10000
    return board


def test_play_a_capture_by_hand_take_back_and_survive_a_power_cut(page, server, tmp_path):
    expect_text(page, "#link", "live")
    expect_text(page, "#turn", "Dark to move")
    led_shows(page, "D4", [wire(palette.HINT_DARK)])            # a legal move glows blue
    assert hexagon(page, "E5").get_attribute("data-led") == "0,0,0"   # the centre is not legal

    # Dark D4, light D5, dark D6 captures D5 (forced capture: the only legal placement).
    for cell, side_after in (("D4", "Light"), ("D5", "Dark")):
        hexagon(page, cell).click()
        expect_text(page, "#turn", "%s to move" % side_after)
        expect_text(page, "#status", "%s to move" % side_after)
    hexagon(page, "D6").click()
    expect_text(page, "#status", "Turn over D5")
    assert hexagon(page, "D5").get_attribute("data-disk") == "L"
    # D5 blinks between its old and its new face until it is turned.
    led_shows(page, "D5", [wire(palette.LIGHT)])
    led_shows(page, "D5", [wire(palette.LIGHT_CAPTIVE)])

    hexagon(page, "D5").click(button="right")                    # the flip gesture
    expect_text(page, "#status", "Light to move")
    assert hexagon(page, "D5").get_attribute("data-disk") == "l"
    assert "hidden colour light" in hexagon(page, "D5").locator("title").text_content()

    # Light E6; dark F6 captures E6, turned over by a long press.
    hexagon(page, "E6").click()
    expect_text(page, "#status", "Dark to move")
    hexagon(page, "F6").click()
    expect_text(page, "#status", "Turn over E6")
    long_press(page, "E6")
    expect_text(page, "#status", "Light to move")
    assert moves_shown(page) == ["D4", "D5", "D6", "E6", "F6"]
    assert page.locator("#moves .current").inner_text() == "F6"

    # The LEDs: dark disks blue, captives red with their hidden colour's tint.
    led_shows(page, "F6", [wire(palette.DARK)])
    led_shows(page, "D4", [wire(palette.DARK)])
    led_shows(page, "E6", [wire(palette.LIGHT_CAPTIVE)])
    expect_text(page, "#score-dark b", "3")
    expect_text(page, "#score-dark small", "3 inner × 0 outer (counts 1)")
    expect_text(page, "#score-light b", "1")
    expect_text(page, "#score-light small", "0 inner (counts 1) × 0 outer (counts 1)")

    # A second page on the same board sees the same game.
    other = page.context.new_page()
    other.goto(server.url)
    other.wait_for_function("document.querySelectorAll('#moves .move').length === 5")
    assert moves_shown(other) == moves_shown(page)
    other.close()

    keep(tmp_path, page, "capture")

    # Take F6 back: the board asks to remove F6 and to turn E6 back.
    page.locator("#take-back").click()
    expect_text(page, "#status", "Remove the disk on F6")
    expect_text(page, "#status", "turn over E6")
    hexagon(page, "F6").click()                                  # lifted: into the box
    hexagon(page, "E6").click(button="right")
    expect_text(page, "#status", "Dark to move")
    assert moves_shown(page) == ["D4", "D5", "D6", "E6"]
    assert hexagon(page, "E6").get_attribute("data-disk") == "L"
    assert hexagon(page, "F6").get_attribute("data-disk") == ""
    expect_text(page, "#score-dark b", "2")

    # Power cut: the LEDs go dark, the disks stay; power on: the saved game resumes.
    page.locator("#power").click()
    expect_text(page, "#status", "Power off")
    page.wait_for_function("[...document.querySelectorAll('#board g[data-cell]')]"
                           ".every(g => g.dataset.led === '0,0,0')")
    assert hexagon(page, "D5").get_attribute("data-disk") == "l"
    page.locator("#power").click()
    expect_text(page, "#status", "Dark to move")
    expect_text(page, "#console", '"event": "restored"')
    assert moves_shown(page) == ["D4", "D5", "D6", "E6"]
    led_shows(page, "D4", [wire(palette.DARK)])

    # The keyboard: from the centre up-right to F6, Enter places; right to... E6 and F turns.
    hexagon(page, "E5").focus()
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.cell") == "F6"
    page.keyboard.press("Enter")
    expect_text(page, "#status", "Turn over E6")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.cell") == "E6"
    page.keyboard.press("f")
    expect_text(page, "#status", "Light to move")
    keep(tmp_path, page, "resumed")


def test_auto_flip_and_replaying_a_record_on_the_board(page, server, tmp_path):
    expect_text(page, "#turn", "Dark to move")
    page.locator("#autoflip").check()
    for cell, side_after in (("D4", "Light"), ("D5", "Dark"), ("D6", "Light")):
        hexagon(page, cell).click()
        expect_text(page, "#status", "%s to move" % side_after)  # D5 is turned by itself
    assert hexagon(page, "D5").get_attribute("data-disk") == "l"

    # Light B2, dark B3, light B4 captures B3: a dark captive beside the light one. Each red
    # face takes the hue of its LED, which tells the hidden owner.
    for cell, side_after in (("B2", "Dark"), ("B3", "Light"), ("B4", "Dark")):
        hexagon(page, cell).click()
        expect_text(page, "#status", "%s to move" % side_after)
    assert hexagon(page, "B3").get_attribute("data-disk") == "d"
    face_shows(page, "B3", wire(palette.DARK_CAPTIVE))
    face_shows(page, "D5", wire(palette.LIGHT_CAPTIVE))
    dark = captive_face(wire(palette.DARK_CAPTIVE))[4:-1].split(", ")     # raspberry
    light = captive_face(wire(palette.LIGHT_CAPTIVE))[4:-1].split(", ")   # orange red
    assert dark[:2] == ["255", "0"] and int(dark[2]) > 60
    assert light[0] == "255" and int(light[1]) > 60 and light[2] == "0"
    keep(tmp_path, page, "captives")

    # Load a record and step through it on the board.
    record = tmp_path / "opening.iago"
    record.write_text('[Dark "Ann"]\n[Light "Ben"]\n\n1. D4 D5 2. D6 E6 3. F6 *\n')
    page.once("dialog", lambda dialog: dialog.accept())   # yes, leave the game in progress
    page.locator("#load").set_input_files(str(record))
    expect_text(page, "#replay-pos", "0 / 5")
    expect_text(page, "#replay-title", "Ann – Ben")
    page.locator("[data-replay=end]").click()
    expect_text(page, "#replay-pos", "5 / 5")
    assert hexagon(page, "E6").get_attribute("data-disk") == "l"
    page.locator("[data-replay=back]").click()
    expect_text(page, "#replay-pos", "4 / 5")
    expect_text(page, "#status", "Dark to move")
    assert hexagon(page, "F6").get_attribute("data-disk") == ""
    page.locator("[data-replay=stop]").click()
    page.wait_for_selector("#replay", state="hidden")

    # A bad gesture is refused with a message, and nothing breaks.
    hexagon(page, "E5").click(button="right")
    expect_text(page, "#notice", "no disk on E5")


def test_a_real_board_is_shown_read_only_with_working_commands(browser, tmp_path):
    import re
    with Server("--sim", "--pty", games_dir=tmp_path / "sim") as board:
        port = re.search(r"USB serial port is (\S+)", board.banner()).group(1)
        board.wait(ready)
        with Server("--port", port, games_dir=tmp_path / "host") as host:
            context = browser.new_context(viewport={"width": 1360, "height": 900})
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(host.url)
            expect_text(page, "#source", port)
            expect_text(page, "#turn", "Dark to move")
            assert page.locator("#sim").is_hidden() and page.locator("#load-label").is_hidden()
            board.post("place", {"cell": "E4"})
            expect_text(page, "#turn", "Light to move")
            assert hexagon(page, "E4").get_attribute("data-disk") == "D"
            led_shows(page, "E4", [wire(palette.DARK)])
            hexagon(page, "E6").click()                       # a real board: no gestures
            expect_text(page, "#notice", "real board")
            assert moves_shown(page) == ["E4"]
            page.locator("#take-back").click()                # commands work
            expect_text(page, "#status", "Remove the disk on E4")
            board.wait(lambda s: s["state"]["moves"] == [])
            context.close()


def test_play_the_computer_then_watch_the_demo(page, server, tmp_path):
    expect_text(page, "#turn", "Dark to move")
    page.locator("#settings summary").click()
    page.locator("#set-computer").select_option("light")
    page.locator("#set-level").select_option("1")
    server.wait(lambda s: s["state"]["settings"]["computer"] == "light"
                and s["state"]["settings"]["level"] == 1, what="the computer's settings")

    # Dark by hand; the computer (light) chooses, its hex blinks, the player puts its disk there.
    hexagon(page, "E4").click()
    expect_text(page, "#status", "Computer (light) chose")
    chosen = page.locator("#status").inner_text().split("chose ")[1].split()[0]
    assert chosen in server.state()["legal"]
    hexagon(page, chosen).click()
    expect_text(page, "#status", "Dark to move")
    assert moves_shown(page) == ["E4", chosen]

    # The demo plays on the LEDs alone; the panel says so and refuses what the board would.
    page.locator("#clear").click()
    page.wait_for_function("document.querySelectorAll('#board g.has-disk').length === 0")
    page.locator("#demo").click()
    expect_text(page, "#demo-note", "Demo: the computer plays both sides. Place a disk to stop.")
    page.wait_for_timeout(3000)
    assert page.locator("#demo-note").is_visible()
    assert page.locator("#new-game").is_disabled() and page.locator("#set-computer").is_disabled()
    page.wait_for_function("[...document.querySelectorAll('#board g[data-cell]')]"
                           ".some(g => g.dataset.led && g.dataset.led !== '0,0,0')")
    assert page.locator("#board g.has-disk").count() == 0
    keep(tmp_path, page, "demo")
    hexagon(page, "E5").click()                                  # a disk put down stops it
    page.wait_for_selector("#demo-note", state="hidden")
    expect_text(page, "#console", '"stopped_by": "E5"')
    assert not page.locator("#new-game").is_disabled()
