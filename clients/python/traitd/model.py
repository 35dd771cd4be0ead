"""traitd's values as Python sees them: a signal (``Event``) and the status record, the same shape as
``traitctl status --json``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

BUS_NAME = "org.traitd.Layout1"
ROOT = "/org/traitd/Layout1"
WINDOW_PREFIX = "/org/traitd/Layout1/window/"
DISPLAY = "org.traitd.Layout1.Display"
WINDOW = "org.traitd.Layout1.Window"

# The display-wide settings: property name -> traitctl's word (traitd's one table is DisplayTrait.all in
# Sources/Vocabulary/DisplayTrait.swift; a test compares status() with traitctl's).
SETTINGS = {
    "Appearance": "appearance", "ContentSizeCategory": "content-size", "LayoutDirection": "direction",
    "Contrast": "contrast", "LegibilityWeight": "legibility", "ReduceMotion": "reduce-motion",
}


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
