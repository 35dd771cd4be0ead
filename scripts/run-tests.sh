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
failed=$(grep -a -c -E "^✘ Test [^r].* failed" "$log" || true)
if [ -z "$total" ]; then
    echo "tests: no test ran"
    exit 1
fi
echo "tests: $((total - failed)) passed, $failed failed"
exit "$status"
