"""A host's side of a remote game (docs/remote.md): its board, the broker, the game agreed.

One worker thread does everything that changes the game, in turn: the page's actions (create,
join, take-back, resign, a choice), the broker's messages (paho's thread only queues them) and
the board's events (its driver only queues them). After each it brings the board in step with
the agreed game (sync.py) and publishes this side's view when it changed.

Every message that is not taken is said to the players (`notices`, the console), and never
played: a message not signed with the game's key, a view on the wrong topic, a move that is
not its sender's or not legal. The same fault is said once a minute at most.
"""

import collections
import queue
import threading
import time

from host_sim.remote import inbox, store, sync
from host_sim.remote.codes import SIDES, CodeError, GameKeys, new_code
from host_sim.remote.game import AgreedGame, Refused, check_setup, other
from host_sim.remote.mqttlink import MqttLink
from host_sim.web.api import ApiError, bad, conflict

# A simulated board's virtual-time `time` (host_sim/simboard.py) is not the hosts' time.
time = getattr(time, "_host_time", time)

JOIN_WAIT_S = 3.0            # how long a join waits for the game's retained views
REPEAT_S = 60.0              # the same fault is said again after this long
ACTIONS = ("create", "join", "leave", "take-back", "answer", "resign", "choose")


def now_ms():
    return int(time.time() * 1000)


