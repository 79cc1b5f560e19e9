"""The board page's actions and words at the table, in Chromium: a button whose action cannot
happen now is off (a power cut, the self-test), notices that end with what they told, a record
checked before the game in progress is put at risk, refusals that are answers (not errors in
the browser's console), the turn while flips are pending, the score's empty areas, and the
settings hexes labelled and their steps said (docs/web.md).

Chromium must be installed, as for tests/test_web_e2e.py.
"""

import json

import pytest
from gameboard.referee import PLAY

from test_web_api import fresh, play, ready, sim  # noqa: F401
from test_web_e2e import browser, expect_text, hexagon, open_page  # noqa: F401
from test_web_page_cues import in_process  # noqa: F401


@pytest.fixture
def opened(browser):
    """open(url) -> a desktop-sized page; the test fails if it threw or logged an error."""
    opened_, problems = [], []

    def open_(url):
        context, page, errors = open_page(browser, url, 1360, 900)
        page.on("console", lambda msg: msg.type == "error" and
                problems.append("console error: %s" % msg.text))
        opened_.append((context, errors))
        return page

    yield open_
    for context, errors in opened_:
        context.close()
        problems.extend("threw: %s" % e for e in errors)
    assert not problems, problems


def click(page, cell):
    hexagon(page, cell).click()


def questions(page, answer=False):
    """The questions the page asks, each answered `answer` (or answer[0], to change it)."""
    asked = []
    says = answer if isinstance(answer, list) else [answer]
    page.on("dialog", lambda dialog: (asked.append(dialog.message),
                                      dialog.accept() if says[0] else dialog.dismiss()))
    return asked


# --- a button whose action cannot happen is off --------------------------------------------------

def test_new_game_is_off_while_the_power_is_cut_and_the_disks_stay(opened, fresh):
    """The issue's steps: E4, E6, E2, cut the power, New game. It emptied the board although
    the board answered no command; after power on it asked for E2, E4 and E6 back."""
    page = opened(fresh.url)
    expect_text(page, "#turn", "Dark to move")
    play(fresh, "E4", "E6", "E2")
    expect_text(page, "#status", "Light to move")
    asked = questions(page)
    page.locator("#power").click()
    expect_text(page, "#turn", "Power off")
    off = ["#new-game", "#take-back", "#suggest", "#demo", "#load", "#set-rules", "#set-hints",
           "#set-computer", "#send-form button"]
    for selector in off:
        assert page.locator(selector).is_disabled(), selector
    assert "disabled" in page.locator("#save").get_attribute("class")
    page.locator("#new-game").click(force=True)          # a click on it does nothing
    page.wait_for_timeout(500)
    snap = fresh.snapshot()
    assert sorted(snap["disks"]) == ["E2", "E4", "E6"] and not asked
    # What a hand can do stays on: lift a disk, clear the board, turn the power on.
    assert page.locator("#clear").is_enabled() and page.locator("#knock").is_enabled()
    page.locator("#power").click()
    fresh.wait(ready, what="the restart")
    expect_text(page, "#status", "Light to move")
    assert fresh.state()["missing"] == [] and fresh.state()["moves"] == ["E4", "E6", "E2"]
    for selector in ("#new-game", "#take-back", "#suggest", "#demo", "#load"):
        assert page.locator(selector).is_enabled(), selector


def test_unexpected_lift_is_off_with_no_disk_on_the_board(opened, fresh):
    page = opened(fresh.url)
    expect_text(page, "#turn", "Dark to move")
    assert page.locator("#knock").is_disabled()
    click(page, "E4")
    expect_text(page, "#turn", "Light to move")
    assert page.locator("#knock").is_enabled()


