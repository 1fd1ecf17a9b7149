"""What both Mininet backends do alike: this machine's (``backend.MininetNetwork``) and the
cluster's (``backends/cluster.ClusterNetwork``). Node names are ``PREFIX`` + ``h``/``s`` + the
node's number from 1; a host without an address of its own gets ``10.0.0.N/8`` (N its number)
and MAC ``00:00:00:..`` of N.
"""

from __future__ import annotations

import warnings

from ..errors import UserError
from .topology import Topology

# The ``controller`` values that mean no controller: the switches run in OVS standalone mode.
STANDALONE = ("standalone", "none")

IFNAMSIZ = 15
# run in a host's namespace as soon as the host exists, before any interface is moved into it
# (an interface takes the namespace's default): the kernel then never sends DAD, MLD or RS. Set
# after start, a host's first MLD report could reach a controller that had just connected and
# teach a learning switch the host's MAC before the experiment began
NO_IPV6 = "sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1"


def check_names_fit(topology: Topology, prefix_len: int) -> None:
    """Refuse a topology whose longest interface name (``PREFIXs12-eth7``) would not fit."""
    n = max(len(topology.switches), len(topology.hosts))
    most_ports = max(len(topology.hosts_on(s)) + len(topology.switch_links()) for s in topology.switch_names())
    if prefix_len + 1 + len(str(n)) + len("-eth") + len(str(most_ports + 1)) > IFNAMSIZ:
        raise UserError(f"topology {topology.spec} is too large: interface names would "
                        f"exceed {IFNAMSIZ} characters")


def host_addresses(host, i: int) -> tuple:
    """``(IP/prefixlen, MAC)`` of host number ``i``: its own, else the defaults."""
    ip = host.ip or _ip_for(i)
    return (ip if "/" in ip else ip + "/8"), host.mac or _mac_for(i)


def _ip_for(i: int) -> str:
    n = (10 << 24) + i
    return f"{n >> 24}.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}/8"


def _mac_for(i: int) -> str:
    return ":".join(f"{b:02x}" for b in (0, 0, 0, (i >> 16) & 255, (i >> 8) & 255, i & 255))


class RemoteController:
    """What Mininet's OVSSwitch.start needs of a controller the switches only point at, without
    a shell or a telnet probe."""

    def __init__(self, host: str, port: int, protocol: str = "tcp") -> None:
        self.name = "c0"
        self.host, self.port = host, port
        self.protocol = protocol          # "ssl": Open vSwitch's TLS (its files: ``ovs_ssl``)

    def IP(self) -> str:  # noqa: N802 (Mininet's name; it writes "%s:%s:%d" % (protocol, IP(), port))
        return f"[{self.host}]" if ":" in self.host else self.host

    def start(self) -> None:
        pass

    def stop(self, *a, **kw) -> None:
        pass


def stop(net) -> None:
    """Stop a Mininet network (host shells, links, switches)."""
    for node in net.hosts + net.switches:
        # A node interrupted in the middle of a shell command still "waits" for its output;
        # Mininet would refuse to send it the next one.
        node.waiting = False
    with warnings.catch_warnings():
        # Mininet 2.3 compares OVS versions with distutils' deprecated StrictVersion.
        warnings.simplefilter("ignore", DeprecationWarning)
        net.stop()
