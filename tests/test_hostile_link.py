"""No host-link input can brick the board: every command checks its fields' types and ranges
and refuses with a message, nothing refused is saved, and a MemoryError or a flash error in a
command is an error reply, never a restart.

Everything runs on the simulated board with the unmodified firmware and `strict=True`: any
exception the firmware lets out fails the test. The fuzz tests are seeded (hypothesis,
derandomized)."""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gameboard import commands, controller
from gameboard.commands import COMMANDS
from gameboard.settings import NAMES, Settings
from host_sim.simboard import SimBoard

# The values each setting takes (docs/protocol.md), written out here rather than taken from
# the firmware, and the settings the board starts the tests with (none of them defaults).
VALID = {
    "rules": ["standard", "loose", "simple", "loose+simple"],
    "penalty": [False, True],
    "hints": [False, True],
    "brightness": [0, 1, 2, 3],
    "palette": [0, 1],
    "computer": ["none", "dark", "light"],
    "level": [1, 2, 3, 4, 5],
}
START = {"rules": "simple", "penalty": True, "hints": False, "brightness": 1, "palette": 1,
         "computer": "none", "level": 4, "remote": "none"}   # remote: never saved
# 26 values of every JSON type; those a setting does not take are wrong for it (167 in all).
WRONG = [None, True, False, 0, 1, 2, 3, 5, 6, -1, 10**30, 0.0, 1.0, 2.0, 3.0, 1.5, -0.0, "",
         "1", "true", "none", "Standard", [], [1], {}, {"value": 1}]


