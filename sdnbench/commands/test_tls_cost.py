"""``controller tls-cost`` against a scripted controller whose TLS handshake takes a known time
(``tlscost/slow_tls_peer.py``: handshakes one at a time, each after DELAY): the TLS set-up rate
the command reports is at most 1 / DELAY, TCP's is not held back, and the ratio says so; both
transports' cells are stored with their mode and transport, in ABBA order."""

import json
import sys
from pathlib import Path

from sdnbench.cli import main
from sdnbench.tls.certs import ensure
from sdnbench.tlscost.stored import TlsCostCounters

PEER = Path(__file__).resolve().parents[1] / "tlscost" / "slow_tls_peer.py"
DELAY_MS = 40


def test_a_known_handshake_delay_is_the_tls_set_up_rate_it_reads(tmp_path, capsys):
    c = ensure().controller                    # the set the command gives its switches by default
    spec = f"cmd:{sys.executable} {PEER} {{port}} {DELAY_MS} {c.ca} {c.cert} {c.key};of=1.3;name=slowtls"
    out = tmp_path / "r.json"
    rc = main(["controller", "tls-cost", "--controller", spec, "--modes", "capacity", "--max", "10",
               "--reps", "2", "--hold-ms", "200", "-o", str(out)])
    assert rc == 0, capsys.readouterr().err
    doc = json.loads(out.read_text())
    order = [(r["params"]["tls_cost_transport"], r["params"]["rep"]) for r in doc]
    assert order == [("tcp", 0), ("tls", 0), ("tls", 1), ("tcp", 1)]
    rate = {}
    for r in doc:
        c = r["counters"]
        assert c["capacity_held"] == 10 and c["tlscost_controller_cpu_s"] is not None
        assert TlsCostCounters.problems(c) == []
        rate.setdefault(r["params"]["tls_cost_transport"], []).append(c["capacity_held"] / c["capacity_establish_s"])
    ceiling = 1000 / DELAY_MS                    # 10 handshakes one after the other, 40 ms each: <= 25/s
    assert all(x <= ceiling * 1.02 for x in rate["tls"]), rate
    assert all(x > 3 * ceiling for x in rate["tcp"]), rate
    table = capsys.readouterr().out
    assert "setup_per_s" in table and "TLS / TCP" in table
