#!/usr/bin/env bash
# Runs every test (Swift Testing) in three invocations and ends with a plain "N passed, N failed" line:
#   1. everything but the heavy suites, 32 at a time: the tests that wait for processes and signals;
#   2. the suites that run real programs (PROGRAM_SUITES: browsers, desktop apps, Hypothesis's walks), one test
#      at a time: five Chromiums and desktop apps starting at once on two cores kept a browser's first tab past
#      the bridge's 10 s in one run of two;
#   3. the CPU-heavy suites (CPU_SUITES), in parallel among themselves,
# each apart from the others, so that a 100,000-call soak or a solver churn never competes with a test waiting
# for a daemon or a browser. Nothing is dropped: the second and third run exactly what the first skips.
set -uo pipefail
swift="${1:-swift}"
source "$(dirname "$0")/test-groups.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The first group 32 tests at a time: unbounded, Swift Testing ran over a hundred tests at once, each with a
# private dbus-daemon, and every dbus-daemon holds one of the user's 128 inotify instances
# (fs.inotify.max_user_instances): a test that needed one more (ConfigReadWatchTests) failed with EMFILE. 32 at
# once kept at most 22 buses alive and ran no slower (173 s against 183 s).
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=32 "$swift" test --skip-build --disable-xctest --skip "$HEAVY_SUITES" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 "$swift" test --skip-build --disable-xctest --filter "$PROGRAM_SUITES" 2>&1 | tee -a "$log"
programs=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && status=$programs
"$swift" test --skip-build --disable-xctest --filter "$CPU_SUITES" 2>&1 | tee -a "$log"
heavy=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && status=$heavy
# Swift Testing's last line of each run: "✔ Test run with 53 tests in 11 suites passed after ..." or "... failed
# after ... with N issues."
runs=$(grep -a -E "Test run with [0-9]+ tests?" "$log" | sed -E 's/.*Test run with ([0-9]+) tests?.*/\1/')
total=0
for count in $runs; do total=$((total + count)); done
# One "✘ Test name() failed after 1.2 seconds with N issues." line per failed test; its issues have lines of
# their own ("✘ Test name() recorded an issue at ...: Expectation failed: ..."), which must not be counted.
failed=$(grep -a -E "^✘ Test .* failed after [0-9.]+ seconds" "$log" | grep -a -v -c -E "^✘ Test run with" || true)
if [ "$(echo "$runs" | grep -c .)" -ne 3 ]; then
    echo "tests: a test run did not finish (saw $(echo "$runs" | grep -c .) of 3 summaries)"
    exit 1
fi
echo "tests: $((total - failed)) passed, $failed failed"
exit "$status"
