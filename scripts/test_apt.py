"""``scripts/apt.sh`` waits for the package lock another install holds, and says so (issue 40:
``make demo`` stopped at once on "Could not get lock /var/lib/dpkg/lock-frontend"). The lock is
a real fcntl lock held by this process on a file standing in for dpkg's."""

import fcntl
import os
import subprocess
import threading
import time
from pathlib import Path

APT_SH = Path(__file__).resolve().parent / "apt.sh"


def _apt_get(lock: Path, wait_s: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "APT_LOCK_FILES": f"{lock.parent / 'absent'} {lock}", "APT_LOCK_WAIT_S": str(wait_s)}
    return subprocess.run(["bash", "-c", f". {APT_SH}; apt_get --version >/dev/null && echo ran"],
                          env=env, capture_output=True, text=True, timeout=60)


def test_a_free_lock_runs_apt_at_once_and_says_nothing(tmp_path):
    lock = tmp_path / "lock-frontend"
    lock.write_text("")
    cp = _apt_get(lock, 5)
    assert cp.returncode == 0 and cp.stdout == "ran\n", cp


def test_a_held_lock_is_waited_for_and_said(tmp_path):
    lock = tmp_path / "lock-frontend"
    lock.write_text("")
    fd = os.open(lock, os.O_RDWR)
    fcntl.lockf(fd, fcntl.LOCK_EX)
    threading.Timer(3.0, lambda: os.close(fd)).start()
    t0 = time.monotonic()
    cp = _apt_get(lock, 30)
    assert cp.returncode == 0 and cp.stdout == "ran\n", cp
    assert "another package install holds the lock; waiting" in cp.stderr and "the lock is free after" in cp.stderr
    assert time.monotonic() - t0 >= 2.5


def test_a_lock_held_past_the_limit_is_one_line_and_a_failure(tmp_path):
    lock = tmp_path / "lock-frontend"
    lock.write_text("")
    fd = os.open(lock, os.O_RDWR)
    fcntl.lockf(fd, fcntl.LOCK_EX)
    try:
        cp = _apt_get(lock, 2)
    finally:
        os.close(fd)
    assert cp.returncode != 0 and "ran" not in cp.stdout
    assert cp.stderr.strip().endswith("finish or stop the other install, then run make again"), cp.stderr
