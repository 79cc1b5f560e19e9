"""The page's status line follows the board's state in every phase, read in Chromium: the
new-game question (docs/board.md, "Gestures"), the score's screens at the end, a take-back by
gesture, the demo, the self-test; and the small print of the panel (the score's rule, disks
named in the plural).

Issue: with a game in progress and every disk lifted, E5 blinked green but the status said only
"Put back the disk on C4, E4, E6, G5"; a disk on E5 made it say "Remove the disk on E5; ... E5
is not a legal placement", while E5 turned steady green and lifting it started a new game.
Anyone who followed the text cancelled.

Chromium must be installed, as for tests/test_web_e2e.py.
"""

import re

import pytest

from test_web_api import play, random_game
from test_web_e2e import browser, expect_text, open_page  # noqa: F401
from test_web_page_cues import in_process, server  # noqa: F401


@pytest.fixture
def page(browser, server):  # noqa: F811
    context, page, errors = open_page(browser, server.url, 1360, 900)
    expect_text(page, "#turn", "Dark to move")
    yield page
    context.close()
    assert not errors, "the page threw: %s" % errors


def status(page):
    return page.locator("#status").inner_text()


def test_the_status_asks_for_a_new_game_as_the_board_does(page, server):
    server.post("autoflip", {"on": True})
    play(server, "E4", "E6", "D4")
    for cell in ("D4", "E4", "E6"):
        server.post("lift", {"cell": cell})
        server.post("put-away")
    # Lifted within 2 s: disks to put back (in the plural).
    expect_text(page, "#status", "Put back the disks on ")
    server.wait(lambda s: s["state"]["asking"], what="the question")
    expect_text(page, "#status", "New game? Hold a disk on E5 for 2 s, then lift it; put the "
                                 "disks back to go on.")
    server.post("place", {"cell": "E5"})
    expect_text(page, "#status", "Keep the disk on E5: at 2 s it turns steady green, then lift "
                                 "it for a new game")
    assert "not a legal placement" not in status(page)
    server.wait(lambda s: s["state"]["confirm"], what="E5 held 2 s")
    expect_text(page, "#status", "Lift the disk on E5 now: a new game begins.")
    server.post("lift", {"cell": "E5"})
    server.post("put-away")
    server.wait(lambda s: s["state"]["moves"] == [] and not s["state"]["asking"])
    expect_text(page, "#status", "Dark to move")


def test_the_status_says_which_number_of_the_score_the_leds_show(page, server):
    server.post("speed", {"speed": 4})
    text = random_game(7)
    server.post("replay/load", {"record": text})
    server.wait(lambda s: s["replay"] and not s["disks"])
    moves = server.post("replay/load", {"record": text, "check": True})["moves"]
    server.post("replay/step", {"to": moves})
    snap = server.wait(lambda s: s["state"] and s["state"]["outcome"], timeout=90,
                       what="the replayed game's end")
    server.post("replay/stop")
    dark_inner, dark_outer = snap["areas"]["dark"]
    expect_text(page, "#status", "Game over: dark ")
    seen = set()
    page.wait_for_function(
        "() => /The LEDs show who won/.test(document.querySelector('#status').textContent)")
    # Then each number as it shows: its side, which number, and the digit lit.
    for what, number in (("inner count", dark_inner), ("outer count", dark_outer)):
        page.wait_for_function(
            "(w) => document.querySelector('#status').textContent.includes(w)",
            arg="The LEDs show dark's %s, %d" % (what, number), timeout=20000)
        seen.add(what)
        if number >= 10:
            page.wait_for_function(
                "(w) => document.querySelector('#status').textContent.includes(w)",
                arg="its 2nd digit, %d" % (number % 10), timeout=20000)
    page.wait_for_function(
        "() => /The LEDs show light's score, \\d+/.test("
        "document.querySelector('#status').textContent)", timeout=30000)
    assert seen == {"inner count", "outer count"}
    assert "Clear the board for a new game." in status(page)


def test_a_take_back_by_gesture_is_said(page, server):
    play(server, "E4", "E6")
    server.post("lift", {"cell": "E6"})              # the last disk, kept off the board
    server.wait(lambda s: s["state"]["moves"] == ["E4"], what="the take-back")
    expect_text(page, "#status", "E6 taken back (its disk kept off the board 1.5 s).")
    server.post("put-away")
    expect_text(page, "#status", "E6 taken back")
    assert "Light to move" in status(page)
    play(server, "E6")                               # the next placement ends the news
    page.wait_for_function("() => !document.querySelector('#status').textContent"
                           ".includes('taken back')")


def test_the_demo_and_its_end_are_said(page, server):
    server.post("command", {"cmd": "demo"})
    expect_text(page, "#status", "Demo: the computer plays both sides. Place a disk to stop.")
    expect_text(page, "#turn", "Demo, game 1")
    server.post("place", {"cell": "D4"})
    expect_text(page, "#notice", "Demo stopped by the disk on D4.")
    server.wait(lambda s: s["state"]["phase"] == "play", what="the game back")
    assert not status(page).startswith("Demo")


def test_the_self_test_is_said(browser, in_process):  # noqa: F811
    """Held select at power-on (here, the app asked as hw.py would): every LED in turn, then
    each hex asked for; the board takes no command to start it from a page."""
    sim = in_process.driver
    context, page, _ = open_page(browser, in_process.url, 1360, 900)
    expect_text(page, "#turn", "Dark to move")
    sim.call(lambda body: sim.board.app.hand_over("selftest", sim.board.clock.ms))
    expect_text(page, "#status", "Self-test: every LED lights in turn.")
    expect_text(page, "#turn", "Self-test")
    sim.call(lambda body: setattr(sim, "speed", 8))
    page.wait_for_function("() => document.querySelector('#status').textContent.includes("
                           "'Self-test: put a disk on A1 (0 passed, no fault found so far).')",
                           timeout=30000)
    page.locator('#board g[data-cell="A1"]').click()
    expect_text(page, "#status", "Self-test: put a disk on A2 (1 passed")
    context.close()


def test_the_scores_rule_is_said_under_the_scores(page, server):
    """Issue: the score boxes read "Dark 1 — 0 inner (counts 1) × 0 outer (counts 1)" with no
    explanation on the page (a tooltip a phone never shows)."""
    rule = page.locator("#score-rule")
    assert re.search(r"inner area × on the outer ring; an area with none of them counts as 1",
                     rule.inner_text())
    assert rule.is_visible()


def test_play_the_computer_in_a_minute_as_the_readme_says(page, server):
    """README.md, "Play the computer in a minute", step by step in the page."""
    page.locator("#settings summary").click()
    page.select_option("#set-computer", "light")
    page.wait_for_function("iagoPage.snap.state.settings.computer === 'light'")
    page.check("#autoflip")
    page.locator('#board g[data-cell="E4"]').click()
    expect_text(page, "#status", "Computer (light) chose")
    chosen = re.search(r"chose (\w\d)", status(page)).group(1)
    page.locator('#board g[data-cell="%s"]' % chosen).click()
    server.wait(lambda s: s["state"]["moves"] == ["E4", chosen] and not s["state"]["tentative"],
                what="the computer's placement")
    expect_text(page, "#turn", "Dark to move")
