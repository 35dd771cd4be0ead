#!/usr/bin/env bash
# make tsan: the D-Bus tests and the integration tests under ThreadSanitizer. Everything (the test bundle,
# traitd, traitctl, traitd-adapters, the C test adapter) is built with -sanitize=thread into .build-tsan, so the
# daemon the tests start is instrumented too. Every process writes its reports to one folder; any report fails
# the run, and the reports are printed.
set -uo pipefail
swift="${1:-swift}"
scratch=.build-tsan
"$swift" build --build-tests --sanitize=thread --scratch-path "$scratch" || exit 1
"$swift" build --product generate-manual --sanitize=thread --scratch-path "$scratch" || exit 1
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
log="$reports/tests.log"
# Four tests at a time, and four times the usual waits for a process to start: instrumented processes are
# several times slower, and forty of them at once on two cores missed the fixtures' start-up wait.
# The suites that run real programs, then the CPU-heavy ones, run after the others, each apart, as in make test
# (scripts/test-groups.sh).
source "$(dirname "$0")/test-groups.sh"
status=0
# Each group with how many tests run at once: the real programs' suites one at a time, as in make test.
for entry in "4 --filter ^(DBusTests|IntegrationTests)\. --skip $HEAVY_SUITES" "1 --filter ^(DBusTests|IntegrationTests)\..*($PROGRAM_SUITES)" \
             "4 --filter ^(DBusTests|IntegrationTests)\..*($CPU_SUITES)"; do
    width=${entry%% *}
    group=${entry#* }
    # shellcheck disable=SC2086 # the group is two or four words
    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$width TRAITD_TEST_TIME_SCALE=4 \
        TSAN_OPTIONS="log_path=$reports/report halt_on_error=0" \
        "$swift" test --skip-build --sanitize=thread --scratch-path "$scratch" $group \
        2>&1 | tee -a "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
found=$(find "$reports" -name 'report.*' | wc -l)
for report in "$reports"/report.*; do
    [ -e "$report" ] && cat "$report"
done
summary=$(grep -a -E "Test run with [0-9]+ tests?" "$log" | sed -E 's/^.*(Test run with)/\1/' | paste -sd ';' -)
echo "tsan: ${summary:-no test ran}; $found ThreadSanitizer report(s)"
if [ "$found" -ne 0 ]; then exit 1; fi
exit "$status"
