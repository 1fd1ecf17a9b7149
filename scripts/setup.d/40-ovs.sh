# Open vSwitch must be running; start it (userspace-capable) if it is not.
set -euo pipefail
if ovs-vsctl --timeout=5 show >/dev/null 2>&1; then
    echo "    ovs: running"
else
    echo "    ovs: starting with ovs-ctl"
    /usr/share/openvswitch/scripts/ovs-ctl start --system-id=random >/dev/null
    ovs-vsctl --timeout=10 show >/dev/null
fi
