# Shared helpers of the benchmark scripts (sourced, not run).

# now: wall-clock seconds with nanoseconds.
now() { date +%s.%N; }

# replicate FILE N OUT: write FILE's lines repeated until at least N lines.
replicate() {
  local lines; lines=$(grep -c '' "$1")
  local copies=$(( ($2 + lines - 1) / lines ))
  for ((i = 0; i < copies; i++)); do cat "$1"; done > "$3"
}
