"""A `micropython` module for CPython, installed only on request (`install(micropython=True)`).

The firmware does not need it: it imports `const` with a fallback for CPython. It exists for
code that calls micropython's heap and info functions, which do nothing here. It has no
native code emitter, like a MicroPython build without one: `@micropython.native` and
`@micropython.viper` raise SyntaxError, so code choosing a viper kernel at import (iago's
rules) falls back to plain Python instead of running viper code under CPython.
"""


def const(x):
    return x


def _no_emitter(function):
    raise SyntaxError("invalid micropython decorator")


native = _no_emitter
viper = _no_emitter
asm_thumb = _no_emitter


def opt_level(level=None):
    return 0 if level is None else None


def alloc_emergency_exception_buf(size):
    pass


def heap_lock():
    return 0


def heap_unlock():
    return 0


def heap_locked():
    return 0


def kbd_intr(char):
    pass


def schedule(function, arg):
    function(arg)


def mem_info(verbose=None):
    pass


def qstr_info(verbose=None):
    pass


def stack_use():
    return 0
