# CircuitPython runs /boot.py once at power-on, before USB starts: the only moment that can
# enable the host link's serial port and choose who may write the CIRCUITPY drive.
#
# - The host link gets the second USB serial port (usb_cdc.data), beside the REPL's.
# - `select` held at power-on: the drive stays writable from the computer (to update the
#   firmware); the board then keeps no finished games (docs/circuitpython.md).
# - Otherwise the firmware may write the drive (finished games, error.log), and the computer
#   sees it read-only. The game in progress is never on the drive: microcontroller.nvm.
import json

import board
import digitalio
import storage
import usb_cdc

usb_cdc.enable(console=True, data=True)


def select_held():
    """True if the board map's `select` button (a GPIO to ground) is held now."""
    try:
        with open("/board.json", "rb") as f:
            gpio = json.load(f).get("buttons", {}).get("select")
    except (OSError, ValueError, AttributeError):
        return False        # no map, or a broken one: the firmware will say so
    # The GPIOs a map may use (gameboard/boardmap.py's USABLE_GPIOS): `board` has no GP23 or
    # GP24 (wired on the Pico itself), and an error here would leave the drive read-only.
    if type(gpio) is not int or not (0 <= gpio <= 22 or 26 <= gpio <= 28):
        return False
    pin = digitalio.DigitalInOut(getattr(board, "GP%d" % gpio))
    pin.switch_to_input(pull=digitalio.Pull.UP)
    held = not pin.value
    pin.deinit()            # free for the firmware's Buttons
    return held


if not select_held():
    storage.remount("/", readonly=False)
