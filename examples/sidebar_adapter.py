#!/usr/bin/python3
"""An out-of-process traitd adapter in Python, on the traitd package's Adapter (dbus-fast underneath).

It registers as adapter ADAPTER for app APP and lays the window out at every transition:

    width >= 500 pt:  sidebar = (0, 0, min(320, 0.3 * width), height), content = the rest
    narrower:         content = the whole window; the sidebar is not reported (hidden)

Run it beside a traitd:   examples/sidebar_adapter.py --app mail
Options: --bus ADDRESS (default: the session bus), --adapter NAME (default: python-sidebar),
--delay-ms N (wait before each report, to play a slow adapter), --fail (report a failed layout).
It prints one line per registration and per report, and exits 0 on SIGINT or SIGTERM.
"""
import argparse
import os
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from traitd import Adapter, Layout, Transition  # noqa: E402


def sidebar(t: Transition) -> Layout:
    """The frames for the window, in window coordinates: two panes (containers: they may run under the status
    bar, as a split view's columns do; what they hold keeps to the safe area)."""
    if t.width < 500:
        return Layout({"content": (0.0, 0.0, t.width, t.height)}, kinds={"content": "container"})
    side = min(320.0, round(0.3 * t.width, 1))
    return Layout({"sidebar": (0.0, 0.0, side, t.height), "content": (side, 0.0, t.width - side, t.height)},
                  kinds={"sidebar": "container", "content": "container"})


def main() -> int:
    parser = argparse.ArgumentParser(description="A sidebar layout adapter for traitd, in Python.")
    parser.add_argument("--app", required=True, help="the app whose window to lay out")
    parser.add_argument("--adapter", default="python-sidebar", help="the adapter's name (default: python-sidebar)")
    parser.add_argument("--bus", default=os.environ.get("DBUS_SESSION_BUS_ADDRESS"), help="a D-Bus address (default: the session bus)")
    parser.add_argument("--delay-ms", type=int, default=0, help="wait this long before each report")
    parser.add_argument("--fail", action="store_true", help="report every layout as failed")
    o = parser.parse_args()

    def fail(t: Transition) -> Layout:
        raise RuntimeError("asked to fail (--fail)")

    def reported(t: Transition, result: Layout | str) -> None:
        shown = result if isinstance(result, str) else " ".join(
            f"{k}=({','.join('%g' % v for v in f)})" for k, f in sorted(result.frames.items()))
        print(f"reported transition {t.id} {t.width:g}x{t.height:g}: {shown}", flush=True)

    adapter = Adapter(o.bus, o.app, o.adapter, fail if o.fail else sidebar, delay=o.delay_ms / 1000,
                      on_report=reported, on_registered=lambda owner: print(f"registered {o.adapter} for {o.app} with {owner}", flush=True))
    adapter.run(stop_on=(signal.SIGINT, signal.SIGTERM))
    return 0


if __name__ == "__main__":
    sys.exit(main())
