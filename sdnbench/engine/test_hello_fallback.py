"""Known answer (issue 40): a controller that speaks OpenFlow 1.0 only and closes the connection
on a HELLO with a version bitmap (``sdnbench.testing.peers.picky10``). Offering 1.0 and 1.3, the engine
retries each session with a plain 1.0 HELLO, measures at 1.0 and says so; the Python probe
(``controllers.negotiation``) finds the same version: one behaviour. A ``cmd:`` spec's ``of=1.0``
reaches the engine, which then says a plain 1.0 HELLO from the start (no connection dropped)."""

from sdnbench.controllers.negotiation import session_version
from sdnbench.engine import driver, params
from sdnbench.testing.peers.picky10 import Picky10Controller

SHORT = {"switches": 2, "loops": 2, "loop_ms": 200, "warmup": 0, "macs": 4}


def test_offering_both_versions_the_engine_falls_back_to_a_plain_1_0_hello_and_says_so():
    with Picky10Controller() as probed:
        assert session_version("127.0.0.1", probed.port, None, "the controller") == "1.0"
    with Picky10Controller() as peer:
        doc = driver.run([], config=params.config(params.check(SHORT), peer.address))
        assert doc["status"] == "ok", doc["error"]
        assert doc["handshake"]["hello_fallbacks"] == 2 and peer.closed == 2
        assert [s["of_version"] for s in doc["switches"]] == ["1.0", "1.0"]
        assert all(s["hello_fallback"] for s in doc["switches"])
        assert any("a plain 1.0 HELLO" in w for w in doc["warnings"]), doc["warnings"]
        assert doc["totals"]["requests_answered"] > 0


def test_a_cmd_specs_of_1_0_is_offered_from_the_start():
    with Picky10Controller() as peer:
        p = params.check({**SHORT, "controller": "cmd:ctl {port};of=1.0"})
        doc = driver.run([], config=params.config(p, peer.address))
        assert doc["status"] == "ok", doc["error"]
        assert peer.closed == 0 and "hello_fallbacks" not in doc["handshake"]
        assert doc["params"]["versions"] == 2
