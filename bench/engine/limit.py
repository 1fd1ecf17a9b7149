"""The `limit` row of `bench.py efficiency`: what the kernel's loopback TCP costs per byte.

A bulk iperf3 transfer over 127.0.0.1 (one stream, 128 KiB writes) gives CPU-seconds per byte
sent (the client's user+system time, which on loopback also carries the receive path's softirq
work it triggers) and per byte received (the server's). A request costs the engine at least
``bytes_out * cpu_per_byte_sent + bytes_in * cpu_per_byte_received`` — the bytes it writes (the
packet-in) and reads (the flow-mod) — so ``1 / that`` is the most answered requests one
CPU-second could buy if the engine did nothing but move bytes in the biggest batches TCP allows.
The engine's answered requests per CPU-second is reported as a fraction of it (goal G1: >= 90%).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

from sdnbench.controllers import listeners
from sdnbench.controllers.ofhello import free_port


def bulk_transfer(seconds: float = 2.0, write_bytes: int = 128 * 1024) -> dict:
    """One iperf3 run over loopback: bytes moved and CPU-seconds per byte on each side."""
    port = free_port()
    server = subprocess.Popen(["iperf3", "-s", "-B", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_listening(port)
        cp = subprocess.run(["iperf3", "-c", "127.0.0.1", "-p", str(port), "-t", str(seconds),
                             "-l", str(write_bytes), "-J"], capture_output=True, text=True, timeout=seconds + 30)
        doc = json.loads(cp.stdout)
        if "error" in doc:
            raise SystemExit(f"iperf3: {doc['error']}")
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
    end = doc["end"]
    sent, received = end["sum_sent"], end["sum_received"]
    cpu = end["cpu_utilization_percent"]
    secs = sent["seconds"]
    send_cpu_s, recv_cpu_s = cpu["host_total"] / 100 * secs, cpu["remote_total"] / 100 * received["seconds"]
    return {"bytes": sent["bytes"], "seconds": secs, "gbit_per_s": sent["bits_per_second"] / 1e9,
            "sender_cpu_s": send_cpu_s, "receiver_cpu_s": recv_cpu_s,
            "cpu_ns_per_byte_sent": 1e9 * send_cpu_s / sent["bytes"],
            "cpu_ns_per_byte_received": 1e9 * recv_cpu_s / received["bytes"]}


def requests_per_cpu_s(bulk: dict, bytes_out: float, bytes_in: float) -> float:
    """The limit: answered requests per CPU-second when a request costs only its bytes."""
    ns = bytes_out * bulk["cpu_ns_per_byte_sent"] + bytes_in * bulk["cpu_ns_per_byte_received"]
    return 1e9 / ns


def _listening(port: int) -> bool:
    """A listener for 127.0.0.1:port in the kernel's socket table (not by connecting: iperf3's
    server takes any connection as a client's control channel, and a probe that connects and
    leaves can make it reset the real client's: "unable to receive control message")."""
    return listeners.shown("127.0.0.1", port) == listeners.YES


def _wait_listening(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _listening(port):
            return
        time.sleep(0.05)
    raise SystemExit("iperf3 server did not start")
