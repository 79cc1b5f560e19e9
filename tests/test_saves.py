"""Saved games: atomic, checked, resumable; damage is set aside, never a crash."""

import os

import pytest

import iago
from gameboard import archive
from gameboard.archive import _KEEP_FINISHED as KEEP_FINISHED
from gameboard.saves import SaveError, Saves
from gameboard.settings import Settings


def played(rules="standard+penalty", moves=("D4", "D5", "B2")):
    game = iago.Board(rules=iago.Rules.parse(rules))
    for name in moves:
        game.play(name)
    return game


def test_save_and_load_round_trip_with_claims_and_pending_flips(tmp_path):
    saves = Saves(str(tmp_path))
    settings = Settings(rules="standard", penalty=True, hints=False, brightness=1, palette=1)
    game = played()
    assert game.claim_penalty()                       # dark missed the capture on D6
    game.play("A1")
    saves.save(settings, game, [iago.parse_cell("D5")])
    loaded_settings, loaded, flips = saves.load()
    assert loaded_settings == settings
    assert loaded.text() == game.text()
    assert loaded.move_stack == game.move_stack and loaded.claims == game.claims
    assert flips == [iago.parse_cell("D5")]
    assert os.listdir(tmp_path) == ["games", "game.sav"] or sorted(os.listdir(tmp_path)) == [
        "game.sav", "games"]                          # one line, written in place: no tmp file
    assert len((tmp_path / "game.sav").read_bytes()) < 120


def test_a_save_line_stays_inline_in_littlefs_for_the_longest_games(tmp_path):
    """littlefs keeps a file of up to about 512 B in its directory's metadata: rewriting it
    seldom erases a sector (docs/benchmarks.md). The longest games, every claim and flip
    pending, stay well under that."""
    from iago import games
    saves = Saves(str(tmp_path))
    longest = 0
    for name in ("iago", "othello", "io", "numberline"):
        game = (iago.Board(rules=iago.Rules.parse("standard+penalty")) if name == "iago" else
                games.module(name).new_board(None))
        while not game.is_game_over():
            game.push(list(game.legal_moves)[0])
        flips = [c for c in range(len(game.cell_states)) if game.cell_states[c]][:20]
        game.claims = list(range(0, game.ply(), 2))
        saves.save(Settings(rules="standard", penalty=True), game, flips)
        longest = max(longest, len((tmp_path / "game.sav").read_bytes()))
    assert longest < 480, longest


def test_no_save_is_none(tmp_path):
    assert Saves(str(tmp_path)).load() is None


