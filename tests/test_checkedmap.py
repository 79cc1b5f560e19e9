"""The board map is checked once and read back from its checked copy at later starts
(gameboard/checkedmap.py): the checker's code stays off the Pico's heap, yet an edited map, a
new checker or a damaged copy is checked again."""

import json
import shutil

import pytest

import mpvm
from gameboard import boardmap, checkedmap
from mpvm import ROOT

MAPS = [ROOT / "hardware" / "board.json", ROOT / "hardware" / "boards" / "square9.json"]


def entries(bmap):
    return {name: getattr(bmap, name) for name in boardmap.FIELDS}


@pytest.fixture
def flash(tmp_path):
    shutil.copy(MAPS[0], tmp_path / "board.json")
    return tmp_path


def load(flash):
    return checkedmap.load(str(flash / "board.json"), str(flash / "board-checked.json"))


def refuse_checking(monkeypatch):
    def parse(text, path):
        raise AssertionError("the map was checked again")
    monkeypatch.setattr(boardmap, "parse", parse)


@pytest.mark.parametrize("path", MAPS)
def test_the_checked_copy_reads_back_as_the_checked_map(tmp_path, monkeypatch, path):
    checked = boardmap.load(str(path))
    assert set(vars(checked)) == set(boardmap.FIELDS)    # nothing left out of the copy
    shutil.copy(path, tmp_path / "board.json")
    first = load(tmp_path)
    assert isinstance(first, boardmap.BoardMap) and entries(first) == entries(checked)
    refuse_checking(monkeypatch)
    again = load(tmp_path)
    assert isinstance(again, checkedmap.CheckedMap)
    assert entries(again) == entries(checked)
    for name, value in entries(checked).items():
        assert type(getattr(again, name)) is type(value), name


def test_an_edited_map_is_checked_again_and_its_mistake_reported(flash):
    load(flash)
    data = json.loads((flash / "board.json").read_text())
    data["cells"]["B1"]["led"] = 0
    (flash / "board.json").write_text(json.dumps(data))
    with pytest.raises(boardmap.BoardMapError, match="A1 and B1 both use LED 0"):
        load(flash)


def test_a_new_checker_checks_the_map_again(flash, monkeypatch):
    load(flash)
    calls = []
    parse = boardmap.parse
    monkeypatch.setattr(boardmap, "parse", lambda text, path: calls.append(path) or
                        parse(text, path))
    monkeypatch.setattr(checkedmap, "_checker", lambda: b"another firmware's checker")
    assert isinstance(load(flash), boardmap.BoardMap) and len(calls) == 1
    assert isinstance(load(flash), checkedmap.CheckedMap) and len(calls) == 1


@pytest.mark.parametrize("damage", ['{"format": 1, "sha256": "', "[]", '{"format": 2}', ""])
def test_a_damaged_copy_is_checked_again_and_replaced(flash, monkeypatch, damage):
    load(flash)
    (flash / "board-checked.json").write_text(damage)
    assert isinstance(load(flash), boardmap.BoardMap)
    refuse_checking(monkeypatch)
    assert isinstance(load(flash), checkedmap.CheckedMap)


def test_no_room_for_the_copy_still_gives_the_map(flash):
    bmap = checkedmap.load(str(flash / "board.json"), str(flash / "no-such-dir" / "copy.json"))
    assert bmap.cells == 61 and not (flash / "no-such-dir").exists()


@pytest.mark.micropython
def test_under_micropython_the_second_start_reads_the_copy_without_the_checker(flash):
    out = mpvm.run_unix("""
import sys
from gameboard import checkedmap
first = checkedmap.load(%r, %r)
del sys.modules["gameboard.boardmap"]
again = checkedmap.load(%r, %r)
print(type(first).__name__, type(again).__name__, "gameboard.boardmap" in sys.modules)
print(first.cell_of_crossing == again.cell_of_crossing, first.row_pins == again.row_pins,
      type(again.led_of_cell).__name__, again.buttons == first.buttons)
""" % ((str(flash / "board.json"), str(flash / "board-checked.json")) * 2), heap="512k")
    assert out.split() == ["BoardMap", "CheckedMap", "False", "True", "True", "bytearray",
                           "True"]
