"""The shared timeline's pure parts: the announcement frame, the windows, the engine's share."""

from . import stimuli
from .normalise import frame_kind


def test_announce_frame_is_a_gratuitous_arp_for_the_hosts_own_address():
    f = stimuli.announce_frame(2)
    assert len(f) == 60 and f[:6] == b"\xff" * 6 and f[6:12] == stimuli.host_mac(2)
    assert f[12:14] == b"\x08\x06" and f[14:22] == bytes([0, 1, 8, 0, 6, 4, 0, 1])   # Ethernet/IPv4, request
    assert f[22:28] == stimuli.host_mac(2) and f[28:32] == f[38:42] == stimuli.host_ip(2) == bytes([10, 0, 0, 2])
    assert f[32:38] == bytes(6) and f[42:] == bytes(18)
    assert frame_kind(f) == "arp 00:00:00:00:00:02>ff:ff:ff:ff:ff:ff"


def test_windows_and_ends():
    assert stimuli.compare_from_s("connect") == 0.0 and stimuli.end_s("connect") == stimuli.END_S
    assert stimuli.compare_from_s("restart") == stimuli.SETTLE_S
    assert stimuli.compare_from_s("echo-silence") == stimuli.SETTLE_S + stimuli.SILENCE_S
    # the silence outlasts the probe, its timeout and OVS's whole-second clock; settling follows
    assert stimuli.SILENCE_S > 2 * stimuli.OVS_INACTIVITY_PROBE_MS / 1000 + 1
    assert stimuli.end_s("echo-silence") > stimuli.compare_from_s("echo-silence") + 3
    assert stimuli.end_s("restart") > stimuli.SETTLE_S + stimuli.RESTART_PAUSE_S + 3


def test_the_engine_announces_each_host_once_at_settle_and_keeps_ovs_keepalive():
    net = stimuli.engine_network("hosts", {"links": [], "hosts": [{}, {}]})
    prov = net["provisioning"]
    assert sorted(prov["pairs"]) == [[0, 1], [1, 0]], "both hosts are destinations: both announce"
    # the second announcement (announce_ms / 2) and the first flow (announce_ms) after the end
    assert prov["announce_ms"] / 2 > stimuli.end_s("hosts") * 1000 + 5000
    p = stimuli.engine_params("hosts")
    assert p["settle_ms"] == stimuli.SETTLE_S * 1000
    assert p["echo_interval_ms"] == stimuli.OVS_INACTIVITY_PROBE_MS and p["max_backoff_ms"] == 1000
    assert "settle_ms" not in stimuli.engine_params("restart")
    assert "provisioning" not in stimuli.engine_network("restart", {"links": []})


def test_the_stream_frame_is_the_engines_byte_for_byte():
    """``testdata/stream_frame.hex`` is host 1 → host 2, pair 3, sequence 7; the engine's
    ``stream::tests::the_engines_stream_frame_is_the_shared_vector`` builds the same bytes."""
    from pathlib import Path
    want = bytes.fromhex((Path(__file__).parent / "testdata" / "stream_frame.hex").read_text())
    f = stimuli.stream_frame(1, 2, 3, 7)
    assert f == want
    assert len(f) == 60 and stimuli._checksum(f[14:34]) == 0
    pseudo = f[26:34] + bytes([0, 17]) + f[38:40]
    assert stimuli._checksum(pseudo + f[34:]) == 0, "the UDP checksum verifies"
    assert frame_kind(f) == "ipv4/17 00:00:00:00:00:01>00:00:00:00:00:02 len=60"
