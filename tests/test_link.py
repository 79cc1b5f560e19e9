"""The host link: every command, error replies, and a fuzz test of malformed input."""

import json

import pytest
from hypothesis import given, settings, strategies as st

import iago
from gameboard.controller import Controller
from gameboard.referee import STARTUP_MS
from gameboard.link import _MAX_LINE as MAX_LINE
from gameboard.link import Link
from gameboard.saves import Saves


class Port:
    def __init__(self, tmp_path):
        self.lines = []
        self.ctl = Controller(now=0)
        self.ctl.tick(STARTUP_MS + 1)
        self.saves = Saves(str(tmp_path))
        self.link = Link(self.ctl, self.saves, self.lines.append, {"firmware": "test"})
        self.link.pump()
        self.lines.clear()

    def send(self, text):
        self.link.feed(text.encode() if isinstance(text, str) else text, 1000)
        out = [json.loads(line) for line in self.lines]
        self.lines.clear()
        return out

    def cmd(self, **msg):
        replies = self.send(json.dumps(msg) + "\n")
        assert len(replies) == 1
        return replies[0]


def test_ping_and_version(tmp_path):
    port = Port(tmp_path)
    assert port.cmd(cmd="ping", id=7) == {"v": 2, "reply": "ping", "ok": True, "pong": 1000,
                                          "id": 7}
    assert port.cmd(cmd="version")["firmware"] == "test"


def test_state_describes_the_board(tmp_path):
    port = Port(tmp_path)
    state = port.cmd(cmd="state")["state"]
    assert state["position"] == iago.STARTING_TEXT
    assert state["phase"] == "play" and state["turn"] == "dark"
    assert len(state["legal"]) == 36


def test_new_game_with_rules_and_settings(tmp_path):
    port = Port(tmp_path)
    reply = port.cmd(cmd="new_game", rules="simple+penalty")
    assert reply["ok"] and reply["state"]["rules"] == "simple+penalty"
    reply = port.cmd(cmd="new_game", settings={"rules": "loose", "hints": False})
    assert reply["state"]["settings"]["hints"] is False
    bad = port.cmd(cmd="new_game", rules="loose+penalty")
    assert not bad["ok"] and "penalty" in bad["error"]
    assert port.ctl.game.rules.name() == "loose"        # unchanged by the bad command


def test_settings_command_and_rules_locked_during_a_game(tmp_path):
    port = Port(tmp_path)
    assert port.cmd(cmd="settings", settings={"brightness": 3})["settings"]["brightness"] == 3
    port.ctl.switch(iago.parse_cell("E4"), True, 1000)
    reply = port.cmd(cmd="settings", settings={"rules": "loose"})
    assert not reply["ok"] and "before the first placement" in reply["error"]
    assert port.cmd(cmd="settings", settings={"hints": False})["ok"]
    assert not port.cmd(cmd="settings", settings={"colour": 1})["ok"]


def test_take_back_and_claim(tmp_path):
    port = Port(tmp_path)
    assert not port.cmd(cmd="take_back")["ok"]
    port.ctl.switch(iago.parse_cell("E4"), True, 1000)
    reply = port.cmd(cmd="take_back")
    assert reply["ok"] and reply["state"]["moves"] == []
    assert port.cmd(cmd="claim")["granted"] is False


def test_games_list_and_download(tmp_path):
    port = Port(tmp_path)
    game = iago.Board()
    while not game.is_game_over():
        game.push(list(game.legal_moves)[0])
    from gameboard import archive
    game_id = archive.save_finished(port.saves, game)
    assert port.cmd(cmd="games")["games"] == [game_id]
    record = port.cmd(cmd="game", game=game_id)["record"]
    assert record.startswith('[Game "Iago"]')
    missing = port.cmd(cmd="game", game=99)
    assert not missing["ok"] and "no saved game 99" in missing["error"]
    assert not port.cmd(cmd="game", game="1")["ok"]


def test_events_are_sent_with_the_version(tmp_path):
    port = Port(tmp_path)
    port.ctl.switch(iago.parse_cell("E4"), True, 1000)
    port.link.pump()
    events = [json.loads(line) for line in port.lines]
    assert [e["event"] for e in events] == ["placed", "tentative"]
    assert all(e["v"] == 2 for e in events)


