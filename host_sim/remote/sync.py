"""The board kept in step with the agreed game (session.py's worker runs these).

After every message, event and action the board's settled moves are laid beside the agreed
ones:
- the same: nothing to do but keep `remote` on the other side (a restarted board forgets it);
- the board behind: the next agreed move is lit with `play` (the board's `remote` set to the
  side that made it), for the player at the board to put down: the other side's moves, and a
  move of ours the board lost (its power cut before it saved) or never had (set up again);
- the board ahead by moves the agreement took back: the board takes them back, one at a time;
- the board ahead by moves of this side: they are this side's new moves, sent on;
- anything else (a move of the other side played by hand, another game): the players choose
  (session `conflict`), nothing is changed silently.
"""

import iago
from iago import games

from host_sim.remote.game import Refused, other
from host_sim.web.api import ApiError, conflict


def board_state(session, required=False):
    """The board's `state`, or None when it cannot answer (ApiError if `required`)."""
    try:
        reply = session.command({"cmd": "state"}, quiet=True)
    except ApiError as exc:
        if required:
            raise conflict("the board cannot answer: %s" % exc.message)
        return None
    state = reply.get("state") if reply.get("ok") else None
    if required and not isinstance(state, dict):
        raise conflict("the board did not report its game")
    if isinstance(state, dict) and "moves" in state:
        session.board_moves = settled(state)
    return state


def ask_board(session, msg):
    """The board's reply to `msg`; ApiError (409) when it refuses or cannot answer."""
    reply = session.command(msg)
    if not reply.get("ok"):
        raise conflict("the board refused %s: %s" % (msg.get("cmd"), reply.get("error")))
    return reply


def settled(state):
    """The board's moves that count: a tentative placement may yet slide on."""
    moves = list(state.get("moves") or ())
    if state.get("tentative") and moves:
        moves.pop()
    return moves


def settled_moves(session):
    return getattr(session, "board_moves", ())


def board(session):
    """Bring the board in step with the agreed game (one step: the rest follows as the
    board's events come)."""
    game = session.game
    state = board_state(session)
    if state is None or state.get("phase") not in ("play", "over"):
        return
    setup = game.setup
    if (state.get("game"), state.get("rules"), state.get("start")) != (
            setup["game"], setup["rules"], setup["start"]):
        disagree(session, "the board plays another game (%s, %s rules) than the remote one "
                 "(%s, %s rules)" % (state.get("game"), state.get("rules"), setup["game"],
                                     setup["rules"]), state)
        return
    moves, agreed = settled(state), game.moves
    n = 0
    while n < min(len(moves), len(agreed)) and moves[n] == agreed[n]:
        n += 1
    if n == len(moves):
        game.undone = []                # the board took back what was agreed: a move on the
                                        # same hex later is a new move, never one to take back
    if n == len(moves) == len(agreed):
        agree(session, state)
    elif n == len(moves):
        _light(session, state, n)
    elif n == len(agreed) and moves[n:] == game.undone[:len(moves) - n]:
        ask_board(session, {"cmd": "take_back"})
    elif n == len(agreed):
        _ours(session, state, moves[n:])
    else:
        disagree(session, "the board's game parts from the remote one at move %d: the board "
                 "has %s, the game %s" % (n + 1, moves[n], agreed[n]), state)


def agree(session, state):
    game = session.game
    if session.phase == "conflict":
        session.conflict = None
        session.phase = "playing"
        session.say("the board and the remote game agree again")
    session.lit = None
    if game.over():
        _want_remote(session, state, "none")
        finish(session, state)
    else:
        _want_remote(session, state, other(session.side))


def _light(session, state, ply):
    """The next agreed move lit on the board for the player to put down."""
    game = session.game
    cell = game.moves[ply]
    mover = game.mover_of(ply)
    _want_remote(session, state, mover)
    if state.get("tentative") or session.lit == cell:
        return                          # a placement settles first; or lit already
    reply = session.command({"cmd": "play", "move": cell})
    if not reply.get("ok"):
        fresh = board_state(session)
        if fresh is None or fresh.get("tentative") or settled(fresh) != settled(state):
            return                      # the board moved on meanwhile: the next look decides
        disagree(session, "the board refused %s's %s: %s" % (mover, cell, reply.get("error")),
                 state)
        return
    if session.lit != cell:
        session.lit = cell
        heard = session.heard.pop((game.epoch, ply), None)
        if heard is not None:
            session.latencies.append(session.clock() - heard)
        if mover == session.side:
            session.say("the board does not have your %s: put its disk down again (lit)" % cell)


