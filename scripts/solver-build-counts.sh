#!/bin/bash
# Counts what our solver's build of a workload costs, in instructions and cache misses, for each order its
# constraints come in: valgrind's callgrind runs solver-benchmark with a simulated cache and counts only inside
# `Workload.build` (the timed region of the benchmark's build phase: the variables and constraints made, the edit
# variables and constraints added, the variables updated).
#
#     scripts/solver-build-counts.sh [--one-by-one] [WORKLOAD [ORDER...]]   (default: grid-50 as-written shuffled-2)
#
# The build adds the constraints as one batch (`Solver.add(contentsOf:)`), as the benchmark's does; --one-by-one
# adds them one by one in the workload's order instead.
#
# Why: this machine's wall-clock times of one build move by a third from run to run (its neighbours share the
# cache), so a change worth 2 % cannot be told from noise by timing it; these counts are the same on every run.
# They are not times (a miss costs what the machine's caches make it cost), so a change is shown faster by
# `make bench-solver`; these say where the difference between two orders, or two versions, comes from.
# The simulated last-level cache is 2 MiB, the size of this machine's L2 (its L3 is shared with other machines).
# SOLVER_BENCHMARK=path counts with that binary instead of building the release one (the test suite's smoke run
# passes its debug build).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=()
if [ "${1:-}" = --one-by-one ]; then mode=(--one-by-one); shift; fi
workload=${1:-grid-50}
if [ $# -gt 1 ]; then orders=("${@:2}"); else orders=(as-written shuffled-2); fi
builds=3

command -v valgrind >/dev/null || scripts/install-deps.sh valgrind
if [ -n "${SOLVER_BENCHMARK:-}" ]; then
    bin=$SOLVER_BENCHMARK
else
    swift build -c release --static-swift-stdlib --product solver-benchmark >/dev/null
    bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/solver-benchmark"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "$workload${mode:+ (one by one)}: our build, per build (callgrind, simulated 2 MiB last-level cache; $builds timed builds and the"
echo "benchmark's trace build, each counted)"
printf '%-12s %16s %16s %16s\n' order instructions "L1 data misses" "LL data misses"
for order in "${orders[@]}"; do
    # The mangled name of `Workload.build(into:)`: collection starts when it is entered and stops when it returns.
    valgrind --tool=callgrind --cache-sim=yes --LL=2097152,16,64 \
        --toggle-collect='$s14SolverWorkload0B0V5build4into*' --callgrind-out-file="$out/$order" \
        "$bin" --only "$workload" --order "$order" --no-peer --rounds 1 --loops 1 --churn 0 --churn-ops 0 \
        --builds "$builds" "${mode[@]}" >"$out/$order.log" 2>&1 || { cat "$out/$order.log"; exit 1; }
    # PROGRAM TOTALS: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw, each with its share in parentheses ("." when
    # nothing was counted).
    callgrind_annotate "$out/$order" 2>/dev/null | grep 'PROGRAM TOTALS' | sed 's/([^)]*)//g; s/,//g' |
        awk -v order="$order" -v n=$((builds + 1)) '
            { if ($1 !~ /^[0-9]+$/ || $1 == 0) { print order ": nothing counted (was Workload.build renamed?)"; exit 1 }
              printf "%-12s %16.0f %16.0f %16.0f\n", order, $1 / n, ($5 + $6) / n, ($8 + $9) / n }'
done
