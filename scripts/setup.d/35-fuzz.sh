# cargo-fuzz, for the codec's fuzz target (crates/ofwire/fuzz, run by scripts/fuzz-ci.sh).
# Prefers the nightly toolchain; scripts/fuzz-ci.sh falls back to stable without it.
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
elif timeout 300 rustup toolchain install nightly --profile minimal >/dev/null 2>&1; then
    echo "    fuzz: installed the nightly toolchain"
else
    # Only package registries are reachable on some machines; scripts/fuzz-ci.sh then runs
    # cargo fuzz on stable with RUSTC_BOOTSTRAP=1.
    echo "    fuzz: no nightly toolchain (rustup could not fetch it); fuzz-ci will use stable"
fi
