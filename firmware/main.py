# The board's entry point: MicroPython runs /main.py at power-on and after every reset.
from gameboard import app

app.main()
