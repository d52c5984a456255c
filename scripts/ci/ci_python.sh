#!/usr/bin/env bash
# CI check of the Python package: builds the abi3 wheel with `maturin build --release` (the install path
# without a Rust toolchain: the wheel must be tagged abi3, one wheel for every CPython from 3.9), installs it into a
# virtual environment with what the README's recipes need, and runs the package's pytest suite: results compared
# with the CLI, every `python` block of the README's Python section run on the fixtures, and `mypy --strict` on them.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
VENV=${PY_VENV:-target/py-venv}
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PIP=("$VENV/bin/pip" install -q --disable-pip-version-check)
# numpy is the package's one dependency; the rest is what the README's recipes and the checks need (maturin 1.9.2 or
# later writes pyproject.toml's PEP 639 licence metadata).
"${PIP[@]}" "maturin>=1.9.2,<2" numpy pytest mypy pandas pandas-stubs pyarrow "dask[dataframe]" "ray[data]"
WHEELS="$PWD/target/wheels"
rm -rf "$WHEELS"
"$VENV/bin/maturin" build --release --quiet --manifest-path python/Cargo.toml --out "$WHEELS"
wheel=$(ls "$WHEELS"/batchdoku-*.whl)
case "$wheel" in
  *-cp39-abi3-*) ;;
  *) echo "ci_python: expected one abi3 (cp39-abi3) wheel, got: $wheel" >&2; exit 1 ;;
esac
"${PIP[@]}" --force-reinstall --no-deps "$wheel"
built=$(date +%s)
cargo build --release --quiet
# The binding crate's own unit tests (input conversion), against the venv's Python.
PYO3_PYTHON="$(cd "$VENV/bin" && pwd)/python" cargo test --release --quiet --manifest-path python/Cargo.toml
# Every README block must run here: a missing recipe dependency fails instead of skipping.
CI_PYTHON_ALL=1 BATCHDOKU_BIN="$PWD/target/release/batchdoku" "$VENV/bin/pytest" -q python/tests
end=$(date +%s)
echo "ci_python: wheel built and installed in $((built - start)) s, tests in $((end - built)) s"
