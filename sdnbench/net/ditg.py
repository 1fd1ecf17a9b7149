"""D-ITG: constant-size, constant-rate UDP or TCP flows, decoded with ITGDec.

``ITGRecv`` runs in the destination host (a tracked process). ``ITGSend`` sends one flow:
``-m rttm`` (round trip: the sender's log holds each packet's send and return time) or one-way
(the receiver's log, fetched with ``-x``). Both hosts share this machine's clock, so one-way delay
is meaningful here.

From the log ITGDec gives:
- the per-packet log (``-l``): ``ditg_delay`` per packet (ms; round trip for rttm), and the log
  file itself kept in ``log_dir`` when the user asks;
- per-interval files (``-d``, ``-j``, ``-p``, ``-b``): ``ditg_delay_iv`` (ms), ``ditg_jitter`` (ms),
  ``ditg_lost`` (packets) and ``ditg_bitrate`` (kbit/s), ``t`` = interval start;
- the summary (ITGDec's TOTAL RESULTS): ``ditg_avg_delay`` (ms), ``ditg_avg_jitter`` (ms),
  ``ditg_loss`` (%), ``ditg_avg_bitrate`` (kbit/s), one value each.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from .. import proc
from ..errors import UserError
from .iperf import wait_listening

SIGNAL_PORT = 9000   # ITGRecv's control channel


@dataclass
class DitgOptions:
    protocol: str = "UDP"        # UDP or TCP
    size: int = 512              # -c bytes
    rate: int = 100              # -C packets/s
    duration_ms: int = 5000      # -t
    meter: str = "rttm"          # rttm or owdm (one-way)
    interval_ms: int = 1000      # ITGDec interval for per-interval series
    log_dir: Optional[str] = None


_SUMMARY = {
    "Total packets": ("packets", float),
    "Average delay": ("avg_delay_s", float),
    "Average jitter": ("avg_jitter_s", float),
    "Delay standard deviation": ("delay_std_s", float),
    "Average bitrate": ("avg_bitrate_kbit", float),
    "Bytes received": ("bytes", float),
}


def parse_summary(text: str) -> dict:
    """The TOTAL RESULTS block of ``ITGDec LOG``."""
    block = text.split("TOTAL RESULTS", 1)[-1]
    out: dict = {}
    for line in block.splitlines():
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep:
            continue
        if key in _SUMMARY:
            name, conv = _SUMMARY[key]
            out[name] = conv(value.split()[0])
        elif key == "Packets dropped":
            m = re.match(r"\s*(\d+)\s*\(([\d.]+)\s*%\)", value)
            if m:
                out["dropped"] = int(m.group(1))
                out["loss_pct"] = float(m.group(2))
    return out


_PACKET = re.compile(r"Seq>\s*(\d+).*?txTime>([\d:.]+)\s+rxTime>([\d:.]+)\s+Size>\s*(\d+)")


def _clock(s: str) -> float:
    h, m, sec = s.split(":")
    return int(h) * 3600 + int(m) * 60 + float(sec)


def parse_packets(text: str) -> list:
    """Per-packet rows of ``ITGDec LOG -l FILE``: (seq, tx seconds-of-day, delay s, size)."""
    rows = []
    for line in text.splitlines():
        m = _PACKET.search(line)
        if not m:
            continue
        tx, rx = _clock(m.group(2)), _clock(m.group(3))
        if rx < tx:           # across midnight
            rx += 86400
        rows.append((int(m.group(1)), tx, rx - tx, int(m.group(4))))
    return rows


def parse_interval_file(text: str) -> tuple:
    """ITGDec ``-d/-j/-p/-b`` file: (times, aggregate values); the last column is the aggregate."""
    t, v = [], []
    for line in text.splitlines()[1:]:
        cols = line.split()
        if len(cols) >= 2:
            try:
                t.append(float(cols[0]))
                v.append(float(cols[-1]))
            except ValueError:
                continue
    return t, v


def decode(log: Path, interval_ms: int) -> dict:
    """Run ITGDec on ``log``; return summary, packets and per-interval series."""
    work = log.parent
    summary = parse_summary(proc.run(["ITGDec", str(log)], timeout=120, what="ITGDec").stdout)
    pk = work / (log.stem + ".packets.txt")
    proc.run(["ITGDec", str(log), "-l", str(pk)], timeout=120, what="ITGDec -l")
    packets = parse_packets(pk.read_text()) if pk.exists() else []
    iv = {}
    args = ["ITGDec", str(log)]
    for flag, name in (("-d", "delay"), ("-j", "jitter"), ("-p", "lost"), ("-b", "bitrate")):
        args += [flag, str(interval_ms), str(work / f"{log.stem}.{name}.txt")]
    proc.run(args, timeout=120, what="ITGDec intervals")
    for name in ("delay", "jitter", "lost", "bitrate"):
        f = work / f"{log.stem}.{name}.txt"
        iv[name] = parse_interval_file(f.read_text()) if f.exists() else ([], [])
    return {"summary": summary, "packets": packets, "intervals": iv, "packet_log": pk}


def run_ditg(net, src: str, dst: str, opts: DitgOptions, workdir: Path, tag: str) -> dict:
    if opts.protocol not in ("UDP", "TCP"):
        raise UserError(f"D-ITG protocol {opts.protocol!r}: use UDP or TCP")
    if opts.meter not in ("rttm", "owdm"):
        raise UserError(f"D-ITG meter {opts.meter!r}: use rttm (round trip) or owdm (one way)")
    recv = net.spawn_in(dst, "ITGRecv", ["ITGRecv"], log_path=workdir / f"{tag}.recv.out")
    try:
        wait_listening(net, dst, SIGNAL_PORT, "tcp", recv)
        send_log, recv_log = workdir / f"{tag}.send.log", workdir / f"{tag}.recv.log"
        argv = ["ITGSend", "-T", opts.protocol, "-a", net.host_ip(dst), "-c", str(opts.size),
                "-C", str(opts.rate), "-t", str(opts.duration_ms), "-l", str(send_log)]
        argv += ["-m", "rttm"] if opts.meter == "rttm" else ["-x", str(recv_log)]
        cp = net.run_in(src, argv, timeout=opts.duration_ms / 1000 + 30)
        if cp.returncode != 0:
            raise UserError(f"ITGSend {src}->{dst} failed: {(cp.stderr or cp.stdout).strip()[-200:]}")
    finally:
        recv.stop(grace=3)
    log = send_log if opts.meter == "rttm" else recv_log
    if not log.exists() or log.stat().st_size == 0:
        raise UserError(f"D-ITG {src}->{dst}: no log was written ({log})")
    return decode(log, opts.interval_ms)


def measure_ditg(net, result, pairs: list, opts: DitgOptions, rep: int, workdir: Path,
                 progress: Callable[[str], None] = lambda s: None) -> None:
    for src, dst, switch in pairs:
        progress(f"D-ITG {opts.protocol} {src}->{dst} {opts.size} B")
        tag = f"ditg-{src}-{dst}-{opts.protocol}-{opts.size}-r{rep}"
        d = run_ditg(net, src, dst, opts, workdir, tag)
        labels = dict(src=src, dst=dst, rep=rep, size=opts.size, protocol=opts.protocol,
                      meter=opts.meter)
        if switch:
            labels["switch"] = switch
        pk = d["packets"]
        t0 = pk[0][1] if pk else 0.0
        result.add("ditg_delay", "ms", [r[2] * 1000 for r in pk],
                   t=[round(r[1] - t0, 6) for r in pk], **labels)
        iv = d["intervals"]
        for name, metric, unit, scale in (("delay", "ditg_delay_iv", "ms", 1000),
                                          ("jitter", "ditg_jitter", "ms", 1000),
                                          ("lost", "ditg_lost", "packets", 1),
                                          ("bitrate", "ditg_bitrate", "kbit/s", 1)):
            t, v = iv[name]
            result.add(metric, unit, [x * scale for x in v], t=t, **labels)
        s = d["summary"]
        for key, metric, unit, scale in (("avg_delay_s", "ditg_avg_delay", "ms", 1000),
                                         ("avg_jitter_s", "ditg_avg_jitter", "ms", 1000),
                                         ("loss_pct", "ditg_loss", "%", 1),
                                         ("avg_bitrate_kbit", "ditg_avg_bitrate", "kbit/s", 1)):
            if key in s:
                result.add(metric, unit, [s[key] * scale], **labels)
        result.counters["ditg_packets"] = result.counters.get("ditg_packets", 0) + int(s.get("packets", 0))
        result.counters["ditg_dropped"] = result.counters.get("ditg_dropped", 0) + s.get("dropped", 0)
        if opts.log_dir:
            dest = Path(opts.log_dir)
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copy(d["packet_log"], dest / f"{tag}.packets.txt")