@pytest.mark.parametrize("damage", [
    lambda text: text.replace("|iago|", "|IAGO|"),    # content changed: checksum fails
    lambda text: text[: len(text) // 2],              # cut short
    lambda text: "",                                  # empty file
    lambda text: text.rsplit("|", 1)[0] + "\n",      # no checksum
    lambda text: "\x00\xff garbage|00000000\n",      # noise
])
def test_damaged_save_is_set_aside_and_reported(tmp_path, damage):
    saves = Saves(str(tmp_path))
    saves.save(Settings(), played("standard", ("D4", "D5")), [])
    path = tmp_path / "game.sav"
    path.write_text(damage(path.read_text()))
    with pytest.raises(SaveError) as info:
        saves.load()
    assert "set aside as game.bad" in str(info.value)
    assert (tmp_path / "game.bad").exists() and not path.exists()
    assert saves.load() is None                       # the board starts afresh


def test_a_checksummed_but_illegal_move_list_is_damage_too(tmp_path):
    import json
    from binascii import crc32
    body = json.dumps({"format": 1, "settings": {}, "start": iago.STARTING_TEXT,
                       "moves": ["E5"], "claims": [], "flips": []})
    (tmp_path / "game.json").write_text(body + "\ncrc %08x\n" % crc32(body.encode()))
    with pytest.raises(SaveError) as info:
        Saves(str(tmp_path)).load()
    assert "E5" in str(info.value)


def test_a_save_of_older_firmware_is_read_and_replaced_by_the_first_save(tmp_path):
    """Firmware 0.4 kept game.json (JSON, then a crc line, written to game.tmp and renamed):
    a board updated mid-game resumes it, and its first save replaces it."""
    import json
    from binascii import crc32
    body = json.dumps({"format": 1, "settings": {"hints": False}, "start": iago.STARTING_TEXT,
                       "moves": ["E4", "E6"], "claims": [], "flips": ["E4"]})
    (tmp_path / "game.json").write_text(body + "\ncrc %08x\n" % crc32(body.encode()))
    (tmp_path / "game.tmp").write_text('{"format": 1, "moves": ["E4", "E')   # a torn one
    saves = Saves(str(tmp_path))
    settings, game, flips = saves.load()
    assert settings == Settings(hints=False) and game.ply() == 2
    assert flips == [iago.parse_cell("E4")]
    saves.save(settings, game, flips)
    assert not (tmp_path / "game.json").exists()
    assert Saves(str(tmp_path)).load()[1].move_stack == game.move_stack


def finished(rules="standard", pick=0):
    game = iago.Board(rules=iago.Rules.parse(rules))
    while not game.is_game_over():
        moves = sorted(game.legal_moves)
        game.push(moves[pick % len(moves)])
        pick += 1
    return game


def test_finished_games_keep_the_last_twenty(tmp_path):
    saves = Saves(str(tmp_path))
    games = [finished(pick=n) for n in range(KEEP_FINISHED + 3)]
    for game in games:
        archive.save_finished(saves, game)
    assert archive.save_finished(saves, games[-1]) == KEEP_FINISHED + 3
    ids = archive.finished_ids(saves)        # the same game again is kept once
    assert ids == list(range(4, KEEP_FINISHED + 4))
    from iago import record
    for game_id in (ids[0], ids[-1]):
        text = archive.read_finished(saves, game_id)
        assert record.parse(text).board().move_stack == games[game_id - 1].move_stack
    with pytest.raises(KeyError):
        archive.read_finished(saves, 1)
    assert len(os.listdir(tmp_path / "games")) == KEEP_FINISHED


def test_a_finished_game_is_kept_as_its_line_and_written_as_a_record_when_asked(tmp_path):
    """The record writer is loaded only when a host asks for the record, not at a game's end
    (its interned names would stay in the heap of every later game); the rules go with it."""
    saves = Saves(str(tmp_path))
    game = finished("loose+simple", pick=3)
    game_id = archive.save_finished(saves, game, Settings(rules="loose+simple"))
    kept = (tmp_path / "games" / ("%06d.sav" % game_id)).read_text()
    assert kept == saves.line(Settings(rules="loose+simple"), game)
    from iago import record
    parsed = record.parse(archive.read_finished(saves, game_id))
    assert parsed.board().rules == game.rules and parsed.board().text() == game.text()


def test_records_of_older_firmware_are_read_as_they_are(tmp_path):
    saves = Saves(str(tmp_path))
    from iago import record
    text = record.write(finished())
    (tmp_path / "games" / "000007.iago").write_text(text)
    assert archive.finished_ids(saves) == [7]
    assert archive.read_finished(saves, 7) == text
    assert archive.save_finished(saves, finished(pick=1)) == 8
    assert archive.finished_ids(saves) == [7, 8]


def test_error_log_keeps_the_newest_part(tmp_path):
    saves = Saves(str(tmp_path))
    archive.log_error(saves, "a" * 3000, limit=4096)
    archive.log_error(saves, "b" * 3000, limit=4096)
    text = (tmp_path / "error.log").read_text()
    assert len(text) == 4096 and text.endswith("b" * 3000)


@pytest.mark.micropython
def test_a_finished_game_is_kept_and_its_writer_forgotten_under_micropython(tmp_path):
    """archive is used at a game's end and dropped after (gameboard.forget), so its code takes
    no heap in the next game, and the record writer is not even loaded; on CPython nothing is
    dropped."""
    import mpvm
    program = """
import gc, sys
import iago, gameboard
from gameboard.saves import Saves
saves = Saves(%r)
game = iago.Board()
while not game.is_game_over():
    game.push(list(game.legal_moves)[0])
gc.collect()
before = gc.mem_alloc()
from gameboard import archive
game_id = archive.save_finished(saves, game)
if %r:
    gameboard.forget("gameboard.archive", "iago.record")
del archive
gc.collect()
print(game_id, "iago.record" in sys.modules, "gameboard.archive" in sys.modules,
      "gameboard.savedgame" in sys.modules, hasattr(gameboard, "archive"),
      gc.mem_alloc() - before)
"""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    kept = mpvm.run_unix(program % (str(tmp_path / "a"), False), heap="512k").split()
    forgot = mpvm.run_unix(program % (str(tmp_path / "b"), True), heap="512k").split()
    assert kept[:5] == ["1", "False", "True", "False", "True"]
    assert forgot[:5] == ["1", "False", "False", "False", "False"]
    assert int(kept[5]) - int(forgot[5]) > 1500      # the archive's code given back
    import sys

    import gameboard
    gameboard.forget("gameboard.saves")
    assert "gameboard.saves" in sys.modules
