"""The `iago` command: legal moves, play, perft, show and score from the terminal.

Bad input of any kind ends with one line on stderr and exit status 2, never a traceback;
lines already printed stay valid.
"""

import argparse
import os
import sys
import time

import iago
from iago import games, record
from host_sim import render

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # One line, as for any bad input; --help gives the usage.
        _fail(message)


def _fail(message):
    sys.stdout.flush()
    sys.stderr.write("iago: %s\n" % message)
    raise SystemExit(EXIT_BAD_INPUT)


def _game(name):
    try:
        return games.module(name)
    except iago.IagoError as exc:
        raise argparse.ArgumentTypeError(str(exc))


def _depth(text):
    try:
        depth = int(text)
    except ValueError:
        if text.strip().isdigit():   # over CPython's 4,300 digits: not worth printing
            raise argparse.ArgumentTypeError("depth is far too large")
        raise argparse.ArgumentTypeError("depth must be a whole number, not %r" % text)
    if depth < 0:
        raise argparse.ArgumentTypeError("depth must be 0 or more, not %d" % depth)
    return depth


def _positions(args):
    if args.positions == ["-"]:
        for line in sys.stdin:
            if line.strip():
                yield line.strip()
    else:
        for text in args.positions:
            yield text


def _board(text, args):
    return args.module.Board(text, args.rules)


def cmd_moves(args):
    for text in _positions(args):
        board = _board(text, args)
        print(" ".join(board.grid.cell_name(c) for c in board.legal_moves), flush=True)


def cmd_play(args):
    board = _board(args.position, args)
    for move in args.moves:
        if move.lower() == "claim":
            if not board.claim_penalty():
                raise iago.IllegalMoveError("claim refused: the last placement was not a miss")
            continue
        board.play(move)
        print(board.text(), flush=True)


def cmd_perft(args):
    board = _board(args.position, args)
    start = time.perf_counter()
    nodes = iago.perft(board, args.depth)
    elapsed = time.perf_counter() - start
    print(nodes, flush=True)
    rate = nodes / elapsed if elapsed > 0 else 0.0
    sys.stderr.write("perft(%d) %.3f s, %.0f leaves/s\n" % (args.depth, elapsed, rate))


def _load(source, args):
    """A board from position text or from a record file (its final position)."""
    if source is None:
        return args.module.new_board(args.rules), None
    if os.path.isfile(source):
        try:
            with open(source, encoding="utf-8") as handle:
                game = record.parse(handle.read())
        except (OSError, UnicodeDecodeError) as exc:
            raise iago.InvalidRecordError("cannot read %s: %s" % (source, exc))
        except iago.InvalidRecordError as exc:
            raise iago.InvalidRecordError("%s: %s" % (source, exc))
        kept = game.module()
        if args.game_given and kept is not args.module:
            raise iago.InvalidRecordError("%s is a game of %s, not %s (its Game header); "
                                          "leave out --game to show it" % (
                                              source, kept.TITLE, args.module.TITLE))
        return game.board(), game
    if len(source.split()) < 2:
        folder = os.path.dirname(source)
        if source.lower().endswith(".iago") or (folder and os.path.isdir(folder)):
            # A file's name, not rows: say that the file is missing.
            raise iago.InvalidRecordError("%s: no such file" % source)
        raise iago.InvalidPositionError("%r is neither a record file nor a position text "
                                        "(rows and side to move)" % source)
    return _board(source, args), None


def cmd_show(args):
    board, game = _load(args.source, args)
    colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    out = []
    if game is not None:
        names = ["%s: %s" % (k, v) for k, v in game.headers if k in ("Dark", "Light", "Date")]
        if names:
            out.append("  ".join(names))
        count = len(board.move_stack)
        out.append("rules %s, %d placement%s" % (board.rules.name(), count,
                                                "" if count == 1 else "s"))
    out.extend(render.draw(board, colour=colour, highlight=set(board.move_stack[-1:])))
    out.extend(render.describe_scores(board))
    out.append(render.describe_outcome(board))
    out.append(board.text())
    print("\n".join(out))


def cmd_score(args):
    board = _board(args.position, args)
    print("\n".join(render.describe_scores(board)))
    print(render.describe_outcome(board))


def cmd_serve(args):
    from host_sim import simboard
    from host_sim.web import server
    simboard.DEFAULT_RUNTIME = args.runtime     # the simulated board's firmware runtime
    simboard.DEFAULT_FRAM = args.fram           # and whether it has its FRAM fitted
    server.main(args)


def _player(text):
    from host_sim import play
    try:
        return play.parse_player(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc))


