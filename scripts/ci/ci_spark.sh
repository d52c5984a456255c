#!/usr/bin/env bash
# CI check of the cluster recipes (docs/cluster.md), on small inputs (a few seconds of work each).
# Installs into a virtual environment (reused across runs): pyspark, pyarrow, pandas, dask[dataframe] and the
# Python package (`pip install ./python`, which compiles it: minutes the first time); a Java runtime where none
# is found. Spark runs on `local-cluster[2,1,1024]`: a master, two workers and two executor JVMs with their own
# work directories (SPARK_HOME points at a copy of the pip pyspark install, so those land in $TMP), except where
# a check says local[N]. The Kaggle layout is a CSV/Parquet with columns quizzes,solutions (the published answers,
# a few wrong): the user's columns must come out byte-identical (`solutions` as input_solutions, the CLI's
# --keep-columns rule) beside ours. Checks:
#   1. pipe path (spark_solve.py, docs/cluster.md's `-- solve -k 2 --format jsonl`) on the local cluster: a text file
#      with blank lines, `#` comments and malformed records gives, row for row, what `batchdoku solve` writes
#      directly (executors resolve their own copy);
#   2. pipe path in local[2] on the Kaggle CSV with --keep-columns: the CLI's rows, input_solutions unchanged;
#   3. a failing binary (a bad flag) fails the Spark job with a message saying why;
#   4. pipe path on a CSV without a puzzle column: exit 2 before the job, naming the columns found;
#   5. Arrow path (spark_frames.py solve) on the local cluster: status, solutions and solution equal the CLI's;
#   6. Arrow path in local[2] on the Kaggle Parquet: equal to `batchdoku solve -k 2`, the user's columns unchanged;
#   7. Arrow path on a Parquet without a puzzle column: exit 2 before any job over the data, naming the columns;
#   8. dedupe and 9. overlap on the local cluster: kept rows and leaks equal `batchdoku dedupe` / `overlap`;
#   10. Dask (dask_solve.py) on the Kaggle CSV: as 6; 11. Dask on a CSV without a puzzle column: as 7.
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
"$PY" scripts/ci/cluster_check.py columns   # the column rules of the DataFrame recipes, on small cases
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

# 1. The pipe path on separate executors, as docs/cluster.md runs it.
spark "$TMP/p1.log" examples/cluster/spark_solve.py --binary "$B" --input "$D/corpus.txt" --output "$TMP/p1" \
  --master "$MASTER" --partitions 3 -- solve -k 2 --format jsonl
"$B" solve -q -k 2 --format jsonl "$D/corpus.txt" > "$TMP/p1.jsonl" || [ $? -eq 1 ]
"$PY" scripts/ci/cluster_check.py pipe "$TMP/p1.jsonl" "$TMP/p1"
ok "pipe path on $MASTER: $(grep -c '' "$TMP/p1.jsonl") rows (blank, comment and malformed lines in the input) equal the CLI's"

# 2. The pipe path in local mode on the Kaggle CSV (quizzes,solutions).
spark "$TMP/p2.log" examples/cluster/spark_solve.py --binary "$B" --input "$D/kaggle.csv" --output "$TMP/p2" \
  --master 'local[2]' --partitions 3 -- solve -k 2 --keep-columns
"$B" solve -q -k 2 --keep-columns "$D/kaggle.csv" > "$TMP/p2.csv" || [ $? -eq 1 ]
"$PY" scripts/ci/cluster_check.py pipe-kaggle "$TMP/p2.csv" "$TMP/p2" "$D/kaggle.csv"
ok "pipe path in local[2] on the Kaggle CSV: $(( $(grep -c '' "$TMP/p2.csv") - 1 )) rows equal the CLI's, the user's solutions kept"

# 3. A real failure fails the job, saying why.
if "$PY" examples/cluster/spark_solve.py --binary "$B" --input "$D/corpus.txt" --output "$TMP/p3" --master 'local[2]' \
     --conf spark.task.maxFailures=1 -- solve --no-such-flag > "$TMP/p3.log" 2>&1; then
  echo "ci_spark: FAIL: a failing binary did not fail the Spark job" >&2
  exit 1
fi
grep -q 'batchdoku exited with code 2' "$TMP/p3.log" \
  || { tail -20 "$TMP/p3.log" >&2; echo "ci_spark: FAIL: the failure does not say why" >&2; exit 1; }
ok "a failing binary fails the Spark job: $(grep -o 'spark_solve: partition [0-9]*: batchdoku exited with code 2' "$TMP/p3.log" | head -1)"

