"""``Outputs``: built once from the parsed arguments; the rescue of ``-o`` recorded on it."""

from argparse import Namespace
from pathlib import Path

import pytest

from sdnbench.commands import _results
from sdnbench.errors import UserError
from sdnbench.formats import Output
from sdnbench.outputs import Outputs
from sdnbench.result import Result

OUT = Output("the results", {"json": print, "csv": print})


def test_built_from_the_arguments_with_the_format_of_the_suffix_or_the_flag():
    o = Outputs.of(Namespace(output="r.csv", format=None, store="st", json=True, _output=OUT))
    assert (o.path, o.format, o.store, o.json, o.rescued) == ("r.csv", "csv", Path("st"), True, False)
    assert Outputs.of(Namespace(out="r.txt", format="json", _output=OUT)).format == "json"
    assert Outputs.of(Namespace()) == Outputs()                    # a command with none of them
    with pytest.raises(UserError, match="cannot tell the format"):
        Outputs.of(Namespace(output="r.pdf", format=None, _output=OUT))


def test_a_rescued_output_is_recorded_on_the_value_said_once_and_ends_with_2(monkeypatch, capsys):
    o = Outputs(path="/nowhere/r.json")
    monkeypatch.setattr(_results.output, "write_or_beside", lambda path, data: "/tmp/saved.json")
    r = Result("controller", "throughput", {}).finish()
    _results.save(o, [r])
    _results.save(o, [r, r])
    assert o.rescued and o.rescue.where == "/tmp/saved.json"
    assert capsys.readouterr().err.count("could not write /nowhere/r.json; the results are in /tmp/saved.json") == 1
    assert (o.exit_code(0), o.exit_code(3), Outputs().exit_code(0)) == (2, 3, 0)
