#!/usr/bin/env bash
# CI check of the cluster recipes (README "Running on a cluster"), on small inputs (a few seconds of work each).
# Installs into a virtual environment (reused across runs): pyspark, pyarrow, pandas, dask[dataframe] and the
# Python package (`pip install ./python`, which compiles it: minutes the first time); a Java runtime where none
# is found. Spark runs on `local-cluster[2,1,1024]`: a master, two workers and two executor JVMs with their own
# work directories (SPARK_HOME points at a copy of the pip pyspark install, so those land in $TMP), except where
# a check says local[2]. Checks:
#   1. pipe path (spark_solve.py) on the local cluster: a text file with blank lines, `#` comments and malformed
#      records gives, line for line, what `batchdoku solve` writes directly (executors resolve their own copy);
#   2. pipe path in local[2] on a CSV with a header and an extra column: equal to the CLI's rows;
#   3. a failing binary (a bad flag) fails the Spark job with a message saying why;
#   4. Arrow path (spark_frames.py solve) on the local cluster: status, solutions and solution equal the CLI's;
#   5. dedupe and 6. overlap on the local cluster: kept rows and leaks equal `batchdoku dedupe` / `overlap`;
#   7. Dask (dask_solve.py): a CSV solved through map_partitions equals the CLI's rows.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${SPARK_VENV:-target/spark-venv}
MASTER=${SPARK_CI_MASTER:-local-cluster[2,1,1024]}
B=target/release/batchdoku
PY="$VENV/bin/python"
export SPARK_LOCAL_IP=127.0.0.1
all_start=$(date +%s)

if ! command -v java > /dev/null; then
  echo "ci_spark: installing a Java runtime" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless > /dev/null
fi
if [ ! -x "$PY" ]; then
  python3 -m venv "$VENV"
fi
if ! "$PY" -c 'import pyspark, pyarrow, pandas, dask.dataframe' 2> /dev/null; then
  echo "ci_spark: installing pyspark, pyarrow, pandas, dask into $VENV" >&2
  "$VENV/bin/pip" install -q --disable-pip-version-check pyspark pyarrow pandas "dask[dataframe]"
fi
# The package is rebuilt only when python/ or the library changed since the last install.
stamp="$VENV/.batchdoku-src"
src=$(cat Cargo.toml Cargo.lock $(find python src -type f \( -name '*.rs' -o -name '*.py' -o -name '*.toml' -o -name '*.pyi' \) | sort) | sha256sum | cut -c1-16)
if [ "$(cat "$stamp" 2> /dev/null)" != "$src" ] || ! "$PY" -c 'import batchdoku' 2> /dev/null; then
  echo "ci_spark: installing the Python package (pip install ./python: compiles Rust)" >&2
  "$VENV/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps ./python
  echo "$src" > "$stamp"