class RemoteSession:
    """Remote play for one board. `command(msg) -> reply` sends a host-link command to the
    board (ApiError when it cannot), `board_view() -> (snapshot, leds)` is what the page shows
    of it (for spectators), `log(text)` writes to the page's console; `store` keeps this
    host's game (code and side) so a restarted host comes back to it."""

    def __init__(self, command, board_view, log, broker, store, credentials=None):
        self.command = command
        self.board_view = board_view
        self.log = log
        self.broker = broker              # mqttlink.BrokerAddress
        self.store = store                # remote.json's path
        self.credentials = credentials or {}
        self.keys = None
        self.link = None
        self.game = None                  # AgreedGame, once the setup is known
        self.side = None
        self.phase = "idle"               # waiting, playing, over, conflict
        self.conflict = None              # {"why", "board", "agreed"}: the page's choice
        self.opponent = {"online": None, "since": None}
        self.notices = collections.deque(maxlen=12)
        self.latencies = collections.deque(maxlen=500)
        self.lit = None                   # the remote move lit on the board now
        self.last_move = None             # {"cell", "side", "at"}
        self.views = {}                   # the latest signed view of each side, as received
        self.board_moves = ()             # the board's settled moves, as last read
        self.heard = {}                   # (epoch, ply): when the other side sent that move
        self.results_compared = False
        self.clock = now_ms
        self._said = {}
        self._jobs = queue.Queue()
        self._found = threading.Event()
        self.lock = threading.RLock()     # the page's snapshot, against the worker
        self.published = None
        self.board_sent = (None, 0.0)
        self._stop = threading.Event()
        self._thread = None
        self._link_up = False

    # --- life -----------------------------------------------------------------------------

    def start(self):
        self._thread = threading.Thread(target=self._run, name="remote", daemon=True)
        self._thread.start()
        kept = store.kept(self.store)
        if kept:
            self._jobs.put(("job", self._join, {"code": kept["code"], "side": kept["side"]},
                            None))

    def close(self):
        self._stop.set()
        self._jobs.put(("stop",))
        if self._thread is not None:
            self._thread.join(5)
        self._disconnect()

    def _disconnect(self):
        link, self.link = self.link, None
        if link is not None:
            last = None
            if self.keys is not None and self.side is not None:
                last = self.presence(False)
            link.stop(last)

    # --- the web server's side -------------------------------------------------------------

    def handle(self, action, body):
        """A page's action (ACTIONS), run by the worker; its JSON-ready result."""
        handlers = {"create": self._create, "join": self._join, "leave": self._leave,
                    "take-back": self._ask_take_back, "answer": self._answer,
                    "resign": self._resign, "choose": self._choose}
        func = handlers.get(action)
        if func is None:
            raise ApiError(404, "unknown remote action %r (known: %s)" % (
                action[:30], ", ".join(ACTIONS)))
        done = [threading.Event(), None, None]
        self._jobs.put(("job", func, body, done))
        if not done[0].wait(JOIN_WAIT_S + 20):
            raise ApiError(503, "the remote session did not answer")
        if done[2] is not None:
            raise done[2]
        return done[1]

    def check_command(self, msg):
        """A page's host-link command that would part this board's game from the remote one
        is refused (409) while the remote game is on."""
        if self.game is None or self.phase not in ("playing", "conflict"):
            return
        cmd = msg.get("cmd")
        changes = set(msg.get("settings") or ()) if cmd == "settings" else set()
        if cmd in ("new_game", "take_back", "claim", "demo") or changes & {
                "rules", "penalty", "computer", "remote"}:
            raise conflict("not in remote game %s: %s" % (self.keys.code, (
                "ask the other player to take back" if cmd == "take_back" else
                "resign or leave the remote game first")))

    def board_event(self, msg):
        """An event of the board (its driver's thread): the worker looks again."""
        self._jobs.put(("board", msg))

    def snapshot(self):
        """What the page shows of the remote game (the snapshot's `remote`)."""
        with self.lock:
            game = self.game
            return {
                "phase": self.phase, "code": self.keys.code if self.keys else None,
                "topic": self.keys.root if self.keys else None, "side": self.side,
                "link": self.link.status() if self.link else {
                    "broker": str(self.broker), "connected": False, "error": None},
                "opponent": dict(self.opponent), "lit": self.lit,
                "last_move": self.last_move, "conflict": self.conflict,
                "notices": list(self.notices),
                "game": None if game is None else {
                    "setup": game.setup, "moves": game.moves, "turn": game.turn(),
                    "epoch": game.epoch, "ask": game.ask, "their_ask": game.their_ask,
                    "outcome": game.outcome(), "result": game.result,
                    "their_result": game.their_result},
                "latency_ms": list(self.latencies)[-50:],
            }

    # --- the worker ---------------------------------------------------------------------------

    def _run(self):
        while not self._stop.is_set():
            try:
                item = self._jobs.get(timeout=1.0)
            except queue.Empty:
                item = ("tick",)
            try:
                self._take(item)
                while True:                      # everything queued, then one sync
                    try:
                        item = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    self._take(item)
                self._watch_link()
                if self.game is not None and self.phase in ("playing", "conflict", "over"):
                    sync.board(self)
                inbox.publish(self)
            except Exception as exc:     # a bug: said, and the session goes on
                self.say("internal error: %r" % exc, "fault")

    def _take(self, item):
        kind = item[0]
        if kind == "stop":
            return
        if kind == "job":
            _, func, body, done = item
            try:
                result = func(body if isinstance(body, dict) else {})
                if done is not None:
                    done[1] = result
            except ApiError as exc:
                if done is None:
                    self.say(exc.message, "fault")
                else:
                    done[2] = exc
            finally:
                if done is not None:
                    done[0].set()
        elif kind == "connected":
            self._connected()
        elif kind == "msg":
            inbox.message(self, item[1], item[2])
        elif kind == "board":
            sync.board_event(self, item[1])

    def _watch_link(self):
        link = self.link
        up = link is not None and link.connected
        if link is not None and self._link_up and not up:
            self.say("lost the broker %s: reconnecting (moves wait meanwhile)" % self.broker,
                     "fault")
        self._link_up = up

    def say(self, text, kind="info"):
        """A notice for the players (the page, the console); a fault said again within
        REPEAT_S is not repeated."""
        now = time.monotonic()
        if kind == "fault" and now - self._said.get(text, -REPEAT_S) < REPEAT_S:
            return
        self._said[text] = now
        with self.lock:
            self.notices.append({"at": now_ms(), "text": text, "kind": kind})
        self.log(("remote: " if kind == "info" else "remote fault: ") + text)

    # --- the game's start ----------------------------------------------------------------------

    def _create(self, body):
        side = body.get("side", "dark")
        if side not in SIDES:
            raise bad("side is \"dark\" or \"light\", not %r" % (side,))
        if self.game is not None and self.phase in ("playing", "conflict"):
            raise conflict("this board is in a remote game already (%s): leave it first" %
                           self.keys.code)
        state = sync.board_state(self, required=True)
        settings = dict(state["settings"], computer="none", penalty=False, remote=other(side))
        if isinstance(body.get("rules"), str):
            settings["rules"] = body["rules"]
        reply = sync.ask_board(self, {"cmd": "new_game", "settings": settings})
        state = reply["state"]
        try:
            setup = check_setup({"game": state["game"], "rules": state["rules"],
                                 "start": state["start"]})
        except Refused as exc:
            raise conflict(str(exc))
        code = new_code()
        self._begin(GameKeys(code), side, AgreedGame(setup, side, store.host_id(self)),
                    "playing")
        self.say("new game %s: you play %s; give the other player this code" % (code, side))
        return {"code": code, "side": side}

    def _join(self, body):
        try:
            keys = GameKeys(body.get("code"))
        except CodeError as exc:
            raise bad(str(exc))
        if self.keys is not None and self.keys.game_id != keys.game_id:
            self._leave({})
        self.views = {}
        self._found.clear()
        if self.link is None or self.keys is None:
            self.keys = keys
            self._connect(keys, body.get("side") if body.get("side") in SIDES else None)
        self._found.wait(JOIN_WAIT_S)
        time.sleep(0.2)                       # the other side's retained view too
        side, found = self._side_to_join(keys, body)
        setup = check_setup((found.get(other(side)) or found[side])["setup"])
        game = AgreedGame(setup, side, store.host_id(self, keys.code))
        state = sync.board_state(self, required=True)
        if state.get("game") != setup["game"]:
            self._disconnect()
            self.keys = None
            raise conflict("this board plays %s; game %s is %s" % (
                state.get("game"), keys.code, setup["game"]))
        rejoin = side in found
        if rejoin:
            game.take_own_view(found[side])
        self._begin(keys, side, game, "playing")
        if other(side) in found:
            inbox.merge(self, found[other(side)])
        if not rejoin:
            sync.fresh_board(self)
        self.say("%s game %s as %s" % ("back in" if rejoin else "joined", keys.code, side))
        return {"code": keys.code, "side": side}

    def _side_to_join(self, keys, body):
        with self.lock:
            found = dict(self.views)
        asked = body.get("side")
        if asked is not None and asked not in SIDES:
            raise bad("side is \"dark\" or \"light\", not %r" % (asked,))
        if not found:
            self._disconnect()
            self.keys = None
            raise conflict("no game under code %s on %s: is the code right, and is its "
                           "creator's host connected to this broker?" % (keys.code, self.broker))
        if asked is None:
            free = [s for s in SIDES if s not in found]
            if not free:
                raise conflict("both sides of game %s have a host: say which side is yours "
                               "to come back to it" % keys.code)
            asked = free[0]
        return asked, found

    def _begin(self, keys, side, game, phase):
        with self.lock:
            self.keys = keys
            self.side = side
            self.game = game
            self.phase = phase
            self.conflict = None
            self.lit = None
            self.heard = {}
            self.results_compared = False
        if self.link is not None and self.link.will_side != side:
            link, self.link = self.link, None     # joined: connect again with our side's will
            link.stop()
        if self.link is None:
            self._connect(keys, side)
        else:
            self._connected()
        store.keep(self, {"code": keys.code, "side": side, "host": game.host})

    def _connect(self, keys, side):
        self.link = MqttLink(self.broker, keys.root + "/#", self._paho_message,
                             self._paho_connected, **self.credentials)
        if side is not None:
            self.side = side
            self.link.will(keys.topic("presence", side), self.presence(False)[1])
            self.link.will_side = side
        self.link.start()

    def _paho_connected(self):
        self._jobs.put(("connected",))

    def _paho_message(self, topic, payload):
        keys = self.keys
        if keys is not None and topic.startswith(keys.root + "/view/"):
            try:                               # a join waits for these
                body = keys.open(topic, payload)
                if body.get("side") in SIDES and topic.endswith("/" + body["side"]):
                    with self.lock:
                        held = self.views.get(body["side"])
                        if held is None or inbox.seq_of(body) > inbox.seq_of(held):
                            self.views[body["side"]] = body
                    self._found.set()
            except ValueError:
                pass
        self._jobs.put(("msg", topic, payload))

    def _connected(self):
        link = self.link
        if link is None or self.keys is None:
            return
        if self.side is not None and self.game is not None:
            topic, payload = self.presence(True)
            link.publish(topic, payload, retain=True)
            self.published = None             # again: the broker may have lost it
            self.board_sent = (None, 0.0)
            if link.connections > 1:
                self.say("connected to the broker again")

    def presence(self, online):
        topic = self.keys.topic("presence", self.side)
        return topic, self.keys.sign(topic, {"game": self.keys.game_id, "side": self.side,
                                             "online": online, "at": now_ms()})

    # --- the players' actions -------------------------------------------------------------------

    def _leave(self, body):
        was = self.keys.code if self.keys else None
        self._disconnect()
        with self.lock:
            self.keys = self.game = self.side = self.conflict = self.lit = None
            self.phase = "idle"
        store.keep(self, None)
        sync.release_board(self)
        if was:
            self.say("left game %s: the board plays both sides again" % was)
        return {}

    def _ask_take_back(self, body):
        game = self._game_in_play()
        try:
            ask = game.ask_take_back()
        except Refused as exc:
            raise conflict(str(exc))
        self.say("asked to take back %s" % game.moves[ask["to"]])
        return {"ask": ask}

    def _answer(self, body):
        game = self._game_in_play()
        accept = body.get("accept")
        if type(accept) is not bool:
            raise bad("answer takes \"accept\": true or false")
        try:
            answer = game.answer_take_back(accept)
        except Refused as exc:
            raise conflict(str(exc))
        self.say("take-back %s" % ("accepted: the board takes back %s" % " ".join(
            game.undone) if accept else "refused"))
        return {"answer": answer}

    def _resign(self, body):
        game = self._game_in_play()
        try:
            game.resign()
        except Refused as exc:
            raise conflict(str(exc))
        self.phase = "over"
        self.say("you resigned: %s wins" % other(self.side))
        return {}

    def _choose(self, body):
        """The players' choice when the board and the game disagree: `set_up` the board with
        the remote game (a new game, the moves lit one by one), or `leave` the remote game."""
        if self.phase != "conflict":
            raise conflict("nothing to choose: the board and the game agree")
        choice = body.get("choice")
        if choice == "leave":
            return self._leave({})
        if choice != "set_up":
            raise bad("choice is \"set_up\" or \"leave\", not %r" % (choice,))
        sync.fresh_board(self)
        with self.lock:
            self.conflict = None
            self.phase = "playing"
        self.say("the board starts the remote game again: clear the board, then put each lit "
                 "disk down")
        return {}

    def _game_in_play(self):
        if self.game is None or self.phase == "idle":
            raise conflict("not in a remote game")
        return self.game
