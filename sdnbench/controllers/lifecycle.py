"""Start a controller, wait until it speaks OpenFlow, watch it, and always stop it.

``launch(spec)`` is a context manager around one controller:

1. parse the spec and check the OpenFlow version against what the controller speaks;
2. pick a free port on 127.0.0.1 (or take the one given, refusing one that is already taken,
   since our readiness probe would otherwise talk to somebody else's controller);
3. start it in its own process group (``sdnbench.proc.spawn``), output to a log file in the
   state directory;
4. poll until it answers an OpenFlow HELLO (``ofhello.probe``; inside a TLS session made with
   the switch's files for a TLS spec, ``tlsprobe``), failing at once, with its log tail, if it
   exits first, and at once if it refuses the TLS session;
5. yield a ``Controller``;
6. on the way out, however the block ended (normally, an exception, Ctrl-C or SIGTERM raised as
   ``Interrupted``), stop the whole process group and remove the scratch directory.

If the controller died during the block, leaving it raises ``ControllerDied`` (chained to
whatever the block raised): a failed ping after the controller crashed is the controller's
fault, not the network's, and the user is told so with the controller's last log lines. A
death the caller already saw (``check_alive`` raised, and the caller handled it, e.g. by
recording a failed result) is not raised a second time when the block ends normally.

Controllers of a kind sdnbench does not start (``tcp:HOST:PORT``, ``kinds/``) are not started
or stopped; the HELLO probe still gates the run.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator, Optional

import psutil

from .. import paths
from ..errors import UserError
from ..proc import Tracked, spawn, wait_until
from ..tls.files import TlsFiles
from . import ofhello, tlsprobe
from .kinds import kind_of
from .kinds.tcp import not_answering
from .launchplan import HOST
from .plan import plan_for
from .resources import ResourceSampler, sample_resources, saturation_note
from .spec import ControllerSpec, parse_spec, wire_version
from .tlsfiles import checked_switch

TAIL_LINES = 12


class ControllerDied(UserError):
    """The controller under test exited (or stopped answering) during a run."""

    def __init__(self, name: str, how: str, tail: str, log_path: Optional[Path] = None):
        self.controller = name
        self.tail = tail
        where = f" ({log_path})" if log_path else ""
        lines = "\n".join(f"    {line}" for line in tail.splitlines()) or "    (the log is empty)"
        super().__init__(f"controller {name} {how}; the last lines of its log{where}:\n{lines}")


class Controller:
    """A running controller under test, as the rest of sdnbench sees it."""

    def __init__(self, spec: ControllerSpec, host: str, port: int, info: dict,
                 tracked: Optional[Tracked] = None, switch_tls: Optional[TlsFiles] = None):
        self.spec = spec
        self.host = host
        self.port = port
        self.info = info
        self._tracked = tracked
        self.switch_tls = switch_tls     # the files a switch connects with (TLS specs), checked
        self.death_reported = False      # a ControllerDied was raised (or built) for the caller

    @property
    def pid(self) -> Optional[int]:
        return self._tracked.pid if self._tracked else None

    @property
    def address(self) -> tuple:
        return (self.host, self.port)

    @property
    def target(self) -> str:
        """``HOST:PORT`` as the engine and Open vSwitch take it (an IPv6 host in brackets)."""
        return ofhello.host_port(self.host, self.port)

    @property
    def tls(self) -> bool:
        """Does it take OpenFlow over TLS (``tls:``, ``;tls``)? ``target`` stays ``HOST:PORT``."""
        return self.spec.tls

    def probe(self, wire: int) -> Optional[int]:
        """The version of its HELLO (over TLS for a TLS controller), or None: not answering."""
        if self.switch_tls is not None:
            return tlsprobe.probe(self.host, self.port, wire, self.switch_tls, self.spec.text)
        return ofhello.probe(self.host, self.port, wire)

    @property
    def api_url(self) -> Optional[str]:
        """The northbound HTTP API (``osken:topology`` only)."""
        return self.info.get("api")

    @property
    def log_path(self) -> Optional[Path]:
        return self._tracked.log_path if self._tracked else None

    def alive(self) -> bool:
        if self._tracked is not None:
            return self._tracked.alive()
        return ofhello.accepts(self.host, self.port)

    def check_alive(self) -> None:
        """Raise ``ControllerDied`` (with the log tail) if the controller is gone."""
        if not self.alive():
            raise self.died_error("is no longer running")

    def died_error(self, when: str = "died during the run") -> ControllerDied:
        self.death_reported = True
        if self._tracked is None:
            return ControllerDied(self.spec.text, f"stopped accepting connections on "
                                  f"{self.host}:{self.port}", "(not started by sdnbench: no log)")
        code = self._tracked.popen.poll()
        how = f"(pid {self.pid}) {when}"
        if code is not None:
            how += f", exit status {code}" if code >= 0 else f", killed by signal {-code}"
        return ControllerDied(self.spec.text, how, self.log_tail(TAIL_LINES), self.log_path)

    def wait(self) -> Optional[int]:
        """Block until a controller sdnbench started exits; its exit status (None for tcp:)."""
        return self._tracked.popen.wait() if self._tracked else None

    def log_tail(self, n: int = 20) -> str:
        return self._tracked.log_tail(n) if self._tracked else ""

    def sample_resources(self, interval: float = 0.5) -> ResourceSampler:
        return sample_resources(self.pid, interval)

    def record(self, result, sampler: Optional[ResourceSampler] = None) -> None:
        """Put this controller's description, and the sampler's series (with a saturation
        note when it ran hot), into a ``sdnbench.result.Result``."""
        result.controller = dict(self.info)
        if sampler is not None:
            series = sampler.series()
            result.resources.extend(series)
            note = saturation_note(series)
            if note:
                result.notes.append(note)

    def __repr__(self) -> str:
        return f"<Controller {self.spec.text} at {self.host}:{self.port} pid={self.pid}>"


# the OpenFlow version a launched controller is configured for when none is asked
LAUNCH_OF_VERSION = "1.3"


@contextlib.contextmanager
def launch(spec: str, *, port: Optional[int] = None, of_version: str = LAUNCH_OF_VERSION,
           log_dir: Optional[Path] = None, timeout: float = 60.0,
           topology=None, tls: Optional[TlsFiles] = None) -> Iterator[Controller]:
    """Run the controller named by ``spec`` for the duration of the block.

    ``topology`` (a parsed ``sdnbench.net.topology.Topology``, or its ``to_dict()``: whatever
    ``faucet_config.switches_of`` reads) is only needed by ``faucet:auto``, whose config is
    generated for that network; callers parse a spec string (this layer sits below ``net``).
    ``tls``: the switches' certificate files for a TLS spec (default: sdnbench's own set,
    ``tlsfiles``), checked before anything starts and used by the readiness probe."""
    parsed = parse_spec(spec)
    kind = kind_of(parsed)
    if kind.resolve is not None:
        parsed = kind.resolve(parsed, topology)
    wire = wire_version(of_version)
    switch_tls = checked_switch(parsed, tls, kind.starts)
    if not kind.starts:
        yield _attach(parsed, wire, of_version, min(timeout, 10.0), switch_tls)
        return
    if port is None and parsed.command is not None and parsed.command.port:
        port = parsed.command.port                     # cmd:...;port=N (its own config's port)
    if port is None:
        port = ofhello.free_port(HOST)
    elif ofhello.accepts(HOST, port, timeout=0.5):
        raise UserError(f"port {port} on {HOST} is already in use; pick another with --port "
                        "or leave it out to get a free one")
    runs = paths.runtime_dir("controllers")
    scratch = Path(tempfile.mkdtemp(prefix=f"{_slug(parsed.text)}-{port}-", dir=runs))
    try:
        plan = plan_for(parsed, port, of_version, scratch)
        for path, text in plan.files.items():
            Path(path).write_text(text)
        if log_dir is None:
            log_dir = runs
            _prune_logs(runs)
        log_dir = Path(log_dir)
        log_dir.mkdir(parents=True, exist_ok=True)
        log_path = log_dir / f"{_slug(parsed.text)}-{port}-{time.strftime('%Y%m%dT%H%M%S')}.log"
        tracked = spawn(parsed.text, plan.argv, log_path=log_path, env=plan.env,
                        cwd=plan.cwd or scratch)
        try:
            info = dict(plan.info(parsed, of_version, port), pid=tracked.pid, log=str(log_path))
            if parsed.tls:
                info["tls"] = True
            ctl = Controller(parsed, HOST, port, info, tracked, switch_tls)
            ready_s = plan.ready_s or timeout          # cmd:...;ready=SECS
            _wait_ready(ctl, wire, ready_s)
            if plan.ready_url:
                _wait_http(ctl, plan.ready_url, ready_s)
            try:
                yield ctl
            except Exception as e:
                if not tracked.alive() and not isinstance(e, ControllerDied):
                    raise ctl.died_error() from e
                raise
            if not tracked.alive() and not ctl.death_reported:
                raise ctl.died_error()
        finally:
            _stop(tracked, plan.stop_signal, plan.grace)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _wait_ready(ctl: Controller, wire: int, timeout: float) -> None:
    def ready() -> bool:
        if not ctl.alive():
            raise ctl.died_error("exited while starting")
        # The listener must be ours: on a shared machine another run could hold the port.
        return ctl.probe(wire) is not None and _listens(ctl.pid, ctl.port)

    over = " over TLS" if ctl.tls else ""
    try:
        wait_until(ready, timeout, f"{ctl.spec.text} to answer an OpenFlow HELLO{over} on {ctl.host}:{ctl.port}")
    except (ControllerDied, tlsprobe.TlsProblem):
        raise
    except UserError as e:
        hint = kind_of(ctl.spec).ready_hint
        raise ControllerDied(ctl.spec.text, f"did not become ready ({e}{hint})", ctl.log_tail(TAIL_LINES),
                             ctl.log_path) from None


def _stop(tracked: Tracked, sig: int, grace: float) -> None:
    """Ask with ``sig`` (a ``cmd:`` controller's ``stop=``), then SIGTERM/SIGKILL as usual."""
    if sig != signal.SIGTERM and tracked.alive():
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(tracked.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            tracked.popen.wait(timeout=grace)
    tracked.stop(grace)


def _wait_http(ctl: Controller, url: str, timeout: float) -> None:
    """A northbound API is ready when the URL answers at all (any HTTP status)."""
    def ready() -> bool:
        if not ctl.alive():
            raise ctl.died_error("exited while starting")
        try:
            urllib.request.urlopen(url, timeout=2).close()
        except urllib.error.HTTPError:
            return True
        except OSError:
            return False
        return True

    try:
        wait_until(ready, timeout, f"{url} to answer")
    except ControllerDied:
        raise
    except UserError as e:
        raise ControllerDied(ctl.spec.text, f"did not become ready ({e})", ctl.log_tail(TAIL_LINES),
                             ctl.log_path) from None


def _listens(pid: int, port: int) -> bool:
    """Does a process in ``pid``'s tree listen on TCP ``port``? The listening sockets on the
    port come from the kernel already filtered (``ss``, inet_diag), and only the tree's own
    file descriptors are read: reading every socket of the machine (``/proc/net/tcp``, what
    psutil does) costs seconds of CPU next to a million-session run."""
    inodes = _listener_inodes(port)
    if not inodes:
        return False
    try:
        root = psutil.Process(pid)
        procs = [root] + root.children(recursive=True)
    except psutil.Error:
        return False
    for p in procs:
        fd_dir = f"/proc/{p.pid}/fd"
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            with contextlib.suppress(OSError):
                if os.readlink(f"{fd_dir}/{fd}") in inodes:
                    return True
    return False


def _listener_inodes(port: int) -> set:
    """``socket:[INODE]`` of every TCP socket listening on ``port`` (any address)."""
    cp = subprocess.run(["ss", "-Hltne", f"sport = :{port}"], capture_output=True, text=True, timeout=10)
    return {f"socket:[{ino}]" for ino in re.findall(r"\bino:(\d+)", cp.stdout)}


def _attach(parsed: ControllerSpec, wire: int, of_version: str, timeout: float,
            switch_tls: Optional[TlsFiles] = None) -> Controller:
    """A controller someone else runs: check that it answers HELLO (inside TLS for ``tls:``),
    and describe it."""
    info = {"spec": parsed.text, "name": "external", "version": None, "app": None,
            "of_version": of_version, "host": parsed.host, "port": parsed.port, "pid": None}
    if parsed.tls:
        info["tls"] = True
    ctl = Controller(parsed, parsed.host, parsed.port, info, switch_tls=switch_tls)
    check = kind_of(parsed).precheck      # nothing listens there: waiting for a HELLO cannot help
    if check is not None:
        check(parsed)
    _other_transport(ctl, wire)
    over = " over TLS" if parsed.tls else ""
    try:
        wait_until(lambda: ctl.probe(wire) is not None, timeout,
                   f"an OpenFlow HELLO{over} from {parsed.host}:{parsed.port}")
    except tlsprobe.TlsProblem:
        raise
    except UserError as e:
        raise not_answering(parsed, str(e)) from None
    return ctl


def _other_transport(ctl: Controller, wire: int) -> None:
    """A controller that does not answer as its spec says but answers the other way (a TLS one
    named ``tcp:``, a plain one named ``tls:``) is one line naming the spec to use, at once:
    waiting cannot change how it listens."""
    if ctl.probe(wire) is not None:
        return
    host, port = ctl.host, ctl.port
    if not ctl.tls and tlsprobe.speaks_tls(host, port):
        raise not_answering(ctl.spec, f"it answers a TLS handshake, not a plain HELLO: use "
                                      f"tls:{ofhello.host_port(host, port)}")
    if ctl.tls and ofhello.probe(host, port, wire) is not None:
        raise not_answering(ctl.spec, f"it answers a plain OpenFlow HELLO, not TLS: use "
                                      f"tcp:{ofhello.host_port(host, port)}")


KEEP_LOGS = 200


def _prune_logs(directory: Path, keep: int = KEEP_LOGS) -> None:
    """Keep the newest ``keep`` controller logs in sdnbench's own log directory (never in a
    ``log_dir`` the caller chose), so the state directory does not grow without bound."""
    logs = sorted(directory.glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in logs[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:40] or "controller"


def precheck(spec: str) -> None:
    """What can be known of a controller before anything starts (issue 40: an evaluation whose
    controller could never run stored a FAILED run and exited 2): its kind's check (a ``tcp:``
    address has a listener, a ``cmd:`` program and its ``cwd=`` exist). ``UserError`` naming the spec."""
    parsed = parse_spec(spec)
    check = kind_of(parsed).precheck
    if check is not None:
        check(parsed)
