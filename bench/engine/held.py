"""The highest load each side holds at N sessions (issue 50: "the highest load the engine holds
with 0 lost >= 0.9 of the highest the C client holds, same echo period").

`bench.py held` runs `scale --c-client` at each rate of `--rates`, lowest first: the C client
and then the engine bring up the same N sessions against the same responder and offer the same
load (`--rate` requests/s over all switches for `--load-loops` seconds, an echo from every
switch every `--echo-every-ms`). This module judges each run and finds the highest rate each
side held; the runs themselves are `bench.scale`'s. The load is given as round trips per second:
requests plus echoes, `rate + N * 1000 / echo_every_ms`.

**One rule for both sides.** Both stop sending at the load's end and then drain for the same
time, `drain_ms(T)` = the loss timeout T (`--timeout-ms`), at most `DRAIN_MAX_MS`; each ends its
drain early once nothing is in flight (the engine: `Shared::drain_end_ns`,
crates/engine/src/switch/shared.rs; the C client: hsclient.c's DRAIN_MS). At the drain's end
every request (and every echo) is one of:
- **answered**, in time or **late** (after its timeout): an answer is an answer, late ones are
  counted beside;
- **lost**: no answer, and its timeout had passed: it had its whole chance;
- **unsettled**: no answer, and its timeout had not passed when the drain ended: neither shown
  answered nor shown lost.
Latency and timeouts run from each request's scheduled send time on both sides. The C client's
timeout is T; the engine's is adaptive (10 x its recent latency, at most T), so it calls a slow
answer late sooner; late answers count as answered, so the verdict does not depend on it.

**Verdicts**, per side and rate:
- `held`: nothing lost, nothing unsettled (the engine also sent what was offered: a sender
  that falls behind offers less than the load, and nothing lost would not be the load's);
- `unsettled`: nothing lost, but N requests or echoes unsettled ("0 lost, N unsettled");
- `lost`: something lost; `sender behind`: the engine's sender fell behind.
Only `held` counts towards a side's ceiling. An `unsettled` load is reported as its own verdict
but does not count as held: holding is a claim that the load was carried, and an unsettled
request was not shown answered. With the drain as long as the timeout (T <= `DRAIN_MAX_MS`, as in
`bench.py held`: T = 2 s), a request due before the load's end has had its whole timeout by the
drain's end, so a side that keeps its own clock has nothing unsettled: the C client never does,
and the engine only when its loss timer had not run by then (a worker behind) or a session was
stopped 0.5 s after the drain's end (`driver/requests.rs`), which is the engine not keeping up.
With T > `DRAIN_MAX_MS`, an unsettled request has waited at least `DRAIN_MAX_MS` (10 s).

Before this rule the engine drained min(T, 1 s) and the C client a fixed 2 s with no timeout, so
a request of the engine still in flight at 1 s counted as unanswered while the C client's had
2 s (docs/million.md, "At 1,000,000, quiet").
"""

from __future__ import annotations

DRAIN_MAX_MS = 10_000   # the engine's DRAIN_MAX_MS (crates/engine/src/switch/shared.rs; a test compares)
KINDS = ("answered", "late", "lost", "unsettled")


def drain_ms(timeout_ms: int) -> int:
    """The drain after the load's end on both sides: the timeout, at most DRAIN_MAX_MS."""
    return min(timeout_ms, DRAIN_MAX_MS)


def round_trips_per_s(rate: float, switches: int, echo_every_ms: int) -> float:
    return rate + (switches * 1000 / echo_every_ms if echo_every_ms else 0)


def engine_account(load: dict) -> dict:
    """The engine's `load` section (`bench.load_summary`) as requests and echoes answered (late
    included), late, lost and unsettled. The engine counts a request `lost` when it times out,
    answered late afterwards or not, and `late` when such an answer comes; `in_flight_at_stop`
    is what was within its timeout when the drain ended."""
    pl, after, ka = load["per_loop"], load.get("after_loops") or {}, load["keepalive"]
    late = sum(pl["late"]) + after.get("late", 0)
    timed_out = sum(pl["lost"]) + after.get("lost", 0)
    return {"requests": {"answered": sum(pl["answered"]) + after.get("answered", 0) + late, "late": late,
                         "lost": timed_out - late, "unsettled": after.get("in_flight_at_stop", 0)},
            "echoes": {"answered": ka["answered"] + ka["late"], "late": ka["late"], "lost": ka["lost"] - ka["late"],
                       "unsettled": ka["in_flight_at_stop"]}}


def c_client_account(load: dict) -> dict:
    """The C client's load section (`cclient.run`) alike. Results written before the drain's
    rule had neither `late` nor `unsettled`: every request unanswered at the end was `lost`."""
    return {"requests": {"answered": load["answered"], "late": load.get("late", 0), "lost": load["lost"],
                         "unsettled": load.get("unsettled", 0)},
            "echoes": {"answered": load["echo_answered"], "late": load.get("echo_late", 0),
                       "lost": load["echo_lost"], "unsettled": load.get("echo_unsettled", 0)}}