def test_the_self_test_is_shown_and_the_game_actions_are_off(opened, in_process):
    """A board in its self-test (select held at power-on) has no game: the page used to throw
    on its state and offered new game, settings and the demo, which the board refuses."""
    sim = in_process.driver
    page = opened(in_process.url)
    expect_text(page, "#turn", "Dark to move")
    sim.call(lambda body: sim.board.app.hand_over("selftest", sim.board.clock.ms))
    expect_text(page, "#turn", "Self-test")
    expect_text(page, "#status", "Self-test")
    for selector in ("#new-game", "#take-back", "#suggest", "#demo", "#load", "#set-rules",
                     "#set-level"):
        assert page.locator(selector).is_disabled(), selector
    click(page, "A1")                         # a switch closes: the page goes on drawing
    page.wait_for_selector('#board g[data-cell="A1"].has-disk')


# --- notices that end with what they told --------------------------------------------------------

def test_the_knocked_off_notice_ends_when_the_disk_is_back(opened, fresh):
    page = opened(fresh.url)
    play(fresh, "E4")
    expect_text(page, "#turn", "Light to move")
    page.locator("#knock").click()                       # E4 is the only disk
    expect_text(page, "#notice", "A disk was knocked off E4")
    click(page, "E4")                                    # put back
    page.wait_for_function("document.querySelector('#notice').textContent === ''",
                           timeout=2000)                 # not after its 6 s
    expect_text(page, "#status", "Light to move")
    # Through a power cut: the cut is the news then; the hand's panel still holds the disk.
    page.locator("#knock").click()
    expect_text(page, "#notice", "A disk was knocked off E4")
    page.locator("#power").click()
    page.wait_for_function("document.querySelector('#notice').textContent === ''",
                           timeout=2000)
    expect_text(page, "#hand", "E4")
    page.locator("#power").click()
    fresh.wait(ready, what="the restart")


# --- a record is read and checked before anything is asked ---------------------------------------

def test_a_bad_record_is_refused_without_asking_and_the_game_is_kept(opened, fresh,
                                                                    tmp_path):
    page = opened(fresh.url)
    play(fresh, "E4")
    expect_text(page, "#turn", "Light to move")
    answer = [False]
    asked = questions(page, answer)
    bad = tmp_path / "broken.iago"
    bad.write_text("1. Q7 Z9 *\n")
    page.locator("#load").set_input_files(str(bad))
    expect_text(page, "#notice", "broken.iago cannot be replayed: not a valid game record")
    assert not asked
    assert fresh.state()["moves"] == ["E4"] and fresh.snapshot()["replay"] is None
    # A good one is asked about, naming the game at stake, and loaded once accepted.
    good = tmp_path / "opening.iago"
    good.write_text("1. D4 D5 *\n")
    answer[0] = True
    page.locator("#load").set_input_files(str(good))
    expect_text(page, "#replay-pos", "0 / 2")
    assert len(asked) == 1 and "opening.iago" in asked[0] and "1 placement" in asked[0]


# --- refusals are answers ------------------------------------------------------------------------

def test_refused_actions_log_no_errors_in_the_browsers_console(opened, fresh):
    page = opened(fresh.url)                 # `opened` fails on any console error
    expect_text(page, "#turn", "Dark to move")
    page.fill("#send-text", '{"cmd": "take_back"}')       # the board refuses: 400
    page.locator("#send-form button").click()
    expect_text(page, "#notice", "nothing to take back")
    page.fill("#send-text", '{"cmd": "bogus"}')           # the server refuses: 400
    page.locator("#send-form button").click()
    expect_text(page, "#notice", "unknown command")
    page.locator("#autoflip").check()
    play(fresh, "D4", "D5")
    fresh.post("autoflip", {"on": False})
    assert page.evaluate("iagoPage.board.post('flip', {cell: 'C3'})")["status"] == 409   # no disk
    fresh.post("table/new", {"game": "othello"})
    table = opened(fresh.url + "table?game=othello")
    table.wait_for_selector('#board [data-cell="d3"] .legal')
    table.click('#board [data-cell="a1"]')               # not a legal placement: 409
    expect_text(table, "#notice", "a1")


