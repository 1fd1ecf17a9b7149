"""``sdnbench controller provisioning`` and ``sdnbench controller table-capacity``: RFC 8456
§5.1.4/§5.1.6 reactive path provisioning time and rate, and §5.2.3 forwarding-table capacity, on
the engine's emulated network (docs/rfc8456-provisioning.md).

    sdnbench controller provisioning --controller osken:learning --topo linear,4 --flows 200 --reps 3
    sdnbench controller provisioning --mode proactive --controller ryu:ofctl_rest --topo linear,4 --flows 100
    sdnbench controller table-capacity --controller osken:learning --topo linear,2 --flows 2000 --table-size 1000

Exit 2 when a trial provisioned no flow at all (the controller never provisions) or broke an
invariant; what was measured is kept (printed, -o, --store)."""

from __future__ import annotations

from ..outputs import Outputs
from .. import output
from ..campaign.plan import one_benchmark
from ..paramcheck import add_flags
from ..rfc8456 import provisioning as prov
from ..rfc8456 import provisioning_params as params
from ..rfc8456.provisioning_trial import trial
from ..rfc8456.stored import ProvisioningCounters
from ._results import end, run_trials


GROUP = "controller"      # a `sdnbench controller` subcommand (commands/_parser.members)


def _mode(family: str) -> dict:
    """``--mode`` of ``family`` (``provisioning``, ``table-capacity``): the modes of its tests in
    the table (``params.TESTS``, ``FAMILY-MODE``), the table's default."""
    modes = [t.removeprefix(family + "-") for t in params.TESTS.values() if t.startswith(family + "-")]
    default = params.PARAMS.defaults["test"]
    assert default in modes, (family, modes)
    return {"default": default, "choices": modes}


def add_to(s, common) -> None:
    p = s.add_parser("provisioning", help="RFC 8456 §5.1.4/§5.1.6 reactive path provisioning time and rate",
                     description=__doc__)
    common(p)
    p.add_argument("--mode", **_mode("provisioning"), help="reactive: the controller provisions on flow misses; proactive: paths requested "
                        "through its northbound API (ryu:ofctl_rest), misses dropped")
    _api_flags(p)
    _trial_flags(p)
    p.set_defaults(func=run_provisioning)
    t = s.add_parser("table-capacity", help="RFC 8456 §5.2.3 forwarding-table capacity (reactive, proactive)",
                     description=__doc__)
    common(t)
    t.add_argument("--mode", **_mode("table-capacity"), help="reactive: new flows until entries stop growing; proactive: push flows through the "
                        "northbound API until it refuses or the table is full")
    _api_flags(t)
    _trial_flags(t, flows=2000)
    t.set_defaults(func=run_table_capacity, concurrency=8)


API = ("api", "api_url")          # listed first, after --mode


def _api_flags(p) -> None:
    add_flags(p, params.Provisioning, only=API)


def _trial_flags(p, **defaults) -> None:
    """Every other flag of the suite's table (``provisioning_params.Provisioning``: each flag's
    type, default and help once, there); ``defaults``, the command's own."""
    add_flags(p, params.Provisioning, defaults, skip=API)


def build(args, benchmark: str) -> params.Provisioning:
    """The suite's typed parameters from the flags, every one checked
    (``rfc8456/provisioning_params.py``) before any controller starts."""
    test = {v: k for k, v in params.TESTS.items()}[benchmark]
    keys = set(params.DEFAULTS) | set(params.CLI_ONLY)
    return params.build({**{k: v for k, v in vars(args).items() if k in keys}, "test": test})


def _trials(args, outputs: Outputs, benchmark: str) -> list:
    """The trials as a one-benchmark plan on the campaigns' executor (``_results.run_trials``):
    the cells a ``provisioning`` campaign of these parameters would plan, each trial's Result
    in ``-o`` as it ends, each cell in ``--store`` as it ends, Ctrl-C/SIGTERM as a campaign's."""
    p = build(args, benchmark)
    cells = one_benchmark(p.benchmark, "provisioning", params.PARAMS.cell(p), repetitions=p.reps)
    return run_trials(outputs, cells, lambda cell: trial(p, cell.repetition), reps_in_params=True)


def _print(results: list, capacity: bool) -> None:
    rows = []
    for r in results:
        c = ProvisioningCounters.of(r)
        t = r.find("provisioning_time")[0].values if r.find("provisioning_time") else []
        mean = sum(t) / len(t) if t else None
        rate = r.find("provisioning_rate")[0].values[0] if r.find("provisioning_rate") else None
        rows.append([r.params["rep"], r.topology["k"], f"{c.provisioned}/{c.flows}", _f(mean), _f(max(t, default=None)),
                     _f(rate), f"{c.entries_on_path_min}..{c.entries_on_path_max}", c.table_full,
                     f"{c.table_capacity} ({c.table_limit})" if capacity else c.verdict])
    head = ["trial", "K", "provisioned", "mean ms", "max ms", "paths/s", "entries on path", "TABLE_FULL",
            "capacity (limit)" if capacity else "verdict"]
    print(output.table(head, rows, align="rrrrrrrrl"))
    means = [sum(v) / len(v) for r in results for s in r.find("provisioning_time") for v in [s.values] if v]
    rates = [s.values[0] for r in results for s in r.find("provisioning_rate")]
    for name, vals in (("time per path (ms, mean per trial)", means), ("rate (paths/s)", rates)):
        st = prov.stats(vals)
        if st["trials"]:
            print(f"RFC 8456 {name}: average {st['average']:.3f}, variance {st['variance']:.4g}, trials {st['trials']}")


def _f(x) -> str:
    return "-" if x is None else f"{x:.3f}" if x < 100 else f"{x:.0f}"


def _finish(outputs: Outputs, results: list, capacity: bool) -> int:
    if not outputs.json:
        _print(results, capacity)      # a failed trial's reason was said as it ended
    return end(outputs, results)


def run_provisioning(args, outputs: Outputs) -> int:
    return _finish(outputs, _trials(args, outputs, f"provisioning-{args.mode}"), capacity=False)


def run_table_capacity(args, outputs: Outputs) -> int:
    return _finish(outputs, _trials(args, outputs, f"table-capacity-{args.mode}"), capacity=True)

