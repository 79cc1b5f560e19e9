"""The static page on a real board over Web Serial, in Chromium, proven against the unmodified
firmware: a test-only navigator.serial (tests/webserial/shim.js) whose port is the simulated
board's USB serial stream, the firmware running on the host behind it (host_sim/simboard.py).

The hands move the disks on the host's board; the page sees the game, the LED colours its own
painter works out from the board's state, the console, and sends commands the board obeys. A
line that is no JSON reaches the console and changes nothing; a browser without Web Serial is
told to use `iago serve --port`.
"""

import time
from pathlib import Path

import pytest

from gameboard import palette
from gameboard.app import FIRMWARE_VERSION
from host_sim.simboard import SimBoard
from test_web_e2e import browser, expect_text, hexagon, led_shows, moves_shown, wire  # noqa: F401
from test_web_site import open_page, ready, site_url  # noqa: F401

SHIMS = Path(__file__).resolve().parent / "webserial"
STEP_MS = 200                # the most board time one read of the port runs


class HostSide:
    """The far end of the shim's port: the simulated board, run in real time as the page reads."""

    def __init__(self):
        self.board = SimBoard(strict=True)
        self.board.advance(1500)                  # past the light check
        self.board.received()                     # the host opens the port after the start-up
        self.last = time.monotonic()

    def write(self, text):
        self.board.serial.inbound.extend(text.encode())

    def read(self):
        now = time.monotonic()
        self.board.advance(min(STEP_MS, (now - self.last) * 1000))
        self.last = now
        lines, self.board.serial.lines = self.board.serial.lines, []
        return "".join(line + "\n" for line in lines)


@pytest.fixture
def board_on_usb(browser, site_url):
    host = HostSide()
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    context.add_init_script(path=str(SHIMS / "shim.js"))
    context.expose_function("iagoSerialWrite", host.write)
    context.expose_function("iagoSerialRead", host.read)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(site_url)
    ready(page)
    page.locator("#connect").click()
    yield page, host
    context.close()
    host.board.close()
    assert not errors, "the page threw: %s" % errors


def test_the_page_shows_and_commands_a_board_over_web_serial(board_on_usb):
    page, host = board_on_usb
    expect_text(page, "#source", "USB (Web Serial)")
    expect_text(page, "#source", "firmware " + FIRMWARE_VERSION)
    expect_text(page, "#turn", "Dark to move")
    assert page.input_value("#board-source") == "serial"
    # The page's LED colours are the firmware's painter's, worked out from the board's state.
    led_shows(page, "D4", [wire(palette.HINT_DARK)])

    host.board.place("D4")                                   # a hand on the real board
    expect_text(page, "#turn", "Light to move")
    assert moves_shown(page) == ["D4"]
    assert hexagon(page, "D4").get_attribute("data-disk") == "D"
    led_shows(page, "D4", [wire(palette.DARK)])
    expect_text(page, "#console", '"event": "move"')

    # The disks are physical: a click moves nothing and says so.
    hexagon(page, "E6").click()
    expect_text(page, "#notice", "real board")
    assert "E6" not in host.board.position()

    # Commands reach the firmware: the brightness, then a take-back that the board asks for.
    page.locator("#settings summary").click()
    page.select_option("#set-brightness", "3")
    page.wait_for_function("iagoPage.snap.state && iagoPage.snap.state.settings.brightness === 3")
    assert host.board.controller.settings.brightness == 3
    led_shows(page, "D4", [wire(palette.DARK, 3)])
    page.locator("#take-back").click()
    expect_text(page, "#status", "Remove the disk on D4")
    host.board.lift("D4")
    expect_text(page, "#turn", "Dark to move")
    assert moves_shown(page) == []

    # A command the board would refuse is refused in the page and never sent.
    page.fill("#send-text", '{"cmd": "settings", "settings": {"palette": 7}}')
    page.locator("#send-form button").click()
    expect_text(page, "#notice", "palette")


def test_a_line_that_is_no_json_changes_nothing(board_on_usb):
    page, host = board_on_usb
    expect_text(page, "#turn", "Dark to move")
    host.board.serial.lines.append("Traceback (most recent call last): {not json")
    host.board.serial.lines.append('["a list", "not an object"]')
    expect_text(page, "#console", "{not json")
    host.board.place("E4")
    expect_text(page, "#turn", "Light to move")
    assert moves_shown(page) == ["E4"]


def test_a_browser_without_web_serial_points_to_iago_serve(browser, site_url):
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    context.add_init_script(path=str(SHIMS / "no_serial.js"))
    page = context.new_page()
    try:
        page.goto(site_url)
        ready(page)
        page.locator("#connect").click()
        expect_text(page, "#notice", "no Web Serial")
        expect_text(page, "#notice", "iago serve --port")
        expect_text(page, "#source", "simulated board in this page")
    finally:
        context.close()


def test_a_board_not_yet_answering_is_drawn_empty_meanwhile(browser, site_url):
    """Issue: a real board over Web Serial showed nothing until its first view: the page no
    longer drew a board. A board that has not answered yet (here one that never does) is the
    hex board, empty and dark, with the status saying so."""
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    context.add_init_script(path=str(SHIMS / "shim.js"))
    context.expose_function("iagoSerialWrite", lambda text: None)
    context.expose_function("iagoSerialRead", lambda: "")
    page = context.new_page()
    try:
        page.goto(site_url)
        page.locator("#connect").click()
        expect_text(page, "#source", "USB (Web Serial)")
        page.wait_for_timeout(3000)                   # the page's own board would have drawn
        assert page.locator("#board g[data-cell]").count() == 61
        assert hexagon(page, "E5").get_attribute("data-disk") in (None, "")
        expect_text(page, "#status", "Waiting for the board")
    finally:
        context.close()


def test_the_pages_hex_board_is_the_firmwares():
    """static/hexboard.js, drawn before a real board reports, is the hex layout's snapshot."""
    import json

    from gameboard.layout import hex_layout
    from host_sim.web.ledview import layout_dict
    text = (Path(__file__).resolve().parent.parent / "host_sim" / "web" / "static" /
            "hexboard.js").read_text()
    body = text.split("export const HEX_BOARD = ", 1)[1].rsplit(";", 1)[0]
    assert json.loads(body) == layout_dict(hex_layout())
