// TEST ONLY: a navigator.serial whose one port is the simulated board's USB serial stream on the
// host (tests/test_web_serial.py), injected by Playwright before the page loads. Chromium here
// reaches no USB device; the page's Web Serial back end (static/board.js) talks to this port as
// to a real board. The host's side is two exposed functions: iagoSerialWrite(text) feeds the
// board's input, iagoSerialRead() runs the board up to now and returns what it wrote.
(() => {
  const encoder = new TextEncoder();
  const port = {
    opened: false,
    readable: null,
    writable: null,
    getInfo() { return { usbVendorId: 0x2e8a, usbProductId: 0x0005 }; },   // a Pico's
    async open(options) {
      if (this.opened) throw new DOMException("The port is already open.", "InvalidStateError");
      if (!options || !options.baudRate) throw new TypeError("baudRate is required");
      this.opened = true;
      let timer = null;
      this.readable = new ReadableStream({
        start(controller) {
          timer = setInterval(async () => {
            const text = await window.iagoSerialRead();
            if (text) controller.enqueue(encoder.encode(text));
          }, 20);
        },
        cancel() { clearInterval(timer); },
      });
      this.writable = new WritableStream({
        async write(chunk) { await window.iagoSerialWrite(new TextDecoder().decode(chunk)); },
      });
    },
    async close() { this.opened = false; },
  };
  Object.defineProperty(Navigator.prototype, "serial", {
    configurable: true,
    get() { return { requestPort: async () => port, getPorts: async () => [port] }; },
  });
})();
