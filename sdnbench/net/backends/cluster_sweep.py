"""What a cluster run leaves on its servers, and how it is removed.

Everything a run makes on a server carries its prefix (``cXXX``): the node shells' command lines
(``mininet:cXXXh1``), the bridges (``cXXXs1``) and interfaces (``cXXXs1-eth2``), VXLAN devices
included. The prefix is also written into the run's directory on the server
(``remote.RUN_ROOT/<run id>/cluster-prefix``), beside the SSH backend's ``owner`` file, so that
when sdnbench is killed with SIGKILL the next run on these servers can find the dead run's
prefix and sweep it (its measured processes are killed by ``sweep_dead_runs``).

A prefix is claimed on every server before anything is made with it, so two runs sharing a
server never share a prefix (a sweep of one would remove the other's bridges): the claim is a
symbolic link ``RUN_ROOT/.cluster-prefixes/<prefix>`` to the run's directory, made under a lock
on ``RUN_ROOT``. A link whose directory is gone (its run ended, or was killed and swept) is stale
and is removed by the next claim; a run releases its own when it ends.
"""

from __future__ import annotations

import glob
import random
import re
import shutil
import tempfile
from pathlib import Path

from .remote import RUN_ROOT, dead_owner

PREFIX_FILE = "cluster-prefix"
LOCAL_DIR = "sdnbench-cluster-{prefix}-"       # the local work directory (ssh config, masters)
CLAIMS = ".cluster-prefixes"                    # in RUN_ROOT: a link per prefix in use


_RNG = random.SystemRandom()


def new_prefix() -> str:
    """A prefix to claim (``claim_script``): ``c`` and three random hex digits."""
    return "c" + "".join(_RNG.choice("0123456789abcdef") for _ in range(3))


def claim_script(p: str, run_dir: str, root: str = RUN_ROOT) -> str:
    """On a server: claim prefix ``p`` for the run in ``run_dir``. Prints ``claimed`` (also when
    this run holds it already: servers may share a file system), ``taken`` (another live run
    holds it), or why it failed. (``ln -n``: an existing link to a directory is not entered.)"""
    d, link = f"{root}/{CLAIMS}", f"{root}/{CLAIMS}/{p}"
    return (f"flock {root} sh -c 'mkdir -p {d} && "
            f"for l in {d}/c*; do [ -L \"$l\" ] && [ ! -e \"$l\" ] && rm -f \"$l\"; done; "
            f"if ln -sn {run_dir} {link} 2>/dev/null || [ \"$(readlink {link})\" = {run_dir} ]; "
            f"then echo claimed; elif [ -L {link} ]; then echo taken; else ln -sn {run_dir} {link}; fi'")


def release_script(p: str, run_dir: str, root: str = RUN_ROOT) -> str:
    """On a server: drop this run's claim of ``p`` (another run's stays), and the claims'
    directory once it is empty."""
    d, link = f"{root}/{CLAIMS}", f"{root}/{CLAIMS}/{p}"
    return (f"flock {root} sh -c '[ \"$(readlink {link})\" = {run_dir} ] && rm -f {link}; "
            f"rmdir {d} 2>/dev/null; true'")


def sweep_script(p: str) -> str:
    """On a server: kill the shells of prefix ``p``'s nodes, delete its bridges and interfaces."""
    return (f"for d in /proc/[0-9]*; do grep -qs 'mininet:{p}[hs][0-9]' $d/cmdline && "
            f"kill -9 ${{d#/proc/}} 2>/dev/null; done; "
            f"for b in $(ovs-vsctl --timeout=5 list-br 2>/dev/null | grep '^{p}s[0-9]'); do "
            f"ovs-vsctl --timeout=5 --if-exists del-br $b; done; "
            f"for i in $(ip -o link | sed -n 's/^[0-9]*: \\({p}[hs][0-9][^@:]*\\).*/\\1/p'); do "
            f"ip link del $i 2>/dev/null; done; true")


def leftovers_script(p: str) -> str:
    """On a server: print what of prefix ``p`` exists (nothing when clean)."""
    return (f"ovs-vsctl --timeout=5 list-br 2>/dev/null | grep '^{p}s[0-9]'; "
            f"ip -o link | grep -o ' {p}[hs][0-9][^@:]*'; "
            f"for d in /proc/[0-9]*; do grep -qs 'mininet:{p}[hs][0-9]' $d/cmdline && "
            f"echo ${{d#/proc/}}; done; true")


def record(session, prefix: str) -> None:
    """Write the run's prefix into its directory on the server."""
    session._ensure_dir()             # the run directory with its owner file (remote.py)
    session.shell(f"echo {prefix} > {session.dir}/{PREFIX_FILE}")


def dead_prefixes(session) -> list:
    """Prefixes of cluster runs of *this* machine recorded on the server whose sdnbench process
    no longer lives (killed with SIGKILL)."""
    _st, out, _ = session.shell(f"for d in {RUN_ROOT}/*/; do [ -f \"$d/{PREFIX_FILE}\" ] && [ -f \"$d/owner\" ] && "
                                f"echo $(cat \"$d/owner\") $(cat \"$d/{PREFIX_FILE}\"); done; true")
    dead = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and dead_owner(parts[0], parts[1]) and re.fullmatch(r"c[0-9a-f]{3}", parts[2]):
            dead.append(parts[2])
    return dead


def sweep_dead(session) -> list:
    """Remove what killed cluster runs left on this server (nodes, bridges, interfaces, then
    their measured processes and run directories) and their local work directories; their
    multiplexing masters are told to exit. Returns the prefixes swept."""
    from .cluster_nodes import stop_masters

    dead = dead_prefixes(session)
    for p in dead:
        session.shell(sweep_script(p), timeout=30)
        for d in glob.glob(f"{tempfile.gettempdir()}/{LOCAL_DIR.format(prefix=p)}*"):
            conf = Path(d) / "ssh_config"
            if conf.exists():
                stop_masters(conf, [session.host])
            shutil.rmtree(d, ignore_errors=True)
    session.sweep_dead_runs()
    return dead
