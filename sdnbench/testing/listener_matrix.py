"""The listener matrix (issue 47): every controller-facing command against a controller that
listens each way a real one does. The controller is a real os-ken behind a relay
(``peers/relay.py``) whose listening socket takes each form; a cell is ``measured`` (the command
ran and exited 0), or ``refused`` with the command's line, which must be true: a listener the
client can reach is never refused, and one it cannot reach is refused for that reason (or its
sessions fail saying so).

Used by ``sdnbench/commands/test_listener_matrix.py`` (a slice in ``make test``) and
``bench/listeners.py`` (the whole matrix, printed as a table).
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Iterator, Optional

from ..controllers.lifecycle import launch
from ..paths import engine_binary
from .netlab import NetnsLab, free_octet, sh
from .peers.relay import Form, Relay

ENGINE = "sdnbench-engine"


@dataclass(frozen=True)
class Listener:
    """A form of listener and the address a user names for it; ``reaches``: whether a client
    connecting there reaches the controller."""
    name: str
    form: Optional[Form]          # None: a ``cmd:`` controller that listens only after a delay
    host: str
    reaches: bool


LATE_S = 10.0
LISTENERS = (
    Listener("127.0.0.1", Form("127.0.0.1"), "127.0.0.1", True),
    Listener("0.0.0.0", Form("0.0.0.0"), "127.0.0.1", True),
    Listener(":: (dual-stack)", Form("::", v6only=False), "127.0.0.1", True),
    Listener("::ffff:127.0.0.1 (a JVM's 127.0.0.1)", Form("::ffff:127.0.0.1", v6only=False), "127.0.0.1", True),
    Listener("::1 only, named [::1]", Form("::1", v6only=True), "::1", True),
    Listener("::1 only, named 127.0.0.1", Form("::1", v6only=True), "127.0.0.1", False),
    Listener("127.0.0.2, named 127.0.0.1", Form("127.0.0.2"), "127.0.0.1", False),
    Listener("another network namespace", Form("0.0.0.0", netns="(lab)"), "(lab)", True),
    Listener(f"cmd:, listening after {LATE_S:g} s", None, "127.0.0.1", True),
)


@dataclass(frozen=True)
class Command:
    """A controller-facing command: its words, the os-ken app behind the relay, and its
    shortest settings that still measure."""
    name: str
    argv: tuple
    app: str = "osken:learning"
    of: str = "1.3"               # the version the controller behind is started for

    @property
    def behind(self) -> tuple:
        return self.app, self.of

    def words(self, spec: str, tmp: str) -> Optional[list]:
        """The command line naming ``spec``; None where the command cannot take such a spec."""
        words = [w.replace("{tmp}", tmp) for w in self.argv]
        if self.name == ENGINE or self.name == "controller cbench":
            if not spec.startswith("tcp:"):
                return None                          # they take an address, not a command
            host, _, port = spec[len("tcp:"):].rpartition(":")
            if self.name == "controller cbench":
                return [sys.executable, "-m", "sdnbench", "controller", "cbench", "--", "-c", host.strip("[]"),
                        "-p", port, *words]
            return [str(engine_binary()), "--controller", f"{host}:{port}", *words,
                    "--json", f"{tmp}/engine.json"]
        return [sys.executable, "-m", "sdnbench", *words, "--controller", spec]


COMMANDS = (
    Command("controller bench", ("controller", "bench", "--switches", "2", "--loops", "1", "--loop-ms", "300",
                                 "--warmup", "0", "--reps", "1")),
    Command("controller search", ("controller", "search", "--switches", "1", "--loops", "1", "--loop-ms", "300",
                                  "--max-trials", "2")),
    Command("controller capacity", ("controller", "capacity", "--max", "20", "--hold-ms", "300")),
    Command("controller cbench", ("-s", "2", "-l", "2", "-m", "300", "-w", "0"), of="1.0"),  # cbench's flags
    Command("controller discovery", ("controller", "discovery", "--topo", "linear,2", "--verify", "southbound",
                                     "--reps", "1", "--deadline-s", "3"), "osken:topology"),
    Command("controller topology-change", ("controller", "topology-change", "--topo", "ring,3", "--verify",
                                           "southbound", "--down-at-s", "1", "--up-after-s", "1", "--deadline-s", "3"),
            "osken:topology"),
    Command("controller provisioning", ("controller", "provisioning", "--topo", "linear,2", "--flows", "10",
                                        "--reps", "1", "--deadline", "10")),
    Command("controller table-capacity", ("controller", "table-capacity", "--topo", "linear,2", "--flows", "20",
                                          "--table-size", "10", "--reps", "1", "--deadline", "10")),
    Command("controller reprovisioning", ("controller", "reprovisioning", "--reps", "1"), "osken:reroute"),
    Command("controller failover", ("controller", "failover", "--reps", "1"), "osken:takeover"),
    Command("controller robustness", ("controller", "robustness", "--cases", "length-zero", "--reps", "1",
                                      "--switches", "1", "--rate", "100")),
    Command("controller exceptions", ("controller", "exceptions", "--switches", "1", "--loops", "1", "--loop-ms",
                                      "300", "--warmup", "0", "--reps", "1")),
    Command("controller dos", ("controller", "dos", "--cases", "packet-in-flood", "--no-syn", "--reps", "1",
                                "--switches", "1", "--rate", "100")),
    Command("rfc8456", ("rfc8456", "--quick", "--only", "5.1.2,5.2.1", "--store", "{tmp}/store")),
    Command("conformance", ("conformance", "--of", "1.3", "--stimuli", "connect")),
    Command(ENGINE, ("--switches", "2", "--loops", "1", "--loop-ms", "300", "--warmup", "0")),
)


@dataclass
class Cell:
    command: str
    listener: str
    verdict: str                  # measured | refused | failed
    line: str
    seconds: float
    true: bool                    # the verdict agrees with whether the listener can be reached

    def row(self) -> str:
        return f"| {self.command} | {self.listener} | {self.verdict} | {self.seconds:.1f} | {self.line} |"


REFUSED_WORDS = re.compile(r"nothing listens|connection refused|Connection refused|no OpenFlow controller answering")


def judge(listener: Listener, rc: int, err: str) -> tuple:
    """(verdict, line, true) for a command's exit code and stderr."""
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    line = lines[-1] if lines else ""
    if "Traceback" in err:
        return "failed", "a traceback: " + line, False
    if rc == 0:
        return "measured", line[:120], listener.reaches
    says_unreachable = bool(REFUSED_WORDS.search(err))
    verdict = "refused" if rc == 1 else "failed"
    true = (not listener.reaches and says_unreachable) or (listener.reaches and not says_unreachable)
    return verdict, line[:160], true


