"""The highest load each side holds at N sessions (issue 50: "the highest load the engine holds
with 0 lost >= 0.9 of the highest the C client holds, same echo period").

`bench.py held` runs `scale --c-client` at each rate of `--rates`, lowest first: the C client
and then the engine bring up the same N sessions against the same responder and offer the same
load (`--rate` requests/s over all switches for `--load-loops` seconds, an echo from every
switch every `--echo-every-ms`). This module judges each run and finds the highest rate each
side held; the runs themselves are `bench.scale`'s.

A side **holds** a load when, over the load's loops, nothing it sent was lost (requests and
echoes) and, for the engine, its sender kept up (it sent what was offered: a sender that falls
behind offers less than the load, so its zero loss would not be the load's). A late answer
(after the loss timeout, counted as lost then answered) is a loss. The load is given as round
trips per second: requests plus echoes, `rate + N * 1000 / echo_every_ms`.
"""


def round_trips_per_s(rate: float, switches: int, echo_every_ms: int) -> float:
    return rate + (switches * 1000 / echo_every_ms if echo_every_ms else 0)


def engine_held(load: dict) -> bool:
    """The engine's `load` section (`bench.load_summary`): 0 lost, 0 late, echoes too, sender kept up."""
    pl = load["per_loop"]
    return (load["sender_kept_up"] and sum(pl["lost"]) == 0 and sum(pl["late"]) == 0
            and sum(pl["echo_lost"]) == 0 and load["keepalive"]["lost"] == 0)


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
                    "engine_held": engine_held(r["load"]), "c_client_held": c_client_held(r["c_client"]["load"])}
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
