"""One SSH connection to one inventory host (paramiko), and the processes sdnbench runs there.

Every remote command runs in its own session (``setsid``); its process-group id is written on
the remote host into the run directory (``RUN_ROOT/<run id>/pgids``) before the command starts.
Stopping a process signals its group (TERM, then KILL); ``close`` kills every group recorded
there and removes the run directory, so nothing of a run outlives it, also after Ctrl-C (the
local ``Interrupted`` unwinds through ``close``). If sdnbench itself is killed with SIGKILL,
the groups stay recorded in the run directory on the remote host.

Errors name the host: ``host h2 (root@10.0.0.2:22): cannot connect: connection refused``.
"""

from __future__ import annotations

import os
import shlex
import socket
import time
import uuid
from pathlib import Path
from typing import Optional, Sequence

from ...errors import UserError
from ...procreg import pid_alive
from .inventory import RemoteHost

RUN_ROOT = "/tmp/sdnbench-ssh"
CONNECT_TIMEOUT = 10.0


class RemoteError(UserError):
    """Something failed on (or on the way to) a remote host; the message names it."""


def connect(host: RemoteHost, timeout: float = CONNECT_TIMEOUT):
    """An authenticated paramiko client for ``host``, or a RemoteError naming what failed."""
    import paramiko

    client = paramiko.SSHClient()
    if host.host_key == "accept":
        client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    else:
        client.load_host_keys(str(Path(host.host_key).expanduser()))
        client.set_missing_host_key_policy(paramiko.RejectPolicy())
    try:
        client.connect(host.ssh, port=host.port, username=host.user, key_filename=host.key,
                       timeout=timeout, banner_timeout=timeout, auth_timeout=timeout,
                       allow_agent=False, look_for_keys=host.key is None)
    except paramiko.AuthenticationException as e:
        client.close()
        key = f"key {host.key}" if host.key else "the default keys"
        raise RemoteError(f"{host.where()}: authentication with {key} failed ({e})")
    except paramiko.SSHException as e:
        client.close()
        raise RemoteError(f"{host.where()}: SSH failed: {e}")
    except (socket.timeout, TimeoutError):
        client.close()
        raise RemoteError(f"{host.where()}: cannot connect: no answer within {timeout:g}s")
    except paramiko.ssh_exception.NoValidConnectionsError as e:
        client.close()
        first = next(iter(e.errors.values()), e)        # the error of the (first) address tried
        raise RemoteError(f"{host.where()}: cannot connect: {_why(first)}")
    except OSError as e:
        client.close()
        raise RemoteError(f"{host.where()}: cannot connect: {_why(e)}")
    return client


