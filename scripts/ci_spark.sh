#!/usr/bin/env bash
# CI check of the Spark filter contract (README "Running on a cluster"): installs pyspark into a virtual
# environment (and a Java runtime where none is found), runs scripts/spark_solve.py in local[2] mode on
# >= 100,000 puzzles, and checks that
#   1. its output equals, line for line, what `batchdoku solve` writes directly for the same input,
#   2. a failing binary (a bad flag) makes the Spark job fail,
#   3. it finishes within the budget (SPARK_BUDGET_SECONDS, default 600).
set -euo pipefail
cd "$(dirname "$0")/.."
BUDGET=${SPARK_BUDGET_SECONDS:-600}
VENV=${SPARK_VENV:-target/spark-venv}
B=target/release/batchdoku
export SPARK_LOCAL_IP=127.0.0.1

if ! command -v java > /dev/null; then
  echo "ci_spark: installing a Java runtime" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless > /dev/null
fi
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import pyspark' 2> /dev/null; then
  echo "ci_spark: installing pyspark into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check pyspark
fi
cargo build --release --quiet

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for ((i = 0; i < 474; i++)); do cat data/sample.txt; done > "$TMP/in.txt"   # 100,014 puzzles
n=$(grep -c '' "$TMP/in.txt")

start=$(date +%s)
"$VENV/bin/python" scripts/spark_solve.py --binary "$B" --input "$TMP/in.txt" --output "$TMP/out" \
  --master 'local[2]' --partitions 4 -- solve -k 2 --format line 2> "$TMP/spark.log" \
  || { tail -30 "$TMP/spark.log" >&2; echo "ci_spark: FAIL: the Spark job failed" >&2; exit 1; }
elapsed=$(( $(date +%s) - start ))
grep spark_solve: "$TMP/spark.log" >&2 || true
"$B" solve -q -k 2 --format line "$TMP/in.txt" > "$TMP/direct.txt"
cat "$TMP"/out/part-* > "$TMP/spark.txt"
if ! cmp -s "$TMP/spark.txt" "$TMP/direct.txt"; then
  echo "ci_spark: FAIL: Spark output differs from direct output ($(wc -l < "$TMP/spark.txt") vs $(wc -l < "$TMP/direct.txt") lines)" >&2
  exit 1
fi
echo "ci_spark: ok: $n puzzles, Spark output identical to direct output, ${elapsed}s" >&2

if "$VENV/bin/python" scripts/spark_solve.py --binary "$B" --input "$TMP/in.txt" --output "$TMP/out2" \
     --master 'local[2]' -- solve --no-such-flag > "$TMP/fail.log" 2>&1; then
  echo "ci_spark: FAIL: a failing binary did not fail the Spark job" >&2
  exit 1
fi
echo "ci_spark: ok: a failing binary fails the Spark job" >&2

if [ "$elapsed" -gt "$BUDGET" ]; then
  echo "ci_spark: FAIL: the Spark job took ${elapsed}s, over the ${BUDGET}s budget" >&2
  exit 1
fi
echo "2 passed, 0 failed"
