"""The simulated Pico for tests that run the firmware's own start-up: its circuit and clock."""

import contextlib

import pytest

from host_sim.fakes.install import install
from host_sim.fakes.machine import Circuit
from host_sim.fakes.mptime import Clock


@contextlib.contextmanager
def fake_pico(boardmap=None):
    """A fresh circuit wired as `boardmap` (a checked BoardMap; None: the default map's) and
    its clock, installed for the `with` block: yields (circuit, clock)."""
    clock = Clock()
    circuit = Circuit(boardmap=boardmap, clock=clock)
    uninstall = install(circuit, clock)
    try:
        yield circuit, clock
    finally:
        uninstall()


class Port:
    """Stands in for the USB port (tested under MicroPython in test_hw_micropython.py): writes
    go to stdout."""

    def read(self):
        return None

    def write(self, text):
        print(text, end="")


@pytest.fixture
def usb_port(monkeypatch):
    """The USB port as a Port, for a test module whose autouse fixture asks for it."""
    from gameboard import usbserial
    monkeypatch.setattr(usbserial, "UsbSerial", Port)
