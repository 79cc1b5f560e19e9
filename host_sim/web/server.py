"""`iago serve`: the standard library's threading HTTP server, Server-Sent Events, a JSON API.

    GET  /                     the page (static/index.html, its modules, style.css under /static/)
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
the same browser cannot play on the board, and every request must name this server by a
loopback name or one given with --host, so a web site whose name an attacker points at
127.0.0.1 (DNS rebinding) cannot either. At most max_connections connections are served at
once (more get a 503 at once) and each read waits at most request_timeout seconds, so slow or
half-sent requests cannot tie the server up.
"""

import ipaddress
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

from host_sim import remote
from host_sim.web import records
from host_sim.web.api import ApiError
from host_sim.web.hub import Hub
from host_sim.web.tabledriver import TableDriver

STATIC = Path(__file__).resolve().parent / "static"
# Libraries the page loads from node_modules (`make node_modules`): mqtt.js for spectators.
VENDOR = {"vendor/mqtt.esm.js": STATIC.parents[2] / "node_modules/mqtt/dist/mqtt.esm.js"}
MAX_BODY = 256 * 1024
REQUEST_TIMEOUT_S = 10.0     # the longest wait for a request's next bytes
MAX_CONNECTIONS = 64         # served at once; browsers open at most 6 per server
LOOPBACK = ("localhost", "127.0.0.1", "::1")
# A request preferring this (`Prefer: refusal=answer`, as the page's do) gets the board's
# refusals, REFUSALS, as 200 {"ok": false, "status": ..., "error": ...}.
REFUSAL_ANSWER = "refusal=answer"
REFUSALS = (400, 409)
WILDCARDS = ("0.0.0.0", "::", "")
_STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
                 ".png": "image/png", ".ico": "image/x-icon"}


class Handler(BaseHTTPRequestHandler):
    server_version = "iago-serve/1"
    protocol_version = "HTTP/1.1"

    @property
    def app(self):
        return self.server.app

    def setup(self):
        self.timeout = self.app.request_timeout     # applied to the socket by setup()
        super().setup()

    def log_message(self, fmt, *args):
        if self.app.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

    def parse_request(self):
        """The request line and headers, then the Host check, for every method."""
        try:
            if not super().parse_request():
                return False
        except TimeoutError:
            self.close_connection = True
            self._refuse(408, "the request's headers did not arrive within %g s" %
                         self.app.request_timeout)
            return False
        problem = self.app.host_problem(self.headers.get("Host"))
        if problem:
            self._drain_body()
            self.close_connection = True
            self._refuse(403, problem)
            return False
        return True

    def send_error(self, code, message=None, explain=None):
        """Errors of the HTTP layer itself (a garbled request line...) as JSON too."""
        if code == HTTPStatus.NOT_IMPLEMENTED:      # an unknown method
            code, message = 405, "%s is not supported: GET pages and state, POST actions" % (
                self.command[:20])
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
                                 "console": hub.console(100), "viewers": hub.viewers,
                                 "heartbeat": hub.heartbeat()})
            elif path == "/api/events":
                self._events()
            elif path == "/api/record":
                self._record()
            elif path.startswith("/api/"):
                self._refuse(404 if path[5:] not in self.app.driver.actions else 405,
                             "no such resource %r (GET /api/state, /api/events, /api/record; "
                             "actions are POSTed)" % path)
            else:
                self._refuse(404, "no such page %r" % path[:300])
        except ApiError as exc:
            self._refuse(exc.status, exc.message)
        except (ConnectionError, TimeoutError):
            raise                    # the page went away: nobody to answer
        except Exception as exc:     # a bug: answered, logged, and the server goes on
            self.app.hub.log("note", "server error on GET %s: %r" % (path[:100], exc), "server")
            self._refuse(500, "internal error: %s" % exc)

    do_HEAD = do_GET

    def _static(self, name):
        if name in VENDOR and not VENDOR[name].is_file():
            raise ApiError(404, "%s is not installed: run `make node_modules`" % name)
        try:
            path = VENDOR[name] if name in VENDOR else (STATIC / name).resolve()
            found = path.is_file()
        except (OSError, ValueError):    # a name too long for the file system, a NUL...
            found = False
        if not found or name not in VENDOR and (
                "/" in name or "\\" in name or name.startswith(".") or path.parent != STATIC):
            self._refuse(404, "no such file %r" % name[:100])
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
            if exc.status in REFUSALS and REFUSAL_ANSWER in self._preferences():
                # The page's own requests: a refusal is the board's answer, not a failure
                # of the request, so a browser does not log it as a network error.
                self._send(200, json.dumps({"ok": False, "status": exc.status,
                                            "error": exc.message}).encode(),
                           "application/json", [("Preference-Applied", REFUSAL_ANSWER)])
            else:
                self._refuse(exc.status, exc.message)
            return
        except Exception as exc:     # a bug: answered, logged, and the server goes on
            self.app.hub.log("note", "server error on %s: %r" % (path, exc), "server")
            self._refuse(500, "internal error: %s" % exc)
            return
        reply = {"ok": True}
        reply.update(result if isinstance(result, dict) else {"result": result})
        self._json(200, reply)

    def _preferences(self):
        """The preferences of the request's Prefer headers (RFC 7240), as "name=value"."""
        found = set()
        for header in self.headers.get_all("Prefer") or ():
            for item in header.split(","):
                found.add(item.split(";")[0].strip().lower().replace(" ", ""))
        return found

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
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            self.close_connection = True
            raise ApiError(408, "the body did not arrive within %g s" % self.app.request_timeout)
        if len(raw) < length:
            self.close_connection = True
            raise ApiError(400, "the body ended after %d of %d bytes" % (len(raw), length))
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
    request_queue_size = 128     # a burst of connections waits to be answered, not dropped

    def process_request(self, request, client_address):
        """A thread for the connection while a slot is free; else a 503 at once."""
        if not self.slots.acquire(blocking=False):
            self._busy(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def _busy(self, request):
        body = json.dumps({"ok": False, "error": "the server is busy (%d connections): try "
                           "again" % self.app.max_connections}).encode()
        try:
            request.setblocking(False)
            request.recv(65536)      # what came already: closing on unread bytes resets
        except OSError:
            pass
        try:
            request.settimeout(1)
            request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
                            b"application/json\r\nContent-Length: %d\r\nRetry-After: 1\r\n"
                            b"Connection: close\r\n\r\n%s" % (len(body), body))
        except OSError:
            pass
        self.shutdown_request(request)

    def handle_error(self, request, client_address):
        # A page that went away mid-answer is normal; anything else goes to the console.
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        self.app.hub.log("note", "HTTP error with %s: %r" % (client_address[0], exc), "server")


