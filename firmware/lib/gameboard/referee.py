"""The referee: what the disks on the board say against the game.

A reed switch tells whether a disk is on its hex, never which face is up. So the referee keeps
per hex whether a disk is there (`present`), whether its face is believed right (`face_ok`)
and whether it must leave before it may be played (`suspect`). At every change it reads them
against the game once, into `disks` (EMPTY ... SETTING below, a hex) and counts of what is
missing, to turn and extra, and answers every question from that reading: is the board
`ready` (every hex agrees), which is the one new disk, is one `waiting` (put down early on a
legal hex) or `refused` (the only disk out of place, on a hex the mover may not take).

The one new disk is played at once but `tentative` until it has rested SETTLE_MS. The slide
rule is all here: a disk slid across the board closes every switch on its way, so `moved`
notes when a new disk landed (`landed_at`), a lift of the tentative disk is a slide
(`_take_back(.., "slid")`), and the disk it ended on is played if its landing was the change
just before, at most SLIDE_MS earlier. Take-backs by gesture: the disk just placed lifted
while its own flips are pending, or held off TAKEBACK_HOLD_MS; put back within TAP_MS it
claims a penalty. Its table (the Controller) hears of it through public methods only.
"""

import iago
from gameboard import NO_CELL, elapsed

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

SETTLE_MS = const(300)          # a placement counts once its disk has rested this long
# A disk between two hexes closes both switches: a tentative placement's disk that leaves
# its hex at most this long after another closed has slid there (docs/board.md, "Moves").
SLIDE_MS = const(40)
TAKEBACK_HOLD_MS = const(1500)  # the last-placed disk held off its hex this long: taken back
TAP_MS = const(700)             # lifted and put back within this: a penalty claim

# The phases of a game on the board.
STARTUP = const(0)      # the light check at power-on, STARTUP_MS long
PLAY = const(1)
OVER = const(2)         # the game is over: its result shows until the board is cleared
STARTUP_MS = const(900)
PHASE_NAMES = ("startup", "play", "over")

# What the disks say, a hex at a time (Referee.disks).
EMPTY = const(0)        # no disk, none in the game
AGREES = const(1)       # the game's disk, its face right
TO_TURN = const(2)      # the game's disk, still to turn
LIFTED = const(3)       # the game's disk is off its hex
TURNING = const(4)      # ... while being turned
EXTRA = const(5)        # a disk where the game has none (refused, early, or to lift)
WAITING = const(6)      # an early disk on a legal hex: played once the board is ready
RESERVED = const(7)     # a disk on a settings hex before the first placement (it steps one)
SETTING = const(8)      # an empty settings hex before the first placement: shows its setting


