"""Games against the engine on the host: engine matches, position analysis, terminal play.

The `iago` command (cli.py) calls `cmd_match`, `cmd_analyse` and `cmd_versus`; the other
functions are the pieces, usable from tests and benchmarks.
"""

import math
import multiprocessing
import os
import sys
import time

import iago
from iago import engine, games
from host_sim import render

OPENING_PLIES = 4   # random placements before the players take over, the same for a pair


def parse_player(text):
    """'random', 'greedy' or a level '1'..'5' -> the engine's player value."""
    word = str(text).strip().lower()
    if word in (engine.RANDOM, engine.GREEDY):
        return word
    if word.isdigit() and int(word) in engine.LEVELS:
        return int(word)
    raise ValueError("unknown player %r (use random, greedy or a level 1-%d)"
                     % (text, max(engine.LEVELS)))


def player_name(player):
    return player if isinstance(player, str) else "level %d" % player


def engine_for(board):
    """The engine module of `board`'s game, as the registry chooses it (iago.games.search):
    Iago's own, or the generic one (iago.search)."""
    return sys.modules[type(games.search(board, 1)).__module__]


def play_game(dark, light, rules, seed, opening=OPENING_PLIES, nodes=None, game="iago"):
    """One game from the empty board; returns (outcome, plies).

    `opening` random placements (from `seed`) come first; each player then moves with a seed
    made of the game seed and the ply, so a game is fully determined by its arguments. A
    player claims a penalty whenever the rules allow it (a free placement never hurts).
    """
    board = games.module(game).new_board(rules)
    eng = engine_for(board)
    rng = engine.Lcg(engine.mix_seed(seed, 7919))
    while not board.is_game_over():
        if board.can_claim():
            board.claim_penalty()
        ply = board.ply()
        if ply < opening:
            moves = eng.candidate_moves(board)
            board.push(moves[rng.below(len(moves))])
            continue
        player = dark if board.turn == iago.DARK else light
        board.push(eng.choose_move(board, player, engine.mix_seed(seed, ply), nodes))
    return board.outcome(), board.ply()


