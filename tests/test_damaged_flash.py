"""Damaged flash never bricks the board: every file the firmware reads at start-up (the saved
game, the board map and its checked copy, the restart count), and the crash log it appends to,
may hold bad bytes, erased flash, wrong JSON types or any size. The board comes up, reports
what it set aside, and plays; `main()` never loops, whatever breaks at start.

The fuzz tests are seeded (hypothesis, derandomized): random byte flips, erased runs, cuts,
trailing garbage, random bytes and huge sizes in each file, on the simulated board (strict: any
firmware exception fails the test)."""

import contextlib
import io
import json
import os
import shutil
from binascii import crc32
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import iago
from gameboard import archive, boardmap, checkedmap
from gameboard.saves import SaveError, Saves
from gameboard.settings import Settings
from fake_pico import fake_pico, usb_port  # noqa: F401  (usb_port: a fixture)
from host_sim.fakes import mptime
from host_sim.fakes.machine import PWRON_RESET, WDT_RESET, MachineReset, SoftReset
from host_sim.simboard import SimBoard

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "hardware" / "board.json"


def seeded(examples):
    """Hypothesis settings of a seeded run: the same examples every time."""
    return settings(derandomize=True, database=None, deadline=None, max_examples=examples,
                    suppress_health_check=[HealthCheck.too_slow])


def saved_game(root, moves=("E4", "E6"), settings_=None):
    """Write a save as the firmware does; returns its bytes."""
    game = iago.Board()
    for name in moves:
        game.play(name)
    Saves(str(root) + "/").save(settings_ or Settings(hints=False, brightness=1), game, [])
    return (Path(root) / "game.sav").read_bytes()


def checksummed(body):
    """A save of older firmware (game.json, JSON) whose checksum is right for `body` (a dict
    or text): damage in the content."""
    text = body if isinstance(body, str) else json.dumps(body)
    return (text + "\ncrc %08x\n" % (crc32(text.encode()) & 0xFFFFFFFF)).encode()


def events(board, name):
    return [m for m in board.received() if m.get("event") == name]


def comes_up_with_a_new_game(board, root):
    """After a power-on on a set-aside save: reported, game.bad kept, a new game that plays."""
    errors = events(board, "save_error")
    assert len(errors) == 1 and "game.bad" in errors[0]["error"], errors
    assert (Path(root) / "game.bad").exists()
    assert not (Path(root) / "game.sav").exists() and not (Path(root) / "game.json").exists()
    board.advance(1200)                                   # the light check
    assert board.position() == iago.STARTING_TEXT
    board.place("E4")
    state = board.command({"cmd": "state"})["state"]
    assert state["moves"] == ["E4"] and state["phase"] == "play"
    board.lift("E4")
    board.advance(100)


# --- the saved game ------------------------------------------------------------------------


@pytest.mark.parametrize("damage", [
    pytest.param(lambda raw: raw[:10] + b"\xe9" + raw[11:], id="one-byte-above-0x7f"),
    pytest.param(lambda raw: raw[:20] + b"\xff" * 64, id="erased-flash-tail"),
    pytest.param(lambda raw: b"\xff" * 4096, id="erased-flash"),
    pytest.param(lambda raw: raw + b"\x00\xff\x80garbage", id="trailing-garbage"),
    pytest.param(lambda raw: raw + b"more text\n", id="trailing-text"),
    pytest.param(lambda raw: b"", id="empty"),
    pytest.param(lambda raw: b"{" * 300_000, id="too-large-for-the-heap"),
])
def test_a_damaged_save_is_set_aside_reported_and_a_new_game_played(tmp_path, damage):
    """Bug: the read in Saves.load was outside its try, so a UnicodeError (any byte >= 0x80)
    or a MemoryError escaped build() and main() blamed the board map, in a boot loop."""
    raw = saved_game(tmp_path)
    (tmp_path / "game.sav").write_bytes(damage(raw))
    with SimBoard(root=tmp_path) as board:
        comes_up_with_a_new_game(board, tmp_path)


