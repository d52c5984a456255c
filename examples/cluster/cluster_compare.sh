#!/usr/bin/env bash
# Side by side on one input, in one run: the CLI (`solve -j CORES`), the Spark pipe path (spark_solve.py), the
# Spark Arrow path (spark_frames.py solve, from the text file and from Parquet) and Dask (dask_solve.py), all at
# the same core count. Spark job time excludes Spark start-up (reported apart); Dask time includes its start.
#   examples/cluster/cluster_compare.sh [COPIES of data/sample.txt, default 1000] [CORES, default 2]
# Uses the virtual environment that scripts/ci/ci_spark.sh sets up (run that first). For the figures of docs/cluster.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
COPIES=${1:-1000}
CORES=${2:-2}
VENV=${SPARK_VENV:-target/spark-venv}
PY="$VENV/bin/python"
B=target/release/batchdoku
export SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON="$PWD/$PY" PYSPARK_DRIVER_PYTHON="$PWD/$PY"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for ((i = 0; i < COPIES; i++)); do cat data/sample.txt; done > "$TMP/in.txt"
n=$(grep -c '' "$TMP/in.txt")
"$PY" - "$TMP" << 'EOF'
import sys, pyarrow as pa, pyarrow.csv as pc, pyarrow.parquet as pq
d = sys.argv[1]
puzzles = [l.rstrip("\n") for l in open(f"{d}/in.txt")]
t = pa.table({"puzzle": puzzles})
pq.write_table(t, f"{d}/in.parquet", row_group_size=16384)  # several row groups: several partitions
pc.write_csv(t, f"{d}/in.csv")
EOF
echo "cluster_compare: $n puzzles, $CORES cores, $(uptime | sed 's/.*load/load/')"
rate() { awk -v n="$n" -v s="$1" 'BEGIN { printf "%.0f", n / s }'; }

t0=$(date +%s.%N)
"$B" solve -q -j "$CORES" --format line "$TMP/in.txt" > /dev/null
cli=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
echo "CLI solve -j $CORES:        ${cli} s, $(rate "$cli") puzzles/s"

"$PY" examples/cluster/spark_solve.py --binary "$B" --input "$TMP/in.txt" --output "$TMP/pipe" --master "local[$CORES]" \
  --partitions "$((CORES * 2))" -- solve --format line 2> "$TMP/pipe.log"   # textFile: no maxPartitionBytes
job=$(grep -o 'job [0-9.]*' "$TMP/pipe.log" | cut -d' ' -f2)
up=$(grep -o 'start-up [0-9.]*' "$TMP/pipe.log" | cut -d' ' -f2)
echo "Spark pipe, local[$CORES]:   ${job} s, $(rate "$job") puzzles/s (Spark start-up ${up} s)"

for src in text parquet; do
  in="$TMP/in.txt"
  [ "$src" = parquet ] && in="$TMP/in.parquet"
  "$PY" examples/cluster/spark_frames.py solve --input "$in" --input-format "$src" --output "$TMP/arrow-$src" \
    --master "local[$CORES]" --warm-up --repeat 2 --conf spark.sql.files.maxPartitionBytes=4m 2> "$TMP/arrow-$src.log"
  first=$(grep -o 'job [0-9.]*' "$TMP/arrow-$src.log" | head -1 | cut -d' ' -f2)
  job=$(grep -o 'job [0-9.]*' "$TMP/arrow-$src.log" | tail -1 | cut -d' ' -f2)
  up=$(grep -o 'start-up [0-9.]*' "$TMP/arrow-$src.log" | head -1 | cut -d' ' -f2)
  warm=$(grep -o 'warm-up [0-9.]*' "$TMP/arrow-$src.log" | head -1 | cut -d' ' -f2)
  echo "Spark Arrow ($src), local[$CORES]: ${job} s, $(rate "$job") puzzles/s in the session's second run; first run ${first} s, $(rate "$first") puzzles/s (Spark start-up ${up} s, Python workers ${warm} s)"
done

t0=$(date +%s.%N)
"$PY" examples/cluster/dask_solve.py --input "$TMP/in.csv" --output "$TMP/dask" --blocksize 4MB 2> /dev/null
dk=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
echo "Dask processes:            ${dk} s, $(rate "$dk") puzzles/s (with Python and Dask start)"
echo "after: $(uptime | sed 's/.*load/load/')"
