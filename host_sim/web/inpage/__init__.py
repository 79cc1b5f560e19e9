"""The simulated board in the web page: the unmodified firmware under MicroPython's WebAssembly
port, in a Web Worker (static/boardworker.js), with nothing behind the page but static files.

Everything here runs under MicroPython only, never on the host. host_sim's fakes of `machine`,
`neopixel` and `time` (host_sim/fakes) are plain Python that MicroPython runs as well;
`circuit` gives them a quicker matrix read; `pageboard` builds host_sim's own SimBoard and
SimDriver on them, so the disks, hands, auto-flip, faults, replay and snapshot are the very ones
of `iago serve --sim`; `stdlib/` stands in for the few CPython modules host_sim imports that
MicroPython lacks.
"""
