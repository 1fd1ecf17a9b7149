# cargo-fuzz, for the codec's fuzz target (crates/ofwire/fuzz, run by scripts/fuzz-ci.sh).
# Needs the nightly toolchain (installed by 30-rust's rustup set-up or by hand).
set -euo pipefail
if ! command -v cargo >/dev/null; then
    [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
fi
if cargo fuzz --version >/dev/null 2>&1; then
    echo "    fuzz: $(cargo fuzz --version) already installed"
else
    echo "    fuzz: cargo install cargo-fuzz (a few minutes, once)"
    cargo install --quiet --locked cargo-fuzz
fi
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "    fuzz: nightly toolchain present"
else
    echo "    fuzz: rustup toolchain install nightly --profile minimal"
    rustup toolchain install nightly --profile minimal
fi
