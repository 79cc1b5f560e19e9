"""The other games in the page: the table API (/api/table/...) and the page in Chromium."""

import json
import time

import pytest

from iago import othello, record
from test_web_api import Server
from test_web_e2e import browser, keep, TIMEOUT_MS  # noqa: F401  (the browser fixture)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with Server("--sim", games_dir=tmp_path_factory.mktemp("games")) as server:
        yield server


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


def test_othello_moves_flips_and_take_back(table):
    s = snap(table)
    assert s["game"] == "othello" and s["legal"] == ["d3", "c4", "f5", "e6"]
    table.post("table/place", {"cell": "d3"})
    s = snap(table)
    assert s["flipped"] == ["d4"] and s["turn"] == "light" and s["scores"] == [4, 1]
    reply = table.post("table/place", {"cell": "a1"}, expect=409)
    assert "a1 is not a legal move for white" in reply["error"]
    reply = table.post("table/place", {"cell": "z9"}, expect=400)
    assert "'z9'" in reply["error"]
    table.post("table/take-back")
    assert snap(table)["position"] == othello.STARTING_TEXT
    table.post("table/take-back", expect=409)


def test_coin_toss_decides_who_starts(table):
    seen = set()
    for _ in range(30):
        table.post("table/new", {"game": "othello", "call": "heads"})
        s = snap(table)
        assert s["coin"] in ("heads", "tails")
        assert s["turn"] == ("dark" if s["coin"] == "heads" else "light")
        assert "The coin shows %s" % s["coin"] in s["message"]
        seen.add(s["coin"])
        if len(seen) == 2:
            break
    assert seen == {"heads", "tails"}
    table.post("table/new", {"game": "othello", "call": "edge"}, expect=400)


def test_the_computer_answers_and_suggests(table):
    table.post("table/computer", {"side": "light", "level": 1})
    table.post("table/place", {"cell": "d3"})
    s = wait(table, lambda s: len(s["moves"]) == 2 and not s["thinking"])
    assert s["turn"] == "dark"
    table.post("table/suggest")
    s = wait(table, lambda s: s["suggestion"] is not None)
    assert s["suggestion"] in s["legal"]
    table.post("table/computer", {"level": 9}, expect=400)
    table.post("table/computer", {"side": "blue"}, expect=400)


def test_io_and_number_line_and_their_options(table):
    table.post("table/new", {"game": "io", "rules": "7x7"})
    s = snap(table)
    assert s["grid"] == {"kind": "square", "size": 7, "cells": 49, "names": s["grid"]["names"]}
    assert s["phase"] == "first" and s["turn"] == "light" and len(s["legal"]) == 49
    table.post("table/place", {"cell": "d4"})
    assert snap(table)["phase"] == "bound"
    table.post("table/new", {"game": "numberline", "rules": "ties-to-2+holes=22"})
    s = snap(table)
    assert s["grid"]["kind"] == "line" and s["cells"][2] == 8 and "22" not in s["legal"]
    reply = table.post("table/new", {"game": "numberline", "rules": "holes=31"}, expect=400)
    assert "'31'" in reply["error"]
    reply = table.post("table/new", {"game": "chess"}, expect=400)
    assert "unknown game 'chess'" in reply["error"]
    table.post("table/launch", expect=404)


def test_record_save_and_load(table):
    for cell in ("d3", "c5", "f6"):
        table.post("table/place", {"cell": cell})
    status, text = table.get("/api/table/record")
    assert status == 200 and '[Game "Othello"]' in text
    assert record.parse(text).moves == [othello.GRID.parse_cell(c) for c in ("d3", "c5", "f6")]
    table.post("table/new", {"game": "numberline"})
    table.post("table/load", {"record": text})
    assert snap(table)["moves"] == ["d3", "c5", "f6"]
    reply = table.post("table/load", {"record": "[Game \"Othello\"]\n\n1. a1 *\n"}, expect=400)
    assert "a1 is not a legal move" in reply["error"]


def test_demo_plays_both_sides_until_a_placement(table):
    table.post("table/new", {"game": "numberline"})
    table.post("table/demo", {"on": True})
    s = wait(table, lambda s: len(s["moves"]) >= 2)
    assert s["demo"]
    table.post("table/place", {"cell": s["legal"][0]})
    assert not snap(table)["demo"]


def test_the_page_plays_othello_and_a_number_line_capture(browser, served, tmp_path):  # noqa: F811
    served.post("table/computer", {"side": "none"})
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(served.url)
    page.click("nav.games >> text=Othello")
    page.wait_for_selector('#board [data-cell="d3"] .legal')
    page.click('#board [data-cell="d3"]')
    page.wait_for_selector('#board [data-cell="d4"] .disk.dark.flipped')
    assert page.inner_text("#score-dark") == "4" and page.inner_text("#score-light") == "1"
    page.click('#board [data-cell="c5"]')
    page.wait_for_selector('#board [data-cell="c5"] .disk.light')
    keep(tmp_path, page, "othello")
    page.select_option("#game", "numberline")
    page.wait_for_selector('#board [data-cell="29"]')
    for cell in ("21", "25", "27", "28"):      # pennies 21 27, dimes 25 28 ...
        page.click('#board [data-cell="%s"]' % cell)
        page.wait_for_selector('#board [data-cell="%s"] .disk' % cell)
    page.click('#board [data-cell="29"]')      # ... a penny on 29 takes 25 and 28
    page.wait_for_selector('#board [data-cell="28"] .disk.dark.flipped')
    assert page.inner_text("#score-dark") == "5" and page.inner_text("#score-light") == "0"
    keep(tmp_path, page, "numberline")
    context.close()
    assert not errors, errors