WRONG_TYPES = [
    {"palette": 1.0}, {"palette": True}, {"brightness": 9}, {"level": "3"}, {"hints": 1},
    {"penalty": None}, {"rules": ["standard"]}, {"computer": {"side": "dark"}},
]


@pytest.mark.parametrize("change", WRONG_TYPES, ids=[json.dumps(c) for c in WRONG_TYPES])
def test_a_checksummed_save_with_a_wrong_setting_is_set_aside(tmp_path, change):
    """Bug: {"palette": 1.0}, once accepted and saved, crash-looped the firmware at every start;
    a save of an older firmware may still hold one. Now it is damage like any other."""
    settings_ = dict(Settings().as_dict(), **change)
    body = {"format": 1, "settings": settings_, "start": iago.STARTING_TEXT, "moves": ["E4"],
            "claims": [], "flips": []}
    (tmp_path / "game.json").write_bytes(checksummed(body))
    with SimBoard(root=tmp_path) as board:
        comes_up_with_a_new_game(board, tmp_path)


GOOD_BODY = {"format": 1, "settings": Settings().as_dict(), "start": iago.STARTING_TEXT,
             "moves": ["E4", "E6"], "claims": [], "flips": ["E4"]}
WRONG_FIELDS = [
    [], "text", 7, None, {"format": 1.0}, {"format": True}, {"settings": None},
    {"settings": []}, {"start": 5}, {"start": "nonsense"}, {"moves": "E4"},
    {"moves": {"0": "E4"}}, {"moves": ["E4", 6]}, {"moves": ["E4", "E4"]}, {"claims": [True]},
    {"claims": [0.0]}, {"claims": [-1]}, {"claims": "0"}, {"flips": "E4"},
    {"flips": ["A1"]}, {"flips": ["E4", "E4"]}, {"flips": [None]}, {"flips": ["Z9"]},
    {"game": "othello"}, {"game": None},
]


@pytest.mark.parametrize("change", WRONG_FIELDS, ids=[json.dumps(c) for c in WRONG_FIELDS])
def test_wrong_json_types_in_a_checksummed_save_are_damage(tmp_path, change):
    body = dict(GOOD_BODY, **change) if isinstance(change, dict) else change
    (tmp_path / "game.json").write_bytes(checksummed(body))
    with pytest.raises(SaveError, match="set aside as game.bad"):
        Saves(str(tmp_path)).load()
    assert (tmp_path / "game.bad").exists() and not (tmp_path / "game.json").exists()


def test_the_good_body_of_those_loads(tmp_path):
    (tmp_path / "game.json").write_bytes(checksummed(GOOD_BODY))
    settings_, game, flips = Saves(str(tmp_path)).load()
    assert game.ply() == 2 and flips == [iago.parse_cell("E4")]


def line_save(fields):
    """A save line (gameboard/saves.py) of `fields` with the right checksum."""
    body = "|".join(fields)
    return ("%s|%08x\n" % (body, crc32(body.encode()) & 0xFFFFFFFF)).encode()


def cells_hex(names):
    return "".join("%02x" % iago.parse_cell(n) for n in names.split())


GOOD_LINE = ["2", "iago", Settings().code(), iago.STARTING_TEXT, cells_hex("E4 E6"), "",
             cells_hex("E4")]
WRONG_LINE_FIELDS = [
    {0: "1"}, {0: "3"}, {0: ""}, {1: "othello"}, {1: ""}, {2: "9999999"}, {2: "001200"},
    {2: "00120020"}, {2: "0a12002"}, {2: "1100000"},          # loose rules with the penalty
    {3: "nonsense"}, {3: ""}, {4: cells_hex("E4 E4")}, {4: "E4"}, {4: "1d1"}, {4: "1D1F"},
    {4: "ff"}, {4: "1d 1f"}, {5: "x"}, {5: "-1"}, {5: "0.0"}, {6: cells_hex("A1")},
    {6: cells_hex("E4 E4")}, {6: "ff"}, {6: "zz"}, {7: "extra field"},
]


