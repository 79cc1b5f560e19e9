"""The board firmware: hardware layer, debounce, LEDs, controller, saves, host link."""
