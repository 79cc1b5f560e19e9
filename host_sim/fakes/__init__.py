"""Fakes of MicroPython hardware modules for running the firmware under CPython."""