@pytest.mark.parametrize("change", WRONG_LINE_FIELDS,
                         ids=[" ".join("%d=%s" % kv for kv in c.items())
                              for c in WRONG_LINE_FIELDS])
def test_wrong_fields_in_a_checksummed_save_line_are_damage(tmp_path, change):
    fields = list(GOOD_LINE) + [""]
    for at, value in change.items():
        fields[at] = value
    (tmp_path / "game.sav").write_bytes(line_save(fields if fields[7] else fields[:7]))
    with pytest.raises(SaveError, match="set aside as game.bad"):
        Saves(str(tmp_path)).load()
    assert (tmp_path / "game.bad").exists() and not (tmp_path / "game.sav").exists()


def test_the_good_line_of_those_loads(tmp_path):
    (tmp_path / "game.sav").write_bytes(line_save(GOOD_LINE))
    settings_, game, flips = Saves(str(tmp_path)).load()
    assert settings_ == Settings() and game.ply() == 2 and flips == [iago.parse_cell("E4")]


def test_a_save_that_runs_out_of_heap_while_read_is_set_aside(tmp_path, monkeypatch):
    saved_game(tmp_path)
    from gameboard import savedgame

    def no_heap(raw, layout, formats):
        raise MemoryError()
    monkeypatch.setattr(savedgame, "parse", no_heap)
    with pytest.raises(SaveError, match=r"\(MemoryError\); set aside as game.bad"):
        Saves(str(tmp_path)).load()


def test_a_save_that_cannot_be_moved_aside_is_removed_and_never_read_again(tmp_path):
    (tmp_path / "game.sav").write_bytes(b"\xff" * 100)
    (tmp_path / "game.bad").mkdir()                       # a folder: rename over it fails
    (tmp_path / "game.bad" / "x").write_text("x")
    with pytest.raises(SaveError, match="removed"):
        Saves(str(tmp_path)).load()
    assert not (tmp_path / "game.sav").exists()


def test_a_folder_where_the_save_belongs_is_set_aside(tmp_path):
    (tmp_path / "game.sav").mkdir()
    with SimBoard(root=tmp_path) as board:
        comes_up_with_a_new_game(board, tmp_path)


def _flip(raw, data):
    at = data.draw(st.integers(0, len(raw) - 1))
    return raw[:at] + bytes([raw[at] ^ data.draw(st.integers(1, 255))]) + raw[at + 1:]


def _erase(raw, data):
    at = data.draw(st.integers(0, len(raw) - 1))
    return raw[:at] + b"\xff" * data.draw(st.integers(1, 64)) + raw[at + 1:]


def _cut(raw, data):
    return raw[:data.draw(st.integers(0, len(raw) - 1))]


def _append(raw, data):
    return raw + data.draw(st.binary(min_size=1, max_size=40))


def _noise(raw, data):
    return data.draw(st.binary(max_size=300))


def _huge(raw, data):
    return raw * data.draw(st.integers(10, 200))


DAMAGES = [_flip, _erase, _cut, _append, _noise, _huge]


def test_random_damage_to_the_save_never_stops_the_board(tmp_path):
    """Seeded: a byte flipped, a run erased to 0xFF, the file cut short, garbage after it,
    random bytes, the save repeated to any size. The checksum and the exact format catch
    every one of them: the board comes up, reports, sets it aside and plays a new game."""
    root = tmp_path / "flash"
    root.mkdir()
    pristine = saved_game(root)
    board = SimBoard(root=root)
    board.power_cut()
    seen = set()

    @seeded(60)
    @given(st.sampled_from(DAMAGES), st.data())
    def damaged(damage, data):
        damaged_raw = damage(pristine, data)
        if damaged_raw == pristine:
            return
        seen.add(damage.__name__)
        for name in ("game.sav", "game.bad"):
            if (root / name).exists():
                (root / name).unlink()
        (root / "game.sav").write_bytes(damaged_raw)
        board.received()
        board.power_on()
        comes_up_with_a_new_game(board, root)
        board.power_cut()
        board.power_on()                                  # and once more: no save_error now
        assert events(board, "save_error") == []
        board.power_cut()

    try:
        damaged()
    finally:
        board.close()
    assert seen == {d.__name__ for d in DAMAGES}


