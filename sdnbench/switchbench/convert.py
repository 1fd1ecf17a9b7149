"""``sdnbench.switch/1`` document -> one ``Result`` per test entry.

Raw series are copied as they are (every per-flow and per-probe sample); the switch's identity
(DESC stats: manufacturer, hardware, software, serial, datapath description; datapath id,
tables, buffers) and the target go into ``topology``, the switch's software into ``versions``.
A test that failed becomes a Result with status ``failed`` and its one-line error.
"""

from __future__ import annotations

from ..result import Result


def identity(doc: dict) -> dict:
    sw = doc.get("switch") or {}
    desc = sw.get("desc") or {}
    return {"manufacturer": desc.get("manufacturer"), "hardware": desc.get("hardware"),
            "software": desc.get("software"), "serial": desc.get("serial"),
            "datapath": desc.get("datapath"), "datapath_id": sw.get("datapath_id"),
            "n_tables": sw.get("n_tables"), "n_buffers": sw.get("n_buffers")}


def to_results(doc: dict, target: dict, params: dict, versions: dict) -> list:
    ident = identity(doc)
    what = " ".join(str(ident[k]) for k in ("hardware", "software") if ident.get(k))
    spec = f"{target.get('target')} ({what})" if what else str(target.get("target"))
    topology = {"kind": "switch-under-test", "spec": spec, **target, "switch": ident,
                "ports": doc.get("ports", []), "of_version": doc.get("of_version")}
    vers = dict(versions)
    if ident.get("software"):
        vers["switch"] = f"{ident.get('hardware') or ''} {ident['software']}".strip()
    clock_note = []
    if doc.get("tx_stamp_fallbacks"):
        clock_note = [f"{doc['tx_stamp_fallbacks']} probe sends got no kernel transmit stamp and were timed "
                      "in userspace just before send"]
    results = []
    for t in doc.get("tests", []):
        r = Result(kind="switch", benchmark=t["test"],
                   params={**params, "target": target.get("target"), "of": doc.get("of_version"),
                           **t.get("params", {})},
                   counters=dict(t.get("counters", {})), topology=topology, versions=vers,
                   notes=list(t.get("notes", [])) + clock_note)
        for s in t.get("series", []):
            r.add(s["metric"], s["unit"], s["values"], **s.get("labels", {}))
        if "error" in t:
            r.finish("failed", t["error"])
        else:
            r.finish()
        results.append(r)
    return results
