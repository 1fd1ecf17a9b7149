# Go, for the strict Kubernetes schema check of the engine's manifests (tools/k8s-schema,
# `make test-k8s`): any go >= 1.19 on PATH or in /usr/local/go; otherwise Debian's golang-go
# (1.19 on Debian 12). Then the test's modules, pinned by tools/k8s-schema/go.sum, from the Go
# module proxy.
set -euo pipefail
. "$SDNBENCH_REPO/scripts/apt.sh"
cd "$SDNBENCH_REPO/tools/k8s-schema"
export PATH="$PATH:/usr/local/go/bin"
ok() { command -v go >/dev/null && go version | grep -Eq 'go1\.(19|[2-9][0-9])'; }
if ok; then
    echo "    go: $(go version | cut -d' ' -f3) present"
elif [ "$(id -u)" -ne 0 ]; then
    echo "    go: missing (>= 1.19) and not root: install golang-go as root" >&2
    exit 1
else
    echo "    go: installing golang-go"
    apt_get update -qq
    apt_get install -y -qq --no-install-recommends golang-go >/dev/null
    ok || { echo "    go: golang-go is older than 1.19" >&2; exit 1; }
fi
GOTOOLCHAIN=local go mod download
echo "    go: k8s-schema modules present (k8s.io/api $(go list -m -f '{{.Version}}' k8s.io/api))"
