"""CircuitPython's `busio` on the simulated circuit: I2C, which reaches the circuit's FRAM
(host_sim/fakes/fram.py)."""

from host_sim.fakes.fram import BusioI2C as I2C  # noqa: F401
