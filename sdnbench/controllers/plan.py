"""The launch plan of a managed controller: its kind's plan (``kinds/``), after the OpenFlow
version was checked against what the controller speaks. It only reads (the environment
manifests, a config file's existence); ``lifecycle`` does the starting."""

from __future__ import annotations

from pathlib import Path

from ..errors import UserError
from .kinds import kind_of, spoken_versions
from .launchplan import LaunchPlan
from .parsed import ControllerSpec


def plan_for(spec: ControllerSpec, port: int, of_version: str, scratch: Path) -> LaunchPlan:
    """The launch plan for a controller sdnbench starts (not ``tcp:``)."""
    kind = kind_of(spec)
    if not kind.starts:
        raise ValueError(f"no launch plan for {spec.kind}")
    _check_of_version(spec, of_version)
    return kind.plan(spec, port, of_version, scratch)


def _check_of_version(spec: ControllerSpec, of_version: str) -> None:
    speaks = spoken_versions(spec)
    if speaks and of_version not in speaks:
        raise UserError(f"{spec.text} speaks OpenFlow {' and '.join(speaks)} only, "
                        f"not {of_version} (use --of {speaks[-1]})")