# A recipe given a file without a puzzle column stops before its job: code 2, the columns found named, no output.
fails_fast() { # fails_fast NAME OUT LOG command...
  local name=$1 out=$2 log=$3; shift 3
  local t=$(date +%s) code=0
  "$@" > "$log" 2>&1 || code=$?
  if [ "$code" -ne 2 ] || ! grep -q 'columns are id, board, difficulty' "$log" || [ -e "$out" ]; then
    grep -v '^\s*at ' "$log" | tail -20 >&2
    echo "ci_spark: FAIL: $name on a file without a puzzle column: exit $code (wanted 2 and the columns named)" >&2
    exit 1
  fi
  ok "$name without a puzzle column stops before the job ($(( $(date +%s) - t )) s): $(grep -o 'no puzzle column.*' "$log" | cut -c1-80)..."
}

# 4. The pipe path without a puzzle column.
fails_fast "pipe path" "$TMP/p4" "$TMP/p4.log" "$PY" examples/cluster/spark_solve.py --binary "$B" \
  --input "$D/nopuzzle.csv" --output "$TMP/p4" --master 'local[1]' -- solve

# 5. The Arrow path.
spark "$TMP/a.log" examples/cluster/spark_frames.py solve -k 2 --input "$D/corpus.txt" --output "$TMP/a" --master "$MASTER"
"$B" solve -q -k 2 --input-format line "$D/corpus.txt" > "$TMP/a.csv" || [ $? -eq 1 ]
"$PY" scripts/ci/cluster_check.py solve "$TMP/a.csv" "$TMP/a"
ok "Arrow path (mapInArrow) on $MASTER equals the CLI"

# 6. The Arrow path on the Kaggle Parquet (quizzes,solutions), and 7. without a puzzle column.
spark "$TMP/ak.log" examples/cluster/spark_frames.py solve -k 2 --input "$D/kaggle.parquet" --input-format parquet \
  --output "$TMP/ak" --master 'local[2]'
"$B" solve -q -k 2 "$D/kaggle.csv" > "$TMP/k.csv" || [ $? -eq 1 ]
"$PY" scripts/ci/cluster_check.py kaggle "$TMP/k.csv" "$TMP/ak" "$D/kaggle.csv"
ok "Arrow path in local[2] on the Kaggle Parquet equals the CLI, the user's columns unchanged"
fails_fast "Arrow path" "$TMP/a7" "$TMP/a7.log" "$PY" examples/cluster/spark_frames.py solve \
  --input "$D/nopuzzle.parquet" --input-format parquet --output "$TMP/a7" --master 'local[1]'

# 8. Dedupe and 9. overlap, grouping by canonical form in Spark.
spark "$TMP/dd.log" examples/cluster/spark_frames.py dedupe --input "$D/corpus.txt" --output "$TMP/dd" --master "$MASTER"
"$B" dedupe -q "$D/corpus.txt" > "$TMP/dd.csv" || [ $? -eq 1 ]
"$PY" scripts/ci/cluster_check.py dedupe "$TMP/dd.csv" "$TMP/dd"
ok "dedupe on $MASTER keeps the CLI's rows"
spark "$TMP/ov.log" examples/cluster/spark_frames.py overlap --train "$D/train.txt" --test "$D/test.txt" --output "$TMP/ov" \
  --master "$MASTER"
"$B" overlap -q "$D/train.txt" "$D/test.txt" > "$TMP/ov.csv" || [ $? -eq 1 ]
"$PY" scripts/ci/cluster_check.py overlap "$TMP/ov.csv" "$TMP/ov"
ok "overlap on $MASTER finds the CLI's leaks"

# 10. Dask on the Kaggle CSV, and 11. without a puzzle column.
t=$(date +%s)
"$PY" examples/cluster/dask_solve.py -k 2 --input "$D/kaggle.csv" --output "$TMP/dk" --blocksize 40kB
"$PY" scripts/ci/cluster_check.py kaggle "$TMP/k.csv" "$TMP/dk" "$D/kaggle.csv"
ok "Dask map_partitions with meta on the Kaggle CSV equals the CLI, the user's columns unchanged ($(( $(date +%s) - t )) s wall)"
fails_fast "Dask" "$TMP/d11" "$TMP/d11.log" "$PY" examples/cluster/dask_solve.py --input "$D/nopuzzle.csv" \
  --output "$TMP/d11"

echo "ci_spark: Spark and Dask checks took $(( $(date +%s) - all_start )) s in all" >&2
echo "$passed passed, 0 failed"
