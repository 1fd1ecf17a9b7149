"""A repair to os-ken 4.x's native hub, applied by the launcher before any app is made.

os-ken 4.x runs on native threads by default (``OSKEN_HUB_TYPE=native``). There
``hub.Event.wait(timeout)`` never times out: it enters ``hub.Timeout``, whose timer can only set
a flag, and then blocks in an untimed ``threading.Event.wait`` until someone sets the event. Under
eventlet the timeout interrupts the wait; natively nothing does.

What that breaks: ``os_ken.topology.switches`` paces its LLDP with ``lldp_event.wait(timeout)`` and
ages links with ``link_event.wait(timeout)``. Natively its LLDP goes out only when some event
(a port added, an LLDP packet-in) happens to wake the loop, so discovery of a quiet network
stalls part-way and a link whose LLDP stops is never aged out. (Seen in CI: linear,3 stuck at 3
of its 4 links for 60 s; s1 had seen one LLDP frame in 30 s.)

``Event`` below keeps os-ken's interface (``set``, ``clear``, ``is_set``, ``wait`` returning whether
the event is set) on a plain ``threading.Event``, whose timed wait does time out.
"""

import threading


class Event:
    """os-ken's ``hub.Event`` with a timed wait that returns when the time is up."""

    def __init__(self):
        self._ev = threading.Event()

    def is_set(self) -> bool:
        return self._ev.is_set()

    def set(self) -> None:
        self._ev.set()

    def clear(self) -> None:
        self._ev.clear()

    def wait(self, timeout=None) -> bool:
        return self._ev.wait(timeout)


def repair(hub) -> bool:
    """Replace ``hub.Event`` when the hub is native; return whether it was replaced. os-ken's
    modules look ``hub.Event`` up when they make one, so this must run before the apps exist."""
    if hub.HUB_TYPE != "native":
        return False
    hub.Event = Event
    return True
