"""Physical play on the simulated board, and the invariants the board lives by.

`Table` wraps a SimBoard (the unmodified firmware) with players' hands and a record of what the
hands did, and `check()` tests the board's promise after any step:

(a) whenever the board shows nothing to mend, the disks on the board and their faces are
    exactly the game's position;
(b) the settled move list changes only by a placement a player made (a disk put down to play,
    not one put back while mending) or by losing its last move to a take-back; a power cut
    loses no settled move; a new game starts only when asked or when a finished game's board is
    cleared;
(c) the LEDs show what `state` says: legal moves glow only when `legal` lists them, a disk to
    remove blinks as an error, a missing disk shows the face it must have, a disk to turn shows
    its two faces, a corner's turn signal is never lit steadily like a legal move;
(d) the board always offers a way forward: `calm()` follows the LEDs and must bring the board
    back to a position where the game goes on (or is over).

Players read the board as a host does (`state`), which (c) ties to the LEDs. A reed switch
cannot sense a face, so (a) assumes the one discipline no board can enforce: a disk put back
where the LEDs ask for one, or turned when asked, shows the face its LED shows, and a new disk
shows the mover's colour.
"""

from gameboard import palette
from gameboard import NO_CELL as NONE
from host_sim.render import FACES as FACE
from host_sim.render import turned_faces
from host_sim.simboard import SimBoard

FACE_COLOUR = {"D": palette.DARK, "L": palette.LIGHT, "d": palette.DARK_CAPTIVE,
               "l": palette.LIGHT_CAPTIVE}
SELECT_GPIO = 20     # hardware/board.json's `select` button: takes the last placement back


class AgreementError(AssertionError):
    pass


def _with_log(method):
    """Failures name the hands that led to them."""
    def checked(self, *args):
        try:
            return method(self, *args)
        except AgreementError as exc:
            hands = "\n".join("  %r" % (entry,) for entry in self.log[-25:])
            raise AgreementError("%s\nthe last hands:\n%s" % (exc, hands)) from None
    return checked