def test_an_undamaged_save_is_restored_and_kept(tmp_path):
    raw = saved_game(tmp_path)
    with SimBoard(root=tmp_path) as board:
        board.advance(50)
        sent = [m.get("event") for m in board.received()]
        assert "restored" in sent and "save_error" not in sent
        assert [iago.cell_name(c) for c in board.controller.game.move_stack] == ["E4", "E6"]
    assert (tmp_path / "game.sav").read_bytes() == raw


# --- the board map's checked copy -----------------------------------------------------------


def test_random_damage_to_the_checked_copy_rebuilds_it_from_the_map(tmp_path, monkeypatch):
    """The copy is read at every start; damaged in any way it is not read back (a wrong
    digit in a pin number is damage too: the copy carries a checksum) but checked again
    from board.json and rewritten, never a loop."""
    root = tmp_path / "flash"
    root.mkdir()
    copy = root / "board-checked.json"
    board = SimBoard(root=root)
    pristine = copy.read_bytes()
    board.power_cut()
    parse = boardmap.parse
    checks = []
    monkeypatch.setattr(boardmap, "parse", lambda text, path: checks.append(1) or
                        parse(text, path))

    @seeded(30)
    @given(st.sampled_from(DAMAGES), st.data())
    def damaged(damage, data):
        damaged_raw = damage(pristine, data)
        if damaged_raw == pristine:
            return
        copy.write_bytes(damaged_raw)
        del checks[:]
        board.power_on()                       # strict: any exception fails the test
        assert checks == [1]                   # checked again from the map ...
        assert copy.read_bytes() == pristine   # ... and the copy made again
        board.advance(1200)
        board.place("E4")
        assert board.command({"cmd": "state"})["state"]["moves"] == ["E4"]
        board.lift("E4")
        board.power_cut()
        board.power_on()
        assert checks == [1]                   # the next start reads the copy
        board.power_cut()

    try:
        damaged()
    finally:
        board.close()


def test_a_copy_in_the_old_format_without_a_checksum_is_made_again(tmp_path):
    shutil.copy(MAP, tmp_path / "board.json")
    bmap = boardmap.load(str(MAP))
    checkedmap.load(str(tmp_path / "board.json"), str(tmp_path / "copy.json"))
    body = (tmp_path / "copy.json").read_text().split("\n")[0]
    digest = json.loads(body)["sha256"]
    old = {"format": 1, "sha256": digest, "map": boardmap.checked_copy(bmap)}
    old["map"]["led_pin"] = 3                              # a flipped bit nobody would see
    (tmp_path / "copy.json").write_text(json.dumps(old))
    again = checkedmap.load(str(tmp_path / "board.json"), str(tmp_path / "copy.json"))
    assert isinstance(again, boardmap.BoardMap) and again.led_pin == bmap.led_pin


def test_a_copy_too_large_for_the_heap_is_not_read(tmp_path, monkeypatch):
    shutil.copy(MAP, tmp_path / "board.json")
    (tmp_path / "copy.json").write_bytes(b"[" * 200_000)
    real_open = open
    reads = []

    def watched(path, *args, **kwargs):
        if str(path).endswith("copy.json") and "w" not in (args[0] if args else "r"):
            reads.append(os.path.getsize(path))
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr("builtins.open", watched)
    bmap = checkedmap.load(str(tmp_path / "board.json"), str(tmp_path / "copy.json"))
    assert bmap.cells == 61                 # checked again: the large copy was never read ...
    assert reads and max(reads) < 3000      # ... only the one made again, read back once


