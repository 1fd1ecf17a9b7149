#!/usr/bin/env python3
"""Capture a real Open vSwitch talking OpenFlow to real controllers, for the codec's tests.

Run as root from the repository with the project venv:
    .venv/bin/python tools/ofvectors/capture_ovs.py [--out crates/ofwire/tests/pcap]

For each controller (ovs-testcontroller, os-ken's learning app) and each version (1.0, 1.3)
it launches the controller on a free loopback port (sdnbench.controllers.launch), starts
`tcpdump -i lo --immediate-mode` on that port, creates a userspace-datapath bridge with two
veth ports whose peers live in network namespaces, pings between them, adds and removes a
port (port-status), then tears everything down. Then, for each version, it lets ovs-ofctl
(OVS's own controller side) ask a listening bridge for every kind of statistics and send
flow, group, meter and port mods, a packet-out and a flow the switch rejects. Everything it creates has a per-run name
and is removed in `finally`, also on Ctrl-C/SIGTERM; processes are stopped by PID.
"""

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from sdnbench.controllers import launch  # noqa: E402
from sdnbench.errors import UserError  # noqa: E402
from sdnbench.proc import ProcessSet, run, signals_as_exceptions, wait_until  # noqa: E402

RUNS = [("ovs-testcontroller", "1.0"), ("ovs-testcontroller", "1.3"), ("osken:learning", "1.0"), ("osken:learning", "1.3")]
IDLE_FOR_ECHO = 6.5  # seconds; OVS probes an idle controller connection after inactivity_probe
PROTOCOLS = {"1.0": "OpenFlow10", "1.3": "OpenFlow13"}


class Lab:
    """A bridge with two veth ports into two namespaces; removes all of it in `close`."""

    def __init__(self, tag: str):
        self.bridge = f"sbv{tag}"
        self.ns = [f"sbv{tag}n{i}" for i in (1, 2)]
        self.veths = [(f"sbv{tag}o{i}", f"sbv{tag}i{i}") for i in (1, 2)]
        self.extra = f"sbv{tag}x"
        self.made_bridge = False
        self.made_ns: list[str] = []
        self.made_veths: list[str] = []

    def open(self, protocols: str, target: str) -> None:
        run(["ovs-vsctl", "--timeout=10", "add-br", self.bridge, "--", "set", "bridge", self.bridge,
             "datapath_type=netdev", f"protocols={protocols}", "fail-mode=secure",
             "other-config:datapath-id=00000000000000a1", "--", "set-controller", self.bridge,
             target, "--", "set", "controller", self.bridge, "inactivity_probe=5000"])
        self.made_bridge = True
        for i, (ns, (out, inside)) in enumerate(zip(self.ns, self.veths), start=1):
            run(["ip", "netns", "add", ns])
            self.made_ns.append(ns)
            run(["ip", "link", "add", out, "type", "veth", "peer", "name", inside])
            self.made_veths.append(out)
            run(["ip", "link", "set", inside, "netns", ns])
            # No IPv6 chatter (router solicitations), so the connection can go idle.
            run(["ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1"], check=False)
            run(["sysctl", "-qw", f"net.ipv6.conf.{out}.disable_ipv6=1"], check=False)
            run(["ip", "netns", "exec", ns, "ip", "addr", "add", f"10.77.0.{i}/24", "dev", inside])
            run(["ip", "netns", "exec", ns, "ip", "link", "set", inside, "up"])
            run(["ip", "netns", "exec", ns, "ethtool", "-K", inside, "tx", "off", "rx", "off"], check=False)
            run(["ethtool", "-K", out, "tx", "off", "rx", "off"], check=False)
            run(["ip", "link", "set", out, "up"])
            run(["ovs-vsctl", "--timeout=10", "add-port", self.bridge, out])

    def connected(self) -> bool:
        cp = run(["ovs-vsctl", "--timeout=5", "get", "controller", self.bridge, "is_connected"], check=False)
        return cp.stdout.strip() == "true"

    def traffic(self) -> None:
        run(["ip", "netns", "exec", self.ns[0], "ping", "-c", "3", "-i", "0.2", "-W", "2", "10.77.0.2"], check=False, timeout=30)
        # A port that comes and goes makes the switch send port-status messages.
        run(["ovs-vsctl", "--timeout=10", "add-port", self.bridge, self.extra, "--", "set", "interface", self.extra, "type=internal"])
        run(["ovs-vsctl", "--timeout=10", "del-port", self.bridge, self.extra])
        run(["ip", "netns", "exec", self.ns[1], "ping", "-c", "2", "-i", "0.2", "-W", "2", "10.77.0.1"], check=False, timeout=30)
        # Stay idle past the inactivity probe (OVS waits at least 5 s) so the switch sends echo requests.
        time.sleep(IDLE_FOR_ECHO)

    def close(self) -> None:
        if self.made_bridge:
            run(["ovs-vsctl", "--timeout=10", "--if-exists", "del-br", self.bridge], check=False)
        for v in self.made_veths:
            run(["ip", "link", "del", v], check=False)
        for ns in self.made_ns:
            run(["ip", "netns", "del", ns], check=False)


