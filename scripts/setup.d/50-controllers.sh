# The controllers under test, each in its own virtualenv under sdnbench's state directory:
# os-ken 4.x (for sdnbench's own apps), Ryu 4.34 and Faucet. Idempotent: an environment whose
# manifest matches its recipe is left alone. Nothing is written to /etc or /var/log.
set -euo pipefail
cd "$SDNBENCH_REPO"
.venv/bin/python -m sdnbench controllers install all | sed 's/^/    controllers: /'
