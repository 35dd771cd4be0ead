#!/usr/bin/python3
"""A GTK 4 application that lives in one of traitd's simulated windows.

It follows the window of app APP (default: mail):
  - its own window takes the simulated frame's size (1 point = 1 pixel) on every transition;
  - it adapts as a libadwaita app does, through a breakpoint: it declares "narrow" (max-width: 550sp, in
    AdwBreakpointCondition's syntax) for its window with SetBreakpoints, and where traitd says the breakpoint holds
    (the window's Breakpoints) collapses to one stacked view (the content, with a back button to the list);
    elsewhere a sidebar is beside the content, as UISplitViewController does. At the default text size 550 sp are
    550 pt, between an iPad's compact and regular Split View widths; a larger text moves it (sp grows with it);
  - it follows the display-wide traits of the window's Traits: dark appearance (GTK's prefer-dark setting),
    right to left (Gtk.Widget.set_default_direction: the sidebar moves to the right, as UIKit mirrors leading
    and trailing) and the text size (the body size of the content size category, as the font size), printing
    "traits appearance=dark direction=right-to-left content-size=large" once they are applied;
  - it registers as adapter "gtk" for APP and, once GTK has allocated its widgets at the new size, reports the
    allocations GTK actually gave them (read back from the widgets, not computed) with ReportLayout.

Debian packages: python3-gi, gir1.2-gtk-4.0. Run beside a traitd (or: traitctl run -- examples/gtk/traitd_gtk.py):
    examples/gtk/traitd_gtk.py [--app mail] [--screenshots DIR]
With --screenshots (on X11, with xwd from x11-apps), the window is grabbed from the screen after every report, to
DIR/TRANSITION.png.
All D-Bus work goes through GIO (GDBus), on the same main loop as GTK.
"""
import argparse
import os
import signal
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

import x11_screenshot  # noqa: E402  (beside this file)

BUS_NAME = "org.traitd.Layout1"
ROOT = "/org/traitd/Layout1"
DISPLAY = "org.traitd.Layout1.Display"
WINDOW = "org.traitd.Layout1.Window"
ADAPTER = "gtk"
SIDEBAR_WIDTH = 320
# The breakpoint below which the app shows one view at a time (libadwaita's syntax, judged by traitd).
BREAKPOINTS = {"narrow": "max-width: 550sp"}
MAILBOXES = ["Inbox", "VIPs", "Flagged", "Drafts", "Sent", "Archive"]
# The Body text style's size in points per content size category (Apple's typography tables: traitd's
# docs/reference/traits.md), smallest first.
BODY_SIZES = {
    "extra-small": 14, "small": 15, "medium": 16, "large": 17, "extra-large": 19, "extra-extra-large": 21,
    "extra-extra-extra-large": 23, "accessibility-medium": 28, "accessibility-large": 33,
    "accessibility-extra-large": 40, "accessibility-extra-extra-large": 47, "accessibility-extra-extra-extra-large": 53,
}


def window_path(app):
    """The window's object path: every character but A-Z a-z 0-9 escaped as _XX, as traitd does."""
    return ROOT + "/window/" + "".join(c if c.isascii() and c.isalnum() else "_%02x" % ord(c) for c in app)