def verdict(account: dict, sender_kept_up: bool = True) -> str:
    """held, unsettled, lost or sender behind (the module's doc says which is which)."""
    total = {k: account["requests"][k] + account["echoes"][k] for k in ("lost", "unsettled")}
    if not sender_kept_up:
        return "sender behind"
    if total["lost"]:
        return "lost"
    return "unsettled" if total["unsettled"] else "held"


def _side(account: dict, v: str) -> dict:
    return {"verdict": v, "held": v == "held", **account}


def judge(runs: list[dict], switches: int, echo_every_ms: int) -> dict:
    """From `scale` results at several rates: per rate each side's verdict and account, the
    highest held by each (None: held none), and the engine's over the C client's in round trips/s
    (None when the C client held none; when it held every rate tried, its ceiling was not found
    and the ratio is an upper bound: `c_client_held_every_rate` says so). A
    rate above one the side did not hold does not count as held even if it happened to (holding
    is judged as a ceiling: the highest rate below which every tried rate held)."""
    rows = []
    for r in runs:
        e, c = engine_account(r["load"]), c_client_account(r["c_client"]["load"])
        rows.append({"rate": r["load"]["offered_per_s"],
                     "round_trips_per_s": round_trips_per_s(r["load"]["offered_per_s"], switches, echo_every_ms),
                     "engine": _side(e, verdict(e, r["load"]["sender_kept_up"])), "c_client": _side(c, verdict(c)),
                     "p99_us": {"engine_worst_loop": max(r["load"]["per_loop"]["p99_us"]),
                                "c_client_whole_load": r["c_client"]["load"]["p99_us"]}})
    rows.sort(key=lambda x: x["rate"])
    top = {}
    for side in ("engine", "c_client"):
        ceiling = None
        for row in rows:
            if not row[side]["held"]:
                break
            ceiling = row["round_trips_per_s"]
        top[side] = ceiling
    ratio = (top["engine"] or 0) / top["c_client"] if top["c_client"] else None
    c_load = runs[0]["c_client"]["load"] if runs else {}
    return {"rule": {"timeout_ms": c_load.get("timeout_ms"), "drain_ms": c_load.get("drain_ms")},
            "rates": rows, "highest_held_round_trips_per_s": top, "engine_over_c_client": ratio,
            "c_client_held_every_rate": all(r["c_client"]["held"] for r in rows)}


def _label(s: dict) -> str:
    n = s["requests"]["unsettled"] + s["echoes"]["unsettled"]
    return {"held": "held", "unsettled": f"0 lost, {n} unsettled", "lost": "not held",
            "sender behind": "not held (sender behind)"}[s["verdict"]]


def table(j: dict, switches: int, echo_every_ms: int) -> str:
    """The printed summary: per rate each side's verdict with its lost/late/unsettled requests
    and echoes, then each side's ceiling and their ratio."""
    rule = j.get("rule") or {}
    out = [f"held: {switches:,} switches, an echo from each every {echo_every_ms:,} ms; timeout "
           f"{rule.get('timeout_ms')} ms, drain {rule.get('drain_ms')} ms on both sides",
           f"{'requests/s':>10} {'trips/s':>9}  {'side':<8} {'verdict':<26} {'lost':>7} {'late':>7} {'unsettled':>9}"
           f"  {'echoes lost/late/unsettled':>26}"]
    for r in j["rates"]:
        for side, name in (("c_client", "C client"), ("engine", "engine")):
            s, q, e = r[side], r[side]["requests"], r[side]["echoes"]
            out.append(f"{r['rate']:>10,.0f} {r['round_trips_per_s']:>9,.0f}  {name:<8} {_label(s):<26} {q['lost']:>7,}"
                       f" {q['late']:>7,} {q['unsettled']:>9,}  {e['lost']:>10,}/{e['late']:,}/{e['unsettled']:,}")
    top, ratio = j["highest_held_round_trips_per_s"], j["engine_over_c_client"]
    fmt = lambda v: "none" if v is None else f"{v:,.0f} round trips/s"
    out.append(f"highest held: engine {fmt(top['engine'])}, C client {fmt(top['c_client'])}"
               + (" (held every rate tried: its ceiling is higher)" if j["c_client_held_every_rate"] and j["rates"] else ""))
    out.append("engine / C client: " + ("none (the C client held no rate)" if ratio is None else
               f"{ratio:.2f}" + (" (an upper bound: the C client's ceiling was not reached)" if j["c_client_held_every_rate"] else "")))
    return "\n".join(out)
