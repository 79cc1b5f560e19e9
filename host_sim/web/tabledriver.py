"""The other games of the family in the page: Othello, Io and the number line on a "table".

No physical board is simulated here: the page places a disk, the rules turn the enclosed ones
at once. One lock guards the game; the computer (iago.games.search) thinks in its own thread in
slices of SLICE_NODES, taking the lock only to look and to move, so the server never blocks and
a new action simply makes a stale search give up. State goes to pages through its own Hub.

Actions (POST /api/table/ACTION, JSON in and out; docs/web.md): new, place, take-back,
computer, suggest, demo, load.
"""

import os
import threading
import time

import iago
from iago import games, record

from host_sim.web import api
from host_sim.web.api import ApiError, bad, conflict

SLICE_NODES = 200
DEMO_PAUSE_S = 1.0
TABLE_GAMES = ("othello", "io", "numberline")
LEVELS = (1, 2, 3, 4, 5)


class TableDriver:
    mode = "table"

    def __init__(self, hub, game="othello"):
        self.hub = hub
        self.lock = threading.Lock()
        self.generation = 0
        self.computer = 0              # iago.DARK, iago.LIGHT or 0: the side the computer plays
        self.level = 3
        self.demo = False
        self.thinking = False
        self.suggestion = None
        self.message = ""
        self.coin = None
        self.actions = {"new": self._new, "place": self._place, "take-back": self._take_back,
                        "computer": self._computer, "suggest": self._suggest,
                        "demo": self._demo, "load": self._load}
        self.board = games.module(game).new_board()
        self._publish()

    # --- the server's side ------------------------------------------------------------------

    def handle(self, action, body):
        func = self.actions.get(action)
        if func is None:
            raise ApiError(404, "unknown table action %r (%s)" % (action, ", ".join(self.actions)))
        with self.lock:
            result = func(body)
            self.generation += 1
            self._publish()
        self._maybe_think()
        return result

    def record(self):
        with self.lock:
            return record.write(self.board, [("Site", "Iago board page"),
                                             ("Date", time.strftime("%Y.%m.%d"))])

    def close(self):
        with self.lock:
            self.generation += 1
            self.demo = False

    # --- actions ----------------------------------------------------------------------------

    def _new(self, body):
        name = api.field(body, "game", str, self.board.GAME, required=False)
        if name not in TABLE_GAMES:
            raise bad("unknown game %r (the page plays %s here; Iago is on the board)"
                      % (name, ", ".join(TABLE_GAMES)))
        module = games.module(name)
        rules_name = api.field(body, "rules", str, None, required=False)
        try:
            rules = module.Rules.parse(rules_name) if rules_name else module.Board.default_rules()
        except iago.IagoError as exc:
            raise bad(str(exc))
        self.coin = None
        self.message = ""
        if name == "othello":
            call = api.field(body, "call", str, None, required=False)
            if call is None:
                board = module.new_board(rules)
            else:
                if call not in module.COIN:
                    raise bad("call heads or tails, not %r" % call)
                # The caller plays the side the computer does not (dark with no computer).
                caller = (self.computer ^ 3) if self.computer else iago.DARK
                self.coin = module.COIN[os.urandom(1)[0] & 1]
                won = module.coin_toss(call, self.coin)
                board = module.new_board(rules, first=caller if won else caller ^ 3)
                self.message = "The coin shows %s: %s places first." % (
                    self.coin, iago.side_name(board.turn))
        else:
            board = module.new_board(rules)
        self.board = board
        self.suggestion = None
        self.demo = False
        return {"position": board.text()}

    def _place(self, body):
        if self.demo:
            self.demo = False
        board = self.board
        text = api.field(body, "cell", str)
        if board.is_game_over():
            raise conflict("the game is over; start a new one")
        if self.computer == board.turn:
            raise conflict("it is the computer's turn (%s)" % iago.side_name(board.turn))
        try:
            cell = board.parse_move(text)
        except iago.IagoError as exc:
            raise conflict(str(exc)) if isinstance(exc, iago.IllegalMoveError) else bad(str(exc))
        self._push(cell)
        return {"position": board.text()}

    def _take_back(self, body):
        board = self.board
        if not board.move_stack:
            raise conflict("nothing to take back")
        board.pop()
        # Against the computer, take back to the human's turn.
        while self.computer and board.turn == self.computer and board.move_stack:
            board.pop()
        self.suggestion = None
        self.message = ""
        return {"position": board.text()}

    def _computer(self, body):
        side = api.field(body, "side", str, None, required=False)
        if side is not None:
            if side not in ("none", "dark", "light"):
                raise bad("side must be none, dark or light, not %r" % side)
            self.computer = {"none": 0, "dark": iago.DARK, "light": iago.LIGHT}[side]
        level = api.field(body, "level", int, None, required=False)
        if level is not None:
            if level not in LEVELS:
                raise bad("level must be 1-5, not %d" % level)
            self.level = level
        return {"computer": iago.side_name(self.computer) if self.computer else "none",
                "level": self.level}

    def _suggest(self, body):
        if self.board.is_game_over():
            raise conflict("the game is over")
        self.suggestion = "?"
        return {}

    def _demo(self, body):
        self.demo = api.flag(body, "on", True, required=False)
        return {"demo": self.demo}

    def _load(self, body):
        text = api.field(body, "record", str)
        try:
            game = record.parse(text)
            board = game.board()
        except iago.IagoError as exc:
            raise bad("record: %s" % exc)
        if board.GAME not in TABLE_GAMES:
            raise bad("an Iago record is replayed on the board page, not here")
        self.board = board
        self.demo = False
        self.suggestion = None
        return {"position": board.text(), "moves": len(board.move_stack)}

    # --- internals ----------------------------------------------------------------------------

    def _push(self, cell):
        board = self.board
        mover = board.turn
        board.push(cell)
        self.suggestion = None
        self.message = ""
        if not board.is_game_over() and board.turn == mover and board.GAME == "othello":
            self.message = "%s cannot place and passes." % iago.side_name(mover ^ 3)

    def _wants_move(self):
        board = self.board
        if board.is_game_over():
            return False
        return self.demo or board.turn == self.computer or self.suggestion == "?"

    def _maybe_think(self):
        with self.lock:
            if self.thinking or not self._wants_move():
                return
            self.thinking = True
            generation = self.generation
            self._publish()
        threading.Thread(target=self._think, args=(generation,), daemon=True).start()

    def _think(self, generation):
        try:
            if self.demo:
                time.sleep(DEMO_PAUSE_S)
            with self.lock:
                if generation != self.generation:
                    return
                board = self.board
                suggest = self.suggestion == "?" and not self.demo and board.turn != self.computer
                search = games.search(board, self.level, seed=board.ply())
            while True:
                with self.lock:
                    if generation != self.generation:
                        return
                    if search.step(SLICE_NODES):
                        move = search.best()
                        if suggest:
                            self.suggestion = board.grid.cell_name(move)
                        else:
                            self._push(move)
                        self.generation += 1
                        break
                time.sleep(0)
        finally:
            with self.lock:
                self.thinking = False
                self._publish()
        self._maybe_think()

    def _publish(self):
        board = self.board
        grid = board.grid
        name = grid.cell_name
        outcome = board.outcome()
        stack = board.move_stack
        state = {
            "mode": "table",
            "game": board.GAME,
            "title": games.module(board.GAME).TITLE,
            "rules": board.rules.name(),
            "grid": {"kind": "line" if board.GAME == "numberline" else "square",
                     "size": grid.size, "cells": grid.CELLS,
                     "names": [name(c) for c in range(grid.CELLS)]},
            "cells": list(board.cells()),
            "position": board.text(),
            "turn": iago.side_name(board.turn),
            "side_names": {"dark": board.SIDE_NAMES[iago.DARK], "light": board.SIDE_NAMES[iago.LIGHT]},
            "legal": [name(c) for c in board.legal_moves],
            "moves": [name(c) for c in stack],
            "last": name(stack[-1]) if stack else None,
            "flipped": [name(c) for c in board.last_flips()],
            "scores": list(board.scores()),
            "phase": ("first", "bound", "free", "single")[board.phase] if hasattr(board, "phase") else None,
            "outcome": None if outcome is None else {
                "winner": iago.side_name(outcome.winner), "dark": outcome.dark_score,
                "light": outcome.light_score, "result": outcome.result()},
            "computer": iago.side_name(self.computer) if self.computer else "none",
            "level": self.level,
            "demo": self.demo,
            "thinking": self.thinking,
            "suggestion": self.suggestion if self.suggestion != "?" else None,
            "message": self.message,
            "coin": self.coin,
        }
        self.hub.publish_state(state)

    def describe(self):
        return "Othello, Io and the number line on the page's table"
