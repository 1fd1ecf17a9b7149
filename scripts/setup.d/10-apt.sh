# Debian packages: the network tools, Open vSwitch, Mininet, and what builds the rest (the JDK
# and Maven: the test suite's JVM controller, 52-jvm-peer).
set -euo pipefail
. "$SDNBENCH_REPO/scripts/apt.sh"
pkgs=(openvswitch-switch openvswitch-testcontroller mininet iperf3 d-itg tcpdump ethtool
      iputils-ping nftables iproute2 procps python3-venv python3-dev build-essential pkg-config
      libssl-dev chromium fonts-dejavu-core openjdk-17-jdk-headless maven)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "    apt: all ${#pkgs[@]} packages present"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "    apt: missing ${missing[*]} and not root: install them as root" >&2
    exit 1
fi
echo "    apt: installing ${missing[*]}"
apt_get update -qq
apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