fi
cargo build --release --quiet

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# A SPARK_HOME of our own (links to the pip install): local-cluster starts its workers from $SPARK_HOME and puts
# their work directories in $SPARK_HOME/work.
SPARK_HOME="$TMP/spark-home"
mkdir "$SPARK_HOME"
for f in "$("$PY" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"/*; do ln -s "$f" "$SPARK_HOME/"; done
export SPARK_HOME PYSPARK_PYTHON="$PWD/$PY" PYSPARK_DRIVER_PYTHON="$PWD/$PY"
"$PY" scripts/ci/cluster_check.py make "$TMP/d"
D="$TMP/d"
passed=0
ok() { passed=$((passed + 1)); echo "ci_spark: ok: $*" >&2; }
spark() { # spark LOG script args...: runs a Spark recipe, shows its log's end when it fails
  local log=$1; shift
  local t=$(date +%s)
  "$PY" "$@" 2> "$log" || { grep -v '^\s*at ' "$log" | tail -30 >&2; echo "ci_spark: FAIL: $*" >&2; exit 1; }
  grep -E '^spark_(solve|frames)' "$log" >&2 || true
  echo "ci_spark: ($(( $(date +%s) - t )) s wall)" >&2
}

# 1. The pipe path on separate executors.
spark "$TMP/p1.log" examples/cluster/spark_solve.py --binary "$B" --input "$D/corpus.txt" --output "$TMP/p1" \
  --master "$MASTER" --partitions 3 -- solve -k 2 --format line
"$B" solve -q -k 2 --format line "$D/corpus.txt" > "$TMP/p1.direct" || [ $? -eq 1 ]
cat "$TMP"/p1/part-* | cmp -s - "$TMP/p1.direct" \
  || { echo "ci_spark: FAIL: pipe output differs from direct output" >&2; exit 1; }
ok "pipe path on $MASTER: $(grep -c '' "$TMP/p1.direct") rows (blank, comment and malformed lines in the input) equal the CLI's"

# 2. The pipe path in local mode on a CSV with a header.
spark "$TMP/p2.log" examples/cluster/spark_solve.py --binary "$B" --input "$D/corpus.csv" --output "$TMP/p2" \
  --master 'local[2]' --partitions 3 -- solve --keep-columns
"$B" solve -q --no-header --keep-columns "$D/corpus.csv" > "$TMP/p2.direct"
cat "$TMP"/p2/part-* | cut -d, -f3- > "$TMP/p2.spark"   # index and line count within each partition
cut -d, -f3- "$TMP/p2.direct" | cmp -s - "$TMP/p2.spark" \
  || { echo "ci_spark: FAIL: pipe output on CSV differs from direct output" >&2; exit 1; }
ok "pipe path in local[2] on a CSV with a header: $(grep -c '' "$TMP/p2.direct") rows equal the CLI's"

# 3. A real failure fails the job, saying why.
if "$PY" examples/cluster/spark_solve.py --binary "$B" --input "$D/corpus.txt" --output "$TMP/p3" --master 'local[2]' \
     --conf spark.task.maxFailures=1 -- solve --no-such-flag > "$TMP/p3.log" 2>&1; then
  echo "ci_spark: FAIL: a failing binary did not fail the Spark job" >&2
  exit 1
fi
grep -q 'batchdoku exited with code 2' "$TMP/p3.log" \
  || { tail -20 "$TMP/p3.log" >&2; echo "ci_spark: FAIL: the failure does not say why" >&2; exit 1; }
ok "a failing binary fails the Spark job: $(grep -o 'spark_solve: partition [0-9]*: batchdoku exited with code 2' "$TMP/p3.log" | head -1)"

# 4. The Arrow path.
spark "$TMP/a.log" examples/cluster/spark_frames.py solve -k 2 --input "$D/corpus.txt" --output "$TMP/a" --master "$MASTER"
"$B" solve -q -k 2 --input-format line "$D/corpus.txt" > "$TMP/a.csv" || [ $? -eq 1 ]
"$PY" scripts/ci/cluster_check.py solve "$TMP/a.csv" "$TMP/a"
ok "Arrow path (mapInArrow) on $MASTER equals the CLI"

# 5. Dedupe and 6. overlap, grouping by canonical form in Spark.
spark "$TMP/dd.log" examples/cluster/spark_frames.py dedupe --input "$D/corpus.txt" --output "$TMP/dd" --master "$MASTER"
"$B" dedupe -q "$D/corpus.txt" > "$TMP/dd.csv" || [ $? -eq 1 ]
"$PY" scripts/ci/cluster_check.py dedupe "$TMP/dd.csv" "$TMP/dd"
ok "dedupe on $MASTER keeps the CLI's rows"
spark "$TMP/ov.log" examples/cluster/spark_frames.py overlap --train "$D/train.txt" --test "$D/test.txt" --output "$TMP/ov" \
  --master "$MASTER"
"$B" overlap -q "$D/train.txt" "$D/test.txt" > "$TMP/ov.csv" || [ $? -eq 1 ]
"$PY" scripts/ci/cluster_check.py overlap "$TMP/ov.csv" "$TMP/ov"
ok "overlap on $MASTER finds the CLI's leaks"

# 7. Dask.
t=$(date +%s)
"$PY" examples/cluster/dask_solve.py --input "$D/corpus.csv" --output "$TMP/dk" --blocksize 40kB
"$B" solve -q --keep-columns "$D/corpus.csv" > "$TMP/dk.csv"
"$PY" scripts/ci/cluster_check.py dask "$TMP/dk.csv" "$TMP/dk"
ok "Dask map_partitions with meta equals the CLI ($(( $(date +%s) - t )) s wall)"

echo "ci_spark: Spark and Dask checks took $(( $(date +%s) - all_start )) s in all" >&2
echo "$passed passed, 0 failed"