# --- a box ticked keeps its tick while the board answers ---------------------------------------

def test_the_auto_flip_box_keeps_its_tick_while_the_board_answers(opened, fresh):
    """The board's snapshots keep coming (its clock) while the answer to a tick is on its way;
    the box used to untick at the next one and tick again at the answer, and under load a
    click looked undone."""
    page = opened(fresh.url)
    expect_text(page, "#turn", "Dark to move")
    held = []
    page.route("**/api/autoflip", lambda route: held.append(route))   # the request waits
    clock = page.inner_text("#clock")
    page.locator("#autoflip").click()
    page.wait_for_function("(c) => document.getElementById('clock').textContent !== c", arg=clock)
    page.wait_for_timeout(300)
    assert held and page.is_checked("#autoflip")        # snapshots came; the tick stays
    held[0].continue_()
    page.wait_for_function("iagoPage.snap.sim.autoflip === true")
    assert page.is_checked("#autoflip")


def test_the_auto_flip_box_keeps_its_tick_until_a_snapshot_shows_it(opened, fresh):
    """The answer to a tick can come before the snapshot that carries the new value: the box
    used to take the old value again at the answer, and a click looked undone until the next
    snapshot (under load, Playwright's check() saw it unticked). A refusal unticks it."""
    page = opened(fresh.url)
    expect_text(page, "#turn", "Dark to move")
    answers = [{"ok": True}, {"ok": False, "error": "refused"}]
    page.route("**/api/autoflip", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(answers.pop(0))))

    def after_a_snapshot():
        clock = page.inner_text("#clock")
        page.wait_for_function("(c) => document.getElementById('clock').textContent !== c",
                               arg=clock)

    page.locator("#autoflip").click()            # answered at once; the board never hears it
    after_a_snapshot()
    assert not answers[1:] and page.evaluate("iagoPage.snap.sim.autoflip") is False
    assert page.is_checked("#autoflip")
    page.reload()
    expect_text(page, "#turn", "Dark to move")
    page.locator("#autoflip").click()            # refused
    after_a_snapshot()
    assert not answers and not page.is_checked("#autoflip")


# --- the turn while flips are pending ------------------------------------------------------------

def test_while_a_flip_is_pending_the_panel_does_not_give_the_turn_yet(opened, fresh):
    page = opened(fresh.url)
    play(fresh, "D4", "D5", "D6")                        # D6 captures D5
    expect_text(page, "#status", "Turn over D5")
    expect_text(page, "#turn", "Light to move after the flips")
    page.locator("#board g[data-cell='D5']").click(button="right")
    expect_text(page, "#status", "Light to move")
    page.wait_for_function("document.querySelector('#turn').textContent === 'Light to move'")


# --- the score -----------------------------------------------------------------------------------

def test_the_score_says_an_empty_area_counts_1(opened, fresh):
    page = opened(fresh.url)
    expect_text(page, "#turn", "Dark to move")
    expect_text(page, "#score-dark small", "0 inner (counts 1) × 0 outer (counts 1)")
    play(fresh, "D4")
    expect_text(page, "#score-dark small", "1 inner × 0 outer (counts 1)")
    assert page.inner_text("#score-dark b") == "1"
    assert "counts as 1" in page.locator("#score-dark").get_attribute("title")
    fresh.post("clear")
    fresh.post("command", {"cmd": "new_game", "rules": "simple"})
    expect_text(page, "#score-light small", "0 inner + 0 outer")   # no 1-for-zero there


# --- the settings hexes --------------------------------------------------------------------------

