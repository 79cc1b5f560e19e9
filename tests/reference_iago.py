"""A second, deliberately plain implementation of the Iago rules, for cross-checking `iago`.

Written straight from /work/shared/rules/INTERPRETATIONS.md (restated in docs/rules.md, whose
"decided here" details it follows too: a free placement is never a miss, and a miss by the
game's final placement cannot be claimed), sharing no code with the package: its own geometry
from (row letter, number) pairs, a position as a dict of cell name -> one character, and every
rule walked out cell by cell. It is slow on purpose; readability beats speed here. Nothing in
it is tuned to agree with the package.

Cell states are the characters of the position text:
    "."  empty
    "D"  dark disk face up        "L"  light disk face up
    "d"  captive, hidden dark     "l"  captive, hidden light
"""

import random

# --- board and names (INTERPRETATIONS: Board and names) ------------------------------------

ROW_LETTERS = "ABCDEFGHI"

# Row -> (lowest number, highest number), copied from the table in INTERPRETATIONS.md.
ROW_RANGES = {
    "A": (1, 5),
    "B": (1, 6),
    "C": (1, 7),
    "D": (1, 8),
    "E": (1, 9),
    "F": (2, 9),
    "G": (3, 9),
    "H": (4, 9),
    "I": (5, 9),
}

CENTRE = "E5"


def _all_names():
    names = []
    for row in ROW_LETTERS:
        low, high = ROW_RANGES[row]
        for number in range(low, high + 1):
            names.append(row + str(number))
    return names


# Every cell name, in cell order A1..A5, B1..B6, ..., I5..I9.
NAMES = _all_names()
ON_BOARD = set(NAMES)


def _outer_area():
    outer = []
    for name in NAMES:
        row = name[0]
        number = int(name[1])
        low, high = ROW_RANGES[row]
        if row in "AI" or number == low or number == high:
            outer.append(name)
    return outer


OUTER = _outer_area()
INNER = [name for name in NAMES if name not in OUTER]


def is_outer_or_centre(name):
    return name in OUTER or name == CENTRE


def step(name, direction):
    """The next cell from `name` in `direction` (row step, number step), or None off the board.

    The six neighbours of Xn: X(n-1) and X(n+1), the row below at n-1 and n, the row above at n
    and n+1.
    """
    row_index = ROW_LETTERS.index(name[0]) + direction[0]
    if row_index < 0 or row_index >= len(ROW_LETTERS):
        return None
    number = int(name[1]) + direction[1]
    candidate = ROW_LETTERS[row_index] + str(number)
    if candidate in ON_BOARD:
        return candidate
    return None


# (row step, number step): along the row, to the row above (n and n+1), to the row below
# (n-1 and n). Pairs are opposite: (0, 1)/(0, -1), (1, 0)/(-1, 0), (1, 1)/(-1, -1).
DIRECTIONS = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]


def neighbours(name):
    result = []
    for direction in DIRECTIONS:
        nxt = step(name, direction)
        if nxt is not None:
            result.append(nxt)
    return sorted(result, key=NAMES.index)


def line(name, direction):
    """The cells after `name` in `direction`, nearest first, up to the edge."""
    cells = []
    nxt = step(name, direction)
    while nxt is not None:
        cells.append(nxt)
        nxt = step(nxt, direction)
    return cells


# --- rules flags (INTERPRETATIONS: Variants are flags) -------------------------------------

class RefRules:
    def __init__(self, name):
        self.name = name
        words = name.split("+")
        self.forced_capture = "loose" not in words
        self.release = "simple" not in words
        self.count_score = "simple" in words
        self.penalty = "penalty" in words
        for word in words:
            if word not in ("standard", "loose", "simple", "penalty"):
                raise ValueError("unknown rules word %r" % word)


# --- positions ------------------------------------------------------------------------------

class RefPosition:
    """cells: dict name -> state character; turn: "D" or "L"; pending: None, "miss" or "free"."""

    def __init__(self, cells, turn, pending=None):
        self.cells = cells
        self.turn = turn
        self.pending = pending

    def copy(self):
        return RefPosition(dict(self.cells), self.turn, self.pending)

    def __eq__(self, other):
        return (self.cells == other.cells and self.turn == other.turn and
                self.pending == other.pending)

    def __repr__(self):
        return "RefPosition(%r)" % to_text(self)


