#!/usr/bin/env bash
# Runs traitd with its embedded default config and the adapter host (traitd-adapters) beside it, in the
# foreground. When no session bus answers (no DBUS_SESSION_BUS_ADDRESS, or a stale one), starts a private one
# first and prints the line to export. Then, unless DEMO=0, it rotates and splits the simulated iPad once, so
# that the four built-in adapters' reports scroll by; both keep running until Ctrl-C.
# Usage: scripts/run-daemon.sh BIN_DIR [traitd options...]
set -euo pipefail
bin="$1"
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

# Where the tools are, so that the next command in another terminal works. (Where the state is kept, traitd says
# itself when it starts: it alone knows --state-dir, the config's state-directory and the defaults.)
echo "traitd: traitctl is $bin/traitctl; in another terminal: export PATH=\"$bin:\$PATH\""

daemon="" host=""
stop_all() {
    [ -n "$host" ] && kill -TERM "$host" 2>/dev/null || true
    [ -n "$daemon" ] && kill -TERM "$daemon" 2>/dev/null || true
    [ -n "$host" ] && wait "$host" 2>/dev/null || true
    [ -n "$daemon" ] && wait "$daemon" 2>/dev/null || true
    [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null || true
}
trap stop_all EXIT
# traitd and the host exit 0 on SIGTERM/SIGINT; the trap then stops the private bus.
"$bin/traitd" "$@" &
daemon=$!
trap 'stop_all; exit 0' INT TERM
for _ in $(seq 100); do
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.GetNameOwner string:org.traitd.Layout1 >/dev/null 2>&1 && break
    kill -0 "$daemon" 2>/dev/null || { wait "$daemon" || exit $?; }
    sleep 0.1
done
"$bin/traitd-adapters" &
host=$!

if [ "${DEMO:-1}" != 0 ]; then
    sleep 1.5
    for step in "orientation portrait" "arrangement full" "orientation landscape-left" "arrangement split-half" \
                "arrangement split-two-thirds"; do
        echo "--- traitctl set $step"
        "$bin/traitctl" set $step || true
        sleep 1.5
    done
    echo "--- traitd and traitd-adapters keep running; try 'traitctl render --png screen.png'. Ctrl-C stops both."
fi
wait "$daemon" || status=$?
exit "${status:-0}"
