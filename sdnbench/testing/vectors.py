"""os-ken's own bytes for each message (``crates/ofwire/tests/vectors/osken_of{10,13}.json``,
made by ``tools/ofvectors/gen_osken.py`` from os-ken's message classes): the known answers the
Python encoder and readers are checked against. Read from the tree."""

from __future__ import annotations

import json
from pathlib import Path

DIR = Path(__file__).resolve().parents[2] / "crates" / "ofwire" / "tests" / "vectors"


def osken(version: str) -> dict:
    """Vector name -> {"hex", "expect", ...} for OpenFlow "10" or "13"."""
    doc = json.loads((DIR / f"osken_of{version}.json").read_text())
    return {v["name"]: v for v in doc["vectors"]}


def message(v: dict) -> bytes:
    return bytes.fromhex(v["hex"])
