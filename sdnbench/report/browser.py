"""Render an HTML report in headless Chromium and say what a reader would see.

We talk the Chrome DevTools Protocol over ``--remote-debugging-pipe`` (the browser reads
commands on fd 3 and writes replies and events on fd 4, NUL-terminated JSON), so no websocket
library, WebDriver or downloaded browser is needed: only Debian's ``chromium``.

The browser runs with no network: the page is a local file, the report's CSP allows only
``data:`` images, and every request that is not ``file:`` or ``data:`` is recorded as a
failure. The browser runs in its own process group with a fresh profile directory, and is
stopped (group and all) however the check ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..errors import UserError
from ..proc import Tracked, wait_until

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                  "--disable-extensions", "--mute-audio", "--hide-scrollbars",
                  "--remote-debugging-pipe"]
VIEWPORT = (1280, 900)

# What the page shows, measured by the browser after layout.
_PROBE_JS = """(() => {
  const rect = e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
  const tables = [...document.querySelectorAll('table.report-table')].map(t => ({
    kind: t.dataset.kind, caption: (t.caption ? t.caption.textContent : ''),
    rows: t.tBodies.length ? [...t.tBodies].reduce((n, b) => n + b.rows.length, 0) : 0,
    cols: t.tHead ? t.tHead.rows[0].cells.length : 0, size: rect(t)}));
  const figures = [...document.querySelectorAll('figure.plot')].map(f => {
    const img = f.querySelector('img');
    return {kind: f.dataset.kind, caption: (f.querySelector('figcaption') || {}).textContent,
            complete: !!img && img.complete, natural: img ? [img.naturalWidth, img.naturalHeight] : [0, 0],
            attrs: img ? [+img.getAttribute('width'), +img.getAttribute('height')] : [0, 0],
            size: img ? rect(img) : [0, 0]};
  });
  const header = document.querySelector('header#run-meta');
  const hl = document.querySelector('[data-role=headline]');
  const top = e => e ? e.getBoundingClientRect().top + window.scrollY : -1;
  const first = document.querySelector('table.report-table, figure.plot');
  return {title: document.title, header: header ? header.textContent.length : 0,
          headline: hl ? hl.innerText : '', headline_top: top(hl), first_item_top: top(first),
          header_top: top(header),
          tables, figures, body: document.body ? document.body.innerText.length : 0};
})()"""


@dataclass
class PageCheck:
    url: str
    title: str = ""
    header_chars: int = 0
    tables: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    console_errors: list = field(default_factory=list)
    requests: list = field(default_factory=list)      # URLs the page asked for
    screenshot: Optional[str] = None
    chromium: str = ""
    headline: str = ""              # the headline section's text as rendered
    headline_top: float = -1        # its top, and the first table's or plot's, in page pixels
    first_item_top: float = -1
    header_top: float = -1          # the metadata header's top

    def headline_first(self) -> bool:
        """The headline is on the page above every table and plot, and above the metadata."""
        return bool(self.headline) and 0 <= self.headline_top < self.first_item_top \
            and self.headline_top < self.header_top

    def problems(self, expect_tables: Optional[int] = None,
                 expect_figures: Optional[int] = None) -> list:
        """Everything wrong with the page; empty when it is fine."""
        out = [f"console error: {e}" for e in self.console_errors]
        out += [f"network fetch: {u}" for u in self.requests
                if not u.startswith(("file:", "data:", "about:"))]
        if self.header_chars == 0:
            out.append("no run metadata header")
        if not self.headline_first():
            out.append("no headline above the tables, plots and metadata")
        if expect_tables is not None and len(self.tables) != expect_tables:
            out.append(f"{len(self.tables)} tables, expected {expect_tables}")
        if expect_figures is not None and len(self.figures) != expect_figures:
            out.append(f"{len(self.figures)} plots, expected {expect_figures}")
        for t in self.tables:
            if t["rows"] == 0 or t["cols"] == 0 or min(t["size"]) <= 0:
                out.append(f"empty table: {t['caption']!r}")
        for f in self.figures:
            if not f["complete"] or f["natural"] != f["attrs"] or min(f["natural"]) <= 0:
                out.append(f"plot {f['caption']!r}: image {f['natural']} not loaded at {f['attrs']}")
            elif f["size"][0] < 0.5 * f["attrs"][0] or f["size"][1] < 0.5 * f["attrs"][1]:
                out.append(f"plot {f['caption']!r}: shown at {f['size']}, expected ~{f['attrs']}")
        return out


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    raise UserError("chromium not found: install Debian's `chromium` package (make setup does)")


class _Pipe:
    """CDP over a pair of pipes: ``call`` waits for its reply and keeps events for later."""

    def __init__(self, to_browser: int, from_browser: int):
        self.w, self.r = to_browser, from_browser
        self.buf = b""
        self.next_id = 0
        self.events: list = []

    def call(self, method: str, params: Optional[dict] = None, session: Optional[str] = None,
             timeout: float = 30.0) -> dict:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            for m in self._read(deadline, f"{method} reply"):
                if m.get("id") == self.next_id:
                    if "error" in m:
                        raise RuntimeError(f"CDP {method}: {m['error']}")
                    return m.get("result", {})
                self.events.append(m)

    def wait_event(self, method: str, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method:
                    return self.events.pop(i)
            self.events.extend(self._read(deadline, method))

    def settle(self, quiet: float = 0.3, most: float = 3.0) -> None:
        """Keep what comes after the load event (a blocked image's console error, a late failed
        load), until nothing came for ``quiet`` seconds (``most`` at most): on a busy machine it
        may come after the probe, and a check must not depend on that race."""
        end = time.monotonic() + most
        while time.monotonic() < end:
            try:
                self.events.extend(self._read(min(end, time.monotonic() + quiet), "events"))
            except UserError:        # quiet that long; a chromium that exited says so at the next call
                return

    def _read(self, deadline: float, what: str) -> list:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([self.r], [], [], left)[0]:
            raise UserError(f"chromium: no {what} within the time limit")
        chunk = os.read(self.r, 1 << 20)
        if not chunk:
            raise UserError(f"chromium exited while waiting for {what}")
        self.buf += chunk
        *msgs, self.buf = self.buf.split(b"\0")
        return [json.loads(m) for m in msgs if m]


def _spawn_chromium(profile: Path, log: Path) -> tuple:
    """Start chromium with fd 3 (commands in) and fd 4 (replies out); return (Tracked, pipe)."""
    cmd_r, cmd_w = os.pipe()
    out_r, out_w = os.pipe()
    # Move the child's ends above 10 first, so the dup2 onto 3 and 4 cannot clobber each other.
    hi_r, hi_w = os.dup2(cmd_r, 100), os.dup2(out_w, 101)
    os.close(cmd_r)
    os.close(out_w)

    def child_fds() -> None:
        os.dup2(hi_r, 3)   # dup2 clears close-on-exec on the new descriptors
        os.dup2(hi_w, 4)

    argv = [chromium_path()] + CHROMIUM_FLAGS + [f"--user-data-dir={profile}",
                                                 f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
                                                 "about:blank"]
    log_file = open(log, "ab")
    try:
        popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log_file,
                                 stderr=subprocess.STDOUT, close_fds=False,
                                 preexec_fn=child_fds, start_new_session=True)
    finally:
        os.close(hi_r)
        os.close(hi_w)
    return Tracked(name="chromium", popen=popen, log_path=log, _log_file=log_file), _Pipe(cmd_w, out_r)


def check_page(html: Path, screenshot: Optional[Path] = None, timeout: float = 120.0) -> PageCheck:
    """Load ``html`` in headless Chromium; return what it rendered and every error it logged."""
    html = Path(html).resolve()
    if not html.exists():
        raise UserError(f"{html}: no such file")
    url = html.as_uri()
    check = PageCheck(url=url)
    with tempfile.TemporaryDirectory(prefix="sdnbench-chromium-") as tmp:
        tracked, pipe = _spawn_chromium(Path(tmp) / "profile", Path(tmp) / "chromium.log")
        try:
            check.chromium = pipe.call("Browser.getVersion", timeout=timeout).get("product", "")
            _load_and_probe(pipe, url, check, screenshot, timeout)
            try:
                pipe.call("Browser.close", timeout=10)
            except (UserError, RuntimeError):
                pass
        finally:
            tracked.stop(grace=5)
            _reap_group(tracked.pid)
            os.close(pipe.w)
            os.close(pipe.r)
    return check


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _reap_group(pgid: int) -> None:
    """Chromium's helpers outlive its main process by a moment: wait for the whole group
    (ours, by its id), and kill what is left after 5 s."""
    try:
        wait_until(lambda: not _group_alive(pgid), 5, "chromium's helper processes to exit")
    except UserError:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


def _load_and_probe(pipe: _Pipe, url: str, check: PageCheck, screenshot: Optional[Path],
                    timeout: float) -> None:
    targets = pipe.call("Target.getTargets")["targetInfos"]
    page = next(t for t in targets if t["type"] == "page")
    session = pipe.call("Target.attachToTarget", {"targetId": page["targetId"],
                                                  "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        pipe.call(f"{domain}.enable", session=session)
    pipe.call("Emulation.setDeviceMetricsOverride",
              {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1,
               "mobile": False}, session=session)
    pipe.events.clear()
    nav = pipe.call("Page.navigate", {"url": url}, session=session, timeout=timeout)
    if nav.get("errorText"):
        raise UserError(f"chromium could not open {url}: {nav['errorText']}")
    _wait_loaded(pipe, session, url, timeout)
    pipe.settle()
    probe = pipe.call("Runtime.evaluate", {"expression": _PROBE_JS, "returnByValue": True},
                      session=session)["result"]["value"]
    check.title, check.header_chars = probe["title"], probe["header"]
    check.tables, check.figures = probe["tables"], probe["figures"]
    check.headline, check.headline_top = probe["headline"], probe["headline_top"]
    check.first_item_top, check.header_top = probe["first_item_top"], probe["header_top"]
    if screenshot is not None:
        _screenshot(pipe, session, Path(screenshot))
        check.screenshot = str(screenshot)
    _collect(pipe.events, check)


def _wait_loaded(pipe: _Pipe, session: str, url: str, timeout: float) -> None:
    """Until the load event, or until the document says it is complete (in case the event
    raced the navigation reply on a busy machine)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            pipe.wait_event("Page.loadEventFired", min(2.0, max(0.1, deadline - time.monotonic())))
            return
        except UserError:
            state = pipe.call("Runtime.evaluate",
                              {"expression": "[document.readyState, location.href]",
                               "returnByValue": True}, session=session)
            if state.get("result", {}).get("value") == ["complete", url]:
                return
            if time.monotonic() >= deadline:
                raise UserError(f"chromium: the report did not finish loading within {timeout:g}s")


def _screenshot(pipe: _Pipe, session: str, path: Path) -> None:
    import base64
    size = pipe.call("Page.getLayoutMetrics", session=session)["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": VIEWPORT[0], "height": min(size["height"], 16000), "scale": 1}
    shot = pipe.call("Page.captureScreenshot", {"format": "png", "clip": clip,
                                                "captureBeyondViewport": True},
                     session=session, timeout=60)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))


def _collect(events: list, check: PageCheck) -> None:
    urls = {e["params"].get("requestId"): e["params"].get("request", {}).get("url", "")[:200]
            for e in events if e.get("method") == "Network.requestWillBeSent"}
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            check.console_errors.append(" ".join(str(a.get("value", a.get("description", "")))
                                                 for a in p.get("args", [])))
        elif m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            check.console_errors.append(d.get("exception", {}).get("description") or d.get("text", "exception"))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            check.console_errors.append(p["entry"].get("text", ""))
        elif m == "Network.requestWillBeSent":
            check.requests.append(p.get("request", {}).get("url", "")[:200])
        elif m == "Network.loadingFailed":
            check.console_errors.append(f"load failed: {p.get('errorText')}"
                                        + (f" ({urls[p['requestId']]})" if urls.get(p.get("requestId")) else ""))
