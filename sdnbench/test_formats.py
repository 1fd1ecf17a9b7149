"""The output-format registry's invariants: every format has suffixes no other format claims,
every output's writers exist (named ones import), and a suffix its output has no writer for is
refused in one line."""

import pytest

from sdnbench.errors import UserError
from sdnbench.formats import BY_SUFFIX, FORMATS, Output, suffix_format


def _outputs() -> dict:
    from sdnbench.commands._results import MEASURED
    from sdnbench.commands.conformance import CELLS
    from sdnbench.commands.demo import DEMO
    from sdnbench.commands.history import PLOT
    from sdnbench.commands.netgap import GAP
    from sdnbench.compare import COMPARISON
    from sdnbench.report.export import EVALUATION, REPORT
    from sdnbench.store.export import SAMPLES
    return {"report": REPORT, "rfc8456": EVALUATION, "demo": DEMO, "compare": COMPARISON,
            "results export": SAMPLES, "measured": MEASURED, "net gap": GAP, "history": PLOT,
            "conformance": CELLS}


def test_every_format_has_its_own_lowercase_suffixes():
    seen = [s for f in FORMATS.values() for s in f.suffixes]
    assert len(seen) == len(set(seen)) == len(BY_SUFFIX)
    for name, f in FORMATS.items():
        assert f.name == name and f.suffixes and f.holds
        assert all(s.startswith(".") and s == s.lower() and len(s) > 1 for s in f.suffixes)


@pytest.mark.parametrize("name", list(_outputs()))
def test_every_writer_exists(name):
    out = _outputs()[name]
    for fmt in out.formats:
        w = out.writer(fmt)
        assert callable(w) or (callable(getattr(w, "write", None))), (name, fmt, w)
        if not callable(w) and FORMATS[fmt].stdout:       # an exporter module: printable ones render
            assert callable(getattr(w, "render", None)), (name, fmt)


def test_the_report_formats_print_as_the_registry_says():
    from sdnbench.report.export import REPORT
    assert [f for f in REPORT.formats if FORMATS[f].stdout] == ["md", "csv", "json"]
    assert [f for f in REPORT.formats if FORMATS[f].figures] == ["md", "html"]


def test_suffix_then_flag_decide_the_format():
    out = Output("the thing", {"md": print, "json": print})
    assert out.format_for("a/b.MARKDOWN") == "md" and out.format_for("x.json") == "json"
    assert out.format_for("x.weird", "json") == "json"
    assert suffix_format("x.tar.gz") is None and suffix_format("x.HTM") == "html"


@pytest.mark.parametrize("path,given,flag,msg", [
    ("x.csv", None, True, "-o x.csv: cannot tell the format from the extension; name a file ending in "
                          ".md, .json or give --format"),
    ("noext", None, False, "-o noext: cannot tell the format from the extension; name a file ending in .md, .json"),
    ("x.md", "csv", True, "--format csv: not a format of the thing (choose from md, json)"),
])
def test_an_unknown_suffix_or_format_is_refused_in_one_line(path, given, flag, msg):
    out = Output("the thing", {"md": print, "json": print})
    with pytest.raises(UserError) as e:
        out.format_for(path, given, flag)
    assert str(e.value) == msg and "\n" not in str(e.value)


def test_an_output_only_takes_formats_the_registry_knows():
    with pytest.raises(ValueError, match="xlsx"):
        Output("the sheet", {"xlsx": print})
    with pytest.raises(ValueError):
        Output("nothing", {})
