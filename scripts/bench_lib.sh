# Shared helpers of the benchmark scripts (sourced, not run).

# now: wall-clock seconds with nanoseconds.
now() { date +%s.%N; }

# replicate FILE N OUT: write FILE's lines repeated until at least N lines.
replicate() {
  local lines; lines=$(grep -c '' "$1")
  local copies=$(( ($2 + lines - 1) / lines ))
  for ((i = 0; i < copies; i++)); do cat "$1"; done > "$3"
}

# best N CMD...: run CMD (which prints one rate) N times, print the highest. On a shared, noisy machine the best
# of a few runs is the figure least disturbed by other work (as hyperfine's min).
best() {
  local n=$1 r top=0; shift
  for ((i = 0; i < n; i++)); do
    r=$("$@")
    top=$(awk -v a="$top" -v b="$r" 'BEGIN { print (b > a ? b : a) }')
  done
  echo "$top"
}
