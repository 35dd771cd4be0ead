#!/usr/bin/env bash
# Proof that the test suite cannot be starved: runs the whole of `make test` RUNS times in a row (default 3) with
# two CPU-bound stress-ng workers beside it (the machine has two cores, so every test competes for them), and
# stops at the first red run. Each run prints its summary line and its time.
#
#   scripts/stress-test.sh                 3 loaded runs in this checkout (a warm .build)
#   scripts/stress-test.sh --fresh         3 first runs, each in a new clone in a new empty folder (a cold .build),
#                                          as a newcomer's `git clone && make test`; the committed HEAD is tested
#   scripts/stress-test.sh --runs 5 --no-load
#
# stress-ng comes from Debian (installed here when missing).
set -euo pipefail
runs=3 fresh=false load=true
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --fresh) fresh=true; shift ;;
        --no-load) load=false; shift ;;
        *) echo "usage: $0 [--runs N] [--fresh] [--no-load]" >&2; exit 2 ;;
    esac
done
repository="$(cd "$(dirname "$0")/.." && pwd)"
"$repository/scripts/install-deps.sh" stress-ng
stress=""
stop_stress() { [ -n "$stress" ] && kill "$stress" 2>/dev/null && wait "$stress" 2>/dev/null; stress=""; }
trap stop_stress EXIT
if $load; then
    # Two workers that each keep a core busy for as long as the runs last.
    stress-ng --cpu 2 --cpu-method matrixprod --timeout 0 --quiet &
    stress=$!
    echo "stress-test: 2 CPU-bound stress-ng workers (pid $stress) beside every run"
fi
for run in $(seq 1 "$runs"); do
    if $fresh; then
        folder=$(mktemp -d)
        git clone --quiet --no-hardlinks "$repository" "$folder/traitd"
        where="$folder/traitd"
    else
        folder="" where="$repository"
    fi
    log=$(mktemp)
    start=$(date +%s)
    set +e
    make -C "$where" test >"$log" 2>&1
    status=$?
    set -e
    seconds=$(( $(date +%s) - start ))
    summary=$(grep -a -E "^tests: " "$log" | tail -n 1)
    echo "stress-test run $run of $runs ($($fresh && echo "fresh clone, cold build" || echo "warm build")$($load && echo ", loaded")): ${summary:-no summary} in ${seconds} s (exit $status)"
    if [ "$status" -ne 0 ]; then
        grep -a -E "^✘ Test .* (failed after|recorded an issue)" "$log" | head -n 40 || true
        echo "stress-test: run $run failed; its whole log: $log"
        [ -n "$folder" ] && rm -rf "$folder"
        exit 1
    fi
    rm -f "$log"
    [ -n "$folder" ] && rm -rf "$folder"
done
echo "stress-test: $runs of $runs runs passed"
