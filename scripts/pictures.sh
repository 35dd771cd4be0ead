#!/usr/bin/env bash
# make pictures: regenerate the README's pictures from the binaries in $1 (the debug build folder).
#   docs/screen.svg              the embedded default display with the adapter host's frames (traitctl render)
#   docs/screen-slide-over.svg   iPad mini, portrait, Slide Over with a picture-in-picture window
#   docs/screen-stage.svg        iPad Pro 13" (M4) in Stage Manager: overlapping windows in stacking order
#   docs/screen-two-displays.svg   the same with a 1440p monitor, notes moved to it
#   docs/matrix.svg              support-panel.layout on three devices (traitctl layout matrix)
#   docs/gtk-split.png, docs/gtk-stacked.png   the GTK client (examples/gtk) under Xvfb, regular and compact
#   docs/gtk-dark-rtl.png        the same regular window, dark and right to left
#   docs/calculator-694.png, -507, -320, -stage.png   GNOME Calculator, unmodified, through the desktop bridge
#                                (traitd-adapters --app) at notes' Split View widths and after a Stage Manager
#                                live resize: its real window on the host's own display
set -euo pipefail
bin=$1
cd "$(dirname "$0")/.."
export PATH="$bin:$PATH"
say() { printf 'pictures: %s\n' "$*" >&2; }

say "docs/screen.svg"
traitctl run --adapters -- traitctl render --svg docs/screen.svg
say "docs/screen-slide-over.svg"
traitctl run --adapters --device ipad-mini-6 -- sh -c '
    traitctl set orientation portrait --wait >/dev/null &&
    traitctl open tv --role pip --wait >/dev/null &&
    traitctl set arrangement slide-over --wait >/dev/null &&
    traitctl render --svg docs/screen-slide-over.svg'
say "docs/screen-stage.svg"
traitctl run --adapters --device ipad-pro-13-m4 -- sh -c '
    traitctl set windowing stage-manager --wait >/dev/null &&
    traitctl open maps --role window --wait >/dev/null &&
    traitctl open music --role window --wait >/dev/null &&
    traitctl tile mail left-half --wait >/dev/null &&
    traitctl frame notes 700 40 640 520 --wait >/dev/null &&
    traitctl frame music 420 380 560 420 --wait >/dev/null &&
    traitctl raise notes >/dev/null &&
    traitctl open tv --role pip --wait >/dev/null &&
    traitctl render --svg docs/screen-stage.svg'
say "docs/screen-two-displays.svg"
traitctl run --adapters --device ipad-pro-13-m4 -- sh -c '
    traitctl set windowing stage-manager --wait >/dev/null &&
    traitctl display connect external-1440p >/dev/null &&
    traitctl open maps --role window --wait >/dev/null &&
    traitctl tile mail left-half --wait >/dev/null &&
    traitctl display move notes external-1 --wait >/dev/null &&
    traitctl frame notes 100 60 900 600 --wait >/dev/null &&
    traitctl render --svg docs/screen-two-displays.svg'
say "docs/matrix.svg"
traitctl layout matrix Config/layouts/support-panel.layout --device ipad-9.7 --device ipad-pro-12.9 \
    --device iphone-12 --svg docs/matrix.svg >/dev/null

say "docs/gtk-*.png (GTK 4 under Xvfb)"
work=$(mktemp -d)
trap 'kill "$xvfb" 2>/dev/null || true; rm -rf "$work"' EXIT
Xvfb -displayfd 3 -screen 0 1400x1400x24 -nolisten tcp 3>"$work/display" 2>/dev/null &
xvfb=$!
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || { say "Xvfb did not start"; exit 1; }
export DISPLAY=":$(cat "$work/display")" GDK_BACKEND=x11 GSK_RENDERER=cairo NO_AT_BRIDGE=1
# The app's screenshot of a transition is named by its id, which --wait prints.
traitctl run -- /usr/bin/env WORK="$work" sh -c '
    /usr/bin/python3 examples/gtk/traitd_gtk.py --app mail --screenshots "$WORK" >"$WORK/gtk.log" 2>&1 &
    app=$!
    for _ in $(seq 300); do traitctl get Layouts --app mail | grep -q "\"gtk\"" && break; sleep 0.1; done
    shot() {
        id=$(traitctl "$@" --wait | sed -n "s/^mail TransitionCompleted #\([0-9]*\) .*/\1/p")
        for _ in $(seq 100); do [ -s "$WORK/$id.png" ] && break; sleep 0.1; done
        cat "$WORK/$id.png"
    }
    shot set orientation portrait >docs/gtk-stacked.png
    traitctl set orientation landscape-left --wait >/dev/null
    traitctl set device ipad-pro-12.9 --wait >/dev/null
    shot set arrangement split-half >docs/gtk-split.png
    traitctl set direction right-to-left --wait >/dev/null
    shot set appearance dark >docs/gtk-dark-rtl.png
    kill $app'
file docs/gtk-stacked.png docs/gtk-split.png docs/gtk-dark-rtl.png >&2 || true

say "docs/calculator-*.png (the desktop bridge)"
config="$work/long-deadline.yaml"
printf 'transitions: { deadline-ms: 60000 }\n' >"$config"
traitctl run --config "$config" -- /usr/bin/env WORK="$work" sh -c '
    traitd-adapters --only-layouts --app notes=gnome-calculator >"$WORK/host.log" 2>&1 &
    host=$!
    for _ in $(seq 300); do traitctl get Layouts --app notes | grep -q "\"desktop\"" && break; sleep 0.1; done
    # The host says which display it made; the app window sits at its top-left corner, 2 device pixels a point.
    display=$(sed -n "s/.*desktop apps on display \(:[0-9]*\),.*/\1/p" "$WORK/host.log")
    # (and the 10-pixel margin of its decorations around it)
    shot() { DISPLAY=$display /usr/bin/python3 examples/gtk/x11_screenshot.py "$1" $(($2 * 2 + 20)) $(($3 * 2 + 20)); }
    traitctl set arrangement split-one-third --wait >/dev/null && shot docs/calculator-694.png 694 768
    traitctl set arrangement split-half --wait >/dev/null && shot docs/calculator-507.png 507 768
    traitctl set arrangement split-two-thirds --wait >/dev/null && shot docs/calculator-320.png 320 768
    traitctl set windowing stage-manager --wait >/dev/null
    traitctl frame notes 0 0 560 620 --wait >/dev/null
    traitctl resize notes 760 620 --live 8 --wait >/dev/null && shot docs/calculator-stage.png 760 620
    kill $host'
say "done"
