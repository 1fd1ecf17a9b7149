"""``cmd:`` specs: parsing, options, variables and program lookup (pure, no controller runs)."""

import signal
import sys

import pytest

from sdnbench.controllers.cmdplan import cmd_plan
from sdnbench.controllers.cmdspec import expand, fill
from sdnbench.controllers.spec import parse_spec
from sdnbench.errors import UserError


def test_command_and_options_are_parsed():
    s = parse_spec("cmd:python3 pox.py openflow.of_01 --port={port} forwarding.l2_learning"
                   ";cwd=/var/lib/sdnbench/installed/pox;env=A=1;env=B=x=y;of=1.0;stop=INT;grace=2.5;name=pox;version=0.7")
    c = s.command
    assert s.kind == "cmd" and c.argv[0] == "python3" and c.argv[-1] == "forwarding.l2_learning"
    assert c.cwd == "/var/lib/sdnbench/installed/pox" and c.env == (("A", "1"), ("B", "x=y"))
    assert c.of_versions == ("1.0",) and c.stop_signal == signal.SIGINT and c.grace == 2.5
    assert (c.label, c.version) == ("pox", "0.7")


@pytest.mark.parametrize("spec, words", [
    ("cmd:", "needs a command line"),
    ("cmd:python3 pox.py --port=6633", "{port}"),
    ("cmd:x {port};colour=red", "unknown option 'colour=red'"),
    ("cmd:x {port};of=1.5", "of= takes"),
    ("cmd:x {port};stop=KILLME", "stop= takes"),
    ("cmd:x {port};grace=soon", "grace= takes"),
    ("cmd:x {port};ready=0", "ready= takes"),
    ("cmd:x {port};ready=nan", "ready= takes"),
    ("cmd:x {port};ready=-5", "ready= takes"),
    ("cmd:x {port};env=NOVALUE", "env= takes"),
    ("cmd:x {port};port=99999", "port= takes"),
    ("cmd:x {port} 'unclosed", "cannot split"),
])
def test_bad_specs_say_what_is_wrong(spec, words):
    with pytest.raises(UserError, match=None) as e:
        parse_spec(spec)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_fixed_port_replaces_the_placeholder():
    assert parse_spec("cmd:onos-service server;port=6653").command.port == 6653


def test_unset_variable_is_named():
    assert expand("s", "${POX_DIR}/pox.py", {"POX_DIR": "/srcs/pox"}) == "/srcs/pox/pox.py"
    with pytest.raises(UserError, match="POX_DIR is not set"):
        expand("s", "$POX_DIR/pox.py", {})


def test_placeholders_are_filled():
    assert fill("--port={port} --api={host}:{http_port} {other}", "127.0.0.1", 6633, 8181) == \
        "--port=6633 --api=127.0.0.1:8181 {other}"


def test_plan_finds_the_program_and_keeps_the_environment(tmp_path):
    prog = tmp_path / "ctl.sh"
    prog.write_text("#!/bin/sh\n")
    prog.chmod(0o755)
    spec = parse_spec("cmd:./ctl.sh --port={port};cwd=$D;env=X=$D;name=mine")
    plan = cmd_plan(spec, 7000, environ={"D": str(tmp_path), "PATH": "/usr/bin", "KEEP": "1"})
    assert plan.argv == [str(prog), "--port=7000"] and plan.cwd == tmp_path
    assert plan.env["KEEP"] == "1" and plan.env["X"] == str(tmp_path) and plan.name == "mine"


def test_a_missing_program_is_refused_before_anything_starts():
    with pytest.raises(UserError, match="no such program 'no-such-controller' on PATH"):
        cmd_plan(parse_spec("cmd:no-such-controller {port}"), 7000, environ={"PATH": "/usr/bin"})


def test_of_versions_are_checked_against_the_run():
    from sdnbench.controllers.plan import plan_for
    with pytest.raises(UserError, match="speaks OpenFlow 1.0 only, not 1.3"):
        plan_for(parse_spec("cmd:python3 x.py {port};of=1.0"), 7000, "1.3", None)


def test_display_names_are_short():
    from sdnbench.controllers.spec import display_name
    assert display_name("cmd:python3 /x/pox.py --port={port};name=pox") == "pox"
    assert display_name("cmd:/usr/venv/bin/python /x/tiny_of10.py {port}") == "cmd:python tiny_of10.py"
    assert display_name("osken:learning") == "osken:learning"


def test_ready_sets_the_start_up_limit_of_the_plan(tmp_path):
    assert parse_spec("cmd:x {port}").command.ready is None           # the launch's own (60 s)
    spec = parse_spec(f"cmd:{sys.executable} -c pass {{port}};ready=2.5")
    assert spec.command.ready == 2.5
    assert cmd_plan(spec, 6653).ready_s == 2.5
