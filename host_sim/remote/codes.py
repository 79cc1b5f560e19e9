"""A remote game's code, and what it gives: the game's topics and the key its messages are
signed with (docs/remote.md).

A code is twelve digits read over the phone in three groups, 4821-0937-5516: eleven random
digits and a check digit (Damm's algorithm: any one digit wrong and any two neighbours swapped
are caught), so a code mistyped is refused at once instead of opening an empty game. From the
digits, PBKDF2-HMAC-SHA256 derives 40 bytes: the first 32 are the key of the HMAC that signs
every message, the last 8 the game's id in its topics. The id tells nothing of the key (one
would have to guess the code, 10^11 tries of 100,000 rounds of SHA-256 each), so who learns a
topic can watch the messages but cannot sign a move.
"""

import hashlib
import hmac
import json
import secrets

SALT = b"iago-remote-v1"
ROUNDS = 100_000
TOPIC_ROOT = "iago/v1"
SIDES = ("dark", "light")

# Damm's quasigroup of order 10 (totally anti-symmetric, zero diagonal).
_DAMM = ("0317598642", "7092154863", "4206871359", "1750983426", "6123045978",
         "3674209581", "5869720134", "8945362017", "9438617205", "2581436790")


class CodeError(ValueError):
    """Text that is not a game code."""


def _damm(digits):
    interim = 0
    for d in digits:
        interim = int(_DAMM[interim][int(d)])
    return interim


def new_code():
    """A fresh code, as it is shown: "4821-0937-5516"."""
    body = "".join(str(secrets.randbelow(10)) for _ in range(11))
    return shown(body + str(_damm(body)))


def shown(digits):
    return "%s-%s-%s" % (digits[:4], digits[4:8], digits[8:])


def parse(text):
    """The twelve digits of a code typed by a person (spaces and dashes anywhere), or
    CodeError saying what is wrong."""
    if not isinstance(text, str):
        raise CodeError("a game code is text such as 4821-0937-5516")
    digits = "".join(ch for ch in text if ch not in " -\t")
    if not digits:
        raise CodeError("no game code given (twelve digits, such as 4821-0937-5516)")
    if not digits.isdigit() or not digits.isascii():
        raise CodeError("a game code has digits only, not %r" % text[:40])
    if len(digits) != 12:
        raise CodeError("a game code has twelve digits, not %d (%s)" % (len(digits), text[:40]))
    if _damm(digits) != 0:
        raise CodeError("%s is not a game code: a digit is wrong or two are swapped" %
                        shown(digits))
    return digits


class GameKeys:
    """The topics and the signing key of the game with code `text`."""

    def __init__(self, text):
        self.digits = parse(text)
        self.code = shown(self.digits)
        derived = hashlib.pbkdf2_hmac("sha256", self.digits.encode(), SALT, ROUNDS, 40)
        self._key = derived[:32]
        self.game_id = derived[32:].hex()
        self.root = "%s/%s" % (TOPIC_ROOT, self.game_id)

    def topic(self, *parts):
        return "/".join((self.root,) + parts)

    def sign(self, topic, body):
        """The message for `topic` carrying the JSON-ready `body`: the body's JSON text and its
        HMAC over the topic and that text, so a message moved to another topic fails too."""
        text = json.dumps(body, separators=(",", ":"), sort_keys=True)
        return json.dumps({"body": text, "mac": self._mac(topic, text)}).encode()

    def open(self, topic, payload):
        """The body of a message signed with this game's key, or ValueError saying why not."""
        try:
            outer = json.loads(payload)
            text, mac = outer["body"], outer["mac"]
        except (ValueError, TypeError, KeyError, UnicodeDecodeError):
            raise ValueError("not a message of this game's format")
        if not isinstance(text, str) or not isinstance(mac, str):
            raise ValueError("not a message of this game's format")
        if not hmac.compare_digest(mac, self._mac(topic, text)):
            raise ValueError("not signed with this game's code")
        body = json.loads(text)
        if not isinstance(body, dict) or body.get("game") != self.game_id:
            raise ValueError("signed, but for another game")
        return body

    def _mac(self, topic, text):
        return hmac.new(self._key, (topic + "\n" + text).encode(), hashlib.sha256).hexdigest()
