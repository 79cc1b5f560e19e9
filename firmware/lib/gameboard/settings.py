"""Board settings: rules, penalty option, hints, brightness, palette, the computer opponent,
and the side a remote player plays.

On an empty board before the first placement, a disk resting on one of the settings cells
steps that setting to its next value (docs/board.md has the pictures; gameboard/layout.py
says which cell is which): on the hex board A1 rules, A2 penalty option, A3 hints, A4
brightness, A5 palette, B1 the computer's side (none, dark, light), B6 the computer's level
(1-5); on a square board a1-e1 hints to level.

`remote` (none, dark, light: the side whose moves a host sends, docs/protocol.md) is set by a
host only and never saved: a board that restarts without its host plays both sides again, and
the host that runs the remote game sets it again when the board starts.
"""

import iago

RULE_CHOICES = ("standard", "loose", "simple", "loose+simple")
BRIGHTNESS_LEVELS = (24, 64, 128, 255)

NAMES = ("rules", "penalty", "hints", "brightness", "palette", "computer", "level")
COMPUTER_SIDES = ("none", "dark", "light")
# The values each setting of NAMES takes. A value must be one of them and of its type: a host
# or a damaged save sending 1.0 or true for 1 would otherwise be saved, and crash every start.
CHOICES = (RULE_CHOICES, (False, True), (False, True), tuple(range(len(BRIGHTNESS_LEVELS))),
           (0, 1), COMPUTER_SIDES, (1, 2, 3, 4, 5))


def _check(name, value, choices):
    for choice in choices:
        if type(choice) is type(value) and choice == value:
            return
    # A list or object is named, not shown: it may be long or deeply nested.
    shown = repr(value) if type(value) in (str, int, float, bool, type(None)) else (
        "a " + type(value).__name__)
    if len(shown) > 24:
        shown = shown[:21] + "..."
    raise ValueError("%s is one of %s, not %s" % (
        name, ", ".join([repr(c) for c in choices]), shown))


class Settings:
    def __init__(self, rules="standard", penalty=False, hints=True, brightness=2, palette=0,
                 computer="none", level=3, remote="none"):
        values = (rules, penalty, hints, brightness, palette, computer, level)
        for i in range(len(NAMES)):
            _check(NAMES[i], values[i], CHOICES[i])
        _check("remote", remote, COMPUTER_SIDES)
        if penalty and rules.startswith("loose"):
            raise ValueError("the penalty option needs forced capture (not with loose rules)")
        if remote != "none" and remote == computer:
            raise ValueError("the computer and the remote player cannot both play %s" % remote)
        # The remote side as the game's side number (1 dark, 2 light; 0 none): the referee
        # reads it on every placement.
        self.remote = COMPUTER_SIDES.index(remote)
        self.computer = computer
        self.level = level
        self.rules = rules
        self.penalty = penalty
        self.hints = hints
        self.brightness = brightness
        self.palette = palette

    def rules_object(self):
        return iago.Rules.parse(self.rules + ("+penalty" if self.penalty else ""))

    def brightness_level(self):
        return BRIGHTNESS_LEVELS[self.brightness]

    def step(self, name):
        """Step the setting `name` (one of NAMES) to its next value; False if it cannot."""
        if name == "rules":
            self.rules = RULE_CHOICES[(RULE_CHOICES.index(self.rules) + 1) % len(RULE_CHOICES)]
            if self.rules.startswith("loose"):
                self.penalty = False
        elif name == "penalty":
            if self.rules.startswith("loose"):
                return False
            self.penalty = not self.penalty
        elif name == "hints":
            self.hints = not self.hints
        elif name == "brightness":
            self.brightness = (self.brightness + 1) % len(BRIGHTNESS_LEVELS)
        elif name == "palette":
            self.palette ^= 1
        elif name == "computer":
            self.computer = COMPUTER_SIDES[(COMPUTER_SIDES.index(self.computer) + 1) % 3]
        elif name == "level":
            self.level = self.level % 5 + 1
        else:
            return False
        return True

    def values(self):
        """The settings' values in the order of NAMES."""
        return (self.rules, self.penalty, self.hints, self.brightness, self.palette,
                self.computer, self.level)

    def code(self):
        """The settings as one digit each, its value's place in CHOICES (a save's line)."""
        values = self.values()
        return "".join([str(CHOICES[i].index(values[i])) for i in range(len(NAMES))])

    @classmethod
    def from_code(cls, code):
        """Settings from code(); raises ValueError for anything else."""
        if type(code) is not str or len(code) != len(NAMES):
            raise ValueError("settings code of %d digits expected" % len(NAMES))
        values = []
        for i in range(len(NAMES)):
            k = ord(code[i]) - 48
            if not 0 <= k < len(CHOICES[i]):
                raise ValueError("no %s numbered %s" % (NAMES[i], code[i]))
            values.append(CHOICES[i][k])
        return cls(*values)

    def as_dict(self):
        return {"rules": self.rules, "penalty": self.penalty, "hints": self.hints,
                "brightness": self.brightness, "palette": self.palette,
                "computer": self.computer, "level": self.level,
                "remote": COMPUTER_SIDES[self.remote]}

    def computer_side(self):
        """1 (dark) or 2 (light) for the side the computer plays, 0 for none."""
        return COMPUTER_SIDES.index(self.computer)

    @classmethod
    def from_dict(cls, data):
        """Settings from a dict (saved file or host command); missing keys keep defaults. Raises
        ValueError for anything but a known setting with one of its values."""
        if not isinstance(data, dict):
            raise ValueError("settings must be an object")
        for key in data:
            if key not in NAMES and key != "remote":
                raise ValueError("unknown setting %r (known: %s, remote)" % (
                    key, ", ".join(NAMES)))
        return cls(data.get("rules", "standard"), data.get("penalty", False),
                   data.get("hints", True), data.get("brightness", 2),
                   data.get("palette", 0), data.get("computer", "none"), data.get("level", 3),
                   data.get("remote", "none"))

    def __eq__(self, other):
        return isinstance(other, Settings) and self.as_dict() == other.as_dict()

