#!/usr/bin/env bash
# Runs traitd built with -sanitize=address (BIN_DIR: `make leak-check` builds it into .build-asan) on a private bus, drives it with gdbus and
# dbus-send through every kind of call (accepted and refused, arrays, restoration states, adapters and reports,
# transitions), stops it with SIGTERM, and reports the definite leaks whose stacks pass through the project's
# code (and any memory error AddressSanitizer finds on the way). Exits 1 if there is one.
# Usage: scripts/leak-check.sh BIN_DIR
set -uo pipefail
bin="${1:?usage: leak-check.sh BIN_DIR}"
work=$(mktemp -d)
trap 'kill $bus_pid 2>/dev/null; rm -rf "$work"' EXIT
dbus-daemon --session --address="unix:path=$work/bus" --nofork --print-address=1 > "$work/address" 2>/dev/null &
bus_pid=$!
for _ in $(seq 50); do [ -s "$work/address" ] && break; sleep 0.1; done
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus"
# LeakSanitizer (part of AddressSanitizer on Linux) reports at exit every block no longer reachable. (valgrind
# 3.19 cannot run this toolchain's binaries: it cannot read their DWARF 5 and crashes in the Swift runtime.)
ASAN_OPTIONS="detect_leaks=1:fast_unwind_on_malloc=0:malloc_context_size=40:log_path=$work/lsan" LSAN_OPTIONS="report_objects=0" \
    "$bin/traitd" --no-state --log-level warning 2> "$work/traitd.log" &
traitd_pid=$!
for _ in $(seq 600); do
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner org.traitd.Layout1 2>/dev/null | grep -q true && break
    sleep 0.2
done
call() { gdbus call --session --dest org.traitd.Layout1 "$@" > /dev/null 2>&1; }
root=(--object-path /org/traitd/Layout1)
mail=(--object-path /org/traitd/Layout1/window/mail)
for round in 1 2 3; do
    call "${root[@]}" --method org.traitd.Layout1.Display.Rotate portrait
    call "${root[@]}" --method org.traitd.Layout1.Display.Rotate sideways                      # refused
    call "${root[@]}" --method org.traitd.Layout1.Display.SetArrangement "['split-half']"        # wrong signature
    call "${root[@]}" --method org.traitd.Layout1.Display.SetArrangement split-half
    call "${root[@]}" --method org.traitd.Layout1.Display.RegisterAdapter mail "leak-$round"
    call "${mail[@]}" --method org.traitd.Layout1.Window.ReportLayout 0 "leak-$round" "{'main': (0.0, 0.0, 10.0, 10.0)}" "{'k': <['a', 'b']>}"
    call "${mail[@]}" --method org.traitd.Layout1.Window.ReportLayout 0 nobody "{}" "{}"          # refused
    call "${mail[@]}" --method org.traitd.Layout1.Window.SetRestorationState "{'tabs': <['a', 'b']>, 'n': <int32 $round>}"
    call "${mail[@]}" --method org.traitd.Layout1.Window.SetRestorationState \
        "{'k': <{'k': <{'k': <{'k': <{'k': <{'k': <{'k': <{'k': <{'k': <{'k': <{'k': <'deep'>}>}>}>}>}>}>}>}>}>}>}"  # refused
    call "${root[@]}" --method org.traitd.Layout1.Display.OpenApp maps slide-over
    call "${root[@]}" --method org.traitd.Layout1.Display.CloseApp maps
    call "${root[@]}" --method org.traitd.Layout1.Display.BeginDividerDrag
    call "${root[@]}" --method org.traitd.Layout1.Display.MoveDivider 300.0
    call "${root[@]}" --method org.traitd.Layout1.Display.EndDividerDrag
    call "${root[@]}" --method org.traitd.Layout1.Display.GetState
    call "${root[@]}" --method org.freedesktop.DBus.ObjectManager.GetManagedObjects
    call "${root[@]}" --method org.traitd.Layout1.Display.Rotate landscape-left
done
sleep 1  # let the transitions' deadlines pass
if ! kill -TERM "$traitd_pid" 2>/dev/null; then
    echo "leak-check: traitd did not run:"; tail -n 20 "$work/traitd.log" "$work"/lsan* 2>/dev/null; exit 2
fi
wait "$traitd_pid"
code=$?
report=$(cat "$work"/lsan* 2>/dev/null)
[ -n "${LEAK_CHECK_LOG:-}" ] && printf '%s\n' "$report" > "$LEAK_CHECK_LOG"
direct=$(printf '%s\n' "$report" | grep -c "^Direct leak" || true)
indirect=$(printf '%s\n' "$report" | grep -c "^Indirect leak" || true)
errors=$(printf '%s\n' "$report" | grep -E "^SUMMARY: AddressSanitizer: [a-z-]+" | grep -v "leaked in" || true)
# A leak "from the project's code" has a frame in one of the project's modules in its stack; the rest is
# libdbus's, the Swift runtime's or Foundation's own.
ours=$(printf '%s\n' "$report" | awk '/^(Direct|Indirect) leak/{if (block ~ /\/(Sources|Tests|Fuzz)\//) print block; block=$0; next}
    {block=block "\n" $0} END{if (block ~ /\/(Sources|Tests|Fuzz)\//) print block}' | grep -E "^(Direct|Indirect) leak|/Sources/" | head -n 60)
echo "leak-check: traitd exited $code; LeakSanitizer: $direct direct and $indirect indirect leak report(s) in all"
if [ -n "$errors" ]; then
    echo "leak-check: AddressSanitizer found a memory error:"; printf '%s\n' "$report" | head -n 40; exit 1
fi
if [ -n "$ours" ]; then
    echo "leak-check: leaks from the project's code:"; echo "$ours"; exit 1
fi
echo "leak-check: no leaks from the project's code"
[ "$code" -eq 0 ]
