"""Game records and scores from a board's state (the `state` of docs/protocol.md)."""

import os
import time
from pathlib import Path

import iago
from iago import games, record

from host_sim.web.api import bad


def _module(state):
    """The rules module of the game a board state is of (Iago when the state does not say)."""
    return games.module(state.get("game") or "iago")


def side_names(game):
    """The game's own names of its sides, {"dark": "black", ...} (Iago's are dark and light)."""
    names = getattr(games.module(game), "SIDE_NAMES", None) or {}
    return {"dark": names.get(iago.DARK, "dark"), "light": names.get(iago.LIGHT, "light")}


def position_board(state):
    """The position of a board state, without its history."""
    module = _module(state)
    return module.Board(state["position"], module.Rules.parse(state["rules"]))


def board_of(state):
    """The game of a board state replayed on its game's board (moves, claims, rules) from the
    state's `start` (the game's usual start for a board that does not send it)."""
    module = _module(state)
    board = module.Board(state.get("start"), module.Rules.parse(state["rules"]))
    _replay(board, state)
    return board


def _replay(board, state):
    claims = set(state.get("claims") or ())
    for ply, move in enumerate(state["moves"]):
        if ply in claims:
            board.claim_penalty()
        board.play(move)
    if len(state["moves"]) in claims:
        board.claim_penalty()


_MOVERS = {}


def movers(state):
    """The side ("dark" / "light") that made each placement of `state`'s game: in Othello a pass
    and the coin toss break the alternation, in Io a side places twice a turn, in Iago the sides
    alternate from dark. Cached, as the simulated board publishes its state many times a
    second."""
    key = (state.get("game"), state.get("start"), state["rules"], state["position"],
           tuple(state["moves"]))
    found = _MOVERS.get(key)
    if found is None:
        board = board_of(state)
        replay = type(board)(board.start_text, board.rules)
        found = []
        for cell in board.move_stack:
            found.append(iago.side_name(replay.turn))
            replay.push(cell)
        if len(_MOVERS) > 64:
            _MOVERS.clear()
        _MOVERS[key] = found
    return found


def record_text(state, site="Iago board"):
    """The game record (docs/rules.md) of the game in `state`: its moves, never a tentative
    placement (a disk that may yet slide on)."""
    headers = [("Site", site), ("Date", time.strftime("%Y.%m.%d"))]
    board = board_of(state)
    if state.get("tentative") and board.ply():
        board.pop()
    return record.write(board, headers)


def areas(state):
    """Each side's face-up disks as [inner, outer], and how the rules score them (Iago; None
    for the games that count disks)."""
    board = position_board(state)
    if not hasattr(board, "area_counts"):
        return None
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