def _ours(session, state, extra):
    """Moves on the board beyond the agreed ones: this side's new moves, sent on."""
    game = session.game
    for cell in extra:
        mover = game.turn()
        if mover != session.side:
            disagree(session, "the board has %s for %s, which the remote player did not play" %
                     (cell, mover), state)
            return
        try:
            game.add(cell, session.side)
        except Refused as exc:
            disagree(session, str(exc), state)
            return
        session.last_move = {"cell": cell, "side": session.side, "at": session.clock()}


def disagree(session, why, state):
    """The board and the agreed game disagree: the page offers the choice."""
    if session.phase == "conflict" and session.conflict and session.conflict["why"] == why:
        return
    session.conflict = {"why": why, "board": settled(state), "agreed": session.game.moves}
    session.phase = "conflict"
    session.say("the board and the remote game disagree: %s. Choose on the page: set the "
                "board up with the remote game, or leave it" % why, "fault")


def _want_remote(session, state, side):
    if (state.get("settings") or {}).get("remote") != side:
        ask_board(session, {"cmd": "settings", "settings": {"remote": side,
                                                            "computer": "none"}})


def finish(session, state):
    """The end: the board's result kept, and laid beside the other board's."""
    game = session.game
    outcome = state.get("outcome")
    if session.phase != "over":
        session.phase = "over"
        ended = game.outcome()
        if ended and ended["how"] == "resigned":
            session.say("%s resigned: %s wins" % (other(ended["winner"]), ended["winner"]))
    if isinstance(outcome, dict) and game.result is None:
        game.result = {k: outcome.get(k) for k in ("winner", "dark", "light")}
        session.say("game over: %s wins, dark %s, light %s" % (
            outcome.get("winner"), outcome.get("dark"), outcome.get("light")))
    compare_results(session)


def compare_results(session):
    game = session.game
    if game.result is None or game.their_result is None or session.results_compared:
        return
    session.results_compared = True
    if game.result == game.their_result:
        session.say("both boards show the same score: dark %s, light %s" % (
            game.result["dark"], game.result["light"]))
    else:
        session.say("the two boards show different scores: here %s, there %s" % (
            game.result, game.their_result), "fault")


def news(session, change, value, view):
    """What the other side's view changed, said to the players."""
    game = session.game
    theirs = other(session.side)
    if change == "moves":
        first = game.ply() - len(value)
        for ply in range(first, game.ply()):
            session.heard[(game.epoch, ply)] = view.get("at") or session.clock()
        session.last_move = {"cell": value[-1], "side": theirs, "at": view.get("at")}
        session.say("%s played %s" % (theirs, " ".join(value)))
    elif change == "take_back":
        session.say("%s accepted: the board takes back %s" % (theirs, " ".join(game.undone)))
    elif change == "asked":
        session.say("%s asks to take back %s: accept or refuse" % (theirs, game.moves[
            value["to"]]) if value else "%s no longer asks for a take-back" % theirs)
    elif change == "answered" and value.get("ok") is False:
        session.say("%s refused the take-back" % theirs)
    elif change == "resigned":
        session.phase = "over"
        session.say("%s resigned: you win" % theirs)
    elif change == "result":
        compare_results(session)


def board_event(session, msg):
    """A board's event: a restart of the board is said (its `remote` is set again by the
    sync that follows)."""
    if msg.get("event") == "startup" and session.game is not None:
        session.lit = None              # its lit hex is lost with its `remote` setting
        session.say("the board started again: the remote game goes on")


def fresh_board(session):
    """A new game on the board for the agreed one: its rules, who places first, the other
    side remote; the sync then lights the agreed moves one by one."""
    setup = session.game.setup
    state = board_state(session, required=True)
    settings = dict(state["settings"], computer="none", penalty=False,
                    remote=other(session.side))
    if setup["game"] == "iago":
        settings["rules"] = setup["rules"]
    msg = {"cmd": "new_game", "settings": settings}
    module = games.module(setup["game"])
    if module.Board.COIN_TOSS:
        rules = module.Rules.parse(setup["rules"])
        msg["first"] = iago.side_name(module.Board(setup["start"], rules).turn)
    ask_board(session, msg)
    session.lit = None


def release_board(session):
    """The board plays both sides again (after leaving a remote game)."""
    try:
        session.command({"cmd": "settings", "settings": {"remote": "none"}})
    except ApiError:
        pass