class Referee:
    """The disks of `game` (a rules module's board) on `layout`'s, read for `table`."""

    def __init__(self, layout, table, game, now):
        n = layout.cells
        self.layout = layout
        self.table = table
        self.game = game
        self.present = bytearray(n)      # debounced: 1 = a disk is on the hex
        self.face_ok = bytearray(b"\x01" * n)   # 0 = the disk there is still to turn
        # 1 = never played until it leaves once: closed at power-on where the game has none,
        # or a disk the board asked to remove (taken back, of an old game, the demo's, ...).
        self.suspect = bytearray(n)
        self.disks = bytearray(n)        # the reading: EMPTY ... SETTING a hex
        self.missing = 0                 # the game's disks off their hexes
        self.to_turn = 0                 # the game's disks still to turn
        self.extra = 0                   # disks where the game has none (EXTRA)
        self.reserved = 0                # disks on settings hexes (RESERVED)
        self.legal = bytearray(n)        # 1 = a legal placement now (fresh_legal)
        self.legal_stale = True
        self.phase = STARTUP
        self.phase_since = now
        self.ready = False               # every hex agrees: the next placement may come
        self.waiting = NO_CELL
        self.refused = NO_CELL
        self.chosen = NO_CELL            # the computer's or remote player's hex (choose)
        self.tentative = NO_CELL         # the last placement, until it has settled
        self.tentative_miss = False      # it missed a forced capture (penalty option)
        # The flips pending are the last placement's own (lifting its disk then takes it
        # back), not flips a take-back asked to undo (lifting it then is mending).
        self.flips_of_last = False
        self.placed_at = now             # the tentative placement's disk landed
        self.lifted_at = -1              # the settled last placement's disk left (-1: not)
        self.landed_at = now             # a new disk last landed
        self.changed_at = now            # a switch last changed ...
        self.changed_before = now        # ... and the change before it

    # --- the game it judges ------------------------------------------------------------------

    def take(self, game, unturned=()):
        """Judge `game` from now on (new, or saved with the disks on `unturned` still to
        turn): no placement in hand, every empty hex's face right."""
        self.game = game
        self.tentative = NO_CELL
        self.lifted_at = -1
        self.flips_of_last = False
        self.chosen = NO_CELL
        for c in unturned:
            self.face_ok[c] = 0
        self.position_changed()

    def enter(self, phase, now):
        """The game's phase is `phase` from `now` (it changes how the settings hexes read)."""
        self.phase = phase
        self.phase_since = now
        self.table.changed()
        self.classify()

    def start(self, now):
        """The light check is over: each disk where the game has none must leave before it is
        played; play, or the game's end (True), once flips pending at a power cut are done."""
        over = self.game.is_game_over() and not self.to_turn
        cells = self.game.cell_states
        for c in range(len(cells)):
            self.suspect[c] = 1 if self.present[c] and not cells[c] else 0
        self.enter(OVER if over else PLAY, now)
        return over

    def strays_suspect(self):
        """Each disk where the game has none (an old game's, the demo's) must leave first."""
        cells = self.game.cell_states
        for c in range(len(cells)):
            if self.present[c] and not cells[c]:
                self.suspect[c] = 1

    # --- switches --------------------------------------------------------------------------

    def sense(self, cell, closed, now, ambiguous):
        """A debounced switch event; False if it changes nothing. `ambiguous`: a closing that
        may be a ghost (a matrix without diodes), never played until its switch opens."""
        closed = 1 if closed else 0
        if self.present[cell] == closed:
            return False
        self.present[cell] = closed
        name = self.layout.names[cell]
        if ambiguous and closed and not self.game.cell_states[cell]:
            self.suspect[cell] = 1
            self.table.emit({"event": "ghost", "cell": name})
        self.table.emit({"event": "placed" if closed else "lifted", "cell": name})
        if self.phase == STARTUP:
            self.classify()
        else:
            self.changed_before = self.changed_at
            self.changed_at = now
        return True

    def moved(self, cell, closed, now):
        """In play, after `sense`: a flip done, a penalty claimed, a slide, a take-back."""
        if closed:
            self._put_down(cell, now)
        else:
            self._lifted(cell, now)
        self.read(now)

    def _put_down(self, cell, now):
        game = self.game
        if not game.cell_states[cell]:
            self.landed_at = now
        elif not self.face_ok[cell]:
            self.face_ok[cell] = 1
            self.to_turn -= 1
            self.table.emit({"event": "flip_done", "cell": self.layout.names[cell]})
            if not self.to_turn:
                self.table.emit({"event": "flips_done"})
            # Saved after every flip, so a power cut never asks to turn a disk twice.
            self.table.changed(self.tentative == NO_CELL)
        lifted = self.lifted_at
        if cell == game.peek() and lifted >= 0:
            self.lifted_at = -1
            if elapsed(now, lifted) <= TAP_MS and game.rules.penalty:
                self.table.claim(now)

    def _lifted(self, cell, now):
        game = self.game
        self.suspect[cell] = 0
        if not game.cell_states[cell] or cell != game.peek() or not self.face_ok[cell]:
            return
        if self.tentative != NO_CELL:
            self._take_back(now, "slid")
        elif self.table.settings.remote:
            pass    # a move sent to the remote player: taken back by agreement only
        elif self.flips_of_last and self.to_turn:
            # The disk just placed lifted while its own flips are pending: taken back.
            self._take_back(now, "lifted")
        elif self.phase == PLAY and not self.to_turn:
            self.lifted_at = now

    def tick(self, now):
        """A tentative placement settles; the last placement's disk held off is taken back."""
        if self.tentative != NO_CELL and elapsed(now, self.placed_at) >= SETTLE_MS:
            self.tentative = NO_CELL
            self.table.changed(True)
            self._report_move()
            self.read(now)     # a disk put down meanwhile is the next placement
        if (self.lifted_at >= 0 and elapsed(now, self.lifted_at) >= TAKEBACK_HOLD_MS and
                self.phase == PLAY):
            self.lifted_at = -1
            # Other disks off too: the board is being cleared, or a disk was knocked off.
            if self.missing == 1:
                self._take_back(now, "held")

    # --- the reading ---------------------------------------------------------------------------

    def read(self, now):
        """Read the disks and act: the one new disk played, waiting its turn, or refused."""
        self._decide(self.classify(), now)

    def classify(self):
        """The disks against the game, a hex at a time, into `disks` and the counts; returns
        the last disk where the game has none but the waiting one (the new disk, if alone)."""
        cells = self.game.cell_states
        present = self.present
        face_ok = self.face_ok
        disks = self.disks
        waiting = self.waiting
        new = NO_CELL
        extra = missing = to_turn = 0
        for c in range(len(disks)):
            if cells[c]:
                ok = face_ok[c]
                if present[c]:
                    k = AGREES if ok else TO_TURN
                else:
                    k = LIFTED if ok else TURNING
                    missing += 1
                if not ok:
                    to_turn += 1
            elif not present[c]:
                k = EMPTY
            elif c == waiting:
                k = WAITING
            else:
                k = EXTRA
                new = c
                extra += 1
            disks[c] = k
        self.missing = missing
        self.to_turn = to_turn
        self.extra = extra
        self.reserved = 0
        return self._reserve(new) if self.pregame() else new

    def _reserve(self, new):
        """The one test of a settings hex (a square board's demo square too, not a chosen
        hex): before the first placement a disk there steps its setting (is_reserved)."""
        disks = self.disks
        cells = self.game.cell_states
        chosen = self.chosen
        reserved = extra = 0
        for c in self.layout.settings_hexes:
            k = disks[c]
            if c == chosen or cells[c]:
                pass
            elif k == EMPTY:
                disks[c] = SETTING
            else:                       # EXTRA or WAITING: no placement
                if k == EXTRA:
                    extra += 1
                reserved += 1
                disks[c] = RESERVED
        self.reserved = reserved
        self.extra -= extra
        if new != NO_CELL and disks[new] == RESERVED:
            new = NO_CELL
            for c in range(len(disks)):
                if disks[c] == EXTRA:
                    new = c
        return new

    def _decide(self, new, now):
        game = self.game
        disks = self.disks
        keep = self.waiting
        kept = keep != NO_CELL and disks[keep] == WAITING    # still where it was put down
        strays = self.extra + kept      # disks where the game has none
        if keep != NO_CELL and not kept:
            # The waiting disk left: those put down after it show the next side's face.
            for c in range(len(disks)):
                if disks[c] == EXTRA:
                    self.suspect[c] = 1
        ready = (self.phase == PLAY and not game.is_game_over() and not self.missing and
                 not self.to_turn)
        if kept:
            new = keep      # the first disk down keeps its turn; those after it are extra
        elif strays != 1:
            new = NO_CELL
        before = self.refused
        self.refused = NO_CELL
        if new != NO_CELL and (self.phase != PLAY or self.suspect[new]):
            new = NO_CELL
        elif new != NO_CELL and not self.playable(new):
            turn = game.turn
            settings = self.table.settings
            if (ready and strays == 1 and self.tentative == NO_CELL and
                    turn != settings.computer_side() and turn != settings.remote):
                self.refused = new  # on the computer's or the remote player's turn: extra
            new = NO_CELL
        if self.refused != before:
            self.table.changed()
        self.ready = ready and not strays and self.tentative == NO_CELL
        if new != NO_CELL and ready and self.tentative == NO_CELL:
            self._play(new, now)
        elif self.waiting != new:
            if kept:
                disks[keep] = EXTRA
                self.extra += 1
            if new != NO_CELL:
                disks[new] = WAITING
                self.extra -= 1
            self.waiting = new
            self.table.changed()

    def is_reserved(self, cell):
        """Is `cell` a settings hex now, no placement (classify's reading)?"""
        return self.disks[cell] >= RESERVED

    def pregame(self):
        """No placement yet, in play, not remote (a setting stepped at one board parts two)."""
        return (self.phase == PLAY and not self.game.ply() and
                not self.table.settings.remote)

    def playable(self, cell):
        """A legal placement for the side to move (on the computer's or remote turn: its hex)."""
        game = self.game
        if game.is_game_over() or not self.fresh_legal()[cell]:
            return False
        turn = game.turn
        settings = self.table.settings
        return (turn != settings.computer_side() and turn != settings.remote or
                cell == self.chosen)

    def would_play(self, cell):
        """Would a disk arriving on the empty `cell` now be played as the next placement?"""
        return (self.ready and not self.suspect[cell] and not self.present[cell] and
                not self.game.cell_states[cell] and not self.is_reserved(cell) and
                self.playable(cell))

    def settled(self):
        return self.tentative == NO_CELL and not self.to_turn   # none in hand, none to turn

    def fresh_legal(self):
        """The legal placements, a byte a hex, made on demand: a placement's frame, which
        does not show them, does not wait for them."""
        legal = self.legal
        if self.legal_stale:
            self.legal_stale = False
            for c in range(len(legal)):
                legal[c] = 0
            for c in self.game.legal_moves:
                legal[c] = 1
        return legal

    def choose(self, cell, now):
        """The engine or remote player chose `cell`: on their turn only a disk there plays."""
        self.chosen = cell
        self.table.changed()
        self.read(now)

    def unchoose(self):
        """The chosen hex goes dark; True if one was lit."""
        if self.chosen == NO_CELL:
            return False
        self.chosen = NO_CELL
        if not self.game.ply():
            self.classify()     # a chosen settings hex shows its setting again
        return True

    # --- placements ------------------------------------------------------------------------------

    def _play(self, new, now):
        game = self.game
        self.tentative_miss = game.is_miss(new)
        game.push(new)
        flips = game.last_flips()
        for c in flips:
            self.face_ok[c] = 0
            self.disks[c] = TO_TURN
        self.face_ok[new] = 1
        if self.disks[new] == EXTRA:
            self.extra -= 1
        self.disks[new] = AGREES
        self.waiting = NO_CELL
        self.to_turn += len(flips)
        self.chosen = NO_CELL
        if game.ply() == 1:
            # The settings hexes are hexes like the others now: a disk on one is extra.
            disks = self.disks
            for c in self.layout.settings_hexes:
                if disks[c] >= RESERVED:
                    disks[c] = EXTRA if disks[c] == RESERVED else EMPTY
            self.extra += self.reserved
            self.reserved = 0
        self.flips_of_last = True
        self.legal_stale = True
        self.tentative = new
        self.placed_at = now
        self.lifted_at = -1
        self.table.forget_engine()
        self.table.changed()
        self.table.emit(self.move_event("tentative"))

    def take_back(self, now):
        """Take back the last placement (its disk must then be removed); False if none."""
        if self.game.peek() is None or self.phase == STARTUP:
            return False
        self._take_back(now, "command")
        return True

    def _take_back(self, now, why):
        """A tentative placement (its disk slid on, say) was never a move: `withdrawn`."""
        game = self.game
        flipped = game.last_flips()
        cell = game.pop()
        for c in flipped:
            self.face_ok[c] ^= 1
        if self.phase == OVER:
            self.enter(PLAY, now)
        cells = game.cell_states
        present = self.present
        # The taken-back disk, and any put down early, must leave before they are placed
        # again; the disk a slide ended on (landed the change before) is played if it rests.
        new = NO_CELL
        n = len(cells)
        if (why == "slid" and self.changed_before == self.landed_at and
                elapsed(now, self.landed_at) <= SLIDE_MS):
            for c in range(n):
                if present[c] and not cells[c] and not self.suspect[c]:
                    new = c if new == NO_CELL else n     # two: neither is sure
        for c in range(n):
            if present[c] and not cells[c] and c != new:
                self.suspect[c] = 1
        was_move = self.tentative == NO_CELL
        self.tentative = NO_CELL
        self.lifted_at = -1
        self.flips_of_last = False
        self.position_changed()
        self.table.game_changed(now, True)
        self.table.changed(was_move)
        names = self.layout.names
        self.table.emit({"event": "take_back" if was_move else "withdrawn", "cell": names[cell],
                         "why": why,
                         "flips_to_undo": [names[c] for c in flipped if not self.face_ok[c]]})
        self.read(now)

    def position_changed(self):
        """The position changed (taken back, a penalty granted): empty hexes' faces right."""
        cells = self.game.cell_states
        for c in range(len(cells)):
            if not cells[c]:
                self.face_ok[c] = 1
        self.legal_stale = True
        self.table.changed()
        self.classify()

    def move_event(self, kind):
        """The last placement as an event: its disk, and each it turned captured or released."""
        game = self.game
        cells = game.cell_states
        cell = game.peek()
        flip = game.FLIP     # the captive bit; or 3, which every disk's state has a bit of
        names = self.layout.names
        captured = []
        released = []
        for c in game.last_flips():
            (captured if cells[c] & flip else released).append(names[c])
        return {"event": kind, "cell": names[cell], "side": iago.side_name(cells[cell] & 3),
                "captured": captured, "released": released}

    def _report_move(self):
        """The tentative placement settled: now it is a move, for the host too."""
        game = self.game
        event = self.move_event("move")
        self.table.emit(event)
        if self.tentative_miss:
            self.table.emit({"event": "miss", "cell": event["cell"]})
        mover = game.cell_states[game.peek()] & 3
        if game.PASSES and game.turn == mover and not game.is_game_over():
            self.table.emit({"event": "pass", "side": iago.side_name(mover ^ 3)})

    # --- what a host hears --------------------------------------------------------------------

    def agrees(self):
        """Every hex holds what the game says and every flip is done."""
        return not (self.missing or self.to_turn or self.extra or self.reserved or
                    self.waiting != NO_CELL)

    def cells_read(self, *kinds):
        """The hexes the reading puts in any of `kinds` (EMPTY ... SETTING), in cell order."""
        return [c for c in range(len(self.disks)) if self.disks[c] in kinds]

    def differences(self):
        """(extra disks, missing disks, flips pending) as lists of cells."""
        return self.cells_read(EXTRA), self.cells_read(LIFTED, TURNING), self.flips_pending()

    def flips_pending(self):
        return self.cells_read(TO_TURN, TURNING)
