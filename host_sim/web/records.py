"""Game records and scores from a board's state (the `state` of docs/protocol.md)."""

import os
import time
from pathlib import Path

import iago
from iago import record

from host_sim.web.api import bad


def board_of(state):
    """The game of a board state replayed on an iago.Board (moves, claims, rules)."""
    board = iago.Board(rules=iago.Rules.parse(state["rules"]))
    claims = set(state.get("claims") or ())
    for ply, move in enumerate(state["moves"]):
        if ply in claims:
            board.claim_penalty()
        board.play(move)
    if len(state["moves"]) in claims:
        board.claim_penalty()
    return board


def record_text(state, site="Iago board"):
    """The game record (docs/rules.md) of the game in `state`."""
    headers = [("Site", site), ("Date", time.strftime("%Y.%m.%d"))]
    return record.write(board_of(state), headers)


def areas(state):
    """Each side's face-up disks as [inner, outer], and how the rules score them."""
    board = iago.Board(state["position"], iago.Rules.parse(state["rules"]))
    return {
        "dark": list(board.area_counts(iago.DARK)),
        "light": list(board.area_counts(iago.LIGHT)),
        "scoring": "count" if board.rules.scoring == iago.COUNT else "product",
    }


def parse_for_replay(text):
    """A record to replay on the board: parsed, checked, from the empty board."""
    if not isinstance(text, str) or not text.strip():
        raise bad("the record is empty")
    try:
        game = record.parse(text)
    except iago.IagoError as exc:
        raise bad("not a valid game record: %s" % exc)
    if game.header("Position") not in (None, iago.STARTING_TEXT):
        raise bad("this record starts from a set-up position; the board can replay only games "
                  "that start on the empty board")
    return game


def default_games_dir():
    """Where finished games are kept: $XDG_DATA_HOME/iago/games (~/.local/share/iago/games)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "iago" / "games"


def keep_finished(games_dir, text, board_name, game_id):
    """Write a finished game's record into `games_dir`; returns its path."""
    folder = Path(games_dir)
    folder.mkdir(parents=True, exist_ok=True)
    stem = "%s-%s-game%s" % (time.strftime("%Y%m%d-%H%M%S"), _safe(board_name), game_id)
    path = folder / (stem + ".iago")
    n = 1
    while path.exists():
        n += 1
        path = folder / ("%s-%d.iago" % (stem, n))
    path.write_text(text, encoding="utf-8")
    return path


def _safe(name):
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in str(name or "board"))
