"""Which OpenFlow version the robustness and dos suites speak with a controller (issue 31).

As ``controller bench`` does without ``--of``: the switches offer OpenFlow 1.0 and 1.3 and use
what the controller picks (``controllers.negotiation.session_version`` over the HELLO exchange
of OpenFlow 1.3.5 §6.3.1). The attacker of a case must speak one version before it connects
(its bytes depend on it), so the version is negotiated once per launch of the controller and
every case of that launch (background and attacker) uses it. With ``--of`` the version is
forced; a controller that cannot speak it is one line naming ``--of``."""

from __future__ import annotations

from typing import Optional

from ..controllers.negotiation import negotiate
from ..controllers.negotiation import session_version as negotiated

FALLBACK = "1.3"                   # no HELLO came back: the run finds out why, case by case


def session_version(host: str, port: int, forced: Optional[str], label: str, hello=negotiate) -> str:
    """The version to run the cases with against the controller at host:port. ``hello`` is
    ``negotiation.negotiate`` (injectable for tests)."""
    return negotiated(host, port, forced, label, hello=hello) or FALLBACK


def needs(case: dict, version: str) -> Optional[str]:
    """Why ``case`` (a catalogue entry) cannot run at ``version``, or None when it can."""
    if case.get("of13_only") and version != "1.3":
        return f"needs OpenFlow 1.3; the session negotiated {version}"
    return None
