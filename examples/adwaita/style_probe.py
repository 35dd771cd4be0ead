#!/usr/bin/python3
"""A small libadwaita app that says what its style manager sees: the test app of `traitd --portal`.

libadwaita's AdwStyleManager reads the desktop's settings portal (org.freedesktop.portal.Settings) at start and
follows its SettingChanged: under `traitd --portal` (or `traitctl run --portal -- ...`) it follows the simulated
appearance and contrast. At start and after each change, once the window has drawn, it prints one line

    style dark=true high-contrast=false luminance=36 saved DIR/dark.png

(with --screenshots DIR, on X11 with xwd: the window grabbed from the screen, and the mean luminance of its
pixels, 0 to 255) or without the screenshot part.

    examples/adwaita/style_probe.py [--screenshots DIR]
"""
import argparse
import os
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
from gi.repository import Adw, GLib, Gtk  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gtk"))
import x11_screenshot  # noqa: E402  (examples/gtk)

WIDTH, HEIGHT = 360, 240


class Probe:
    def __init__(self, application, screenshots):
        self.application, self.screenshots = application, screenshots
        self.window = None
        self.pending = False

    def activate(self, application):
        self.window = Adw.ApplicationWindow(application=application, default_width=WIDTH, default_height=HEIGHT)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=24, margin_start=24)
        box.append(Gtk.Label(label="traitd: the simulated appearance"))
        box.append(Gtk.Button(label="A button"))
        self.window.set_content(box)
        manager = Adw.StyleManager.get_default()
        manager.connect("notify::dark", lambda *_: self.report_after_drawing())
        manager.connect("notify::high-contrast", lambda *_: self.report_after_drawing())
        self.window.present()
        self.report_after_drawing()

    def report_after_drawing(self):
        """Reports once the window has painted the new style: after the frame clock's next paint."""
        if self.pending:
            return
        self.pending = True
        self.window.queue_draw()

        def painted(clock):
            clock.disconnect(handler)
            # The paint has been handed to the X server; grab on the next turn of the main loop.
            GLib.idle_add(self.report)
        clock = self.window.get_frame_clock()
        if clock is None:  # not mapped yet: the first map paints
            self.window.connect("map", lambda *_: GLib.idle_add(self.report_after_drawing_again))
            return
        handler = clock.connect("after-paint", painted)

    def report_after_drawing_again(self):
        self.pending = False
        self.report_after_drawing()
        return False

    def report(self):
        self.pending = False
        manager = Adw.StyleManager.get_default()
        dark, contrast = manager.get_dark(), manager.get_high_contrast()
        line = f"style dark={str(dark).lower()} high-contrast={str(contrast).lower()}"
        if self.screenshots:
            name = ("dark" if dark else "light") + ("-high-contrast" if contrast else "")
            path = os.path.join(self.screenshots, f"{name}.png")
            try:
                width, height, rows = x11_screenshot.grab(WIDTH, HEIGHT)
                with open(path, "wb") as out:
                    out.write(x11_screenshot.png(width, height, rows))
                total = sum(0.2126 * row[i] + 0.7152 * row[i + 1] + 0.0722 * row[i + 2]
                            for row in rows for i in range(0, len(row), 3))
                line += f" luminance={round(total / (width * height))} saved {path}"
            except Exception as error:  # noqa: BLE001  (say it, keep running)
                line += f" no screenshot: {error}"
        print(line, flush=True)
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--screenshots", help="grab the window to DIR/light.png, DIR/dark.png ... after each change")
    options = parser.parse_args()
    if options.screenshots:
        os.makedirs(options.screenshots, exist_ok=True)
    application = Adw.Application(application_id="org.traitd.StyleProbe")
    probe = Probe(application, options.screenshots)
    application.connect("activate", probe.activate)
    application.run([])


if __name__ == "__main__":
    main()
