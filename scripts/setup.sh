#!/usr/bin/env bash
# Idempotent set-up for sdnbench: runs every step in scripts/setup.d in name order.
# Each step prints what it does and skips work that is already done.
# Usage: scripts/setup.sh [STEP-GLOB]   e.g. scripts/setup.sh '2*'
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export SDNBENCH_REPO=$(cd "$here/.." && pwd)
export DEBIAN_FRONTEND=noninteractive
pattern=${1:-*}
for step in "$here"/setup.d/$pattern.sh; do
    [ -f "$step" ] || continue
    echo "==> setup: $(basename "$step" .sh)"
    bash "$step"
done
