# The board's entry point on CircuitPython, which runs /code.py at power-on and after every
# reset or reload (MicroPython runs main.py; both start gameboard.app.main()).
try:
    from gameboard import app
except Exception as exc:    # the firmware's own files cannot be loaded (damaged, or no heap)
    import json

    import usb_cdc
    line = json.dumps({"v": 2, "event": "error", "error": "the firmware cannot start: %s" % exc})
    print(line)
    if usb_cdc.data is not None:
        usb_cdc.data.write((line + "\n").encode())
    raise

app.main()
