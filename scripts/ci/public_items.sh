#!/usr/bin/env bash
# Each crate's public face, counted: the items rustdoc lists for it (structs, enums, traits, functions,
# constants, type aliases, modules; not methods, and not what `#[doc(hidden)]` keeps out of the documentation).
# Fails when a count passes its bar, so that an API grows only on purpose: raise the bar in the same commit
# that makes an item public, and say why. The core's root is meant to stay about rust-csv's size (31 items at
# the root, each with an example, and the 7 of the module `solver`, the search loop's extension point).
set -euo pipefail
cd "$(dirname "$0")/../.."
# crate name (as rustdoc writes it) and bar
BARS=(
  # 39: InputLayout, how an input lays out its records (to write them back so: split's part files)
  "batchdoku_core 39"
  # 33: AsWritten, records written back in their input's layout; 36: `Path`, `PathStep` and `Move`, the
  # solution path of `rate --path` (issue 40)
  "batchdoku_batch 36"
  # 10: `Bounds`, the early stops of `rate --max-er` (issue 40)
  "batchdoku_rate 10"
  # the binary's own library: nothing documented (its modules are `#[doc(hidden)]`)
  "batchdoku 0"
)
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --quiet -p batchdoku-core -p batchdoku-batch \
  -p batchdoku-rate -p batchdoku
failed=0
for entry in "${BARS[@]}"; do
  read -r crate bar <<<"$entry"
  all=target/doc/$crate/all.html
  items=$({ grep -o '<li><a href="[^#"][^"]*"' "$all" || true; } | sed 's/.*href="//; s/"$//; s/\.html$//' | sort)
  count=$(grep -c . <<<"$items" || true)
  echo "$crate: $count public items (bar $bar): $(tr '\n' ' ' <<<"$items")"
  if [ "$count" -gt "$bar" ]; then
    echo "public_items: $crate has $count public items, more than its bar of $bar" >&2
    failed=1
  fi
done
exit $failed
