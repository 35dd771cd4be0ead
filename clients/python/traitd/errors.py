"""Every D-Bus error traitd names, one exception class each (``org.traitd.Layout1.Error.*``, and the
standard ``InvalidArgs``), so that a test can ``pytest.raises(NotOffered)``."""

from __future__ import annotations


class TraitdError(Exception):
    """A refusal from traitd: ``name`` is the D-Bus error name, the message what was wrong and what is allowed."""

    name = "org.freedesktop.DBus.Error.Failed"

    def __init__(self, message: str, name: str | None = None) -> None:
        super().__init__(message)
        if name is not None:
            self.name = name


class InvalidArgs(TraitdError):
    name = "org.freedesktop.DBus.Error.InvalidArgs"


def _named(suffix: str) -> type[TraitdError]:
    return type(suffix, (TraitdError,), {"name": "org.traitd.Layout1.Error." + suffix,
                                         "__doc__": f"org.traitd.Layout1.Error.{suffix}"})


NotOffered = _named("NotOffered")
NoSuchApp = _named("NoSuchApp")
AppExists = _named("AppExists")
RoleTaken = _named("RoleTaken")
MissingApp = _named("MissingApp")
NotDragging = _named("NotDragging")
Dragging = _named("Dragging")
NoDivider = _named("NoDivider")
OutOfRange = _named("OutOfRange")
StaleTransition = _named("StaleTransition")
AlreadyReported = _named("AlreadyReported")
NoSuchAdapter = _named("NoSuchAdapter")
AdapterExists = _named("AdapterExists")
LimitExceeded = _named("LimitExceeded")
GeometryRequestUnsupported = _named("GeometryRequestUnsupported")
GeometryRequestDenied = _named("GeometryRequestDenied")
EventsLost = _named("EventsLost")

_ALL: list[type[TraitdError]] = [InvalidArgs, NotOffered, NoSuchApp, AppExists, RoleTaken, MissingApp, NotDragging, Dragging,
                                  NoDivider, OutOfRange, StaleTransition, AlreadyReported, NoSuchAdapter, AdapterExists,
                                  LimitExceeded, EventsLost, GeometryRequestUnsupported, GeometryRequestDenied]
ERRORS: dict[str, type[TraitdError]] = {cls.name: cls for cls in _ALL}


def error_for(name: str, message: str) -> TraitdError:
    """The exception for a D-Bus error reply: its own class when traitd names it, else ``TraitdError``."""
    return ERRORS.get(name, TraitdError)(message, name)
