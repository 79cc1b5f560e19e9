"""CircuitPython's `watchdog` module: the modes of microcontroller.watchdog."""

from host_sim.fakes.microcontroller import WatchDogMode, WatchDogTimeout  # noqa: F401
