"""The other games of the family in the page: Othello, Io and the number line on a "table".

No physical board is simulated here: the page places a disk, the rules turn the enclosed ones
at once. One lock guards the game. The computer (iago.games.search, which searches a copy of
the board) thinks in its own thread in slices of SLICE_NODES without holding the lock, and takes
it only to play the move it chose: the server never waits for it, and any action in the
meantime (a placement, take back, a new game) makes the stale search give up. State goes to the
pages through the table's own Hub, so every tab shows the same game.

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
from host_sim.web.driver import Driver

SLICE_NODES = 200
DEMO_PAUSE_S = 0.8         # between the demo's placements, so people can follow
DEMO_RESTART_S = 4.0       # a finished demo game stays this long before the next one
TABLE_GAMES = ("othello", "io", "numberline")
# The page's game chooser: (value, label); "io:7x7" is the game and its rules.
CHOICES = (("iago", "Iago (simulated board)"), ("othello", "Othello"), ("io:7x7", "Io 7×7"),
           ("io:9x9", "Io 9×9"), ("numberline", "Number line"))
_CHOICE_NAMES = [c[0] for c in CHOICES]
LEVELS = (1, 2, 3, 4, 5)
SIDES = {"none": 0, "dark": iago.DARK, "light": iago.LIGHT}


class TableDriver(Driver):
    mode = "table"

    def __init__(self, hub, game="othello"):
        self.hub = hub
        self.lock = threading.Lock()
        self.generation = 0            # bumped by every action: a search of an older one stops
        self.closed = False
        self.computer = 0              # iago.DARK, iago.LIGHT or 0: the side the computer plays
        self.level = 3
        self.demo = False
        self.thinking = False
        self.want_suggestion = False
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
            raise self.unknown(action)
        with self.lock:
            result = func(body)
            self.generation += 1
            self._publish()
        self._maybe_think()
        return result

    def unknown(self, action):
        return ApiError(404, "unknown table action %r (%s)" % (action, ", ".join(self.actions)))

    def record(self):
        with self.lock:
            headers = [("Site", "Iago board page"), ("Date", time.strftime("%Y.%m.%d"))]
            if self.computer:
                headers.append(("Dark" if self.computer == iago.DARK else "Light",
                                "computer, level %d" % self.level))
            return record.write(self.board, headers)

    def close(self):
        with self.lock:
            self.closed = True
            self.generation += 1
            self.demo = False

    def describe(self):
        return "Othello, Io and the number line on the page's table"

    # --- actions ----------------------------------------------------------------------------

    def _new(self, body):
        name = api.field(body, "game", str, self.board.GAME, required=False)
        if name not in TABLE_GAMES:
            raise bad("unknown game %r: the table plays %s (Iago is played on the simulated "
                      "board, the page's first view)" % (name, ", ".join(TABLE_GAMES)))
        module = games.module(name)
        rules_name = api.field(body, "rules", str, None, required=False)
        try:
            rules = module.Rules.parse(rules_name) if rules_name else module.Board.default_rules()
        except iago.IagoError as exc:
            raise bad(str(exc))
        call = api.field(body, "call", str, None, required=False)
        if call is not None and not module.Board.COIN_TOSS:
            raise bad("only Othello starts with a coin toss")
        self.coin = None          # how the toss fell: kept for the page until the next game
        self.message = ""
        if call is None:
            board = module.new_board(rules)
        else:
            # The caller plays the side the computer does not (dark when nobody is computer).
            caller = (self.computer ^ 3) if self.computer else iago.DARK
            shows = module.COIN[os.urandom(1)[0] & 1]
            try:
                won = module.coin_toss(call, shows)
            except iago.IagoError as exc:
                raise bad("call heads or tails: %s" % exc)
            call = call.strip().lower()
            board = module.new_board(rules, first=caller if won else caller ^ 3)
            self.coin = {"caller": iago.side_name(caller), "call": call, "shows": shows,
                         "first": iago.side_name(board.turn)}
            self.message = "%s called %s, the coin shows %s: %s places first." % (
                _side(board, caller).capitalize(), call, shows, _side(board, board.turn))
        self.board = board
        self.demo = False
        self._reset_computer_state()
        return {"position": board.text(), "coin": self.coin}

    def _place(self, body):
        board = self.board
        text = api.field(body, "cell", str)
        self.demo = False
        if board.is_game_over():
            raise conflict("the game is over; start a new one")
        if self.computer == board.turn:
            raise conflict("it is the computer's turn (%s)" % _side(board, board.turn))
        try:
            cell = board.parse_move(text)
        except iago.IllegalMoveError as exc:
            raise conflict(str(exc))       # it names the cell and the legal ones
        except iago.IagoError as exc:
            raise bad(str(exc))
        self._push(cell)
        return {"position": board.text(), "flipped": _names(board, board.last_flips())}

    def _take_back(self, body):
        board = self.board
        if not board.move_stack:
            raise conflict("nothing to take back")
        self.demo = False
        board.pop()
        # Against the computer, take back to the person's turn.
        while self.computer and board.turn == self.computer and board.move_stack:
            board.pop()
        self._reset_computer_state()
        self.message = ""
        return {"position": board.text()}

    def _computer(self, body):
        side = api.field(body, "side", str, None, required=False)
        level = api.field(body, "level", int, None, required=False)
        if side is not None and side not in SIDES:
            raise bad("side must be none, dark or light, not %r" % side)
        if level is not None and level not in LEVELS:
            raise bad("level must be 1-5, not %d" % level)
        if side is not None:
            self.computer = SIDES[side]
        if level is not None:
            self.level = level
        self.want_suggestion = False
        return {"computer": side_name(self.computer), "level": self.level}

    def _suggest(self, body):
        board = self.board
        if board.is_game_over():
            raise conflict("the game is over")
        if self.demo or board.turn == self.computer:
            raise conflict("the computer is about to place for %s" % _side(board, board.turn))
        self.suggestion = None
        self.want_suggestion = True
        return {}

    def _demo(self, body):
        self.demo = api.flag(body, "on", True, required=False)
        self.want_suggestion = False
        self.suggestion = None
        if self.demo and self.board.is_game_over():
            self.board = self._fresh(self.board)
            self.coin = None
        return {"demo": self.demo}

    def _load(self, body):
        text = api.field(body, "record", str)
        try:
            game = record.parse(text)
            board = game.board()
        except iago.IagoError as exc:
            raise bad("record: %s" % exc)
        if board.GAME not in TABLE_GAMES:
            raise bad("an Iago record is replayed on the simulated board (the page's first "
                      "view), not on the table")
        self.board = board
        self.demo = False
        self.coin = None
        self._reset_computer_state()
        self.message = "Loaded: %d placements." % len(board.move_stack)
        return {"position": board.text(), "moves": len(board.move_stack)}

    # --- internals ----------------------------------------------------------------------------

    def _fresh(self, board):
        """A new game of the same game and rules (the demo's next game)."""
        return games.module(board.GAME).new_board(board.rules)

    def _reset_computer_state(self):
        self.want_suggestion = False
        self.suggestion = None

    def _push(self, cell):
        board = self.board
        mover = board.turn
        board.push(cell)
        self.suggestion = None
        self.want_suggestion = False
        self.message = ""
        if _passed(board, mover):
            self.message = "%s cannot place and passes." % _side(board, mover ^ 3).capitalize()
        elif board.is_game_over():
            self.message = _result_text(board)

    def _wanted_search(self):
        """'move' when the computer should place now, 'suggest' for a hint, else None."""
        board = self.board
        if self.closed or board.is_game_over():
            return None
        if self.demo or board.turn == self.computer:
            return "move"
        return "suggest" if self.want_suggestion else None

    def _maybe_think(self):
        with self.lock:
            if self.thinking:
                return
            if self._wanted_search() is None:
                if not (self.demo and self.board.is_game_over() and not self.closed):
                    return
            self.thinking = True
            generation = self.generation
            self._publish()
        threading.Thread(target=self._think, args=(generation,), daemon=True,
                         name="table-computer").start()

    def _think(self, generation):
        try:
            self._think_once(generation)
        finally:
            with self.lock:
                self.thinking = False
                self._publish()
        self._maybe_think()

    def _think_once(self, generation):
        with self.lock:
            if generation != self.generation:
                return
            if self.board.is_game_over():     # a finished demo game: the next one
                pause = DEMO_RESTART_S
            else:
                pause = DEMO_PAUSE_S if self.demo else 0
        if not self._sleep(pause, generation):
            return
        with self.lock:
            if generation != self.generation:
                return
            if self.board.is_game_over():
                self.board = self._fresh(self.board)
                self.coin = None
                self.generation += 1
                return
            kind = self._wanted_search()
            if kind is None:
                return
            search = games.search(self.board, self.level, seed=self.board.ply())
        # The search walks its own copy of the board: no lock while it thinks.
        while not search.step(SLICE_NODES):
            if generation != self.generation:
                return
            time.sleep(0)       # let the HTTP threads in between slices
        with self.lock:
            if generation != self.generation:
                return
            move = search.best()
            if kind == "suggest":
                self.suggestion = self.board.grid.cell_name(move)
                self.want_suggestion = False
            else:
                self._push(move)
            self.generation += 1

    def _sleep(self, seconds, generation):
        """Sleep, but wake early (returning False) when an action made this search stale."""
        deadline = time.monotonic() + seconds
        while generation == self.generation:
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            time.sleep(min(left, 0.05))
        return False

    def _publish(self):
        board = self.board
        grid = board.grid
        outcome = board.outcome()
        stack = board.move_stack
        choice = board.GAME + ":" + board.rules.name()    # a game whose rules are chosen here
        if choice not in _CHOICE_NAMES:
            choice = board.GAME
        state = {
            "mode": "table",
            "game": board.GAME,
            "choice": choice,
            "choices": [list(c) for c in CHOICES],
            "title": games.module(board.GAME).TITLE,
            "rules": board.rules.name(),
            "grid": {"kind": board.KIND,
                     "size": grid.size, "cells": grid.CELLS,
                     "names": _names(board, range(grid.CELLS))},
            "cells": list(board.cells()),
            "position": board.text(),
            "turn": side_name(board.turn),
            "side_names": {"dark": board.SIDE_NAMES[iago.DARK],
                           "light": board.SIDE_NAMES[iago.LIGHT]},
            "legal": _names(board, board.legal_moves),
            "moves": _names(board, stack),
            "history": _history(board),
            "last": grid.cell_name(stack[-1]) if stack else None,
            "flipped": _names(board, board.last_flips()),
            "scores": list(board.scores()),
            "phase": None,
            "bound_to": None,
            "outcome": None if outcome is None else {
                # 'draw' for a drawn game, as the board's own outcome says (not the
                # computer setting's 'none')
                "winner": iago.side_name(outcome.winner), "dark": outcome.dark_score,
                "light": outcome.light_score, "result": outcome.result()},
            "computer": side_name(self.computer),
            "level": self.level,
            "demo": self.demo,
            "thinking": self.thinking,
            "suggestion": self.suggestion,
            "message": self.message,
            "coin": self.coin,
        }
        module = games.module(board.GAME)
        if hasattr(module, "PHASE_NAMES"):          # a game that passes through phases (Io)
            state["phase"] = module.PHASE_NAMES[board.phase]
            if board.phase == module.BOUND:
                state["bound_to"] = grid.cell_name(board.anchor)
        self.hub.publish_state(state)


def side_name(side):
    """'dark', 'light', or 'none' for 0 (nobody, in the computer's setting)."""
    return iago.side_name(side) if side else "none"


def _side(board, side):
    """'black (dark)': the game's own name of a side, then the API's."""
    return "%s (%s)" % (board.SIDE_NAMES[side], iago.side_name(side))


def _names(board, cells):
    name = board.grid.cell_name
    return [name(c) for c in cells]


def _passed(board, mover):
    """Whether the placement just pushed by `mover` made the opponent pass (in a game with
    passes: in Io the same side places twice in a turn by the rules)."""
    return board.PASSES and board.turn == mover and not board.is_game_over()


def _history(board):
    """Each placement with its side and how many disks it turned, and whether the opponent
    had to pass after it, replayed from the start."""
    replay = type(board)(board.start_text, board.rules)
    out = []
    for cell in board.move_stack:
        mover = replay.turn
        replay.push(cell)
        out.append({"cell": replay.grid.cell_name(cell), "side": iago.side_name(mover),
                    "flips": len(replay.last_flips()), "pass": _passed(replay, mover)})
    return out


def _result_text(board):
    outcome = board.outcome()
    if outcome.winner == iago.EMPTY:
        return "The game is over: a draw, %d-%d." % (outcome.dark_score, outcome.light_score)
    return "The game is over: %s wins, %d-%d." % (_side(board, outcome.winner),
                                                   outcome.dark_score, outcome.light_score)
