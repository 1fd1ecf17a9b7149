"""sdnbench's os-ken launcher: os-ken 4.x on PyPI ships no ``osken-manager``, so this is ours.

Run with the os-ken virtualenv's python (never sdnbench's own):

    python launcher.py --ofp-listen-host 127.0.0.1 --ofp-tcp-listen-port 6653 \
        --sdnbench-of-version 1.3 learning [topology ...]

App names are modules in this directory. It does what a manager does: parse os-ken's options,
load the apps, create their contexts, run them until a signal, and close them. It adds two
options of its own: ``--sdnbench-of-version`` (restrict the OpenFlow versions offered) and
``--sdnbench-api-port`` (the loopback port of the topology app's HTTP API).
"""

import logging
import os
import signal
import sys

from os_ken.lib import hub

hub.patch(thread=True)

from os_ken import cfg, log  # noqa: E402
from os_ken.base.app_manager import AppManager  # noqa: E402
from os_ken.ofproto import ofproto_protocol, ofproto_v1_0, ofproto_v1_3  # noqa: E402
import os_ken.controller.controller  # noqa: E402,F401  (registers the --ofp-* options)
import os_ken.topology.switches  # noqa: E402,F401  (registers --observe-links before parsing)

HERE = os.path.dirname(os.path.abspath(__file__))
VERSIONS = {"1.0": ofproto_v1_0.OFP_VERSION, "1.3": ofproto_v1_3.OFP_VERSION}

CONF = cfg.CONF
CONF.register_cli_opts([
    cfg.MultiStrOpt("app", positional=True, default=[], help="sdnbench apps to run"),
    cfg.StrOpt("sdnbench-of-version", default="any", choices=["any", "1.0", "1.3"],
               help="offer only this OpenFlow version"),
    cfg.IntOpt("sdnbench-api-port", default=0, help="loopback port of the topology app's HTTP API"),
])


APPS = ("learning", "hub", "passthrough", "multitable", "topology")


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
    raise KeyboardInterrupt


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
    contexts = app_mgr.create_contexts()
    services = list(app_mgr.instantiate_apps(**contexts))
    logger.info("sdnbench launcher: apps %s on %s:%s (hub %s)", ",".join(CONF.app),
                CONF.ofp_listen_host, CONF.ofp_tcp_listen_port, hub.HUB_TYPE)
    # SIGTERM (how sdnbench stops us) ends the main greenthread's wait like Ctrl-C does.
    signal.signal(signal.SIGTERM, _stop)
    try:
        hub.joinall(services)
    except KeyboardInterrupt:
        logger.info("sdnbench launcher: stopping")
    finally:
        app_mgr.close()


if __name__ == "__main__":
    main(sys.argv[1:])