# --- the board map itself ----------------------------------------------------------------


class Stop(BaseException):
    """Raised from a sleep hook: the test has seen enough (no firmware handler catches it)."""


@pytest.fixture(autouse=True)
def usbserial_port(usb_port):
    """Every test here writes the link to stdout."""


def stop_after(clock, ms):
    start = clock.ms

    def hook(clock):
        if clock.ms - start > ms:
            raise Stop()
    clock.sleep_hooks.append(hook)


def printed(out):
    return [json.loads(line) for line in out.getvalue().splitlines() if line.startswith("{")]


def test_random_damage_to_the_map_is_a_map_error_or_a_good_map(tmp_path):
    """build() raises nothing but BoardMapError for a map it cannot use, whatever the bytes:
    main() shows that as a fault, and never blames the map for anything else."""
    from gameboard import app
    pristine = MAP.read_bytes()
    path = tmp_path / "board.json"

    @seeded(40)
    @given(st.sampled_from(DAMAGES), st.data())
    def damaged(damage, data):
        path.write_bytes(damage(pristine, data))
        root = tmp_path / "flash"
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir()
        with fake_pico(boardmap.load(str(MAP))):
            try:
                app.build(str(root) + "/", str(path))
            except boardmap.BoardMapError as exc:
                assert str(exc).startswith("board map: ")

    damaged()


@pytest.mark.parametrize("content", [b"\xff" * 3000, b"{" * 300_000, b""],
                         ids=["erased", "too-large", "empty"])
def test_main_shows_an_unreadable_map_as_a_fault_not_a_loop(tmp_path, content):
    (tmp_path / "board.json").write_bytes(content)
    out = io.StringIO()
    with fake_pico() as (circuit, clock):
        stop_after(clock, 10_000)
        from gameboard import app
        with contextlib.redirect_stdout(out), pytest.raises(Stop):
            app.main(str(tmp_path) + "/", str(tmp_path / "board.json"))
        assert circuit.watchdog_resets == 0
    lines = printed(out)
    assert len(lines) >= 4 and all(m["event"] == "error" for m in lines)
    assert "board map" in lines[0]["error"] and "board.json" in lines[0]["error"]


# --- main(): a crash at start never loops ---------------------------------------------------


def start(circuit, root, cause=None):
    """One start of the Pico as main.py makes it; returns how it ended."""
    from gameboard import app
    if cause is not None:
        circuit.reset(cause)
    try:
        app.main(str(root) + "/", str(MAP))
    except SoftReset:
        return "soft reset"
    except MachineReset:
        return "reset"
    except Stop:
        return "stopped"
    return "returned"


def restarts_until_it_runs(circuit, clock, root, limit=8, cause=None, stop_ms=15_000):
    """Start (after a reset of `cause`, if given), then restart after every reset (at most
    `limit` starts); the board is stopped `stop_ms` after it last started. Returns how each
    start ended."""
    ends = []
    while len(ends) < limit:
        hooks = list(clock.sleep_hooks)
        stop_after(clock, stop_ms)
        ends.append(start(circuit, root, cause))
        clock.sleep_hooks[:] = hooks
        if ends[-1] != "reset":
            break
        cause = WDT_RESET
    return ends


@pytest.fixture
def pico(tmp_path):
    with fake_pico(boardmap.load(str(MAP))) as (circuit, clock):
        assert start(circuit, tmp_path) == "soft reset"    # the first start checks the map
        yield circuit, clock