def test_the_settings_hexes_are_labelled_and_a_step_is_said(opened, fresh):
    page = opened(fresh.url)
    expect_text(page, "#turn", "Dark to move")
    legend = page.locator("#settings-legend")
    for words in ("A1 rules: standard", "A2 penalty option: off", "A3 hints: on",
                  "A4 brightness: medium", "A5 palette: standard", "B1 computer plays: nobody",
                  "B6 computer's level: 3", "E5: hold a disk 2 s for the demo"):
        expect_text(page, "#settings-legend", words)
    assert hexagon(page, "A3").locator(".setting-key").text_content() == "H"
    assert hexagon(page, "A3").locator(".setting-key").is_visible()
    assert "settings hex H: hints, now on" in hexagon(page, "A3").get_attribute("aria-label")
    click(page, "A3")                        # rests 0.4 s: hints step to off
    expect_text(page, "#status", "Hints now off (A3). Dark to move")
    expect_text(page, "#settings-legend", "A3 hints: off")
    assert "now off" in hexagon(page, "A3").get_attribute("aria-label")
    click(page, "A3")                        # lifted
    click(page, "B6")                        # the level steps to 4
    expect_text(page, "#status", "Computer's level now 4 (B6).")
    click(page, "B6")
    fresh.post("command", {"cmd": "settings", "settings": {"hints": True, "level": 3}})
    expect_text(page, "#status", "Hints now on (A3); computer's level now 3 (B6).")
    # After the first placement the hexes are game hexes: no keys, no legend.
    click(page, "E4")
    expect_text(page, "#turn", "Light to move")
    assert legend.is_hidden()
    assert not hexagon(page, "A3").locator(".setting-key").is_visible()
    assert "stepped before the first placement" in hexagon(page, "A3").get_attribute("aria-label")


def test_a_board_that_names_the_setting_it_stepped_is_heard(opened, in_process):
    """docs/board.md: a setting stepped on the board is reported as a `settings` event with
    `name`, `value` and `cell`; the page says it from the event, whatever the state says."""
    page = opened(in_process.url)
    expect_text(page, "#turn", "Dark to move")
    in_process.hub.log("in", json.dumps({"event": "settings", "name": "palette", "value": 1,
                                         "cell": "A5", "settings": {}}))
    expect_text(page, "#status", "Palette now colour-blind (A5). Dark to move")


def test_a_refused_step_of_the_penalty_option_says_why(opened, in_process):
    """The board reports a step it refused with the value unchanged: under loose rules the
    penalty option cannot be on."""
    page = opened(in_process.url)
    expect_text(page, "#turn", "Dark to move")
    in_process.hub.log("in", json.dumps({"event": "settings", "name": "penalty", "value": False,
                                         "cell": "A2", "settings": {"rules": "loose"}}))
    expect_text(page, "#status", "The penalty option stays off (A2): not with loose rules.")


# --- where the game is kept --------------------------------------------------------------------

@pytest.fixture
def fram_fitted(monkeypatch):
    """The in-process simulator's board with its FRAM fitted (iago serve --sim --fram)."""
    from host_sim import simboard
    monkeypatch.setattr(simboard, "DEFAULT_FRAM", True)


def test_the_panel_says_the_game_is_on_the_flash_of_a_board_without_an_fram(opened, in_process):
    page = opened(in_process.url)
    expect_text(page, "#clock", "game kept on the flash")
    assert "FRAM" not in page.inner_text("#clock")


def test_the_panel_says_the_game_is_on_the_fram_until_it_fails(opened, fram_fitted, in_process):
    sim = in_process.driver
    page = opened(in_process.url)
    expect_text(page, "#clock", "game kept on the FRAM")
    # The page shows the turn during the light check too; a disk down before it ends is one
    # that must leave first, so the placement waits for the board to be in play.
    for _ in range(200):
        if sim.call(lambda body: sim.board.controller.referee.phase) == PLAY:
            break
        page.wait_for_timeout(25)
    click(page, "E4")
    expect_text(page, "#turn", "Light to move")
    sim.call(lambda body: setattr(sim.board.fram, "failing", True))
    click(page, "E6")
    expect_text(page, "#clock", "game kept on the flash (the FRAM failed)")