def connect_all(hosts: Sequence[RemoteHost], run_id: str, sessions: dict) -> None:
    """A session of run ``run_id`` on every host at once (key exchange costs), into ``sessions``
    by host name; the first failure in ``hosts`` order is raised, after every connection was
    made or refused (those made stay in ``sessions``, for ``close_sessions``)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(16, len(hosts))) as pool:
        futures = [(h, pool.submit(RemoteHostSession, h, run_id)) for h in hosts]
    first = None
    for h, fut in futures:
        try:
            sessions[h.name] = fut.result()
        except RemoteError as e:
            first = first or e
    if first is not None:
        raise first


def close_sessions(sessions: dict) -> list:
    """Close every session (emptying the dict); what could not be cleaned, one line each."""
    left = []
    for name in list(sessions):
        msg = sessions.pop(name).close()
        if msg:
            left.append(msg)
    return left


def not_found(host: RemoteHost, missing: Sequence[str]) -> str:
    """The line naming the tools ``host`` lacks (``RemoteHostSession.missing_tools``), and where."""
    on = f"PATH={host.path}" if host.path else "the login PATH"
    return f"{host.where()}: {', '.join(missing)} not found on {on}"


class RemoteHostSession:
    """The commands and processes of one run on one remote host."""

    def __init__(self, host: RemoteHost, run_id: str, client=None) -> None:
        self.host = host
        self.dir = f"{RUN_ROOT}/{run_id}"
        self.client = client or connect(host)
        self._made = False
        self._control = None        # the long-lived sh that runs ``shell`` scripts

    # -- plain commands (no process recorded): checks and housekeeping -----------------------

    def shell(self, script: str, timeout: float = 30.0) -> tuple:
        """``(exit status, output, "")`` of a short sh script (stderr merged into the output),
        run by one long-lived ``/bin/sh`` per host: a new SSH channel costs the user's shell
        start-up (a login's ``.bashrc`` is read for every command), this costs nothing."""
        tok = uuid.uuid4().hex
        end = f"__sdnbench_end_{tok}"
        try:
            chan = self._control_channel()
            # the script's status is kept before the separating echo (whose own status is 0)
            chan.sendall(f"( {script}\n) </dev/null 2>&1; rc=$?; echo; echo {end} $rc\n".encode())
            buf = bytearray()
            deadline = time.monotonic() + timeout
            while end.encode() not in buf or not buf.endswith(b"\n"):
                if chan.recv_ready():
                    buf += chan.recv(65536)
                elif chan.exit_status_ready() or chan.closed:
                    raise EOFError("the control shell exited")
                elif time.monotonic() > deadline:
                    self._drop_control()
                    raise RemoteError(f"{self.host.where()}: no answer within {timeout:g}s")
                else:
                    time.sleep(0.002)
        except (OSError, EOFError) as e:
            self._drop_control()
            raise RemoteError(f"{self.host.where()}: connection lost ({e})")
        text = buf.decode("utf-8", "replace")
        body, _, tail = text.rpartition(end)
        return int(tail.split()[0]), body[:-1] if body.endswith("\n") else body, ""

    def _control_channel(self):
        if self._control is None:
            chan = self.client.get_transport().open_session()
            chan.exec_command("exec /bin/sh")
            self._control = chan
        return self._control

    def _drop_control(self) -> None:
        chan, self._control = self._control, None
        if chan is not None:
            chan.close()

    def missing_tools(self, tools: Sequence[str]) -> list:
        """The tools not found on the measurement PATH of this host."""
        checks = " ".join(shlex.quote(t) for t in tools)
        status, out, _ = self.shell(f"{self._path()}for t in {checks}; do command -v \"$t\" "
                                    f">/dev/null 2>&1 || echo \"$t\"; done; true")
        return out.split()

    def _path(self) -> str:
        return f"PATH={shlex.quote(self.host.path)}; export PATH; " if self.host.path else ""

    def _ensure_dir(self) -> None:
        if not self._made:
            status, _, err = self.shell(f"mkdir -p {self.dir}/files && echo {socket.gethostname()} {os.getpid()} > {self.dir}/owner")
            if status != 0:
                raise RemoteError(f"{self.host.where()}: cannot create {self.dir}: {err.strip()}")
            self._made = True

    def _start(self, argv: Sequence[str], tok: str, wait_status: bool) -> int:
        """Start argv in a new session in the background from the control shell; return its
        group id once it is recorded. Its output goes to files of the run directory: ``TOK.log``,
        or ``TOK.out``/``TOK.err`` and its exit status to ``TOK.rc`` (``wait_status``). A command
        whose run directory is already gone (the run was cleaned up meanwhile) does not start."""
        d = self.dir
        if wait_status:
            tail = f"\"$@\" </dev/null >{d}/{tok}.out 2>{d}/{tok}.err; echo $? > {d}/{tok}.rc"
        else:
            tail = f"exec \"$@\" </dev/null >{d}/{tok}.log 2>&1"
        inner = (f"[ -d {d} ] || exit 111; echo $$ >> {d}/pgids; echo $$ > {d}/{tok}.pid; "
                 f"{self._path()}{tail}")
        cmd = f"setsid sh -c {shlex.quote(inner)} sh {' '.join(shlex.quote(a) for a in argv)}"
        # Wait (at most 10 s) until the group id is recorded, then print it.
        status, out, _ = self.shell(
            f"{cmd} </dev/null >/dev/null 2>&1 & i=0; while [ ! -s {d}/{tok}.pid ] && "
            f"[ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; cat {d}/{tok}.pid", timeout=20)
        if status != 0 or not out.strip().isdigit():
            raise RemoteError(f"{self.host.where()}: could not start {argv[0]}: {out.strip()}")
        return int(out.strip())

    # -- processes ------------------------------------------------------------------------

    def run(self, argv: Sequence[str], timeout: float) -> tuple:
        """Run ``argv`` to completion: ``(status, stdout, stderr)``; its group is killed when the
        timeout passes or the caller is interrupted."""
        self._ensure_dir()
        tok = uuid.uuid4().hex[:12]
        pgid = self._start(argv, tok, wait_status=True)
        d = f"{self.dir}/{tok}"
        deadline = time.monotonic() + timeout
        done = False
        try:
            while True:
                rc = self.shell(f"cat {d}.rc 2>/dev/null")[1].strip()
                if rc:
                    break
                if time.monotonic() > deadline:
                    raise UserError(f"{argv[0]} on {self.host.name} did not finish within {timeout:g}s")
                time.sleep(0.02)
            out = self.shell(f"cat {d}.out")[1]
            err = self.shell(f"cat {d}.err")[1]
            self.shell(f"rm -f {d}.out {d}.err {d}.rc {d}.pid")
            done = True
        finally:
            if not done:
                self.shell(f"env kill -s KILL -- -{pgid} 2>/dev/null; true")
        return int(rc), out, err

    def spawn(self, name: str, argv: Sequence[str]) -> "RemoteProcess":
        self._ensure_dir()
        tok = uuid.uuid4().hex[:12]
        return RemoteProcess(name, self, self._start(argv, tok, wait_status=False), tok)

    def fetch(self, remote_path: str, local_path) -> bool:
        """Copy a file of this run from the host; False when it does not exist there."""
        try:
            sftp = self.client.open_sftp()
        except Exception as e:     # paramiko raises SSHException or OSError subclasses
            raise RemoteError(f"{self.host.where()}: cannot open SFTP ({e})")
        try:
            sftp.get(remote_path, str(local_path))
            return True
        except FileNotFoundError:
            return False
        finally:
            sftp.close()

    def sweep_dead_runs(self) -> list:
        """Run directories on this host left by sdnbench processes of *this* machine that no
        longer live (killed with SIGKILL): their recorded groups are killed and the directories
        removed. Runs of other machines, and live runs, are never touched. Returns the ids."""
        _st, out, _ = self.shell(f"for d in {RUN_ROOT}/*/; do [ -f \"$d/owner\" ] && "
                                 f"echo \"$(basename \"$d\") $(cat \"$d/owner\")\"; done; true")
        dead = []
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and dead_owner(parts[1], parts[2]) and f"{RUN_ROOT}/{parts[0]}" != self.dir:
                dead.append(parts[0])
        for run in dead:
            d = f"{RUN_ROOT}/{run}"
            self.shell(f"if [ -f {d}/pgids ]; then for g in $(cat {d}/pgids); do env kill -s KILL -- -$g "
                       f"2>/dev/null; done; fi; rm -rf {d}")
        return dead

    def kill_group(self, pgid: int, grace: float) -> None:
        steps = max(1, int(grace / 0.05))
        self.shell(f"env kill -s TERM -- -{pgid} 2>/dev/null; i=0; while env kill -s 0 -- -{pgid} 2>/dev/null "
                   f"&& [ $i -lt {steps} ]; do sleep 0.05; i=$((i+1)); done; "
                   f"env kill -s KILL -- -{pgid} 2>/dev/null; true", timeout=grace + 10)

    def close(self) -> Optional[str]:
        """Kill every recorded group, remove the run directory, close the connection. Returns
        what could not be cleaned, or None."""
        left = None
        try:
            if self._made:
                d = self.dir
                status, out, err = self.shell(
                    f"if [ -f {d}/pgids ]; then for g in $(cat {d}/pgids); do env kill -s TERM -- -$g "
                    f"2>/dev/null; done; sleep 0.3; for g in $(cat {d}/pgids); do env kill -s KILL -- -$g "
                    f"2>/dev/null; done; fi; rm -rf {d}; [ ! -e {d} ]")
                if status != 0:
                    left = f"{self.host.where()}: {d} not removed: {err.strip()}"
        except UserError as e:
            left = str(e)
        finally:
            self._drop_control()
            self.client.close()
        return left


class RemoteProcess:
    """A background process on a remote host, with the interface of ``proc.Tracked``."""

    def __init__(self, name: str, session: RemoteHostSession, pgid: int, tok: str,
                 log_path: Optional[Path] = None) -> None:
        self.name, self.session, self.pgid, self.tok = name, session, pgid, tok
        self.log_path = log_path
        self.stopped = False
        self.on_stop = None         # called after the process is stopped (fetch its files)

    @property
    def pid(self) -> int:
        return self.pgid

    def alive(self) -> bool:
        return not self.stopped and self.session.shell(f"kill -0 {self.pgid} 2>/dev/null")[0] == 0

    def remote_log(self) -> str:
        return f"{self.session.dir}/{self.tok}.log"

    def log_tail(self, lines: int = 20) -> str:
        return self.session.shell(f"tail -n {int(lines)} {self.remote_log()} 2>/dev/null")[1].rstrip()

    def stop(self, grace: float = 5.0) -> Optional[int]:
        if self.stopped:
            return None
        self.stopped = True
        self.session.kill_group(self.pgid, grace)
        if self.log_path is not None:     # the local copy the caller asked for
            text = self.session.shell(f"cat {self.remote_log()} 2>/dev/null")[1]
            Path(self.log_path).write_text(text)
        if self.on_stop is not None:
            self.on_stop()
        return None


def dead_owner(hostname: str, pid: str) -> bool:
    """A run directory's ``owner`` (``HOSTNAME PID``, ``_ensure_dir``) names a process of this
    machine that no longer lives."""
    return hostname == socket.gethostname() and pid.isdigit() and not pid_alive(int(pid))


def _why(e: BaseException) -> str:
    return (getattr(e, "strerror", None) or str(e)).lower()


