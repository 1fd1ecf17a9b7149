"""The documented properties of the test bed that ``evidence.py`` explains differences by, each
demonstrated here on this machine's Open vSwitch (userspace datapath), for real.

``admin-down``: the ``link`` stimulus takes the switch-to-switch link of Mininet down as
``ip link set dev IF down`` on both veth ends (``sides._ovs_stimulus``). Open vSwitch then
reports each port administratively down (config PORT_DOWN, state LINK_DOWN); a cable cut, which
the emulated link models, is what one end sees when only its peer goes down: config 0, state
LINK_DOWN."""

import re
import subprocess

from sdnbench.testing.peers import linkpath as lp


def _desc(bridge: str, port: int) -> tuple:
    """(config words, state words) of one port, from ``ovs-ofctl dump-ports-desc``."""
    out = subprocess.run(["ovs-ofctl", "-O", "OpenFlow13", "dump-ports-desc", bridge], capture_output=True,
                         text=True, timeout=10, check=True).stdout
    block = re.search(rf"^ {port}\(.*?(?=^ \S|\Z)", out, re.M | re.S).group(0)
    config = re.search(r"config:\s+(.*)", block).group(1).split()
    state = re.search(r"state:\s+(.*)", block).group(1).split()
    return config, state


def _settle(bridge: str, port: int, want: tuple, tries: int = 50) -> tuple:
    import time
    got = None
    for _ in range(tries):
        got = _desc(bridge, port)
        if got == want:
            break
        time.sleep(0.1)
    return got


def test_the_harness_link_down_is_administrative_on_ovs():
    with lp.ovs_pair("127.0.0.1:1") as (br1, br2):
        v1, v2 = f"{br1}-v", f"{br2}-v"
        assert _settle(br1, lp.LINK, (["0"], ["LIVE"])) == (["0"], ["LIVE"])
        # a cable cut seen from br1's end: only the peer goes down
        subprocess.run(["ip", "link", "set", "dev", v2, "down"], check=True, timeout=10)
        assert _settle(br1, lp.LINK, (["0"], ["LINK_DOWN"])) == (["0"], ["LINK_DOWN"])
        # the harness's link down: both ends administratively down
        subprocess.run(["ip", "link", "set", "dev", v1, "down"], check=True, timeout=10)
        for br, port in ((br1, lp.LINK), (br2, lp.PEER)):
            assert _settle(br, port, (["PORT_DOWN"], ["LINK_DOWN"])) == (["PORT_DOWN"], ["LINK_DOWN"])
