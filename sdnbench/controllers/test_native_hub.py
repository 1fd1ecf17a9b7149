"""The launcher's repair of os-ken's native hub, run in the os-ken environment itself.

A helper thread sets the event after 5 s; a wait of 0.2 s must come back unset. With os-ken
4.2's own ``hub.Event`` the same wait returns True, because it only ends when the event is set.
"""

import subprocess

import pytest

from sdnbench.controllers import envs
from sdnbench.controllers.kinds.osken import APPS_DIR

pytestmark = pytest.mark.integration

PROBE = """
import sys, threading
sys.path.insert(0, {apps!r})
from os_ken.lib import hub
import native_hub
repaired = native_hub.repair(hub) if {repair} else False
e = hub.Event()
setter = threading.Timer(5.0, e.set)
setter.daemon = True
setter.start()
print(hub.HUB_TYPE, repaired, e.wait(timeout=0.2), e.is_set())
"""


def _probe(repair: bool) -> list:
    envs.require("osken")
    code = PROBE.format(apps=str(APPS_DIR), repair=repair)
    out = subprocess.run([str(envs.bin_path("osken")), "-c", code], capture_output=True,
                         text=True, timeout=30, check=True).stdout
    return out.split()


def test_repaired_event_wait_times_out():
    assert _probe(repair=True) == ["native", "True", "False", "False"]


def test_os_kens_own_event_wait_does_not():
    # Why the repair exists; should os-ken fix its hub, this fails and the repair can go.
    assert _probe(repair=False) == ["native", "False", "True", "True"]