class NsLab(NetnsLab):
    """One namespace with a veth to the root namespace: a listener there is reached over it."""
    KIND = "listeners"

    def build(self) -> None:
        n = free_octet("172.31.{n}.")
        self.ns, self.root_addr, self.addr = self.prefix, f"172.31.{n}.1", f"172.31.{n}.2"
        self.add_netns(self.ns)
        self.veth_into(f"{self.prefix}r", self.ns)
        sh("ip", "addr", "add", f"{self.root_addr}/30", "dev", f"{self.prefix}r")
        self.address(self.ns, "eth0", f"{self.addr}/30")


def _spec_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


@contextlib.contextmanager
def listening(listener: Listener, behind: tuple, lab: Optional[NsLab]) -> Iterator[str]:
    """The controller spec a user would name for ``listener``, while it listens."""
    if listener.form is None:
        relay = (f"{sys.executable} -m sdnbench.testing.peers.relay --delay {LATE_S:g} --port {{port}} "
                 f"--to {behind[0]}:{behind[1]}")
        yield f"cmd:{relay};name=late-relay;version=1;ready=60"
        return
    form, host = listener.form, listener.host
    if form.netns:
        form, host = Form(form.bind, form.v6only, lab.ns), lab.addr
    with Relay(form, behind) as r:
        yield f"tcp:{_spec_host(host)}:{r.port}"


def run_cell(command: Command, listener: Listener, behind: tuple, lab: Optional[NsLab], tmp: str,
             timeout: float = 600) -> Cell:
    t0 = time.monotonic()
    with listening(listener, behind, lab) as spec:
        argv = command.words(spec, tmp)
        if argv is None:
            return Cell(command.name, listener.name, "n/a", "takes HOST:PORT, not a cmd: spec", 0.0, True)
        cp = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    verdict, line, true = judge(listener, cp.returncode, cp.stderr)
    return Cell(command.name, listener.name, verdict, line, time.monotonic() - t0, true)


@contextlib.contextmanager
def controllers(wanted: set) -> Iterator[dict]:
    """A managed os-ken per (app, OpenFlow version), on 127.0.0.1: what every relay forwards to."""
    with contextlib.ExitStack() as stack:
        yield {(app, of): stack.enter_context(launch(app, of_version=of)).address for app, of in sorted(wanted)}


def matrix(commands=COMMANDS, listeners=LISTENERS) -> Iterator[Cell]:
    """Every cell of ``commands`` × ``listeners``, as each ends (each in a directory of its own)."""
    with controllers({c.behind for c in commands}) as behind, NsLab("lm") as lab:
        for command in commands:
            for listener in listeners:
                with tempfile.TemporaryDirectory(prefix="sdnbench-listeners-") as tmp:
                    yield run_cell(command, listener, behind[command.behind], lab, tmp)
