#!/usr/bin/env bash
# CI check of the Python package, as users install it. Builds the abi3 wheel with `maturin build --release` (the
# install path without a Rust toolchain: the wheel must be tagged abi3, one wheel for every CPython from 3.9) and the
# sdist with `maturin sdist` (what `pip install batchdoku` compiles where no wheel fits). Each is installed with pip
# into a fresh virtual environment (the wheel's brings numpy, its one dependency; the sdist is compiled by pip's own
# isolated maturin, reusing the compiled dependencies of the wheel's build through CARGO_TARGET_DIR), then the test
# dependencies join it and the package's pytest suite runs there against the installed package: results compared
# with the CLI, every `python` block of docs/python.md and the README's Python section run on the fixtures, and `mypy --strict` on them.
# Measured on 2 busy cores, warm pip cache: the sdist compiled and installed in 62 s (the package's crates only,
# the dependencies reused), the wheel venv's test dependencies and suite about 90 s; the sdist's venv runs a smoke
# test (the same sources as the wheel's).
# PY_SDIST=0 skips the sdist's installation and tests (the sdist is still built and listed).
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
TARGET=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
PIP_FLAGS=(-q --disable-pip-version-check)
# The build tools (maturin 1.9.2 or later writes pyproject.toml's PEP 639 licence metadata), in a venv of their own
# that never holds the package.
TOOLS=${PY_VENV:-target/py-venv}
if [ ! -x "$TOOLS/bin/python" ]; then
  python3 -m venv "$TOOLS"
fi
"$TOOLS/bin/pip" install "${PIP_FLAGS[@]}" "maturin>=1.9.2,<2"
# What the tests and the documented recipes (docs/python.md) need besides numpy.
TEST_DEPS=(pytest mypy pandas pandas-stubs pyarrow "dask[dataframe]" "ray[data]")

DIST="$PWD/target/wheels"
rm -rf "$DIST"
"$TOOLS/bin/maturin" build --release --quiet --manifest-path python/Cargo.toml --out "$DIST"
"$TOOLS/bin/maturin" sdist --manifest-path python/Cargo.toml --out "$DIST" >/dev/null
wheel=$(ls "$DIST"/batchdoku-*.whl)
sdist=$(ls "$DIST"/batchdoku-*.tar.gz)
case "$wheel" in
  *-cp39-abi3-*) ;;
  *) echo "ci_python: expected one abi3 (cp39-abi3) wheel, got: $wheel" >&2; exit 1 ;;
esac
# The sdist builds on its own: the crates it needs, the lockfile, the licence files (links resolved).
members=$(tar tzf "$sdist")
for member in Cargo.lock pyproject.toml LICENSE-MIT LICENSE-APACHE LICENSE-LGPL-2.1 NOTICE crates/core/Cargo.toml \
  crates/batch/Cargo.toml crates/rate/Cargo.toml; do
  grep -qx "batchdoku-[^/]*/$member" <<<"$members" \
    || { echo "ci_python: $member missing from $(basename "$sdist")" >&2; exit 1; }
done
built=$(date +%s)
# The CLI the tests compare against.
cargo build --release --quiet
BIN="$TARGET/release/batchdoku"

# Runs the suite in venv $1, from outside the checkout's python/ so that `import batchdoku` can only be the
# installed package (checked). Every documented block must run here: a missing recipe dependency fails instead of
# skipping.
tests_in() {
  local venv=$1
  "$venv/bin/pip" install "${PIP_FLAGS[@]}" "${TEST_DEPS[@]}"
  (cd "$venv" && bin/python -c 'import batchdoku, sys
assert batchdoku.__file__.startswith(sys.prefix), batchdoku.__file__
print("ci_python: testing", batchdoku.__file__)')
  CI_PYTHON_ALL=1 BATCHDOKU_BIN="$BIN" "$venv/bin/pytest" -q -p no:cacheprovider python/tests
}

# 1. The wheel, in a fresh venv.
WHEEL_VENV=target/py-wheel-venv
rm -rf "$WHEEL_VENV"
python3 -m venv "$WHEEL_VENV"
"$WHEEL_VENV/bin/pip" install "${PIP_FLAGS[@]}" "$wheel"
tests_in "$WHEEL_VENV"
# The binding crate's own unit tests (input conversion), against that venv's Python.
PYO3_PYTHON="$(cd "$WHEEL_VENV/bin" && pwd)/python" cargo test --release --quiet --manifest-path python/Cargo.toml
wheel_done=$(date +%s)

# 2. The sdist, in another fresh venv: pip compiles it (release profile, as the wheel).
if [ "${PY_SDIST:-1}" != 0 ]; then
  SDIST_VENV=target/py-sdist-venv
  rm -rf "$SDIST_VENV"
  python3 -m venv "$SDIST_VENV"
  # The sdist's files carry maturin's fixed reproducible-build date (2006), older than any build in $TARGET: cargo
  # would take crates compiled there from other sources (an earlier checkout's sdist) as fresh. Unpacked, each file
  # takes the modification time of the checkout's file it copies, so cargo decides as it does for the checkout: it
  # reuses the wheel's build of these same sources and compiles anything older.
  SDIST_SRC=target/py-sdist-src
  rm -rf "$SDIST_SRC" && mkdir -p "$SDIST_SRC"
  tar xzf "$sdist" -C "$SDIST_SRC"
  (
    repo=$PWD
    cd "$SDIST_SRC"/batchdoku-*/
    find . -type f | while read -r file; do
      if [ -e "$repo/$file" ]; then touch -r "$repo/$file" "$file"; else touch "$file"; fi
    done
  )
  CARGO_TARGET_DIR="$TARGET" "$SDIST_VENV/bin/pip" install "${PIP_FLAGS[@]}" "$SDIST_SRC"/batchdoku-*/
  sdist_built=$(date +%s)
  # The same sources as the wheel's, so a smoke test (the suite ran on the wheel; CI's time is kept under 20
  # minutes): the installed package solves and rates the sample as the CLI does.
  (cd "$SDIST_VENV" && BATCHDOKU_BIN="$BIN" SAMPLE="$OLDPWD/data/sample.txt" bin/python - <<'PY'
import csv, io, os, subprocess, sys
import batchdoku
assert batchdoku.__file__.startswith(sys.prefix), batchdoku.__file__
lines = open(os.environ["SAMPLE"]).read().splitlines()
r = batchdoku.solve(lines, count_limit=2)
cli = subprocess.run([os.environ["BATCHDOKU_BIN"], "solve", "-q", "-k", "2", os.environ["SAMPLE"]],
                     capture_output=True, text=True)
rows = list(csv.DictReader(io.StringIO(cli.stdout)))
assert [batchdoku.Status(s).name.lower() for s in r["status"]] == [row["status"] for row in rows]
print("ci_python: the sdist's package solves", len(lines), "puzzles as the CLI does")
PY
  )
  end=$(date +%s)
  sdist_note="; sdist compiled and installed in $((sdist_built - wheel_done)) s, smoke-tested in $((end - sdist_built)) s"
else
  end=$(date +%s)
  sdist_note="; sdist not installed (PY_SDIST=0)"
fi
echo "ci_python: wheel and sdist built in $((built - start)) s, wheel installed and tested in $((wheel_done - built)) s$sdist_note"