class FollowingWindow(Gtk.ApplicationWindow):
    """The sidebar-and-content page and the stacked page, in a Gtk.Stack that shows one of them."""

    def __init__(self, application, app):
        super().__init__(application=application, title=f"traitd: {app}")
        self.set_decorated(False)  # the simulated window has no title bar: its whole frame is content
        # Not homogeneous: a stack is as large as its largest page otherwise, and the sidebar page would keep the
        # window from shrinking to a compact width.
        self.stack = Gtk.Stack(hhomogeneous=False, vhomogeneous=False)
        self.set_child(self.stack)

        # Regular width: sidebar | content.
        self.sidebar = self.mailbox_list()
        self.sidebar.set_size_request(SIDEBAR_WIDTH, -1)
        self.content = self.message(f"{app}: regular width, sidebar beside the content")
        split = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL)
        split.append(self.sidebar)
        split.append(Gtk.Separator(orientation=Gtk.Orientation.VERTICAL))
        split.append(self.content)
        self.stack.add_named(split, "split")

        # Compact width: one view at a time; a header with a back button over the content.
        self.header = Gtk.CenterBox()
        self.header.add_css_class("toolbar")
        back = Gtk.Button(label="‹ Mailboxes")
        back.connect("clicked", lambda _: self.stacked_pages.set_visible_child_name("list"))
        self.header.set_start_widget(back)
        self.header.set_center_widget(Gtk.Label(label="Inbox"))
        self.stacked_content = self.message(f"{app}: compact width, one stacked view")
        page = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        page.append(self.header)
        page.append(self.stacked_content)
        self.stacked_pages = Gtk.Stack(hhomogeneous=False, vhomogeneous=False)
        self.stacked_pages.add_named(page, "content")
        self.stacked_pages.add_named(self.mailbox_list(), "list")
        self.stacked_pages.set_visible_child_name("content")
        self.stack.add_named(self.stacked_pages, "stacked")

    @staticmethod
    def mailbox_list():
        listing = Gtk.ListBox()
        for name in MAILBOXES:
            listing.append(Gtk.Label(label=name, xalign=0, margin_start=12, margin_top=8, margin_bottom=8))
        scrolled = Gtk.ScrolledWindow(hscrollbar_policy=Gtk.PolicyType.NEVER)
        scrolled.set_child(listing)
        return scrolled

    @staticmethod
    def message(text):
        label = Gtk.Label(label=text, wrap=True, hexpand=True, vexpand=True)
        frame = Gtk.Frame(hexpand=True, vexpand=True)
        frame.set_child(label)
        return frame

    def show_layout(self, narrow):
        self.stack.set_visible_child_name("stacked" if narrow else "split")

    css = None

    def apply_traits(self, traits):
        """The display-wide traits, as GTK has them: dark theme, text direction, font size. Returns the line
        that says what was applied."""
        dark = traits.get("userInterfaceStyle") == "dark"
        Gtk.Settings.get_default().set_property("gtk-application-prefer-dark-theme", dark)
        rtl = traits.get("layoutDirection") == "right-to-left"
        Gtk.Widget.set_default_direction(Gtk.TextDirection.RTL if rtl else Gtk.TextDirection.LTR)
        category = traits.get("preferredContentSizeCategory", "large")
        if FollowingWindow.css is None:
            FollowingWindow.css = Gtk.CssProvider()
            Gtk.StyleContext.add_provider_for_display(self.get_display(), FollowingWindow.css,
                                                      Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
        css = f"window {{ font-size: {BODY_SIZES.get(category, 17)}px; }}"
        if hasattr(FollowingWindow.css, "load_from_string"):  # GTK 4.12 on
            FollowingWindow.css.load_from_string(css)
        else:
            FollowingWindow.css.load_from_data(css.encode())
        self.queue_resize()
        return (f"traits appearance={'dark' if dark else 'light'} direction={'right-to-left' if rtl else 'left-to-right'} "
                f"content-size={category}")

    def allocations(self):
        """The frames GTK gave the visible widgets, in window coordinates (what ReportLayout carries)."""
        if self.stack.get_visible_child_name() == "split":
            widgets = {"sidebar": self.sidebar, "content": self.content}
        else:
            widgets = {"header": self.header, "content": self.stacked_content}
        frames = {}
        for name, widget in widgets.items():
            ok, bounds = widget.compute_bounds(self)
            if ok:
                frames[name] = (bounds.get_x(), bounds.get_y(), bounds.get_width(), bounds.get_height())
        return frames


class Follower:
    """The D-Bus side: registration, signals, and the report once GTK has laid out the new size."""

    def __init__(self, application, app, screenshots):
        self.application, self.app, self.screenshots = application, app, screenshots
        self.path = window_path(app)
        self.window = None
        self.connection = None
        self.breakpoints = []  # the names of the app's breakpoints that hold (the window's Breakpoints)
        self.pending = None  # (transition, width, height) waiting for GTK's allocation
        self.traits = {}  # the window's Traits, as the last transition left them
        self.applied = None  # the traits line last printed
        self.settle = 0  # frames to wait after new traits, for GTK to lay out again
        self.requested = None  # the size last asked of GTK (set_default_size), until the window has it
        self.size = None  # (width, height) from the open transition's ViewWillTransitionToSize
        self.owner = None

    def start(self, connection):
        self.connection = connection
        self.window = FollowingWindow(self.application, self.app)
        # Only signals from traitd's current owner of the name: GDBus resolves the well-known name.
        connection.signal_subscribe(BUS_NAME, WINDOW, None, self.path, None, Gio.DBusSignalFlags.NONE,
                                    self.on_signal)
        Gio.bus_watch_name_on_connection(connection, BUS_NAME, Gio.BusNameWatcherFlags.NONE,
                                         self.on_appeared, self.on_vanished)

    def call(self, path, interface, method, parameters, reply_type=None):
        return self.connection.call_sync(BUS_NAME, path, interface, method, parameters,
                                         GLib.VariantType(reply_type) if reply_type else None,
                                         Gio.DBusCallFlags.NONE, 5000, None)

    def property(self, name):
        reply = self.call(self.path, "org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (WINDOW, name)),
                          "(v)")
        return reply.unpack()[0]

    def on_appeared(self, connection, name, owner):
        self.owner = owner
        try:
            self.call(ROOT, DISPLAY, "RegisterAdapter", GLib.Variant("(ss)", (self.app, ADAPTER)))
        except GLib.Error as error:
            print(f"cannot register: {error.message}", flush=True)
            return
        print(f"registered {ADAPTER} for {self.app} with {owner}", flush=True)
        try:
            # Declared from the adapter's own connection, once registered (traitd refuses anyone else).
            self.call(self.path, WINDOW, "SetBreakpoints", GLib.Variant("(a{ss})", (BREAKPOINTS,)), "(at)")
            frame = self.property("Frame")
            self.breakpoints = self.property("Breakpoints")
            self.traits = self.property("Traits")
        except GLib.Error:
            print(f"{self.app} has no window yet", flush=True)
            return
        self.follow(0, frame[2], frame[3])
        self.window.present()

    def on_vanished(self, connection, name):
        if self.owner:
            print("traitd left the bus; waiting for it", flush=True)
        self.owner = None

    def on_signal(self, connection, sender, path, interface, member, parameters):
        arguments = parameters.unpack()
        if member == "WillTransitionToTraitCollection":
            self.traits = arguments[1]
        elif member == "ViewWillTransitionToSize":
            self.size = (arguments[1], arguments[2])
        elif member == "ViewWillLayoutSubviews":
            # Every transition's last signal: its size (or the one the window had, when only traits changed)
            # and traits are known now.
            width, height = self.size if self.size else self.property("Frame")[2:4]
            self.size = None
            # The breakpoints that hold now: the properties hold the transition's values at this signal.
            self.breakpoints = self.property("Breakpoints")
            self.follow(arguments[0], width, height)

    def follow(self, transition, width, height):
        """Resizes to the simulated frame, switches the layout, and reports once GTK has allocated it."""
        self.pending = (transition, int(round(width)), int(round(height)))
        self.window.show_layout("narrow" in self.breakpoints)
        line = self.window.apply_traits(self.traits)
        if line != self.applied:
            self.applied = line
            self.settle = 2  # a new direction or font size is laid out on a later frame
            print(line, flush=True)
        # One resize at a time: GTK drops a new default size asked while the X server has not yet given the
        # window the last one (a live resize sends steps faster than that); on_tick asks for the newest later.
        if self.requested is None or self.window_size() == self.requested:
            self.request(self.pending[1], self.pending[2])
        self.window.add_tick_callback(self.on_tick)

    def window_size(self):
        return (self.window.get_width(), self.window.get_height())

    def request(self, width, height):
        self.requested = (width, height)
        self.window.set_default_size(width, height)

    def on_tick(self, widget, clock):
        """Runs on every frame until the window has the new size and its widgets were allocated at it."""
        if self.pending is None:
            return GLib.SOURCE_REMOVE
        transition, width, height = self.pending
        if self.window_size() == self.requested and self.requested != (width, height):
            self.request(width, height)  # the last size asked is in place: now the newest
        if self.window.get_width() != width or self.window.get_height() != height or self.window.get_allocated_width() == 0:
            return GLib.SOURCE_CONTINUE
        if self.settle > 0:
            self.settle -= 1
            return GLib.SOURCE_CONTINUE
        frames = self.window.allocations()
        if not frames or sum(f[2] for f in frames.values()) <= 0:
            return GLib.SOURCE_CONTINUE
        self.pending = None
        self.report(transition, frames)
        return GLib.SOURCE_REMOVE

    def report(self, transition, frames):
        extras = {
            "layout": GLib.Variant("s", self.window.stack.get_visible_child_name()),
            "window": GLib.Variant("(dd)", (float(self.window.get_width()), float(self.window.get_height()))),
            "toolkit": GLib.Variant("s", f"GTK {Gtk.get_major_version()}.{Gtk.get_minor_version()}.{Gtk.get_micro_version()}"),
            # What the widgets are, for traitd's layout checks: panes that hold the rest, which may reach
            # under the status bar as a UIKit bar's background does.
            "kinds": GLib.Variant("a{ss}", {name: "container" for name in frames}),
        }
        parameters = GLib.Variant("(tsa{s(dddd)}a{sv})", (transition, ADAPTER, frames, extras))
        try:
            self.call(self.path, WINDOW, "ReportLayout", parameters)
        except GLib.Error as error:
            print(f"report for transition {transition} refused: {error.message}", flush=True)
            return
        shown = " ".join(f"{k}=({','.join('%g' % v for v in f)})" for k, f in sorted(frames.items()))
        print(f"reported transition {transition} window={self.window.get_width()}x{self.window.get_height()} "
              f"{self.window.stack.get_visible_child_name()}: {shown}", flush=True)
        if self.screenshots:
            # After this frame is on screen: grab it from the X server (xwd), as a person would see it.
            size = (self.window.get_width(), self.window.get_height())
            GLib.timeout_add(100, self.screenshot, os.path.join(self.screenshots, f"{transition}.png"), size)

    def screenshot(self, path, size):
        try:
            x11_screenshot.save(path, *size)
            print(f"saved {path}", flush=True)
        except (OSError, ValueError) as error:
            print(f"no screenshot: {error}", flush=True)
        return GLib.SOURCE_REMOVE


def main():
    parser = argparse.ArgumentParser(description="A GTK 4 app that follows one of traitd's simulated windows.")
    parser.add_argument("--app", default="mail", help="the app whose window to follow (default: mail)")
    parser.add_argument("--screenshots", help="render every reported layout to DIR/TRANSITION.png")
    options = parser.parse_args()
    if options.screenshots:
        os.makedirs(options.screenshots, exist_ok=True)

    application = Gtk.Application(application_id=None, flags=Gio.ApplicationFlags.NON_UNIQUE)
    follower = Follower(application, options.app, options.screenshots)

    def on_activate(app):
        app.hold()  # the window appears once traitd does: keep running until then
        follower.start(Gio.bus_get_sync(Gio.BusType.SESSION, None))

    application.connect("activate", on_activate)
    for number in (signal.SIGINT, signal.SIGTERM):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, application.quit)
    return application.run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
