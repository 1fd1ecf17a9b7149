"""``sdnbench demo`` end to end (the main job): real controller, Mininet and load engine; its
HTML report is then checked in headless Chromium like any other."""

import subprocess
import sys

import pytest

from sdnbench.paths import REPO
from sdnbench.report.browser import check_page

pytestmark = pytest.mark.integration


def test_demo_writes_an_html_report_that_renders(tmp_path):
    html = tmp_path / "demo.html"
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "demo", "--store", str(tmp_path / "store"),
                         "-o", str(html)], cwd=REPO, capture_output=True, text=True, timeout=900)
    assert cp.returncode == 0, cp.stderr[-3000:]
    assert f"HTML report: {html}" in cp.stdout
    shot = REPO / "artifacts" / "demo-report.png"
    page = check_page(html, screenshot=shot)
    print(f"\nscreenshot: {shot}")
    assert page.problems() == []
    kinds = {f["kind"] for f in page.figures}
    # Both parts ran: the network (rtt against packet size) and the engine (latency CDF).
    assert {"lines", "boxplot", "cdf", "resources"} <= kinds
    assert any(t["kind"] == "fields" for t in page.tables)
