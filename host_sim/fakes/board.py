"""CircuitPython's `board` module for the Raspberry Pi Pico (raspberry_pi_pico): GP0-GP28 and
LED (GP25), each the port's microcontroller.pin.GPIOn object."""

from host_sim.fakes import microcontroller as _mc

board_id = "raspberry_pi_pico"

for _n in range(29):
    if _n not in (23, 24):      # GPIO23/24 drive the Pico's regulator and sense VBUS
        globals()["GP%d" % _n] = getattr(_mc.pin, "GPIO%d" % _n)
LED = _mc.pin.GPIO25
VOLTAGE_MONITOR = A3 = _mc.pin.GPIO29
SMPS_MODE = _mc.pin.GPIO23
VBUS_SENSE = _mc.pin.GPIO24
