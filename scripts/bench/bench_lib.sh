# Shared helpers of the benchmark scripts (sourced, not run).

# now: wall-clock seconds with nanoseconds.
now() { date +%s.%N; }

# replicate FILE N OUT: write FILE's lines repeated until at least N lines.
replicate() {
  local lines; lines=$(grep -c '' "$1")
  local copies=$(( ($2 + lines - 1) / lines ))
  for ((i = 0; i < copies; i++)); do cat "$1"; done > "$3"
}

# max A B: the larger of two numbers. The benchmark scripts keep the best of a few interleaved runs: on a shared,
# noisy machine it is the figure least disturbed by other work (as hyperfine's min time).
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > a ? b : a) }'; }
