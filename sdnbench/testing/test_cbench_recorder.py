"""The recorder's own messages, byte for byte: POX's handshake as ``openflow.of_01`` sends it
(the bytes the hand-packed recorder sent before it moved onto the shared encoder; cbench's
recorded vectors in ``sdnbench/engine/testdata`` were taken against them)."""

from sdnbench.testing import cbench_recorder as r


def test_the_handshake_and_answers_are_pox_bytes():
    assert r.handshake(100).hex() == "010000080000006401050008000000650110000c0000006600000000"
    fm = r.on_features(103)
    assert fm.hex() == ("0109000c0000006700000080" "010e004800000068003fffff" + "00" * 36
                        + "0000000000000000" "0003000000000000ffffffffffff0000" "0112000800000069")
    assert len(fm) == 12 + 72 + 8                      # SET_CONFIG, the 72-byte delete-all, BARRIER
    assert r.flood(0x1234, 3, 77).hex() == "010d00180000004d000012340003000800000008fffb0000"