class App:
    """A driver (SimDriver or SerialDriver), its hub and the HTTP server around them."""

    def __init__(self, driver, hub, host="127.0.0.1", port=8000, verbose=False,
                 request_timeout=REQUEST_TIMEOUT_S, max_connections=MAX_CONNECTIONS):
        self.driver = driver
        self.hub = hub
        hub.pulse = driver.pulse
        # Othello, Io and the number line: the rules alone, on the page's table.
        self.table_hub = Hub()
        self.table = TableDriver(self.table_hub)
        self.verbose = verbose
        self.request_timeout = request_timeout
        self.max_connections = max_connections
        self.host = host
        self.httpd = _Server((host, port), Handler)
        self.httpd.app = self
        self.httpd.slots = threading.BoundedSemaphore(max_connections)
        self._thread = None

    def host_problem(self, header):
        """Why a request's Host header is refused, or None. A page of another web site
        whose name was pointed at this computer (DNS rebinding) sends its own name, never a
        loopback name or an IP address; a listening address, and with a wildcard one (0.0.0.0)
        any IP address, is what tablets on the network use."""
        if not header:
            return "a request must name the server in a Host header"
        name, port = _split_host(header)
        listening = self.host.lower().strip("[]")
        allowed = (name in LOOPBACK or name == listening or
                   listening in WILDCARDS and _is_address(name))
        if allowed and port == self.httpd.server_address[1]:
            return None
        return ("this server answers to %s (or another name given with --host), not %r: a "
                "page of another web site may be trying to reach it" % (
                    ", ".join("%s:%d" % (n if ":" not in n else "[%s]" % n,
                                         self.httpd.server_address[1])
                              for n in LOOPBACK), header[:80]))

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


def _split_host(header):
    """("name", port) of a Host header: "localhost:8000", "[::1]:8000", "example.org"."""
    header = header.strip().lower()
    if header.startswith("["):
        name, _, rest = header[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ("80" if not rest else "")
    else:
        name, colon, port = header.partition(":")
        port = port if colon else "80"
    name = name[:-1] if name.endswith(".") else name
    return name, int(port) if port.isdigit() and len(port) <= 5 else -1


def _is_address(name):
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


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
    remote.attach(driver, hub, args)          # --remote: a remote session, started below
    try:
        app = App(driver, hub, args.host, args.http_port, args.verbose,
                  args.request_timeout, args.max_connections)
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
    if driver.remote is not None:
        driver.remote.start()
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
        if driver.remote is not None:
            driver.remote.close()
        driver.close()
    return 0
