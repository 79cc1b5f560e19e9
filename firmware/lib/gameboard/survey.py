"""The controller's survey of the board: what the disks on it say against the game.

For the referee (gameboard/controller.py): is the board `ready` for the next placement (every
hex agrees with the game), is a new disk `waiting`, or refused; the one new disk played once
everything else agrees. For the host: the differences, a placement's events, and `state`.
Functions of the Controller `ctl`, whose own module this is as start.py is (they call its
private methods), resident in play: a module rather than a base class, which costs more heap
than the 64 KB budget has to spare (docs/benchmarks.md).

The board is `ready` for the next placement only when every hex agrees with the game; only
then are legal moves reported and hinted. A disk put down early on a legal hex (while flips are
pending, say) is `waiting`: shown as such, and played the moment the board is ready. It keeps
its turn when another disk is put down after it (the next side's, early too): that one is extra
until the waiting one is played; if the waiting one leaves instead, the later one is never
played until it has left too: it shows the next side's face.
"""

import iago
from gameboard.painter import NONE, PLAY, SETTINGS_HEX

PHASE_NAMES = ("startup", "play", "over")   # of the phases STARTUP, PLAY, OVER (painter.py)


def differences(ctl):
    """(extra disks, missing disks, flips pending) as lists of cells."""
    extra = []
    missing = []
    flips = []
    cells = ctl.game.cell_states
    pregame = ctl._pregame()
    for c in range(ctl.n):
        if cells[c] and not ctl.present[c]:
            missing.append(c)
        elif not cells[c] and ctl.present[c] and c != ctl.view.waiting and not (
                pregame and ctl.view.special[c] & SETTINGS_HEX and c != ctl.view.chosen):
            extra.append(c)
        if cells[c] and not ctl.view.face_ok[c]:
            flips.append(c)
    return extra, missing, flips


def pending(ctl):
    """How many disks are still to turn."""
    cells = ctl.game.cell_states
    face_ok = ctl.view.face_ok
    n = 0
    for c in range(ctl.n):
        if cells[c] and not face_ok[c]:
            n += 1
    return n


def fresh_hints(ctl):
    """The hint table for the position now. Computed on demand: hints are not shown
    while a placement is tentative, so a placement's frame does not wait for them."""
    view = ctl.view
    if view.hints_stale:
        view.hints_stale = False
        hint = view.hint
        for c in range(ctl.n):
            hint[c] = 0
        for c in ctl.game.legal_moves:
            hint[c] = 1
    return view.hint


def try_place(ctl, now):
    """Survey the board: is it `ready` (every hex agrees with the game), is a new disk
    `waiting`; and play the one new disk if the board is otherwise ready and it is legal."""
    ready = ctl.phase == PLAY and not ctl.game.is_game_over()
    cells = ctl.game.cell_states
    present = ctl.present
    view = ctl.view
    face_ok = view.face_ok
    pregame = ctl._pregame()
    special = view.special
    keep = view.waiting
    # The waiting disk left: those put down after it show the next side's face, and each must
    # leave before it is played.
    left = keep != NONE and not present[keep]
    new = NONE
    extra = 0
    for c in range(ctl.n):
        if present[c] and not cells[c]:
            if pregame and special[c] & SETTINGS_HEX and c != view.chosen:
                continue
            if left:
                ctl.suspect[c] = 1
            new = c
            extra += 1
        elif cells[c] and (not present[c] or not face_ok[c]):
            ready = False
    if extra > 1 and keep != NONE and present[keep] and not cells[keep]:
        new = keep      # the first disk down keeps its turn; those after it are extra
    elif extra != 1:
        new = NONE
    before = view.extra
    view.extra = NONE
    if new != NONE and (ctl.phase != PLAY or ctl.suspect[new]):
        new = NONE
    elif new != NONE and not playable(ctl, new):
        turn = ctl.game.turn
        if (ready and extra == 1 and ctl.tentative == NONE and
                turn != ctl.settings.computer_side() and turn != ctl.settings.remote):
            view.extra = new        # refused (on the computer's or remote player's turn: extra)
        new = NONE
    if view.extra != before:
        ctl.dirty = True
    ctl.ready = ready and not extra and ctl.tentative == NONE
    if new == NONE or not ready or ctl.tentative != NONE:
        if view.waiting != new:
            view.waiting = new
            ctl.dirty = True
        return
    view.waiting = NONE
    ctl._play(new, now)


def playable(ctl, cell):
    """A legal placement for the side to move (on the computer's or the remote player's
    turn only the hex it chose, once it has chosen)."""
    game = ctl.game
    if game.is_game_over() or not fresh_hints(ctl)[cell]:
        return False
    turn = game.turn
    settings = ctl.settings
    return (turn != settings.computer_side() and turn != settings.remote or
            cell == ctl.view.chosen)


def move_event(ctl, kind):
    """The last placement as an event: its disk and the disks it turned. After the
    placement a captured disk is a captive and a released one is face up; where a turned
    disk shows the other colour (Board.FLIP), every turned disk is captured."""
    game = ctl.game
    cells = game.cell_states
    cell = game.peek()
    flipped = game.last_flips()
    flip = game.FLIP     # the captive bit; or 3, which every disk's state has a bit of
    name = ctl.name
    return {"event": kind, "cell": name(cell), "side": iago.side_name(cells[cell] & 3),
            "captured": [name(c) for c in flipped if cells[c] & flip],
            "released": [name(c) for c in flipped if not cells[c] & flip]}


def report_move(ctl):
    """The tentative placement settled: now it is a move, for the host too."""
    game = ctl.game
    event = move_event(ctl, "move")
    ctl._emit(event)
    if ctl.tentative_miss:
        ctl._emit({"event": "miss", "cell": event["cell"]})
    mover = game.cell_states[game.peek()] & 3
    if game.PASSES and game.turn == mover and not game.is_game_over():
        ctl._emit({"event": "pass", "side": iago.side_name(mover ^ 3)})


def state(ctl):
    """Everything a host needs to draw the board, as JSON-ready data."""
    game = ctl.game
    extra, missing, flips = differences(ctl)
    names = ctl.name
    outcome = game.outcome()
    return {
        "game": ctl.layout.game,
        "start": game.start_text,
        "position": game.text(),
        "rules": game.rules.name(),
        "settings": ctl.settings.as_dict(),
        "phase": PHASE_NAMES[ctl.phase],
        "turn": iago.side_name(game.turn),
        "moves": [names(c) for c in game.move_stack],
        "claims": list(game.claims),
        "tentative": names(ctl.tentative) if ctl.tentative != NONE else None,
        "waiting": names(ctl.view.waiting) if ctl.view.waiting != NONE else None,
        "flips_pending": [names(c) for c in flips],
        "extra": [names(c) for c in extra],
        "missing": [names(c) for c in missing],
        "legal": [names(c) for c in game.legal_moves] if ctl.ready else [],
        "scores": list(game.scores()),
        "can_claim": game.can_claim(),
        "asking": ctl.asking,
        # A disk held 2 s on the centre while asking: lifting it now starts a new game.
        "confirm": ctl.asking and ctl.view.flash_colour > 127,
        "outcome": None if outcome is None else {
            "winner": iago.side_name(outcome.winner), "dark": outcome.dark_score,
            "light": outcome.light_score, "tie_break": outcome.tie_break},
    }
