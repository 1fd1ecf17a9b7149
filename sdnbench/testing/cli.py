"""``python -m sdnbench.testing.cli ARGS``: the real ``sdnbench`` command line with the test-only
``synthetic`` kind registered, for tests that run a campaign in a subprocess (kill and resume)."""

import sys

from sdnbench.cli import main
from sdnbench.testing.synthetic import register

if __name__ == "__main__":
    register()
    sys.exit(main())
