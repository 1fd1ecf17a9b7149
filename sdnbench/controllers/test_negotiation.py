"""Known answers for the version choice (a fake HELLO exchange: what the controller answered)."""

import pytest

from ..errors import UserError
from .negotiation import session_version


def fake(answer_wire):
    def hello(host, port, offered):
        if answer_wire is None:
            return None, None
        wires = {"1.0": 1, "1.3": 4}
        fits = [v for v in offered if wires[v] <= answer_wire]
        return (fits[-1] if fits else None), answer_wire
    return hello


def test_negotiated_without_of():
    assert session_version("h", 1, None, "pox", hello=fake(1)) == "1.0"
    assert session_version("h", 1, None, "ryu", hello=fake(4)) == "1.3"
    assert session_version("h", 1, None, "onos", hello=fake(6)) == "1.3", "a 1.5 controller takes 1.3"


def test_no_hello_back_leaves_it_to_the_run():
    assert session_version("h", 1, None, "x", hello=fake(None)) is None
    assert session_version("h", 1, "1.3", "x", hello=fake(None)) == "1.3"


def test_a_forced_version_the_controller_lacks_is_one_line_naming_of():
    with pytest.raises(UserError) as e:
        session_version("h", 1, "1.3", "pox", hello=fake(1))
    assert str(e.value) == "pox answered HELLO with OpenFlow 1.0, not 1.3: use --of 1.0, or leave --of out to negotiate"
    with pytest.raises(UserError) as e:
        session_version("h", 1, "1.3", "new", hello=lambda h, p, o: (None, 7))
    assert str(e.value) == ("new answered HELLO with OpenFlow wire version 7, not 1.3: sdnbench speaks "
                            "OpenFlow 1.0 and 1.3, or leave --of out to negotiate")


def test_a_need_replaces_the_hint():
    with pytest.raises(UserError) as e:
        session_version("h", 1, "1.3", "pox", need="roles need OpenFlow 1.3 (failover)", hello=fake(1))
    assert str(e.value) == "pox answered HELLO with OpenFlow 1.0: roles need OpenFlow 1.3 (failover)"
