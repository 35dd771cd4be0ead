#!/usr/bin/env bash
# Runs every test (Swift Testing) and ends with a plain "N passed, N failed" line.
set -uo pipefail
swift="${1:-swift}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$swift" test --skip-build --disable-xctest 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# Swift Testing's last line: "✔ Test run with 53 tests in 11 suites passed after ..." or "... failed after ... with N issues."
summary=$(grep -a -E "Test run with [0-9]+ tests?" "$log" | tail -n 1)
total=$(echo "$summary" | sed -E 's/.*Test run with ([0-9]+) tests?.*/\1/')
# One "✘ Test name() failed after 1.2 seconds with N issues." line per failed test; its issues have lines of
# their own ("✘ Test name() recorded an issue at ...: Expectation failed: ..."), which must not be counted.
failed=$(grep -a -E "^✘ Test .* failed after [0-9.]+ seconds" "$log" | grep -a -v -c -E "^✘ Test run with" || true)
if [ -z "$total" ]; then
    echo "tests: no test ran"
    exit 1
fi
echo "tests: $((total - failed)) passed, $failed failed"
exit "$status"