def test_malformed_and_unknown_messages_get_error_replies(tmp_path):
    port = Port(tmp_path)
    cases = ["not json\n", "[1, 2]\n", '{"cmd": "fly"}\n', '{"cmd": 3}\n', '{"no": "cmd"}\n',
             b"\xff\xfe\n", '{"cmd": "game"}\n']
    for text in cases:
        replies = port.send(text)
        assert len(replies) == 1 and replies[0]["ok"] is False and replies[0]["error"]
    assert port.send("\n\r\n") == []                    # blank lines are ignored
    long = port.send("x" * (MAX_LINE + 10) + "\n")
    assert "longer than" in long[0]["error"]
    assert port.cmd(cmd="ping")["ok"]                   # and the line after it works


def test_a_command_split_across_reads_is_assembled(tmp_path):
    port = Port(tmp_path)
    assert port.send('{"cmd": "pi') == []
    assert port.send('ng"}\n')[0]["reply"] == "ping"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=700))
def test_fuzzed_input_never_disturbs_the_game(data):
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        port = Port(tmp)
        port.ctl.switch(iago.parse_cell("E4"), True, 1000)
        before = port.ctl.game.text()
        port.send(data + b"\n")
        after = port.ctl.game.text()
    # Random bytes can form a valid command only in freak cases; none of them may crash
    # the link, and anything that is not a valid game-changing command leaves the game.
    if b"new_game" not in data and b"take_back" not in data:
        assert after == before


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=3),
    max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["ping", "version", "state", "new_game", "settings", "take_back",
                        "claim", "games", "game", "nope"]),
       st.dictionaries(st.sampled_from(["id", "rules", "settings", "game"]), _json_values,
                       max_size=3))
def test_fuzzed_commands_always_get_one_reply(cmd, fields):
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        port = Port(tmp)
        line = json.dumps(dict(fields, cmd=cmd))
        replies = port.send(line + "\n")
        assert len(replies) == 1
        if len(line.encode()) > MAX_LINE:
            assert "longer than" in replies[0]["error"]
        else:
            assert replies[0]["reply"] == cmd
        assert replies[0]["ok"] is True or replies[0]["error"]
        assert port.cmd(cmd="state")["ok"]


@pytest.mark.micropython
def test_every_command_under_micropython_leaves_no_command_code_in_the_heap(tmp_path):
    """Under the unix MicroPython VM: the less frequent commands come from gameboard/commands.py,
    imported when sent and forgotten after; `state` and `stats` stay in the link itself."""
    import mpvm
    out = mpvm.run_unix("""
import json, sys
from gameboard.controller import Controller
from gameboard.referee import STARTUP_MS
from gameboard.link import Link
from gameboard.saves import Saves
lines = []
ctl = Controller(now=0)
ctl.tick(STARTUP_MS + 1)
link = Link(ctl, Saves(%r), lines.append, {"firmware": "test"})
for msg in ({"cmd": "ping"}, {"cmd": "version"}, {"cmd": "state"}, {"cmd": "stats"},
            {"cmd": "settings", "settings": {"hints": False}}, {"cmd": "new_game"},
            {"cmd": "games"}, {"cmd": "game", "game": 3}, {"cmd": "take_back"},
            {"cmd": "claim"}, {"cmd": "chess"}):
    del lines[:]
    link.feed((json.dumps(msg) + "\\n").encode(), 1000)
    reply = json.loads(lines[-1])
    print(msg["cmd"], reply["ok"], "gameboard.commands" in sys.modules)
print(ctl.settings.hints, json.loads(lines[-1])["error"][:24])
""" % str(tmp_path), heap="512k")
    rows = [line.split() for line in out.splitlines()]
    assert rows[:-1] == [
        ["ping", "True", "False"], ["version", "True", "False"], ["state", "True", "False"],
        ["stats", "True", "False"], ["settings", "True", "False"], ["new_game", "True", "False"],
        ["games", "True", "False"], ["game", "False", "False"], ["take_back", "False", "False"],
        ["claim", "True", "False"], ["chess", "False", "False"]]
    assert out.splitlines()[-1].rstrip() == 'False unknown command "chess"'
