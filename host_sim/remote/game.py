"""The game two hosts agree on, from the views each publishes of it (docs/remote.md).

Each side's host publishes its *view*, retained on the broker: the game's setup, the moves as
it has them, the take-back it asks for or answers, whether it resigned, its board's result,
and `seq`, which only grows. A view is a whole state, not a delta: a message lost, duplicated,
delayed or reordered is never a move lost or played twice, since the next view carries all of
it, and a view older than the last one seen from that side is ignored.

What a view may change is checked against the rules: the moves it adds must be its own side's,
each at its turn and legal, after the moves agreed; anything else is refused and reported,
never played. Take-backs are agreed: one side asks (`ask`: back to `to` moves, in `epoch`),
the other answers with the moves cut back and `epoch` one higher; only an answer to the ask
made is taken.
"""

import time

import iago
from iago import games

from host_sim.remote.codes import SIDES

# A simulated board's virtual-time `time` (host_sim/simboard.py) is not the hosts' time.
time = getattr(time, "_host_time", time)

VIEW_FIELDS = ("game", "side", "seq", "epoch", "ply", "moves", "setup", "ask", "answer",
               "resigned", "result", "at")
GAMES = ("iago", "othello", "io")           # the games a board referees


class Refused(ValueError):
    """A view, or a move of it, that is not taken: the reason in words."""


def other(side):
    return SIDES[1 - SIDES.index(side)]


def check_setup(setup):
    """The setup of a game (its game, rules and start), checked; Refused if it is not one a
    board can play."""
    if not isinstance(setup, dict):
        raise Refused("no game setup")
    game, rules, start = setup.get("game"), setup.get("rules"), setup.get("start")
    if game not in GAMES:
        raise Refused("unknown game %r" % (game,))
    if not isinstance(rules, str) or not isinstance(start, str):
        raise Refused("a setup names its rules and start")
    module = games.module(game)
    try:
        board = module.Board(start, module.Rules.parse(rules))
    except (iago.IagoError, ValueError) as exc:
        raise Refused("a setup the rules refuse: %s" % exc)
    if board.ply() or "penalty" in rules:
        raise Refused("remote games start from an empty board, without the penalty option")
    return {"game": game, "rules": rules, "start": start}


