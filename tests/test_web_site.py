"""The static site of `make site` in Chromium: the unmodified firmware running in the page (a Web
Worker under MicroPython's WebAssembly port), served by a plain `python -m http.server`.

A whole game played by clicking, every flip by hand; a take-back; a reload that is a power cut
(the flash and the disks kept in the browser's storage) and resumes the game; settings; a record
saved and replayed; storage that cannot be read set aside; the phone size. Chromium as in
tests/test_web_e2e.py (Debian's, fails without it).
"""

import socket
import subprocess
import sys
import time

import pytest

from gameboard import palette
from host_sim.web import site
from test_web_e2e import (TIMEOUT_MS, browser, expect_text, hexagon, keep, led_shows,  # noqa: F401
                          moves_shown, open_page, wire)

GAME_TIMEOUT_MS = 60000      # a state the board reaches in its own time (a slow machine's worker)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    """The site built by `make site`'s builder, served by the standard library's static server."""
    folder = tmp_path_factory.mktemp("site")
    site.build(folder)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d",
                               str(folder), str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.05)
        yield "http://127.0.0.1:%d/" % port
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture
def page(browser, site_url):
    context, page, errors = open_page(browser, site_url, 1360, 900)
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()
    assert not errors, "the page threw: %s" % errors


def settled(page, moves):
    """Wait until the board has `moves` placements, none of them still tentative."""
    page.wait_for_function(
        "(n) => iagoPage.snap && iagoPage.snap.state && iagoPage.snap.state.moves.length === n"
        " && !iagoPage.snap.state.tentative",
        arg=moves, timeout=GAME_TIMEOUT_MS)


def turn_over_what_the_board_asks(page):
    """Right-click every disk the board asks to turn, as a player does, one after another."""
    while True:
        pending = page.evaluate("iagoPage.snap.state.flips_pending")
        if not pending:
            return
        cell = pending[0]
        hexagon(page, cell).click(button="right")
        page.wait_for_function("(cell) => !iagoPage.snap.state.flips_pending.includes(cell)",
                               arg=cell, timeout=GAME_TIMEOUT_MS)


def place(page, cell):
    moves = page.evaluate("iagoPage.snap.state.moves.length")
    hexagon(page, cell).click()
    settled(page, moves + 1)
    turn_over_what_the_board_asks(page)


def ready(page):
    page.wait_for_function("iagoPage.snap && iagoPage.snap.state"
                           " && iagoPage.snap.state.phase !== 'startup'"
                           " && (iagoPage.snap.state.legal.length > 0"
                           " || !!iagoPage.snap.state.outcome)",
                           timeout=GAME_TIMEOUT_MS)


def test_a_whole_game_played_by_clicking_with_the_firmware_in_the_page(page, tmp_path):
    expect_text(page, "#source", "simulated board in this page")
    expect_text(page, "#turn", "Dark to move")
    # The colours are the firmware's own LED bytes: a legal placement glows the hint's blue.
    led_shows(page, "D4", [wire(palette.HINT_DARK)])
    assert hexagon(page, "E5").get_attribute("data-led") == "0,0,0"
    page.locator('#speeds [data-speed="8"]').click()
    played = []
    for _ in range(80):
        ready(page)
        state = page.evaluate("iagoPage.snap.state")
        if state["outcome"]:
            break
        cell = state["legal"][len(played) * 7 % len(state["legal"])]
        place(page, cell)
        played.append(cell)
    state = page.evaluate("iagoPage.snap.state")
    outcome = state["outcome"]
    assert outcome and outcome["winner"] in ("dark", "light", "draw")
    assert state["moves"] == played and len(played) > 40
    assert not state["flips_pending"] and not state["extra"] and not state["missing"]
    expect_text(page, "#turn", "wins" if outcome["winner"] != "draw" else "draw")
    assert moves_shown(page) == played
    # The finished game is kept on the in-page flash, as on a Pico.
    expect_text(page, "#console", '"event": "saved_game"')
    keep(tmp_path, page, "site-game-over")


def test_take_back_a_reload_that_resumes_the_game_and_settings(page):
    ready(page)
    for cell in ("D4", "D5", "D6"):           # D6 captures D5: turned over by right-click
        place(page, cell)
    place(page, "E6")
    assert moves_shown(page) == ["D4", "D5", "D6", "E6"]
    assert hexagon(page, "D5").get_attribute("data-disk") == "l"

    page.locator("#take-back").click()
    expect_text(page, "#status", "Remove the disk on E6")
    hexagon(page, "E6").click()
    expect_text(page, "#status", "Light to move")
    assert moves_shown(page) == ["D4", "D5", "D6"]

    page.locator("#settings summary").click()
    page.select_option("#set-brightness", "3")
    led_shows(page, "D4", [wire(palette.DARK, 3)])

    # A reload is a power cut: the worker starts again from the flash the page kept.
    page.wait_for_timeout(600)               # past the worker's check of the flash (250 ms)
    page.reload()
    ready(page)
    expect_text(page, "#console", '"event": "restored"')
    assert moves_shown(page) == ["D4", "D5", "D6"]
    assert hexagon(page, "D5").get_attribute("data-disk") == "l"
    expect_text(page, "#turn", "Light to move")
    assert page.input_value("#set-brightness") == "3"
    led_shows(page, "D4", [wire(palette.DARK, 3)])


def test_a_record_saved_and_replayed_in_the_page(page, tmp_path):
    ready(page)
    for cell in ("D4", "D5", "D6"):
        place(page, cell)
    with page.expect_download() as download:
        page.locator("#save").click()
    path = tmp_path / "game.iago"
    download.value.save_as(path)
    text = path.read_text()
    assert '[Site "Iago board (simulated in a web page)"]' in text
    assert "1. D4 D5 2. D6" in text

    page.locator("#new-game").click()
    page.wait_for_function("iagoPage.snap.state.moves.length === 0"
                           " && Object.keys(iagoPage.snap.disks).length === 0")
    page.set_input_files("#load", str(path))
    expect_text(page, "#replay-pos", "0 / 3")
    page.locator('[data-replay="end"]').click()
    expect_text(page, "#replay-pos", "3 / 3")
    page.wait_for_function("iagoPage.snap.state.moves.length === 3"
                           " && !iagoPage.snap.state.flips_pending.length",
                           timeout=GAME_TIMEOUT_MS)
    assert page.evaluate("iagoPage.snap.state.moves") == ["D4", "D5", "D6"]
    assert hexagon(page, "D5").get_attribute("data-disk") == "l"
    assert not page.locator("#replay-error").inner_text()


def test_storage_the_page_cannot_read_is_set_aside_not_lost(page):
    ready(page)
    page.evaluate("localStorage.setItem('iago-page-flash', '{\"format\": 1, \"files\": "
                  "{\"../x\": 5}}'); localStorage.setItem('iago-page-disks', '[1, 2]')")
    page.reload()
    expect_text(page, "#notice", "could not be read")
    assert page.evaluate("localStorage.getItem('iago-page-flash.bad')").startswith('{"format"')
    assert page.evaluate("localStorage.getItem('iago-page-disks.bad')") == "[1, 2]"
    ready(page)
    assert page.evaluate("iagoPage.snap.state.moves") == []


def test_the_static_page_on_a_phone(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(site_url)
        ready(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        box = hexagon(page, "E4").bounding_box()
        assert box["width"] >= 40
        hexagon(page, "E4").tap()
        settled(page, 1)
        assert moves_shown(page) == ["E4"]
    finally:
        context.close()
