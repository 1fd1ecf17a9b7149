"""The highest load each side holds at N sessions (issue 50: "the highest load the engine holds
with 0 lost >= 0.9 of the highest the C client holds, same echo period").

`bench.py held` runs `scale --c-client` at each rate of `--rates`, lowest first: the C client
and then the engine bring up the same N sessions against the same responder and offer the same
load (`--rate` requests/s over all switches for `--load-loops` seconds, an echo from every
switch every `--echo-every-ms`). This module judges each run and finds the highest rate each
side held; the runs themselves are `bench.scale`'s.

A side **holds** a load when everything it sent over the load's loops was answered, requests
and echoes, and, for the engine, its sender kept up (it sent what was offered: a sender that
falls behind offers less than the load, so nothing lost would not be the load's). Both sides are
judged alike: the C client counts `lost` as sent − answered when its drain ends, with no
timeout; the engine's per-loop `lost` counts every request that passed its loss timeout (an
adaptive one, 10 × the recent latency up to `--timeout-ms`), answered late or not, so the
engine's unanswered requests are its `lost` less its `late` answers, plus what was still in
flight when its drain ended. Late answers (after the engine's timeout) are reported beside, not
counted as lost: the C client would count them answered. The load is given as round trips per
second: requests plus echoes, `rate + N * 1000 / echo_every_ms`.
"""


def round_trips_per_s(rate: float, switches: int, echo_every_ms: int) -> float:
    return rate + (switches * 1000 / echo_every_ms if echo_every_ms else 0)


def engine_unanswered(load: dict) -> dict:
    """The engine's `load` section (`bench.load_summary`): requests and echoes never answered, and
    the late answers (after the loss timeout) that the first count leaves out."""
    pl, after, ka = load["per_loop"], load.get("after_loops") or {}, load["keepalive"]
    late = sum(pl["late"]) + after.get("late", 0)
    return {"requests": sum(pl["lost"]) + after.get("lost", 0) - late + after.get("in_flight_at_stop", 0),
            "echoes": ka["lost"] - ka["late"] + ka["in_flight_at_stop"], "late_requests": late,
            "late_echoes": ka["late"]}


def engine_held(load: dict) -> bool:
    """Everything answered (late answers count as answered) and the sender kept up."""
    u = engine_unanswered(load)
    return load["sender_kept_up"] and u["requests"] == 0 and u["echoes"] == 0


def c_client_held(load: dict) -> bool:
    """The C client's load section (`cclient.run`): every request and echo answered."""
    return (load["lost"] == 0 and load["echo_lost"] == 0 and load["answered"] == load["sent"]
            and load["echo_answered"] == load["echo_sent"])


def judge(runs: list[dict], switches: int, echo_every_ms: int) -> dict:
    """From `scale` results at several rates: per rate whether each side held, the highest held
    by each (None: held none), and the engine's over the C client's in round trips/s (None when
    the C client held none; when it held every rate tried, its ceiling was not found and the
    ratio is a lower bound only for the engine: `c_client_held_every_rate` says so). A rate
    above one the side did not hold does not count as held even if it happened to (holding is
    judged as a ceiling: the highest rate below which every tried rate held)."""
    rows = sorted(({"rate": r["load"]["offered_per_s"],
                    "round_trips_per_s": round_trips_per_s(r["load"]["offered_per_s"], switches, echo_every_ms),
                    "engine_held": engine_held(r["load"]), "c_client_held": c_client_held(r["c_client"]["load"]),
                    "engine_unanswered": engine_unanswered(r["load"]),
                    "c_client_unanswered": {k: r["c_client"]["load"][k] for k in ("lost", "echo_lost")},
                    "p99_us": {"engine_worst_loop": max(r["load"]["per_loop"]["p99_us"]),
                               "c_client_whole_load": r["c_client"]["load"]["p99_us"]}}
                   for r in runs), key=lambda x: x["rate"])
    top = {}
    for side in ("engine", "c_client"):
        ceiling = None
        for row in rows:
            if not row[side + "_held"]:
                break
            ceiling = row["round_trips_per_s"]
        top[side] = ceiling
    ratio = (top["engine"] or 0) / top["c_client"] if top["c_client"] else None
    return {"rates": rows, "highest_held_round_trips_per_s": top, "engine_over_c_client": ratio,
            "c_client_held_every_rate": all(r["c_client_held"] for r in rows)}
