# The board's entry point: MicroPython runs /main.py at power-on and after every reset.
try:
    from gameboard import app
except Exception as exc:    # the firmware's own files cannot be loaded (damaged, or no heap)
    import json
    print(json.dumps({"v": 2, "event": "error", "error": "the firmware cannot start: %s" % exc}))
    raise

app.main()
