#!/usr/bin/env python3
"""Writes the grid-N workload: an N x N grid of equal cells in a padded container (the format is in
workloads/README.md).

    make_grid_workload.py N > workloads/grid-N.txt

Every cell's width and height are required to equal the first cell's, and each row and column is chained
from one edge of the container to the other: many required equalities, most of which, once the basic
variables are substituted, leave no variable to solve for, so the engine adds them through an artificial
variable (phase one). Each cell would rather be 100 x 40 (weak) and at least 10 x 10 (required).
"""
import sys


def grid(n, spacing=8, padding=8):
    lines = [f"# Workload grid-{n}: {n} x {n} equal cells in a padded container (Benchmarks/make_grid_workload.py)."]
    names = ["left", "top", "width", "height"]
    cells = [(r, c) for r in range(n) for c in range(n)]
    for r, c in cells:
        names += [f"c{r}_{c}_{p}" for p in ("left", "top", "width", "height")]
    for i in range(0, len(names), 16):
        lines.append("var " + " ".join(names[i:i + 16]))
    lines += ["edit width 750", "edit height 750", "c 1*left == 0 @1000", "c 1*top == 0 @1000",
              "c 1*width >= 0 @1000", "c 1*height >= 0 @1000"]
    for r, c in cells:
        v = f"c{r}_{c}"
        if (r, c) != (0, 0):
            lines.append(f"c 1*{v}_width -1*c0_0_width == 0 @1000")
            lines.append(f"c 1*{v}_height -1*c0_0_height == 0 @1000")
        lines.append(f"c 1*{v}_left -1*left == {padding} @1000" if c == 0
                     else f"c 1*{v}_left -1*c{r}_{c - 1}_left -1*c{r}_{c - 1}_width == {spacing} @1000")
        lines.append(f"c 1*{v}_top -1*top == {padding} @1000" if r == 0
                     else f"c 1*{v}_top -1*c{r - 1}_{c}_top -1*c{r - 1}_{c}_height == {spacing} @1000")
        if c == n - 1:
            lines.append(f"c 1*left 1*width -1*{v}_left -1*{v}_width == {padding} @1000")
        if r == n - 1:
            lines.append(f"c 1*top 1*height -1*{v}_top -1*{v}_height == {padding} @1000")
        lines.append(f"c 1*{v}_width >= 10 @1000")
        lines.append(f"c 1*{v}_height >= 10 @1000")
        lines.append(f"c 1*{v}_width == 100 @250")
        lines.append(f"c 1*{v}_height == 40 @250")
    for w, h in [(1024, 768), (768, 1024), (1366, 1024), (1024, 1366), (2000, 1500), (1180, 820)]:
        lines.append(f"suggest width {w} height {h}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: make_grid_workload.py N")
    sys.stdout.write(grid(int(sys.argv[1])))
