# The Rust workspace: the OpenFlow codec, the emulated switch and the load engine, in release mode.
set -euo pipefail
cd "$SDNBENCH_REPO"
if ! command -v cargo >/dev/null; then
    [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
fi
command -v cargo >/dev/null || { echo "    rust: cargo not found; install Rust with rustup" >&2; exit 1; }
# `make lint` needs rustfmt and clippy (rustup's default profile has both)
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    echo "    rust: adding the rustfmt and clippy components"
    rustup component add rustfmt clippy
fi
echo "    rust: cargo build --release --workspace"
cargo build --release --workspace --quiet
