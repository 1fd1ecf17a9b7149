# sdnbench: two commands.
#   make demo   set up if needed, then run the main job
#   make test   set up if needed, then run every test
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
SDNBENCH := $(VENV)/bin/sdnbench
export PATH := $(HOME)/.cargo/bin:$(PATH)

.PHONY: setup demo test lint test-rust test-python test-k8s fuzz fuzz-long bench clean-stale help

help:
	@echo "make demo   - set up if needed, then run the quick demo scenario"
	@echo "make test   - set up if needed, then lint (rustfmt, clippy, ruff) and run the Rust, Go and Python tests"
	@echo "make setup  - only the idempotent set-up (apt, venv, Rust build, OVS, controllers)"

setup:
	@scripts/setup.sh

demo: setup
	$(SDNBENCH) demo

test: setup lint test-rust test-k8s test-python

# Formatting and the lints that find bugs: rustfmt (rustfmt.toml), clippy with every warning an
# error, ruff (pyproject.toml's [tool.ruff]).
lint:
	@echo "==> lint (rustfmt, clippy, ruff)"
	cargo fmt --all --check
	cargo clippy --release --workspace --all-targets --quiet -- -D warnings
	$(VENV)/bin/ruff check .

test-rust:
	@echo "==> cargo test (workspace)"
	cargo test --release --workspace --quiet
	@if [ -x scripts/fuzz-ci.sh ]; then scripts/fuzz-ci.sh; fi

# The engine's Kubernetes manifests decoded strictly into k8s.io/api types (tools/k8s-schema).
test-k8s:
	@echo "==> go test (k8s manifests, strict schema)"
	cd tools/k8s-schema && PATH="$$PATH:/usr/local/go/bin" GOTOOLCHAIN=local go test -count=1 ./...

test-python:
	@echo "==> pytest"
	@# pytest exits 5 when it collected nothing: for us that means a broken suite, so say so.
	@$(PY) -m pytest -q --durations=30 $(PYTEST_ARGS); rc=$$?; \
	 if [ $$rc -eq 5 ]; then echo "pytest collected no tests: the suite is broken" >&2; exit 1; fi; exit $$rc

# Hours of fuzzing, outside `make test`: the corpus accumulates (minimised) and every run is
# recorded in crates/ofwire/fuzz/executions.tsv (FUZZ_SECONDS, default 4 h).
fuzz-long:
	@scripts/fuzz-long.sh

clean-stale: setup
	$(SDNBENCH) net clean