def seeded(examples):
    return settings(derandomize=True, database=None, deadline=None, max_examples=examples,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


def valid(name, value):
    """Is `value` one the setting `name` takes? (1.0 is not 1, and true is not 1.)"""
    return any(type(v) is type(value) and v == value for v in VALID[name])


def wrong_values(name):
    return [v for v in WRONG if not valid(name, v)]


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    """A board that has saved the START settings (no game begun)."""
    root = tmp_path_factory.mktemp("flash")
    with SimBoard(root=root, strict=True) as b:
        b.advance(1200)
        assert b.command({"cmd": "settings", "settings": START})["ok"]
        b.advance(100)
        assert saved(b).split(b"|")[2].decode() == Settings.from_dict(START).code()
        yield b


def saved(board):
    return (Path(board.root) / "game.sav").read_bytes()


def settings_now(board):
    return board.command({"cmd": "state"})["state"]["settings"]


def refused(board, message):
    """Send `message`; its one reply must be a refusal with a message, and nothing may
    change: the settings, the game, the save on the flash."""
    before = saved(board)
    state = board.command({"cmd": "state"})["state"]
    reply = board.command(message)
    assert reply["ok"] is False and isinstance(reply["error"], str) and reply["error"], reply
    board.advance(60)                               # a save would follow within a step or two
    assert saved(board) == before
    after = board.command({"cmd": "state"})["state"]
    assert after["settings"] == state["settings"] and after["moves"] == state["moves"]
    assert board.restarts == 0
    return reply


def power_cycle(board):
    """Power off and on; the board must start (strict: no exception) with START."""
    board.power_cut()
    board.power_on()
    board.advance(50)
    assert settings_now(board) == START
    board.received()


# --- settings ------------------------------------------------------------------------------


def test_a_float_palette_is_refused_and_never_saved(board):
    """Bug: {"palette": 1.0} was accepted (1.0 == 1), saved, and crashed the firmware at every
    start after: a crash loop the saved settings carried over every restart."""
    reply = refused(board, {"cmd": "settings", "settings": {"palette": 1.0}})
    assert reply["error"] == "palette is one of 0, 1, not 1.0"
    power_cycle(board)


@pytest.mark.parametrize("name", NAMES)
def test_every_wrong_value_of_every_setting_is_refused(board, name):
    """The 167 wrong values through `settings` and `new_game`: each refused with a message
    naming the setting, nothing saved, and the board starts with its settings unchanged after
    a power cycle. Before the fix the firmware accepted 53 of them, and 12 crashed the board
    at once and again at every start after."""
    assert len(WRONG) == 26 and sum(len(wrong_values(n)) for n in NAMES) == 167
    for value in wrong_values(name):
        reply = refused(board, {"cmd": "settings", "settings": {name: value}})
        assert reply["error"].startswith(name + " is one of "), reply
        reply = refused(board, {"cmd": "new_game", "settings": dict(START, **{name: value})})
        assert reply["error"].startswith(name + " is one of "), reply
    power_cycle(board)


@pytest.mark.parametrize("name", NAMES)
def test_every_value_a_setting_takes_is_kept_over_a_power_cycle(board, name):
    for value in VALID[name]:
        change = {name: value}
        if name == "rules" and value.startswith("loose"):
            change["penalty"] = False          # the penalty option needs forced capture
        if name == "penalty" and value:
            change["rules"] = "standard"
        reply = board.command({"cmd": "settings", "settings": change})
        assert reply["ok"] and reply["settings"][name] == value, reply
        board.advance(60)
        board.power_cut()
        board.power_on()
        board.advance(50)
        kept = settings_now(board)
        assert kept[name] == value and type(kept[name]) is type(value)
    assert board.command({"cmd": "settings", "settings": START})["ok"]
    board.advance(60)
    power_cycle(board)


def test_every_wrong_remote_side_is_refused_and_a_right_one_never_saved(board):
    """`remote` (docs/protocol.md) is set by a host and lost at a restart: the board then plays
    both sides until its host sets it again."""
    for value in WRONG:
        if value != "none":
            reply = refused(board, {"cmd": "settings", "settings": {"remote": value}})
            assert reply["error"].startswith("remote is one of 'none', 'dark', 'light'"), reply
    before = saved(board)
    reply = board.command({"cmd": "settings", "settings": {"remote": "light"}})
    assert reply["ok"] and reply["settings"]["remote"] == "light"
    board.advance(60)
    assert saved(board) == before
    power_cycle(board)


def test_the_penalty_option_with_loose_rules_is_refused(board):
    refused(board, {"cmd": "settings", "settings": {"rules": "loose"}})   # penalty is on
    refused(board, {"cmd": "new_game", "rules": "loose+penalty"})


_json_scalars = (st.none() | st.booleans() | st.integers(-3, 8) | st.integers() |
                 st.floats(allow_nan=False) | st.text(max_size=8) |
                 st.sampled_from(["standard", "loose", "dark", "light", "none"]))
_json = st.recursive(_json_scalars, lambda inner: st.lists(inner, max_size=3) |
                     st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=5)
_setting_values = st.one_of([st.sampled_from(VALID[n]) for n in NAMES]) | _json


@seeded(200)
@given(st.dictionaries(st.sampled_from(NAMES + ("colour", "Palette", "")), _setting_values,
                       max_size=4))
def test_fuzzed_settings_are_applied_exactly_when_valid(board, changes):
    """Any object of settings, right or wrong: applied (and saved) exactly when every key is a
    setting with one of its values and the result allows; refused otherwise, changing
    nothing. A power cycle after each starts the board with what was saved."""
    merged = dict(START, **changes)
    ok = (all(k in NAMES and valid(k, v) for k, v in changes.items())
          and not (merged["penalty"] is True and merged["rules"].startswith("loose")))
    if ok:
        reply = board.command({"cmd": "settings", "settings": changes})
        assert reply["ok"] and reply["settings"] == merged, reply
        board.advance(60)
        board.power_cut()
        board.power_on()
        board.advance(50)
        assert settings_now(board) == merged
        assert board.command({"cmd": "settings", "settings": START})["ok"]
        board.advance(60)
    else:
        refused(board, {"cmd": "settings", "settings": changes})
    power_cycle(board)


# --- every command's fields ---------------------------------------------------------------


# Fields that each command takes, with values that are wrong for it.
WRONG_FIELDS = [
    ("settings", {}),                                     # no "settings"
    ("settings", {"settings": None}), ("settings", {"settings": []}),
    ("settings", {"settings": "palette=1"}), ("settings", {"settings": 1}),
    ("settings", {"settings": {"palette": 1}, "extra": 1}),
    ("settings", {"setting": {"palette": 1}}),
    ("new_game", {"rules": None}), ("new_game", {"rules": 1}), ("new_game", {"rules": ["loose"]}),
    ("new_game", {"rules": ""}), ("new_game", {"rules": "+penalty"}),
    ("new_game", {"rules": "chess"}), ("new_game", {"rules": True}),
    ("new_game", {"settings": None}), ("new_game", {"settings": [1]}),
    ("new_game", {"settings": {"colour": 1}}),
    ("new_game", {"rules": "loose", "settings": {"rules": "loose"}}),
    ("new_game", {"setings": {"rules": "loose"}}),
    ("game", {}), ("game", {"game": None}), ("game", {"game": True}), ("game", {"game": 1.0}),
    ("game", {"game": "1"}), ("game", {"game": [1]}), ("game", {"game": -1}),
    ("game", {"game": 10**40}), ("game", {"game": 0}), ("game", {"game": 1, "games": 2}),
    ("new_game", {"first": "light"}),                     # Iago has no coin toss
    ("new_game", {"first": None}), ("new_game", {"first": 1}), ("new_game", {"first": "Dark"}),
    ("play", {}), ("play", {"move": None}), ("play", {"move": 4}), ("play", {"move": ["E4"]}),
    ("play", {"move": "E4"}),                              # no side is remote
    ("play", {"move": "E4", "side": "dark"}),
] + [(cmd, {"x": 1}) for cmd in COMMANDS]


@pytest.mark.parametrize("cmd,fields", WRONG_FIELDS,
                         ids=["%s-%s" % (c, json.dumps(f)) for c, f in WRONG_FIELDS])
def test_every_command_refuses_wrong_fields_with_a_message(board, cmd, fields):
    reply = refused(board, dict(fields, cmd=cmd, id=9))
    assert reply["reply"] == cmd and reply["id"] == 9


def test_an_unknown_field_is_named_in_the_refusal(board):
    assert refused(board, {"cmd": "state", "verbose": True})["error"] == \
        'state takes no fields, not "verbose"'
    assert refused(board, {"cmd": "game", "gmae": 1})["error"] == \
        'game takes "game", not "gmae"'


def test_a_frequent_command_with_only_an_id_is_answered(board):
    assert board.command({"cmd": "state", "id": [1, {"a": None}]})["id"] == [1, {"a": None}]
    assert board.command({"cmd": "stats", "id": "s"})["ok"]


@seeded(150)
@given(st.sampled_from(COMMANDS),
       st.dictionaries(st.sampled_from(["id", "rules", "settings", "game", "cmd", "x"]), _json,
                       max_size=3))
def test_fuzzed_commands_get_one_reply_and_a_refusal_changes_nothing(board, cmd, fields):
    """Any command with any fields of any JSON type: exactly one reply, naming the command;
    a refusal changes nothing and saves nothing; the board never restarts, and starts after
    a power cycle."""
    message = dict(fields, cmd=cmd)
    if cmd in ("demo", "selftest", "new_game", "take_back") and set(message) <= {"cmd", "id"}:
        message["x"] = 0            # their valid form is tested elsewhere: here, refused
    before = saved(board)
    line = json.dumps(message)
    if len(line) > 500:
        return
    reply = board.command(line)
    assert reply["reply"] == cmd and board.restarts == 0
    if reply["ok"] is False:
        assert reply["error"]
        board.advance(60)
        assert saved(board) == before
    elif saved(board) != before or settings_now(board) != START:
        assert board.command({"cmd": "settings", "settings": START})["ok"]
        board.advance(60)
    board.power_cut()
    board.power_on()
    board.advance(50)
    board.received()


def depth(value):
    if isinstance(value, (list, dict)):
        return 1 + max([depth(v) for v in (value.values() if isinstance(value, dict)
                                            else value)] or [0])
    return 0


def test_input_nested_deeper_than_the_picos_stack_is_answered(board, monkeypatch):
    """A Pico's C stack overflows (RuntimeError) writing a list nested about 100 deep, which
    fits in a 512-byte line: such a "cmd" is neither shown nor echoed (it once was, by
    json.dumps outside any handler), and a reply that cannot carry its "id" goes without."""
    from gameboard import link
    dumps = json.dumps

    def pico_dumps(obj, *args, **kwargs):
        if depth(obj) > 100:
            raise RuntimeError("maximum recursion depth exceeded")
        return dumps(obj, *args, **kwargs)
    monkeypatch.setattr(link.json, "dumps", pico_dumps)
    nested = "[" * 200 + "]" * 200
    reply = board.command('{"cmd": %s}' % nested)
    assert reply["reply"] is None and "unknown command of type list" in reply["error"]
    reply = board.command('{"cmd": "ping", "id": {"a": %s}}' % nested)
    assert reply == {"v": 2, "reply": "ping", "ok": False,
                     "error": "maximum recursion depth exceeded"}
    assert board.restarts == 0 and board.command({"cmd": "ping", "id": [[1]]})["id"] == [[1]]


# --- memory and flash errors inside a command ----------------------------------------------


def test_a_memory_error_in_a_command_is_an_error_reply(board, monkeypatch):
    def no_heap(self, now):
        raise MemoryError()
    monkeypatch.setattr(controller.Controller, "suggest", no_heap)
    reply = board.command({"cmd": "suggest"})
    assert reply == {"v": 2, "reply": "suggest", "ok": False,
                     "error": "out of memory"}
    assert board.restarts == 0 and board.command({"cmd": "ping"})["ok"]


def test_a_memory_error_importing_the_commands_is_an_error_reply(board, monkeypatch):
    def no_heap(link, msg, now, frequent=None):
        raise MemoryError()
    monkeypatch.setattr(commands, "run", no_heap)
    assert board.command({"cmd": "games"})["error"] == "out of memory"
    assert board.restarts == 0


def test_a_flash_error_in_a_command_is_an_error_reply(board):
    """`games` and `game` read the flash: a file where the games' folder belongs makes both
    fail with OSError, which restarted the board before; now it is a refusal."""
    games = Path(board.root) / "games"
    kept = games.with_name("games.kept")
    games.rename(kept)
    games.write_text("not a folder")
    try:
        for message in ({"cmd": "games"}, {"cmd": "game", "game": 1}):
            reply = board.command(message)
            assert reply["ok"] is False and reply["error"].startswith("flash error ("), reply
        assert board.restarts == 0 and board.command({"cmd": "ping"})["ok"]
    finally:
        games.unlink()
        kept.rename(games)


def test_a_reply_too_large_for_the_heap_is_an_error_reply(board, monkeypatch):
    from gameboard import link
    dumps = json.dumps

    def short_of_heap(obj, *args, **kwargs):
        if isinstance(obj, dict) and obj.get("reply") == "version" and obj.get("ok"):
            raise MemoryError()
        return dumps(obj, *args, **kwargs)
    monkeypatch.setattr(link.json, "dumps", short_of_heap)
    reply = board.command({"cmd": "version"})
    assert reply["ok"] is False and reply["error"] == "out of memory"
    assert board.restarts == 0


def test_a_nan_never_reaches_the_board_as_a_setting(board):
    """CPython's json reads NaN; a host sending it is refused like any other float."""
    refused(board, '{"cmd": "settings", "settings": {"brightness": NaN}}')