class AgreedGame:
    """The game both sides agree on, kept by one side's host (`side`), and what it knows of the
    other side's view."""

    def __init__(self, setup, side, host="?"):
        self.setup = check_setup(setup)
        self.side = side
        self.host = host          # this host's id, kept across its restarts (store.py)
        self.their_host = None    # the other side's, once seen: no other host plays that side
        module = games.module(self.setup["game"])
        self._module = module
        self._rules = module.Rules.parse(self.setup["rules"])
        self.board = module.Board(self.setup["start"], self._rules)
        self.epoch = 0
        self.undone = []          # the moves the last agreed take-back removed
        self.ask = None           # our ask: {"epoch", "to", "id"}
        self.asked = 0            # the id of our last ask
        self.their_ask = None     # theirs, not yet answered
        self.answer = None        # our answer to their last ask: {"epoch", "to", "ok"}
        self.resigned = None      # the side that resigned
        self.result = None        # our board's result once its game is over
        self.their_result = None
        self.their_seq = -1       # the last view taken from the other side
        self.seq = 0

    # --- the position --------------------------------------------------------------------

    @property
    def moves(self):
        return [self.board.grid.cell_name(c) for c in self.board.move_stack]

    def ply(self):
        return self.board.ply()

    def turn(self):
        return iago.side_name(self.board.turn)

    def over(self):
        return self.resigned is not None or self.board.is_game_over()

    def outcome(self):
        """The end as words' data: {"winner", "dark", "light", "how"}, or None in play."""
        if self.resigned is not None:
            return {"winner": other(self.resigned), "how": "resigned", "dark": None,
                    "light": None}
        outcome = self.board.outcome()
        if outcome is None:
            return None
        return {"winner": iago.side_name(outcome.winner), "how": "score",
                "dark": outcome.dark_score, "light": outcome.light_score}

    def mover_of(self, ply):
        """The side that makes move `ply` (0: the first) of the agreed moves, or of the next."""
        replay = self._module.Board(self.setup["start"], self._rules)
        for cell in self.board.move_stack[:ply]:
            replay.push(cell)
        return iago.side_name(replay.turn)

    def add(self, cell_name, side):
        """A move of `side` added to the agreed game: Refused unless it is `side`'s turn and
        the move is legal."""
        if self.over():
            raise Refused("the game is over")
        if self.turn() != side:
            raise Refused("%s moved on %s's turn" % (side, self.turn()))
        try:
            self.board.play(cell_name)
        except (iago.IagoError, ValueError) as exc:
            raise Refused("%s is not a legal move for %s: %s" % (cell_name, side, exc))

    # --- our view ----------------------------------------------------------------------------

    def view(self, game_id):
        """Our view, to publish: `seq` grows with every view, across restarts of the host
        too (it is the wall clock's milliseconds when that is more)."""
        self.seq = max(self.seq + 1, int(time.time() * 1000))
        moves = self.moves
        return {"game": game_id, "side": self.side, "host": self.host, "peer": self.their_host,
                "seq": self.seq, "epoch": self.epoch,
                "ply": len(moves), "moves": moves, "setup": self.setup, "ask": self.ask,
                "answer": self.answer, "resigned": self.resigned, "result": self.result,
                "at": int(time.time() * 1000)}

    def take_own_view(self, view):
        """Our own side's view kept on the broker, read back by a host that restarted: its
        game, asks and seq are ours again (moves checked as if the other side's)."""
        self.seq = max(self.seq, _int(view.get("seq")))
        if isinstance(view.get("peer"), str):
            self.their_host = view["peer"]
        self._merge_moves(view, view.get("side"), own=True)
        if _int(view.get("epoch")) == self.epoch:
            self.ask = _ask(view.get("ask"))
            self.asked = max(self.asked, (self.ask or {}).get("id", 0))
            self.answer = view.get("answer") if isinstance(view.get("answer"), dict) else None
        if view.get("resigned") in SIDES:
            self.resigned = view["resigned"]

    def ask_take_back(self):
        """Ask the other side to take back the last move."""
        if self.ply() == 0:
            raise Refused("no move to take back")
        if self.over():
            raise Refused("the game is over")
        # `id` tells an ask made again after a refusal from the one refused.
        self.asked = max(self.asked + 1, int(time.time() * 1000))
        self.ask = {"epoch": self.epoch, "to": self.ply() - 1, "id": self.asked}
        return self.ask

    def answer_take_back(self, accept):
        """Answer the other side's ask: accepted, the moves after it are taken back here (the
        board follows) and `epoch` moves on; refused, the game stays."""
        ask = self.their_ask
        if ask is None:
            raise Refused("nothing was asked")
        self.their_ask = None
        self.answer = dict(ask, ok=bool(accept))
        if accept:
            self._cut_to(ask["to"])
        return self.answer

    def resign(self):
        if self.over():
            raise Refused("the game is over")
        self.resigned = self.side

    def _cut_to(self, to):
        self.undone = self.moves[to:]
        while self.board.ply() > to:
            self.board.pop()
        self.epoch += 1
        self.ask = None

    # --- the other side's view -----------------------------------------------------------------

    def merge(self, view, board_moves=None):
        """Take the other side's view. Returns what changed, a list of words' data:
        ("moves", [cells]), ("take_back", n), ("asked", ask), ("answered", answer),
        ("resigned", side), ("result", result); [] for a view with nothing new (a duplicate,
        an older one). Refused, with the reason, for what it must not change. A move of our
        own side in their view is taken only where our board has it too (`board_moves`: a host
        that restarted without its own view learns it back)."""
        theirs = other(self.side)
        if view.get("side") != theirs:
            raise Refused("a view of %r on %s's topic" % (view.get("side"), theirs))
        seq = _int(view.get("seq"))
        if seq <= self.their_seq:
            return []                # a duplicate, or older than one already taken
        host = view.get("host")
        if self.their_host is not None and host != self.their_host:
            raise Refused("another host (%s) plays %s with this game's code" % (
                str(host)[:12], theirs))
        if check_setup(view.get("setup")) != self.setup:
            raise Refused("%s's view is of another game setup" % theirs)
        changes = []
        epoch = _int(view.get("epoch"))
        if epoch > self.epoch:
            changes.extend(self._their_answer(view, epoch))
        elif epoch < self.epoch:
            self.their_seq = seq     # they have not seen the take-back yet: nothing new
            return changes
        changes.extend(self._merge_moves(view, theirs, board_moves=board_moves or ()))
        self.their_seq = seq
        if self.their_host is None and isinstance(host, str):
            self.their_host = host
        changes.extend(self._their_asks(view, theirs))
        return changes

    def _their_answer(self, view, epoch):
        answer = view.get("answer")
        ask = self.ask
        if (epoch != self.epoch + 1 or ask is None or not isinstance(answer, dict) or
                answer.get("ok") is not True or _ask(answer) != ask):
            raise Refused("a take-back that was not asked for (epoch %d)" % epoch)
        before = self.ply()
        self._cut_to(ask["to"])
        return [("answered", answer), ("take_back", before - self.ply())]

    def _merge_moves(self, view, theirs, own=False, board_moves=()):
        moves = view.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise Refused("a view without its moves")
        mine = self.moves
        common = min(len(mine), len(moves))
        if [m.upper() for m in moves[:common]] != [m.upper() for m in mine[:common]]:
            raise Refused("%s's moves part from the game's at move %d" % (
                theirs, next(i for i in range(common) if moves[i].upper() != mine[i].upper())
                + 1))
        added = []
        try:
            for cell in moves[common:]:
                mover = self.turn()
                ours = self.ply() < len(board_moves) and board_moves[self.ply()] == cell
                if mover != theirs and not own and not ours:
                    raise Refused("%s sent %s for %s, whose move it is not theirs to make" % (
                        theirs, cell, mover))
                self.add(cell, mover)
                added.append(self.moves[-1])
        except Refused:
            for _ in added:                 # all of the view or none of it
                self.board.pop()
            raise
        return [("moves", added)] if added else []

    def _their_asks(self, view, theirs):
        changes = []
        ask = _ask(view.get("ask"))
        if ask is not None and ask["epoch"] == self.epoch and 0 <= ask["to"] < self.ply():
            if ask != self.their_ask and _ask(self.answer) != ask:
                self.their_ask = ask
                changes.append(("asked", ask))
        elif ask is None and self.their_ask is not None:
            self.their_ask = None               # withdrawn
            changes.append(("asked", None))
        answer = view.get("answer")
        if (isinstance(answer, dict) and answer.get("ok") is False and self.ask is not None
                and _ask(answer) == self.ask):
            self.ask = None
            changes.append(("answered", answer))
        if view.get("resigned") == theirs and self.resigned is None:
            self.resigned = theirs
            changes.append(("resigned", theirs))
        result = view.get("result")
        if isinstance(result, dict) and result != self.their_result:
            self.their_result = result
            changes.append(("result", result))
        return changes


def _int(value):
    return value if type(value) is int else -1


def _ask(value):
    if (isinstance(value, dict) and type(value.get("epoch")) is int and
            type(value.get("to")) is int and type(value.get("id")) is int):
        return {"epoch": value["epoch"], "to": value["to"], "id": value["id"]}
    return None
