"""`iago serve`: the standard library's threading HTTP server, Server-Sent Events, a JSON API.

    GET  /                     the page (static/index.html, app.js, style.css under /static/)
    GET  /api/state            the latest snapshot, LED colours and console, as JSON
    GET  /api/events           Server-Sent Events: state, leds, log, viewers
    GET  /api/record           the game so far as a record file (.iago)
    POST /api/ACTION           a JSON object in, {"ok": true, ...} out; see docs/web.md
    GET  /table                the other games (Othello, Io, the number line): static/table.html
    GET  /api/table/state, /api/table/events, /api/table/record; POST /api/table/ACTION
                               the same for those games (tabledriver.py)

Every refused request gets a 4xx status and {"ok": false, "error": "..."}; nothing a page sends
reaches the board unchecked, and no request can stop the server. POSTs must be JSON
(`Content-Type: application/json`) from this server's own pages, so another web site open in
the same browser cannot play on the board.
"""

import json
import mimetypes
import signal
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from host_sim.web import records
from host_sim.web.api import ApiError
from host_sim.web.hub import Hub
from host_sim.web.tabledriver import TableDriver

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 256 * 1024
_STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
                 ".png": "image/png", ".ico": "image/x-icon"}


class Handler(BaseHTTPRequestHandler):
    server_version = "iago-serve/1"
    protocol_version = "HTTP/1.1"

    @property
    def app(self):
        return self.server.app

    def log_message(self, fmt, *args):
        if self.app.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

    def send_error(self, code, message=None, explain=None):
        """Errors of the HTTP layer itself (a garbled request line...) as JSON too."""
        try:
            text = message or HTTPStatus(code).phrase
        except ValueError:
            text = message or "error"
        self.close_connection = True
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"     # a garbled line: answer with a status line
        self._json(code, {"ok": False, "error": text})

    # --- responses ------------------------------------------------------------------------

    def _send(self, status, body, content_type, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in extra:
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status, obj):
        self._send(status, json.dumps(obj).encode(), "application/json")

    def _refuse(self, status, message):
        self._json(status, {"ok": False, "error": message})

    # --- GET ------------------------------------------------------------------------------

    def do_GET(self):
        path = urlsplit(self.path).path
        try:
            if path in ("/", "/index.html"):
                self._static("index.html")
            elif path in ("/table", "/table.html"):
                self._static("table.html")
            elif path == "/api/table/state":
                self._json(200, {"ok": True, "snapshot": self.app.table_hub.state()})
            elif path == "/api/table/events":
                self._events(self.app.table_hub)
            elif path == "/api/table/record":
                self._record(self.app.table, self.app.table.board.GAME)
            elif path.startswith("/static/"):
                self._static(path[len("/static/"):])
            elif path == "/favicon.ico":
                self._send(204, b"", "image/x-icon")
            elif path == "/api/state":
                hub = self.app.hub
                self._json(200, {"ok": True, "snapshot": hub.state(), "leds": hub.leds(),
                                 "console": hub.console(100), "viewers": hub.viewers})
            elif path == "/api/events":
                self._events()
            elif path == "/api/record":
                self._record()
            elif path.startswith("/api/"):
                self._refuse(404 if path[5:] not in self.app.driver.actions else 405,
                             "no such resource %r (GET /api/state, /api/events, /api/record; "
                             "actions are POSTed)" % path)
            else:
                self._refuse(404, "no such page %r" % path)
        except ApiError as exc:
            self._refuse(exc.status, exc.message)

    do_HEAD = do_GET

    def _static(self, name):
        path = (STATIC / name).resolve()
        if ("/" in name or "\\" in name or name.startswith(".") or path.parent != STATIC or
                not path.is_file()):
            self._refuse(404, "no such file %r" % name)
            return
        kind = _STATIC_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
        self._send(200, path.read_bytes(), kind or "application/octet-stream")

    def _events(self, hub=None):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.send_header("X-Accel-Buffering", "no")
        self.end_headers()
        self.close_connection = True
        if self.command == "HEAD":
            return

        def write(data):
            self.wfile.write(data)
            self.wfile.flush()

        (hub or self.app.hub).stream(write)

    def _record(self, driver=None, game="iago"):
        text = (driver or self.app.driver).record()
        name = time.strftime(game + "-%Y%m%d-%H%M%S.iago")
        self._send(200, text.encode(), "text/plain; charset=utf-8",
                   [("Content-Disposition", 'attachment; filename="%s"' % name)])

    # --- POST -----------------------------------------------------------------------------

    def do_POST(self):
        path = urlsplit(self.path).path
        try:
            if not path.startswith("/api/"):
                raise ApiError(404, "actions are POSTed to /api/ACTION, not %r" % path)
            body = self._body()
            if path.startswith("/api/table/"):
                result = self.app.table.handle(path[len("/api/table/"):], body)
            else:
                result = self.app.driver.handle(path[len("/api/"):], body)
        except ApiError as exc:
            self._refuse(exc.status, exc.message)
            return
        except Exception as exc:     # a bug: answered, logged, and the server goes on
            self.app.hub.log("note", "server error on %s: %r" % (path, exc), "server")
            self._refuse(500, "internal error: %s" % exc)
            return
        reply = {"ok": True}
        reply.update(result if isinstance(result, dict) else {"result": result})
        self._json(200, reply)

    def _body(self):
        origin = self.headers.get("Origin")
        host = self.headers.get("Host")
        if origin and host and urlsplit(origin).netloc != host:
            self._drain_body()
            raise ApiError(403, "requests from other web sites (%s) are refused" % origin)
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True
            raise ApiError(411, "a POST needs a Content-Length")
        try:
            length = int(length)
        except ValueError:
            self.close_connection = True
            raise ApiError(400, "bad Content-Length %r" % length)
        if length < 0 or length > MAX_BODY:
            self.close_connection = True
            raise ApiError(413, "the body is limited to %d bytes" % MAX_BODY)
        raw = self.rfile.read(length)
        if kind != "application/json":
            raise ApiError(415, "send JSON with Content-Type: application/json")
        if not raw.strip():
            return {}
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ApiError(400, "the body is not JSON: %s" % exc)
        if not isinstance(body, dict):
            raise ApiError(400, "the body must be a JSON object")
        return body

    def _drain_body(self):
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        if 0 < length <= MAX_BODY:
            self.rfile.read(length)
        else:
            self.close_connection = True

    def _no_method(self):
        self._refuse(405, "%s is not supported: GET pages and state, POST actions" %
                     self.command)

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _no_method


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # A page that went away mid-answer is normal; anything else goes to the console.
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        self.app.hub.log("note", "HTTP error with %s: %r" % (client_address[0], exc), "server")


