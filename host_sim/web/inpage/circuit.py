"""The simulated board's electrics for the web page: host_sim's fake `machine` circuit with a
quicker matrix read.

The host's circuit (host_sim/fakes/machine.py) works out every pad's level each time the
firmware reads the GPIO register; under MicroPython in a browser that costs more than real
time. A board with diodes needs less: a column reads low exactly when a closed switch joins it
to a row driven low. The firmware reads only its columns from the register (gameboard/hw.py),
so every other pad reads high there; a Pin's own value() stays the host circuit's.
"""

from host_sim.fakes.machine import OPEN_DRAIN, OUT, Circuit


class PageCircuit(Circuit):
    def __init__(self, row_pins=(), col_pins=(), diodes=True, clock=None, boardmap=None):
        if not diodes:
            raise ValueError("the page simulates boards with diodes only")
        super().__init__(row_pins, col_pins, diodes, clock, boardmap)

    def gpio_in(self):
        closed = 0
        for row, gpio in enumerate(self.row_pins):
            pad = self._pads[gpio]
            if pad.out == 0 and (pad.mode == OUT or pad.mode == OPEN_DRAIN):
                closed |= self.switches[row]
        value = 0x3FFFFFFF
        for col, gpio in enumerate(self.col_pins):
            if closed >> col & 1:
                value &= ~(1 << gpio)
        return value
