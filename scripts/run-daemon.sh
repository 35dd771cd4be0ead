#!/usr/bin/env bash
# Runs traitd in the foreground with its embedded default config. When no session bus answers (no
# DBUS_SESSION_BUS_ADDRESS, or a stale one), starts a private one first and prints the line to export.
# Usage: scripts/run-daemon.sh PATH/TO/traitd [traitd options...]
set -euo pipefail
traitd="$1"
shift

bus_pid=""
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] || ! dbus-send --session --print-reply --dest=org.freedesktop.DBus \
        /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1; then
    info=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
    DBUS_SESSION_BUS_ADDRESS=$(echo "$info" | sed -n 1p)
    bus_pid=$(echo "$info" | sed -n 2p)
    export DBUS_SESSION_BUS_ADDRESS
    mkdir -p .build
    echo "export DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS'" > .build/session-bus.env
    echo "traitd: no session bus was running; started a private one. In another terminal:"
    echo
    echo "    export DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS'"
    echo "    (or: source .build/session-bus.env)"
    echo
fi

stop_bus() { [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null || true; }
trap stop_bus EXIT
# traitd exits 0 on SIGTERM/SIGINT; the trap then stops the private bus.
"$traitd" "$@" &
daemon=$!
trap 'kill -TERM $daemon 2>/dev/null || true' INT TERM
wait $daemon || status=$?
wait $daemon 2>/dev/null || true
exit "${status:-0}"
