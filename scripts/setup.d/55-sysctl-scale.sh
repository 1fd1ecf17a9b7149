# Kernel limits a 1,000,000-switch run needs (sdnbench/scale_limits.py says which and why):
# only raises, and only the safe ones (fs.file-max, somaxconn, tcp_max_syn_backlog,
# nf_conntrack_max). tcp_mem and the ephemeral port range are never changed here: `sdnbench
# doctor` (check scale-kernel) names the fix. Runtime only (nothing in /etc/sysctl.d).
set -euo pipefail
cd "$SDNBENCH_REPO"
if [ "$(id -u)" -ne 0 ]; then
    echo "    sysctl: not root, left as they are (sdnbench doctor names what a scale run needs)"
    exit 0
fi
.venv/bin/python -m sdnbench.scale_limits --apply | sed 's/^/    sysctl: /'