def test_a_saved_game_that_crashes_every_start_is_set_aside(tmp_path, pico, monkeypatch):
    """The loop's exception restarts into the saved game; when that crashes again soon after
    each start, the second restart in a row sets the game aside (reported) and the board
    plays a new game."""
    circuit, clock = pico
    saved_game(tmp_path)
    from gameboard import controller
    tick = controller.Controller.tick

    def crashes_on_a_saved_game(self, now):
        if self.game.ply():
            raise ZeroDivisionError("a saved game the firmware cannot take")
        tick(self, now)
    monkeypatch.setattr(controller.Controller, "tick", crashes_on_a_saved_game)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ends = restarts_until_it_runs(circuit, clock, tmp_path)
    assert ends == ["reset"] * archive._SET_ASIDE_AFTER + ["stopped"]
    assert (tmp_path / "game.bad").exists() and not (tmp_path / "restarts").exists()
    reports = [m["error"] for m in printed(out) if m.get("event") == "save_error"]
    assert len(reports) == 1 and "set aside as game.bad" in reports[0]
    assert "ZeroDivisionError" in (tmp_path / "error.log").read_text()


def test_a_start_that_hangs_is_counted_like_a_crash(tmp_path, pico, monkeypatch):
    """A hang trips the watchdog, which no exception handler sees: counted all the same."""
    circuit, clock = pico
    saved_game(tmp_path)
    from gameboard import controller
    tick = controller.Controller.tick

    def hangs_on_a_saved_game(self, now):
        while self.game.ply():
            mptime.sleep_ms(100)                     # never feeds the watchdog
        tick(self, now)
    monkeypatch.setattr(controller.Controller, "tick", hangs_on_a_saved_game)
    ends = restarts_until_it_runs(circuit, clock, tmp_path)
    assert ends == ["reset"] * archive._SET_ASIDE_AFTER + ["stopped"]
    assert circuit.watchdog_resets == archive._SET_ASIDE_AFTER
    assert (tmp_path / "game.bad").exists()


def test_a_firmware_that_crashes_at_every_start_stops_with_a_fault(tmp_path, pico, monkeypatch):
    circuit, clock = pico
    from gameboard import controller

    def always(self, now):
        raise ZeroDivisionError("broken firmware")
    monkeypatch.setattr(controller.Controller, "tick", always)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ends = restarts_until_it_runs(circuit, clock, tmp_path)
    assert ends == ["reset"] * archive._STOP_AFTER + ["stopped"]
    faults = [m["error"] for m in printed(out) if m.get("event") == "error"]
    assert "restarted %d times in a row" % archive._STOP_AFTER in faults[-1]
    assert faults.count(faults[-1]) >= 2                     # repeated while it waits
    assert circuit.watchdog_resets == 0                      # the fault is no boot loop
    # A power cycle tries once more, and stops again at its first crash.
    with contextlib.redirect_stdout(out):
        ends = restarts_until_it_runs(circuit, clock, tmp_path, limit=2, cause=PWRON_RESET)
    assert ends == ["reset", "stopped"]


def test_a_start_that_lasts_ends_the_count(tmp_path, pico, monkeypatch):
    circuit, clock = pico
    from gameboard import controller
    tick = controller.Controller.tick
    crash_at = [clock.ms + 1000]

    def crashes_once(self, now):
        if crash_at[0] is not None and now >= crash_at[0]:
            crash_at[0] = None
            raise ZeroDivisionError("once")
        tick(self, now)
    monkeypatch.setattr(controller.Controller, "tick", crashes_once)
    assert start(circuit, tmp_path, None) == "reset"
    stop_after(clock, 12_000)
    assert start(circuit, tmp_path, WDT_RESET) == "stopped"
    assert not (tmp_path / "restarts").exists()              # 10 s in, the count is over


