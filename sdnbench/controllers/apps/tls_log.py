"""The controller's own record of its first TLS sessions (docs/tls.md): os-ken hands every
accepted session to ``datapath_connection_factory``; this wraps it to log, for the first
``SHOWN`` sessions, the TLS version, the cipher suite and the switch certificate's subject, read
from the socket os-ken itself made. Plain TCP sessions are not logged. Run in os-ken's python,
beside ``launcher.py``."""

import itertools
import logging

SHOWN = 3


def _subject(cert):
    return ",".join(f"{k}={v}" for rdn in (cert or {}).get("subject", ()) for k, v in rdn) or "none"


def install(controller_module):
    original = controller_module.datapath_connection_factory
    seen = itertools.count(1)
    logger = logging.getLogger("sdnbench.launcher")

    def factory(sock, address):
        version = getattr(sock, "version", None)
        if callable(version):
            n = next(seen)
            if n <= SHOWN:
                cipher = sock.cipher() or ("?",)
                logger.info("sdnbench launcher: TLS session %d from %s:%s: %s %s, switch certificate %s%s",
                            n, address[0], address[1], version(), cipher[0], _subject(sock.getpeercert()),
                            "; later TLS sessions are not logged" if n == SHOWN else "")
        return original(sock, address)

    controller_module.datapath_connection_factory = factory
