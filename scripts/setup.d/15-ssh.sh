# The SSH hosts backend (sdnbench/net/backends/ssh.py): sshd for its tests (run by them inside
# network namespaces, never as a system service), the ssh client tools, and paramiko in the venv
# (also a dependency in pyproject.toml; installed here too so that an older venv gets it).
set -euo pipefail
. "$SDNBENCH_REPO/scripts/apt.sh"
cd "$SDNBENCH_REPO"
need=()
for pkg in openssh-server openssh-client; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "    ssh: installing ${need[*]}"
    # policy-rc.d keeps apt from starting a system sshd: the tests start their own.
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d.sdnbench
    chmod +x /usr/sbin/policy-rc.d.sdnbench
    had_policy=0; [ -e /usr/sbin/policy-rc.d ] && had_policy=1
    [ $had_policy = 1 ] || cp /usr/sbin/policy-rc.d.sdnbench /usr/sbin/policy-rc.d
    DEBIAN_FRONTEND=noninteractive apt_get install -y -q "${need[@]}" >/dev/null
    [ $had_policy = 1 ] || rm -f /usr/sbin/policy-rc.d
    rm -f /usr/sbin/policy-rc.d.sdnbench
else
    echo "    ssh: openssh-server and openssh-client already installed"
fi
if [ -x .venv/bin/python ]; then
    .venv/bin/python -c "import paramiko" 2>/dev/null || .venv/bin/pip install -q "paramiko>=3"
    echo "    ssh: paramiko $(.venv/bin/python -c 'import paramiko; print(paramiko.__version__)')"
fi