def empty_position():
    return RefPosition({name: "." for name in NAMES}, "D")


def from_text(text):
    """Read position text: rows I..A joined by '/', each row lowest number first."""
    fields = text.split(" ")
    rows = fields[0].split("/")
    if len(rows) != 9:
        raise ValueError("need 9 rows")
    cells = {}
    for row_letter, row_text in zip("IHGFEDCBA", rows):
        low, high = ROW_RANGES[row_letter]
        number = low
        for ch in row_text:
            if ch in "123456789":
                for _ in range(int(ch)):
                    cells[row_letter + str(number)] = "."
                    number += 1
            elif ch in ".DLdl":
                cells[row_letter + str(number)] = ch
                number += 1
            else:
                raise ValueError("bad character %r" % ch)
        if number != high + 1:
            raise ValueError("row %s has the wrong length" % row_letter)
    if fields[1] not in ("D", "L"):
        raise ValueError("bad side")
    pending = None
    if len(fields) > 2:
        pending = fields[2]
    return RefPosition(cells, fields[1], pending)


def to_text(position):
    rows = []
    for row_letter in "IHGFEDCBA":
        low, high = ROW_RANGES[row_letter]
        out = ""
        run = 0
        for number in range(low, high + 1):
            state = position.cells[row_letter + str(number)]
            if state == ".":
                run += 1
            else:
                if run:
                    out += str(run)
                run = 0
                out += state
        if run:
            out += str(run)
        rows.append(out)
    text = "/".join(rows) + " " + position.turn
    if position.pending:
        text += " " + position.pending
    return text


def opponent(side):
    return "L" if side == "D" else "D"


def is_captive(state):
    return state in ("d", "l")


# --- flips (INTERPRETATIONS: Moves) ---------------------------------------------------------

def flips(position, name, rules):
    """(captured names, released names) if the side to move placed on the empty cell `name`."""
    me = position.turn
    them = opponent(me)
    captured = []
    released = []
    for direction in DIRECTIONS:
        cells = line(name, direction)
        # Capture: adjacent opponent face-up disks, unbroken, then a face-up disk of mine.
        run = []
        k = 0
        while k < len(cells) and position.cells[cells[k]] == them:
            run.append(cells[k])
            k += 1
        if run and k < len(cells) and position.cells[cells[k]] == me:
            captured.extend(run)
            continue
        if not rules.release:
            continue
        # Release: adjacent captives of either colour, unbroken, then a face-up disk of mine,
        # with the placed disk or that far disk in the outer area or on the centre.
        run = []
        k = 0
        while k < len(cells) and is_captive(position.cells[cells[k]]):
            run.append(cells[k])
            k += 1
        if run and k < len(cells) and position.cells[cells[k]] == me:
            far = cells[k]
            if is_outer_or_centre(name) or is_outer_or_centre(far):
                released.extend(run)
    return captured, released


def capture_count(position, name, rules):
    return len(flips(position, name, rules)[0])


# --- legal moves (INTERPRETATIONS: Which placements are legal) ------------------------------

def empty_cells(position):
    return [name for name in NAMES if position.cells[name] == "."]


def game_over(position):
    return all(position.cells[name] != "." for name in INNER)


def legal_moves(position, rules):
    """The legal placements, as names in cell order."""
    if game_over(position):
        return []
    empties = empty_cells(position)
    if position.pending == "free":
        return empties
    # With the penalty option the board accepts anything Loose rules allow (a miss is only
    # remembered), so forced capture is not applied to the list of accepted placements.
    forced = rules.forced_capture and not rules.penalty
    if forced:
        counts = {name: capture_count(position, name, rules) for name in empties}
        best = max(counts.values())
        if best > 0:
            return [name for name in empties if counts[name] == best]
    moves = []
    for name in empties:
        if name in INNER and name != CENTRE:
            moves.append(name)
        else:
            captured, released = flips(position, name, rules)
            if captured or released:
                moves.append(name)
    # Last-hex rule.
    empty_inner = [name for name in INNER if position.cells[name] == "."]
    outer_legal = [name for name in moves if name in OUTER]
    if empty_inner == [CENTRE] and not outer_legal and CENTRE not in moves:
        moves.append(CENTRE)
    return sorted(moves, key=NAMES.index)


