"""One controller kind as a record: everything sdnbench decides by the part of a spec before ':'.

A kind's module (``osken.py``, ``ryu.py``, ...) builds its ``ControllerKind``; ``CONTROLLER_KINDS`` in
``__init__`` lists them. Nothing elsewhere asks ``spec.kind == ...``: it asks the record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import envs
from ..parsed import ControllerSpec


def _no_versions(spec: ControllerSpec) -> tuple:
    return ()


def _no_rows() -> list:
    return []


@dataclass(frozen=True)
class ControllerKind:
    """One kind of controller. ``parse(text, rest)`` gets the whole spec and what follows
    ``NAME:`` (None when there is no ':'); ``plan(spec, port, of_version, scratch)`` gives the
    ``LaunchPlan`` (None: sdnbench does not start it, ``tcp:``)."""
    name: str                                    # the spec's prefix: NAME:ARGUMENT
    form: str                                    # the spec in words, for error lines: "ryu:APP"
    parse: Callable                              # (text, rest or None) -> ControllerSpec
    plan: Optional[Callable] = None              # (spec, port, of_version, scratch) -> LaunchPlan
    versions: Callable = _no_versions            # spec -> the OpenFlow versions it speaks (() unknown)
    inventory: Callable = _no_rows               # () -> rows for `sdnbench controllers list`
    topology_api: dict = field(default_factory=dict)  # app -> northbound adapter its own API speaks
    flow_api: dict = field(default_factory=dict)      # app ("*": any) -> flow-push API it serves
    roles: dict = field(default_factory=dict)    # RFC 8456 role -> the sibling app that plays it
    traffic: Optional[str] = None                # engine traffic profile its packet-in tests need
    precheck: Optional[Callable] = None          # spec -> None or UserError, before anything starts
    resolve: Optional[Callable] = None           # (spec, topology) -> the spec to run (faucet:auto)
    api_at_launch: Optional[Callable] = None     # (spec, api) -> its API's URL is known once it runs
    ready_hint: str = ""                         # added to "did not become ready"
    doctor: Optional[str] = None                 # the `sdnbench doctor` check a campaign using it needs

    @property
    def starts(self) -> bool:
        """Does sdnbench start (and stop) it, or only connect to it?"""
        return self.plan is not None

    def own_topology_api(self, spec: ControllerSpec) -> Optional[str]:
        """The northbound adapter (``northbound/adapter.py``) the launched app's API speaks."""
        return self.topology_api.get(spec.app or "")

    def own_flow_api(self, spec: ControllerSpec) -> Optional[str]:
        """The flow-push API (``rfc8456/flow_push.py``) the launched app serves."""
        return self.flow_api.get(spec.app or "", self.flow_api.get("*"))

    def serves_api(self, spec: ControllerSpec, api: Optional[str]) -> bool:
        """Is the URL of northbound ``api`` (None: its own) known once sdnbench launched it?"""
        if self.api_at_launch is not None:
            return self.api_at_launch(spec, api)
        own = self.own_topology_api(spec)
        return own is not None and api in (None, own)


def installed_row(spec: str, controller: str, env: str, of_versions: tuple, summary: str) -> dict:
    """A ``controllers list`` row for a controller sdnbench installs in a virtualenv (``envs``)."""
    manifest = envs.manifest(env)
    return {"spec": spec, "controller": controller,
            "status": "installed" if manifest else "missing",
            "version": manifest["version"] if manifest else None,
            "of_versions": list(of_versions), "summary": summary,
            "how": "" if manifest else f"sdnbench controllers install {env}"}