class App:
    """A driver (SimDriver or SerialDriver), its hub and the HTTP server around them."""

    def __init__(self, driver, hub, host="127.0.0.1", port=8000, verbose=False):
        self.driver = driver
        self.hub = hub
        # Othello, Io and the number line: the rules alone, on the page's table.
        self.table_hub = Hub()
        self.table = TableDriver(self.table_hub)
        self.verbose = verbose
        self.httpd = _Server((host, port), Handler)
        self.httpd.app = self
        self._thread = None

    @property
    def url(self):
        host, port = self.httpd.server_address[:2]
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        if ":" in shown:
            shown = "[%s]" % shown
        return "http://%s:%d/" % (shown, port)

    def start(self):
        """Start the driver and serve in a background thread (tests)."""
        self.driver.start()
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="http",
                                        daemon=True)
        self._thread.start()
        return self

    def close(self):
        self.hub.close()
        self.table_hub.close()
        self.table.close()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.driver.close()


def make_driver(args, hub):
    games_dir = Path(args.games_dir) if args.games_dir else records.default_games_dir()
    if args.port:
        from host_sim.web.serialdriver import SerialDriver
        try:
            return SerialDriver(hub, args.port, games_dir, baud=args.baud, map_path=args.map)
        except (OSError, ValueError) as exc:   # BoardMapError is a ValueError
            reason = getattr(exc, "strerror", None) or exc
            sys.stderr.write("iago serve: %s: %s\n" % (args.map, reason))
            raise SystemExit(2)
    from host_sim.web.simdriver import SimDriver
    return SimDriver(hub, games_dir, flash_dir=args.flash_dir, speed=args.speed, seed=args.seed,
                     pty=args.pty, map_path=args.map)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(args):
    """Run `iago serve` with parsed options (host_sim.web.options) until Ctrl-C."""
    hub = Hub()
    driver = make_driver(args, hub)
    try:
        app = App(driver, hub, args.host, args.http_port, args.verbose)
    except OSError as exc:
        hint = ""
        if args.http_port:
            hint = " (another program uses port %d? try --http-port %d, or make sim PORT=%d)" % (
                args.http_port, args.http_port + 1, args.http_port + 1)
        sys.stderr.write("iago serve: cannot listen on %s:%d: %s%s\n" % (
            args.host, args.http_port, exc.strerror or exc, hint))
        raise SystemExit(2)
    try:
        driver.start()
    except Exception as exc:
        app.httpd.server_close()
        sys.stderr.write("iago serve: cannot start %s: %s\n" % (driver.mode, exc))
        raise SystemExit(2)
    print("Iago board: %s" % app.url, flush=True)
    print("  showing %s" % driver.describe(), flush=True)
    if getattr(driver, "games_dir", None):
        print("  finished games are kept in %s" % driver.games_dir, flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print("  listening on %s: anyone who can reach this computer can play" % args.host,
              flush=True)
    print("  Ctrl-C stops", flush=True)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        app.httpd.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        hub.close()
        app.table_hub.close()
        app.httpd.server_close()
        driver.close()
    return 0
