"""Campaign progress: cells done/total, elapsed, ETA and the current cell.

On a TTY one live line is rewritten in place, and redrawn every second by a small thread so the
clock moves during a long cell (failures and notes are printed above it and stay);
otherwise each cell start and end is one plain line, so logs and CI output stay readable. The
runner only calls ``begin``/``end``/``note``: it never prints itself (oha's split between
workers and the display).
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from typing import Callable, Optional, TextIO


def fmt_duration(seconds: Optional[float]) -> str:
    if seconds is None:
        return "?"
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else (f"{m}m{s:02d}s" if m else f"{s}s")


class Progress:
    def __init__(self, total: int, done: int = 0, stream: Optional[TextIO] = None,
                 live: Optional[bool] = None, clock: Callable[[], float] = time.monotonic,
                 tick: float = 1.0):
        stream = stream if stream is not None else sys.stderr
        self.total, self.done, self.stream, self.clock = total, done, stream, clock
        self.live = stream.isatty() if live is None else live
        self.start = clock()
        self.done_here = 0           # cells finished in this session (for the ETA)
        self.failed = 0
        self.current = ""
        self._cell_start = self.start
        self._last_end = self.start
        self._lock = threading.Lock()
        self._stop = threading.Event()
        if self.live and tick:
            # Redraw once a second so elapsed time and ETA move during a long cell.
            threading.Thread(target=self._tick, args=(tick,), daemon=True).start()

    def _tick(self, every: float) -> None:
        while not self._stop.wait(every):
            if self.current:
                self._live_line(f"{self.status()} · {self.current} ({fmt_duration(self.clock() - self._cell_start)})")

    def eta(self) -> Optional[float]:
        """Mean time of the cells finished in this session × cells left, less the time already
        spent on the current one."""
        if self.done_here == 0:
            return None
        per_cell = (self._last_end - self.start) / self.done_here
        return max(0.0, per_cell * (self.total - self.done) - (self.clock() - self._last_end))

    def status(self) -> str:
        pct = 100.0 * self.done / self.total if self.total else 100.0
        fail = f" {self.failed} failed" if self.failed else ""
        return (f"[{self.done}/{self.total}] {pct:3.0f}%{fail} elapsed {fmt_duration(self.clock() - self.start)}"
                f" eta {fmt_duration(self.eta())}")

    def begin(self, label: str) -> None:
        self.current = label
        self._cell_start = self.clock()
        if self.live:
            self._live_line(f"{self.status()} · {label}")
        else:
            self._print(f"[{self.done}/{self.total}] running {label}")

    def end(self, label: str, ok: bool, error: Optional[str] = None) -> None:
        self.done += 1
        self.done_here += 1
        self._last_end = self.clock()
        took = fmt_duration(self.clock() - self._cell_start)
        if not ok:
            self.failed += 1
            self._print(f"FAILED {label} ({took}): {error}")
        elif not self.live:
            self._print(f"{self.status()} ok {label} ({took})")
        self.current = ""
        if self.live:
            self._live_line(self.status())

    def note(self, message: str) -> None:
        self._print(message)

    def close(self) -> None:
        self._stop.set()
        if self.live:
            with self._lock:
                self.stream.write("\r\x1b[K" + self.status() + "\n")
                self.stream.flush()

    def _live_line(self, text: str) -> None:
        width = shutil.get_terminal_size((100, 20)).columns - 1
        with self._lock:
            self.stream.write("\r\x1b[K" + text[:width])
            self.stream.flush()

    def _print(self, text: str) -> None:
        if self.live:
            with self._lock:
                self.stream.write("\r\x1b[K" + text + "\n")
            if self.current:
                self._live_line(f"{self.status()} · {self.current}")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
