"""Link parameters and named link profiles (pure data).

``LinkParams`` holds what a link emulates: bandwidth (htb), delay and jitter (netem only), random
loss (netem, or the nftables fallback on kernels without netem) and the queue length in packets.

Loss is per direction: a link with ``loss_pct=5`` drops about 5% of the packets sent each way.

Profiles name common links. ``wifi-g`` is an approximation of 802.11g, not an emulation of it: a
shaped point-to-point link at the goodput an 802.11g cell typically gives one station, plus a
small random loss. It has no shared medium, contention, rate adaptation or retransmission, so
results on it must be read as "a slow, slightly lossy link", which is why every run that uses it
carries a note saying so.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Optional

from ..errors import UserError


@dataclass(frozen=True)
class LinkParams:
    bw_mbit: Optional[float] = None
    delay_ms: Optional[float] = None
    jitter_ms: Optional[float] = None
    loss_pct: Optional[float] = None
    queue_pkts: Optional[int] = None
    profile: Optional[str] = None

    def __post_init__(self) -> None:
        for name, lo, hi in (("bw_mbit", 0.001, 100_000), ("delay_ms", 0, 60_000),
                             ("jitter_ms", 0, 60_000), ("loss_pct", 0, 100),
                             ("queue_pkts", 1, 1_000_000)):
            v = getattr(self, name)
            if v is not None and not lo <= v <= hi:
                raise UserError(f"link {name.replace('_', ' ')} = {v} is out of range [{lo}, {hi}]")

    def is_default(self) -> bool:
        return self == LinkParams()

    def needs_netem(self) -> list:
        """The parameters that only netem can emulate (delay, jitter)."""
        return [n for n in ("delay_ms", "jitter_ms") if getattr(self, n)]

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}

    def describe(self) -> str:
        parts = []
        if self.profile:
            parts.append(self.profile)
        if self.bw_mbit:
            parts.append(f"{self.bw_mbit:g} Mbit/s")
        if self.delay_ms:
            parts.append(f"{self.delay_ms:g} ms delay")
        if self.jitter_ms:
            parts.append(f"{self.jitter_ms:g} ms jitter")
        if self.loss_pct:
            parts.append(f"{self.loss_pct:g}% loss")
        if self.queue_pkts:
            parts.append(f"queue {self.queue_pkts} pkts")
        return ", ".join(parts) or "unshaped"


PROFILES: dict = {
    "fast-ethernet": LinkParams(bw_mbit=100, profile="fast-ethernet"),
    "gigabit": LinkParams(bw_mbit=1000, profile="gigabit"),
    # 802.11g: 54 Mbit/s PHY, typically 20-25 Mbit/s of TCP goodput for one station; residual loss
    # after link-layer retries well under 1%.
    "wifi-g": LinkParams(bw_mbit=22, loss_pct=0.5, queue_pkts=100, profile="wifi-g"),
}

PROFILE_NOTES: dict = {
    "wifi-g": "link profile wifi-g is an 802.11g-like approximation (22 Mbit/s shaped point-to-point "
              "link, 0.5% random loss per direction, 100-packet queue), not a wireless emulation: "
              "no shared medium, contention, rate adaptation or retransmissions",
}

_KEYS = {"bw": ("bw_mbit", float), "delay": ("delay_ms", float), "jitter": ("jitter_ms", float),
         "loss": ("loss_pct", float), "queue": ("queue_pkts", int)}


def parse_link(spec: Optional[str]) -> LinkParams:
    """``fast-ethernet``, ``bw=100,loss=1``, or a profile with overrides: ``wifi-g,loss=2``.

    Units: bw in Mbit/s, delay and jitter in ms, loss in percent, queue in packets."""
    if not spec:
        return LinkParams()
    params = LinkParams()
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        if "=" not in part:
            if part not in PROFILES:
                raise UserError(f"unknown link profile {part!r}; known: {', '.join(PROFILES)} "
                                f"or KEY=VALUE with KEY in {', '.join(_KEYS)}")
            params = PROFILES[part]
            continue
        key, _, value = part.partition("=")
        key = key.strip()
        if key not in _KEYS:
            raise UserError(f"unknown link parameter {key!r}; known: {', '.join(_KEYS)}")
        field_name, conv = _KEYS[key]
        try:
            v = conv(value.strip().lower().removesuffix("ms").removesuffix("%").removesuffix("m"))
        except ValueError:
            raise UserError(f"link parameter {key}={value!r} is not a number")
        params = replace(params, **{field_name: v})
    return params


def params_from_mapping(d: dict, where: str) -> LinkParams:
    """Link parameters from a YAML mapping or Mininet link options (bw, delay, jitter, loss,
    max_queue_size / queue, profile)."""
    base = LinkParams()
    if d.get("profile"):
        base = parse_link(str(d["profile"]))
    fields = {}
    for key, (name, conv) in _KEYS.items():
        alias = {"queue": "max_queue_size"}.get(key)
        value = d.get(key, d.get(alias) if alias else None)
        if value is None:
            continue
        if isinstance(value, str):
            value = value.strip().lower().removesuffix("ms").removesuffix("%")
        try:
            fields[name] = conv(value)
        except (TypeError, ValueError):
            raise UserError(f"{where}: link parameter {key}={value!r} is not a number")
    return replace(base, **fields)
