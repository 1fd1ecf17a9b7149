"""The controller kinds table (``kinds/``): every record consistent with the registries it names,
and no kind decided anywhere else (no ``spec.kind == "..."``, no ``startswith("NAME:")``)."""

import ast
from pathlib import Path

import pytest

from sdnbench.controllers.kinds import CONTROLLER_KINDS, kind_of, spoken_versions, with_role
from sdnbench.controllers.spec import needed_traffic, parse_spec, sibling
from sdnbench.errors import UserError
from sdnbench.northbound.adapter import ADAPTERS
from sdnbench.rfc8456.flow_push import FLOW_APIS

PACKAGE = Path(__file__).resolve().parent.parent
EXAMPLES = {"osken": "osken:learning", "ryu": "ryu:simple_switch_13", "faucet": "faucet:/x.yaml",
            "ovs-testcontroller": "ovs-testcontroller", "tcp": "tcp:127.0.0.1:6653",
            "tls": "tls:127.0.0.1:6653",
            "cmd": "cmd:prog --port={port};of=1.0;http=http://{host}:{http_port}/"}
# Where a kind's name is still tested outside the table, and why that is not a kind decision.
KNOWN = {
    ("commands/controllers.py", "cmd:"): "the recipes of controllers list (catalog.EXTERNAL) are cmd: specs",
    ("net/backends/cluster.py", "tcp:"): "a tcp: address must be reachable from the cluster's servers",
    ("rfc8456/failover.py", "cmd:"): "a cmd: template with {role} and {peer} runs as master and standby",
    ("robustness/runner.py", "faucet:"): "Faucet's own background rate and Prometheus view (docs/robustness.md)",
}


def test_every_kind_is_its_key_and_parses_its_example():
    assert set(EXAMPLES) == set(CONTROLLER_KINDS)
    for name, kind in CONTROLLER_KINDS.items():
        assert kind.name == name and kind.form.startswith(name)
        assert kind_of(parse_spec(EXAMPLES[name])) is kind


def test_the_apis_and_roles_a_record_names_exist():
    for kind in CONTROLLER_KINDS.values():
        assert set(kind.topology_api.values()) <= set(ADAPTERS), kind.name
        assert set(kind.flow_api.values()) <= set(FLOW_APIS), kind.name
        for role, app in kind.roles.items():
            assert kind_of(parse_spec(f"{kind.name}:{app}")) is kind, (kind.name, role)
    assert with_role("topology") == ["osken:topology", "ryu:rest_topology"]
    assert sibling("ryu:simple_switch_13", "proactive") == "ryu:ofctl_rest"
    assert sibling("faucet:auto", "topology") is None


def test_what_the_records_decide():
    assert [k for k, v in CONTROLLER_KINDS.items() if not v.starts] == ["tcp", "tls"]
    assert needed_traffic("faucet:auto") == "faucet" and needed_traffic("osken:learning") is None
    assert needed_traffic("not a spec") is None
    assert spoken_versions(parse_spec(EXAMPLES["cmd"])) == ("1.0",)
    osken = CONTROLLER_KINDS["osken"]
    assert osken.serves_api(parse_spec("osken:topology"), None)
    assert osken.serves_api(parse_spec("osken:topology"), "osken")
    assert not osken.serves_api(parse_spec("osken:topology"), "ryu")
    assert not osken.serves_api(parse_spec("osken:learning"), "osken")
    assert CONTROLLER_KINDS["cmd"].serves_api(parse_spec(EXAMPLES["cmd"]), "onos")
    assert CONTROLLER_KINDS["ryu"].own_flow_api(parse_spec("ryu:anything")) == "ryu"
    assert CONTROLLER_KINDS["osken"].own_flow_api(parse_spec("osken:learning")) is None


def test_a_kind_that_takes_no_argument_refuses_one():
    with pytest.raises(UserError, match="takes no argument"):
        parse_spec("ovs-testcontroller:x")


def _kind_tests(path: Path) -> list:
    """(prefix) for each ``X.kind == "NAME"`` or ``X.startswith("NAME:")`` in one module."""
    found = []
    for n in ast.walk(ast.parse(path.read_text())):
        if isinstance(n, ast.Compare):
            sides = [n.left, *n.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "kind" for s in sides):
                found += [f"{s.value}:" for s in sides if isinstance(s, ast.Constant) and s.value in CONTROLLER_KINDS]
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "startswith":
            for a in n.args:
                for c in ([a] if isinstance(a, ast.Constant) else getattr(a, "elts", [])):
                    v = getattr(c, "value", None)
                    if isinstance(v, str) and v.endswith(":") and v[:-1] in CONTROLLER_KINDS:
                        found.append(v)
    return found


def test_no_module_outside_the_table_decides_by_kind():
    seen = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if path.name.startswith("test_") or path.name == "conftest.py" or rel.startswith(("testing/", "controllers/kinds/")):
            continue
        for prefix in _kind_tests(path):
            assert (rel, prefix) in KNOWN, f"{rel} decides by controller kind {prefix}: ask its record (controllers/kinds/)"
            seen.add((rel, prefix))
    assert seen == set(KNOWN), f"fixed: remove from KNOWN {sorted(set(KNOWN) - seen)}"


def test_the_scan_sees_a_kind_chain(tmp_path):
    f = tmp_path / "m.py"
    f.write_text('def f(spec, s):\n    if spec.kind == "ryu":\n        return s.startswith(("x", "faucet:"))\n')
    assert _kind_tests(f) == ["ryu:", "faucet:"]
