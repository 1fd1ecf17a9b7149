"""iperf3 TCP and UDP throughput, per interval, as the receiver saw it.

One server per test (``iperf3 -s -1 -J``) runs in the destination host as a tracked process; the
client asks for the server's JSON (``--get-server-output``) so receiver-side intervals (UDP jitter
and loss exist only there) come back in one document.

Series (labels ``src, dst, rep`` + ``switch`` for per-switch pairs; ``t`` = interval end, s):
- TCP: ``tcp_throughput`` (Mbit/s, receiver), ``tcp_retransmits`` (sender, per interval);
- UDP: ``udp_throughput`` (Mbit/s, receiver), ``udp_jitter`` (ms), ``udp_lost`` and
  ``udp_packets`` (datagrams per interval), ``udp_loss`` (% per interval).

iperf3 prints a warning line when the UDP length exceeds the MSS, before its JSON on stdout or on
stderr: the parser skips anything before the first line that starts with ``{``, and both kinds
of warning are kept as notes of the result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, Optional

from ..errors import UserError
from .. import proc


@dataclass
class IperfOptions:
    duration: float = 5.0
    interval: float = 1.0
    window: Optional[str] = None       # -w, e.g. "1024K"
    parallel: int = 1                  # -P
    reverse: bool = False              # -R
    udp_rate: str = "50M"              # -b (UDP)
    udp_length: Optional[int] = None   # -l (UDP datagram length)
    port: int = 5201


def parse_iperf(text: str) -> tuple:
    """(document, warnings): the JSON document and any lines printed before it."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("{"):
            try:
                doc = json.loads("\n".join(lines[i:]))
            except json.JSONDecodeError as e:
                raise UserError(f"iperf3 printed invalid JSON ({e.msg})")
            warnings = [l.strip() for l in lines[:i] if l.strip()]
            if doc.get("error"):
                raise UserError(f"iperf3: {doc['error']}")
            return doc, warnings
    raise UserError(f"iperf3 printed no JSON: {text.strip()[:200]!r}")


def receiver_intervals(doc: dict, reverse: bool, nominal: Optional[float] = None) -> list:
    """The receiving side's interval sums: the server's unless the test ran reversed.

    With ``nominal`` (the ``-i`` interval), an interval shorter than half of it is merged into
    its neighbour: the receiver's last interval often lasts a few milliseconds and holds the
    datagrams still queued at the end, which as a rate of its own reads far above the link
    (e.g. 1 Gbit/s on a 100 Mbit/s link). Merging keeps every byte and datagram counted."""
    if reverse:
        sums = [i["sum"] for i in doc.get("intervals", [])]
    else:
        server = doc.get("server_output_json") or {}
        sums = [i["sum"] for i in server.get("intervals", [])]
    if not nominal:
        return sums
    return merge_short_intervals(sums, nominal / 2)


def merge_short_intervals(sums: list, shortest: float) -> list:
    out: list = []
    for s in sums:
        if out and s.get("seconds", shortest) < shortest:
            out[-1] = _merge(out[-1], s)
        elif out and out[-1].get("seconds", shortest) < shortest:
            out[-1] = _merge(out[-1], s)
        else:
            out.append(dict(s))
    return out


def _merge(a: dict, b: dict) -> dict:
    m = dict(a)
    m["end"] = b.get("end", a.get("end"))
    m["seconds"] = a.get("seconds", 0) + b.get("seconds", 0)
    m["bytes"] = a.get("bytes", 0) + b.get("bytes", 0)
    if m["seconds"] > 0:
        m["bits_per_second"] = m["bytes"] * 8 / m["seconds"]
    for k in ("packets", "lost_packets", "retransmits"):
        if k in a or k in b:
            m[k] = a.get(k, 0) + b.get(k, 0)
    if "lost_percent" in m:
        m["lost_percent"] = 100.0 * m["lost_packets"] / m["packets"] if m.get("packets") else 0.0
    if "jitter_ms" in b:
        m["jitter_ms"] = b["jitter_ms"]   # iperf3's jitter is a running estimate: keep the later
    return m


def tcp_samples(doc: dict, reverse: bool, nominal: Optional[float] = None) -> dict:
    recv = receiver_intervals(doc, reverse, nominal)
    sender = doc.get("intervals", []) if not reverse else \
        (doc.get("server_output_json") or {}).get("intervals", [])
    return {
        "t": [round(s["end"], 6) for s in recv],
        "throughput": [s["bits_per_second"] / 1e6 for s in recv],
        "retransmits": [i["sum"].get("retransmits", 0) for i in sender],
        "retransmits_t": [round(i["sum"]["end"], 6) for i in sender],
    }


def udp_samples(doc: dict, reverse: bool, nominal: Optional[float] = None) -> dict:
    recv = receiver_intervals(doc, reverse, nominal)
    return {
        "t": [round(s["end"], 6) for s in recv],
        "throughput": [s["bits_per_second"] / 1e6 for s in recv],
        "jitter": [s.get("jitter_ms", 0.0) for s in recv],
        "lost": [s.get("lost_packets", 0) for s in recv],
        "packets": [s.get("packets", 0) for s in recv],
        "loss": [s.get("lost_percent", 0.0) for s in recv],
    }


def _client_argv(ip: str, opts: IperfOptions, udp: bool) -> list:
    argv = ["iperf3", "-c", ip, "-p", str(opts.port), "-t", f"{opts.duration:g}",
            "-i", f"{opts.interval:g}", "-J", "--get-server-output"]
    if opts.window:
        argv += ["-w", opts.window]
    if opts.parallel > 1:
        argv += ["-P", str(opts.parallel)]
    if opts.reverse:
        argv.append("-R")
    if udp:
        argv += ["-u", "-b", opts.udp_rate]
        if opts.udp_length:
            argv += ["-l", str(opts.udp_length)]
    return argv


ATTEMPTS = 3
SETUP_GRACE = 10.0


def run_iperf(net, src: str, dst: str, opts: IperfOptions, udp: bool) -> tuple:
    """One iperf3 test from src to dst; returns (document, warnings).

    Before a UDP test iperf3 (3.12) exchanges one datagram each way with the server and does not
    resend it: on a lossy link that exchange fails about as often as the loss rate (twice), after
    a 30 s stall ("unable to read from stream socket"). A client that is not done ``SETUP_GRACE``
    seconds after its test should have ended is therefore stopped, and such a test is retried (up
    to ``ATTEMPTS`` times); every retry is reported among the warnings."""
    retried = []
    for attempt in range(1, ATTEMPTS + 1):
        try:
            doc, warnings = _run_iperf_once(net, src, dst, opts, udp)
            return doc, retried + warnings
        except UserError as e:
            if attempt == ATTEMPTS or not any(w in str(e) for w in ("unable to", "did not finish")):
                raise
            retried.append(f"attempt {attempt} failed and was retried: {e}")
    raise AssertionError("unreachable")


def _run_iperf_once(net, src: str, dst: str, opts: IperfOptions, udp: bool) -> tuple:
    server = net.spawn_in(dst, "iperf3-server",
                          ["iperf3", "-s", "-1", "-J", "-i", f"{opts.interval:g}", "-p", str(opts.port)])
    try:
        wait_listening(net, dst, opts.port, "tcp", server)
        cp = net.run_in(src, _client_argv(net.host_ip(dst), opts, udp),
                        timeout=opts.duration + SETUP_GRACE)
        if not cp.stdout.strip():
            raise UserError(f"iperf3 {src}->{dst} printed nothing: {cp.stderr.strip()[-200:]}")
        doc, warnings = parse_iperf(cp.stdout)
        # the warning goes to stdout before the JSON or to stderr, depending on the build
        return doc, warnings + [l.strip() for l in cp.stderr.splitlines() if l.strip()]
    finally:
        server.stop(grace=2)


def wait_listening(net, host: str, port: int, proto: str, server: proc.Tracked) -> None:
    flag = "-Hltn" if proto == "tcp" else "-Hlun"

    def listening() -> bool:
        if not server.alive():
            raise UserError(f"{server.name} on {host} exited: {server.log_tail(5)}")
        return bool(net.run_in(host, ["ss", flag, f"sport = :{port}"], timeout=10).stdout.strip())

    proc.wait_until(listening, 10, f"{server.name} to listen on {host}:{port}")


def measure_iperf(net, result, pairs: list, opts: IperfOptions, udp: bool, rep: int,
                  progress: Callable[[str], None] = lambda s: None) -> None:
    kind = "udp" if udp else "tcp"
    for src, dst, switch in pairs:
        progress(f"iperf3 {kind.upper()} {src}->{dst}")
        doc, warnings = run_iperf(net, src, dst, opts, udp)
        for w in warnings:
            note = f"iperf3 {kind} {src}->{dst}: {w}"
            if note not in result.notes:
                result.notes.append(note)
        labels = dict(src=src, dst=dst, rep=rep)
        if switch:
            labels["switch"] = switch
        if udp:
            s = udp_samples(doc, opts.reverse, opts.interval)
            result.add("udp_throughput", "Mbit/s", s["throughput"], t=s["t"], **labels)
            result.add("udp_jitter", "ms", s["jitter"], t=s["t"], **labels)
            result.add("udp_lost", "datagrams", s["lost"], t=s["t"], **labels)
            result.add("udp_packets", "datagrams", s["packets"], t=s["t"], **labels)
            result.add("udp_loss", "%", s["loss"], t=s["t"], **labels)
            _count(result, "udp_datagrams", sum(s["packets"]))
            _count(result, "udp_lost", sum(s["lost"]))
        else:
            s = tcp_samples(doc, opts.reverse, opts.interval)
            result.add("tcp_throughput", "Mbit/s", s["throughput"], t=s["t"], **labels)
            result.add("tcp_retransmits", "segments", s["retransmits"], t=s["retransmits_t"], **labels)
            _count(result, "tcp_retransmits", sum(s["retransmits"]))


def _count(result, key: str, n: int) -> None:
    result.counters[key] = result.counters.get(key, 0) + n
