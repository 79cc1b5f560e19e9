"""Whole games played physically on the simulated board, and a fault soak.

The players follow the LEDs: they remove disks blinking as errors, put back lifted disks in
the face shown, turn the disks asked to flip, and place on hinted hexes. What the LEDs show is
drawn from the controller's differences (extra disks, missing disks, flips pending), which is
what these players read.
"""

import random

import pytest

import iago
from host_sim.simboard import SimBoard

FACE = {iago.DARK: "D", iago.LIGHT: "L", iago.DARK_CAPTIVE: "d", iago.LIGHT_CAPTIVE: "l"}
RULE_SETS = ["standard", "loose", "simple", "loose+simple", "standard+penalty",
             "simple+penalty"]


def mend(board, limit=200):
    """Do what the LEDs ask until the board agrees with the game."""
    for _ in range(limit):
        ctl = board.controller
        if ctl is None:
            board.power_on()
            board.advance(1300)
            continue
        if ctl.referee.phase == 0:                      # the light check
            board.advance(100)
            continue
        if ctl.referee.agrees():
            return
        extra, missing, flips = ctl.referee.differences()
        game = ctl.game
        for cell in extra:
            if cell in board.disks:
                board.lift(cell, 20)
            else:                               # a stuck switch or a ghost: nothing to lift
                board.advance(50)
        for cell in missing:
            board.put(cell, FACE[game.cell(cell)])
        for cell in flips:
            if cell in board.disks:
                board.flip(cell)
        board.advance(50)
    raise AssertionError("the board never came to agree: %r" % (board.controller.state(),))


def play_game(board, rng, claim_rate=0.0, faults=None):
    """Play one game to its end following the LEDs; returns the moves played."""
    ctl = board.controller
    while ctl.referee.phase != 2:
        mend(board)
        ctl = board.controller
        if ctl.referee.phase == 2:
            break
        game = ctl.game
        if game.can_claim() and rng.random() < claim_rate:
            last = game.peek()
            board.lift(last, 150)               # a quick tap on the missed disk: a claim
            board.put(last, FACE[game.cell(last)])
            mend(board)
            ctl = board.controller
            game = ctl.game
        moves = list(game.legal_moves)
        if not moves:
            board.advance(100)
            continue
        board.place(rng.choice(moves))
        if faults:
            faults(board, rng)
        mend(board)
        board.advance(20)
        ctl = board.controller
    return ctl.game


def check_result(game):
    """The result the rules give, recomputed from the moves by a fresh board."""
    replay = iago.Board(rules=game.rules)
    for ply, cell in enumerate(game.move_stack):
        if ply in game.claims:
            assert replay.claim_penalty()
        replay.play(cell)
    assert replay.text() == game.text()
    assert replay.is_game_over()
    return replay.outcome()


RUNTIMES = pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])


@RUNTIMES
@pytest.mark.parametrize("rules", RULE_SETS)
def test_complete_physical_game_in_every_rule_set(rules, runtime, tmp_path):
    rng = random.Random(rules)
    with SimBoard(root=tmp_path, runtime=runtime) as board:
        board.advance(1200)
        assert board.command({"cmd": "new_game", "rules": rules})["ok"]
        game = play_game(board, rng, claim_rate=0.7)
        outcome = check_result(game)
        board.advance(100)
        over = [m for m in board.received() if m.get("event") == "game_over"]
        assert over and over[-1]["winner"] == iago.side_name(outcome.winner)
        assert (over[-1]["dark"], over[-1]["light"]) == (outcome.dark_score, outcome.light_score)
        if rules.endswith("penalty"):
            assert game.claims, "no claim was made in a penalty game"
        saved = board.command({"cmd": "games"})["games"]
        assert len(saved) == 1
        board.clear()                            # clearing the board starts a new game
        board.advance(100)
        assert board.controller.game.ply() == 0 and board.controller.referee.phase == 1


class Faults:
    """Random trouble between the players' actions: unexpected lifts and power cuts."""

    def __init__(self):
        self.cuts = 0
        self.lifts = 0

    def __call__(self, board, rng):
        roll = rng.random()
        if roll < 0.12 and board.disks:
            cell = rng.choice(sorted(board.disks))
            self.lifts += 1
            board.lift(cell, rng.choice([30, 400, 2000]))
            if rng.random() < 0.5:              # sometimes put back at once, in any face
                board.put(cell, rng.choice("DLdl"))
        elif roll < 0.24:
            self.cuts += 1
            board.advance(rng.uniform(0, 600))  # the cut comes at a random instant
            settled = settled_moves(board.controller)
            board.power_cut()
            board.advance(rng.uniform(10, 3000))
            board.power_on()
            board.advance(1300)
            restored = board.controller.game.move_stack
            # No completed move is ever lost, and no unsettled one is kept.
            assert restored == settled, (restored, settled)


def settled_moves(ctl):
    moves = ctl.game.move_stack
    return moves[:-1] if ctl.referee.tentative != 255 else moves


@RUNTIMES
def test_fault_soak(runtime, tmp_path):
    faults = Faults()
    for seed in range(6):
        rng = random.Random(seed)
        with SimBoard(root=tmp_path / str(seed), seed=seed, runtime=runtime) as board:
            board.bounce_ms = rng.choice([0, 3, 8])
            board.crosstalk = rng.choice([0.0, 0.3])
            board.advance(1200)
            rules = RULE_SETS[seed % len(RULE_SETS)]
            board.command({"cmd": "new_game", "rules": rules})
            game = play_game(board, rng, claim_rate=0.5, faults=faults)
            check_result(game)
            assert board.controller.referee.phase == 2
    assert faults.cuts >= 10 and faults.lifts >= 10
