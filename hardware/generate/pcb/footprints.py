"""The project's own footprints (library `iago`, hardware/generated/pcb/iago.pretty), as
KiCad 6 text.

KiCad 6's library has no Raspberry Pi Pico. Ours has pads 1-40 in the Pico's pin numbering
(seen from the top, USB up: pin 1 top left, 20 bottom left, 21 bottom right, 40 top right),
through-hole for 2.54 mm header sockets or pins; each pad reaches 0.4 mm past the Pico's edge,
so a Pico can also be soldered flat by its castellations.
"""

PICO_PIN_PITCH = 2.54
PICO_ROW_X = 8.89          # the pin rows, either side of the middle
PICO_FIRST_Y = -24.13      # pin 1's row (KiCad's y points down: toward the USB end)
PICO_SIZE = (21.0, 51.0)


def pico_pin(number):
    """Where pin `number` (1-40) sits in the footprint, KiCad coordinates (y down)."""
    if not 1 <= number <= 40:
        raise ValueError("a Pico has pins 1-40, not %r" % (number,))
    if number <= 20:
        return -PICO_ROW_X, round(PICO_FIRST_Y + (number - 1) * PICO_PIN_PITCH, 4)
    return PICO_ROW_X, round(-PICO_FIRST_Y - (number - 21) * PICO_PIN_PITCH, 4)


def _fmt(v):
    text = ("%.4f" % v).rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _line(x1, y1, x2, y2, layer, width):
    return '  (fp_line (start %s %s) (end %s %s) (layer "%s") (width %s))' % (
        _fmt(x1), _fmt(y1), _fmt(x2), _fmt(y2), layer, _fmt(width))


def _rect(x1, y1, x2, y2, layer, width):
    return [_line(x1, y1, x2, y1, layer, width), _line(x2, y1, x2, y2, layer, width),
            _line(x2, y2, x1, y2, layer, width), _line(x1, y2, x1, y1, layer, width)]


def _text(kind, text, x, y, layer, size=1.0, hide=False):
    return ('  (fp_text %s "%s" (at %s %s) (layer "%s")%s\n    (effects (font (size %s %s) '
            '(thickness %s)))\n  )' % (kind, text, _fmt(x), _fmt(y), layer,
                                       " hide" if hide else "", _fmt(size), _fmt(size),
                                       _fmt(size * 0.15)))


def pico():
    hw, hh = PICO_SIZE[0] / 2.0, PICO_SIZE[1] / 2.0
    out = ['(footprint "RaspberryPi_Pico" (version 20211014) (generator pcbnew)',
           '  (layer "F.Cu")',
           '  (descr "Raspberry Pi Pico (RP2040), on 2.54 mm header sockets or soldered flat '
           'by its castellations; pads 1-40 in the Pico\'s numbering, USB at the top")',
           '  (tags "Raspberry Pi Pico RP2040")',
           '  (attr through_hole)',
           # The reference at the far end: the USB end may sit at the board's edge.
           _text("reference", "REF**", 0, hh + 1.5, "F.SilkS"),
           _text("value", "Raspberry Pi Pico", 0, hh + 3.5, "F.Fab"),
           _text("user", "USB", 0, -hh + 2.5, "F.SilkS", size=1.2)]
    out += _rect(-hw, -hh, hw, hh, "F.Fab", 0.1)
    out += _rect(-hw - 0.25, -hh - 0.25, hw + 0.25, hh + 0.25, "F.CrtYd", 0.05)
    # Silk: the far end (the sides carry the pads; the USB end may sit at the board's edge),
    # the USB socket's place and a mark at pin 1.
    out.append(_line(-hw - 0.12, hh + 0.12, hw + 0.12, hh + 0.12, "F.SilkS", 0.12))
    out.append(_line(-4.0, -hh + 0.6, -4.0, -hh + 1.3, "F.SilkS", 0.12))
    out.append(_line(4.0, -hh + 0.6, 4.0, -hh + 1.3, "F.SilkS", 0.12))
    out.append(_line(-4.0, -hh + 1.3, 4.0, -hh + 1.3, "F.SilkS", 0.12))
    out.append(_line(-hw - 1.0, PICO_FIRST_Y, -hw - 1.8, PICO_FIRST_Y - 0.8, "F.SilkS", 0.12))
    out.append(_line(-hw - 1.0, PICO_FIRST_Y, -hw - 1.8, PICO_FIRST_Y + 0.8, "F.SilkS", 0.12))
    for number in range(1, 41):
        x, y = pico_pin(number)
        offset = -0.4 if x < 0 else 0.4
        shape = "rect" if number == 1 else "oval"
        out.append('  (pad "%d" thru_hole %s (at %s %s) (size 3.2 1.6) (drill 1 (offset %s 0)) '
                   '(layers *.Cu *.Mask))' % (number, shape, _fmt(x), _fmt(y), _fmt(offset)))
    out.append(")")
    return "\n".join(out) + "\n"


FOOTPRINTS = {"RaspberryPi_Pico": pico}