def test_the_repl_taking_over_soon_after_a_restart_ends_the_count(tmp_path, pico, monkeypatch):
    """`make deploy` twice within seconds interrupts the board (Ctrl-C) and resets it: no
    crash, so the saved game must not be set aside as if the start had failed."""
    circuit, clock = pico
    saved_game(tmp_path)
    from gameboard import app, controller
    tick = controller.Controller.tick
    interrupt_at = [clock.ms + 2000]

    def ctrl_c(self, now):
        if now >= interrupt_at[0]:
            raise KeyboardInterrupt()
        tick(self, now)
    monkeypatch.setattr(controller.Controller, "tick", ctrl_c)
    circuit.reset(WDT_RESET)                        # the first deploy's reset
    with pytest.raises(KeyboardInterrupt):
        app.main(str(tmp_path) + "/", str(MAP))
    assert not (tmp_path / "restarts").exists() and (tmp_path / "game.sav").exists()
    interrupt_at[0] = clock.ms + 2000
    circuit.reset(WDT_RESET)                        # mpremote's reset: machine.reset()
    with pytest.raises(KeyboardInterrupt):
        app.main(str(tmp_path) + "/", str(MAP))
    assert (tmp_path / "game.sav").exists() and not (tmp_path / "game.bad").exists()


def test_the_repl_taking_over_stops_the_watchdog(tmp_path, pico, monkeypatch):
    """Ctrl-C (mpremote, make repl) gives the board to the REPL: the watchdog must not reset
    it 4 s later, in the middle of a deploy's copy (seen on the emulated Pico: a chip reset
    4 s after mpremote's Ctrl-C)."""
    circuit, clock = pico
    saved_game(tmp_path)
    from gameboard import app, controller
    tick = controller.Controller.tick
    for after_ms in (2000, 15000):          # within the first 10 s of the start, and after

        def ctrl_c(self, now, at=clock.ms + after_ms):
            if now >= at:
                raise KeyboardInterrupt()
            tick(self, now)
        monkeypatch.setattr(controller.Controller, "tick", ctrl_c)
        circuit.reset(WDT_RESET)
        with pytest.raises(KeyboardInterrupt):
            app.main(str(tmp_path) + "/", str(MAP))
        assert circuit.watchdog_timeout_ms is None
        clock.advance(60_000)               # a minute at the REPL
        circuit.check_watchdog()            # no reset


def test_a_damaged_restart_count_counts_afresh(tmp_path, pico):
    circuit, clock = pico
    saved_game(tmp_path)
    (tmp_path / "restarts").write_bytes(b"\xff\xff\xff\xff")
    stop_after(clock, 3_000)
    assert start(circuit, tmp_path, WDT_RESET) == "stopped"
    assert (tmp_path / "restarts").read_text() == "1"
    assert (tmp_path / "game.sav").exists()


def test_random_bytes_in_the_restart_count_never_loop(tmp_path, pico):
    """The count is read at a start after a restart: whatever it holds, the board plays (the
    count taken afresh, or as a number) or stops with its fault; it never loops or crashes."""
    circuit, clock = pico
    path = tmp_path / "restarts"

    @seeded(25)
    @given(st.binary(max_size=12) | st.integers(-5, 10).map(lambda n: str(n).encode()))
    def damaged(content):
        path.write_bytes(content)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            ends = restarts_until_it_runs(circuit, clock, tmp_path, limit=1, cause=WDT_RESET,
                                          stop_ms=2_000)
        assert ends == ["stopped"] and circuit.watchdog_resets == 0
        errors = [m["error"] for m in printed(out) if m.get("event") == "error"]
        count = int(path.read_text())
        assert count >= 1 and bool(errors) == (count >= archive._STOP_AFTER)

    damaged()


def test_a_damaged_save_under_main_plays_instead_of_blaming_the_map(tmp_path, pico):
    """Bug: the damaged save's UnicodeError escaped build(), main() took it for a broken map
    and showed a fault while the watchdog, already started, reset the Pico: a boot loop."""
    circuit, clock = pico
    raw = saved_game(tmp_path)
    (tmp_path / "game.sav").write_bytes(raw[:5] + b"\xff" + raw[6:])
    out = io.StringIO()
    stop_after(clock, 5_000)
    with contextlib.redirect_stdout(out):
        assert start(circuit, tmp_path, PWRON_RESET) == "stopped"
    lines = printed(out)
    assert [m["event"] for m in lines if m["event"] in ("save_error", "error")] == ["save_error"]
    assert circuit.watchdog_resets == 0 and (tmp_path / "game.bad").exists()


