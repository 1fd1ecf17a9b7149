#!/usr/bin/env bash
# Bounded fuzzing of the OpenFlow decoder (crates/ofwire/fuzz, target "decode"), run by
# `make test`. FUZZ_SECONDS (default 60) bounds the run; a crash, timeout or OOM fails it.
# Needs cargo-fuzz (scripts/setup.d/35-fuzz.sh installs it) and, preferably, nightly Rust.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
seconds=${FUZZ_SECONDS:-60}
if ! command -v cargo >/dev/null; then
    [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
fi
# cargo fuzz wants nightly (-Z flags, sanitizers). Without a nightly toolchain the stable one
# is told to accept them (RUSTC_BOOTSTRAP=1); it ships the same sanitizer runtimes.
if cargo +nightly --version >/dev/null 2>&1; then
    toolchain=(+nightly)
else
    echo "fuzz-ci: no nightly toolchain; using stable with RUSTC_BOOTSTRAP=1"
    toolchain=()
    export RUSTC_BOOTSTRAP=1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz-ci: cargo-fuzz is missing; run scripts/setup.d/35-fuzz.sh (or make setup)" >&2
    exit 1
fi
cd "$repo/crates/ofwire/fuzz"
# Seed the corpus with the checked-in os-ken vectors (messages and LLDP frames) so the run
# starts from real inputs.
corpus=corpus/decode
mkdir -p "$corpus"
python3 - "$corpus" ../tests/vectors/*.json <<'PY'
import binascii, hashlib, json, os, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    doc = json.load(open(path))
    for v in doc.get("vectors", []) + doc.get("frames", []):
        raw = binascii.unhexlify(v["hex"])
        with open(os.path.join(out, hashlib.sha1(raw).hexdigest()), "wb") as f:
            f.write(raw)
PY
echo "==> cargo fuzz run decode for ${seconds}s"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
"cargo" "${toolchain[@]}" fuzz run decode "$corpus" -- -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 >"$log" 2>&1
rc=$?
set -e
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^Done|SUMMARY' "$log" || true
if [ "$rc" -ne 0 ]; then
    tail -40 "$log" >&2
    echo "fuzz-ci: the decoder fuzz target failed (exit $rc); the crashing input is under crates/ofwire/fuzz/artifacts/decode/" >&2
    exit 1
fi
echo "fuzz-ci: $(grep -Eo 'Done [0-9]+ runs' "$log" | tail -1) in ${seconds}s, no crash"
