"""The binaries a wheel of traitd carries, and the commands pip puts on PATH for them.

``make wheel`` (scripts/build-wheel.sh) puts the release binaries (traitd, traitctl, traitd-adapters) in this
package's ``bin`` folder and declares a console command for each: ``traitctl`` after ``pip install`` runs the
carried traitctl. A package installed from source, or from the Debian package, carries none: ``bundled`` says
so with None, and the pytest plugin looks on PATH instead.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin")


def bundled(name: str) -> str | None:
    """The carried binary ``name``, or None when this package carries none."""
    path = os.path.join(FOLDER, name)
    return path if os.access(path, os.X_OK) else None


def _run(name: str) -> NoReturn:
    path = bundled(name)
    if path is None:
        sys.exit(f"{name}: this traitd Python package carries no binaries (only the wheel make wheel builds does); "
                 "install traitd's Debian package (make deb) or build it (make release)")
    # The interpreter that carries this package: `traitctl explore` runs the explorer with it (a venv's python,
    # where /usr/bin/python3 finds no traitd package).
    os.environ["TRAITD_PYTHON"] = sys.executable
    os.execv(path, [path, *sys.argv[1:]])


def traitd() -> NoReturn:
    _run("traitd")


def traitctl() -> NoReturn:
    _run("traitctl")


def traitd_adapters() -> NoReturn:
    _run("traitd-adapters")