def is_miss(position, name, rules):
    """Whether placing on `name` misses a forced capture (fewer captures than the best).

    A free placement granted by a claim is never a miss (docs/rules.md, decided here)."""
    if not rules.forced_capture or position.pending == "free":
        return False
    best = max(capture_count(position, cell, rules) for cell in empty_cells(position))
    return capture_count(position, name, rules) < best


def apply_move(position, name, rules):
    """The position after the side to move places on `name` (not checked for legality)."""
    captured, released = flips(position, name, rules)
    pending = None
    if rules.penalty and is_miss(position, name, rules):
        pending = "miss"
    new = position.copy()
    for cell in captured:
        new.cells[cell] = new.cells[cell].lower()
    for cell in released:
        new.cells[cell] = new.cells[cell].upper()
    new.cells[name] = position.turn
    new.turn = opponent(position.turn)
    # docs/rules.md, decided here: a miss by the placement that ends the game cannot be
    # claimed (there is no placement left to free).
    if game_over(new):
        pending = None
    new.pending = pending
    return new


def claim(position, rules):
    """The position after the side to move points out a miss, or None if refused."""
    if not rules.penalty or position.pending != "miss":
        return None
    new = position.copy()
    new.pending = "free"
    return new


# --- end and score (INTERPRETATIONS: End and score) -----------------------------------------

def area_counts(position, side):
    inner = sum(1 for name in INNER if position.cells[name] == side)
    outer = sum(1 for name in OUTER if position.cells[name] == side)
    return inner, outer


def score(position, side, count_score):
    inner, outer = area_counts(position, side)
    if count_score:
        return inner + outer
    return max(inner, 1) * max(outer, 1)


def scores(position, rules):
    return score(position, "D", rules.count_score), score(position, "L", rules.count_score)


def winner(position, rules):
    """(winner "D"/"L", how): how is "score", "centre disk" or "centre captive"; None if the
    game goes on."""
    if not game_over(position):
        return None
    dark, light = scores(position, rules)
    if dark > light:
        return "D", "score"
    if light > dark:
        return "L", "score"
    centre = position.cells[CENTRE]
    if centre in ("D", "L"):
        return centre, "centre disk"
    return opponent(centre.upper()), "centre captive"


def perft(position, rules, depth):
    if depth == 0 or game_over(position):
        return 1
    total = 0
    for name in legal_moves(position, rules):
        total += perft(apply_move(position, name, rules), rules, depth - 1)
    return total


def random_game(seed, rules, plies=None, claim_chance=0.5):
    """Play a seeded random game with the reference; returns the list of positions and the
    moves (claims appear as the string "claim")."""
    rng = random.Random(seed)
    position = empty_position()
    positions = [position]
    moves = []
    while not game_over(position) and (plies is None or len(moves) < plies):
        if position.pending == "miss" and rng.random() < claim_chance:
            position = claim(position, rules)
            moves.append("claim")
        else:
            name = rng.choice(legal_moves(position, rules))
            position = apply_move(position, name, rules)
            moves.append(name)
        positions.append(position)
    return positions, moves


def draw(position):
    """A small hex picture of a position, rows I (top) to A, for comments and failure messages.

        I     . . . . .      I5-I9
        ...
        E . . . . . . . . .  E1-E9
        ...
        A     . . . . .      A1-A5
    """
    if isinstance(position, str):
        position = from_text(position)
    lines = []
    for row_index in range(8, -1, -1):
        row_letter = ROW_LETTERS[row_index]
        low, high = ROW_RANGES[row_letter]
        indent = 2 * low - row_index + 2
        cells = " ".join(position.cells[row_letter + str(n)] for n in range(low, high + 1))
        body = " " * indent + cells
        lines.append("%s %s  %s%d-%s%d" % (row_letter, body.ljust(19), row_letter, low,
                                           row_letter, high))
    return "\n".join(lines)


def position_with(disks, turn="D", pending=None):
    """A position from {"D": "E5 E3", "l": "E4", ...}: state -> space-separated cell names."""
    position = empty_position()
    for state, names in disks.items():
        for name in names.split():
            if name not in ON_BOARD:
                raise ValueError("no such cell %r" % name)
            position.cells[name] = state
    position.turn = turn
    position.pending = pending
    return position
