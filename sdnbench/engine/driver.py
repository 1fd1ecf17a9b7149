"""Run the ``sdnbench-engine`` binary and read its JSON (schema ``sdnbench.engine/1``).

The engine is started in its own session, so our Ctrl-C handling decides: on ``Interrupted`` it
gets SIGINT, writes its partial results, and we read them before re-raising. Its live display
goes to our stderr when ``live`` is set; otherwise its output is kept for error messages.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Optional

from .. import paths, procreg
from ..errors import Interrupted, UserError
from . import switches_file
from .result_types import EngineResult


def binary() -> Path:
    return paths.built_binary()


def version() -> str:
    cp = subprocess.run([str(binary()), "--version"], capture_output=True, text=True, timeout=10)
    return cp.stdout.strip().split()[-1] if cp.returncode == 0 and cp.stdout.strip() else "unknown"


def run(args: list, live: bool = False, timeout: Optional[float] = None, config: Optional[dict] = None) -> dict:
    """Run the engine with the JSON ``config`` (the engine's ``Config``) and extra ``args``
    (without --json); return its parsed JSON document, checked against the schema (a document
    that breaks it is ``EngineDocumentError``, naming the field; ``EngineResult`` reads it typed).

    Exit 0 and 2 both leave a document (2: the run failed, was partial or was interrupted; the
    document says which). Exit 1 is bad input: raised as the engine's one-line message."""
    with tempfile.TemporaryDirectory(prefix="sdnbench-engine-") as d:
        out = Path(d) / "result.json"
        argv = [str(binary())]
        if config is not None:
            cfg_path = Path(d) / "config.json"
            cfg_path.write_text(json.dumps(config))
            argv += ["--config", str(cfg_path)]
        argv += [*args, "--json", str(out)]
        if not live:
            argv.append("--quiet")
        proc = subprocess.Popen(argv, stdout=None if live else subprocess.PIPE,
                                stderr=None if live else subprocess.PIPE, text=True,
                                start_new_session=True, preexec_fn=procreg.dies_with_us())
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except Interrupted as e:
            _interrupt(proc)
            doc = read_document(out)
            if doc is not None:
                raise EngineInterrupted(doc, e.signum)
            raise
        except subprocess.TimeoutExpired:
            _interrupt(proc)
            raise UserError(f"sdnbench-engine did not finish within {timeout:g}s")
        finally:
            if proc.poll() is None:
                _kill(proc)
        if proc.returncode == 1:
            msg = (stderr or "").strip().splitlines()
            raise UserError(msg[-1] if msg else "sdnbench-engine rejected its arguments")
        doc = read_document(out)
        if doc is None:
            tail = (stderr or "").strip().splitlines()[-3:]
            raise RuntimeError(f"sdnbench-engine exited {proc.returncode} without a result: {' | '.join(tail)}")
        return doc


class EngineInterrupted(Interrupted):
    """Ctrl-C/SIGTERM during a run; carries the engine's partial document."""

    def __init__(self, doc: dict, signum: int = signal.SIGINT):
        super().__init__(signum)           # the signal that came (SIGTERM exits 143, not 130)
        self.doc = doc


def _interrupt(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        _kill(proc)


def _kill(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def read_document(path: Path) -> Optional[dict]:
    """The engine's document in ``path``, checked against its schema (``EngineDocumentError``
    naming the first field that breaks it); None when there is none (not written, or cut short).
    Per-switch records written beside it (``switches_file``) are read back into ``switches``."""
    try:
        doc = json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    EngineResult.from_json(doc)
    if isinstance(doc, dict) and "switches_file" in doc:
        # the records beside it (a run of many switches): back where an embedded result has them
        doc = switches_file.embed(doc, path.parent)
        EngineResult.from_json(doc)
    return doc
