"""The LED pipeline: the controller's frame in, the bytes for the LED chain out, allocation-free.

The frame is what the players should see: RGB bytes in cell order (cell 0 = A1 at 0-2). For
the wire each value goes through
1. gamma correction (2.6), so equal steps of a value look like equal steps of light;
2. the global brightness (0-255), applied to the light, so brightness 128 is half the power;
3. the current cap: the chain's draw is estimated as led_idle_ma per LED plus
   led_ma_per_channel for each channel at full duty, pro rata; a frame that would exceed the
   board map's current_budget_ma is scaled down as a whole until it fits, never over;
and lands at its LED's place in the chain, in the LEDs' colour order.

A channel the frame lights never rounds to off through gamma and brightness (only the cap
may turn it off), so dim hints stay visible at the lowest brightness.
"""

import array

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

GAMMA = 2.6
_FULL = const(65535)     # gamma table resolution: 16 bits, so dimming keeps low levels apart
_SCALE_BITS = const(12)  # the cap's scale factor is in 4096ths: fine enough, small ints only
_UNSCALED = const(4096)


try:
    # On MicroPython with a native emitter (a Pico) the viper kernels: about 20x faster;
    # elsewhere the plain code of _ledplain.py.
    from gameboard._ledkernel import render_wire, scale_wire
except (ImportError, SyntaxError):
    from gameboard._ledplain import render_wire, scale_wire


def gamma_table(gamma=GAMMA):
    """For each frame value 0-255, the LED duty it asks for, 0-65535."""
    table = array.array("H", [0] * 256)
    for v in range(256):
        table[v] = int(_FULL * (v / 255) ** gamma + 0.5)
    return table


class LedOutput:
    """Turns `frame` (bytearray(count * 3), RGB in cell order) into `wire` (bytes in chain and
    colour order) on `render()`.

    `wire` is double-buffered: a render composes into a spare buffer and, if the result
    differs, swaps it in; so read `wire` after each render, and the buffer handed to the LEDs
    is never written while they might still be sent it.

    After a render: `ma` is the estimated draw of the wire, `unscaled_ma` what the frame would
    have drawn without the cap, `scale` the cap's factor in 4096ths (4096: not capped).
    """

    def __init__(self, boardmap, frame=None, brightness=255, gamma=GAMMA):
        count = len(boardmap.led_of_cell)
        bpp = boardmap.bpp
        if frame is None:
            frame = bytearray(count * 3)
        if len(frame) != count * 3:
            raise ValueError("the frame must hold 3 bytes for each of the %d hexes" % count)
        self.count = count
        self.bpp = bpp
        self.frame = frame
        self.wire = bytearray(count * bpp)
        self._spare = bytearray(count * bpp)
        # Frame byte -> wire byte: the LED's place in the chain plus the channel's offset.
        self.dest = array.array("H", [0] * (count * 3))
        order = boardmap.colour_order
        for cell in range(count):
            for channel in range(3):
                self.dest[cell * 3 + channel] = boardmap.led_of_cell[cell] * bpp + order[channel]
        self.gamma = gamma_table(gamma)   # the gamma curve: frame value -> LED duty
        self._level = bytearray(256)
        self._brightness = -1
        self.brightness = brightness
        # The board map's names: each new attribute name stays interned on a Pico.
        self.current_budget_ma = boardmap.current_budget_ma
        self.led_idle_ma = boardmap.led_idle_ma * count      # the whole chain's
        self.led_ma_per_channel = boardmap.led_ma_per_channel
        # The largest sum of wire channel values the budget allows (never more than all lit).
        self._allowed = min(count * 3 * 255, (self.current_budget_ma - self.led_idle_ma) * 255
                            // self.led_ma_per_channel)
        self._sent = False       # the first render always counts as a change
        self.scale = _UNSCALED
        self.ma = self.unscaled_ma = self.led_idle_ma

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        if value == self._brightness:
            return
        if not 0 <= value <= 255:
            raise ValueError("brightness is 0-255")
        self._brightness = value
        gamma = self.gamma
        level = self._level
        for v in range(1, 256):
            x = (gamma[v] * value + 32767) // _FULL
            level[v] = x if x or not value else 1

    def light(self, cell, rgb, colour):
        """Set `cell` in `wire` to `colour` of the palette `rgb`, at the brightness and cap scale
        of the last render, and return `wire`: a placed disk's hex is sent before its frame is
        composed. Allocates nothing. `wire` is written in place: the LED write has returned
        by then (it blocks), and the next render compares with what the LEDs show."""
        wire = self.wire
        level = self._level
        dest = self.dest
        scale = self.scale
        k = colour * 3
        i = cell * 3
        for channel in range(3):
            value = level[rgb[k + channel]]
            if scale != _UNSCALED:
                value = (value * scale) >> _SCALE_BITS
            wire[dest[i + channel]] = value
        return wire

    def put(self, cell, rgb, colour):
        """Set `cell` in `frame` to `colour` of the palette `rgb`, for the next render."""
        frame = self.frame
        for k in range(3):
            frame[cell * 3 + k] = rgb[colour * 3 + k]

    def level(self, value):
        """The wire value of a frame value at the current brightness, before the cap."""
        return self._level[value]

    def render(self):
        """Compose `wire` from `frame`; True if `wire` changed (or was never rendered before).
        Allocates nothing."""
        out = self._spare
        total = render_wire(self.frame, self._level, self.dest, out)
        scale = _UNSCALED
        shown = total
        if total > self._allowed:
            # Rounded down, so the capped sum stays within what the budget allows.
            scale = (self._allowed << _SCALE_BITS) // total
            shown = scale_wire(out, scale)
        self.scale = scale
        # Rounded up, so the estimate never undercounts.
        idle = self.led_idle_ma
        per_channel = self.led_ma_per_channel
        self.unscaled_ma = idle + (total * per_channel + 254) // 255
        self.ma = idle + (shown * per_channel + 254) // 255
        if self._sent and out == self.wire:
            return False
        self._sent = True
        self._spare = self.wire
        self.wire = out
        return True
