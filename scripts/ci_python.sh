#!/usr/bin/env bash
# CI check of the Python package: builds it with `pip install ./python` (maturin, in pip's isolated build
# environment) into a virtual environment and runs its pytest suite, which compares results with the CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${PY_VENV:-target/py-venv}
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q --disable-pip-version-check numpy pytest pandas
"$VENV/bin/pip" install -q --disable-pip-version-check ./python
cargo build --release --quiet
# The binding crate's own unit tests (input conversion), against the venv's Python.
PYO3_PYTHON="$(cd "$VENV/bin" && pwd)/python" cargo test --release --quiet --manifest-path python/Cargo.toml
BATCHDOKU_BIN="$PWD/target/release/batchdoku" "$VENV/bin/pytest" -q python/tests
