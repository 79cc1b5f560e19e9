"""The Makefile's set-up of system packages (`debian-package`): apt-get as root, sudo
otherwise, else one line naming the package and the command, and make stops at once.

Each branch runs the Makefile's own function on a package that is not installed, with
stand-ins for `id`, `sudo` and `apt-get` that record how they were called, so nothing is
installed and the test runs the same as root (CI) or not.
"""

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "iago-test-absent-package"
MISSING = "/nonexistent/iago-test-absent-file"

# A target that needs the package, and one after it that must not run if the set-up stops.
PROBE = """
probe-setup:
\t$(call debian-package,%s,%s)
probe-after: probe-setup
\t@echo after the set-up
""" % (PACKAGE, MISSING)


def stand_in(folder, name, body):
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


def make(tmp_path, uid, sudo, apt=True):
    """`make probe-after` with only these commands on PATH: make, sh, `id -u` printing uid,
    sudo and apt-get if asked for (each logs its arguments to calls.log)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("make", "sh", "env", "echo"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    log = tmp_path / "calls.log"
    stand_in(bin_dir, "id", "echo %d\n" % uid)
    if sudo:
        stand_in(bin_dir, "sudo", 'echo "sudo $*" >> %s\nexec "$@"\n' % log)
    if apt:
        stand_in(bin_dir, "apt-get", 'echo "apt-get $*" >> %s\n' % log)
    (tmp_path / "probe.mk").write_text(PROBE)
    start = time.monotonic()
    proc = subprocess.run(["make", "--no-print-directory", "-f", str(ROOT / "Makefile"),
                           "-f", str(tmp_path / "probe.mk"), "probe-after"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PATH": str(bin_dir), "HOME": str(tmp_path)})
    calls = log.read_text().splitlines() if log.exists() else []
    return proc, calls, time.monotonic() - start


def test_as_root_apt_get_installs_the_missing_package(tmp_path):
    proc, calls, _ = make(tmp_path, uid=0, sudo=False)
    # The stand-in apt-get installs nothing, so the run goes on to the next target.
    assert proc.returncode == 0, proc.stderr
    assert "installing Debian's %s (%s is missing)" % (PACKAGE, MISSING) in proc.stdout
    assert calls == ["apt-get update -q",
                     "apt-get install -y -q --no-install-recommends %s" % PACKAGE]
    assert "after the set-up" in proc.stdout


def test_another_user_installs_it_through_sudo(tmp_path):
    proc, calls, _ = make(tmp_path, uid=1000, sudo=True)
    assert proc.returncode == 0, proc.stderr
    assert calls[0].startswith("sudo env DEBIAN_FRONTEND=noninteractive apt-get update")
    assert calls[-1] == "apt-get install -y -q --no-install-recommends %s" % PACKAGE


def test_a_user_without_sudo_gets_one_line_naming_the_package_and_make_stops(tmp_path):
    proc, calls, seconds = make(tmp_path, uid=1000, sudo=False)
    assert proc.returncode != 0
    lines = [line for line in proc.stderr.splitlines() if not line.startswith("make: ***")]
    assert lines == ["make: %s is not installed and this user cannot install it: run "
                     "'apt-get install %s' as root" % (PACKAGE, PACKAGE)]
    assert calls == [] and "after the set-up" not in proc.stdout
    assert seconds < 10     # at once: nothing is tried


def test_a_failed_install_names_the_command_and_make_stops(tmp_path):
    proc, calls, _ = make(tmp_path, uid=0, sudo=False, apt=False)
    assert proc.returncode != 0 and "after the set-up" not in proc.stdout
    assert "install %s with this system's package manager" % PACKAGE in proc.stderr


def test_make_test_sets_up_the_system_first():
    """`make test` depends on system-test, which installs Debian's chromium and mosquitto when
    missing."""
    proc = subprocess.run(["make", "-n", "-p", "test"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    rules = {line.split(":")[0]: line for line in proc.stdout.splitlines()
             if line.startswith(("test:", "system-test:"))}
    assert "system-test" in rules["test"].split(":", 1)[1].split()
    assert "$(call debian-package,chromium,/usr/bin/chromium)" in proc.stdout
    assert "$(call debian-package,mosquitto,/usr/sbin/mosquitto)" in proc.stdout


def test_a_real_user_without_root_or_sudo_stops_at_once():
    """The same branch with the real `id`: as root (CI) through runuser as the user nobody,
    else as this user; sudo is off PATH either way."""
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        work.chmod(0o755)
        bin_dir = work / "bin"
        bin_dir.mkdir()
        for tool in ("make", "sh", "env", "echo", "id"):
            os.symlink(shutil.which(tool), bin_dir / tool)
        stand_in(bin_dir, "apt-get", "echo apt-get was run >&2\nexit 3\n")
        shutil.copy(ROOT / "Makefile", work / "Makefile")    # readable by nobody
        (work / "probe.mk").write_text(PROBE)
        for path in (work / "Makefile", work / "probe.mk"):
            path.chmod(0o644)
        argv = ["make", "--no-print-directory", "-f", "Makefile", "-f", "probe.mk",
                "probe-after"]
        if os.geteuid() == 0:
            argv = [shutil.which("runuser") or "/usr/sbin/runuser", "-u", "nobody", "--"] + argv
        start = time.monotonic()
        proc = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=60,
                              env={"PATH": str(bin_dir)})
    assert proc.returncode != 0 and "after the set-up" not in proc.stdout
    assert proc.stderr.splitlines()[0] == (
        "make: %s is not installed and this user cannot install it: run 'apt-get install %s' "
        "as root" % (PACKAGE, PACKAGE))
    assert time.monotonic() - start < 10
