// TEST ONLY: a browser without Web Serial (Firefox, Safari), for tests/test_web_serial.py.
delete Navigator.prototype.serial;
