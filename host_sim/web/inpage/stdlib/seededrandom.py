# MicroPython's random has no Random class. The worker puts this module in sys.modules as
# `random` (boardworker.js), so the simulator's seeded generator is the built-in one.
from random import *   # noqa: F401,F403 (choice, getrandbits, randint, random, uniform, ...)
import random as _random


class Random:
    def __init__(self, x=None):
        _random.seed(x or 0)

    def __getattr__(self, name):
        return getattr(_random, name)
