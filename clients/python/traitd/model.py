"""traitd's values as Python sees them: a signal (``Event``) and the status record, the same shape as
``traitctl status --json``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The names and the settings table come from the contract traitd generates (``_contract.py``), never copied here.
from ._contract import BUS_NAME, DISPLAY, ROOT, SETTINGS, WINDOW, WINDOW_PREFIX

__all__ = ["BUS_NAME", "DISPLAY", "ROOT", "SETTINGS", "WINDOW", "WINDOW_PREFIX", "Event", "Rect", "app_of", "window_path"]


def window_path(app: str) -> str:
    """``/org/traitd/Layout1/window/<app>``: every character but A-Z a-z 0-9 escaped as _ and two hex digits."""
    return WINDOW_PREFIX + "".join(c if c.isascii() and c.isalnum() else "_%02x" % ord(c) for c in app)


def app_of(path: str) -> str | None:
    """The app whose window object has this path, or None."""
    if not path.startswith(WINDOW_PREFIX):
        return None
    text, out, i = path[len(WINDOW_PREFIX):], "", 0
    while i < len(text):
        if text[i] == "_" and i + 2 < len(text):
            out += chr(int(text[i + 1:i + 3], 16))
            i += 3
        else:
            out += text[i]
            i += 1
    return out


@dataclass(frozen=True)
class Event:
    """One signal of traitd: its member, object path, interface, the app whose window sent it (None for the
    display) and its arguments as plain Python values."""

    member: str
    path: str
    interface: str
    args: list[Any] = field(default_factory=list)

    @property
    def app(self) -> str | None:
        return app_of(self.path)

    @property
    def transition(self) -> int | None:
        """The transition id of a transition signal (its first argument), else None."""
        if self.interface == WINDOW and self.args and isinstance(self.args[0], int) and not isinstance(self.args[0], bool):
            return self.args[0]
        return None


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
