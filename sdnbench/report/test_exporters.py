import base64
import csv
import io
import json
import re
import struct

import pytest

from sdnbench.errors import UserError
from sdnbench.report import export_csv, export_html, export_json
from sdnbench.report.builder import build
from sdnbench.report.conftest import campus_run, controller_run
from sdnbench.report.export import REPORT, write


@pytest.fixture(scope="module")
def report():
    return build([campus_run("mininet", switches=2), campus_run("prototype", switches=2, seed=4),
                  controller_run(switch_counts=(1, 2), reps=3)], now=0)


def _png_size(data: bytes) -> tuple:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_markdown_has_every_table_with_its_summary_rows_and_links_figures(tmp_path, report):
    paths = write(report, tmp_path / "r.md", "md")
    text = (tmp_path / "r.md").read_text()
    assert text.count("\n**") >= len(report.all_tables())
    assert "| **avg** |" in text and "| **stdev** |" in text and "| **var** |" in text
    assert "| **average** |" in text and "| **variance** |" in text and "| **Gap** |" in text
    figs = re.findall(r"!\[[^]]*\]\((r_files/fig\d+\.png)\)", text)
    assert len(figs) == len(report.all_figures()) == len(paths) - 1
    assert all((tmp_path / f).exists() for f in figs)


def test_csv_has_one_row_per_cell_with_factor_columns(report):
    rows = list(csv.DictReader(io.StringIO(export_csv.render(report))))
    assert len(rows) == len(report.cells)
    assert {"switch", "size", "controller", "switches", "mean", "var"} <= set(rows[0])
    assert all(float(r["n"]) >= 1 for r in rows)


def test_json_round_trips_with_schema_and_no_images(report):
    d = json.loads(export_json.render(report))
    assert d["schema"] == "sdnbench.report/1"
    assert sum(len(s["tables"]) for s in d["sections"]) == len(report.all_tables())
    assert "png" not in json.dumps(d["sections"])


def test_html_is_self_contained_with_inline_images_of_the_stated_size(report):
    html = export_html.render(report)
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", html)
    assert "<script" not in html and "<link" not in html
    imgs = re.findall(r'src="data:image/png;base64,([^"]+)" width="(\d+)" height="(\d+)"', html)
    assert len(imgs) == len(report.all_figures())
    for data, w, h in imgs:
        assert _png_size(base64.b64decode(data)) == (int(w), int(h))
    assert html.count('<table class="report-table"') == len(report.all_tables())
    assert '<header id="run-meta">' in html
    for i, _sec in enumerate(report.sections, 1):     # the contents link to every section
        assert f'href="#s{i}"' in html and f'<section id="s{i}"><h2>' in html


def test_text_from_results_is_escaped_in_html():
    run = campus_run(switches=1, reps=1)
    run.label = "<script>alert(1)</script>"
    html = export_html.render(build([run], now=0, with_plots=False))
    assert "<script>alert" not in html and "&lt;script&gt;" in html


def test_format_comes_from_the_flag_or_the_file_name():
    assert REPORT.format_for("x.html", None) == "html" and REPORT.format_for("x.out", "csv") == "csv"
    assert REPORT.format_for("X.HTM") == "html" and REPORT.format_for("x.markdown") == "md"
    with pytest.raises(UserError, match="--format"):
        REPORT.format_for("x.txt", None)
