"""The HTML report in a real headless Chromium (Debian's), with no network.

Keeps a screenshot under ``artifacts/`` (gitignored) and prints its path."""

import re

import pytest

from sdnbench.paths import REPO
from sdnbench.report import export_html
from sdnbench.report.browser import check_page
from sdnbench.report.builder import build
from sdnbench.report.conftest import campus_run, controller_run

pytestmark = pytest.mark.integration


def test_report_renders_with_every_table_and_plot_and_no_console_error(tmp_path):
    report = build([campus_run("mininet", switches=3), campus_run("prototype", switches=3, seed=7),
                    controller_run(switch_counts=(1, 2, 4), reps=3)])
    html = tmp_path / "report.html"
    export_html.write(report, html)
    shot = REPO / "artifacts" / "report-browser.png"
    page = check_page(html, screenshot=shot)
    print(f"\nscreenshot: {shot}")
    assert page.problems(expect_tables=len(report.all_tables()),
                         expect_figures=len(report.all_figures())) == []
    assert page.title == report.title and "Chrome" in page.chromium
    assert {f["kind"] for f in page.figures} == {"lines", "boxplot", "gap", "cdf", "resources"}
    assert all(f["natural"] == [800, 450] for f in page.figures)
    assert {"per_row", "gap", "trials", "best", "fields", "distribution"} <= {t["kind"] for t in page.tables}
    assert shot.stat().st_size > 10_000 and shot.read_bytes()[:4] == b"\x89PNG"
    # The answer comes first: the headline is above every table, plot and the metadata, and
    # says who won each metric, by how much and whether that is significant.
    assert page.headline_first(), (page.headline_top, page.first_item_top, page.header_top)
    text = page.headline
    assert "4 set-ups compared: mininet, prototype, osken:learning, ryu:simple_switch" in text
    assert re.search(r"throughput: ryu:simple_switch is [\d.]+ ± [\d.]+ times higher than", text), text
    assert "best scenario: 4 switches" in text and "1 switche" not in text


def test_the_check_catches_a_network_fetch_a_broken_image_and_a_missing_table(tmp_path):
    report = build([campus_run(switches=1, reps=1)], with_plots=False)
    html = export_html.render(report)
    # An outside image (blocked by the page's CSP, which Chromium logs as an error) and a
    # data: image that is not a PNG.
    bad = html.replace("</main>", '<figure class="plot"><img src="http://127.0.0.1:9/x.png" '
                       'width="800" height="450"><figcaption>ext</figcaption></figure>'
                       '<figure class="plot"><img src="data:image/png;base64,AAAA" width="800" '
                       'height="450"><figcaption>broken</figcaption></figure></main>')
    path = tmp_path / "bad.html"
    path.write_text(bad)
    problems = check_page(path).problems(expect_tables=len(report.all_tables()) + 1)
    text = "\n".join(problems)
    assert "console error" in text and "127.0.0.1:9" in text
    assert "'broken'" in text and "tables, expected" in text


def test_report_check_flag_renders_and_keeps_a_screenshot(tmp_path, capsys):
    from sdnbench.cli import main
    run = campus_run(switches=2, reps=2)
    d = tmp_path / "results"
    for i, r in enumerate(run.results):
        r.write_json(d / f"{i}.json")
    out = tmp_path / "r.html"
    assert main(["report", str(d), "-o", str(out), "--check"]) == 0
    assert "screenshot" in capsys.readouterr().out and out.with_suffix(".png").stat().st_size > 0
    assert main(["report", str(d), "-o", str(tmp_path / "r.md"), "--check"]) == 1
