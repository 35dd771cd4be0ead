#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/) with -sanitize=fuzzer,address and runs each for $1 seconds (default 60),
# starting from its seed corpus in Fuzz/corpus/TARGET. New inputs go to .build-fuzz/corpus/TARGET, findings
# (crash-*, leak-*, timeout-*) to .build-fuzz/findings/TARGET/; replay one with the ordinary build:
#     swift build --product fuzz-layout && .build/debug/fuzz-layout .build-fuzz/findings/fuzz-layout/crash-...
# Prints one line per target (executions, new inputs, findings) and exits 1 if any target found anything.
set -uo pipefail
seconds="${1:-60}"
targets=(fuzz-layout fuzz-config fuzz-state-file fuzz-dbus-value)
swift="${SWIFT:-swift}"
flags=(--scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xcc -DFUZZING -Xswiftc -use-ld=lld)
for target in "${targets[@]}"; do
    "$swift" build "${flags[@]}" --product "$target" 2>&1 | grep -E "error|warning: unre|Compiling|complete" | tail -n 2
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz: cannot build $target"; exit 2; }
done
bin="$("$swift" build "${flags[@]}" --show-bin-path)"
status=0
summary=()
for target in "${targets[@]}"; do
    corpus=".build-fuzz/corpus/$target"
    findings=".build-fuzz/findings/$target"
    mkdir -p "$corpus" "$findings"
    log=".build-fuzz/$target.log"
    # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that needs 2 GiB is a leak or a bomb.
    "$bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$findings/" "$corpus" "Fuzz/corpus/$target" > "$log" 2>&1
    code=$?
    runs=$(grep -a -E "^stat::number_of_executed_units:" "$log" | awk '{print $2}')
    found=$(find "$findings" -type f | wc -l)
    inputs=$(find "$corpus" -type f | wc -l)
    summary+=("$target: ${runs:-0} executions in ${seconds} s, corpus ${inputs} inputs, findings ${found} (exit ${code})")
    if [ "$code" -ne 0 ] || [ "$found" -ne 0 ]; then
        status=1
        grep -a -E "ERROR|SUMMARY|Fatal error|precondition" "$log" | head -n 5
        echo "fuzz: $target found something; see $log and $findings/"
    fi
done
printf '%s\n' "${summary[@]}"
exit "$status"
