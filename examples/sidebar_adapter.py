#!/usr/bin/python3
"""An out-of-process traitd adapter in Python, on dbus-python (Debian's python3-dbus) and GLib.

It registers as adapter ADAPTER for app APP, and for every transition of that app's window computes a
sidebar layout and reports it with ReportLayout:

    width >= 500 pt:  sidebar = (0, 0, min(320, 0.3 * width), height), content = the rest
    narrower:         content = the whole window; the sidebar is not reported (hidden)

Run it beside a traitd:   examples/sidebar_adapter.py --app mail
Options: --bus ADDRESS (default: the session bus), --adapter NAME (default: python-sidebar),
--delay-ms N (wait before each report, to play a slow adapter), --fail (report a failed layout).
It prints one line per registration and per report, and exits 0 on SIGINT or SIGTERM.
"""
import argparse
import signal
import sys

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

BUS_NAME = "org.traitd.Layout1"
ROOT = "/org/traitd/Layout1"
DISPLAY = "org.traitd.Layout1.Display"
WINDOW = "org.traitd.Layout1.Window"


def window_path(app):
    """The window's object path: every character but A-Z a-z 0-9 escaped as _XX, as traitd does."""
    return ROOT + "/window/" + "".join(c if c.isascii() and c.isalnum() else "_%02x" % ord(c) for c in app)


def sidebar_layout(width, height):
    """The frames for a window of width x height points, in window coordinates."""
    if width >= 500:
        side = min(320.0, round(0.3 * width, 1))
        return {"sidebar": (0.0, 0.0, side, height), "content": (side, 0.0, width - side, height)}
    return {"content": (0.0, 0.0, width, height)}


class SidebarAdapter:
    """Follows the daemon across restarts.

    dbus-python binds a proxy to the unique name that owned BUS_NAME when the proxy was made, so every proxy
    is made anew whenever the name changes hands. Signals are acted on only when they come from the current
    owner: any peer on the bus can send a signal straight to this connection.
    """

    def __init__(self, bus, app, adapter, delay_ms, fail):
        self.bus, self.app, self.adapter = bus, app, adapter
        self.delay_ms, self.fail = delay_ms, fail
        self.path = window_path(app)
        self.reported = set()
        self.owner = None
        # Every transition ends with ViewWillLayoutSubviews: the window's properties hold its new frame by then,
        # so the adapter lays out there, whichever of the optional signals before it came.
        bus.add_signal_receiver(self.on_signal, signal_name="ViewWillLayoutSubviews", dbus_interface=WINDOW,
                                path=self.path, bus_name=BUS_NAME, member_keyword="member", sender_keyword="sender")
        # Register again whenever traitd (re)appears on the bus (dbus-python checks that NameOwnerChanged comes
        # from the bus itself).
        bus.watch_name_owner(BUS_NAME, self.on_owner)

    def proxy(self, path):
        """A proxy for an object of the daemon that owns the name now."""
        return self.bus.get_object(self.owner, path, introspect=False)

    def on_owner(self, owner):
        self.owner = owner or None
        self.reported.clear()
        if not owner:
            print("traitd left the bus; waiting for it", flush=True)
            return
        try:
            self.proxy(ROOT).RegisterAdapter(self.app, self.adapter, dbus_interface=DISPLAY)
        except dbus.DBusException as error:
            print(f"cannot register with {owner}: {error.get_dbus_name()}: {error.get_dbus_message()}", flush=True)
            return
        print(f"registered {self.adapter} for {self.app} with {owner}", flush=True)
        # Lay out the window as it is now, outside any transition (transition 0), if it is open.
        try:
            frame = self.proxy(self.path).Get(WINDOW, "Frame", dbus_interface="org.freedesktop.DBus.Properties")
            self.report(0, float(frame[2]), float(frame[3]))
        except dbus.DBusException:
            pass  # the app has no window yet

    def on_signal(self, transition, member=None, sender=None):
        if self.owner is None or sender != self.owner:
            print(f"ignored {member} from {sender}: not traitd ({self.owner})", flush=True)
            return
        transition = int(transition)
        if transition in self.reported:
            return
        frame = self.proxy(self.path).Get(WINDOW, "Frame", dbus_interface="org.freedesktop.DBus.Properties")
        width, height = float(frame[2]), float(frame[3])
        self.reported.add(transition)
        if self.delay_ms:
            GLib.timeout_add(self.delay_ms, lambda: self.report(transition, width, height) and False)
        else:
            self.report(transition, width, height)

    def report(self, transition, width, height):
        frames = {} if self.fail else sidebar_layout(width, height)
        extras = {"error": dbus.String("asked to fail (--fail)", variant_level=1)} if self.fail else {}
        if self.owner is None:
            return False
        try:
            self.proxy(self.path).ReportLayout(
                dbus.UInt64(transition), self.adapter,
                dbus.Dictionary({k: dbus.Struct([dbus.Double(v) for v in f]) for k, f in frames.items()},
                                signature="s(dddd)"),
                dbus.Dictionary(extras, signature="sv"),
                dbus_interface=WINDOW)
            shown = " ".join(f"{k}=({','.join('%g' % v for v in f)})" for k, f in sorted(frames.items()))
            print(f"reported transition {transition} {width:g}x{height:g}: {shown or 'failed'}", flush=True)
        except dbus.DBusException as error:
            print(f"report for transition {transition} refused: {error.get_dbus_name()}: {error.get_dbus_message()}",
                  flush=True)
        return False


def main():
    parser = argparse.ArgumentParser(description="A sidebar layout adapter for traitd, in Python.")
    parser.add_argument("--app", required=True, help="the app whose window to lay out")
    parser.add_argument("--adapter", default="python-sidebar", help="the adapter's name (default: python-sidebar)")
    parser.add_argument("--bus", help="a D-Bus address (default: the session bus)")
    parser.add_argument("--delay-ms", type=int, default=0, help="wait this long before each report")
    parser.add_argument("--fail", action="store_true", help="report every layout as failed")
    options = parser.parse_args()

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    if options.bus:
        bus = dbus.bus.BusConnection(options.bus)
    else:
        bus = dbus.SessionBus()
    loop = GLib.MainLoop()
    for number in (signal.SIGINT, signal.SIGTERM):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, loop.quit)
    SidebarAdapter(bus, options.app, options.adapter, options.delay_ms, options.fail)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
