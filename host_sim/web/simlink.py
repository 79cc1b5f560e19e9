"""The simulated board's host link (simdriver.py): the lines the firmware writes, sorted into
the replies the page's commands wait for, the events that follow, and what goes to the
pseudo-terminal; a command sent and its reply awaited on the board's virtual time; a finished
game kept. A part of SimDriver, split out by concern: it works on the driver's board, hub, pty
and the replies awaited (SimDriver.__init__ declares them all) and runs in its sim thread."""

import json

from host_sim.web import api, records
from host_sim.web.api import ApiError, conflict

REPLY_MS = 500               # virtual time a command may take to answer


class SimLink:
    """The host link of SimDriver: `command(msg)` and the lines the board wrote."""

    def _drain(self):
        for line in self.board.serial.lines:
            try:
                msg = json.loads(line)
            except ValueError:
                self.hub.log("in", line)
                continue
            if not isinstance(msg, dict):
                self.hub.log("in", line)
                continue
            if "reply" in msg:
                rid = msg.get("id")
                if isinstance(rid, str) and rid in self._asked:
                    self._asked.discard(rid)
                    self._replies[rid] = msg
                    if not rid.startswith("poll-"):
                        self.hub.log("in", line)
                else:
                    self.hub.log("in", line, "pty")
                    self._to_pty(line)
                continue
            self.hub.log("in", line)
            self._to_pty(line)
            self._on_event(msg)
            if self.remote is not None:
                self.remote.board_event(msg)
        self.board.serial.lines = []

    def _on_event(self, msg):
        event = msg.get("event")
        if event == "take_back" and isinstance(msg.get("cell"), str):
            self.remove_asked.add(self.layout.parse_cell(msg["cell"]))
        elif event == "saved_game" and self.games_dir is not None:
            if self._replayed_to_its_end():
                self.hub.log("note", "finished game %s is the record replayed to its end: not "
                             "kept again" % msg.get("game"), "server")
            else:
                self._followups.append(msg.get("game"))
        elif event in ("new_game", "startup"):
            self.remove_asked.clear()

    def _replayed_to_its_end(self):
        """Whether the game on the board is the loaded record's, every placement of it
        replayed: the player has that record already."""
        ctl = self._game()
        return (self.replay is not None and ctl is not None and
                [self._name(c) for c in ctl.game.move_stack] == self.replay.moves)

    def _after_messages(self):
        while self._followups:
            game_id = self._followups.pop(0)
            try:
                reply = self.command({"cmd": "game", "game": game_id})
                path = records.keep_finished(self.games_dir, reply["record"],
                                             self.board.boardmap.name, game_id)
            except (ApiError, OSError, KeyError) as exc:
                self.hub.log("note", "could not keep finished game %s: %s" % (game_id, exc),
                             "server")
                continue
            self.saved = (self.saved + [path.name])[-5:]
            self.hub.log("note", "finished game kept as %s" % path, "server")

    def command(self, msg, source="page"):
        """Send a host-link command and return the board's reply (ApiError if none)."""
        board = self.board
        if not board.powered:
            raise conflict("the board has no power, so it answers no command")
        self._seq += 1
        rid = "%s-%d" % ("poll" if source == "poll" else "page", self._seq)
        line = api.host_line(msg, rid)
        board.send(line)
        self._asked.add(rid)
        if source != "poll":
            self.hub.log("out", line, source)
        deadline = board.clock.us + REPLY_MS * 1000
        while rid not in self._replies and board.clock.us < deadline and board.powered:
            self._advance_to(board.clock.us + 2000)
            self._drain()
        reply = self._replies.pop(rid, None)
        self._asked.discard(rid)
        if reply is None:
            raise ApiError(504, "the board did not answer %s" % msg.get("cmd"))
        return reply

    def _command_action(self, body):
        msg = api.host_command(body)
        if self.remote is not None:
            self.remote.check_command(msg)
        reply = self.command(msg)
        if not reply.get("ok"):
            raise ApiError(400, "the board refused %s: %s" % (msg["cmd"], reply.get("error")))
        return reply

    def _to_pty(self, line):
        if self.pty is not None:
            self.pty.write(line)
