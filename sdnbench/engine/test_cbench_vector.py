"""The `cbench` workload sends what cbench sends: its first 100 messages to a controller, byte
for byte, against vectors recorded from cbench itself (``bench/engine/cbench_vector.py``).

The recorder does POX's handshake and ignores packet-ins until its barrier is answered, so the
test also pins *when* the ``-L`` packet-in leaves: with the features reply, before the
controller is ready, as cbench sends it (a controller such as POX never learns from it)."""

from __future__ import annotations

import pytest

from sdnbench.testing.cbench_recorder import ALLOWED, COUNT, compare, read_vector, record
from sdnbench.paths import engine_binary

ENGINE = [str(engine_binary()), "cbench"]


@pytest.mark.parametrize("mode", ["latency", "throughput"])
def test_the_first_100_messages_are_cbenchs(mode):
    theirs = read_vector(mode)
    assert len(theirs) == COUNT
    ours = record(ENGINE, mode)
    assert len(ours) == COUNT
    assert compare(ours, theirs) == []


@pytest.mark.parametrize("mode", ["latency", "throughput"])
def test_the_learning_packet_in_goes_with_the_features_reply(mode):
    kinds = [m[1] for m in record(ENGINE, mode)[:4]]
    assert kinds == [0, 6, 17, 10], "HELLO, FEATURES_REPLY, STATS_REPLY, then cbench's -L packet-in"


def test_compare_names_a_changed_byte_a_missing_message_and_allows_only_the_listed_field():
    theirs = read_vector("latency")
    probe = next(i for i, m in enumerate(theirs) if m[1] == 10 and len(m) == 82)
    changed = list(theirs)
    changed[probe] = theirs[probe][:30] + bytes([theirs[probe][30] ^ 1]) + theirs[probe][31:]
    assert any("differs at bytes [30]" in line for line in compare(changed, theirs))
    assert compare(theirs[:3], theirs) != []
    desc = next(i for i, m in enumerate(theirs) if m[1] == 17)
    (at, n, _), = ALLOWED[17]
    renamed = list(theirs)
    renamed[desc] = theirs[desc][:at] + b"x" * n + theirs[desc][at + n:]
    assert compare(renamed, theirs) == []
    renamed[desc] = renamed[desc][:at - 1] + b"x" + renamed[desc][at:]
    assert compare(renamed, theirs) != [], "a byte outside the allowed field still counts"
