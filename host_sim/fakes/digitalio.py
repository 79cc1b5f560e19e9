"""CircuitPython's `digitalio` on the simulated circuit (host_sim/fakes/machine.Circuit).

As documented for CircuitPython 9: a DigitalInOut claims its pin until deinit() (a second
one on the same pin raises ValueError "in use"); it starts as an input without pull;
`direction = INPUT` drops any pull, `switch_to_output(value=False, drive_mode=PUSH_PULL)`,
`switch_to_input(pull=None)`; `pull` and `drive_mode` raise AttributeError in the wrong
direction; `value` reads the pad's level (an output reads back what it drives).
"""

from host_sim.fakes import machine as _machine
from host_sim.fakes import microcontroller as _mc


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class DriveMode:
    PUSH_PULL = "PUSH_PULL"
    OPEN_DRAIN = "OPEN_DRAIN"


_PULLS = {None: 0, Pull.UP: _machine.PULL_UP, Pull.DOWN: _machine.PULL_DOWN}


class DigitalInOut:
    def __init__(self, pin):
        _mc.claim(pin)
        self._pin = pin
        self._circuit = _machine.circuit()
        self._direction = Direction.INPUT
        self._pull = None
        self._drive = DriveMode.PUSH_PULL
        self._deinited = False
        self._circuit._configure(pin.gpio, _machine.IN, 0, None)

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used. "
                             "Create a new object.")

    def deinit(self):
        if not self._deinited:
            self._deinited = True
            self._circuit._configure(self._pin.gpio, _machine.IN, 0, None)
            _mc.release(self._pin)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._check()
        self._direction = Direction.OUTPUT
        self._drive = drive_mode
        self._pull = None
        mode = _machine.OPEN_DRAIN if drive_mode == DriveMode.OPEN_DRAIN else _machine.OUT
        self._circuit._configure(self._pin.gpio, mode, 0, 1 if value else 0)

    def switch_to_input(self, pull=None):
        self._check()
        if pull not in _PULLS:
            raise TypeError("pull must be a Pull or None")
        self._direction = Direction.INPUT
        self._pull = pull
        self._circuit._configure(self._pin.gpio, _machine.IN, _PULLS[pull], None)

    @property
    def direction(self):
        self._check()
        return self._direction

    @direction.setter
    def direction(self, value):
        if value == Direction.INPUT:
            self.switch_to_input()
        elif value == Direction.OUTPUT:
            self.switch_to_output()
        else:
            raise ValueError("Invalid direction.")

    @property
    def value(self):
        self._check()
        return bool(self._circuit.level(self._pin.gpio))

    @value.setter
    def value(self, value):
        self._check()
        if self._direction != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._circuit._write(self._pin.gpio, 1 if value else 0)

    @property
    def pull(self):
        self._check()
        if self._direction == Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        return self._pull

    @pull.setter
    def pull(self, value):
        if self._direction == Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        self.switch_to_input(value)

    @property
    def drive_mode(self):
        self._check()
        if self._direction == Direction.INPUT:
            raise AttributeError("Drive mode not used when direction is input.")
        return self._drive

    @drive_mode.setter
    def drive_mode(self, value):
        if self._direction == Direction.INPUT:
            raise AttributeError("Drive mode not used when direction is input.")
        self.switch_to_output(self.value, value)
