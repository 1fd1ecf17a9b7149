"""Trials → one ``Result`` (kind controller, benchmark ``topology-discovery``) with the RFC 8456
§4.8 fields, a row per trial, and the mean and variance over the successful trials (§4.7:
mean = Σx/n, variance = Σ(x−mean)²/(n−1)); only successful trials count (§5.1.1)."""

from __future__ import annotations

import statistics
from typing import Optional

from ..engine import driver
from ..result import Result


def mean_var(xs: list) -> tuple:
    if not xs:
        return None, None
    return statistics.fmean(xs), (statistics.variance(xs) if len(xs) > 1 else 0.0)


def rfc_fields(controller: dict, topo: str, switches: int, links: int, verification: str,
               api: Optional[str], of_version: Optional[str]) -> dict:
    """The §4.8 report fields this test knows."""
    return {"controller": f"{controller.get('name')} {controller.get('version')}".strip(),
            "controller_app": controller.get("app"),
            "southbound": f"OpenFlow {of_version or controller.get('of_version') or 'negotiated'}",
            "northbound": api or "none (southbound verification)", "setup": "standalone",
            "encrypted": False, "network_device": "emulated (sdnbench-engine)",
            "topology": topo, "nodes": switches, "links": links, "test_traffic": "LLDP/BDDP probes only",
            "verification": verification}


def to_result(benchmark: str, params: dict, trials: list, controller: dict, fields: dict) -> Result:
    r = Result(kind="controller", benchmark=benchmark, params=params)
    r.controller = controller
    r.topology = {"spec": fields["topology"], "switches": fields["nodes"], "links": fields["links"]}
    ok = [t for t in trials if t["state"] == "complete" and t.get("discovery_s") is not None]
    r.add("discovery_time", "s", [t["discovery_s"] for t in ok])
    rfc = [t["southbound"]["rfc_dt_s"] for t in ok if t["southbound"].get("rfc_dt_s") is not None]
    r.add("discovery_rfc_dt", "s", rfc)
    m, v = mean_var([t["discovery_s"] for t in ok])
    r.counters.update({"rfc8456": fields, "trials": trials, "trials_complete": len(ok),
                       "trials_total": len(trials), "discovery_mean_s": m, "discovery_variance_s2": v})
    r.versions["sdnbench-engine"] = driver.version()
    bad = [t for t in trials if t["state"] != "complete"]
    for t in bad:
        r.notes.append(describe(t))
    if not ok:
        return r.finish("failed", describe(trials[-1]) if trials else "no trial ran")
    return r.finish()


def largest_view(t: dict) -> Optional[tuple]:
    """(link directions, s) of the largest view any poll of the trial saw, the earliest if tied."""
    sizes = [(n, at) for at, n in t.get("view_sizes") or [] if n is not None]
    return max(sizes, key=lambda x: (x[0], -(x[1] or 0))) if sizes else None


def describe(t: dict) -> str:
    """One line for a trial: complete in X s, or incomplete with M of N and the missing links."""
    how = t.get("verification")
    if t["state"] == "complete":
        return f"complete in {t['discovery_s']:.3f} s ({how})"
    if t["state"] == "failed":
        return f"failed: {t.get('note')}"
    miss = t.get("missing") or []
    named = ", ".join(miss[:8]) + (f" and {len(miss) - 8} more" if len(miss) > 8 else "")
    line = f"{t['state']}: {t.get('seen', 0)} of {t.get('want', 0)} link directions ({how})"
    peak = largest_view(t)
    if peak and peak[0] > t.get("seen", 0) and peak[1] is not None:
        line += f"; its view had {peak[0]} at {peak[1]:.1f} s and lost links again"
    if named:
        line += f"; missing {named}"
    why = t.get("why_missing")
    if why and any(why.values()):
        line += (f"; of those directions, {why['never_probed']} never carried a probe, "
                 f"{why['dropped_by_switch']} carried probes the switch did not raise to the controller, "
                 f"{why['raised']} were raised to the controller (its view lost them)")
    if t.get("northbound_error"):
        line += f"; {t['northbound_error']}"
    return line