def _game_task(task):
    index, a, b, rules_name, seed, opening, nodes, game = task
    a_dark = index % 2 == 0
    # Both games of a pair share the opening (the same game seed), colours swapped.
    game_seed = engine.mix_seed(seed, index // 2)
    rules = games.module(game).Rules.parse(rules_name)
    dark, light = (a, b) if a_dark else (b, a)
    outcome, plies = play_game(dark, light, rules, game_seed, opening, nodes, game)
    a_side = iago.DARK if a_dark else iago.LIGHT
    a_score = outcome.dark_score if a_dark else outcome.light_score
    b_score = outcome.light_score if a_dark else outcome.dark_score
    return index, outcome.winner == a_side, a_dark, a_score, b_score, plies


def wilson(wins, games, z=1.96):
    """The Wilson score interval (low, high) for a win rate of wins/games."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


class MatchResult:
    def __init__(self, a, b, rules, games, seed):
        self.a = a
        self.b = b
        self.rules = rules
        self.games = games
        self.seed = seed
        self.wins = 0
        self.losses = 0
        self.wins_as = {iago.DARK: 0, iago.LIGHT: 0}
        self.games_as = {iago.DARK: 0, iago.LIGHT: 0}
        self.a_points = 0
        self.b_points = 0
        self.seconds = 0.0

    def add(self, won, a_dark, a_score, b_score):
        side = iago.DARK if a_dark else iago.LIGHT
        self.games_as[side] += 1
        if won:
            self.wins += 1
            self.wins_as[side] += 1
        else:
            self.losses += 1
        self.a_points += a_score
        self.b_points += b_score

    @property
    def played(self):
        return self.wins + self.losses

    def rate(self):
        return self.wins / self.played if self.played else 0.0

    def lines(self):
        n = self.played
        low, high = wilson(self.wins, n)
        a, b = player_name(self.a), player_name(self.b)
        return [
            "%s against %s: %d games, rules %s, seed %d" % (a, b, n, self.rules.name(), self.seed),
            "%s won %d, lost %d (as dark %d of %d, as light %d of %d)" % (
                a, self.wins, self.losses, self.wins_as[iago.DARK], self.games_as[iago.DARK],
                self.wins_as[iago.LIGHT], self.games_as[iago.LIGHT]),
            "%s's win rate %.1f%%, 95%% confidence interval %.1f%% to %.1f%% (Wilson)" % (
                a, 100 * self.rate(), 100 * low, 100 * high),
            "average score %.1f to %.1f, %.1f s" % (
                self.a_points / max(n, 1), self.b_points / max(n, 1), self.seconds),
        ]


class Progress:
    """Games done and the running score: a bar redrawn in place on a terminal, plain lines
    (about ten in a run) elsewhere."""

    def __init__(self, total, a, b, stream=None, tty=None):
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.every = max(1, total // 10)
        self.label = "%s vs %s" % (player_name(a), player_name(b))

    def update(self, result):
        done = result.played
        if self.tty:
            width = 30
            filled = width * done // self.total
            self.stream.write("\r%s [%s%s] %d/%d games  %d-%d " % (
                self.label, "#" * filled, "." * (width - filled), done, self.total,
                result.wins, result.losses))
            if done == self.total:
                self.stream.write("\n")
        elif done % self.every == 0 or done == self.total:
            self.stream.write("%s: %d/%d games, %d-%d\n" % (
                self.label, done, self.total, result.wins, result.losses))
        self.stream.flush()


def run_match(a, b, games, rules=iago.STANDARD, seed=0, jobs=1, progress=None,
              opening=OPENING_PLIES, nodes=None, game="iago"):
    """Play `games` games of a against b, colours alternating (a is dark in even games)."""
    result = MatchResult(a, b, rules, games, seed)
    tasks = [(i, a, b, rules.name(), seed, opening, nodes, game) for i in range(games)]
    start = time.perf_counter()
    if jobs <= 1 or games <= 1:
        outcomes = map(_game_task, tasks)
        pool = None
    else:
        pool = multiprocessing.get_context("fork").Pool(min(jobs, games))
        outcomes = pool.imap_unordered(_game_task, tasks)
    try:
        for _index, won, a_dark, a_score, b_score, _plies in outcomes:
            result.add(won, a_dark, a_score, b_score)
            if progress is not None:
                progress.update(result)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    result.seconds = time.perf_counter() - start
    return result


# --- commands ----------------------------------------------------------------------------

def cmd_match(args):
    a = parse_player(args.a)
    b = parse_player(args.b)
    jobs = args.jobs or os.cpu_count() or 1
    progress = Progress(args.games, a, b)
    result = run_match(a, b, args.games, args.rules, args.seed, jobs, progress,
                       nodes=args.nodes, game=args.module.GAME)
    print("\n".join(result.lines()), flush=True)


def describe_score(board, result, level=None):
    """The engine's expected result in words, for the side to move."""
    side = iago.side_name(board.turn)
    score = result.score
    if result.proven:
        # Both engines score a finished game WIN + margin for its winner, -WIN + margin for
        # its loser and the margin (0) for a draw.
        if -engine.WIN // 2 < score < engine.WIN // 2:
            return "a draw by force"
        won = score > 0
        margin = abs(score - engine.WIN if won else score + engine.WIN)
        how = "by %d points" % margin if margin else "on a tie"
        return "%s %s by force, %s" % (side, "wins" if won else "loses", how)
    if level == engine.GREEDY:
        return "%+d points for %s right after the move" % (score, side)
    if engine_for(board) is not engine:     # the generic engine's score is no logit
        return "%+d for %s (positive is better)" % (score, side)
    chances = 1 / (1 + math.exp(-score / engine.LOGIT))
    return "%+d for %s: winning chances about %d%%" % (score, side, round(100 * chances))


def analyse_lines(board, level, seed=0, nodes=None):
    if board.is_game_over():
        return [render.describe_outcome(board)]
    result = engine_for(board).analyse(board, level, seed, nodes)
    name = board.grid.cell_name
    names = [name(c) for c in result.pv]
    line = board.copy()
    for c in result.pv:
        line.push(c)
    return [
        "best move %s" % name(result.move),
        "expected score %s" % describe_score(board, result, level),
        "principal variation %s" % " ".join(names),
        "after it: %s (dark %d, light %d)" % (line.text(), *line.scores()),
        "%s, depth %d, %d nodes" % (player_name(level), result.depth, result.nodes),
    ]


def cmd_analyse(args):
    board = args.module.Board(args.position, args.rules)
    if board.can_claim():
        board.claim_penalty()
    level = parse_player(args.level)
    print("\n".join(analyse_lines(board, level, args.seed)), flush=True)


def _show(board, out, colour):
    lines = render.draw(board, colour=colour, highlight=set(board.move_stack[-1:]))
    lines.extend(render.describe_scores(board))
    lines.append(render.describe_outcome(board))
    out.write("\n".join(lines) + "\n")


def coin_call(module, text):
    """The face `text` calls ("heads" for "H", "head" or "Heads"), or None: any beginning of
    a face's name, as a player calls it aloud."""
    word = text.strip().lower()
    calls = [face for face in module.COIN if word and face.startswith(word)]
    return calls[0] if len(calls) == 1 else None


def _coin_toss(module, rules, human, stdin, out, coin):
    """The start of a game with a coin toss (Othello, as in the DOS program): the human calls
    heads or tails; the winner of the toss places first. Returns the board, or None if input
    ended."""
    while True:
        out.write("Call the coin: heads or tails? ")
        out.flush()
        line = stdin.readline()
        if not line:
            return None
        call = coin_call(module, line)
        if call is not None:
            break
        out.write("%r is neither heads nor tails.\n" % line.strip())
    if coin is None:
        coin = module.COIN[os.urandom(1)[0] & 1]
    won = module.coin_toss(call, coin)
    first = human if won else human ^ 3
    out.write("The coin shows %s: %s first.\n" % (coin, "you place" if won else
                                                   "the computer places"))
    return module.new_board(rules, first=first)


def versus(level, human, rules, stdin, stdout, seed=0, colour=False, game="iago", coin=None):
    """Play against `level` in a terminal: the human plays `human` (DARK or LIGHT), moves
    are read line by line from stdin. Returns the outcome, or None if the human quit.
    Othello starts with a coin toss (`coin`: how it falls; default a random fall)."""
    module = games.module(game)
    out = stdout
    if module.Board.COIN_TOSS:
        board = _coin_toss(module, rules, human, stdin, out, coin)
        if board is None:
            out.write("\nEnd of input: game stopped.\n")
            return None
    else:
        board = module.new_board(rules)
    eng = engine_for(board)
    name = board.grid.cell_name
    you = iago.side_name(human)
    shown = getattr(board, "SIDE_NAMES", {}).get(human, you)
    if shown != you:
        you += " (%s)" % shown
    out.write("You play %s against %s. Enter a cell such as %s; 'help' lists the "
              "commands.\n" % (you, player_name(level), name(min(board.legal_moves))))
    _show(board, out, colour)
    while not board.is_game_over():
        if board.turn != human:
            _computer_plays(board, eng, level, seed, out, colour)
            continue
        out.write("%s> " % iago.side_name(human))
        out.flush()
        line = stdin.readline()
        if not line:
            out.write("\nEnd of input: game stopped.\n")
            return None
        word = line.strip()
        if not word:
            continue
        if word.lower() in ("quit", "exit", "q"):
            out.write("Game stopped.\n")
            return None
        board = _versus_word(word, board, human, (eng, level, seed), out, colour)
    outcome = board.outcome()
    out.write("You %s.\n" % ("win" if outcome.winner == human else
                             "draw" if outcome.winner == iago.EMPTY else "lose"))
    return outcome


def _computer_plays(board, eng, level, seed, out, colour):
    """The computer's turn in `versus`: a penalty claimed if the human missed a capture, then
    its move."""
    if board.can_claim():
        board.claim_penalty()
        out.write("The computer claims the penalty for your missed capture.\n")
    move = eng.choose_move(board, level, engine.mix_seed(seed, board.ply()))
    board.push(move)
    out.write("The computer plays %s.\n" % board.grid.cell_name(move))
    _show(board, out, colour)


def _versus_word(word, board, human, computer, out, colour):
    """What the human typed in `versus` (a command or a cell), done; returns the board, a new
    one after an undo. `computer` is (the engine, its level, the seed) for a hint."""
    name = board.grid.cell_name
    lower = word.lower()
    if lower in ("help", "?"):
        out.write(_versus_help(board))
    elif lower == "moves":
        out.write("legal moves: %s\n" % " ".join(name(c) for c in board.legal_moves))
    elif lower == "hint":
        eng, level, seed = computer
        result = eng.analyse(board, level, seed)
        out.write("hint: %s (%s)\n" % (name(result.move), describe_score(board, result, level)))
    elif lower == "claim":
        out.write(_claim(board, games.module(board.GAME)))
    elif lower in ("undo", "take back", "takeback"):
        undone = _undo(board, human)
        if undone is None:
            out.write("Nothing to undo: you have made no placement yet.\n")
            return board
        board = undone[0]
        out.write("Taken back: %s.\n" % ", ".join(undone[1]))
        _show(board, out, colour)
    else:
        try:
            board.play(word)
        except iago.IagoError as exc:
            out.write("%s; try again ('help' lists the commands)\n" % exc)
            return board
        _show(board, out, colour)
    return board


def _versus_help(board):
    lines = ["a cell name such as %s places a disk of yours there" %
             board.grid.cell_name(min(board.legal_moves)),
             "moves     the legal placements",
             "hint      the engine's choice for you",
             "undo      take back your last placement and the computer's reply"]
    if board.KIND == "hex":
        lines.append("claim     claim the penalty for a missed capture (under the penalty "
                     "option)")
    lines.append("quit      stop the game")
    return "".join("  %s\n" % line for line in lines)


def _claim(board, module):
    """The answer to `claim`: granted, refused, or why there is no claim to make."""
    if not getattr(board.rules, "penalty", False):
        if module.GAME != "iago":
            return "No claim: %s has no penalty option.\n" % module.TITLE
        if not board.rules.forced_capture:
            return ("No claim: the penalty option is off; loose rules force no capture, so "
                    "there is no miss to claim.\n")
        return ("No claim: the penalty option is off (play with --rules %s+penalty to have "
                "it).\n" % board.rules.name())
    if board.claim_penalty():
        return "Claim granted: place on any empty hex.\n"
    return "Claim refused: the last placement was not a miss.\n"


def _undo(board, human):
    """(a copy of `board` with the human's last placement and every placement after it taken
    back, their cells' names), or None if the human has made none. The turn does not simply
    alternate (Othello's passes, Io's two stones a turn): a placement was the human's when
    the turn is theirs once it is taken back."""
    back = board.copy()
    names = []
    while back.ply():
        names.append(back.grid.cell_name(back.pop()))
        if back.turn == human:
            names.reverse()
            return back, names
    return None


def cmd_versus(args):
    level = parse_player(args.level)
    human = iago.DARK if args.colour == "dark" else iago.LIGHT
    colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    seed = args.seed
    coin = None if seed is None else seeded_coin(args.module, seed)
    versus(level, human, args.rules, sys.stdin, sys.stdout, seed or 0, colour, args.module.GAME,
           coin)


def seeded_coin(module, seed):
    """How the coin falls for `seed` (a game without a coin toss: None)."""
    faces = getattr(module, "COIN", None)
    return faces[engine.mix_seed(seed, 7877) & 1] if faces else None
