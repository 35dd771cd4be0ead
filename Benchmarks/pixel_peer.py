"""The golden-picture check's peer for `make bench-pixels`: Python's pixelmatch (PyPI, a port of Mapbox's
pixelmatch, the algorithm traitd's Pixels follows) with Pillow reading the PNGs, on the same matching pair, at the
same threshold, on the equal pair and the nudged one; the median of 30 runs, as pixel-benchmark prints its own."""

import sys
import time

from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch

a = sys.argv[1]
for label, b in (("equal pair ", sys.argv[2]), ("nudged pair", sys.argv[3])):
    times = []
    differing = -1
    for _ in range(30):
        start = time.perf_counter()
        differing = pixelmatch(Image.open(a).convert("RGBA"), Image.open(b).convert("RGBA"), threshold=0.2)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(f"{label} Python pixelmatch + Pillow: read both PNGs and compare {times[15]:7.2f} ms ({differing} pixels differ)")
