"""sdnbench's os-ken launcher: os-ken 4.x on PyPI ships no ``osken-manager``, so this is ours.

Run with the os-ken virtualenv's python (never sdnbench's own):

    python launcher.py --ofp-listen-host 127.0.0.1 --ofp-tcp-listen-port 6653 \
        --sdnbench-of-version 1.3 learning [topology ...]

App names are modules in this directory. It does what a manager does: parse os-ken's options,
load the apps, create their contexts, run them until a signal, and close them. It adds options
of its own: ``--sdnbench-of-version`` (restrict the OpenFlow versions offered),
``--sdnbench-api-port`` (the loopback port of the topology app's HTTP API) and
``--sdnbench-peer`` (the takeover app's role and the loopback port it shares with its peer).
"""

import logging
import os
import signal
import sys
import threading

from os_ken.lib import hub

hub.patch(thread=True)

import native_hub  # noqa: E402  (beside this file)
import false_eof  # noqa: E402  (beside this file)
import tls_log  # noqa: E402  (beside this file)

EVENT_REPAIRED = native_hub.repair(hub)

from os_ken import cfg, log  # noqa: E402
from os_ken.base.app_manager import AppManager  # noqa: E402
from os_ken.ofproto import ofproto_protocol, ofproto_v1_0, ofproto_v1_3  # noqa: E402
import os_ken.controller.controller  # noqa: E402  (registers the --ofp-* options)
import os_ken.topology.switches  # noqa: E402,F401  (registers --observe-links before parsing)

HERE = os.path.dirname(os.path.abspath(__file__))
CLOSE_GRACE = 1.0     # closing is a courtesy: nothing of ours persists across runs
VERSIONS = {"1.0": ofproto_v1_0.OFP_VERSION, "1.3": ofproto_v1_3.OFP_VERSION}

CONF = cfg.CONF
CONF.register_cli_opts([
    cfg.MultiStrOpt("app", positional=True, default=[], help="sdnbench apps to run"),
    cfg.StrOpt("sdnbench-of-version", default="any", choices=["any", "1.0", "1.3"],
               help="offer only this OpenFlow version"),
    cfg.IntOpt("sdnbench-api-port", default=0, help="loopback port of the topology app's HTTP API"),
    cfg.StrOpt("sdnbench-peer", default="",
               help="takeover app: master:PORT (listen on loopback PORT) or slave:PORT (watch it)"),
])


APPS = ("learning", "hub", "passthrough", "multitable", "topology", "flowpush", "reroute", "takeover")


def app_modules(names):
    """Check the app names; a wrong one exits with a one-line message."""
    for name in names:
        if name not in APPS:
            sys.exit(f"launcher: unknown app {name!r}; available: {', '.join(APPS)}")
    return list(names)


def restrict_versions(app_mgr, wanted):
    """Intersect the apps' versions with the requested one, failing clearly if that is empty."""
    offered = set(VERSIONS.values())
    for cls in app_mgr.applications_cls.values():
        if getattr(cls, "OFP_VERSIONS", None):
            offered &= set(cls.OFP_VERSIONS)
    if wanted != "any":
        offered &= {VERSIONS[wanted]}
    if not offered:
        sys.exit(f"launcher: the apps {', '.join(CONF.app)} cannot speak OpenFlow {wanted}")
    ofproto_protocol.set_app_supported_versions(sorted(offered))


def _stop(_signum, _frame):
    # Once is enough: a repeated SIGTERM must not interrupt the close below.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def _close_and_exit(app_mgr, logger, code):
    """Close the apps, but never hang on it: os-ken's native hub leaves non-daemon threads
    (the OpenFlow server, per-switch loops) that would keep the interpreter alive after main
    returns, so the process ends with ``os._exit`` once the apps had their chance to close."""
    closer = threading.Thread(target=app_mgr.close, daemon=True)
    closer.start()
    closer.join(CLOSE_GRACE)
    if closer.is_alive():
        logger.info("sdnbench launcher: apps still closing after %ss; exiting", CLOSE_GRACE)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main(argv):
    log.early_init_log(logging.INFO)
    CONF(args=argv, project="os_ken", version="sdnbench-launcher", default_config_files=[])
    log.init_log()
    logger = logging.getLogger("sdnbench.launcher")
    if not CONF.app:
        sys.exit("launcher: name at least one app")
    sys.path.insert(0, HERE)
    app_mgr = AppManager.get_instance()
    app_mgr.load_apps(app_modules(CONF.app))
    restrict_versions(app_mgr, CONF.sdnbench_of_version)
    tls = CONF.ctl_privkey is not None and CONF.ctl_cert is not None
    if tls:                      # before the apps start os-ken's OpenFlow server
        tls_log.install(os_ken.controller.controller)
        if hub.HUB_TYPE == "native":
            false_eof.install()
    contexts = app_mgr.create_contexts()
    services = list(app_mgr.instantiate_apps(**contexts))
    logger.info("sdnbench launcher: apps %s on %s:%s%s (hub %s%s%s)", ",".join(CONF.app), CONF.ofp_listen_host,
                CONF.ofp_ssl_listen_port if tls else CONF.ofp_tcp_listen_port,
                " over TLS, switch certificates required" if tls and CONF.ca_certs else " over TLS" if tls else "",
                hub.HUB_TYPE, ", timed Event.wait repaired" if EVENT_REPAIRED else "",
                ", false TLS EOFs read again" if tls and hub.HUB_TYPE == "native" else "")
    # SIGTERM (how sdnbench stops us) ends the wait below like Ctrl-C does.
    signal.signal(signal.SIGTERM, _stop)
    code = 0
    try:
        hub.joinall(services)
        logger.error("sdnbench launcher: every app stopped by itself")
        code = 1
    except KeyboardInterrupt:
        logger.info("sdnbench launcher: stopping")
    except BaseException:
        logger.exception("sdnbench launcher: failed")
        code = 1
    finally:
        if false_eof.TrueEofSSLSocket.false_eofs:
            logger.info("sdnbench launcher: %d false TLS end(s) of session read again", false_eof.TrueEofSSLSocket.false_eofs)
        _close_and_exit(app_mgr, logger, code)


if __name__ == "__main__":
    main(sys.argv[1:])