# --- the crash log and the finished games ---------------------------------------------------


@pytest.mark.parametrize("content", [b"\xff" * 5000, b"x" * 500_000, b"ok\n\x80\n"],
                         ids=["erased", "huge", "bad-byte"])
def test_a_damaged_crash_log_is_still_written(tmp_path, content):
    (tmp_path / "error.log").write_bytes(content)
    archive.log_error(str(tmp_path) + "/", "Traceback: the newest crash\n")
    data = (tmp_path / "error.log").read_bytes()
    assert len(data) <= 4096 and data.endswith(b"Traceback: the newest crash\n")


def test_a_damaged_finished_game_is_refused_on_the_link(tmp_path):
    with SimBoard(root=tmp_path) as board:
        (tmp_path / "games" / "000001.iago").write_bytes(b"[Game \xff\n")
        assert board.command({"cmd": "games"})["games"] == [1]
        reply = board.command({"cmd": "game", "game": 1})
        assert reply["ok"] is False and "damaged" in reply["error"]
        assert board.command({"cmd": "ping"})["ok"] and board.restarts == 0


@pytest.mark.micropython
def test_under_micropython_damage_is_set_aside_and_wrong_settings_refused(tmp_path):
    """The same paths on the unix MicroPython VM, whose bool is no int and whose files and
    errors differ from CPython's."""
    import mpvm
    root = str(tmp_path) + "/"
    out = mpvm.run_unix("""
import os
import iago
from gameboard import archive, checkedmap
from gameboard.saves import SaveError, Saves
from gameboard.settings import Settings
for change in ({"palette": 1.0}, {"palette": True}, {"hints": 1}, {"rules": [1]}):
    try:
        Settings.from_dict(change)
        print("accepted")
    except ValueError as exc:
        print("refused:", exc)
saves = Saves(ROOT)
game = iago.Board()
game.play("E4")
saves.save(Settings(level=5), game, [])
raw = open(ROOT + "game.sav", "rb").read()
for bad in (raw[:3] + b"\\xff" + raw[4:], raw + b"x", b"\\xff" * 9000, raw):
    with open(ROOT + "game.sav", "wb") as f:
        f.write(bad)
    try:
        print("loaded", saves.load()[1].ply())
    except SaveError as exc:
        print("set aside:", str(exc).split("(")[1].split(")")[0])
checkedmap.load(MAP, ROOT + "copy.json")
with open(ROOT + "copy.json", "wb") as f:
    f.write(b"\\xff\\xfe")
print(type(checkedmap.load(MAP, ROOT + "copy.json")).__name__,
      type(checkedmap.load(MAP, ROOT + "copy.json")).__name__)
with open(ROOT + "error.log", "wb") as f:
    f.write(b"\\xff" * 5000)
archive.log_error(ROOT, "newest")
print(len(open(ROOT + "error.log", "rb").read()))
with open(ROOT + "restarts", "wb") as f:
    f.write(b"\\xff")
print(archive.count_restart(Saves(ROOT)), archive.count_restart(Saves(ROOT))[:30],
      open(ROOT + "restarts").read(), "game.bad" in os.listdir(ROOT))
""".replace("ROOT", repr(root)).replace("MAP", repr(str(MAP))), heap="512k")
    assert out.splitlines() == [
        "refused: palette is one of 0, 1, not 1.0",
        "refused: palette is one of 0, 1, not True",
        "refused: hints is one of False, True, not 1",
        "refused: rules is one of 'standard', 'loose', 'simple', 'loose+simple', not a list",
        "set aside: checksum mismatch",
        "set aside: checksum mismatch",
        "set aside: 9000 bytes, too large to be one",
        "loaded 1",
        "BoardMap CheckedMap",
        "4096",
        "None the firmware restarted 2 times 2 True",
    ]
