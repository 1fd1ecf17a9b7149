"""Run by the os-ken environment's Python (not sdnbench's): os-ken's OpenFlow Switch Test Tool
(``os_ken.tests.switch.tester``, as installed) under a minimal manager, since os-ken 4.x on PyPI
ships no ``osken-manager``. Kept free of sdnbench imports: it runs where sdnbench is not installed.

    python osken_tester.py --ofp-listen-host 127.0.0.1 --ofp-tcp-listen-port PORT \\
        --test-switch-target 0000000000000001 --test-switch-tester 0000000000000002 \\
        --test-switch-dir DIR --test-switch-target-version openflow13 --test-switch-tester-version openflow13

The tool needs eventlet's hub: its waits are ``hub.Timeout`` around an untimed ``Event.wait``,
which os-ken's native hub never interrupts (a test whose reply never comes would hang), so
``OSKEN_HUB_TYPE`` is set to ``eventlet`` before os-ken is imported. The tool ends itself with
SIGTERM to its own process once its report is written; that ends this process with status 0.
"""

import logging
import os
import signal
import sys

os.environ["OSKEN_HUB_TYPE"] = "eventlet"

from os_ken.lib import hub  # noqa: E402

hub.patch(thread=True)

from os_ken import cfg, log  # noqa: E402
from os_ken.base.app_manager import AppManager  # noqa: E402
import os_ken.controller.controller  # noqa: E402,F401  (registers the --ofp-* options)
import os_ken.flags  # noqa: E402,F401  (registers the --test-switch-* options)

TESTER = "os_ken.tests.switch.tester"


def _done(_signum, _frame):
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def main(argv):
    log.early_init_log(logging.INFO)
    cfg.CONF(args=argv, project="os_ken", version="sdnbench-switch-tester", default_config_files=[])
    log.init_log()
    signal.signal(signal.SIGTERM, _done)
    mgr = AppManager.get_instance()
    mgr.load_apps([TESTER])
    services = list(mgr.instantiate_apps(**mgr.create_contexts()))
    hub.joinall(services)


if __name__ == "__main__":
    main(sys.argv[1:])
