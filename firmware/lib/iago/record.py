"""Game records: one game per text file, in the spirit of PGN.

    [Game "Iago"]
    [Rules "standard+penalty"]
    [Dark "Ann"]
    [Light "Ben"]
    [Date "2026.11.22"]
    [Result "1-0"]
    [Score "72-60"]

    1. E4 E6 2. D4 claim A1 3. ... 1-0

Headers are `[Name "value"]` lines (a `Position` header holds the starting position text when
the game did not start on the empty board). Move text numbers each pair of placements (dark's,
then light's); `claim` before a placement records a granted penalty claim; `{...}` is a
comment; the result (`1-0` dark won, `0-1` light won, `1/2-1/2` a draw, `*` unfinished) ends
the game. The `Game` header names the game (Iago when absent; Othello, Io, Number line: a
module's TITLE or its name in `games.GAMES`, in any case): that rules module reads the Rules
and Position headers, and its board's grid names the cells.
"""

from iago import games
from iago.core import IagoError, InvalidRecordError

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_HEADER_ORDER = ("Game", "Event", "Site", "Date", "Dark", "Light", "Rules", "Position",
                 "Result", "Score")


class Game:
    """A parsed record: headers (a list of (name, value) in file order) and placements."""

    def __init__(self, headers=None, moves=None, claims=None, result="*"):
        self.headers = list(headers or [])
        self.moves = list(moves or [])
        self.claims = list(claims or [])
        self.result = result

    def header(self, name, default=None):
        for key, value in self.headers:
            if key == name:
                return value
        return default

    def set_header(self, name, value):
        for i in range(len(self.headers)):
            if self.headers[i][0] == name:
                self.headers[i] = (name, value)
                return
        self.headers.append((name, value))

    def module(self):
        """The rules module of the game the record's Game header names (Iago when absent)."""
        return module_named(self.header("Game", "Iago"))

    def _start(self):
        """The board the game starts from (no moves played)."""
        module = self.module()
        try:
            return module.Board(self.header("Position"), self.rules())
        except IagoError as exc:
            raise InvalidRecordError("Position header: %s" % exc)

    def _light_starts(self):
        return 1 if self._start().turn == 2 else 0

    def _label(self, ply):
        """'3.' for dark's third placement, '3...' for light's."""
        ply += self._light_starts()
        return "%d.%s" % (ply // 2 + 1, ".." if ply % 2 else "")

    def rules(self):
        module = self.module()
        try:
            if self.header("Rules") is None:
                return module.Board.default_rules()
            return module.Rules.parse(self.header("Rules"))
        except IagoError as exc:
            raise InvalidRecordError("Rules header: %s" % exc)

    def board(self, plies=None):
        """The board after `plies` placements (default: all), replayed and checked."""
        board = self._start()
        count = len(self.moves) if plies is None else plies
        for ply in range(count):
            if ply in self.claims and not board.claim_penalty():
                raise InvalidRecordError("move %s: claim refused, the previous placement was "
                                         "not a miss" % self._label(ply))
            try:
                board.play(self.moves[ply])
            except IagoError as exc:
                raise InvalidRecordError("move %s: %s" % (self._label(ply), exc))
        if plies is None and len(self.claims) > 0 and self.claims[-1] == len(self.moves):
            if not board.claim_penalty():
                raise InvalidRecordError("final claim refused, the last placement was not a miss")
        return board

    def text(self):
        """The record as text (headers, a blank line, move text wrapped at 79 columns)."""
        lines = ['[%s "%s"]' % (k, v.replace("\\", "\\\\").replace('"', '\\"'))
                 for k, v in self.headers]
        lines.append("")
        start = self._start()
        name = start.grid.cell_name
        offset = 1 if start.turn == 2 else 0
        tokens = []
        for ply in range(len(self.moves)):
            if (ply + offset) % 2 == 0:
                tokens.append("%d." % ((ply + offset) // 2 + 1))
            elif ply == 0:
                tokens.append("1...")
            if ply in self.claims:
                tokens.append("claim")
            tokens.append(name(self.moves[ply]))
        if len(self.moves) in self.claims:
            tokens.append("claim")
        tokens.append(self.result)
        line = ""
        for token in tokens:
            if line and len(line) + 1 + len(token) > 79:
                lines.append(line)
                line = token
            else:
                line = line + " " + token if line else token
        lines.append(line)
        return "\n".join(lines) + "\n"


def module_named(name):
    """The rules module of a Game header's value: a game's TITLE ("Number line") or its name
    in `games.GAMES` ("numberline"), in any case. Raises InvalidRecordError naming it."""
    key = name.strip().lower()
    for game in games.GAMES:
        if game == key.replace(" ", ""):
            return games.module(game)
    for game in games.GAMES:
        module = games.module(game)
        if module.TITLE.lower() == key:
            return module
    raise InvalidRecordError("Game header: unknown game %r (games: %s)"
                             % (name, ", ".join(games.GAMES)))


def from_board(board, headers=None):
    """A Game of everything played on `board`, with the result filled in when it is over."""
    module = games.module(board.GAME)
    game = Game([("Game", module.TITLE)], board.move_stack, board.claims)
    for key, value in headers or ():
        game.set_header(key, value)
    game.set_header("Rules", board.rules.name())
    if board.start_text != module.Board(None, board.rules).text():
        game.set_header("Position", board.start_text)
    outcome = board.outcome()
    game.result = outcome.result() if outcome else "*"
    game.set_header("Result", game.result)
    if outcome:
        game.set_header("Score", "%d-%d" % (outcome.dark_score, outcome.light_score))
    order = {}
    for i in range(len(_HEADER_ORDER)):
        order[_HEADER_ORDER[i]] = i
    game.headers.sort(key=lambda kv: order.get(kv[0], len(order)))
    return game


def write(board, headers=None):
    """The record text of the game played on `board`."""
    return from_board(board, headers).text()


def parse(text):
    """Read a record; raises InvalidRecordError naming the line or move that is wrong.

    The moves are replayed, so a record that parses is a legal game.
    """
    if not isinstance(text, str):
        raise InvalidRecordError("a record is text, not %r" % (type(text),))
    game = Game()
    body = []
    in_headers = True
    lineno = 0
    for line in text.split("\n"):
        lineno += 1
        stripped = line.strip()
        if in_headers and stripped.startswith("["):
            game.headers.append(_parse_header(stripped, lineno))
        elif in_headers and not stripped:
            continue
        else:
            in_headers = False
            body.append(line)
    _parse_moves(" ".join(body), game, game._start().grid)
    board = game.board()
    declared = game.header("Result")
    if declared is not None and declared != game.result:
        raise InvalidRecordError("Result header %r differs from the move text's %r"
                                 % (declared, game.result))
    outcome = board.outcome()
    if game.result != "*" and (outcome is None or outcome.result() != game.result):
        raise InvalidRecordError("result %s does not match the game: %s" % (
            game.result, "the game is not over" if outcome is None else
            "it ended " + outcome.result()))
    return game


def _parse_header(line, lineno):
    if not line.endswith("]") or " " not in line:
        raise InvalidRecordError("line %d: a header is [Name \"value\"]: %s" % (lineno, line))
    inner = line[1:-1]
    space = inner.index(" ")
    name = inner[:space]
    value = inner[space + 1:].strip()
    if not name or len(value) < 2 or value[0] != '"' or value[-1] != '"':
        raise InvalidRecordError("line %d: a header is [Name \"value\"]: %s" % (lineno, line))
    out = ""
    escaped = False
    for ch in value[1:-1]:
        if escaped:
            out += ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            raise InvalidRecordError("line %d: unescaped quote in header value: %s"
                                     % (lineno, line))
        else:
            out += ch
    return name, out


def _parse_moves(movetext, game, grid):
    text = movetext
    tokens = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            end = text.find("}", i)
            if end < 0:
                raise InvalidRecordError("comment opened with { is never closed")
            i = end + 1
        elif ch in " \t\r\n":
            i += 1
        else:
            j = i
            while j < len(text) and text[j] not in " \t\r\n{":
                j += 1
            tokens.append(text[i:j])
            i = j
    result = None
    for token in tokens:
        if result is not None:
            raise InvalidRecordError("%r after the result %s" % (token, result))
        if token in RESULTS:
            result = token
        elif token == "claim":
            game.claims.append(len(game.moves))
        elif token.rstrip(".").isdigit() and token.endswith("."):
            continue
        else:
            number = token
            while number and number[0].isdigit():
                number = number[1:]
            if number != token and number.startswith("."):
                token = number.lstrip(".")  # "1.E4" written without a space
            try:
                game.moves.append(grid.parse_cell(token))
            except IagoError:
                raise InvalidRecordError("unknown token %r in the move text" % (token,))
    game.result = result or "*"
