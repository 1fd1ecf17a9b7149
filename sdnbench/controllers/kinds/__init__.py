"""Controller kinds: one record each (``base.ControllerKind``), one line each in ``CONTROLLER_KINDS``.

A spec ``NAME:ARGUMENT`` names its kind by ``NAME``; the record says how the rest is parsed, how
the controller is started (or that it is not: ``tcp:``), the OpenFlow versions it speaks, its
rows in ``controllers list``, the northbound and flow-push APIs it serves, the sibling apps that
play the RFC 8456 roles, and what else differs between kinds. Everything reads this table;
a new kind is a module of this package and one line here (docs/extending.md).

| spec                 | kind                 | what runs                                          |
|----------------------|----------------------|----------------------------------------------------|
| ``osken:APP``        | ``osken``            | os-ken 4.x with an app sdnbench ships (``apps/``)  |
| ``ryu:APP``          | ``ryu``              | Ryu 4.34's ryu-manager with ``ryu.app.APP``        |
| ``faucet:PATH.yaml`` | ``faucet``           | Faucet with that config file                       |
| ``faucet:auto``      | ``faucet``           | Faucet with a config generated for the network     |
| ``ovs-testcontroller``| ``ovs-testcontroller``| Open vSwitch's test controller (learning switch) |
| ``tcp:HOST:PORT``    | ``tcp``              | a controller started elsewhere; nothing is run     |
| ``tls:HOST:PORT``    | ``tls``              | the same, over TLS (docs/tls.md)                   |
| ``cmd:COMMAND;opts`` | ``cmd``              | any controller, by its command line (``cmdspec``)  |
Every kind that sdnbench starts also runs over TLS with ``;tls`` after its spec
(``osken:learning;tls``): its plan passes the controller's certificate files (``tlsfiles``).
"""

from __future__ import annotations

from ..parsed import ControllerSpec
from . import cmd, faucet, osken, ovs_testcontroller, ryu, tcp, tls
from .base import ControllerKind

# In the order the error line and `controllers list` show them.
CONTROLLER_KINDS: dict = {k.name: k for k in (
    osken.KIND, ryu.KIND, faucet.KIND, ovs_testcontroller.KIND, tcp.KIND, tls.KIND, cmd.KIND,
)}


def kind_of(spec: ControllerSpec) -> ControllerKind:
    return CONTROLLER_KINDS[spec.kind]


def spoken_versions(spec: ControllerSpec) -> tuple:
    """The OpenFlow versions the controller speaks, as far as sdnbench knows (() = unknown)."""
    return kind_of(spec).versions(spec)


def with_role(role: str) -> list:
    """The specs of the apps that play RFC 8456 ``role`` (``osken:topology``, ...), for messages."""
    return [f"{k.name}:{k.roles[role]}" for k in CONTROLLER_KINDS.values() if role in k.roles]


__all__ = ["CONTROLLER_KINDS", "ControllerKind", "kind_of", "spoken_versions", "with_role"]
