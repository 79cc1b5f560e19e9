"""Fakes of MicroPython's hardware modules for running the firmware under CPython.

`install(circuit, clock)` (install.py) makes the firmware's `import machine`, `neopixel` and
`time` give these: `machine.Circuit` is the simulated board's electrics, `mptime.Clock` its
virtual time.
"""
