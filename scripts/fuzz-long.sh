#!/usr/bin/env bash
# Long fuzzing that accumulates (issue 16): `make fuzz-long`, outside `make test`.
# - The corpus is kept between runs in crates/ofwire/fuzz/corpus/decode (git-ignored: it is
#   machine state) and minimised after every run (`cargo fuzz cmin`), so the next run starts
#   from everything earlier runs found, without the redundant inputs.
# - Every run appends one line to crates/ofwire/fuzz/executions.tsv (in the repo): UTC time,
#   target, seconds, executions, crashes (0/1), corpus files after minimising, git commit.
#   The cumulative total is the sum of the executions column (printed at the end).
# FUZZ_SECONDS (default 14400 = 4 h) bounds the run. A crash fails the run and is recorded
# (its input stays under crates/ofwire/fuzz/artifacts/decode/).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
seconds=${FUZZ_SECONDS:-14400}
target=decode
if ! command -v cargo >/dev/null; then
    [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
fi
if cargo +nightly --version >/dev/null 2>&1; then
    toolchain=(+nightly)
else
    toolchain=()
    export RUSTC_BOOTSTRAP=1
fi
cargo fuzz --version >/dev/null 2>&1 || { echo "fuzz-long: cargo-fuzz is missing; run scripts/setup.d/35-fuzz.sh" >&2; exit 1; }
cd "$repo/crates/ofwire/fuzz"
corpus=corpus/$target
record=executions.tsv
mkdir -p "$corpus"
[ -f "$record" ] || printf 'utc\ttarget\tseconds\texecutions\tcrashes\tcorpus_files\tcommit\n' > "$record"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "==> cargo fuzz run $target for ${seconds}s (corpus $(ls "$corpus" | wc -l) files)"
set +e
cargo "${toolchain[@]}" fuzz run "$target" "$corpus" -- -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 >"$log" 2>&1
rc=$?
set -e
runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
if [ -z "$runs" ]; then  # a crash ends the run without "Done": take the last status line
    runs=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#' || echo 0)
fi
crashes=$([ "$rc" -eq 0 ] && echo 0 || echo 1)
echo "==> minimising the corpus"
before=$(ls "$corpus" | wc -l)
cargo "${toolchain[@]}" fuzz cmin "$target" "$corpus" >/dev/null 2>&1 || echo "fuzz-long: cmin failed; corpus kept as it is" >&2
after=$(ls "$corpus" | wc -l)
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$target" "$seconds" "${runs:-0}" "$crashes" "$after" "$commit" >> "$record"
total=$(awk -F'\t' 'NR > 1 && $2 == "'"$target"'" { s += $4 } END { print s + 0 }' "$record")
crashed=$(awk -F'\t' 'NR > 1 && $2 == "'"$target"'" { s += $5 } END { print s + 0 }' "$record")
echo "fuzz-long: this run ${runs:-0} executions in ${seconds}s (corpus $before -> $after after cmin); cumulative $total executions, $crashed crashing run(s) (record: crates/ofwire/fuzz/$record)"
if [ "$rc" -ne 0 ]; then
    tail -40 "$log" >&2
    echo "fuzz-long: the $target target failed (exit $rc); the input is under crates/ofwire/fuzz/artifacts/$target/" >&2
    exit 1
fi