def capture(spec: str, version: str, out: Path, tag: str) -> Path:
    name = f"{spec.split(':')[0].replace('-', '_')}_of{version.replace('.', '')}.pcap"
    path = out / name
    with launch(spec, of_version=version) as ctl, ProcessSet() as procs:
        log = out / (name + ".tcpdump.log")
        dump = procs.spawn("tcpdump", ["tcpdump", "-i", "lo", "--immediate-mode", "-U", "-s", "0", "-w", str(path),
                                       f"tcp port {ctl.port}"], log_path=log)
        wait_until(lambda: "listening on" in dump.log_tail(5), 10, "tcpdump to start")
        lab = Lab(tag)
        try:
            lab.open(PROTOCOLS[version], f"tcp:127.0.0.1:{ctl.port}")
            wait_until(lab.connected, 20, f"{lab.bridge} to connect to {spec}")
            lab.traffic()
            ctl.check_alive()
        finally:
            lab.close()
        dump.stop()
        log.unlink(missing_ok=True)
    print(f"{path.relative_to(REPO)}: {path.stat().st_size} bytes ({spec}, OpenFlow {version})")
    return path


def ofctl_commands(version: str, bridge: str) -> list[list[str]]:
    """What ovs-ofctl asks of the switch: stats of every kind, flow/group/meter/port mods,
    a packet-out, and one flow the switch rejects (an error message)."""
    frame = "0a1b2c3d4e5f02000000000108004500001c000100004001f96a0a4d00010a4d000208000000000000000000"
    if version == "1.0":
        return [["show"], ["dump-desc"],
                ["add-flow", "priority=100,in_port=1,dl_type=0x0800,nw_dst=10.77.0.2,actions=mod_dl_src:02:00:00:00:00:09,mod_nw_tos:8,enqueue:2:0"],
                ["add-flow", "priority=50,dl_vlan=10,actions=strip_vlan,mod_tp_dst:80,output:2"],
                ["dump-flows"], ["dump-aggregate"], ["dump-tables"], ["dump-ports"], ["queue-stats"],
                ["mod-port", "2", "no-flood"], ["packet-out", "1", "output:2", frame],
                ["del-flows", "in_port=1"], ["del-flows"]]
    return [["show"], ["dump-desc"], ["dump-ports-desc"],
            ["add-meter", "meter=1,kbps,burst,stats,bands=type=drop,rate=1000,burst_size=100"],
            ["add-group", "group_id=1,type=select,bucket=weight:10,output:1,bucket=weight:20,output:2"],
            ["add-flow", "table=0,priority=100,in_port=1,ip,nw_dst=10.77.0.0/16,actions=meter:1,push_vlan:0x8100,set_field:4106->vlan_vid,group:1"],
            ["add-flow", "table=0,priority=10,actions=write_metadata:0x1/0xff,goto_table:1"],
            ["add-flow", "table=1,priority=10,tcp,tp_dst=80,actions=dec_ttl,output:2"],
            ["add-flow", "table=0,priority=5,actions=group:99"],
            # No dump-tables here: in 1.3 ovs-ofctl also fetches table features, megabytes of them.
            ["dump-flows"], ["dump-aggregate"], ["dump-ports"], ["queue-stats"],
            ["dump-groups"], ["dump-meters"], ["mod-port", "2", "no-flood"],
            ["packet-out", "controller", "output:2", frame],
            ["del-flows"], ["del-groups"], ["del-meters"]]


def capture_ofctl(version: str, out: Path, tag: str) -> Path:
    """ovs-ofctl (Open vSwitch's own controller side) against the switch's passive port."""
    from sdnbench.controllers.ofhello import free_port
    name = f"ovs_ofctl_of{version.replace('.', '')}.pcap"
    path = out / name
    port = free_port()
    with ProcessSet() as procs:
        log = out / (name + ".tcpdump.log")
        dump = procs.spawn("tcpdump", ["tcpdump", "-i", "lo", "--immediate-mode", "-U", "-s", "0", "-w", str(path),
                                       f"tcp port {port}"], log_path=log)
        wait_until(lambda: "listening on" in dump.log_tail(5), 10, "tcpdump to start")
        lab = Lab(tag)
        try:
            lab.open(PROTOCOLS[version], f"ptcp:{port}:127.0.0.1")
            ofctl = ["ovs-ofctl", "--no-names", "-O", PROTOCOLS[version]] + (["-F", "OpenFlow10"] if version == "1.0" else [])
            wait_until(lambda: run(ofctl + ["show", f"tcp:127.0.0.1:{port}"], check=False).returncode == 0,
                       20, f"{lab.bridge} to listen on {port}")
            for cmd in ofctl_commands(version, lab.bridge):
                run(ofctl + [cmd[0], f"tcp:127.0.0.1:{port}"] + cmd[1:], check=False, timeout=20)
        finally:
            lab.close()
        dump.stop()
        log.unlink(missing_ok=True)
    print(f"{path.relative_to(REPO)}: {path.stat().st_size} bytes (ovs-ofctl, OpenFlow {version})")
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "crates" / "ofwire" / "tests" / "pcap")
    ap.add_argument("--only", choices=["controllers", "ofctl"], help="make only these captures")
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("capture_ovs: needs root (OVS bridges, network namespaces, tcpdump)", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    tag = str(os.getpid() % 100000)
    try:
        with signals_as_exceptions():
            for spec, version in RUNS if args.only != "ofctl" else []:
                capture(spec, version, args.out, tag)
            for version in ("1.0", "1.3") if args.only != "controllers" else ():
                capture_ofctl(version, args.out, tag)
    except UserError as e:
        print(f"capture_ovs: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
