"""What both engines share: seeded numbers that come out the same on every interpreter (their
only randomness) and the Result of a search."""


class Lcg:
    """A small linear congruential generator: the same numbers on every interpreter."""

    def __init__(self, seed=0):
        self.state = (seed * 2654435761 + 0x5DEECE) & 0x7FFFFFFF

    def below(self, n):
        """A number in 0..n-1."""
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def mix_seed(*parts):
    """One seed from several small numbers (game seed, ply, ...), identical everywhere."""
    h = 0x12345
    for p in parts:
        h = ((h ^ (p & 0x3FFFFFFF)) * 16777619) & 0x3FFFFFFF
    return h


class Result:
    """What a search found: the move, its score for the side to move, the principal variation.

    `score` is for the side to move (the engine's units; docs/engine.md), WIN + margin for a
    win by `margin` and -WIN + margin for a loss once the search sees it (`proven`). `depth`
    is the last completed iteration, `nodes` the positions visited.
    """

    def __init__(self, move, score, pv, depth, nodes, proven):
        self.move = move
        self.score = score
        self.pv = pv
        self.depth = depth
        self.nodes = nodes
        self.proven = proven

    def __repr__(self):
        return "Result(move=%r, score=%d, pv=%r, depth=%d, nodes=%d%s)" % (
            self.move, self.score, self.pv, self.depth, self.nodes,
            ", proven" if self.proven else "")
