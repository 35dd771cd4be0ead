#!/usr/bin/python3
"""Compares two PNG pictures of the same size: prints the share of pixels that differ by more than a little
(any channel off by more than 8) and the mean absolute difference per channel, 0 to 255.

    compare_png.py A.png B.png        # e.g. "differing 0.0000 mean 0.00"

traitd-view's test compares a screenshot of the view with `traitctl render`'s picture of the same state."""
import sys

import gi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf  # noqa: E402


def pixels(path):
    image = GdkPixbuf.Pixbuf.new_from_file(path)
    if image.get_has_alpha():
        image = image.composite_color_simple(image.get_width(), image.get_height(), GdkPixbuf.InterpType.NEAREST, 255, 1,
                                             0xF3F3F4, 0xF3F3F4)  # render's background, where the PNG is transparent
    return image.get_width(), image.get_height(), image.get_rowstride(), image.get_n_channels(), image.get_pixels()


def main():
    (wa, ha, ra, na, a), (wb, hb, rb, nb, b) = pixels(sys.argv[1]), pixels(sys.argv[2])
    if (wa, ha) != (wb, hb):
        sys.exit(f"sizes differ: {wa}x{ha} and {wb}x{hb}")
    differing, total = 0, 0
    for y in range(ha):
        for x in range(wa):
            pa, pb = a[y * ra + x * na:y * ra + x * na + 3], b[y * rb + x * nb:y * rb + x * nb + 3]
            deltas = [abs(pa[i] - pb[i]) for i in range(3)]
            total += sum(deltas)
            differing += max(deltas) > 8
    print(f"differing {differing / (wa * ha):.4f} mean {total / (wa * ha * 3):.2f}")


if __name__ == "__main__":
    main()
