"""Process groups stop as a whole; SIGTERM runs ``finally``; wait_until polls without sleeping long;
a child whose parent died before its death signal was set exits at once."""

import functools
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from sdnbench import procreg
from sdnbench.errors import Interrupted, UserError
from sdnbench.proc import ProcessSet, signals_as_exceptions, spawn, wait_until


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); look at its state.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_stop_kills_the_whole_group(tmp_path):
    pidfile = tmp_path / "child.pid"
    # The shell forks a grandchild that ignores SIGTERM: the group stop must still end it.
    script = f"(trap '' TERM; sleep 300) & echo $! > {pidfile}; wait"
    t = spawn("grp", ["sh", "-c", script], log_path=tmp_path / "log")
    wait_until(lambda: pidfile.exists() and pidfile.read_text().strip(), 5, "grandchild pid")
    grandchild = int(pidfile.read_text())
    assert _alive(grandchild)
    t.stop(grace=0.5)
    wait_until(lambda: not _alive(grandchild), 5, "grandchild to die")
    assert not t.alive()


def test_process_set_stops_on_exception():
    with pytest.raises(RuntimeError):
        with ProcessSet() as ps:
            t = ps.spawn("sleeper", ["sleep", "300"])
            raise RuntimeError("measurement failed")
    assert not t.alive()


def test_a_child_of_a_parent_already_gone_exits_before_exec():
    # die_with_parent told another pid than its parent's: as if the parent died between the fork
    # and the prctl (the signal would never come), so the child must not run its command
    orphan = subprocess.Popen(["sleep", "30"], preexec_fn=functools.partial(procreg.die_with_parent, 1))
    try:
        assert orphan.wait(timeout=5) == 1
    finally:
        orphan.kill()
        orphan.wait()
    ours = subprocess.Popen(["true"], preexec_fn=procreg.dies_with_us())
    assert ours.wait(timeout=5) == 0


def test_missing_command_is_user_error():
    with pytest.raises(UserError, match="command not found"):
        spawn("x", ["/nonexistent/tool-xyz"])


def test_wait_until_times_out_with_message():
    with pytest.raises(UserError, match="waiting for the impossible"):
        wait_until(lambda: False, 0.05, "the impossible")


def test_sigterm_runs_finally(tmp_path):
    marker = tmp_path / "finally-ran"
    code = textwrap.dedent(f"""
        import time, pathlib
        from sdnbench.proc import signals_as_exceptions
        from sdnbench.errors import Interrupted
        try:
            with signals_as_exceptions():
                try:
                    print("ready", flush=True)
                    time.sleep(60)
                finally:
                    pathlib.Path({str(marker)!r}).write_text("yes")
        except Interrupted as e:
            raise SystemExit(e.exit_code)
    """)
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    p.send_signal(signal.SIGTERM)
    assert p.wait(timeout=10) == 128 + signal.SIGTERM
    assert marker.read_text() == "yes"


class _SignalledWhileFinalised:
    """An object whose finalizer is running when SIGTERM's handler runs, as logging's weakref
    callback was when CI's SIGTERM landed: Python drops what a finalizer raises."""

    def __del__(self):
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(10_000):        # the handler runs at a bytecode boundary in here
            pass


def test_a_signal_a_finalizer_swallowed_is_raised_at_the_next_check_and_at_the_end():
    went_on = []
    with pytest.raises(Interrupted) as e:
        with signals_as_exceptions():
            _SignalledWhileFinalised()
            went_on.append("the finalizer swallowed it")
    assert went_on and e.value.exit_code == 128 + signal.SIGTERM
    with pytest.raises(Interrupted):
        with signals_as_exceptions():
            _SignalledWhileFinalised()
            wait_until(lambda: False, 5, "something that never comes")
    with signals_as_exceptions():
        pass                           # and nothing is left over for the next block


def test_log_tail(tmp_path):
    t = spawn("echoer", ["sh", "-c", "for i in 1 2 3 4 5; do echo line$i; done"], log_path=tmp_path / "l")
    wait_until(lambda: not t.alive(), 5, "echoer")
    t.stop()
    assert t.log_tail(2).splitlines() == ["line4", "line5"]
    time.sleep(0)