def _count(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a whole number, not %r" % text)
    if value < 1:
        raise argparse.ArgumentTypeError("expected 1 or more, not %d" % value)
    return value


def _seed(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("the seed must be a whole number, not %r" % text)


def cmd_match(args):
    from host_sim import play
    play.cmd_match(args)


def cmd_analyse(args):
    from host_sim import play
    play.cmd_analyse(args)


def cmd_versus(args):
    from host_sim import play
    play.cmd_versus(args)


def build_parser():
    parser = _Parser(prog="iago", description="Iago and the other games of the family on the "
                     "command line. Positions are position texts such as "
                     "'5/6/7/8/9/8/7/6/5 D' (quote them; docs/rules.md).")
    parser.add_argument("--game", type=_game, default=None, metavar="GAME", dest="module",
                        help="iago (default), othello, io or numberline: the game every "
                        "command works on (show takes a record's game from the record)")
    parser.add_argument("--rules", default=None, metavar="R", dest="game_rules",
                        help="the rules for every command (as each command's --rules)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    rules_help = ("Iago: standard (default), loose, simple, a +-combination such as "
                  "loose+simple, optionally +penalty; Othello: standard; Io: 9x9 (default) or "
                  "7x7; number line: standard, ties-to-2, holes=22,26 or a +-combination")

    def add(name, func, help_text):
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--rules", default=None, metavar="R", help=rules_help)
        p.set_defaults(func=func)
        return p

    p = add("moves", cmd_moves, "the legal moves of each position, one line each (in cell "
            "order; an empty line when the game is over)")
    p.add_argument("positions", nargs="+", metavar="POSITION", help="position text, or - for "
                   "one position per line on standard input")
    p = add("play", cmd_play, "play moves from a position, printing the position after each "
            "(the word 'claim' points out a missed forced capture under +penalty)")
    p.add_argument("position", metavar="POSITION")
    p.add_argument("moves", nargs="+", metavar="MOVE", help="cell names such as E4")
    p = add("perft", cmd_perft, "the number of leaf positions DEPTH plies ahead, a forced pass "
            "counting as a ply as in the published counts (time on stderr)")
    p.add_argument("depth", type=_depth, metavar="DEPTH")
    p.add_argument("position", nargs="?", default=None, metavar="POSITION",
                   help="default: the game's start")
    p = add("show", cmd_show, "draw a position, or the final position of a game record file, "
            "with both scores")
    p.add_argument("source", nargs="?", metavar="POSITION|RECORD-FILE")
    p = add("score", cmd_score, "both scores and, for a finished game, the winner and why")
    p.add_argument("position", metavar="POSITION")
    _add_engine_commands(add)
    _add_serve(sub)
    return parser


def _add_engine_commands(add):
    """The commands where the engine plays: match, analyse, versus."""
    players = "random, greedy or a level 1-5"
    p = add("match", cmd_match, "engine against engine: GAMES games, colours alternating, "
            "after a few random opening placements; wins, losses and a 95 percent "
            "confidence interval for A's win rate")
    p.add_argument("a", type=_player, metavar="A", help=players)
    p.add_argument("b", type=_player, metavar="B", help=players)
    p.add_argument("--games", type=_count, default=100, metavar="N", help="default 100")
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="default 0")
    p.add_argument("--jobs", type=_count, default=None, metavar="J",
                   help="processes (default: the number of CPUs)")
    p.add_argument("--nodes", type=_count, default=None, metavar="N",
                   help="search at most N positions a move, for both levels (a board's cap, "
                   "such as 180 for Othello's level 5 on a Pico; default: the levels' own)")
    p = add("analyse", cmd_analyse, "the engine's best move, expected score and principal "
            "variation for the side to move")
    p.add_argument("--level", type=_player, default=5, metavar="L", help=players + " (default 5)")
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="default 0")
    p.add_argument("position", metavar="POSITION")
    p = add("versus", cmd_versus, "play against the computer in the terminal, one move a line "
            "('help' lists the commands: moves, hint, undo, claim, quit)")
    p.add_argument("--level", type=_player, default=3, metavar="L", help=players + " (default 3)")
    p.add_argument("--colour", "--color", choices=("dark", "light"), default="dark",
                   help="your colour (default dark, who moves first)")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="fixes how the coin falls (Othello) and the computer's choices; "
                   "default: a random coin, the computer's choices as seed 0")


def _add_serve(sub):
    """`iago serve`: its options are the web server's own (host_sim/web/options.py)."""
    from host_sim.web import options as serve_options
    p = sub.add_parser("serve", help=serve_options.HELP, description=serve_options.DESCRIPTION)
    serve_options.add_arguments(p)
    p.add_argument("--runtime", choices=("micropython", "circuitpython"), default="micropython",
                   help="simulated board: the Pico's Python, whose hardware layer the firmware "
                   "runs on (default micropython; docs/circuitpython.md)")
    p.add_argument("--fram", action="store_true",
                   help="simulated board: its FRAM fitted, which then keeps the game in "
                   "progress (docs/web.md)")
    p.set_defaults(func=cmd_serve)


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    args.game_given = args.module is not None
    if args.module is None:
        args.module = games.module(games.DEFAULT)
    if hasattr(args, "rules"):
        if args.rules is None:
            args.rules = args.game_rules
        try:
            args.rules = (args.module.Rules.parse(args.rules) if args.rules is not None else
                          args.module.Board.default_rules())
        except iago.IagoError as exc:
            _fail("argument --rules: %s" % exc)
    try:
        args.func(args)
    except iago.IagoError as exc:
        _fail(str(exc))
    except BrokenPipeError:
        sys.stderr.close()
    except KeyboardInterrupt:
        raise SystemExit(130)
    return 0


if __name__ == "__main__":
    sys.exit(main())
