"""Small helpers shared by the rules tests (they use the package; reference_iago does not)."""

import random

import iago

# The rule sets the suites walk through, by the names Rules.parse reads.
RULE_SETS = ("standard", "loose", "simple", "loose+simple", "standard+penalty")


def board(text, rules="standard"):
    """A Board from position text under the named rules."""
    return iago.Board(text, iago.Rules.parse(rules))


def names(cells):
    """Cell indexes -> names, in the order given."""
    return [iago.cell_name(c) for c in cells]


def legal(b):
    """The board's legal moves as a list of names (in the view's order)."""
    return names(b.legal_moves)


def state_map(b):
    """{cell name: state character} of a board, read through Board.cell (not the text)."""
    chars = {iago.EMPTY: ".", iago.DARK: "D", iago.LIGHT: "L",
             iago.DARK_CAPTIVE: "d", iago.LIGHT_CAPTIVE: "l"}
    return {iago.cell_name(c): chars[b.cell(c)] for c in range(61)}


def random_board(seed, rules="standard", plies=None, claim_chance=0.5):
    """A Board after a seeded random game of `plies` placements (to the end if None).

    Under the penalty option a pending miss is claimed with probability `claim_chance`.
    """
    rng = random.Random(seed)
    b = iago.Board(rules=iago.Rules.parse(rules))
    made = 0
    while not b.is_game_over() and (plies is None or made < plies):
        if b.can_claim() and rng.random() < claim_chance:
            b.claim_penalty()
        b.push(rng.choice(list(b.legal_moves)))
        made += 1
    return b
