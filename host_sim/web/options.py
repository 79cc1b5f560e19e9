"""The options of `iago serve` (kept apart so that building the `iago` parser stays cheap)."""

import argparse

HELP = "show the simulated board, or a real one on a serial port, in a web page"
DESCRIPTION = (
    "Serve a web page that shows the board live and plays on it: the unmodified firmware on the "
    "simulated board (--sim, the default), or a real board on its USB serial port (--port). "
    "Several pages may watch at once. See docs/web.md.")
SPEEDS = (0.25, 8.0)


def _port_number(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a port is a whole number, not %r" % text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("a port is 0-65535 (0: any free one), not %d" % value)
    return value


def _number(convert, low, high, name, example):
    """An argparse type: `convert` (int or float) of the text, from `low` to `high`."""
    def check(text):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s is a number such as %s, not %r" % (
                name, example, text))
        if not low <= value <= high:
            raise argparse.ArgumentTypeError("%s is %g-%g, not %g" % (name, low, high, value))
        return value
    return check


def add_arguments(parser):
    board = parser.add_mutually_exclusive_group()
    board.add_argument("--sim", action="store_true",
                       help="the simulated board (the default)")
    board.add_argument("--port", metavar="DEVICE",
                       help="a real board on this serial port, such as /dev/ttyACM0 (pyserial "
                       "URLs such as socket://host:port work too)")
    parser.add_argument("--http-port", type=_port_number, default=8000, metavar="N",
                        help="the web server's port (default 8000; 0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1, this computer only; "
                        "0.0.0.0 lets tablets on the network in: there is no password)")
    parser.add_argument("--games-dir", metavar="DIR",
                        help="where the record of every finished game is kept (default "
                        "$XDG_DATA_HOME/iago/games, that is ~/.local/share/iago/games)")
    parser.add_argument("--speed", type=_number(float, *SPEEDS, "the speed", "1 or 0.5"),
                        default=1.0,
                        help="simulated board: virtual seconds per real second, 0.25-8 "
                        "(default 1)")
    parser.add_argument("--flash-dir", metavar="DIR",
                        help="simulated board: keep its flash (the saved game) in DIR, so a "
                        "game survives restarting the server (default: a temporary folder)")
    parser.add_argument("--map", metavar="FILE",
                        help="the board map (default hardware/board.json, the hex board; "
                        "hardware/boards/square8.json plays Othello, square7.json and "
                        "square9.json Io 7x7 and 9x9): the board the sim runs; for a real "
                        "board, its map for the LED colours (default: the project's map of "
                        "the shape its game needs)")
    parser.add_argument("--pty", action="store_true",
                        help="simulated board: also offer its USB serial port as a "
                        "pseudo-terminal (its path is printed), for host tools")
    parser.add_argument("--seed", type=int, default=0,
                        help="simulated board: seed of its random faults (default 0)")
    parser.add_argument("--baud", type=int, default=115200,
                        help="real board: the serial port's baud rate (USB ignores it)")
    parser.add_argument("--verbose", action="store_true", help="log every HTTP request")
    parser.add_argument("--request-timeout", type=_number(float, 0.1, 3600, "the timeout", "10"),
                        default=10.0, metavar="S",
                        help="the longest wait for a request's next bytes, in seconds (default "
                        "10): slower or half-sent requests are answered 408 and closed")
    parser.add_argument("--max-connections", type=_number(int, 1, 10000, "the number", "64"),
                        default=64, metavar="N",
                        help="connections served at once (default 64; each page keeps one "
                        "open): more get 503 Service Unavailable")
    remote_arguments(parser)


def remote_arguments(parser):
    remote = parser.add_argument_group("remote play (docs/remote.md)")
    remote.add_argument("--remote", action="store_true",
                        help="play someone at another board through an MQTT broker: the "
                        "page's 'Play someone remotely'")
    remote.add_argument("--broker", default="mqtt://localhost:1883", metavar="URL",
                        help="the MQTT broker: mqtt://host:1883 (default: a Mosquitto on this "
                        "computer), mqtts://host:8883 (TLS), ws://host:9001/, wss://...")
    remote.add_argument("--broker-user", metavar="NAME", help="the broker's user name")
    remote.add_argument("--broker-password", metavar="PASSWORD",
                        help="its password (better: the IAGO_BROKER_PASSWORD environment "
                        "variable, which other users cannot read in the process list)")
    remote.add_argument("--broker-ca", metavar="FILE",
                        help="TLS: the certificate authority that signed the broker's "
                        "certificate (default: the system's)")
    remote.add_argument("--remote-dir", metavar="DIR",
                        help="where this host keeps its remote game's code, to come back to it "
                        "after a restart (default $XDG_DATA_HOME/iago/remote)")