class Table:
    """A simulated board with players' hands and the invariants' bookkeeping."""

    def __init__(self, map_path=None, seed=0, runtime="micropython", fram=False):
        # `fram`: the game in progress on an FRAM (gameboard/framsaves.py), cut in a save
        # after any byte of its record, instead of on the flash.
        self.board = SimBoard(map_path, seed=seed, runtime=runtime, fram=fram)
        self.board.advance(1300)              # the light check
        self.layout = self.board.layout
        self.turned = turned_faces(self.layout.flip)
        self.step = 0
        self.placed_by_hand = {}    # cell -> step of the last disk put down there to play
        self.unplayed = {}          # cell -> step its move last left the move list
        self.settled = []           # the settled move list at the last check
        self.new_game_allowed = False
        self.before_cut = None
        self.torn = False           # the cut tore a save: its move may be lost, not others
        self.settling = None        # a placement by hand that may settle just before the cut
        self.was_over = False       # a cleared finished game starts a new one
        self.log = []

    def close(self):
        self.board.close()

    # --- what players see --------------------------------------------------------------

    @property
    def ctl(self):
        """Who has the board: the game's controller, the demo or the self-test."""
        return self.board.mode

    def state(self):
        ctl = self.ctl
        if ctl is None or ctl is not self.board.controller:
            return None
        return ctl.state()

    def face_shown(self, cell):
        """The face the game says a disk on `cell` must show (None: no disk belongs there)."""
        value = self.ctl.game.cell(cell)
        return FACE.get(value)

    # --- hands ---------------------------------------------------------------------------

    def note(self, *what):
        self.log.append((self.step,) + what)
        self._react()

    def _react(self):
        """A hand moves again only once the board could have seen its last move (debounce
        and bounce, 20-30 ms here, well under a person's reaction): a disk put down in the
        same instant as the turn passes cannot show a face chosen for the new turn."""
        board = self.board
        # From the end of that change's chatter: the switches may chatter less from now on.
        seen_at_us = board.quiet_at_us + 1000 * (board.boardmap.debounce_ms + 5)
        if board.clock.us < seen_at_us:
            board.advance((seen_at_us - board.clock.us) / 1000)

    def place(self, cell, face=None, rest_ms=400):
        """A disk put down to play it. Where the game has a disk (its own lifted off), it is
        that disk put back as the LEDs show it: a face is the one thing a reed switch cannot
        sense, so a disk put back with the other face up is a mistake no board can see."""
        ctl = self.ctl
        if ctl is not None and hasattr(ctl, "game") and ctl.game.cell(cell):
            self.put_back(cell, self.face_shown(cell), rest_ms)
            return
        self.step += 1
        self.note("place", self.layout.cell_name(cell), rest_ms)
        self.placed_by_hand[cell] = self.step
        self.board.place(cell, face, rest_ms)
        self.check()

    def put_back(self, cell, face, rest_ms=100):
        """A disk put (back) down while mending: a placement of its own only where the game
        has no disk (the board cannot tell what a hand meant there)."""
        self.step += 1
        self._react()
        ctl = self.ctl
        if ctl is not None and hasattr(ctl, "game") and not ctl.game.cell(cell):
            self.placed_by_hand[cell] = self.step
            # The one thing a reed switch cannot sense is a face: a disk put down where the
            # game has none shows the mover's colour, as any placement does (the side after
            # a disk that waits its turn).
            face = self.board.mover_face()
        else:
            self.placed_by_hand.pop(cell, None)
        self.note("put", self.layout.cell_name(cell), face)
        self.board.put(cell, face, rest_ms)
        self.check()

    def lift(self, cell, hold_ms=50):
        self.step += 1
        self.note("lift", self.layout.cell_name(cell), hold_ms)
        if cell == self.layout.demo_cell and list(self.board.disks) == [cell]:
            # A lone disk lifted from the centre: the new-game gesture, if the board had been
            # empty 2 s before it came and it stayed 2 s (docs/board.md, "Gestures").
            self.new_game_allowed = True
        face = self.board.lift(cell, hold_ms)
        self.check()
        return face

    def slide(self, path, step_ms=40, overlap_ms=0):
        """A disk slid across `path` to rest on its last hex (`step_ms`, `overlap_ms`: see
        SimBoard.slide). Where the game has a disk, off the board, it is that disk put back by
        sliding, with the face its LED shows; where the game has none when the disk arrives,
        it is a placement. Both are decided when the disk arrives, and so is its face: the
        disk of the last move, kept off for the 1.5 s that take it back, may be taken back on
        the way, and then lands as a placement (of the side to move again, whose face it
        shows); a take-back on the way changes the side a new disk lands for.
        A slide pauses less than the 0.3 s that plays a placement on the hexes it passes."""
        self.step += 1
        self.note("slide", [self.layout.cell_name(c) for c in path], step_ms, overlap_ms)
        last = path[-1]
        face = self.face_shown(last) if self._game_holds(last) else None

        def arriving(cell):
            state = self.state()
            if state is not None and state["phase"] != "startup":
                self._check_moves(state)        # what the game did on the way
            if self._game_holds(cell):
                self.placed_by_hand.pop(cell, None)
                return self.face_shown(cell)
            self.placed_by_hand[cell] = self.step + 0.5     # after that, in this hand
            return self._slid_disk_face(path)

        for c in path[:-1]:
            self.placed_by_hand.pop(c, None)
        self.board.slide(path, step_ms, overlap_ms, face=face, arriving=arriving)
        self.check()

    def _slid_disk_face(self, path):
        """The face of a new disk as it lands at the end of `path`: the mover's colour, but
        the colour it has already been played in, or waits to be played in, on a hex it
        passed (no other disk can be there)."""
        if self.state() is None:
            return self.board.mover_face()
        referee = self.ctl.referee
        if referee.tentative in path and self._game_holds(referee.tentative):
            return self.face_shown(referee.tentative)
        return self.board.mover_face(waiting=referee.waiting not in path)

    def _game_holds(self, cell):
        ctl = self.ctl
        return ctl is not None and hasattr(ctl, "game") and bool(ctl.game.cell(cell))

    def wait(self, ms):
        self.step += 1
        self.note("wait", ms)
        self.board.advance(ms)
        self.check()

    def command(self, message):
        self.step += 1
        self.note("command", message)
        if message.get("cmd") == "new_game":
            self.new_game_allowed = True
        self.board.send(message)
        self.board.advance(20)
        self.check()

    def press_select(self, hold_ms=80):
        self.step += 1
        self.note("select")
        circuit = self.board.circuit
        circuit.press(SELECT_GPIO)
        self.board.advance(hold_ms)
        circuit.press(SELECT_GPIO, False)
        self.board.advance(40)
        self.check()

    def power_cut(self, off_ms=200):
        self.step += 1
        self.note("power_cut", off_ms)
        self.check()                 # the settled moves the cut must not lose
        self.before_cut = list(self.settled)
        self.board.power_cut()
        self.board.advance(off_ms)
        self.board.power_on()
        self.board.advance(1300)
        self._check_restored()
        self.check()

    def _check_restored(self):
        """(b) across a cut, read from the game's controller even if the demo took over."""
        game = self.board.app.controller if self.board.app else None
        if game is not None and game.referee.phase != 0:
            self._check_moves(game.state())

    def cut_in_save(self, nth, off_ms=200):
        """The power goes in the middle of the nth save from now (if it comes within 3 s)."""
        self.step += 1
        self.note("cut_in_save", nth)
        self.check()
        board = self.board
        board.cut_in_save(nth)
        # Play goes on until the save comes, checked as ever: a placement may settle meanwhile
        # and be saved before the cut, so the moves that must survive are those of the last
        # check, and the one then still settling if a hand put it down.
        for _ in range(60):
            settled = list(self.settled)
            state = self.state()
            tentative = state and state.get("tentative")
            board.advance(50)
            if not board.powered:
                break
            self.check()
        board.cut_in_save(0)
        if board.powered:            # no such save came: nothing was cut
            self.check()
            return
        self.before_cut = settled
        if tentative:
            cell = self.layout.parse_cell(tentative)
            if self.placed_by_hand.get(cell, -1) > self.unplayed.get(cell, -1):
                self.settling = cell
        self.torn = True
        board.advance(off_ms)
        board.power_on()
        board.advance(1300)
        self._check_restored()
        self.check()

    def turn(self, cell, hold_ms=350):
        """Lift a disk, turn it over and put it back."""
        face = self.lift(cell, hold_ms)
        self.put_back(cell, self.turned[face])

    # --- mending as the LEDs ask -----------------------------------------------------------

    def mend_once(self, rng=None, brisk=False):
        """Do one thing the board asks for; False if it asks for nothing."""
        state = self.state()
        ctl = self.ctl
        if state is None and ctl is not None and ctl.shares_board:
            # The demo (a disk held on the centre of the empty board): a disk put down
            # anywhere stops it, as docs/board.md says.
            empty = [c for c in range(self.layout.cells) if c not in self.board.disks]
            self.place(empty[len(empty) // 2], rest_ms=100)
            return True
        if state is None or state["phase"] == "startup":
            self.wait(100)
            return True
        parse = self.layout.parse_cell
        disks = self.board.disks
        if state["phase"] == "over":              # clearing the board starts a new game
            if disks:
                self.lift(next(iter(disks)), 5)
                self.new_game_allowed = True
                return True
            return False
        for name in state["extra"]:
            cell = parse(name)
            if cell in disks:
                self.lift(cell, 20)
                return True
        for name in state["missing"]:
            cell = parse(name)
            if cell not in disks:
                self.put_back(cell, self.face_shown(cell), 60 if brisk else 150)
                return True
        for name in state["flips_pending"]:
            cell = parse(name)
            if cell in disks:
                # Lift it and put it back with the face the LED shows most of the time: the
                # one the game wants (after a torn save it may show it already).
                self.lift(cell, 60 if brisk else 350)
                self.put_back(cell, self.face_shown(cell))
                return True
        if state["tentative"] or any(parse(n) not in disks for n in state["extra"]) or any(
                parse(n) in disks for n in state["missing"]):
            self.wait(50)     # the switches' debounce has yet to tell the board
            return True
        return False

    @_with_log
    def calm(self, limit=400):
        """(d): follow the LEDs without mistakes until the game can go on."""
        for _ in range(limit):
            if not self.board.powered:
                self.board.power_on()
                self.board.advance(1300)
            state = self.state()
            if state is not None and state["phase"] == "over":
                return state
            if not self.mend_once():
                state = self.state()
                if state["legal"] or state["phase"] == "over" or self.ctl.game.is_game_over():
                    return state
                if self.ctl.settings.computer_side() == self.ctl.game.turn:
                    self.wait(200)
                    continue
                raise AgreementError("nothing to mend, yet no way forward: %r" % (state,))
            self.check()
        raise AgreementError("the board never came back to play: %r" % (self.state(),))

    # --- the invariants -----------------------------------------------------------------------

    @_with_log
    def check(self):
        state = self.state()
        if state is None:
            # The demo has the board; the game's moves still count (a take-back just before
            # it started, say), and a cut must keep them.
            self._check_restored()
            return
        if state["phase"] == "startup":
            return
        self._check_agreement(state)
        self._check_moves(state)
        self._check_leds(state)
        self.was_over = state["phase"] == "over"

    def _check_agreement(self, state):
        """(a)"""
        if (state["extra"] or state["missing"] or state["flips_pending"] or state["tentative"]
                or state["waiting"]):
            return
        board = self.board
        if board.clock.us - board.quiet_at_us < 1000 * (board.boardmap.debounce_ms + 10):
            return                  # a switch's change the debounce has yet to report
        game = self.ctl.game
        pregame = game.ply() == 0
        for cell in range(self.layout.cells):
            want = FACE.get(game.cell(cell))
            have = self.board.disks.get(cell)
            if have is not None and want is None and pregame and (
                    self.layout.setting_at(cell) or cell == self.layout.demo_cell):
                continue                       # a disk resting on a settings hex
            if want != have:
                raise AgreementError("the board shows nothing to mend, but %s holds %r where "
                                     "the game has %r (%s)" % (self.layout.cell_name(cell),
                                                               have, want, state["position"]))

    def _check_moves(self, state):
        """(b)"""
        moves = [self.layout.parse_cell(n) for n in state["moves"]]
        if state["tentative"]:
            moves = moves[:-1]
        old = self.settled
        names = [self.layout.cell_name(c) for c in old]
        if self.before_cut is not None:
            if self.torn and self.before_cut and moves == self.before_cut[:-1]:
                self.unplayed[self.before_cut[-1]] = self.step   # its save was torn
            elif self.settling is not None and moves == self.before_cut + [self.settling]:
                pass                            # it settled and was saved just before the cut
            elif self.torn and not moves and self.board.save_lost:
                pass    # CircuitPython: the cut tore the erase of the save log, and said so
            elif moves != self.before_cut:
                raise AgreementError("a power cut changed the settled moves from %s to %s" % (
                    names, state["moves"]))
            self.before_cut = None
            self.torn = False
            self.settling = None
        if moves == old:
            return
        if not moves and (self.new_game_allowed or self.was_over):
            pass
        else:
            # At most one move taken back, then placements made by hands.
            kept = 0
            while kept < min(len(old), len(moves)) and old[kept] == moves[kept]:
                kept += 1
            if len(old) - kept > 1:
                raise AgreementError("the move list jumped from %s to %s" % (
                    names, state["moves"]))
            if kept < len(old):
                self.unplayed[old[-1]] = self.step
            for cell in moves[kept:]:
                if self.placed_by_hand.get(cell, -1) <= self.unplayed.get(cell, -1):
                    raise AgreementError("%s was played, but no hand put a disk there to play "
                                         "it (moves %s -> %s)" % (
                                             self.layout.cell_name(cell), names,
                                             state["moves"]))
        self.new_game_allowed = False
        self.settled = moves

    def _check_leds(self, state):
        """(c): the LED of every hex against what `state` says of it."""
        app = self.board.app
        if app is None or app.mode is not app.controller or state["phase"] == "over":
            return
        ctl = self.ctl
        pal = palette.PALETTES[ctl.settings.palette]
        leds = app.leds
        scale = leds.scale
        by_colour = {}
        for k in range(len(pal) // 3):
            rgb = tuple((leds.level(v) * scale) >> 12 for v in pal[3 * k:3 * k + 3])
            by_colour.setdefault(rgb, set()).add(k)
        colours = self.board.circuit.led_colours()
        parse = self.layout.parse_cell
        legal = {parse(n) for n in state["legal"]}
        extra = {parse(n) for n in state["extra"]}
        missing = {parse(n) for n in state["missing"]}
        flips = {parse(n) for n in state["flips_pending"]}
        waiting = parse(state["waiting"]) if state["waiting"] else None
        hint = palette.HINT_DARK if state["turn"] == "dark" else palette.HINT_LIGHT
        mover = FACE_COLOUR["D" if state["turn"] == "dark" else "L"]
        pregame = not state["moves"]
        # A refused disk, alone where everything else agrees: the legal hexes light up in the
        # mover's disk colour to say why (docs/board.md, "Moves").
        refused = ctl.referee.refused
        if refused != NONE and (state["extra"] != [self.layout.cell_name(refused)] or
                                state["missing"] or state["flips_pending"] or
                                state["tentative"] or state["waiting"]):
            raise AgreementError("the legal hexes light up for a refused disk on %s, but the "
                                 "board has more to mend: %r" % (
                                     self.layout.cell_name(refused), state))
        cue = set(ctl.game.legal_moves) if refused != NONE else ()
        for cell in range(self.layout.cells):
            if cell in (ctl.view.flash_cell, ctl.referee.chosen) or (
                    pregame and (self.layout.setting_at(cell) or cell == self.layout.demo_cell)):
                continue
            shown = by_colour.get(colours[cell], {None})
            face = self.face_shown(cell)
            if cell in extra:
                allowed = {palette.ERROR, palette.OFF}
            elif cell in missing:
                allowed = {FACE_COLOUR[face], palette.OFF}
            elif cell in flips:
                allowed = {FACE_COLOUR[face], FACE_COLOUR[self.turned[face]]}
            elif face is not None:
                allowed = {FACE_COLOUR[face]}
            elif cell == waiting:
                allowed = {mover, palette.OFF}
            elif cell in cue:
                allowed = {mover}
            elif cell in legal and ctl.settings.hints:
                allowed = {hint}
            elif cell in self.layout.corners:
                allowed = {mover, palette.OFF}      # the turn signal's two flashes
                if ctl.view.flash_fault:
                    allowed.add(palette.ERROR)      # and the red one of a flash that fails
            else:
                allowed = {palette.OFF}
            if not shown & allowed:
                raise AgreementError("%s shows %r (palette %s), state allows %s: %r" % (
                    self.layout.cell_name(cell), colours[cell], sorted(shown, key=str),
                    sorted(allowed), state))
