"""Remote play in Chromium (docs/web.md, "Play someone remotely"): one page creates a game by
its button, the other joins it by typing the code, both show the other player as here; a
spectator page, opened by the code, follows the game from the broker over WebSockets (mqtt.js)
and shows each move as the boards have it; the static site (`make site`) watches the same way."""

import random
import subprocess
import sys

import pytest

from remote_harness import Broker, Serve, free_port, in_step, play_move, set_up, wait_for
from test_web_e2e import browser, open_page  # noqa: F401  (the browser fixture)


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path / "broker")
    yield b
    b.stop()


def snap_of(page):
    return page.evaluate("() => window.iagoPage.snap")


def test_pages_create_and_join_a_game_and_a_spectator_follows_it(browser, broker,  # noqa: F811
                                                                  tmp_path):
    boards = {side: Serve(tmp_path / side, broker.url) for side in ("dark", "light")}
    pages = []
    try:
        for board in boards.values():
            assert board.post("autoflip", {"on": True})["ok"]
        dark_ctx, dark, dark_errors = open_page(browser, boards["dark"].url)
        light_ctx, light, light_errors = open_page(browser, boards["light"].url)
        pages += [(dark_ctx, dark_errors), (light_ctx, light_errors)]
        dark.locator("#remote-box").wait_for()
        dark.select_option("#remote-side", "dark")
        dark.click("#remote-create")
        code = wait_for(lambda: boards["dark"].remote()["code"], what="the game's code")
        dark.locator("#remote-code-shown", has_text=code).wait_for()
        light.fill("#remote-code", code)
        light.click("#remote-join-form button")
        light.locator("#remote-side-shown", has_text="light").wait_for()
        dark.locator("#remote-opponent", has_text="Light is here").wait_for()
        light.locator("#remote-opponent", has_text="Dark is here").wait_for()

        watch_ctx, watch, watch_errors = open_page(
            browser, "%s/?watch=%s&broker=%s" % (boards["dark"].url, code, broker.ws_url))
        pages.append((watch_ctx, watch_errors))
        watch.locator("#link", has_text="watching").wait_for()
        rng = random.Random(3)
        for _ in range(6):
            play_move(boards, rng)
            moves = boards["dark"].snap()["state"]["moves"]
            wait_for(lambda m=moves: (snap_of(watch) or {}).get("state", {}).get("moves") == m,
                     10, "the spectator to show %s" % moves)
            watch.locator("#remote-last", has_text="%d moves, the last %s" % (
                len(moves), moves[-1])).wait_for()
        spectator = snap_of(watch)
        assert spectator["disks"] == boards["dark"].snap()["disks"]
        assert spectator["mode"] == "watch" and spectator["remote"]["phase"] == "watching"
        assert watch.locator("#remote-opponent", has_text="Dark is here, light is here").count()
        assert watch.locator("#new-game").is_hidden()        # read-only
        watch.screenshot(path=str(tmp_path / "spectator.png"))
        dark.screenshot(path=str(tmp_path / "dark.png"))
    finally:
        for ctx, errors in pages:
            ctx.close()
            assert not errors, errors
        for board in boards.values():
            board.stop()


def test_the_static_site_watches_a_game_over_websockets(browser, broker, tmp_path):  # noqa: F811
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "host_sim.web.site", str(site)], check=True,
                   capture_output=True)
    port = free_port()
    http = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1",
                             "-d", str(site), str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    boards = {side: Serve(tmp_path / side, broker.url) for side in ("dark", "light")}
    try:
        for board in boards.values():
            assert board.post("autoflip", {"on": True})["ok"]
        code = boards["dark"].post("remote/create", {"side": "dark"})["code"]
        assert boards["light"].post("remote/join", {"code": code})["ok"]
        for board in boards.values():
            set_up(board)
        wait_for(lambda: in_step(boards["dark"], boards["light"]))
        ctx, page, errors = open_page(browser, "http://localhost:%d/?watch=%s&broker=%s" % (
            port, code, broker.ws_url))
        try:
            rng = random.Random(4)
            for _ in range(3):
                play_move(boards, rng)
            moves = boards["light"].snap()["state"]["moves"]
            wait_for(lambda: (snap_of(page) or {}).get("state", {}).get("moves") == moves, 15,
                     "the static site's spectator to show %s" % moves)
        finally:
            ctx.close()
        assert not errors, errors
    finally:
        for board in boards.values():
            board.stop()
        http.terminate()
        http.wait(5)
