"""`iago serve --remote`'s broker options (docs/remote.md, "Brokers") against a real Mosquitto
that asks for TLS and a password: the right certificate authority and password connect and a
game is created; a wrong password and an unknown authority are refused by the broker or by TLS
and said on the page, never a silent failure."""

import getpass
import subprocess

import pytest

from remote_harness import MOSQUITTO, Serve, free_port, wait_for


@pytest.fixture
def tls_broker(tmp_path):
    """Mosquitto on a free port with TLS (a certificate for localhost signed by a CA made
    here) and one account, alice / secret."""
    run = lambda *args: subprocess.run(args, cwd=tmp_path, check=True, capture_output=True)  # noqa: E731
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=iago test CA")
    run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key",
        "-out", "server.csr", "-subj", "/CN=localhost")
    (tmp_path / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "san.ext")
    run("mosquitto_passwd", "-b", "-c", "passwords", "alice", "secret")
    port = free_port()
    (tmp_path / "mosquitto.conf").write_text(
        # `user`: run as root, Mosquitto would become the user mosquitto, who cannot read
        # the test's files.
        "user %s\nlistener %d 127.0.0.1\ncafile %s\ncertfile %s\nkeyfile %s\n"
        "allow_anonymous false\npassword_file %s\npersistence false\n" % (
            getpass.getuser(), port, tmp_path / "ca.pem", tmp_path / "server.pem",
            tmp_path / "server.key", tmp_path / "passwords"))
    log = open(tmp_path / "mosquitto.log", "wb")
    proc = subprocess.Popen([str(MOSQUITTO), "-c", str(tmp_path / "mosquitto.conf")],
                            stdout=log, stderr=subprocess.STDOUT)
    log.close()
    wait_for(lambda: b"running" in (tmp_path / "mosquitto.log").read_bytes() or
             proc.poll() is not None, 10, "mosquitto to start")
    assert proc.poll() is None, (tmp_path / "mosquitto.log").read_text()
    yield port, tmp_path / "ca.pem"
    proc.terminate()
    proc.wait(10)


def link_of(board):
    return board.remote()["link"]


def test_tls_and_a_password_connect_and_wrong_ones_are_said(tls_broker, tmp_path):
    port, ca = tls_broker
    url = "mqtts://localhost:%d" % port
    cases = [("right", ["--broker-user", "alice", "--broker-ca", str(ca)], "secret", None),
             ("password", ["--broker-user", "alice", "--broker-ca", str(ca)], "wrong",
              "refused the connection"),
             ("authority", ["--broker-user", "alice"], "secret", "cannot reach the broker")]
    for name, extra, password, error in cases:
        board = Serve(tmp_path / name, url, extra=extra, env={"IAGO_BROKER_PASSWORD": password})
        try:
            created = board.post("remote/create", {"side": "dark"})
            assert created["ok"], created
            if error is None:
                wait_for(lambda b=board: link_of(b)["connected"], 15, "the TLS connection")
                assert link_of(board)["broker"] == "mqtts://localhost:%d" % port
            else:
                wait_for(lambda b=board, e=error: e in (link_of(b)["error"] or ""), 15,
                         "%r on the page" % error)
                assert not link_of(board)["connected"]
        finally:
            board.stop()
